"""Creating and resuming a tuning study: its settings, stored with it and checked on resume.

A study stores its agent, protocol, search space, sampler, pruner, seed and batch layout as
study attributes when it is created; resuming it (same name, same storage) checks them first,
before writing anything, because values measured under other settings are not comparable, and
names every field that differs. The agent's defaults (its spec's, ``tuning.studies``) are
queued as the first trial. How the trials run is ``tuning.batches``.
"""

from __future__ import annotations

import logging
import platform
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import optuna

from envs.validation import whole_number
from tuning.evaluation import MatchProtocol
from tuning.racing import Pruning, pruner_kind, stored_pruner
from tuning.samplers import SamplerName, sampler_kind
from tuning.storage import open_storage, requeue_orphans
from tuning.studies import DEFAULT_AGENT, StudySpec, default_spec, spec_from_attrs

__all__ = [
    "DEFAULT_RESULTS",
    "StudySettings",
    "check_study_name",
    "prepare_study",
    "settings_from_study",
]

logger = logging.getLogger(__name__)

DEFAULT_RESULTS = Path("runs")
"""Where studies are written by default: ignored by git, so that running a study never
touches the committed evidence in ``results/``."""


def check_study_name(name: str) -> str:
    """``name`` if it can name a folder of the results directory; ``ValueError`` otherwise."""
    if not name or name in (".", "..") or any(c in name for c in "/\\\0"):
        raise ValueError(
            f"study name must be non-empty, not '.' or '..', without '/' or '\\', got {name!r}"
        )
    return name


@dataclass(frozen=True, kw_only=True)
class StudySettings:
    """Everything a study's runner needs (picklable)."""

    study_name: str
    trials: int
    """Total trials of the study, whatever the number of runs or of workers."""
    storage: str | None = None
    """Storage URL or journal file; ``None`` is the journal file under ``results_dir``."""
    results_dir: Path = DEFAULT_RESULTS
    sampler: SamplerName = SamplerName.TPE
    pruner: Pruning = Pruning.RACING
    seed: int = 0
    """Root of the sampler seeds: each batch's sampler is seeded from it, the worker id and
    the number of trials the study holds when the batch is asked (``tuning.batches``)."""
    protocol: MatchProtocol = field(default_factory=MatchProtocol)
    spec: StudySpec = field(default_factory=default_spec)
    """What the study tunes (the agent, its parameters and their ranges)."""
    batch_size: int = 16
    """Trials asked together and evaluated side by side."""
    rounds: int = 5
    """Racing rounds per batch: the blocks are played in this many rounds, and clearly worse
    candidates are dropped after each (one round without a pruner)."""
    hands_budget: int | None = None
    """If set, no new batch is asked once the complete trials have played this many hands
    (equal budgets in hands, ``holdem-lab compare-samplers``)."""
    heartbeat_interval: int = 60
    grace_period: int = 180

    def __post_init__(self) -> None:
        check_study_name(self.study_name)
        whole_number("trials", self.trials, minimum=1, what="a positive integer")
        whole_number("seed", self.seed, minimum=0)
        whole_number("batch_size", self.batch_size, minimum=1, what="a positive integer")
        whole_number("rounds", self.rounds, minimum=1, what="a positive integer")
        if self.hands_budget is not None:
            whole_number("hands_budget", self.hands_budget, minimum=1, what="positive")
        whole_number("heartbeat_interval", self.heartbeat_interval, minimum=1)
        whole_number("grace_period", self.grace_period, minimum=1)
        # Unknown names and missing dependencies fail here, before anything runs.
        object.__setattr__(self, "sampler", sampler_kind(self.sampler))
        object.__setattr__(self, "pruner", pruner_kind(self.pruner))

    @property
    def racing_rounds(self) -> int:
        """Rounds actually played: one without a pruner, at most one per block."""
        if self.pruner is Pruning.NONE:
            return 1
        return min(self.rounds, self.protocol.blocks)

    def open(self) -> optuna.storages.BaseStorage:
        """The storage of the study (the one place a storage is opened from settings)."""
        return open_storage(
            self.storage,
            results_dir=self.results_dir,
            study_name=self.study_name,
            heartbeat_interval=self.heartbeat_interval,
            grace_period=self.grace_period,
        )


