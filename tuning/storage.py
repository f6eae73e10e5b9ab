"""Where a study lives, and the lock that lets concurrent workers honour its trial budget.

Storages (``open_storage``):

* default: an Optuna journal file ``<results>/<study>/study.log`` (``runs/`` by default);
* a path to a journal file (``runs/default/study.log``, or ``journal:PATH``): the same storage,
  e.g. the default study's, joined by ``holdem-lab worker`` from another process or from
  another machine that mounts the same filesystem. Optuna's file lock is a symlink, and the
  budget lock a ``flock`` (NFSv4 supports both); journals on NFS have lost writes before
  (optuna#5138), so prefer PostgreSQL for machines that share nothing but a network;
* ``memory``: in-process only (tests, throwaway studies);
* an RDB URL (``postgresql://...``, ``mysql://...``, ``sqlite:///...``): Optuna's RDB storage
  with a heartbeat, so that a trial whose worker died is marked failed and re-queued with the
  same parameters (``RetryHeartbeatStaleTrialCallback``). PostgreSQL is the way to run workers
  on several machines. Processes that open a fresh database at once create its tables one at
  a time (a server lock), as concurrent CREATE TABLE fails in PostgreSQL.

Budget. Optuna's ``n_trials`` counts per worker, and its ``MaxTrialsCallback`` checks the count
after a trial, so concurrent workers overshoot a total. Here a worker asks for a new trial only
while holding a lock shared by all workers of the study (a file lock next to a journal or SQLite
file, an advisory lock in PostgreSQL or MySQL), and only when the trials that are done, running
or queued number fewer than the total; failed trials do not count, their retries do.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import logging
import os
import socket
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import optuna
from optuna.storages import BaseStorage, InMemoryStorage, JournalStorage, RDBStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import FrozenTrial, TrialState

from tuning.optuna_compat import (
    journal_file,
    rdb_storage,
    retry_callback,
    storage_of,
    trial_id,
    unwrap_storage,
)

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine  # imported by Optuna's RDB storage, when used

logger = logging.getLogger(__name__)

MEMORY = "memory"
RDB_SCHEMES = ("postgresql", "mysql", "sqlite")
COUNTED = (TrialState.COMPLETE, TrialState.PRUNED, TrialState.RUNNING, TrialState.WAITING)
"""Trial states that use up the budget (a failed trial is retried instead)."""


def journal_path(results_dir: Path, study_name: str) -> Path:
    """The default journal file of a study."""
    return results_dir / study_name / "study.log"


MAX_RETRY = 3
"""Attempts of a trial whose worker died, before it is given up (then it stays failed)."""


@functools.cache
def _retry() -> Callable[[optuna.Study, FrozenTrial], None]:
    """The one callback that queues a dead worker's trial again (heartbeat and journal)."""
    return retry_callback(MAX_RETRY)


JOURNAL_PREFIX = "journal:"


def open_storage(
    url: str | None,
    *,
    results_dir: Path,
    study_name: str,
    heartbeat_interval: int = 60,
    grace_period: int = 180,
    create: bool = True,
) -> BaseStorage:
    """The storage named by ``url`` (see the module docstring); ``ValueError`` if unusable.

    Args:
        create: Create a missing journal file (else a missing file is an error).
    """
    if url is None:
        return _journal(journal_path(results_dir, study_name), create)
    if url == MEMORY:
        return InMemoryStorage()
    journal = journal_of(url)
    if journal is not None:
        return _journal(journal, create)
    scheme = url.split(":", 1)[0].split("+", 1)[0].lower()
    if scheme not in RDB_SCHEMES:
        raise ValueError(
            f"unsupported storage URL {url!r}: use postgresql://..., mysql://..., "
            "sqlite:///PATH, 'memory', or a journal file (a path ending in .log, e.g. "
            "runs/default/study.log, or journal:PATH)"
        )
    try:
        return _open_rdb(url, heartbeat_interval, grace_period)
    except ImportError:
        raise ValueError(
            f"no database driver for {scheme}: install it with pip install 'holdem-lab[postgres]'"
            if scheme == "postgresql"
            else f"no database driver for {scheme} is installed"
        ) from None
    except Exception as error:  # SQLAlchemy raises many kinds: say what failed, and why
        raise ValueError(f"cannot open the storage {_redact(url)}: {_first_line(error)}") from None


def journal_of(url: str) -> Path | None:
    """The journal file ``url`` names (``journal:PATH``, or a path ending in ``.log`` or
    naming an existing file); ``None`` for other URLs."""
    if url.startswith(JOURNAL_PREFIX):
        return Path(url[len(JOURNAL_PREFIX) :])
    if "://" in url:
        return None
    if url.endswith(".log") or Path(url).is_file():
        return Path(url)
    return None


def _journal(path: Path, create: bool) -> JournalStorage:
    if not path.exists():
        if not create:
            raise ValueError(f"no journal file {path}: start the study with holdem-lab tune")
        path.parent.mkdir(parents=True, exist_ok=True)
    return JournalStorage(JournalFileBackend(str(path)))


SCHEMA_LOCK = "holdem-lab schema"
"""The server lock under which a process creates Optuna's tables (see ``_open_rdb``)."""


