"""Creating, resuming and running a tuning study with one or more worker processes.

A study stores its agent, protocol, search space and sampler settings as study attributes
when it is created; resuming it (same name, same storage) checks that they have not changed,
because values measured under another protocol are not comparable. The agent's defaults (its
spec's, ``tuning.studies``) are queued as the first trial. Workers (``run_worker``) each use
their own sampler seed (``seed + worker_id``) and stop when the study's total is reached (see
``tuning.storage`` for the budget lock).
"""

from __future__ import annotations

import contextlib
import logging
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import FrozenTrial, TrialState

from envs.validation import whole_number
from tuning.evaluation import MatchProtocol
from tuning.objective import PrunerName, make_objective, make_pruner, pruner_kind
from tuning.optuna_compat import fail_stale_trials, storage_of, study_with_ask_hook
from tuning.samplers import SamplerName, make_sampler, sampler_kind
from tuning.storage import COUNTED, budget_lock, open_storage, requeue_orphans, worker_tag
from tuning.studies import DEFAULT_AGENT, StudySpec, default_spec, spec_from_attrs

logger = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class StudySettings:
    """Everything a worker needs to join a study (picklable, for spawned processes)."""

    study_name: str
    trials: int
    """Total trials of the study, whatever the number of workers or of runs."""
    storage: str | None = None
    """Storage URL; ``None`` is the journal file under ``results_dir``."""
    results_dir: Path = Path("results")
    sampler: SamplerName = SamplerName.TPE
    pruner: PrunerName = PrunerName.NONE
    seed: int = 0
    """Sampler seed of worker 0; worker ``k`` uses ``seed + k``."""
    protocol: MatchProtocol = field(default_factory=MatchProtocol)
    spec: StudySpec = field(default_factory=default_spec)
    """What the study tunes (the agent, its parameters and their ranges)."""
    heartbeat_interval: int = 60
    grace_period: int = 180

    def __post_init__(self) -> None:
        if not self.study_name or "/" in self.study_name:
            raise ValueError(f"study name must be non-empty without '/', got {self.study_name!r}")
        whole_number("trials", self.trials, minimum=1, what="a positive integer")
        whole_number("seed", self.seed, minimum=0)
        whole_number("heartbeat_interval", self.heartbeat_interval, minimum=1)
        whole_number("grace_period", self.grace_period, minimum=1)
        # Unknown names and missing dependencies fail here, before anything runs.
        object.__setattr__(self, "sampler", sampler_kind(self.sampler))
        object.__setattr__(self, "pruner", pruner_kind(self.pruner))

    def open(self) -> optuna.storages.BaseStorage:
        """The storage of the study (the one place a storage is opened from settings)."""
        return open_storage(
            self.storage,
            results_dir=self.results_dir,
            study_name=self.study_name,
            heartbeat_interval=self.heartbeat_interval,
            grace_period=self.grace_period,
        )


class BudgetExhausted(Exception):
    """The study has its total of trials done, running or queued."""


@dataclass(frozen=True)
class TrialBudget:
    """Refuses to create trials beyond ``total`` (atomically, across workers); the ask hook
    of a worker's study (``tuning.optuna_compat.study_with_ask_hook``).

    When the total is reached but other workers still run trials, it waits instead of giving
    up: one of them may die, and its trial must then be retried by a live worker (the
    heartbeat of an RDB storage fails stale trials and re-queues them; for a journal file,
    trials of dead local processes are re-queued).
    """

    total: int
    sampler_seed: int
    """Recorded on every trial this worker runs."""
    poll_seconds: float = 1.0

    def ask(self, study: optuna.Study, create: Callable[[], optuna.Trial]) -> optuna.Trial:
        """Take a queued trial or create one, unless the total is reached."""
        while True:
            with budget_lock(storage_of(study), study.study_name):
                counted = study.get_trials(deepcopy=False, states=COUNTED)
                states = {t.state for t in counted}
                if TrialState.WAITING in states or len(counted) < self.total:
                    trial = create()
                    trial.set_user_attr("worker", worker_tag())
                    trial.set_user_attr("sampler_seed", self.sampler_seed)
                    return trial
                if TrialState.RUNNING not in states:
                    raise BudgetExhausted
            time.sleep(self.poll_seconds)
            fail_stale_trials(study)  # a no-op without a heartbeat
            requeue_orphans(study)


