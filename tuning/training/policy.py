"""A trained masked-PPO policy seated as an agent, for the match runner and the env's seats.

``PolicyAgent`` encodes its ``PlayerView`` exactly as the env encodes the learner's seat
(``envs.observation.ObservationEncoder``, rotated so that its seat is seat 0, then
``FeatureEncoder``), masks the policy's action distribution with ``view.legal_actions`` and
plays the most probable legal action (``deterministic=True``, the default) or states the masked
distribution, from which the runners draw. Its batched form ``BatchedPolicy`` does the same for
every row of a ``DecisionBatch`` (``envs.observation.encode_batch``, which gives a row what
``ObservationEncoder`` gives its view) with one network call, so that evaluation matches run on
the batched engine. Neither learns during a match; training happens in
``tuning.training.trainer``.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from agents.base import KnownPolicyAgent, Probabilities, legal_actions
from agents.strength.ranged import RANGE_FEATURES
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.observation import ObservationEncoder, encode_batch
from envs.rules import Action, Rules
from envs.view import PlayerView
from tuning.training.observation_features import FeatureEncoder, seat_relative
from tuning.training.privileged import public_width

__all__ = ["BatchedPolicy", "PolicyAgent", "fitting_encoder", "policy_probabilities"]

Floats = npt.NDArray[np.float64]


def policy_probabilities(
    model: Any, features: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_]
) -> Floats:
    """``(k, 3)`` probabilities of ``model``'s policy on ``features``, zero where ``legal`` is
    False, in float64 (so that draws accept their sums); one network call for all rows."""
    logits = _actor(model)(features).astype(np.float64)
    logits = np.where(legal, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    probabilities: Floats = weights / weights.sum(axis=1, keepdims=True)
    return probabilities


class _NumpyActor:
    """The policy network's logits in NumPy: a match asks for one decision at a time, where
    torch's per-call overhead is about 30 times the arithmetic of a 64-64 network.

    The arrays are views of the network's parameters (``Tensor.numpy`` shares memory), so an
    optimiser's in-place steps show through; float32 as in torch, so the logits agree to
    rounding (the golden test's 1e-6).
    """

    def __init__(self, layers: list[tuple[Any, Any, str]]) -> None:
        self._layers = layers

    def __call__(self, features: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        x = np.asarray(features, dtype=np.float32)
        for weight, bias, activation in self._layers:
            x = x @ weight.T + bias
            if activation == "tanh":
                x = np.tanh(x)
            elif activation == "relu":
                x = np.maximum(x, 0.0)
        return x


_ACTIVATIONS = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}
_ACTORS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
"""Actors by policy object, not copied with it (a deep copy has tensors of its own)."""


def _actor(model: Any) -> Any:
    """The NumPy actor of ``model`` (built once per policy), or torch's for other networks."""
    policy = model.policy
    actor = _ACTORS.get(policy)
    if actor is None:
        actor = _numpy_actor(policy) or _torch_actor(policy)
        _ACTORS[policy] = actor
    return actor


def _numpy_actor(policy: Any) -> _NumpyActor | None:
    """``None`` unless the actor is flatten, then linear layers each followed by tanh or ReLU,
    then the linear action head, on the CPU."""
    public = public_width(policy)
    if public is None and type(policy.pi_features_extractor).__name__ != "FlattenExtractor":
        return None
    if policy.action_net.weight.device.type != "cpu":
        return None
    modules = list(policy.mlp_extractor.policy_net)
    layers: list[tuple[Any, Any, str]] = []
    for index, module in enumerate(modules):
        if isinstance(module, torch.nn.Linear):
            following = modules[index + 1] if index + 1 < len(modules) else None
            activation = _ACTIVATIONS.get(type(following), "")
            if following is not None and not activation:
                return None
            layers.append(_linear(module, activation, public if not layers else None))
        elif type(module) not in _ACTIVATIONS:
            return None
    layers.append(_linear(policy.action_net, ""))
    return _NumpyActor(layers)


def _linear(module: Any, activation: str, columns: int | None = None) -> tuple[Any, Any, str]:
    """A layer's arrays; ``columns``: only the weights on the first ones (an asymmetric
    actor's public features, ``tuning.training.privileged``)."""
    weight = module.weight.detach().numpy()
    if columns is not None:
        weight = weight[:, :columns]
    return weight, module.bias.detach().numpy(), activation


def _torch_actor(policy: Any) -> Any:
    width = int(policy.observation_space.shape[0])

    def logits(features: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        if features.shape[1] < width:  # an asymmetric actor's public columns only
            features = np.pad(features, ((0, 0), (0, width - features.shape[1])))
        with torch.no_grad():
            tensor = torch.as_tensor(features, device=policy.action_net.weight.device)
            latent = policy.mlp_extractor.forward_actor(policy.pi_features_extractor(tensor))
            out: npt.NDArray[np.float32] = policy.action_net(latent).cpu().numpy()
        return out

    return logits


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
        trained_for: The rules it was trained under, if known: a table of other rules
            raises ``ValueError`` (otherwise only a table whose features do not fit the
            network does).
    """

    name = "ppo"
    memoryless = True

    def __init__(
        self,
        model: Any,
        *,
        deterministic: bool = True,
        name: str = "ppo",
        trained_for: Rules | None = None,
    ) -> None:
        super().__init__()
        self.model = model
        self.deterministic = deterministic
        self.name = name
        self.trained_for = trained_for
        self._encoder: FeatureEncoder | None = None
        self._observations: ObservationEncoder | None = None

    def features(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """``(1, size)``: the network's input at ``view``, its seat seen as seat 0."""
        if self._encoder is None or self._encoder.rules != view.rules:
            self._encoder = fitting_encoder(self.model, view.rules, self.trained_for, self.name)
            self._observations = ObservationEncoder(view.rules)
        assert self._observations is not None
        obs = self._observations.encode(view)
        batched = {key: np.asarray(value)[None] for key, value in obs.items()}
        if view.seat == 0:  # already seat 0: rotating would copy the same arrays
            return self._encoder.encode(batched)
        return self._encoder.encode(seat_relative(batched, [view.seat]))

    def probabilities(self, view: PlayerView) -> Floats:
        """The policy's probability of fold, check/call and bet/raise, illegal ones zero."""
        legal = legal_actions(view)
        features = self.features(view)
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
        return PolicyAgent(
            self.model,
            deterministic=self.deterministic,
            name=self.name,
            trained_for=self.trained_for,
        )

    def batched(self, num_tables: int) -> BatchedPolicy:
        """The batched form: the same policy at ``num_tables`` tables."""
        return BatchedPolicy(
            self.model,
            num_tables,
            deterministic=self.deterministic,
            name=self.name,
            trained_for=self.trained_for,
        )


class BatchedPolicy:
    """``PolicyAgent`` at many tables at once (``envs.protocols.BatchedAgent``): the same
    probabilities for the same decisions, one network call per batch of decisions."""

    known_policy = True
    hand_uniform = False
    memoryless = True

    def __init__(
        self,
        model: Any,
        num_tables: int,
        *,
        deterministic: bool = True,
        name: str = "ppo",
        trained_for: Rules | None = None,
    ) -> None:
        self.model = model
        self.num_tables = num_tables
        self.deterministic = deterministic
        self.name = name
        self.trained_for = trained_for
        self._encoder: FeatureEncoder | None = None

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Nothing to forget: the policy is frozen and has no memory."""

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Nothing to learn."""

    def features(self, batch: DecisionBatch) -> npt.NDArray[np.float32]:
        """``(k, size)``: the network's input at every row, each row's seat seen as seat 0."""
        encoder = self._encoder_for(batch.rules)
        return encoder.encode(seat_relative(encode_batch(batch), batch.seat))

    def probabilities(self, batch: DecisionBatch) -> Floats:
        """``(k, 3)``: the most probable legal action for sure, or the masked distribution."""
        features = self.features(batch)
        probabilities = policy_probabilities(self.model, features, np.asarray(batch.legal))
        return _most_probable(probabilities) if self.deterministic else probabilities

    def _encoder_for(self, rules: Rules) -> FeatureEncoder:
        if self._encoder is None or self._encoder.rules != rules:
            self._encoder = fitting_encoder(self.model, rules, self.trained_for, self.name)
        return self._encoder


def fitting_encoder(
    model: Any, rules: Rules, trained_for: Rules | None, name: str
) -> FeatureEncoder:
    """The feature encoder of ``rules`` for ``model``, the policy of agent ``name``.

    Raises:
        ValueError: when ``rules`` are not ``trained_for`` (when known), or give another
            number of features than the network takes.
    """
    if trained_for is not None and rules != trained_for:
        raise ValueError(
            f"{name} was trained at a table of {trained_for.num_seats} seats ({trained_for}) "
            f"and cannot play at one of {rules.num_seats} seats ({rules})"
        )
    space = getattr(model, "observation_space", None)  # None: features only, no network yet
    plain = FeatureEncoder(rules)
    public = public_width(getattr(model, "policy", None))
    expected = plain.size if space is None else public or int(space.shape[0])
    for encoder in (plain, FeatureEncoder(rules, ranged=True)):
        if encoder.size == expected:
            return encoder
    raise ValueError(
        f"{name}'s network takes {expected} features but a table of {rules.num_seats} "
        f"seats gives {plain.size} (or {plain.size + RANGE_FEATURES + 1} with the range "
        "features): it was trained for other rules or seat counts"
    )
