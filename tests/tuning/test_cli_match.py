"""``holdem-lab match``: sessions, engines, estimators, hand histories, a default seed, and
memory that stays flat however many hands are asked for."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pokerkit
import pytest

from tuning.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["match", *args, "--json"]) == 0
    out, _ = capsys.readouterr()
    return json.loads(out)  # type: ignore[no-any-return]


def test_seed_defaults_to_zero_and_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "rule", "call", "--hands", "100")
    assert data["seed"] == 0
    assert data == run_json(capsys, "rule", "call", "--hands", "100", "--seed", "0")


def test_both_engines_print_the_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("bpp", "bpp-curves", "--hands", "1200", "--sessions", "6", "--seed", "4")
    scalar = run_json(capsys, *args, "--engine", "scalar")
    batched = run_json(capsys, *args, "--engine", "batched")
    assert (scalar.pop("engine"), batched.pop("engine")) == ("scalar", "batched")
    assert scalar == batched
    assert (scalar["sessions"], scalar["deals_per_session"]) == (6, 100)


def test_aivat_adds_its_figures_beside_the_raw_ones(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "bpp", "call", "--hands", "600", "--estimator", "aivat")
    assert data["estimator"] == "aivat"
    for entry in data["results"]:
        assert {"sb_per_hand", "ci", "aivat_sb_per_hand", "aivat_ci"} <= set(entry)
    raw = run_json(capsys, "bpp", "call", "--hands", "600")
    assert "aivat_sb_per_hand" not in raw["results"][0]
    assert raw["results"][0]["sb_per_hand"] == data["results"][0]["sb_per_hand"]
    assert main(["match", "bpp", "call", "--hands", "600", "--estimator", "aivat"]) == 0
    assert "AIVAT" in capsys.readouterr().out


def test_history_writes_phh_that_pokerkit_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.phhs"
    acpc = tmp_path / "match.log"
    args = ["rule", "random", "raise", "--hands", "60", "--history", str(path)]
    assert main(["match", *args, "--acpc-log", str(acpc)]) == 0
    with path.open("rb") as handle:
        histories = list(pokerkit.HandHistory.load_all(handle))
    assert len(histories) == 60 == len(acpc.read_text().splitlines())
    bad = ["match", "call", "raise", "--hands", "4", "--history", str(tmp_path / "no" / "x")]
    assert main(bad) == 1
    assert "cannot write the hand history" in capsys.readouterr().err


def test_bad_choices_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--engine", "gpu"], ["--estimator", "divat"], ["--sessions", "0"]):
        assert main(["match", "call", "raise", "--hands", "10", *args]) == 2
        assert "holdem-lab match: error: argument" in capsys.readouterr().err
    assert main(["match", "call", "raise", "--hands", "4", "--sessions", "5"]) == 1
    assert "5 sessions need at least 5 deals" in capsys.readouterr().err


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_a_billion_hands_start_at_once_with_flat_memory() -> None:
    """The decks are drawn as the hands are played and the books are kept window by window,
    so asking for a billion hands neither waits nor grows: the bar shows within seconds and
    the memory after a few seconds of play stays where it was after the first."""
    command = [sys.executable, "-m", "tuning.cli", "match", "call", "raise"]
    command += ["--hands", "1000000000"]
    env = {**os.environ, "COLUMNS": "80"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert process.stderr is not None
        stderr = process.stderr.fileno()
        os.set_blocking(stderr, False)
        seen, start = "", time.monotonic()
        while "hand" not in seen and time.monotonic() - start < 30:
            time.sleep(0.2)
            with contextlib.suppress(BlockingIOError):
                seen += os.read(stderr, 65536).decode()
            assert process.poll() is None, seen
        assert "/1000000000" in seen.replace(",", ""), seen  # the bar, at once
        time.sleep(3.0)
        early = _rss_mb(process.pid)
        time.sleep(6.0)
        late = _rss_mb(process.pid)
        assert late < early + 30, (early, late)
        assert late < 600
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
