"""An asymmetric actor-critic: the value network also sees the opponents' cards, in training only.

Most of the noise in a learner's advantage estimates is the cards it cannot see: a hand's
result swings by several big blinds with the opponents' holdings and the board to come. A
value network that sees the opponents' own features (their hole cards' ranks, strength and
equity, computed from each opponent's view as the learner's are from its own) predicts much
more of a hand's result, so PPO's advantages, rewards minus those predictions, vary less. The
policy network still reads only the learner's features: this is the asymmetric actor-critic
of Pinto, Andrychowicz, Welinder, Zaremba and Abbeel ("Asymmetric actor critic for image-based
robot learning", RSS 2018), where the critic is a training-time device and the trained policy
plays from its own observation alone.

The observations PPO trains on are ``[learner's features | each opponent's features]``
(``critic_features``). ``PublicColumns`` is the actor's features extractor: it zeroes every
column after the learner's ``public`` ones, so the policy's output depends on them alone (the
first layer's weights on the zeroed columns get no gradient). ``AsymmetricPolicy`` gives the
critic the whole row. A saved model keeps both; at play time (``tuning.training.policy``) the
actor is fed the public columns only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, FlattenExtractor

from envs.batched.engine import HandBatch
from envs.observation import encode_batch, seat_batch, shown_cards
from tuning.training.observation_features import FeatureEncoder, seat_relative

__all__ = ["AsymmetricPolicy", "PublicColumns", "critic_features", "public_width"]


class PublicColumns(BaseFeaturesExtractor):
    """The actor's features: the observation with every column from ``public`` on set to 0."""

    def __init__(self, observation_space: spaces.Box, public: int) -> None:
        width = int(np.prod(observation_space.shape))
        if not 0 < public <= width:
            raise ValueError(f"public columns must be 1 to {width}, got {public}")
        super().__init__(observation_space, width)
        self.public = public
        mask = torch.zeros(width)
        mask[:public] = 1.0
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        flat = torch.flatten(observations, start_dim=1)
        return flat * self.mask  # type: ignore[operator]


class AsymmetricPolicy(MaskableActorCriticPolicy):
    """``MaskablePPO``'s policy with separate extractors: ``PublicColumns`` for the actor
    (``features_extractor_kwargs={"public": n}``), the whole row for the critic."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["features_extractor_class"] = PublicColumns
        kwargs["share_features_extractor"] = False
        super().__init__(*args, **kwargs)
        # Both extractors are parameter-free, so the optimiser built above is unchanged.
        self.vf_features_extractor = FlattenExtractor(self.observation_space)


def public_width(policy: Any) -> int | None:
    """The columns the actor of ``policy`` reads (``None``: all of its input)."""
    extractor = getattr(policy, "pi_features_extractor", None)
    return extractor.public if isinstance(extractor, PublicColumns) else None


def critic_features(
    batch: HandBatch, encoder: FeatureEncoder, rows: npt.NDArray[np.intp] | None = None
) -> npt.NDArray[np.float32]:
    """``(k, (S - 1) * encoder.size)``: every opponent's features from its own view at the
    tables ``rows`` (default: all), seats 1 to S - 1 in order, each seen as seat 0."""
    shown = shown_cards(batch, rows)
    blocks = []
    for seat in range(1, batch.num_seats):
        view = encode_batch(seat_batch(batch, seat, rows), shown)
        seats = np.full(len(view["folded"]), seat, dtype=np.int64)
        blocks.append(encoder.encode(seat_relative(view, seats)))
    return np.concatenate(blocks, axis=1)
