"""``seat_flags``, the per-hand player statistics both engines book, against a plain loop."""

from __future__ import annotations

import numpy as np
import pytest

from envs.match.hands import FinishedHands, seat_flags
from envs.rules import Action, Street


def _looped(hands: FinishedHands, seats: int) -> dict[str, np.ndarray]:
    """The flags entry by entry, as the player statistics define them."""
    k = len(hands.deals)
    flags = {name: np.zeros((k, seats), dtype=np.int64) for name in ("vpip", "pfr", "fold")}
    flags |= {name: np.zeros((k, seats), dtype=np.int64) for name in ("aggressive", "calls")}
    for i in range(k):
        for j in range(int(hands.log_len[i])):
            seat, action = int(hands.log_seat[i, j]), int(hands.log_action[i, j])
            preflop = int(hands.log_street[i, j]) == Street.PREFLOP
            raised = action == Action.RAISE
            called = action == Action.CALL and int(hands.log_amount[i, j]) > 0
            if preflop:
                flags["pfr"][i, seat] |= raised
                flags["vpip"][i, seat] |= raised or called
                flags["fold"][i, seat] |= action == Action.FOLD
            else:
                flags["aggressive"][i, seat] += raised
                flags["calls"][i, seat] += called
    return flags


@pytest.mark.parametrize("seed", range(20))
def test_seat_flags_match_a_loop_over_the_entries(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k, width, seats = int(rng.integers(1, 60)), int(rng.integers(1, 25)), int(rng.integers(2, 11))
    hands = FinishedHands(
        deals=np.arange(k),
        rotations=np.zeros(k, dtype=np.int64),
        payoffs=np.zeros((k, seats), dtype=np.int64),
        log_len=rng.integers(0, width + 1, k),
        # Entries past log_len hold anything (stale actions of earlier hands).
        log_street=rng.integers(0, 4, (k, width)).astype(np.int8),
        log_seat=rng.integers(0, seats, (k, width)).astype(np.int8),
        log_action=rng.integers(0, 3, (k, width)).astype(np.int8),
        log_amount=rng.integers(0, 3, (k, width)).astype(np.int32),
        showed=rng.integers(0, 2, (k, seats)).astype(bool),
        flop_dealt=rng.integers(0, 2, k).astype(bool),
    )
    flags = seat_flags(hands, seats)
    expected = _looped(hands, seats)
    assert np.array_equal(flags.vpip, expected["vpip"] > 0)
    assert np.array_equal(flags.pfr, expected["pfr"] > 0)
    assert np.array_equal(flags.saw_flop, hands.flop_dealt[:, None] & (expected["fold"] == 0))
    assert np.array_equal(flags.showdowns, hands.showed)
    assert np.array_equal(flags.aggressive, expected["aggressive"])
    assert np.array_equal(flags.calls, expected["calls"])
