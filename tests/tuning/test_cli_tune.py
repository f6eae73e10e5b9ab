"""``holdem-lab tune``, ``worker``, ``plot`` and ``compare-samplers`` as a user runs them."""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import optuna
import pytest
from optuna.trial import TrialState

from tuning.cli import main
from tuning.cli.tune import apply_preset, study_parts
from tuning.compare import incumbent_curve
from tuning.compare_report import at_budget, summarise
from tuning.storage import open_storage

TINY = [
    "--opponent", "call", "--deals-per-block", "3", "--blocks", "4", "--batch-size", "2",
    "--rounds", "2", "--top-k", "1", "--reevaluation-blocks", "2", "--confirmation-blocks", "2",
    "--max-confirmation-blocks", "2", "--quiet",
]  # fmt: skip


def tune(tmp_path: Path, *extra: str) -> list[str]:
    return ["tune", "--results", str(tmp_path), "--sampler", "random", *TINY, *extra]


def test_tune_says_the_answer_in_words_then_plot_redraws_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(tune(tmp_path, "--study", "cli", "--trials", "3", "--pruner", "none")) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"study cli: results in {tmp_path / 'cli'}"
    assert out[-1].startswith("the tuned parameters (trial ")
    assert any(word in out[-1] for word in (" beat the defaults", " do not beat", " lose to"))
    (tmp_path / "cli" / "plots" / "curves.png").unlink()
    assert main(["plot", "--study", "cli", "--results", str(tmp_path)]) == 0
    assert (tmp_path / "cli" / "plots" / "curves.png").stat().st_size > 0


def test_a_loki_study_at_a_three_seat_table(tmp_path: Path) -> None:
    args = [
        "tune", "--results", str(tmp_path), "--sampler", "random", "--study", "table",
        "--agent", "loki", "--seats", "3", "--opponent", "call", "rule", "--trials", "2",
        "--deals-per-block", "3", "--blocks", "4", "--batch-size", "2", "--rounds", "1",
        "--top-k", "1", "--reevaluation-blocks", "2", "--confirmation-blocks", "2",
        "--max-confirmation-blocks", "2", "--quiet",
    ]  # fmt: skip
    assert main(args) == 0
    summary = (tmp_path / "table" / "summary.md").read_text()
    assert "at one 3-seat table" in summary and "3 seatings" in summary


def test_a_total_already_reached_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(tune(tmp_path, "--study", "s", "--trials", "3")) == 0
    capsys.readouterr()
    assert main(tune(tmp_path, "--study", "s", "--trials", "2")) == 0
    assert "already holds 3 trials: the total asked (--trials 2) is reached" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--opponent", "nobody"], "unknown opponent 'nobody'"),
        (["--range", "alpha=1:1"], "empty range for alpha"),
        (["--storage", "ftp://x"], "unsupported storage URL"),
        (["--sampler", "annealing"], "invalid choice: 'annealing' (choose from 'tpe'"),
        (["--pruner", "nosuch"], "invalid choice: 'nosuch' (choose from 'racing', 'none')"),
        (["--study", ".."], "study name must be non-empty, not '.' or '..'"),
        (["--study", "."], "study name must be non-empty, not '.' or '..'"),
        (["--study", "a/b"], "without '/'"),
    ],
)
def test_tune_reports_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["tune", "--results", str(tmp_path / "r"), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "r").exists() or not any((tmp_path / "r").iterdir())


def test_the_carlton_preset_searches_the_eight_curves_greedily_against_bpp_curves() -> None:
    def parts(*argv: str) -> tuple[argparse.Namespace, object, object]:
        parser = argparse.ArgumentParser()
        from tuning.cli.tune import add_study_options

        add_study_options(parser)
        parser.add_argument("--sampler")
        args = parser.parse_args(list(argv))
        apply_preset(args)
        spec, protocol = study_parts(args)
        return args, spec, protocol

    args, spec, protocol = parts("--preset", "carlton")
    assert args.sampler == "greedy" and len(spec.names) == 8  # type: ignore[attr-defined]
    assert protocol.opponents == ("bpp-curves",)  # type: ignore[attr-defined]
    args, _, _ = parts("--preset", "carlton", "--sampler", "tpe")
    assert args.sampler == "tpe"  # what the user says wins
    args, spec, _ = parts()
    assert args.sampler == "tpe" and len(spec.names) == 10  # type: ignore[attr-defined]


