"""Loki's pre-flop table fitter (tuning.loki_fit): it keeps Papp's row and meets the targets.

The agent's own tests (tests/agents/test_loki.py) check the shipped table without the fitter.
"""

from __future__ import annotations

import pytest

from agents.loki import Tightness
from agents.loki.preflop import Group, load_preflop_table
from tuning.loki_fit import KNOWN_ROW, TARGETS, preflop_vpip

TABLE = load_preflop_table()


def test_the_fitter_keeps_papps_row_in_the_shipped_table() -> None:
    """Papp 1998, section 6.1: the surviving tight / "3-4 players" row of Table B.1."""
    for strategy, pair in KNOWN_ROW.items():
        assert TABLE.lines[Tightness.TIGHT, Group.THREE_FOUR, strategy] == pair


@pytest.mark.parametrize("tightness", list(Tightness))
def test_fitted_table_plays_the_target_share_of_hands(tightness: Tightness) -> None:
    """Papp 6.1: tight / moderate / loose play about 18 / 21 / 24% of hands at ten seats.
    The shipped table was fitted on deals of seed 1998; here other deals, 1,000 x 10 seats
    (standard error about 0.3 points): within one point of the target."""
    estimate = preflop_vpip(TABLE, tightness, deals=1000, seed=7)
    assert estimate.vpip == pytest.approx(TARGETS[tightness], abs=0.01)
