"""Does the sampler matter? Samplers at equal budgets in hands, judged on held-out deals.

Each sampler runs one study per seed with the same protocol and the same budget in hands
(``StudySettings.hands_budget``: racing makes trials cost different amounts, so trials are not
a fair unit). Seed ``s`` seeds the sampler and the study's tuning deals (root seed
``protocol.seed + s``), so the spread over seeds carries both the optimiser's randomness and
the luck of the tuning deals. After every batch a study's incumbent is what the optimiser would
report then: its best observed fully evaluated trial. Every incumbent of every study and the
agent's defaults then play the same held-out blocks (a namespace no study saw), all in one
batched evaluation, so every comparison is paired. Per study this gives the regret curve (the
held-out value of the incumbent against the hands spent) and its pick at the budget: the
incumbent after the last batch that ended within the budget. ``tuning.compare_report`` turns
the data into tables, intervals over seeds and figures.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState

from tuning.evaluation import MatchProtocol, Namespace
from tuning.launch import run_trials
from tuning.pool import EvaluationPool
from tuning.racing import Pruning, pruner_kind
from tuning.samplers import SamplerName
from tuning.studies import StudySpec
from tuning.study import StudySettings

__all__ = ["incumbent_curve", "run_comparison"]

MAX_TRIALS = 1_000_000
"""The trial total of a comparison's studies: their budget is in hands."""


def incumbent_curve(study: optuna.Study) -> list[tuple[int, int]]:
    """``(hands spent, incumbent trial)`` after each batch of the study, in order."""
    complete = sorted(
        (t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))),
        key=lambda t: t.number,
    )
    batches: dict[int, list[optuna.trial.FrozenTrial]] = {}
    for trial in complete:
        batches.setdefault(int(trial.user_attrs.get("batch", trial.number)), []).append(trial)
    curve, spent, best = [], 0, None
    for first in sorted(batches):
        for trial in batches[first]:
            spent += int(trial.user_attrs.get("hands", 0))
            full = not trial.user_attrs.get("pruned", False) and trial.value is not None
            if full and (best is None or (trial.value or 0.0) > (best.value or 0.0)):
                best = trial
        if best is not None:
            curve.append((spent, best.number))
    return curve


def run_comparison(
    spec: StudySpec,
    samplers: Sequence[str],
    seeds: Sequence[int],
    *,
    budget_hands: int,
    protocol: MatchProtocol,
    holdout_blocks: int,
    results_dir: Path,
    workers: int = 1,
    batch_size: int = 16,
    rounds: int = 4,
    pruner: Pruning | str = Pruning.RACING,
    progress: bool = False,
) -> dict[str, Any]:
    """Run every (sampler, seed) study of ``spec`` within ``budget_hands``, then play every
    incumbent and the defaults on held-out deals; returns the data (``comparison.json``)."""
    studies = []
    candidates: dict[tuple[tuple[str, float], ...], int] = {}
    points: list[dict[str, float]] = [dict(spec.defaults)]
    candidates[tuple(sorted(spec.defaults.items()))] = 0
    with EvaluationPool(spec, protocol, workers) as pool:
        for sampler in samplers:
            for seed in seeds:
                settings = StudySettings(
                    study_name=f"{sampler}-seed{seed}",
                    trials=MAX_TRIALS,
                    results_dir=results_dir,
                    sampler=SamplerName(sampler),
                    pruner=pruner_kind(pruner),
                    seed=seed,
                    protocol=dataclasses.replace(protocol, seed=protocol.seed + seed),
                    spec=spec,
                    batch_size=batch_size,
                    rounds=rounds,
                    hands_budget=budget_hands,
                )
                study = run_trials(settings, progress=progress, pool=pool)
                by_number = {t.number: t for t in study.get_trials(deepcopy=False)}
                curve = []
                for spent, number in incumbent_curve(study):
                    key = tuple(sorted(by_number[number].params.items()))
                    if key not in candidates:
                        candidates[key] = len(points)
                        points.append(dict(by_number[number].params))
                    curve.append({"hands": spent, "trial": number, "candidate": candidates[key]})
                studies.append(
                    {
                        "sampler": sampler,
                        "seed": seed,
                        "deals_seed": settings.protocol.seed,
                        "trials": len(by_number),
                        "curve": curve,
                    }
                )
        holdout = pool.evaluate(Namespace.HOLDOUT, points, range(holdout_blocks))
    return {
        "agent": spec.agent,
        "options": dict(spec.options),
        "samplers": list(samplers),
        "seeds": list(seeds),
        "budget_hands": budget_hands,
        "batch_size": batch_size,
        "rounds": rounds,
        "pruner": str(pruner_kind(pruner)),
        "protocol": protocol.to_dict(),
        "holdout_blocks": holdout_blocks,
        "holdout_hands": holdout.hands,
        "candidates": points,
        "holdout": holdout.aivat.tolist(),
        "studies": studies,
    }
