"""``holdem-lab best-response``, driven through a parser built here (the lead registers the
sub-command in ``tuning.cli.main``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tuning.cli import best_response


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="holdem-lab")
    sub = parser.add_subparsers(required=True)
    best_response.add_parser(sub)
    try:
        args = parser.parse_args(argv)
        status: int = args.command(args)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    return status


def test_sampled_json_against_fold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "fold.json"
    argv = ["best-response", "fold", "--flops", "2", "--seed", "4", "--json", "--quiet"]
    assert run([*argv, "--save-table", str(table)]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert out.count("\n") == 1 and err == ""
    assert data["sb_per_hand"] == pytest.approx(0.75) and data["mbb_per_hand"] == pytest.approx(
        750
    )
    assert data["ci"] == pytest.approx([0.75, 0.75]) and not data["exact"]
    assert [s["seat"] for s in data["seats"]] == ["button", "big blind"]
    assert [s["sb_per_hand"] for s in data["seats"]] == pytest.approx([1.0, 0.5])
    assert {"vpip", "pfr", "af", "method", "seed"} <= set(data)
    assert run(["best-response", "fold", "--check", "60", "--table", str(table), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "+0.7500 sb/hand" in out and "inside the match's 95% CI" in out


def test_acpc_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["best-response", "fold", "--acpc", "--flops", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "blinds 5/10, bets 10/20" in out
    assert "average" in out and "+750.0" in out and "VPIP" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["best-response", "maniac"], "unknown bot 'maniac'"),
        (["best-response", "mix:1,1,1"], "sum to 1"),
        (["best-response", "call", "--flops", "1"], "at least 2"),
        (["best-response", "call", "--table", "x.json"], "only read by --check"),
        (["best-response", "call", "--check", "10", "--flops", "4"], "neither --flops"),
        (["best-response", "call", "--seed", "-1"], "non-negative"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err


def test_unreadable_table_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert run(["best-response", "call", "--check", "10", "--table", str(bad)]) == 1
    assert "best-response table" in capsys.readouterr().err
    missing = tmp_path / "missing.json"
    assert run(["best-response", "call", "--check", "10", "--table", str(missing)]) == 1
    assert "error" in capsys.readouterr().err
