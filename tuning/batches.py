"""Running a study: batches of trials asked together, raced round by round, told in order.

One process drives a study (``run_study``): it asks a batch of trials (queued ones first: the
defaults, retries of interrupted trials), evaluates all their points together on the same
tuning blocks (``tuning.pool``: thousands of tables per step of the batched engine, shared
out to local worker processes), block round by block round, and tells the trials in trial
order. Only this process asks and tells, in a fixed order, and the evaluations do not depend
on the number of worker processes, so a study is reproducible bit for bit for its seed.

* Racing (``tuning.racing``): the blocks are played in rounds growing geometrically
  (``round_blocks``); after each round but the last, a candidate clearly worse than the
  reference on the blocks played so far is dropped, and once the survivors are few their
  remaining blocks are played in one round. Each block's value is reported to Optuna
  (``trial.report(value, step=block)``) as it comes.
* The defaults are evaluated once, in the first batch, on every tuning block, and stored
  (``defaults_blocks``): every trial's value and paired difference use them
  (``tuning.objective``).
* Sampler seeds come from the study's state: the batch's sampler is seeded from the study's
  seed, the worker id and the number of trials the study holds, so a resumed study never
  replays the proposals of its first run.
* Budget: a batch is asked under the study's budget lock (``tuning.storage``), never beyond
  the total of trials (failed trials do not count, their retries do) nor, with a hands budget,
  once the complete trials have played it. Several processes, on one machine or many, may
  drive the same study (``holdem-lab worker``): each asks its own batches.
* An interrupted batch (Ctrl-C, an error) is failed and its points queued again, so that the
  next run evaluates them first and nothing is lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import optuna
from optuna.trial import FrozenTrial, TrialState

from tuning.evaluation import Namespace, Point
from tuning.objective import DefaultsBlocks, TrialScore
from tuning.optuna_compat import (
    fail_stale_trials,
    heartbeats,
    record_heartbeat,
    storage_of,
)
from tuning.pool import EvaluationPool, OnHands
from tuning.racing import Racing
from tuning.samplers import make_sampler
from tuning.storage import COUNTED, budget_lock, fail_and_requeue, requeue_orphans, worker_tag
from tuning.study import StudySettings

__all__ = ["BatchProgress", "hands_spent", "round_blocks", "run_study"]

POLL_SECONDS = 1.0
DEFAULTS_ATTR = "defaults_blocks"
MERGE_PASSES = 2048
"""When the survivors' remaining blocks make at most this many passes, they are played in
one round: a step of the batched engine costs about the same for a few hundred tables as for
a few thousand, so narrow rounds would waste it."""


@dataclass
class BatchProgress:
    """What ``run_study`` tells its caller as it goes (each hook optional)."""

    on_hands: OnHands | None = None
    on_round: Callable[[int, int, int], None] | None = None
    """``(batch, round, rounds)`` when a round starts."""
    on_told: Callable[[optuna.Study], None] | None = None
    """After a batch's trials are told."""
    batches: int = field(default=0)