def test_a_worker_joins_a_journal_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 16: worker said "unsupported storage URL '.../study.log'"."""
    assert main(tune(tmp_path, "--study", "j", "--trials", "2")) == 0
    journal = tmp_path / "j" / "study.log"
    storage = open_storage(str(journal), results_dir=tmp_path, study_name="j")
    optuna.load_study(study_name="j", storage=storage).set_user_attr("trials", 4)
    capsys.readouterr()
    assert main(["worker", "--study", "j", "--storage", str(journal), "--quiet"]) == 0
    assert "has its 4 trials" in capsys.readouterr().out
    study = optuna.load_study(study_name="j", storage=storage)
    assert len(study.get_trials(states=(TrialState.COMPLETE,))) == 4
    missing = str(tmp_path / "nothing" / "study.log")
    assert main(["worker", "--study", "j", "--storage", missing]) == 2
    assert "no journal file" in capsys.readouterr().err


def test_ctrl_c_stops_the_workers_cleanly_and_queues_the_batch_again(tmp_path: Path) -> None:
    """Issue 16: Ctrl-C printed a ``leaked semaphore`` warning."""
    command = [
        sys.executable, "-m", "tuning.cli", "tune", "--study", "c", "--results", str(tmp_path),
        "--trials", "4", "--batch-size", "4", "--opponent", "call", "--deals-per-block", "400",
        "--blocks", "32", "--pruner", "none", "--workers", "2", "--quiet",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    journal = tmp_path / "c" / "study.log"
    deadline = time.monotonic() + 120
    while not (journal.exists() and '"worker"' in journal.read_text()):
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.2)
    time.sleep(3.0)  # the workers are playing (the batch takes far longer)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert err.strip() == "holdem-lab: interrupted", err
    storage = open_storage(str(journal), results_dir=tmp_path, study_name="c")
    trials = optuna.load_study(study_name="c", storage=storage).get_trials()
    assert [t.state for t in trials] == [TrialState.FAIL] * 4 + [TrialState.WAITING] * 4


def test_compare_samplers_at_equal_hands_on_held_out_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cmp"
    argv = [
        "compare-samplers", "--samplers", "random", "greedy", "--seeds", "0", "1",
        "--budget-hands", "40", "--opponent", "call", "--deals-per-block", "2", "--blocks", "4",
        "--batch-size", "2", "--rounds", "1", "--holdout-blocks", "3", "--out", str(out),
        "--quiet",
    ]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "wins" in printed.splitlines()[-1]
    data = json.loads((out / "comparison.json").read_text())
    assert len(data["studies"]) == 4 and data["candidates"][0] == data["candidates"][0]
    for study in data["studies"]:
        hands = [p["hands"] for p in study["curve"]]
        assert hands == sorted(hands) and hands[-1] >= 40
    markdown = (out / "comparison.md").read_text()
    assert "## Per sampler" in markdown and "--budget-hands 40" in markdown
    for figure in ("regret.png", "holdout.png"):
        (out / figure).unlink()
    assert main(["compare-samplers", "--report-only", "--out", str(out)]) == 0
    assert (out / "regret.png").stat().st_size > 0
    assert main([*argv[:-3], "--blocks", "5", "--out", str(out), "--quiet"]) == 1
    assert "needs another --out" in capsys.readouterr().err


def test_the_comparison_arithmetic() -> None:
    curve = [{"hands": 10, "candidate": 1}, {"hands": 25, "candidate": 2}]
    assert at_budget(curve, 24)["candidate"] == 1 and at_budget(curve, 5)["candidate"] == 1
    data = {
        "holdout": [[0.0, 0.1, 0.2], [0.1, 0.2, 0.3], [0.0, 0.1, 0.3]],
        "budget_hands": 30,
        "studies": [
            {"sampler": "a", "seed": s, "curve": [{"hands": 20, "candidate": 1, "trial": 2}]}
            for s in (0, 1)
        ]
        + [
            {"sampler": "b", "seed": s, "curve": [{"hands": 20, "candidate": 2, "trial": 3}]}
            for s in (0, 1)
        ],
    }
    summary = summarise(data)
    assert summary["ranked"] == ["a", "b"]
    assert summary["samplers"]["a"].mean == pytest.approx(0.1)
    assert summary["samplers"]["b"].mean == pytest.approx(0.1 / 3)


def test_the_incumbent_curve_follows_batches(tmp_path: Path) -> None:
    study = optuna.create_study(direction="maximize")
    dist = {"x": optuna.distributions.FloatDistribution(0.0, 1.0)}
    for number, (value, batch, pruned) in enumerate(
        [(0.1, 0, False), (0.5, 0, True), (0.3, 2, False), (0.2, 2, False)]
    ):
        study.add_trial(
            optuna.trial.create_trial(
                params={"x": number / 10},
                distributions=dist,
                value=value,
                user_attrs={"batch": batch, "hands": 10, "pruned": pruned},
            )
        )
    assert incumbent_curve(study) == [(20, 0), (40, 2)]


def test_optuna_dashboard_reads_a_study_journal(tmp_path: Path) -> None:
    """The README's one command: ``optuna-dashboard runs/<study>/study.log``."""
    pytest.importorskip("optuna_dashboard")
    assert main(tune(tmp_path, "--study", "d", "--trials", "2")) == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dashboard = Path(sys.executable).with_name("optuna-dashboard")
    server = subprocess.Popen(
        [str(dashboard), str(tmp_path / "d" / "study.log"), "--port", str(port), "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/studies") as reply:
                    studies = json.load(reply)["study_summaries"]
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.3)
        assert [s["study_name"] for s in studies] == ["d"]
    finally:
        server.terminate()
        server.wait()


