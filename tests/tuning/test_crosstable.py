"""``holdem-lab crosstable``: every lineup on the same deals, tables, JSON, heat map, refusals."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import numpy as np
import pytest

import tuning.crosstable as crosstable_module
from envs.match import play_match
from tuning.cli.main import main
from tuning.crosstable import crosstable
from tuning.crosstable_plot import _colour_range


def test_pairs_form_an_antisymmetric_matrix_of_the_matches_themselves() -> None:
    table = crosstable(["rule", "call", "raise"], hands=400, seed=3, estimator="raw")
    value, width = table.matrix()
    np.testing.assert_allclose(value, -value.T, atol=1e-12)  # zero-sum, the same deals
    assert np.isnan(np.diag(value)).all() and (width[~np.isnan(width)] >= 0).all()
    order = table.ranked()
    assert sorted(order) == sorted(table.agents)
    means = {name: mean for name, mean, _ in table.means()}
    assert [means[name] for name in order] == sorted(means.values(), reverse=True)
    rule, raise_ = order.index("rule"), order.index("raise")
    direct = play_match(["rule", "raise"], hands=400, seed=3)
    assert value[rule, raise_] == pytest.approx(direct.results[0].sb_per_hand, abs=1e-12)
    others = [j for j in range(3) if j != rule]
    assert means["rule"] == pytest.approx(value[rule, others].mean())
    rows = [line.split(" | ")[0] for line in table.markdown() if line.startswith("| `")]
    assert rows == [f"| `{name}`" for name in order]  # the markdown's rows, best mean first


def test_a_lineup_is_played_longer_until_it_meets_the_half_width() -> None:
    table = crosstable(["call", "raise", "random"], hands=400, sessions=2, seed=5, half_width=0.2)
    first = {cell.lineup: cell for cell in table.cells if cell.agent == cell.lineup[0]}
    assert first["call", "raise"].hands == 400  # call vs raise: no variance at all
    longer = first["raise", "random"]
    assert longer.hands > 400 and longer.sessions * 200 == longer.hands  # same session length
    assert all(cell.half_width <= 0.2 for cell in table.cells) and not table.wide()
    direct = play_match(
        ["raise", "random"],
        hands=longer.hands,
        sessions=longer.sessions,
        seed=5,
        estimator="aivat",
    )
    assert longer.sb_per_hand == pytest.approx(direct.results[0].aivat_sb_per_hand, abs=1e-12)
    assert "to" in table.hands_played() and "at most 0.2" in table.markdown()[0]


def test_a_lineup_stops_at_max_hands_and_the_table_says_so() -> None:
    table = crosstable(
        ["raise", "random"], hands=200, sessions=1, seed=5, half_width=0.01, max_hands=600
    )
    assert {cell.hands for cell in table.cells} == {600}
    assert len(table.wide()) == 2
    assert any("wider than 0.01 at 600 hands" in line for line in table.markdown())


def test_lineups_of_three_seats(tmp_path: Path) -> None:
    agents = ["rule", "call", "raise", "random"]
    table = crosstable(agents, hands=120, seed=1, seats=3, estimator="raw")
    assert len(table.cells) == 3 * comb(4, 3)
    for lineup in {cell.lineup for cell in table.cells}:
        total = sum(c.sb_per_hand for c in table.cells if c.lineup == lineup)
        assert total == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="needs heads-up"):
        table.matrix()
    assert any("mean over its lineups" in line for line in table.markdown())
    rows, columns, value, _ = table.grid()
    assert rows == table.ranked() and columns[0] == "without random"  # (rule, call, raise)
    assert value.shape == (4, 4) and np.isnan(value).sum() == 4  # each agent sits out once
    column = [c.sb_per_hand for c in table.cells if c.lineup == ("rule", "call", "raise")]
    assert np.nansum(value[:, 0]) == pytest.approx(sum(column))
    assert table.plot(tmp_path / "three.png").stat().st_size > 0


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


@pytest.mark.parametrize(
    ("half_width", "max_hands", "message"),
    [
        (None, 100, "max_hands needs half_width"),
        (0.0, None, "half_width must be a positive number"),
        (float("nan"), None, "half_width must be a positive number"),
        (0.1, 5, r"max_hands \(5\) is below hands \(10\)"),
    ],
)
def test_bad_targets_are_refused(
    half_width: float | None, max_hands: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        crosstable(["rule", "call"], hands=10, seed=0, half_width=half_width, max_hands=max_hands)


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
        "lineups.jsonl",
    }
    assert json.loads((out / "crosstable.json").read_text()) == data
    assert main([*argv, "--out", str(out)]) == 2
    assert "already holds" in capsys.readouterr().err


def test_an_interrupted_run_resumes_without_replaying_its_lineups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "table"
    argv = ["crosstable", "rule", "call", "raise", "--hands", "200", "--out", str(out), "--json"]
    assert main(argv) == 0
    whole = json.loads(capsys.readouterr().out)
    log = (out / "lineups.jsonl").read_text().splitlines()
    assert len(log) == 1 + 3  # the settings, then one line per lineup
    for name in ("crosstable.md", "crosstable.json", "crosstable.png"):
        (out / name).unlink()
    # as if stopped while writing the third lineup: the first two are kept, the third replayed
    (out / "lineups.jsonl").write_text("\n".join(log[:3]) + "\n" + log[3][:40])
    played: list[tuple[str, ...]] = []
    real = crosstable_module.play_match

    def counting(agents: list[str], **kwargs: object) -> object:
        played.append(tuple(agents))
        return real(agents, **kwargs)

    monkeypatch.setattr(crosstable_module, "play_match", counting)
    assert main(argv) == 0
    assert played == [("call", "raise")]
    captured = capsys.readouterr()
    assert json.loads(captured.out) == whole
    assert captured.err.count("kept in lineups.jsonl") == 2  # the two lineups not replayed
    assert (out / "lineups.jsonl").read_text().splitlines() == log


def test_a_log_of_other_settings_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table"
    assert main(["crosstable", "rule", "call", "--hands", "100", "--out", str(out)]) == 0
    (out / "crosstable.md").unlink()
    (out / "crosstable.json").unlink()
    (out / "crosstable.png").unlink()
    capsys.readouterr()
    assert main(["crosstable", "rule", "call", "--hands", "200", "--out", str(out)]) == 2
    assert "other settings (hands)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("sizes", "top", "clipped"),
    [
        ([0.1, 0.2, 0.3, 0.4], 0.4, False),  # no outliers: the largest cell sets the scale
        ([0.1] * 10 + [0.2] * 10 + [5.0, 4.0], 0.2, True),  # two maniac cells are clipped
        ([0.0, 0.0], 1.0, False),  # nothing to colour
    ],
)
def test_a_few_huge_cells_do_not_wash_out_the_colours(
    sizes: list[float], top: float, clipped: bool
) -> None:
    assert _colour_range(np.array(sizes)) == (pytest.approx(top), clipped)
