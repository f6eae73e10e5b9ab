"""Every use of Optuna beyond its stable public API, in one place.

The tuning code needs a few things Optuna keeps private or marks experimental: the storage
behind the cache a ``Study`` wraps RDB storages in, a journal storage's file, a study's
storage, a trial's id, ``Study.optimize`` creating its trials through ``Study.ask`` (the trial
budget hooks into it), the heartbeat's stale-trial sweep and retry callback (and the system
attributes that callback writes), recording heartbeats for trials run outside ``optimize``
(batches asked and told by hand), and experimental constructors whose warnings are silenced
here. ``tests/tuning/test_optuna_compat.py`` checks each of them, so that an Optuna upgrade
that changes one fails there, naming it, and is fixed in this file alone.

A missing internal raises ``OptunaChanged`` naming it, never an ``AttributeError`` deep in a
study.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import optuna
from optuna.storages import BaseStorage, JournalStorage, RDBStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import FrozenTrial

__all__ = [
    "OptunaChanged",
    "fail_stale_trials",
    "heartbeats",
    "journal_file",
    "quiet_experimental",
    "rdb_storage",
    "record_heartbeat",
    "retry_callback",
    "storage_of",
    "trial_id",
    "unwrap_storage",
]

T = TypeVar("T")

CACHED_STORAGE = "optuna.storages._cached_storage._CachedStorage"
"""The cache ``optuna.Study`` wraps an ``RDBStorage`` in; its ``_backend`` is the storage."""
RETRY_ATTRS = ("failed_trial", "retry_history")
"""System attributes ``RetryHeartbeatStaleTrialCallback`` writes on the retried trial."""


class OptunaChanged(RuntimeError):
    """An Optuna internal this project relies on is gone or different."""


def _internal(what: str, get: Callable[[], T]) -> T:
    try:
        return get()
    except (AttributeError, ImportError) as error:
        raise OptunaChanged(
            f"Optuna {optuna.__version__} no longer has {what} ({error}); "
            "adapt tuning/optuna_compat.py (see tests/tuning/test_optuna_compat.py)"
        ) from error


@contextlib.contextmanager
def quiet_experimental() -> Iterator[None]:
    """Silence Optuna's ``ExperimentalWarning`` (the features used here are tested)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        yield


def _cached_storage_class() -> type[Any]:
    module, _, name = CACHED_STORAGE.rpartition(".")
    cls: type[Any] = getattr(importlib.import_module(module), name)
    return cls


def unwrap_storage(storage: BaseStorage) -> BaseStorage:
    """The storage itself, not the cache ``optuna.Study`` wraps an RDB storage in."""
    cached = _internal(CACHED_STORAGE, _cached_storage_class)
    if isinstance(storage, cached):
        backend: BaseStorage = _internal(f"{CACHED_STORAGE}._backend", lambda: storage._backend)
        return backend
    return storage


def journal_file(storage: BaseStorage) -> Path | None:
    """The file of a journal storage (``JournalFileBackend``); ``None`` for other storages
    and other journal backends."""
    storage = unwrap_storage(storage)
    if not isinstance(storage, JournalStorage):
        return None
    backend = _internal("JournalStorage._backend", lambda: storage._backend)
    if not isinstance(backend, JournalFileBackend):
        return None
    path: str = _internal("JournalFileBackend._file_path", lambda: backend._file_path)
    return Path(path)


def storage_of(study: optuna.Study) -> BaseStorage:
    """The storage a study reads and writes (as the study holds it)."""
    storage: BaseStorage = _internal("Study._storage", lambda: study._storage)
    return storage


def trial_id(trial: FrozenTrial) -> int:
    """The storage's id of a trial (``FrozenTrial.number`` is only its rank in the study)."""
    value: int = _internal("FrozenTrial._trial_id", lambda: trial._trial_id)
    return value


def _trial_id_of(trial: optuna.Trial) -> int:
    value: int = _internal("Trial._trial_id", lambda: trial._trial_id)
    return value


def fail_stale_trials(study: optuna.Study) -> None:
    """Fail the running trials whose heartbeat stopped, and run the storage's stale-trial
    callback on them (a no-op without a heartbeat)."""
    with quiet_experimental():
        optuna.storages.fail_stale_trials(study)


def record_heartbeat(study: optuna.Study, trial: optuna.Trial) -> None:
    """Record one heartbeat of ``trial`` now (a no-op without a heartbeat): a trial asked but
    not yet beating would never be found stale if its process died at once."""
    storage = unwrap_storage(storage_of(study))
    if isinstance(storage, RDBStorage) and storage.get_heartbeat_interval() is not None:
        storage.record_heartbeat(_trial_id_of(trial))


@contextlib.contextmanager
def heartbeats(study: optuna.Study, trials: list[optuna.Trial]) -> Iterator[None]:
    """Record a heartbeat for every trial of ``trials`` while the block runs, as
    ``Study.optimize`` does for its trial (a no-op for storages without a heartbeat), so that
    the trials of a process that dies are found stale and retried."""
    storage = unwrap_storage(storage_of(study))
    interval = storage.get_heartbeat_interval() if isinstance(storage, RDBStorage) else None
    if interval is None:
        yield
        return
    assert isinstance(storage, RDBStorage)
    ids: list[int] = [_trial_id_of(t) for t in trials]
    stop = threading.Event()

    def beat() -> None:
        while True:
            for trial in ids:
                storage.record_heartbeat(trial)
            if stop.wait(interval):
                return

    thread = threading.Thread(target=beat, name="heartbeats", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def retry_callback(max_retry: int) -> Callable[[optuna.Study, FrozenTrial], None]:
    """Optuna's ``RetryHeartbeatStaleTrialCallback``: queue a failed trial's parameters again,
    recording ``failed_trial`` and ``retry_history`` in the new trial's system attributes."""
    with quiet_experimental():
        callback: Callable[[optuna.Study, FrozenTrial], None] = (
            optuna.storages.RetryHeartbeatStaleTrialCallback(max_retry=max_retry)
        )
    return callback


def rdb_storage(
    url: str,
    *,
    heartbeat_interval: int,
    grace_period: int,
    stale_trial_callback: Callable[[optuna.Study, FrozenTrial], None],
) -> RDBStorage:
    """Optuna's RDB storage with a heartbeat (its heartbeat arguments are experimental)."""
    with quiet_experimental():
        return RDBStorage(
            url,
            heartbeat_interval=heartbeat_interval,
            grace_period=grace_period,
            heartbeat_stale_trial_callback=stale_trial_callback,
        )
