"""``NAME:FILE`` agent specs: parameters from a study or a file, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.bpp import BPPAgent, BPPCurvesAgent, BPPParams, CurvesParams
from agents.lbr import LocalBestResponse
from agents.loki import Loki2, LokiParams
from agents.specs import params_data
from envs.batched.adapter import has_batched_form
from envs.registry import check_spec, make_agent

STUDY = Path(__file__).resolve().parents[2] / "results" / "default"


def test_a_study_directory_gives_its_tuned_parameters() -> None:
    tuned = json.loads((STUDY / "best_params.json").read_text())["tuned"]
    agent = make_agent(f"bpp:{STUDY}")
    assert isinstance(agent, BPPAgent)
    assert agent.params == BPPParams.from_dict(tuned) != BPPParams()
    assert agent.name == f"bpp:{STUDY}"
    assert has_batched_form(agent)
    assert params_data(str(STUDY / "best_params.json")) == tuned


def test_the_lbr_follows_the_file_agent(tmp_path: Path) -> None:
    file = tmp_path / "p.json"
    file.write_text(json.dumps({"fp_flop": 2.5, "bluff_rate": 0.0}))
    lbr = make_agent(f"lbr-bpp:{file}")
    assert isinstance(lbr, LocalBestResponse)
    shadow = lbr.opponent.agent  # type: ignore[attr-defined]
    assert shadow.params == BPPParams.from_dict({"fp_flop": 2.5, "bluff_rate": 0.0})
    assert has_batched_form(lbr)


def test_curves_parameters_round_trip_through_a_file(tmp_path: Path) -> None:
    params = CurvesParams(steepness=6.0, fold_shift=(-0.2, -0.1, -0.1, -0.05))
    file = tmp_path / "curves.json"
    file.write_text(json.dumps(params.to_dict()))
    agent = make_agent(f"bpp-curves:{file}")
    assert isinstance(agent, BPPCurvesAgent) and agent.params == params
    lbr = make_agent(f"lbr-bpp-curves:{file}")
    assert lbr.opponent.agent.params == params  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown CurvesParams keys"):
        CurvesParams.from_dict({"fp_flop": 1.0})


def test_loki_parameters_from_a_plain_file(tmp_path: Path) -> None:
    file = tmp_path / "loki.json"
    file.write_text(json.dumps({"make1": 0.45}))
    agent = make_agent(f"loki2:{file}")
    assert isinstance(agent, Loki2)
    assert agent.params == LokiParams.from_dict({"make1": 0.45})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody:x", "unknown agent 'nobody'"),
        ("rule:x", "agent 'rule' takes no parameter file"),
        ("bpp:", "give a file or study directory"),
        ("bpp:/no/such/place", "no parameter file at '/no/such/place'"),
        (f"loki:{STUDY}", "does not hold Loki parameters: unknown LokiParams keys"),
    ],
)
def test_bad_specs_are_refused_with_the_reason(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_check_spec_accepts_names_and_file_forms(tmp_path: Path) -> None:
    check_spec("bpp")
    check_spec("lbr-loki:anything")  # the file is read when the agent is built
    not_json = tmp_path / "x.json"
    not_json.write_text("{")
    with pytest.raises(ValueError, match="is not JSON"):
        make_agent(f"bpp:{not_json}")
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")
    with pytest.raises(ValueError, match="must hold a JSON object"):
        make_agent(f"bpp:{listed}")
