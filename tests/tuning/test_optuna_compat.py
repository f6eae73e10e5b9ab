"""One test per Optuna internal that ``tuning.optuna_compat`` relies on.

When an Optuna upgrade breaks one of these, the failing test names the internal; the fix
belongs in ``tuning/optuna_compat.py`` alone.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import optuna
import pytest
from optuna.storages import InMemoryStorage, JournalStorage, RDBStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import TrialState

from tuning import optuna_compat as compat

FLOAT = optuna.distributions.FloatDistribution(0.0, 1.0)


def rdb(tmp_path: Path, **heartbeat: int) -> RDBStorage:
    url = f"sqlite:///{tmp_path / 'study.db'}"
    if not heartbeat:
        return RDBStorage(url)
    return compat.rdb_storage(url, stale_trial_callback=compat.retry_callback(2), **heartbeat)


def test_cached_storage_wraps_rdb_storages_and_unwraps_to_them(tmp_path: Path) -> None:
    storage = rdb(tmp_path)
    study = optuna.create_study(storage=storage)
    held = compat.storage_of(study)
    assert type(held).__name__ == "_CachedStorage", (
        f"{compat.CACHED_STORAGE} no longer wraps RDB storages: Study holds {type(held)}"
    )
    assert compat.unwrap_storage(held) is storage, f"{compat.CACHED_STORAGE}._backend changed"
    assert compat.unwrap_storage(storage) is storage


def test_a_missing_internal_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compat, "CACHED_STORAGE", "optuna.storages._cached_storage._Gone")
    with pytest.raises(compat.OptunaChanged, match=r"no longer has .*_Gone.*optuna_compat\.py"):
        compat.unwrap_storage(InMemoryStorage())


def test_study_storage_is_the_storage_it_was_given() -> None:
    storage = InMemoryStorage()
    study = optuna.create_study(storage=storage)
    assert compat.storage_of(study) is storage, "Study._storage changed"


def test_journal_file_is_found_behind_a_journal_storage(tmp_path: Path) -> None:
    path = tmp_path / "study.log"
    storage = JournalStorage(JournalFileBackend(str(path)))
    assert compat.journal_file(storage) == path, (
        "JournalStorage._backend or JournalFileBackend._file_path changed"
    )
    assert compat.journal_file(InMemoryStorage()) is None


def test_trial_id_is_the_storages_id(tmp_path: Path) -> None:
    storage = rdb(tmp_path)
    study = optuna.create_study(storage=storage)
    for _ in range(3):
        study.tell(study.ask(), 1.0)
    for trial in study.get_trials():
        same = storage.get_trial(compat.trial_id(trial))
        assert same.number == trial.number, "FrozenTrial._trial_id changed"


def test_retry_callback_queues_the_parameters_with_its_system_attributes() -> None:
    study = optuna.create_study()
    trial = study.ask({"x": FLOAT})
    study.tell(trial, state=TrialState.FAIL)
    failed = study.get_trials()[0]
    compat.retry_callback(2)(study, failed)
    (retry,) = study.get_trials(states=(TrialState.WAITING,))
    assert retry.params == failed.params
    for key in compat.RETRY_ATTRS:
        assert key in retry.system_attrs, f"RetryHeartbeatStaleTrialCallback stopped writing {key}"
    assert retry.system_attrs["retry_history"] == [failed.number]


@pytest.mark.filterwarnings("ignore:Heartbeat of storage is supposed to be used")
def test_fail_stale_trials_fails_a_silent_trial_and_retries_it(tmp_path: Path) -> None:
    storage = rdb(tmp_path, heartbeat_interval=1, grace_period=1)
    study = optuna.create_study(storage=storage)
    trial = study.ask({"x": FLOAT})
    storage.record_heartbeat(compat.trial_id(study.get_trials()[0]))
    time.sleep(2.5)  # past the grace period, no heartbeat since
    compat.fail_stale_trials(study)
    states = {t.number: t.state for t in study.get_trials()}
    assert states[trial.number] == TrialState.FAIL, "fail_stale_trials no longer fails it"
    assert TrialState.WAITING in states.values(), "the stale-trial callback did not run"


def test_experimental_features_are_built_without_warnings(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compat.retry_callback(1)
        rdb(tmp_path, heartbeat_interval=60, grace_period=180)
