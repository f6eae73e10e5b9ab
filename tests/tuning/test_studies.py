"""Study specs: the registry, specs rebuilt from storage, the Loki specs, a Loki study run."""

from __future__ import annotations

import ast
import csv
import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

from agents.loki import Loki
from agents.loki.params import LokiParams, Tightness
from agents.loki.preflop import Group, PreflopStrategy, load_preflop_table
from tuning.cli import main
from tuning.evaluation import MatchProtocol, Namespace, evaluate_points
from tuning.launch import run_trials
from tuning.samplers import SamplerName
from tuning.studies import AGENTS, StudySpec, make_spec, spec_from_attrs
from tuning.studies.loki import loki2_spec, loki_spec, to_params
from tuning.study import StudySettings

TUNING = Path(__file__).resolve().parents[2] / "tuning"


def test_unknown_agents_and_options_are_refused() -> None:
    with pytest.raises(ValueError, match="no study of agent 'gto'; choose one of bpp, loki"):
        make_spec("gto")
    with pytest.raises(ValueError, match="the loki study has no option per_round_alpha"):
        make_spec("loki", options={"per_round_alpha": True})
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['alpha'\]"):
        make_spec("loki", ranges={"alpha": (0.0, 1.0)})


@pytest.mark.parametrize("agent", AGENTS)
def test_a_spec_is_rebuilt_from_the_attributes_stored_with_its_study(agent: str) -> None:
    first = make_spec(agent)
    narrowed = {first.params[0].name: (first.params[0].low, first.params[0].high / 2 + 1)}
    spec = make_spec(agent, ranges=narrowed)
    again = spec_from_attrs({"agent": agent, "space": spec.describe()})
    assert again.params == spec.params and again.agent == agent
    assert again.defaults == spec.defaults and again.options == spec.options


def test_studies_stored_before_specs_are_bpp_studies() -> None:
    legacy = {"space": make_spec("bpp", options={"per_round_alpha": True}).describe()}
    spec = spec_from_attrs(legacy)
    assert spec.agent == "bpp" and spec.options == {"per_round_alpha": True}
    assert len(spec.names) == 16


@pytest.mark.parametrize("spec", [loki_spec(), loki2_spec()], ids=["loki", "loki2"])
def test_every_corner_of_a_loki_space_is_a_valid_agent(spec: StudySpec) -> None:
    for corner in range(2 ** len(spec.params)):
        values = {p.name: p.high if corner >> k & 1 else p.low for k, p in enumerate(spec.params)}
        agent = spec.agent_for(values)
        assert agent.name in ("loki", "loki2")
        assert spec.settings(values)["make1"] == values["make1"]


