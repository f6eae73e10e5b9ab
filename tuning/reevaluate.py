"""Beating the winner's curse: re-evaluate the top trials on fresh deals, then confirm.

``study.best_value`` is the maximum of noisy observations and overstates the true value of its
parameters. So the top ``k`` fully evaluated trials and the agent's defaults are played again on
re-evaluation deals (another seed namespace, the same deals and decision uniforms for every
candidate), the best re-evaluated trial is the tuned candidate, and a third, independent
confirmation match on confirmation deals compares it with the defaults. The confirmation
plays rounds of blocks until the 95% interval of the paired difference is narrow enough (a
target half-width) or a cap is reached: the decision to go on depends only on the interval's
width, never on which side of zero it lies. All figures are AIVAT-corrected, in small bets per
hand, with Student-t intervals over blocks; differences are paired by block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import optuna
from optuna.trial import TrialState

from envs.stats import mean_estimate
from tuning.evaluation import Namespace
from tuning.pool import EvaluationPool, OnHands

__all__ = [
    "DEFAULTS",
    "Candidate",
    "Confirmation",
    "Estimate",
    "confirm",
    "estimates",
    "top_candidates",
]

DEFAULTS = "defaults"


@dataclass(frozen=True)
class Candidate:
    """A parameter set to re-evaluate: a trial's, or the defaults."""

    label: str
    trial: int | None
    values: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (the study attribute ``winner``)."""
        return {"label": self.label, "trial": self.trial, "values": self.values}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Candidate:
        """Inverse of ``to_dict``."""
        return cls(data["label"], data["trial"], dict(data["values"]))


@dataclass(frozen=True)
class Estimate:
    """A candidate's figures on some deals, in small bets per hand (95% t intervals over
    blocks); the difference is paired with the defaults on the same deals."""

    label: str
    trial: int | None
    hands: int
    mean: float
    ci: tuple[float, float]
    diff: float
    diff_ci: tuple[float, float]

    @property
    def half_width(self) -> float:
        """Half the width of the paired difference's interval."""
        return (self.diff_ci[1] - self.diff_ci[0]) / 2

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {**asdict(self), "ci": list(self.ci), "diff_ci": list(self.diff_ci)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Estimate:
        """Inverse of ``to_dict``."""
        low, high = data["ci"]
        diff_low, diff_high = data["diff_ci"]
        return cls(
            label=data["label"],
            trial=data["trial"],
            hands=data["hands"],
            mean=data["mean"],
            ci=(low, high),
            diff=data["diff"],
            diff_ci=(diff_low, diff_high),
        )


@dataclass(frozen=True)
class Confirmation:
    """The tuned candidate against the defaults on independent deals (sb/hand)."""

    defaults: Estimate
    tuned: Estimate
    diff: float
    """Tuned minus defaults, paired by block."""
    diff_ci: tuple[float, float]
    hands: int
    """Hands each of the two played."""
    target_half_width: float | None = None
    """The half-width the confirmation played for (``None``: a fixed number of blocks)."""

    @classmethod
    def of(cls, defaults: Estimate, tuned: Estimate, target: float | None = None) -> Confirmation:
        """The confirmation of ``tuned`` (whose difference is paired with ``defaults``)."""
        return cls(defaults, tuned, tuned.diff, tuned.diff_ci, tuned.hands, target)

    @property
    def half_width(self) -> float:
        """Half the width of the difference's 95% interval."""
        return (self.diff_ci[1] - self.diff_ci[0]) / 2

    def predicate(self) -> str:
        """ "beat the defaults by ...", "do not beat the defaults (...)" or "lose to the
        defaults by ...", with the 95% interval."""
        lo, hi = self.diff_ci
        ci = f"95% CI [{lo:+.4f}, {hi:+.4f}]"
        if lo > 0:
            return f"beat the defaults by {self.diff:.4f} sb/hand ({ci})"
        if hi < 0:
            return f"lose to the defaults by {-self.diff:.4f} sb/hand ({ci})"
        return f"do not beat the defaults ({self.diff:+.4f} sb/hand, {ci} contains 0)"

    def verdict(self, subject: str = "the tuned parameters") -> str:
        """The answer in words, e.g. "the tuned parameters beat the defaults by ...", with the
        hands played."""
        return (
            f"{subject} ({self.tuned.label}) {self.predicate()}, "
            f"{self.hands:,} hands each on independent confirmation deals"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (the study attribute ``confirmation``)."""
        return {
            "defaults": self.defaults.to_dict(),
            "tuned": self.tuned.to_dict(),
            "diff": self.diff,
            "diff_ci": list(self.diff_ci),
            "hands": self.hands,
            "target_half_width": self.target_half_width,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Confirmation:
        """Inverse of ``to_dict``."""
        low, high = data["diff_ci"]
        return cls(
            Estimate.from_dict(data["defaults"]),
            Estimate.from_dict(data["tuned"]),
            data["diff"],
            (low, high),
            data["hands"],
            data.get("target_half_width"),
        )


def top_candidates(study: optuna.Study, defaults: Mapping[str, float], k: int) -> list[Candidate]:
    """The defaults, then the ``k`` best fully evaluated trials with distinct parameters."""
    chosen = [Candidate(DEFAULTS, None, dict(defaults))]
    seen = {tuple(sorted(defaults.items()))}
    trials = [
        t
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if t.value is not None and not t.user_attrs.get("pruned", False)
    ]
    for trial in sorted(trials, key=lambda t: (-(t.value or 0.0), t.number)):
        key = tuple(sorted(trial.params.items()))
        if key in seen:
            continue
        seen.add(key)
        chosen.append(Candidate(f"trial {trial.number}", trial.number, dict(trial.params)))
        if len(chosen) > k:
            break
    return chosen


def estimates(
    candidates: Sequence[Candidate], values: npt.NDArray[np.float64], hands: int
) -> list[Estimate]:
    """Each candidate's estimate from its block values (rows of ``values``); the first
    candidate is the reference of the paired differences (the defaults)."""
    out = []
    for candidate, row in zip(candidates, values, strict=True):
        level = mean_estimate(row)
        diff = mean_estimate(row - values[0]) if candidate is not candidates[0] else None
        out.append(
            Estimate(
                label=candidate.label,
                trial=candidate.trial,
                hands=hands,
                mean=level.mean,
                ci=_interval(level.ci, level.mean),
                diff=diff.mean if diff else 0.0,
                diff_ci=_interval(diff.ci, diff.mean) if diff else (0.0, 0.0),
            )
        )
    return out


def _interval(ci: tuple[float, float] | None, mean: float) -> tuple[float, float]:
    return ci if ci is not None else (mean, mean)


def confirm(
    pool: EvaluationPool,
    defaults: Candidate,
    tuned: Candidate,
    *,
    blocks: int,
    target_half_width: float | None,
    max_blocks: int,
    on_hands: OnHands | None = None,
) -> Confirmation:
    """``tuned`` against ``defaults`` on confirmation deals: ``blocks`` blocks, then rounds of
    ``blocks // 2`` more until the paired interval's half-width is at most
    ``target_half_width`` or ``max_blocks`` are played."""
    pair = [defaults, tuned]
    values = np.zeros((2, 0))
    step, played = blocks, 0
    while True:
        chunk = pool.evaluate(
            Namespace.CONFIRM,
            [c.values for c in pair],
            range(played, min(max_blocks, played + step)),
            on_hands,
        )
        values = np.concatenate([values, chunk.aivat], axis=1)
        played = values.shape[1]
        first, second = estimates(pair, values, pool.protocol.hands_per_block * played)
        if target_half_width is None or second.half_width <= target_half_width:
            break
        if played >= max_blocks:
            break
        step = max(1, blocks // 2)
    return Confirmation.of(first, second, target_half_width)