def round_blocks(blocks: int, rounds: int) -> list[list[int]]:
    """Blocks ``0 .. blocks - 1`` in ``rounds`` consecutive rounds growing geometrically
    (weights 1, 1, 2, 4, ...: with 4 rounds an eighth, an eighth, a quarter, a half), so that
    clearly worse candidates, most of a study's, are dropped after few blocks; every round
    has at least one block."""
    rounds = max(1, min(rounds, blocks))
    weights = [1] + [2 ** max(0, r - 1) for r in range(1, rounds)]
    total = sum(weights)
    bounds, cumulative = [0], 0
    for r, weight in enumerate(weights):
        cumulative += weight
        bounds.append(
            max(bounds[-1] + 1, min(blocks - (rounds - r - 1), blocks * cumulative // total))
        )
    return [list(range(bounds[r], bounds[r + 1])) for r in range(rounds)]


def hands_spent(study: optuna.Study) -> int:
    """Hands played by the study's complete trials."""
    return sum(
        int(t.user_attrs.get("hands", 0))
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    )


def batch_seed(seed: int, worker_id: int, trials_held: int) -> int:
    """The sampler seed of a batch asked when the study holds ``trials_held`` trials."""
    state = np.random.SeedSequence([seed, worker_id, trials_held]).generate_state(1, np.uint32)
    return int(state[0])


def run_study(
    settings: StudySettings,
    study: optuna.Study,
    pool: EvaluationPool,
    *,
    worker_id: int = 0,
    progress: BatchProgress | None = None,
) -> int:
    """Run batches until the study's budget is reached; returns the trials this call told."""
    progress = progress or BatchProgress()
    told = 0
    while True:
        batch = _ask_batch(settings, study, worker_id)
        if not batch:
            return told
        try:
            with heartbeats(study, batch):  # an RDB storage then retries a dead process's batch
                _run_batch(settings, study, pool, batch, progress)
        except BaseException:
            fail_and_requeue(study, [trial.number for trial in batch])
            raise
        told += len(batch)
        progress.batches += 1
        if progress.on_told is not None:
            progress.on_told(study)


def _ask_batch(settings: StudySettings, study: optuna.Study, worker_id: int) -> list[optuna.Trial]:
    """The next batch (queued trials first), or ``[]`` when the budget is reached and no
    other process runs trials that might still fail."""
    while True:
        with budget_lock(storage_of(study), study.study_name):
            trials = study.get_trials(deepcopy=False)
            counted = [t for t in trials if t.state in COUNTED]
            waiting = sum(t.state == TrialState.WAITING for t in counted)
            room = max(0, settings.trials - len(counted))
            if settings.hands_budget is not None and hands_spent(study) >= settings.hands_budget:
                room = 0
            size = min(settings.batch_size, waiting + room)
            if size:
                seed = batch_seed(settings.seed, worker_id, len(trials))
                study.sampler = make_sampler(settings.sampler, seed)
                batch = []
                for _ in range(size):
                    trial = study.ask()
                    record_heartbeat(study, trial)  # found stale if this process dies now
                    trial.set_user_attr("worker", worker_tag())  # (journal: found orphaned)
                    trial.set_user_attr("sampler_seed", seed)
                    settings.spec.suggest(trial)  # drawn now: the next ask sees it running
                    batch.append(trial)
                return batch
            if not any(t.state == TrialState.RUNNING for t in counted):
                return []
        time.sleep(POLL_SECONDS)  # other processes' trials may fail and be queued again
        # Failing a stale trial and queueing its retry are two writes: under the budget lock,
        # so that no other process counts the budget between them and asks one trial too many.
        with budget_lock(storage_of(study), study.study_name):
            fail_stale_trials(study)
        requeue_orphans(study)


def _run_batch(
    settings: StudySettings,
    study: optuna.Study,
    pool: EvaluationPool,
    batch: Sequence[optuna.Trial],
    progress: BatchProgress,
) -> None:
    spec, protocol = settings.spec, settings.protocol
    points: list[Point] = [dict(trial.params) for trial in batch]
    defaults = DefaultsBlocks.from_attr(study.user_attrs.get(DEFAULTS_ATTR, {}), protocol.blocks)
    default_point = dict(spec.defaults)
    reference_row = next((k for k, p in enumerate(points) if p == default_point), None)
    if defaults is None and reference_row is None:
        points.append(default_point)  # evaluated beside the batch, as the reference only
        reference_row = len(points) - 1
    incumbent = _incumbent(study, protocol.blocks)
    racing = Racing()
    rounds = round_blocks(protocol.blocks, settings.racing_rounds)
    alive = list(range(len(points)))
    aivat = np.full((len(points), protocol.blocks), np.nan)
    raw = np.full((len(points), protocol.blocks), np.nan)
    played = np.zeros(len(points), dtype=int)
    cpu0 = pool.cpu_seconds
    for r in range(len(rounds)):
        blocks = rounds[r]
        rest = [b for later in rounds[r:] for b in later]
        passes = len(alive) * len(rest) * protocol.seats * len(protocol.lineups)
        last = r == len(rounds) - 1 or (r > 0 and passes <= MERGE_PASSES)
        if last:
            blocks = rest  # few survivors: the rest at once (narrow rounds waste the engine)
        if progress.on_round is not None:
            progress.on_round(progress.batches, r, len(rounds))
        values = pool.evaluate(
            Namespace.TUNE,
            [points[k] for k in alive],
            blocks,
            progress.on_hands,
            seed=protocol.seed,
        )
        for row, k in enumerate(alive):
            aivat[k, blocks] = values.aivat[row]
            raw[k, blocks] = values.raw[row]
            played[k] += len(blocks)
            if k < len(batch):
                for block, value in zip(blocks, values.aivat[row], strict=True):
                    batch[k].report(float(value), block)
        if last:
            break
        done = [b for blocks_ in rounds[: r + 1] for b in blocks_]
        if incumbent is not None:
            reference = incumbent[done]
        elif defaults is not None:
            reference = defaults.aivat[done]
        else:
            assert reference_row is not None  # the defaults are being evaluated
            reference = aivat[reference_row, done]
        alive = [
            k
            for k in alive
            if k == reference_row or not racing.clearly_worse(aivat[k, done], reference)
        ]
    if defaults is None:
        assert reference_row is not None
        defaults = DefaultsBlocks(aivat[reference_row].copy(), raw[reference_row].copy())
        study.set_user_attr(DEFAULTS_ATTR, defaults.to_attr())
    cpu_per_block = (pool.cpu_seconds - cpu0) / max(1, int(played.sum()))
    for k, trial in enumerate(batch):
        mask = ~np.isnan(aivat[k])
        score = TrialScore.of(aivat[k, mask], raw[k, mask], np.flatnonzero(mask), defaults)
        for key, value in score.attrs().items():
            trial.set_user_attr(key, value)
        trial.set_user_attr("hands", protocol.hands_per_block * int(played[k]))
        trial.set_user_attr("pruned", int(played[k]) < protocol.blocks)
        trial.set_user_attr("cpu_seconds", round(cpu_per_block * int(played[k]), 3))
        trial.set_user_attr("batch", batch[0].number)  # a batch is named by its first trial
        study.tell(trial, score.value)


def _incumbent(study: optuna.Study, blocks: int) -> np.ndarray | None:
    """The corrected block values of the best fully evaluated trial, if any."""
    full = [
        t
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if t.value is not None
        and not t.user_attrs.get("pruned", False)
        and len(t.intermediate_values) == blocks
    ]
    if not full:
        return None
    best: FrozenTrial = max(full, key=lambda t: (t.value, -t.number))
    return np.array([best.intermediate_values[b] for b in range(blocks)])