@pytest.mark.parametrize(
    ("agent", "ranges", "message"),
    [
        ("loki", {"make1": (0.4, 0.8)}, "must lie above 0 and below make2's"),
        ("loki2", {"triple_width": (0.0, 0.1)}, "below half the smallest make1..make2 gap"),
        ("loki", {"sigma_slope": (0.5, 1.5)}, r"sigma_slope's range must lie in \(0, 1\]"),
    ],
)
def test_loki_ranges_holding_invalid_points_are_refused(
    agent: str, ranges: dict[str, tuple[float, float]], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        make_spec(agent, ranges=ranges)


def test_the_loki_defaults_are_the_published_loki() -> None:
    """Deterministic Loki-1 against itself, seats swapped on every deal: exactly even."""
    spec = loki_spec()
    protocol = MatchProtocol(opponents=("loki",), deals_per_block=6, blocks=1, seed=4)
    assert spec.agent_for(spec.defaults).params == spec.factory(spec.defaults).params
    looser = {**spec.defaults, "preflop_shift": 150.0, "make1": 0.4}
    values = evaluate_points(spec, protocol, Namespace.TUNE, [spec.defaults, looser], range(3))
    assert np.all(values.raw[0] == 0.0)
    assert np.any(values.raw[1] != 0.0)  # the knobs change the play


def loki_of(spec: StudySpec, values: Mapping[str, float]) -> Loki:
    agent = spec.agent_for(values)
    assert isinstance(agent, Loki)
    return agent


def test_preflop_shift_lowers_the_thresholds_of_the_agents_tightness_only() -> None:
    shipped = load_preflop_table()
    spec = loki_spec()
    assert loki_of(spec, spec.defaults).preflop_table is shipped
    looser = loki_of(spec, {**spec.defaults, "preflop_shift": 100.0}).preflop_table
    for group in Group:
        for strategy in (PreflopStrategy.MAKE1, PreflopStrategy.MAKE2, PreflopStrategy.MAKE4):
            before = shipped.threshold(Tightness.LOOSE, group, strategy, 2)
            after = looser.threshold(Tightness.LOOSE, group, strategy, 2)
            assert after < before
            tight = (Tightness.TIGHT, group, strategy)
            assert looser.lines[tight] == shipped.lines[tight]
    # IR4 units are the 3-4 group's own: a shift of 100 moves its thresholds by exactly 100.
    make1 = (Tightness.LOOSE, Group.THREE_FOUR, PreflopStrategy.MAKE1)
    assert looser.lines[make1][0] == pytest.approx(shipped.lines[make1][0] - 100.0)


@pytest.mark.parametrize("spec", [loki_spec(), loki2_spec()], ids=["loki", "loki2"])
def test_a_loki_point_is_loki_params_by_name(spec: StudySpec) -> None:
    """The study names ``LokiParams`` fields; the agent applies them (as BPP's study does)."""
    point = {**spec.defaults, "preflop_shift": 80.0, "make1": 0.45}
    agent = loki_of(spec, point)
    assert agent.params.preflop_shift == 80.0 and agent.params.make1 == 0.45
    # Recorded before the shift moved into the agent (tests/agents/test_loki_preflop_shift.py).
    table = agent.preflop_table
    assert (
        table.lines[Tightness.LOOSE, Group.THREE_FOUR, PreflopStrategy.MAKE2][0]
        == 55.400000000000006
    )
    assert spec.settings(point)["preflop_shift"] == 80.0
    with pytest.raises(ValueError, match=r"\['alpha'\] are not LokiParams fields"):
        to_params(LokiParams(), {"alpha": 1.0})


def test_a_study_refuses_to_resume_with_another_agent(tmp_path: Path) -> None:
    protocol = MatchProtocol(opponents=("call",), deals_per_block=2, blocks=2, seed=1)
    base = {"study_name": "s", "trials": 1, "results_dir": tmp_path, "protocol": protocol}
    run_trials(StudySettings(**base, sampler=SamplerName.RANDOM))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"exists with other settings: agent 'bpp' \(stored\) vs"):
        run_trials(
            StudySettings(**base, sampler=SamplerName.RANDOM, spec=loki_spec())  # type: ignore[arg-type]
        )


def test_cli_tunes_loki_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "tune", "--agent", "loki", "--study", "lk", "--trials", "3", "--deals-per-block", "3",
        "--blocks", "2", "--results", str(tmp_path), "--sampler", "random", "--top-k", "1",
        "--reevaluation-blocks", "2", "--confirmation-blocks", "2", "--quiet",
        "--batch-size", "3", "--pruner", "none", "--max-confirmation-blocks", "2",
    ]  # fmt: skip
    assert main(args) == 0
    assert "results in" in capsys.readouterr().out
    directory = tmp_path / "lk"
    with (directory / "trials.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 and rows[0]["source"] == "defaults"
    assert float(rows[0]["make1"]) == 0.5 and float(rows[0]["preflop_shift"]) == 0.0
    assert {"preflop_shift", "make2", "sigma_slope"} <= set(rows[1])
    best = json.loads((directory / "best_params.json").read_text())
    assert best["defaults"]["make1"] == 0.5 and best["defaults"]["tightness"] == "loose"
    summary = (directory / "summary.md").read_text()
    assert "Loki (Loki-1" in summary and "against `loki`" in summary
    (directory / "plots" / "loki.png").unlink()
    assert main(["plot", "--study", "lk", "--results", str(tmp_path)]) == 0
    assert (directory / "plots" / "loki.png").stat().st_size > 0


def test_cli_refuses_bpp_options_for_loki(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tune", "--agent", "loki", "--per-round-alpha", "--results", str(tmp_path)]
    assert main(argv) == 2
    assert "the loki study has no option per_round_alpha" in capsys.readouterr().err


AGENT_FREE = (
    "batches.py",
    "compare.py",
    "compare_report.py",
    "pool.py",
    "racing.py",
    "evaluation.py",
    "launch.py",
    "objective.py",
    "optuna_compat.py",
    "plots.py",
    "reevaluate.py",
    "report.py",
    "samplers.py",
    "storage.py",
    "study.py",
    "summary.py",
    "studies/spec.py",
    "cli/tune.py",
    "cli/worker.py",
    "cli/plot.py",
    "cli/compare_samplers.py",
)
"""The study machinery: it reads a spec and imports no agent."""


@pytest.mark.parametrize("module", AGENT_FREE)
def test_the_study_machinery_imports_no_agent(module: str) -> None:
    path = TUNING / module
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not {name for name in imported if name.split(".")[0] == "agents"}
