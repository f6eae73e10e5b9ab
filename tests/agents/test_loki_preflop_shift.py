"""Loki's pre-flop shift: Table B.1's thresholds of one tightness lowered by IR4 units.

The recorded numbers were computed by the Loki study's ``shifted_table`` before the shift moved
into ``agents.loki``: the agents a study builds for a point must stay the same bit for bit.
"""

from __future__ import annotations

import pytest

from agents.loki.params import Tightness
from agents.loki.preflop import Group, PreflopStrategy, PreflopTable, load_preflop_table
from tuning.studies.loki import shifted_table

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


def shifted(tightness: Tightness, shift: float) -> PreflopTable:
    return shifted_table(tightness, shift)


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
    table = shifted(tightness, shift)
    assert row(table, tightness, group) == expected
    for strategy in THRESHOLDS:  # the increments (per position) do not move
        key = (tightness, group, strategy)
        assert table.lines[key][1] == TABLE.lines[key][1]
