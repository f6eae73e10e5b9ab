"""Loki's pre-flop shift: Table B.1's thresholds of one tightness lowered by IR4 units.

The recorded numbers were computed by the Loki study (``tuning.studies.loki.shifted_table``)
before the shift moved into ``agents.loki`` (``PreflopTable.shifted``,
``LokiParams.preflop_shift``): the agents a study builds for a point stay the same bit for bit.
"""

from __future__ import annotations

import math

import pytest

from agents.loki import Loki, Loki2, LokiParams
from agents.loki.params import Tightness
from agents.loki.preflop import (
    Group,
    PreflopStrategy,
    PreflopTable,
    group_lines,
    load_preflop_table,
)
from envs.registry import make_agent

TABLE = load_preflop_table()
THRESHOLDS = (PreflopStrategy.MAKE1, PreflopStrategy.MAKE2, PreflopStrategy.MAKE4)

# fmt: off
LOOSE = [
    # (shift, group, (Make1, Make2, Make4 bases, small blind's Call1, Call2))
    (-150.0, Group.TWO, (103.0434671508943, 180.3434671508943, 375.9434671508943,
                         103.0434671508943, 141.6434671508943)),
    (-150.0, Group.THREE_FOUR, (135.4, 285.4, 665.4, 135.4, 210.4)),
    (-150.0, Group.FIVE_PLUS, (150.70205255591645, 332.8020525559165, 794.1020525559164,
                               150.70205255591645, 241.70205255591645)),
    (-37.5, Group.TWO, (45.11086678772358, 122.41086678772356, 318.01086678772356,
                        45.11086678772358, 83.71086678772357)),
    (-37.5, Group.THREE_FOUR, (22.9, 172.9, 552.9, 22.9, 97.9)),
    (-37.5, Group.FIVE_PLUS, (14.125513138979116, 196.2255131389791, 657.5255131389791,
                              14.125513138979116, 105.12551313897912)),
    (0.0, Group.TWO, (25.8, 103.1, 298.7, 25.8, 64.4)),
    (0.0, Group.THREE_FOUR, (-14.6, 135.4, 515.4, -14.6, 60.4)),
    (0.0, Group.FIVE_PLUS, (-31.4, 150.7, 612.0, -31.4, 59.6)),
    (80.0, Group.TWO, (-15.396515813810293, 61.9034841861897, 257.50348418618967,
                       -15.396515813810293, 23.203484186189712)),
    (80.0, Group.THREE_FOUR, (-94.6, 55.400000000000006, 435.4, -94.6, -19.6)),
    (80.0, Group.FIVE_PLUS, (-128.52109469648877, 53.578905303511206, 514.8789053035113,
                             -128.52109469648877, -37.52109469648878)),
    (150.0, Group.TWO, (-51.44346715089431, 25.85653284910569, 221.45653284910568,
                        -51.44346715089431, -12.843467150894298)),
    (150.0, Group.THREE_FOUR, (-164.6, -14.599999999999994, 365.4, -164.6, -89.6)),
    (150.0, Group.FIVE_PLUS, (-213.50205255591646, -31.40205255591647, 429.89794744408357,
                              -213.50205255591646, -122.50205255591646)),
]
"""Loose (the studies' tightness), every group, computed before the refactor."""
TIGHT_80 = [
    (80.0, Group.TWO, (45.803484186189706, 123.0034841861897, 318.7034841861897,
                       45.803484186189706, 84.4034841861897)),
    (80.0, Group.THREE_FOUR, (-30.0, 120.0, 500.0, -30.0, 45.0)),
    (80.0, Group.FIVE_PLUS, (15.678905303511215, 197.77890530351118, 659.0789053035113,
                             15.678905303511215, 106.67890530351123)),
]
"""Tight shifted by +80 IR4 units, computed before the refactor."""
# fmt: on


