"""A trained masked-PPO policy seated as an agent, for the match runner and the env's seats.

``PolicyAgent`` encodes its ``PlayerView`` exactly as the env encodes the learner's seat
(``envs.observation.ObservationEncoder``, rotated so that its seat is seat 0, then
``FeatureEncoder``), masks the policy's action distribution with ``view.legal_actions`` and
plays the most probable legal action (``deterministic=True``, the default) or states the masked
distribution, from which the runners draw. Its batched form ``BatchedPolicy`` does the same for
every row of a ``DecisionBatch`` with one network call, so that evaluation matches run on the
batched engine. Neither learns during a match; training happens in ``tuning.training.trainer``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from agents.base import KnownPolicyAgent, Probabilities, legal_actions
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.observation import NO_CARD, ObservationEncoder
from envs.rules import Action, Rules
from envs.view import PlayerView
from tuning.training.observation_features import FeatureEncoder, seat_relative

__all__ = ["BatchedPolicy", "PolicyAgent", "policy_probabilities"]

Floats = npt.NDArray[np.float64]


def policy_probabilities(
    model: Any, features: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_]
) -> Floats:
    """``(k, 3)`` probabilities of ``model``'s policy on ``features``, zero where ``legal`` is
    False, in float64 (so that draws accept their sums); one network call for all rows."""
    policy = model.policy
    with torch.no_grad():
        tensor = torch.as_tensor(features, device=policy.device)
        latent = policy.mlp_extractor.forward_actor(
            policy.extract_features(tensor, policy.pi_features_extractor)
        )
        logits = policy.action_net(latent).cpu().numpy().astype(np.float64)
    logits = np.where(legal, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    probabilities: Floats = weights / weights.sum(axis=1, keepdims=True)
    return probabilities


def _most_probable(probabilities: Floats) -> Floats:
    certain = np.zeros_like(probabilities)
    certain[np.arange(len(probabilities)), probabilities.argmax(axis=1)] = 1.0
    return certain


class PolicyAgent(KnownPolicyAgent):
    """Agent card: plays a trained ``MaskablePPO`` model's policy, frozen.

    Args:
        model: The ``sb3_contrib.MaskablePPO`` model (trained on ``FeatureEncoder`` features of
            the same rules as the table it sits at).
        deterministic: Play the most probable legal action; otherwise state the masked
            distribution (the runners draw from it).
        name: Its name in match results.
    """

    name = "ppo"
    memoryless = True

    def __init__(self, model: Any, *, deterministic: bool = True, name: str = "ppo") -> None:
        super().__init__()
        self.model = model
        self.deterministic = deterministic
        self.name = name
        self._encoder: FeatureEncoder | None = None
        self._observations: ObservationEncoder | None = None

    def probabilities(self, view: PlayerView) -> Floats:
        """The policy's probability of fold, check/call and bet/raise, illegal ones zero."""
        legal = legal_actions(view)
        if self._encoder is None or self._encoder.rules != view.rules:
            self._encoder = FeatureEncoder(view.rules)
            self._observations = ObservationEncoder(view.rules)
        assert self._observations is not None
        obs = self._observations.encode(view)
        batched = {key: np.asarray(value)[None] for key, value in obs.items()}
        features = self._encoder.encode(seat_relative(batched, [view.seat]))
        mask = np.zeros((1, len(Action)), dtype=bool)
        mask[0, list(legal)] = True
        row: Floats = policy_probabilities(self.model, features, mask)[0]
        return row

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """The most probable legal action for sure, or the masked policy's distribution."""
        probs = self.probabilities(view)[None]
        if self.deterministic:
            probs = _most_probable(probs)
        return (float(probs[0, 0]), float(probs[0, 1]), float(probs[0, 2]))

    def spawn(self) -> PolicyAgent:
        """A fresh agent playing the same (shared, frozen) model."""
        return PolicyAgent(self.model, deterministic=self.deterministic, name=self.name)

    def batched(self, num_tables: int) -> BatchedPolicy:
        """The batched form: the same policy at ``num_tables`` tables."""
        return BatchedPolicy(self.model, num_tables, deterministic=self.deterministic)


class BatchedPolicy:
    """``PolicyAgent`` at many tables at once (``envs.protocols.BatchedAgent``): the same
    probabilities for the same decisions, one network call per batch of decisions."""

    known_policy = True
    hand_uniform = False
    memoryless = True

    def __init__(
        self, model: Any, num_tables: int, *, deterministic: bool = True, name: str = "ppo"
    ) -> None:
        self.model = model
        self.num_tables = num_tables
        self.deterministic = deterministic
        self.name = name
        self._encoder: FeatureEncoder | None = None

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Nothing to forget: the policy is frozen and has no memory."""

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Nothing to learn."""

    def probabilities(self, batch: DecisionBatch) -> Floats:
        """``(k, 3)``: the most probable legal action for sure, or the masked distribution."""
        encoder = self._encoder_for(batch.rules)
        features = encoder.encode(seat_relative(decision_observations(batch), batch.seat))
        probabilities = policy_probabilities(self.model, features, np.asarray(batch.legal))
        return _most_probable(probabilities) if self.deterministic else probabilities

    def _encoder_for(self, rules: Rules) -> FeatureEncoder:
        if self._encoder is None or self._encoder.rules != rules:
            self._encoder = FeatureEncoder(rules)
        return self._encoder


def decision_observations(batch: DecisionBatch) -> dict[str, Any]:
    """The observation keys ``FeatureEncoder`` reads, for every row of ``batch``, in the env's
    layout (absolute seats, as ``envs.observation.encode_tables`` gives them)."""
    n = batch.rules.num_seats
    board_len = np.asarray(batch.board_len, dtype=np.int64)
    board = np.where(np.arange(5) < board_len[:, np.newaxis], batch.board, NO_CARD)
    length = np.asarray(batch.log_street).shape[1]
    logged = np.arange(length) < np.asarray(batch.log_len)[:, np.newaxis]
    history = np.full((len(board_len), length, 3), -1, dtype=np.int64)
    for column, log in enumerate((batch.log_street, batch.log_seat, batch.log_action)):
        np.copyto(history[:, :, column], log, where=logged)
    seat = np.asarray(batch.seat, dtype=np.int64)
    return {
        "hole": np.asarray(batch.hole, dtype=np.int64),
        "board": board.astype(np.int64),
        "street": np.asarray(batch.street, dtype=np.int64),
        "position": (seat - np.asarray(batch.button, dtype=np.int64) - 1) % n,
        "pot": np.asarray(batch.pot, dtype=np.int64)[:, np.newaxis],
        "to_call": np.asarray(batch.to_call, dtype=np.int64)[:, np.newaxis],
        "num_bets": np.asarray(batch.num_bets, dtype=np.int64),
        "bets": np.asarray(batch.bets, dtype=np.int64),
        "contributions": np.asarray(batch.contributions, dtype=np.int64),
        "stacks": np.asarray(batch.stacks, dtype=np.int64),
        "folded": np.asarray(batch.folded, dtype=np.int8),
        "history": history,
    }
