"""Studies on a real PostgreSQL server: shared workers, a killed worker, clear errors.

``make test`` runs the suite through ``tools/with_postgres.sh``, which starts a throwaway
server on loopback and sets ``HOLDEM_LAB_PG_URL`` (and ``HOLDEM_LAB_REQUIRE_PG=1``, so that a
missing server fails these tests instead of skipping them).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest
from optuna.trial import TrialState

from tuning.cli import main
from tuning.evaluation import MatchProtocol
from tuning.samplers import SamplerName
from tuning.study import StudySettings, prepare_study

PG_URL = os.environ.get("HOLDEM_LAB_PG_URL")


@pytest.fixture
def pg_url() -> str:
    if not PG_URL:
        if os.environ.get("HOLDEM_LAB_REQUIRE_PG") == "1":
            pytest.fail("HOLDEM_LAB_REQUIRE_PG=1 but HOLDEM_LAB_PG_URL is not set")
        pytest.skip("no PostgreSQL server: run through tools/with_postgres.sh (make test does)")
    return PG_URL


def create(
    url: str, name: str, trials: int, protocol: MatchProtocol, heartbeat: int = 60, batch: int = 4
) -> None:
    settings = StudySettings(
        study_name=name,
        trials=trials,
        storage=url,
        protocol=protocol,
        sampler=SamplerName.RANDOM,
        batch_size=batch,
        heartbeat_interval=heartbeat,
        grace_period=3 * heartbeat,
    )
    prepare_study(settings, settings.open())


def worker(url: str, name: str, worker_id: int, heartbeat: int = 60) -> subprocess.Popen[str]:
    command = [
        sys.executable, "-m", "tuning.cli", "worker", "--study", name, "--storage", url,
        "--worker-id", str(worker_id), "--heartbeat", str(heartbeat), "--quiet",
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen[str], timeout: float = 300) -> None:
    _, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err


def unique(prefix: str) -> str:
    return f"{prefix}-{os.getpid()}-{time.monotonic_ns()}"


def test_three_workers_finish_exactly_the_total_without_duplicates(pg_url: str) -> None:
    name = unique("three")
    create(pg_url, name, 18, MatchProtocol(opponents=("call",), deals_per_block=3, blocks=2))
    workers = [worker(pg_url, name, k) for k in range(3)]
    for process in workers:
        finish(process)
    trials = optuna.load_study(study_name=name, storage=pg_url).get_trials()
    assert [t.state for t in trials] == [TrialState.COMPLETE] * 18
    assert sorted(t.number for t in trials) == list(range(18))
    assert len({tuple(sorted(t.params.items())) for t in trials}) == 18


OPEN_AT = """
import sys, time
from pathlib import Path
import alembic, psycopg, sqlalchemy.orm  # imported beforehand: all open at the same instant
from tuning.storage import open_storage
url, start = sys.argv[1], float(sys.argv[2])
while time.time() < start:
    pass
open_storage(url, results_dir=Path("."), study_name="s")
"""


def test_several_processes_open_the_same_fresh_database_at_once(pg_url: str) -> None:
    """Optuna's tables are created by one of them, not by all at once (make test once failed
    with 'duplicate key value violates unique constraint "pg_type_typname_nsp_index"')."""
    import sqlalchemy

    name = unique("fresh").replace("-", "_")
    admin = sqlalchemy.create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    url = f"{pg_url.rsplit('/', 1)[0]}/{name}"
    try:
        start = time.time() + 3.0  # every process has imported Optuna by then
        openers = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_AT, url, str(start)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(6)
        ]
        for process in openers:
            finish(process, timeout=120)
        settings = StudySettings(study_name="s", trials=1, storage=url)
        assert prepare_study(settings, settings.open()).study_name == "s"
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def test_a_worker_killed_mid_batch_has_its_trials_retried(pg_url: str) -> None:
    name = unique("killed")
    heartbeat = 1
    # Batches of two trials of 12,000 hands (about a second against the compiled rule bot),
    # long enough to be killed in one.
    protocol = MatchProtocol(opponents=("rule",), deals_per_block=150, blocks=40)
    create(pg_url, name, 6, protocol, heartbeat, batch=2)
    victim = worker(pg_url, name, 0, heartbeat)
    study = optuna.load_study(study_name=name, storage=pg_url)
    deadline = time.monotonic() + 120
    while (
        sum(  # the victim's batch, asked with all its parameters drawn: being played
            t.user_attrs.get("worker", "").endswith(f":{victim.pid}") and len(t.params) == 10
            for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
        )
        < 2
    ):
        assert time.monotonic() < deadline, "the victim never started a trial"
        assert victim.poll() is None, victim.communicate()[1]
        time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    survivors = [worker(pg_url, name, k, heartbeat) for k in (1, 2)]
    for process in survivors:
        finish(process)
    trials = study.get_trials()
    complete = [t for t in trials if t.state == TrialState.COMPLETE]
    failed = [t for t in trials if t.state == TrialState.FAIL]
    assert len(complete) == 6 and len(failed) == 2  # the victim's batch
    assert {t.state for t in trials} == {TrialState.COMPLETE, TrialState.FAIL}
    for lost in failed:
        retries = [t for t in complete if t.system_attrs.get("retry_history") == [lost.number]]
        assert len(retries) == 1 and retries[0].params == lost.params


def test_wrong_password_gives_a_clear_error(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    scheme, rest = pg_url.split("://", 1)
    user_password, host = rest.rsplit("@", 1)
    user = user_password.split(":", 1)[0]
    wrong = f"{scheme}://{user}:not-the-password@{host}"
    assert main(["worker", "--study", "x", "--storage", wrong]) == 2
    err = capsys.readouterr().err
    assert "cannot open the storage" in err and "password authentication failed" in err
    assert "not-the-password" not in err  # the password is never printed


def test_unreachable_host_gives_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://holdem:pw@127.0.0.1:9/nowhere"  # port 9 (discard): nothing listens
    assert main(["worker", "--study", "x", "--storage", url]) == 2
    err = capsys.readouterr().err
    assert "cannot open the storage" in err and "Connection refused" in err


def test_a_study_that_does_not_exist_gives_a_clear_error(
    pg_url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["worker", "--study", unique("missing"), "--storage", pg_url]) == 2
    assert "no study 'missing-" in capsys.readouterr().err