def prepare_study(settings: StudySettings, storage: optuna.storages.BaseStorage) -> optuna.Study:
    """Create the study or check a resumed one (before writing anything); queue the defaults;
    re-queue lost trials."""
    expected = _study_attrs(settings)
    try:
        study = optuna.load_study(study_name=settings.study_name, storage=storage)
    except KeyError:
        study = optuna.create_study(
            study_name=settings.study_name, storage=storage, direction="maximize"
        )
        for key, value in expected.items():
            study.set_user_attr(key, value)
        study.set_user_attr("environment", _environment())
    else:
        stored = study.user_attrs
        if "protocol" not in stored:
            raise ValueError(f"study {settings.study_name!r} was not created by holdem-lab tune")
        differences = describe_differences(
            {key: stored.get(key, LEGACY.get(key)) for key in expected}, expected
        )
        if differences:
            raise ValueError(
                f"study {settings.study_name!r} exists with other settings: "
                f"{'; '.join(differences)}. Resume it with the stored settings, or choose "
                "another study name"
            )
    if study.user_attrs.get("trials") != settings.trials:
        study.set_user_attr("trials", settings.trials)  # the requested total
    if study.user_attrs.get("hands_budget") != settings.hands_budget:
        study.set_user_attr("hands_budget", settings.hands_budget)
    defaults = dict(settings.spec.defaults)
    outside = settings.spec.outside(defaults)
    if outside:
        logger.warning(
            "the %s defaults lie outside the searched ranges of %s: not queued as a trial "
            "(they are still the reference of every paired difference)",
            settings.spec.agent,
            outside,
        )
    else:
        study.enqueue_trial(defaults, user_attrs={"source": "defaults"}, skip_if_exists=True)
    requeue_orphans(study)
    return study


LEGACY = {"agent": DEFAULT_AGENT}
"""Attributes of studies stored before they existed: what those studies were."""


def describe_differences(stored: Mapping[str, Any], asked: Mapping[str, Any]) -> list[str]:
    """``"protocol.blocks 40 (stored) vs 128 (asked)"`` for every field that differs."""
    out = []
    for key in asked:
        old, new = stored.get(key), asked[key]
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            out += [f"{key}.{line}" for line in describe_differences(old, new)]
            gone = [k for k in old if k not in new]
            out += [f"{key}.{k} {old[k]!r} (stored) vs absent (asked)" for k in gone]
        elif old != new:
            out.append(f"{key} {old!r} (stored) vs {new!r} (asked)")
    return out


def _study_attrs(settings: StudySettings) -> dict[str, Any]:
    return {
        "agent": settings.spec.agent,
        "protocol": settings.protocol.to_dict(),
        "space": settings.spec.describe(),
        "sampler": str(settings.sampler),
        "pruner": str(settings.pruner),
        "seed": settings.seed,
        "batch_size": settings.batch_size,
        "rounds": settings.rounds,
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
    opened = open_storage(storage, results_dir=Path("."), study_name=study_name, create=False)
    try:
        attrs = optuna.load_study(study_name=study_name, storage=opened).user_attrs
    except KeyError:
        names = [s.study_name for s in optuna.get_all_study_summaries(opened)]
        raise ValueError(
            f"no study {study_name!r} in {storage.split('@')[-1]}; studies there: {names}"
        ) from None
    if "protocol" not in attrs or "batch_size" not in attrs:
        raise ValueError(
            f"study {study_name!r} was not created by this version of holdem-lab tune"
        )
    return StudySettings(
        study_name=study_name,
        trials=attrs["trials"],
        storage=storage,
        protocol=MatchProtocol.from_dict(attrs["protocol"]),
        spec=spec_from_attrs(attrs),
        sampler=SamplerName(attrs["sampler"]),
        pruner=stored_pruner(attrs["pruner"]),
        seed=attrs["seed"],
        batch_size=attrs["batch_size"],
        rounds=attrs["rounds"],
        hands_budget=attrs.get("hands_budget"),
    )
