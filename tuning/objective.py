"""The Optuna objective: the agent's winnings with the trial's parameters, block by block.

Every trial plays the same blocks of deals (common random numbers, ``tuning.evaluation``), in
an order shuffled per trial, and reports each block's mean to Optuna with the block id as the
step, the layout ``WilcoxonPruner`` expects. A pruned trial returns its partial mean (as the
Wilcoxon pruner's documentation recommends, so the sampler still learns from it) and is marked
``pruned``; re-evaluation only considers fully evaluated trials.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from enum import StrEnum

import numpy as np
import optuna

from tuning.evaluation import MatchProtocol, Namespace, play_block
from tuning.optuna_compat import wilcoxon_pruner
from tuning.studies import StudySpec


class PrunerName(StrEnum):
    """Pruning options of ``holdem-lab tune --pruner``: none by default, as Wilcoxon pruning
    did not help at equal hands in a synthetic noisy-tuning experiment (results/tuning.md)."""

    NONE = "none"
    WILCOXON = "wilcoxon"


def pruner_kind(name: PrunerName | str) -> PrunerName:
    """The pruner ``name`` names; ``ValueError`` if unknown or its dependency is missing."""
    try:
        kind = PrunerName(name)
    except ValueError:
        known = ", ".join(p.value for p in PrunerName)
        raise ValueError(f"unknown pruner {name!r}; choose one of {known}") from None
    if kind is PrunerName.WILCOXON and importlib.util.find_spec("scipy") is None:
        raise ValueError("the Wilcoxon pruner needs scipy, which is not installed")
    return kind


def make_pruner(name: PrunerName | str) -> optuna.pruners.BasePruner:
    """``NopPruner`` or ``WilcoxonPruner(p_threshold=0.1, n_startup_steps=5)``."""
    if pruner_kind(name) is PrunerName.NONE:
        return optuna.pruners.NopPruner()
    return wilcoxon_pruner(p_threshold=0.1, n_startup_steps=5)


def make_objective(spec: StudySpec, protocol: MatchProtocol) -> Callable[[optuna.Trial], float]:
    """The objective of a study of ``spec`` under ``protocol`` (deterministic for its seeds)."""

    def objective(trial: optuna.Trial) -> float:
        values = spec.suggest(trial)
        order = np.random.default_rng([protocol.seed, trial.number]).permutation(protocol.blocks)
        means: list[float] = []
        start = time.process_time()
        for block in order:
            mean = float(play_block(spec, values, protocol, Namespace.TUNE, int(block)).mean())
            means.append(mean)
            trial.report(mean, int(block))
            if trial.should_prune():
                break
        cpu = time.process_time() - start
        hands = protocol.hands_per_block * len(means)
        trial.set_user_attr("blocks", len(means))
        trial.set_user_attr("hands", hands)
        trial.set_user_attr("pruned", len(means) < protocol.blocks)
        trial.set_user_attr("cpu_seconds", round(cpu, 3))
        if len(means) > 1:
            trial.set_user_attr("std_error", float(np.std(means, ddof=1) / np.sqrt(len(means))))
        return float(np.mean(means))

    return objective
