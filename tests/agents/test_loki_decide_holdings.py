"""``decide_holdings`` (every holding at one spot) against ``decide`` (one row per holding):
the same probabilities, regions and EHS', NaN values read as 0, each holding's own semi-bluff
state and draw interval."""

from __future__ import annotations

import numpy as np
import pytest

from agents.loki.triples import decide, decide_holdings

HOLDINGS = 1326


@pytest.mark.parametrize("triples", [False, True])
@pytest.mark.parametrize("opponents", [1, 2, 3])
@pytest.mark.parametrize("to_call", [0, 2, 4])
def test_every_holding_at_one_spot_equals_one_row_per_holding(
    triples: bool, opponents: int, to_call: int
) -> None:
    rng = np.random.default_rng(opponents * 10 + to_call + triples)
    hs1, ppot = rng.random(HOLDINGS), rng.random(HOLDINGS) * 0.4
    dead = rng.random(HOLDINGS) < 0.1
    hs1[dead] = ppot[dead] = np.nan  # holdings that meet the board
    semi = rng.integers(-1, 4, HOLDINGS)
    low = rng.random(HOLDINGS) * 0.5
    interval = np.stack([low, low + 0.01 + rng.random(HOLDINGS) * 0.49], axis=1)
    street, pot, bet, bets, later, width = 2, 14, 4, to_call // 4, 4, 0.1
    make1, make2, switches = 0.5, 0.85, np.array([True, True, False])

    out, bounds, ehs = np.empty((HOLDINGS, 3)), np.empty((HOLDINGS, 2)), np.empty(HOLDINGS)
    decide_holdings(
        hs1, ppot, opponents, street, to_call, pot, bet, bets, True, False, later, semi, make1,
        make2, switches, width, triples, interval, out, bounds, ehs,
    )  # fmt: skip

    live = np.isfinite(hs1)
    hsn = np.where(live, hs1, 0.0) ** opponents
    rows = np.arange(HOLDINGS)
    column = np.ones(HOLDINGS, dtype=np.int64)
    ones = np.ones(HOLDINGS, dtype=bool)
    want, want_bounds = np.empty((HOLDINGS, 3)), np.empty((HOLDINGS, 2))
    want_ehs = np.empty(HOLDINGS)
    decide(
        hsn, np.where(live, ppot, 0.0), rows, column * street, column * to_call, column * pot,
        column * bet, column * bets, ones, ~ones, column * opponents, column * later,
        (semi >= 0) & (semi < street), np.full(HOLDINGS, make1), np.full(HOLDINGS, make2),
        np.tile(switches, (HOLDINGS, 1)), np.full(HOLDINGS, width), np.full(HOLDINGS, triples),
        interval, want, want_bounds, want_ehs,
    )  # fmt: skip
    # Heads-up (the local best response's case) to the last bit; HS1 ** 3 may differ from
    # NumPy's power in its last bit, which the triple's blend carries on.
    atol = 0.0 if opponents == 1 else 1e-12
    np.testing.assert_allclose(out, want, rtol=0, atol=atol)
    np.testing.assert_allclose(bounds, want_bounds, rtol=0, atol=atol)
    np.testing.assert_allclose(ehs, want_ehs, rtol=0, atol=atol)
    assert out.sum(axis=1) == pytest.approx(np.ones(HOLDINGS))
    assert len(np.unique(out.round(6), axis=0)) >= (4 if triples else 2)  # not one answer
