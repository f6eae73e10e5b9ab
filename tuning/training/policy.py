"""A trained masked-PPO policy seated as an agent, for the match runner and the env's seats.

``PolicyAgent`` encodes its ``PlayerView`` exactly as the env encodes the learner's seat
(``envs.observation.ObservationEncoder``, then ``FeatureEncoder``), masks the policy's action
distribution with ``view.legal_actions`` and plays the most probable legal action
(``deterministic=True``, the default) or draws one with its own generator. It does not learn
during a match; training happens in ``tuning.training.trainer``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from agents.base import KnownPolicyAgent, Probabilities, legal_actions
from envs.observation import ObservationEncoder
from envs.rules import Action
from envs.view import PlayerView
from tuning.training.observation_features import FeatureEncoder

__all__ = ["PolicyAgent"]


class PolicyAgent(KnownPolicyAgent):
    """Agent card: plays a trained ``MaskablePPO`` model's policy, frozen.

    Args:
        model: The ``sb3_contrib.MaskablePPO`` model (trained on ``FeatureEncoder`` features of
            the same rules as the table it sits at).
        deterministic: Play the most probable legal action; otherwise draw from the masked
            distribution with the agent's generator (``reset(rng)``).
        name: Its name in match results.
    """

    name = "ppo"
    stateless = True

    def __init__(self, model: Any, *, deterministic: bool = True, name: str = "ppo") -> None:
        super().__init__()
        self.model = model
        self.deterministic = deterministic
        self.name = name
        self._encoder: FeatureEncoder | None = None
        self._observations: ObservationEncoder | None = None

    def probabilities(self, view: PlayerView) -> npt.NDArray[np.float64]:
        """The policy's probability of fold, check/call and bet/raise, illegal ones zero."""
        legal = legal_actions(view)
        if self._encoder is None or self._encoder.rules != view.rules:
            self._encoder = FeatureEncoder(view.rules)
            self._observations = ObservationEncoder(view.rules)
        assert self._observations is not None
        obs = self._observations.encode(view)
        features = self._encoder.encode_one(obs)[None]
        mask = np.zeros((1, len(Action)), dtype=bool)
        mask[0, list(legal)] = True
        policy = self.model.policy
        with torch.no_grad():
            tensor = torch.as_tensor(features, device=policy.device)
            distribution = policy.get_distribution(tensor, action_masks=mask)
            probs = distribution.distribution.probs.cpu().numpy()[0].astype(np.float64)
        probs = np.where(mask[0], probs, 0.0)
        normalised: npt.NDArray[np.float64] = probs / probs.sum()
        return normalised  # in float64, so that Generator.choice accepts the sum

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """The most probable legal action for sure, or the masked policy's distribution."""
        probs = self.probabilities(view)
        if self.deterministic:
            certain = np.zeros(len(Action))
            certain[int(np.argmax(probs))] = 1.0
            probs = certain
        return (float(probs[0]), float(probs[1]), float(probs[2]))

    def spawn(self) -> PolicyAgent:
        """A fresh agent playing the same (shared, frozen) model."""
        return PolicyAgent(self.model, deterministic=self.deterministic, name=self.name)
