"""Running a study's trials on one machine: in this process, or in N worker processes.

With several workers each is a separate process (started with ``spawn``: the simulator is
CPU-bound Python, threads would not help, and Optuna re-seeds samplers under ``n_jobs``).
The parent draws the progress bar by polling the storage: trials done out of the total, hands
per second, and the best value so far (optimistic under noise; see the re-evaluation).
"""

from __future__ import annotations

import logging
import multiprocessing
import sys
import time
from typing import Any

import optuna
from optuna.trial import FrozenTrial, TrialState
from tqdm import tqdm

from envs.validation import whole_number
from tuning.storage import is_shared
from tuning.study import StudySettings, prepare_study, run_worker

logger = logging.getLogger(__name__)

POLL_SECONDS = 1.0


def run_trials(
    settings: StudySettings,
    *,
    workers: int = 1,
    progress: bool = False,
    storage: optuna.storages.BaseStorage | None = None,
    worker_id: int = 0,
) -> optuna.Study:
    """Create or resume the study and run it to its total of trials; returns the study.

    Worker ``k`` of this call has the id ``worker_id + k`` (its sampler seed offset).
    """
    whole_number("workers", workers, minimum=1, what="a positive integer")
    if storage is None:  # the one place where a storage is opened for the caller
        storage = settings.open()
    if workers > 1 and not is_shared(storage):
        raise ValueError("several workers need a shared storage (the default journal file)")
    study = prepare_study(settings, storage)
    bar = tqdm(
        total=settings.trials,
        unit="trial",
        file=sys.stderr,
        disable=not progress,
        desc=settings.study_name,
    )
    start, hands0 = time.monotonic(), _hands_done(study)
    with bar:
        _show(bar, study, start, hands0)
        if workers == 1:

            def tick(done: optuna.Study, trial: FrozenTrial) -> None:
                _show(bar, done, start, hands0)

            run_worker(settings, worker_id, storage, callbacks=[tick])
        else:
            _run_processes(settings, workers, worker_id, study, bar, start, hands0)
        _show(bar, study, start, hands0)
    return study


def _run_processes(
    settings: StudySettings,
    workers: int,
    first_id: int,
    study: optuna.Study,
    bar: tqdm[Any],
    start: float,
    hands0: int,
) -> None:
    context = multiprocessing.get_context("spawn")
    verbosity = optuna.logging.get_verbosity()  # spawned processes start with Optuna's default
    processes = [
        context.Process(
            target=_worker_main, args=(settings, k, verbosity), name=f"tune-worker-{k}"
        )
        for k in range(first_id, first_id + workers)
    ]
    for process in processes:
        process.start()
    try:
        while any(p.is_alive() for p in processes):
            time.sleep(POLL_SECONDS)
            _show(bar, study, start, hands0)
    except KeyboardInterrupt:
        for process in processes:
            process.terminate()
        raise
    finally:
        for process in processes:
            process.join()
    failed = [(p.name, p.exitcode) for p in processes if p.exitcode != 0]
    if failed:
        raise RuntimeError(f"worker processes failed: {failed} (see their messages above)")


def _worker_main(settings: StudySettings, worker_id: int, optuna_verbosity: int) -> None:
    """A worker process's entry point: its logging as its parent's, then the trials."""
    logging.basicConfig(level=logging.WARNING, format="%(processName)s: %(message)s")
    optuna.logging.set_verbosity(optuna_verbosity)
    run_worker(settings, worker_id, settings.open())


def _hands_done(study: optuna.Study) -> int:
    return sum(
        int(t.user_attrs.get("hands", 0))
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    )


def _show(bar: tqdm[Any], study: optuna.Study, start: float, hands0: int) -> None:
    trials = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))
    bar.n = min(len(trials), bar.total)
    complete = [t for t in trials if t.value is not None]
    elapsed = max(time.monotonic() - start, 1e-9)
    postfix = {"hands/s": f"{(_hands_done(study) - hands0) / elapsed:,.0f}"}
    if complete:
        postfix["best"] = f"{max(t.value for t in complete if t.value is not None):+.4f}"
    bar.set_postfix(postfix, refresh=False)
    bar.refresh()
