"""The ``holdem-lab`` command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from envs.registry import agents_with_files, available_agents
from tuning.cli import main


def test_match_json_prints_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "call", "random", "--hands", "200", "--seed", "3", "--json"]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and err == ""
    data = json.loads(out)
    assert (data["hands"], data["seed"], data["duplicate"]) == (200, 3, True)
    assert [r["name"] for r in data["results"]] == ["call", "random"]
    for res in data["results"]:
        assert {"sb_per_hand", "ci", "vpip", "pfr", "af", "wtsd"} <= set(res)
        assert res["ci"][0] <= res["sb_per_hand"] <= res["ci"][1]
    assert data["results"][0]["sb_per_hand"] == -data["results"][1]["sb_per_hand"]


def test_match_table_and_no_duplicate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "rule", "raise", "call", "--hands", "31", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("33 hands (duplicate, 11 deals x 3 seatings; one session), seed 1")
    assert "sb/hand" in out and "rule" in out
    assert main(["match", "call", "raise", "--hands", "31", "--seed", "1", "--no-duplicate"]) == 0
    assert capsys.readouterr().out.startswith("31 hands (single; one session)")


def test_agents_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    lines = capsys.readouterr().out.splitlines()
    plain = [line.split()[0] for line in lines if not line.startswith(" ")]
    assert plain == list(available_agents())
    forms = {word for line in lines for word in line.split() if word.endswith(":FILE")}
    assert forms == {f"{name}:FILE" for name in agents_with_files()}
    assert {"bpp", "loki", "lbr-bpp", "ppo"} <= set(agents_with_files())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["match", "call", "nobody", "--hands", "10", "--seed", "1"], "unknown agent 'nobody'"),
        (["match", "call", "random", "--hands", "0", "--seed", "1"], "must be at least 1"),
        (["match", "call", "random", "--hands", "ten", "--seed", "1"], "whole number"),
        (["match", "call", "random", "--hands", "10", "--seed", "-2"], "non-negative"),
        (["match", "call", "--hands", "10", "--seed", "1"], "2 to 10 agents"),
        (["match", "call", "random", "--seed", "1"], "--hands"),
        ([], "required"),
    ],
)
def test_usage_errors_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and "Traceback" not in err


def test_installed_console_script() -> None:
    script = Path(sys.executable).with_name("holdem-lab")
    done = subprocess.run(
        [str(script), "match", "raise", "call", "--hands", "20", "--seed", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agents"] == ["raise", "call"]
    bad = subprocess.run(
        [str(script), "match", "raise", "nobody", "--hands", "20", "--seed", "2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 2 and "unknown agent" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_command_line_starts_without_its_heavy_dependencies() -> None:
    """Every command pays for the parser: Optuna, matplotlib and the agents load on use."""
    code = (
        "import importlib, sys; importlib.import_module('tuning.cli.main')._parser(); "
        "heavy = ('optuna', 'matplotlib', 'agents.bpp', 'agents.loki', 'sqlalchemy'); "
        "loaded = [name for name in heavy if name in sys.modules]; "
        "print(*loaded, file=sys.stderr); sys.exit(bool(loaded))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, f"imported at start: {done.stderr}"


def _help_texts() -> dict[str, str]:
    """The --help text of the top-level parser and of every sub-command in COMMANDS."""
    import argparse

    from tuning.cli.main import COMMANDS, _parser

    parser = _parser()
    texts = {"holdem-lab": parser.format_help()}
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, subparser in subs.choices.items():
        texts[name] = subparser.format_help()
    assert len(subs.choices) == len(COMMANDS)
    return texts


def test_no_help_text_shows_a_doubled_percent_sign() -> None:
    # argparse %-formats help= strings but not description=: a '%%' in a description is
    # printed literally.
    texts = _help_texts()
    assert {"learning-curve", "loki-fit", "tune", "best-response"} <= set(texts)
    doubled = [name for name, text in texts.items() if "%%" in text]
    assert doubled == [], f"literal '%%' in the --help of {doubled}"
    assert "95% CIs over matches" in texts["learning-curve"]


def test_train_says_how_the_requested_steps_were_rounded() -> None:
    from tuning.cli.train import rounding_note

    assert rounding_note(4096, 4096, 256, 8) == ""
    note = rounding_note(20_000, 20_480, 256, 8)
    assert note.startswith("trained 20,480 steps for --steps 20,000: PPO updates the policy on")
    assert "whole rollouts of n_steps x num_envs = 256 x 8 = 2,048 decisions" in note