def _open_rdb(url: str, heartbeat_interval: int, grace_period: int) -> RDBStorage:
    """Optuna's RDB storage, its tables created by one process at a time.

    ``RDBStorage`` creates its tables when they are missing; two processes doing so at once on
    a fresh PostgreSQL database collide in the catalogue (``duplicate key value violates
    unique constraint "pg_type_typname_nsp_index"``: concurrent CREATE TABLE is not safe
    there). So the first process to open a server's database creates them under a server
    lock, and the others find them made. SQLite serialises its writers itself.
    """
    import sqlalchemy
    from sqlalchemy.pool import NullPool

    engine = sqlalchemy.create_engine(url, poolclass=NullPool)
    try:
        with _server_lock(engine, SCHEMA_LOCK):
            return rdb_storage(
                url,
                heartbeat_interval=heartbeat_interval,
                grace_period=grace_period,
                stale_trial_callback=_retry(),
            )
    finally:
        engine.dispose()


@contextlib.contextmanager
def _server_lock(engine: Engine, name: str) -> Iterator[None]:
    """Hold the lock ``name`` of a database server, for every process that asks for it (an
    advisory lock in PostgreSQL, a named lock in MySQL; nothing for SQLite files)."""
    from sqlalchemy import text

    backend = engine.url.get_backend_name()
    if backend not in ("postgresql", "mysql"):
        yield
        return
    key = zlib.crc32(name.encode())
    with engine.connect() as connection:
        if backend == "postgresql":
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": key})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
        else:
            lock = f"holdem-lab-{key}"
            connection.execute(text("SELECT GET_LOCK(:name, -1)"), {"name": lock})
            try:
                yield
            finally:
                connection.execute(text("SELECT RELEASE_LOCK(:name)"), {"name": lock})


def _redact(url: str) -> str:
    """The URL with its password hidden."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


_THREAD_LOCK = threading.Lock()


@contextlib.contextmanager
def budget_lock(storage: BaseStorage, study_name: str) -> Iterator[None]:
    """Hold the lock that serialises "count the trials, then ask for one" across workers."""
    storage = unwrap_storage(storage)
    if isinstance(storage, InMemoryStorage):
        with _THREAD_LOCK:
            yield
        return
    if isinstance(storage, JournalStorage):
        path = journal_file(storage)
        if path is None:
            raise ValueError("only journal files are supported as journal storages")
        with _file_lock(path.with_name(path.name + ".budget.lock")):
            yield
        return
    if isinstance(storage, RDBStorage):
        engine = storage.engine
        backend = engine.url.get_backend_name()
        if backend == "sqlite":
            database = engine.url.database or ""
            if not database or database == ":memory:":
                raise ValueError("an in-memory SQLite storage cannot be shared: use 'memory'")
            with _file_lock(Path(database + ".budget.lock")):
                yield
            return
        if backend in ("postgresql", "mysql"):
            with _server_lock(engine, f"holdem-lab budget {study_name}"):
                yield
            return
    raise ValueError(f"no budget lock for the storage {type(storage).__name__}")


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def has_heartbeat(storage: BaseStorage) -> bool:
    """Whether ``storage`` records heartbeats (an RDB storage opened by ``open_storage``)."""
    storage = unwrap_storage(storage)
    return isinstance(storage, RDBStorage) and storage.get_heartbeat_interval() is not None


def worker_tag() -> str:
    """``host:pid`` of this process, stored on every trial it runs."""
    return f"{socket.gethostname()}:{os.getpid()}"


def requeue_orphans(study: optuna.Study) -> list[int]:
    """Fail and re-queue running trials whose worker on this host no longer exists.

    Only for storages without a heartbeat (the journal file), where a killed worker would
    leave its trial RUNNING forever; an RDB storage's heartbeat does this job. Its parameters are
    queued again (system attributes ``failed_trial`` and ``retry_history``, as Optuna's
    ``RetryHeartbeatStaleTrialCallback`` writes them), so that nothing is lost and the failed
    attempt does not count. Returns the numbers of the trials failed.
    """
    storage = storage_of(study)
    if has_heartbeat(storage):
        return []  # the heartbeat finds dead workers on every host
    host = socket.gethostname()
    failed = []
    with budget_lock(storage, study.study_name):  # one worker re-queues a trial once
        for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            tag = trial.user_attrs.get("worker", "")
            tag_host, _, pid = tag.rpartition(":")
            if tag_host != host or not pid.isdigit() or _alive(int(pid)):
                continue
            study.tell(trial.number, state=TrialState.FAIL)
            # Queue the retry exactly as the RDB heartbeat does, so that both paths read alike.
            _retry()(study, storage.get_trial(trial_id(trial)))
            failed.append(trial.number)
            logger.warning("trial %d lost its worker %s: failed and re-queued", trial.number, tag)
    return failed


def fail_and_requeue(study: optuna.Study, numbers: list[int]) -> None:
    """Fail the running trials ``numbers`` (e.g. on Ctrl-C) and queue their parameters again,
    as ``requeue_orphans`` does, so that the next run evaluates them first."""
    storage = storage_of(study)
    running = {t.number: t for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))}
    with budget_lock(storage, study.study_name):
        for number in numbers:
            if number not in running:
                continue
            study.tell(number, state=TrialState.FAIL)
            _retry()(study, storage.get_trial(trial_id(running[number])))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
