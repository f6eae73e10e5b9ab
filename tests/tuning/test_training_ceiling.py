"""The ceilings a learner is measured against: exact best responses and shipped LBR bounds,
drawn on the curves and reported as fractions; the evaluation protocol of the bounds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from envs.rules import Rules
from tuning.cli import main
from tuning.training.ceiling import CeilingKind, ceiling_of, lbr_bounds
from tuning.training.config import TrainConfig
from tuning.training.curve import CurvePoint, curve_figure, read_curve, write_curve
from tuning.training.run_state import FinalEvaluation

ROOT = Path(__file__).resolve().parents[2]
HEADS_UP = Rules(num_seats=2)


def test_the_papers_agents_have_lbr_bounds_and_the_bots_exact_values() -> None:
    bound = ceiling_of(["bpp"], HEADS_UP)
    assert bound is not None and bound.kind is CeilingKind.LBR_BOUND
    assert bound.value == 0.673 and bound.ci == (0.664, 0.682) and bound.session_deals == 600
    assert bound.label == "LBR lower bound +0.673"
    exact = ceiling_of(["call"], HEADS_UP)
    assert exact is not None and exact.kind is CeilingKind.BEST_RESPONSE and exact.ci is None
    assert set(lbr_bounds(HEADS_UP)) == {
        "bpp",
        "bpp-det",
        "bpp-curves",
        "rule",
        "loki",
        "loki2",
        "loki-tight",
        "loki-moderate",
        "loki-som",
    }
    tuned = ceiling_of([f"bpp:{ROOT / 'results' / 'default'}"], HEADS_UP)
    assert tuned is not None and tuned.value == 0.662  # the study's parameters: their bound
    assert ceiling_of([f"bpp-det:{ROOT / 'results' / 'default'}"], HEADS_UP) is None
    assert ceiling_of(["bpp", "bpp"], Rules(num_seats=3)) is None
    assert lbr_bounds(Rules(num_seats=2, big_bet=6)) == {}  # measured under other rules


def test_a_parameter_file_gets_its_bound_only_with_exactly_those_parameters(
    tmp_path: Path,
) -> None:
    tuned = json.loads((ROOT / "results" / "default" / "best_params.json").read_text())["tuned"]
    plain = tmp_path / "tuned.json"
    plain.write_text(json.dumps(tuned))
    assert ceiling_of([f"bpp:{plain}"], HEADS_UP) == ceiling_of(["bpp:results/default"], HEADS_UP)
    plain.write_text(json.dumps({**tuned, "bluff_rate": 0.1}))
    assert ceiling_of([f"bpp:{plain}"], HEADS_UP) is None
    assert ceiling_of([f"bpp:{tmp_path / 'missing.json'}"], HEADS_UP) is None


def test_every_shipped_bound_is_the_one_results_report() -> None:
    """The shipped figures and commands are those of results/exploitability.md, section 6."""
    report = (ROOT / "results" / "exploitability.md").read_text(encoding="utf-8")
    tuned = ceiling_of([f"bpp:{ROOT / 'results' / 'default'}"], HEADS_UP)
    assert tuned is not None and "lbr-bpp:results/default bpp:results/default " in str(
        tuned.command
    )
    for name, bound in [*lbr_bounds(HEADS_UP).items(), ("tuned", tuned)]:
        assert bound.ci is not None and bound.command is not None
        figure = f"{bound.value:+.3f} [{bound.ci[0]:+.3f}, {bound.ci[1]:+.3f}]"
        assert figure in report, (name, figure)
        assert re.search(re.escape(bound.command) + r"\s", report), bound.command
        # the best local response measured: the paper's (lbr-) or a deeper look-ahead (lbr2-)
        assert name == "tuned" or re.search(rf"lbr2?-{name} {name} ", bound.command)


def test_the_curve_draws_the_bound_with_its_interval_and_the_fraction() -> None:
    bound = ceiling_of(["rule"], HEADS_UP)
    assert bound is not None and bound.ci is not None
    points = [
        CurvePoint(0, 0, 40, 0.1, 0.0, 0.2, "aivat"),
        CurvePoint(10, 5, 40, 0.347, 0.3, 0.4, "aivat"),
    ]
    ax = curve_figure(points, "t", bound).axes[0]
    assert any(set(line.get_ydata()) == {bound.value} for line in ax.lines)  # type: ignore[arg-type]
    labels = ax.get_legend_handles_labels()[1]
    assert "LBR lower bound +0.694" in labels and "last checkpoint: 50% of it" in labels
    spans = [patch.get_y() for patch in ax.patches]  # the bound's interval as a band
    assert spans and min(abs(y - bound.ci[0]) for y in spans) < 1e-9
    assert "AIVAT" in ax.get_ylabel()


def test_curves_and_summaries_of_older_runs_still_read(tmp_path: Path) -> None:
    old_csv = "timesteps,hands,eval_hands,sb_per_hand,ci_low,ci_high\n0,0,40,0.1,0.0,0.2\n"
    (tmp_path / "curve.csv").write_text(old_csv)
    assert read_curve(tmp_path / "curve.csv")[0].estimator == "raw"
    point = CurvePoint(5, 3, 40, 0.2, 0.1, 0.3, "aivat")
    write_curve(tmp_path / "new.csv", [point])
    assert read_curve(tmp_path / "new.csv") == [point]
    old = {"hands": 9, "sb_per_hand": 1.0, "ci": [0.5, 1.5], "std_error": 0.2, "vpip": 0.5}
    final = FinalEvaluation.from_dict({**old, "pfr": 0.2, "best_response": 2.0, "fraction": 0.5})
    assert final.ceiling == 2.0 and final.ceiling_kind == "best response"
    assert final.estimator == "raw" and final.sessions == 1
    assert FinalEvaluation.from_dict(final.to_dict()) == final


def test_evaluations_follow_the_bounds_protocol_and_old_runs_keep_theirs() -> None:
    config = TrainConfig(opponents=("bpp",), steps=10, seed=1)
    assert config.eval_session_deals == 600 and config.eval_aivat
    assert config.eval_sessions(20_000) == 17  # 10,000 deals in sessions of about 600
    assert config.eval_sessions(40) == 1
    old = TrainConfig.from_dict({"opponents": ["bpp"], "steps": 10, "seed": 1})
    assert old.eval_session_deals is None and not old.eval_aivat and old.eval_sessions(20_000) == 1
    with pytest.raises(ValueError, match="eval_session_deals"):
        TrainConfig(opponents=("bpp",), steps=10, seed=1, eval_session_deals=0)


def _tiny_run(opponent: str, run_dir: Path) -> list[str]:
    """``holdem-lab train`` arguments of one 64-step rollout and a 400-hand final match."""
    args = ["train", "--opponents", opponent, "--steps", "64", "--seed", "0", "--quiet"]
    args += ["--run-dir", str(run_dir), "--num-envs", "1", "--eval-hands", "40"]
    return [*args, "--final-eval-hands", "400", "--eval-every", "64", "--batch-size", "64"]


def test_a_run_against_rule_reports_its_share_of_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir = tmp_path / "rule"
    assert main([*_tiny_run("rule", run_dir), "--eval-session-deals", "40"]) == 0
    out = capsys.readouterr().out
    assert "400 held-out hands in 5 sessions" in out
    assert "% of the LBR lower bound +0.694 sb/hand" in out
    final = json.loads((run_dir / "summary.json").read_text())["final"]
    assert final["ceiling_kind"] == "LBR lower bound" and final["sessions"] == 5
    assert final["fraction"] == pytest.approx(final["sb_per_hand"] / 0.694)
    assert final["estimator"] == "aivat"


def test_the_cli_keeps_the_old_protocol_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir = tmp_path / "old"
    args = _tiny_run("call", run_dir)
    assert main([*args, "--eval-session-deals", "all", "--raw-eval"]) == 0
    assert "400 held-out hands in 1 session: " in capsys.readouterr().out
    config = TrainConfig.load(run_dir / "config.json")
    assert config.eval_session_deals is None and not config.eval_aivat
    assert read_curve(run_dir / "curve.csv")[-1].estimator == "raw"
    assert main([*args, "--eval-session-deals", "some"]) == 2
    assert "expected a whole number" in capsys.readouterr().err
