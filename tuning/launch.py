"""Running a study's trials on this machine, with a progress bar.

``run_trials`` creates or resumes the study (``tuning.study``) and runs its batches
(``tuning.batches``) with ``workers`` local evaluation processes (``tuning.pool``). The bar
counts trials out of the total and shows the batch and racing round, hands per second, and
the incumbent's paired difference to the defaults with its standard error (its observed value
is optimistic under noise: the re-evaluation decides).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import optuna
from optuna.trial import TrialState
from tqdm import tqdm

from tuning.batches import BatchProgress, hands_spent, run_study
from tuning.pool import EvaluationPool
from tuning.study import StudySettings, prepare_study

__all__ = ["run_trials", "trials_held"]


def trials_held(study: optuna.Study) -> int:
    """Trials that use up the study's total: complete, pruned, running or queued."""
    states = (TrialState.COMPLETE, TrialState.PRUNED, TrialState.RUNNING, TrialState.WAITING)
    return len(study.get_trials(deepcopy=False, states=states))


def run_trials(
    settings: StudySettings,
    *,
    workers: int = 1,
    progress: bool = False,
    storage: optuna.storages.BaseStorage | None = None,
    worker_id: int = 0,
    pool: EvaluationPool | None = None,
) -> optuna.Study:
    """Create or resume the study and run it to its total of trials; returns the study.

    Args:
        workers: Local evaluation processes (ignored when ``pool`` is given).
        worker_id: This process's offset of the sampler seeds (distinct for every process
            that drives the same study).
        pool: An open evaluation pool to use (the caller keeps it open for re-evaluation).
    """
    if storage is None:  # the one place where a storage is opened for the caller
        storage = settings.open()
    study = prepare_study(settings, storage)
    if pool is None:
        with EvaluationPool(settings.spec, settings.protocol, workers) as own:
            _run(settings, study, own, worker_id, progress)
    else:
        _run(settings, study, pool, worker_id, progress)
    return study


def _run(
    settings: StudySettings,
    study: optuna.Study,
    pool: EvaluationPool,
    worker_id: int,
    progress: bool,
) -> None:
    budget = settings.hands_budget  # a budget in hands: the bar counts hands, not trials
    bar = tqdm(
        total=budget or settings.trials,
        unit="hand" if budget else "trial",
        unit_scale=bool(budget),
        file=sys.stderr,
        disable=not progress,
        desc=settings.study_name,
    )
    state: dict[str, Any] = {"hands": 0, "start": time.monotonic(), "where": ""}

    def show(study: optuna.Study | None = None) -> None:
        if study is not None:
            done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
            count = hands_spent(study) if budget else len(done)
            bar.n = min(count, bar.total)
            state["best"] = _incumbent_text(done)
        elapsed = max(time.monotonic() - state["start"], 1e-9)
        postfix = {"at": state["where"], "hands/s": f"{state['hands'] / elapsed:,.0f}"}
        if state.get("best"):
            postfix["incumbent"] = state["best"]
        bar.set_postfix(postfix, refresh=False)
        bar.refresh()

    def on_hands(hands: int) -> None:
        state["hands"] += hands
        now = time.monotonic()
        if now - state.get("shown", 0.0) > 0.5:
            state["shown"] = now
            show()

    def on_round(batch: int, r: int, rounds: int) -> None:
        state["where"] = f"batch {batch + 1} round {r + 1}/{rounds}"
        show()

    with bar:
        show(study)
        run_study(
            settings,
            study,
            pool,
            worker_id=worker_id,
            progress=BatchProgress(on_hands=on_hands, on_round=on_round, on_told=show),
        )
        state["where"] = "done"
        show(study)


def _incumbent_text(done: list[optuna.trial.FrozenTrial]) -> str:
    full = [t for t in done if t.value is not None and not t.user_attrs.get("pruned", False)]
    if not full:
        return ""
    best = max(full, key=lambda t: t.value or 0.0)
    se = best.user_attrs.get("paired_se")
    diff = best.user_attrs.get("diff", 0.0)
    return f"#{best.number} {diff:+.4f}" + (f"±{se:.4f}" if se else "") + " vs defaults"
