"""``holdem-lab crosstable``: every lineup on the same deals, tables, JSON, heat map, refusals."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import numpy as np
import pytest

from envs.match import play_match
from tuning.cli.main import main
from tuning.crosstable import crosstable


def test_pairs_form_an_antisymmetric_matrix_of_the_matches_themselves() -> None:
    table = crosstable(["rule", "call", "raise"], hands=400, seed=3, estimator="raw")
    value, width = table.matrix()
    np.testing.assert_allclose(value, -value.T, atol=1e-12)  # zero-sum, the same deals
    assert np.isnan(np.diag(value)).all() and (width[~np.isnan(width)] >= 0).all()
    direct = play_match(["rule", "raise"], hands=400, seed=3)
    assert value[0, 2] == pytest.approx(direct.results[0].sb_per_hand, abs=1e-12)
    means = {name: mean for name, mean, _ in table.means()}
    assert means["rule"] == pytest.approx((value[0, 1] + value[0, 2]) / 2)


def test_lineups_of_three_seats() -> None:
    agents = ["rule", "call", "raise", "random"]
    table = crosstable(agents, hands=120, seed=1, seats=3, estimator="raw")
    assert len(table.cells) == 3 * comb(4, 3)
    for lineup in {cell.lineup for cell in table.cells}:
        total = sum(c.sb_per_hand for c in table.cells if c.lineup == lineup)
        assert total == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="needs heads-up"):
        table.matrix()
    assert any("mean over its lineups" in line for line in table.markdown())


@pytest.mark.parametrize(
    ("agents", "seats", "message"),
    [
        (["rule", "rule"], 2, "named twice"),
        (["rule"], 2, "need at least 2 agents"),
        (["rule", "call"], 3, "need at least 3 agents"),
        (["rule", "nobody"], 2, "unknown agent 'nobody'"),
        (["rule", "call"], 11, "seats must be 2 to 10"),
    ],
)
def test_bad_requests_are_refused(agents: list[str], seats: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        crosstable(agents, hands=10, seed=0, seats=seats)


def test_the_command_writes_new_files_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table"
    argv = ["crosstable", "rule", "call", "raise", "--hands", "200", "--quiet"]
    assert main([*argv, "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agents"] == ["rule", "call", "raise"] and data["estimator"] == "aivat"
    assert len(data["cells"]) == 6
    assert {p.name for p in out.iterdir()} == {
        "crosstable.md",
        "crosstable.json",
        "crosstable.png",
    }
    assert json.loads((out / "crosstable.json").read_text()) == data
    assert main([*argv, "--out", str(out)]) == 2
    assert "already holds" in capsys.readouterr().err