def prepare_study(settings: StudySettings, storage: optuna.storages.BaseStorage) -> optuna.Study:
    """Create the study or check a resumed one; queue the defaults; re-queue lost trials."""
    study = optuna.create_study(
        study_name=settings.study_name,
        storage=storage,
        direction="maximize",
        load_if_exists=True,
    )
    stored = study.user_attrs
    expected = _study_attrs(settings)
    if "protocol" not in stored:
        for key, value in expected.items():
            study.set_user_attr(key, value)
        study.set_user_attr("environment", _environment())
    else:
        changed = [
            key for key, value in expected.items() if stored.get(key, LEGACY.get(key)) != value
        ]
        if changed:
            raise ValueError(
                f"study {settings.study_name!r} exists with other {', '.join(changed)} "
                f"(stored: { {k: stored.get(k) for k in changed} }); resume it with the same "
                "settings, or start a new study name"
            )
    study.set_user_attr("trials", settings.trials)  # the requested total; workers read it
    defaults = dict(settings.spec.defaults)
    outside = settings.spec.outside(defaults)
    if outside:
        logger.warning(
            "the %s defaults lie outside the searched ranges of %s: not queued",
            settings.spec.agent,
            outside,
        )
    else:
        study.enqueue_trial(defaults, user_attrs={"source": "defaults"}, skip_if_exists=True)
    requeue_orphans(study)
    return study


LEGACY = {"agent": DEFAULT_AGENT}
"""Attributes of studies stored before they existed: what those studies were."""


def _study_attrs(settings: StudySettings) -> dict[str, Any]:
    return {
        "agent": settings.spec.agent,
        "protocol": settings.protocol.to_dict(),
        "space": settings.spec.describe(),
        "sampler": str(settings.sampler),
        "pruner": str(settings.pruner),
        "seed": settings.seed,
    }


def _environment() -> dict[str, str]:
    return {
        "holdem-lab": version("holdem-lab"),
        "optuna": optuna.__version__,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
    }


def settings_from_study(study_name: str, storage: str) -> StudySettings:
    """The settings stored with an existing study (what ``holdem-lab worker`` joins with)."""
    opened = open_storage(storage, results_dir=Path("."), study_name=study_name)
    try:
        attrs = optuna.load_study(study_name=study_name, storage=opened).user_attrs
    except KeyError:
        names = [s.study_name for s in optuna.get_all_study_summaries(opened)]
        raise ValueError(
            f"no study {study_name!r} in {storage.split('@')[-1]}; studies there: {names}"
        ) from None
    if "protocol" not in attrs:
        raise ValueError(f"study {study_name!r} was not created by holdem-lab tune")
    return StudySettings(
        study_name=study_name,
        trials=attrs["trials"],
        storage=storage,
        protocol=MatchProtocol.from_dict(attrs["protocol"]),
        spec=spec_from_attrs(attrs),
        sampler=SamplerName(attrs["sampler"]),
        pruner=PrunerName(attrs["pruner"]),
        seed=attrs["seed"],
    )


def run_worker(
    settings: StudySettings,
    worker_id: int,
    storage: optuna.storages.BaseStorage,
    *,
    callbacks: list[Any] | None = None,
) -> int:
    """Run trials until the study's total is reached; returns how many this worker ran."""
    budget = TrialBudget(total=settings.trials, sampler_seed=settings.seed + worker_id)
    study = study_with_ask_hook(
        budget.ask,
        study_name=settings.study_name,
        storage=storage,
        sampler=make_sampler(settings.sampler, settings.seed + worker_id),
        pruner=make_pruner(settings.pruner),
    )
    objective = make_objective(settings.spec, settings.protocol)
    ran = 0

    def count(study: optuna.Study, trial: FrozenTrial) -> None:
        nonlocal ran
        ran += 1

    with contextlib.suppress(BudgetExhausted):  # the normal end: the total is reached
        study.optimize(objective, callbacks=[count, *(callbacks or [])])
    logger.info("worker %d (%s) ran %d trials", worker_id, worker_tag(), ran)
    return ran