def row(table: PreflopTable, tightness: Tightness, group: Group) -> tuple[float, ...]:
    bases = tuple(table.lines[tightness, group, strategy][0] for strategy in THRESHOLDS)
    return (*bases, *table.small_blind[tightness, group])


@pytest.mark.parametrize(
    ("tightness", "shift", "group", "expected"),
    [(Tightness.LOOSE, *case) for case in LOOSE] + [(Tightness.TIGHT, *case) for case in TIGHT_80],
)
def test_shifted_thresholds_are_the_recorded_ones_bit_for_bit(
    tightness: Tightness, shift: float, group: Group, expected: tuple[float, ...]
) -> None:
    table = TABLE.shifted(tightness, shift)
    assert row(table, tightness, group) == expected
    for strategy in THRESHOLDS:  # the increments (per position) do not move
        key = (tightness, group, strategy)
        assert table.lines[key][1] == TABLE.lines[key][1]
    for other in Tightness:  # the other tightnesses do not move
        if other != tightness:
            assert row(table, other, group) == row(TABLE, other, group)


def test_the_group_lines_are_the_recorded_ones() -> None:
    """The slopes the shift carries IR4 units with (as fitted before the move, bit for bit)."""
    assert dict(group_lines()) == {
        Group.TWO: (33.3045976900505, 0.5149564476726287),
        Group.THREE_FOUR: (0.0, 1.0),
        Group.FIVE_PLUS: (-13.743361680910574, 1.2140136837061097),
    }


@pytest.mark.parametrize("kind", [Loki, Loki2])
@pytest.mark.parametrize(("shift", "group", "expected"), [LOOSE[3], LOOSE[10], LOOSE[14]])
def test_an_agent_with_a_shift_is_built_from_its_parameters_alone(
    kind: type[Loki], shift: float, group: Group, expected: tuple[float, ...]
) -> None:
    agent = kind(LokiParams(preflop_shift=shift))
    assert row(agent.preflop_table, Tightness.LOOSE, group) == expected
    again = agent.spawn()  # shifts the given table again, not the shifted one
    assert row(again.preflop_table, Tightness.LOOSE, group) == expected


def test_a_shift_applies_to_a_given_table_and_zero_keeps_it() -> None:
    given = TABLE.shifted(Tightness.LOOSE, 30.0)
    agent = Loki(LokiParams(preflop_shift=50.0), preflop_table=given)
    key = (Tightness.LOOSE, Group.THREE_FOUR, PreflopStrategy.MAKE2)
    assert agent.preflop_table.lines[key][0] == pytest.approx(TABLE.lines[key][0] - 80.0)
    assert Loki(preflop_table=given).preflop_table is given
    assert TABLE.shifted(Tightness.TIGHT, 0.0) is TABLE


@pytest.mark.parametrize("name", ["loki", "loki-tight", "loki-moderate", "loki-som", "loki2"])
def test_the_registry_agents_play_the_shipped_table(name: str) -> None:
    agent = make_agent(name)
    assert isinstance(agent, Loki)
    assert agent.params.preflop_shift == 0.0 and agent.preflop_table is TABLE


@pytest.mark.parametrize("shift", [math.nan, math.inf, -math.inf, True, "10"])
def test_a_shift_must_be_a_finite_number(shift: object) -> None:
    with pytest.raises(ValueError, match="shift must be a finite number of IR4 units"):
        TABLE.shifted(Tightness.LOOSE, shift)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="preflop_shift must be a finite number of IR4 units"):
        LokiParams(preflop_shift=shift)  # type: ignore[arg-type]


def test_a_shift_that_overflows_a_threshold_is_refused() -> None:
    """1.7e308 is finite, but 1.214 x 1.7e308 (the "5+" group's slope times it) is not."""
    with pytest.raises(ValueError, match="loose/5\\+: thresholds must be finite"):
        TABLE.shifted(Tightness.LOOSE, 1.7e308)
