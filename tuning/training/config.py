"""The settings of one training run (``holdem-lab train``), saved as ``config.json`` in its run."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from envs.validation import whole_number

__all__ = ["EVAL_SEED_OFFSET", "TrainConfig"]

EVAL_SEED_OFFSET = 1_000_000
"""Evaluation match seeds default to ``seed + EVAL_SEED_OFFSET``: a range the training seeds
(small numbers) do not use, so that two runs never evaluate on each other's training seed."""


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    """A masked-PPO training run against fixed opponents, with held-out evaluations.

    Training deals come from the tables' generators, seeded from ``SeedSequence([seed,
    segment])`` (a segment is one start or resumption of the run); evaluation deals are the
    match runner's ``deal_deck(eval_seed, d)``, the same at every checkpoint (common random
    numbers between checkpoints) and drawn apart from the training deals.
    """

    opponents: tuple[str, ...]
    """Registry names of the opponents in seats 1..n-1 (the learner sits in seat 0)."""
    steps: int
    """Learner decisions (PPO timesteps) to train for in all, resumptions included."""
    seed: int
    """Root seed of the tables, the network's initialisation and PPO's minibatches."""
    num_envs: int = 512
    """Tables stepped together (``envs.vector_env``). With ``n_steps`` it sets a rollout:
    512 x 64 = 32,768 decisions, whose averaged gradients are less noisy than 64 tables' and
    whose steps cost less per decision (results/training.md section 8)."""
    eval_every: int = 250_000
    """Evaluate and save a checkpoint every this many timesteps (and at the start and end),
    at the first update at or after each multiple (PPO changes the model once per rollout);
    against learning opponents a checkpoint's match plays its sessions one hand at a time."""
    eval_hands: int = 4_000
    """Hands of each checkpoint's duplicate match (rounded up to whole deals)."""
    final_eval_hands: int = 20_000
    """Hands of the final model's duplicate match, reported in ``summary.json``."""
    eval_seed: int | None = None
    """Seed of the evaluation deals; ``None``: ``seed + EVAL_SEED_OFFSET``."""
    eval_session_deals: int | None = 600
    """Deals per seating of an evaluation session: learning opponents (BPP, Loki) start every
    session fresh, as in the LBR bounds' matches (``tuning.training.ceiling``); ``None``: the
    whole evaluation is one session (the protocol of runs saved before this setting)."""
    eval_aivat: bool = True
    """Report the evaluations' AIVAT estimates (``envs.aivat``: unbiased, lower variance),
    as the LBR bounds do; ``False``: the plain winnings (runs saved before this setting)."""
    n_steps: int = 64
    """PPO rollout length per table (a rollout is ``n_steps * num_envs`` decisions)."""
    batch_size: int = 4096
    """PPO minibatch size (8 minibatches per epoch of a default rollout)."""
    n_epochs: int = 4
    """PPO passes over each rollout."""
    learning_rate: float = 1e-3
    """Adam step size at the start (SB3's 3e-4 was set for minibatches of 64; these are 64
    times larger)."""
    anneal_lr: bool = True
    """Let the step size fall linearly from ``learning_rate`` to 0 at ``steps`` (a resumption
    to more steps stretches the line to the new end)."""
    gamma: float = 1.0
    """Discount: none within a hand (a hand is one episode, paid at its end)."""
    gae_lambda: float = 0.95
    """GAE's bias-variance trade-off."""
    ent_coef: float = 0.01
    """Entropy bonus (SB3's usual value)."""
    reward_scale: float = 1.0
    """Factor on the rewards PPO trains on (they are in big blinds, up to +-24 heads-up with
    the default stacks); the value network then fits targets of moderate size."""
    fold_bias: float = -3.0
    """Added to the fresh policy's fold logit: -3 makes folding rare at first (about 2.4% at
    a bet against 1/3 for SB3's near-uniform start). A start that folds a third of the time
    at every bet loses far more against ``raise`` by folding after investing than by folding
    at once, so it learns to fold every hand before it learns which to play
    (``results/training.md``)."""
    net_arch: tuple[int, ...] = (64, 64)
    """Hidden layers of the policy and of the value network (separate networks)."""
    session_hands: int | None = 600
    """Hands after which a training table starts a new match with fresh opponents, as the
    evaluation's sessions and the LBR bounds' matches do (``results/training.md`` sections
    11 to 13: against the BPPs, which learn the learner within a match, training against
    opponents in a state the evaluation never meets cost up to 12 points of the bound);
    ``None``: each table is one match for the whole run."""
    range_features: bool = True
    """Add the range block to the features (``tuning.training.observation_features``): the
    hand's strength against the range one generic model of the opponents' betting leaves
    (``agents.strength.ranged``). With sessions, the default since ``results/training.md``
    section 13 (90% of the LBR bound or more against the five papers' agents on seeds 1 to
    3); ``False``: the plain features, cheaper by about a fifth."""
    privileged_critic: bool = False
    """Let the value network see every opponent's own features (its hole cards' ranks,
    strength and equity) in training, the policy network still the learner's alone: an
    asymmetric actor-critic (``tuning.training.privileged``), whose advantages carry less of
    the cards' noise."""
    threads: int = 1
    """Torch CPU threads (1: reproducible, and fair to a shared machine)."""

    def __post_init__(self) -> None:
        if not isinstance(self.opponents, tuple) or not self.opponents:
            raise ValueError(f"opponents must be a non-empty tuple of names: {self.opponents!r}")
        if not 1 <= len(self.opponents) <= 9:
            raise ValueError(f"1 to 9 opponents (2 to 10 seats), got {len(self.opponents)}")
        for name in ("steps", "num_envs", "eval_every", "n_steps", "batch_size", "n_epochs"):
            whole_number(name, getattr(self, name), minimum=1)
        whole_number("seed", self.seed, minimum=0)
        whole_number("eval_hands", self.eval_hands, minimum=2)
        whole_number("final_eval_hands", self.final_eval_hands, minimum=2)
        whole_number("threads", self.threads, minimum=1)
        if self.eval_seed is not None:
            whole_number("eval_seed", self.eval_seed, minimum=0)
        if self.session_hands is not None:
            whole_number("session_hands", self.session_hands, minimum=1)
        if self.eval_session_deals is not None:
            whole_number("eval_session_deals", self.eval_session_deals, minimum=1)
        if self.batch_size > self.n_steps * self.num_envs:
            raise ValueError(
                f"batch_size ({self.batch_size}) exceeds a rollout of n_steps * num_envs = "
                f"{self.n_steps * self.num_envs} decisions"
            )
        if not (self.learning_rate > 0 and 0 < self.gamma <= 1 and 0 <= self.gae_lambda <= 1):
            raise ValueError("need learning_rate > 0, 0 < gamma <= 1 and 0 <= gae_lambda <= 1")
        if not self.reward_scale > 0 or not np.isfinite(self.fold_bias):
            raise ValueError("need reward_scale > 0 and a finite fold_bias")
        if self.ent_coef < 0 or not self.net_arch or min(self.net_arch) < 1:
            raise ValueError("need ent_coef >= 0 and at least one hidden layer of width >= 1")

    @property
    def match_seed(self) -> int:
        """The evaluation deals' seed (``eval_seed`` or its default)."""
        return self.eval_seed if self.eval_seed is not None else self.seed + EVAL_SEED_OFFSET

    def eval_sessions(self, hands: int) -> int:
        """Sessions of an evaluation match of ``hands`` hands (at least one; the match runner
        rounds the hands up to whole deals in equal sessions)."""
        if self.eval_session_deals is None:
            return 1
        deals = -(-hands // (len(self.opponents) + 1))
        return max(1, round(deals / self.eval_session_deals))

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        """Rebuild from ``to_json``'s content; ``ValueError`` on unknown or missing fields."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown training settings {unknown}")
        # Runs saved before these settings existed evaluated as below; resuming keeps that.
        values = {
            "eval_session_deals": None,
            "eval_aivat": False,
            "session_hands": None,
            "range_features": False,
            "privileged_critic": False,
            **data,
        }
        for key in ("opponents", "net_arch"):
            if key in values:
                values[key] = tuple(values[key])
        try:
            return cls(**values)
        except TypeError as error:
            raise ValueError(f"incomplete training settings: {error}") from None

    @classmethod
    def load(cls, path: Path) -> TrainConfig:
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))
