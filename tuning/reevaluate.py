"""Beating the winner's curse: re-evaluate the top trials on fresh deals, then confirm.

``study.best_value`` is the maximum of noisy observations and overstates the true value of its
parameters (by about two trial standard errors in the default study, ``results/tuning.md``). So
the top ``k`` fully evaluated trials and the agent's defaults are played again on re-evaluation
deals (another seed
namespace, more blocks, the same deals for every candidate), the best re-evaluated mean wins,
and a third, independent confirmation match on confirmation deals compares the winner with the
defaults. Differences are paired by block (same deals), so their confidence intervals are far
narrower than those of the two means.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import optuna
from optuna.trial import TrialState
from tqdm import tqdm

from envs.stats import mean_estimate
from tuning.evaluation import MatchProtocol, Namespace, play_block
from tuning.studies import StudySpec

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
    """The re-evaluation's winner against the defaults on independent deals (sb/hand)."""

    defaults: Estimate
    tuned: Estimate
    diff: float
    """Tuned minus defaults, paired by block."""
    diff_ci: tuple[float, float]
    hands: int
    """Hands each of the two played."""

    @classmethod
    def of(cls, defaults: Estimate, tuned: Estimate) -> Confirmation:
        """The confirmation of ``tuned`` (whose difference is paired with ``defaults``)."""
        return cls(defaults, tuned, tuned.diff, tuned.diff_ci, tuned.hands)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (the study attribute ``confirmation``)."""
        return {
            "defaults": self.defaults.to_dict(),
            "tuned": self.tuned.to_dict(),
            "diff": self.diff,
            "diff_ci": list(self.diff_ci),
            "hands": self.hands,
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
        )


def top_candidates(study: optuna.Study, spec: StudySpec, k: int) -> list[Candidate]:
    """The defaults, then the ``k`` best fully evaluated trials with distinct parameters."""
    defaults = dict(spec.defaults)
    chosen = [Candidate(DEFAULTS, None, defaults)]
    seen = {tuple(sorted(defaults.items()))}
    trials = [
        t
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if t.value is not None and not t.user_attrs.get("pruned", False)
    ]
    for trial in sorted(trials, key=lambda t: t.value, reverse=True):  # type: ignore[arg-type, return-value]
        key = tuple(sorted(trial.params.items()))
        if key in seen:
            continue
        seen.add(key)
        chosen.append(Candidate(f"trial {trial.number}", trial.number, dict(trial.params)))
        if len(chosen) > k:
            break
    return chosen


def evaluate_candidates(
    candidates: Sequence[Candidate],
    spec: StudySpec,
    protocol: MatchProtocol,
    namespace: Namespace,
    blocks: int,
    *,
    workers: int = 1,
    progress: bool = False,
) -> list[Estimate]:
    """Every candidate on the same ``blocks`` blocks of ``namespace``; the first candidate is
    the reference of the paired differences (the defaults)."""
    tasks = [(c.values, b) for c in candidates for b in range(blocks)]
    means = np.array(block_means(spec, tasks, protocol, namespace, workers, progress)).reshape(
        len(candidates), blocks
    )
    hands = protocol.hands_per_block * blocks
    estimates = []
    for candidate, row in zip(candidates, means, strict=True):
        level = mean_estimate(row)
        diff = mean_estimate(row - means[0]) if candidate is not candidates[0] else None
        estimates.append(
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
    return estimates


def _interval(ci: tuple[float, float] | None, mean: float) -> tuple[float, float]:
    return ci if ci is not None else (mean, mean)


def block_means(
    spec: StudySpec,
    tasks: list[tuple[dict[str, float], int]],
    protocol: MatchProtocol,
    namespace: Namespace,
    workers: int,
    progress: bool,
) -> list[float]:
    """The block mean of every (point, block) task, in order, on ``workers`` processes."""
    bar = tqdm(total=len(tasks), unit="block", file=sys.stderr, disable=not progress)
    with bar:
        if workers == 1:
            results = []
            for values, block in tasks:
                results.append(_block_mean(spec, values, protocol, namespace, block))
                bar.update()
            return results
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [
                pool.submit(_block_mean, spec, values, protocol, namespace, block)
                for values, block in tasks
            ]
            out = []
            for future in futures:
                out.append(future.result())
                bar.update()
            return out


def _block_mean(
    spec: StudySpec,
    values: dict[str, float],
    protocol: MatchProtocol,
    namespace: Namespace,
    block: int,
) -> float:
    result: npt.NDArray[np.float64] = play_block(spec, values, protocol, namespace, block)
    return float(result.mean())