def test_the_pilot_measures_the_paired_noise(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pilot", "--opponent", "call", "--blocks", "3", "--deals-per-block", "3", "--quiet"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "against call: 3 blocks x 3 deals" in lines[0]
    assert [line.split("|")[0].strip() for line in lines[2:]] == ["5%", "15%", "50%"]


def test_pilot_candidates_lie_in_the_ranges_at_growing_distances() -> None:
    from tuning.pilot import moved
    from tuning.studies import bpp

    spec = bpp.spec()
    assert moved(spec, 0.0, 1) == pytest.approx(dict(spec.defaults))
    for distance in (0.05, 0.5, 0.9):
        assert spec.outside(moved(spec, distance, 1)) == []
    near, far = moved(spec, 0.05, 1), moved(spec, 0.5, 1)
    gap = abs(near["alpha"] - spec.defaults["alpha"])
    assert gap == pytest.approx(0.1) and abs(far["alpha"] - spec.defaults["alpha"]) > gap


def test_transfer_plays_each_tuned_study_against_every_opponent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, opponent in (("vs-call", "call"), ("vs-raise", "raise")):
        argv = tune(tmp_path, "--study", name, "--trials", "3", "--pruner", "none")
        argv[argv.index("--opponent") + 1] = opponent
        assert main(argv) == 0
    capsys.readouterr()
    argv = [
        "transfer", "--studies", "vs-call", "vs-raise", "--opponents", "call", "rule",
        "--results", str(tmp_path), "--blocks", "3", "--deals-per-block", "3", "--quiet",
    ]  # fmt: skip
    assert main(argv) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "| tuned in study (against) | vs call | vs rule |"
    assert table[2].startswith("| vs-call (call) | ") and table[3].startswith("| vs-raise (raise)")
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["cells"]) == 4 and {c["opponent"] for c in data["cells"]} == {"call", "rule"}
    assert (
        main(["transfer", "--studies", "nope", "--opponents", "call", "--results", str(tmp_path)])
        == 2
    )


def test_make_tune_writes_only_where_git_ignores() -> None:
    """Issue 16: ``make tune`` reopened the committed results/default/ and appended to its
    tracked journal. It now writes under runs/, which git ignores and which holds nothing
    tracked; the committed evidence stays in results/."""
    import shutil

    from tuning.cli.main import _parser

    repo = Path(__file__).resolve().parents[2]
    recipe = (repo / "Makefile").read_text().split("\ntune:", 1)[1].split("\n\n", 1)[0]
    assert "holdem-lab tune --study default" in recipe and "--results" not in recipe
    args = _parser().parse_args(["tune", "--study", "default"])
    assert args.results == Path("runs")
    assert "runs/" in (repo / ".gitignore").read_text().splitlines()
    git = shutil.which("git")
    if git is not None and (repo / ".git").exists():

        def run(*argv: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [git, "-C", str(repo), *argv], capture_output=True, text=True, check=False
            )

        assert run("check-ignore", "-q", "runs/default/study.log").returncode == 0
        assert run("ls-files", "runs").stdout == ""
