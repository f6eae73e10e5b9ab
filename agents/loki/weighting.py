"""Loki-1's re-weighting and the field array in compiled loops, shared by both Lokis.

One implementation of the per-holding arithmetic, so that the scalar Loki (one opponent at a
time) and the batched Loki (many tables) get the same weights to the last bit:

* ``threshold_weights`` -- the round-start table re-weighted by the ramp around the best
  threshold mu of the round (Papp 1998 sections 7.2.2-7.2.3): pre-flop on IR7 (sigma in IR
  units, skipped below the 5th percentile), post-flop on EHS' = HS1 + (1 - HS1) PPOTc with
  sigma = slope (1 - mu), the low-mu correction and the pot-odds exception; floored at the low
  weight. ``agents.loki.modelling.ramp`` is the NumPy reference of the ramps.
* ``field_of`` -- the field array: the average of the opponents' weight tables, each scaled to
  sum one (Papp 1998 section 7.3; ``agents.strength.field_weights`` is the reference, which
  sums in NumPy's pairwise order where these loops add in holding order).

The batched Loki keeps, per opponent, the round-start table and the round's best threshold
(a "pending" re-weighting, applied where the weights are read: ``fields``) instead of a second
table; ``materialize`` folds a pending re-weighting into the table when its round is over.
Pending rounds are tagged by street (-1: none). Post-flop a pending re-weighting reads the
board values of its street, which the batched Loki keeps per table until the next street.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel

__all__ = ["field_of", "fields", "materialize", "note_thresholds", "threshold_weights"]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]

_HOLDINGS = 1326
_PREFLOP = 0


@kernel
def _ramp(value: float, mu: float, sigma: float) -> float:
    """0 below mu - sigma, 1 above mu + sigma, linear in between (Papp 1998 Fig. 7.1)."""
    factor = (value - mu + sigma) / (2.0 * sigma)
    if factor < 0.0:
        return 0.0
    return 1.0 if factor > 1.0 else factor


@kernel
def _apply(
    start: Array,
    out: Array,
    street: int,
    mu: float,
    odds: float,
    ir7: Array,
    ir7_sorted: Array,
    hs1: Array,
    ppot: Array,
    preflop_sigma: float,
    skip: float,
    slope: float,
    low: float,
) -> None:
    """``out`` = ``start`` re-weighted by threshold ``mu`` of round ``street`` (``out`` may be
    ``start``); ``odds`` are the pot odds of the action that set it (post-flop)."""
    if street < 0 or (street == _PREFLOP and mu < skip):
        for h in range(_HOLDINGS):
            out[h] = start[h]
        return
    if street == _PREFLOP:
        index = min(len(ir7_sorted) - 1, round(mu * (len(ir7_sorted) - 1)))
        mu_ir = ir7_sorted[index]
        for h in range(_HOLDINGS):
            weight = start[h] * _ramp(ir7[h], mu_ir, preflop_sigma)
            out[h] = weight if weight > low else low
        return
    sigma = slope * (1.0 - mu)
    top = mu + sigma
    corrected = sigma > mu  # Papp 7.2.3: the ramp starts at r instead of 0
    r = 1.0 - 2.0 * mu / top
    for h in range(_HOLDINGS):
        value = _clean(hs1[h]) + (1.0 - _clean(hs1[h])) * _clean(ppot[h])
        if _clean(ppot[h]) >= odds:
            factor = 1.0  # drawing on pot odds: kept
        elif corrected:
            factor = 1.0 if value >= top else r + (1.0 - r) * value / top
        else:
            factor = _ramp(value, mu, sigma)
        weight = start[h] * factor
        out[h] = weight if weight > low else low


@kernel
def _clean(value: float) -> float:
    """0 for a NaN (a holding that meets the board), as ``numpy.nan_to_num``."""
    return value if value == value else 0.0


@kernel
def threshold_weights(
    start: Array,
    street: int,
    mu: float,
    odds: float,
    ir7: Array,
    ir7_sorted: Array,
    hs1: Array,
    ppot: Array,
    preflop_sigma: float,
    skip: float,
    slope: float,
    low: float,
) -> Array:
    """A new table: ``start`` re-weighted by the threshold ``mu`` of round ``street`` (the
    arguments as ``_apply``; ``hs1`` and ``ppot`` of the street's board, NaN read as 0)."""
    out = np.empty(_HOLDINGS)
    _apply(
        start, out, street, mu, odds, ir7, ir7_sorted, hs1, ppot, preflop_sigma, skip, slope, low
    )
    return out


@kernel
def _accumulate(weights: Array, total: Array) -> None:
    """Add ``weights`` scaled to sum one into ``total``."""
    mass = 0.0
    for h in range(_HOLDINGS):
        mass += weights[h]
    for h in range(_HOLDINGS):
        total[h] += weights[h] / mass


@kernel
def field_of(tables: Array) -> Array:
    """The field array of the ``(m, 1326)`` weight tables (m >= 1, each summing above 0)."""
    total = np.zeros(_HOLDINGS)
    for m in range(len(tables)):
        _accumulate(tables[m], total)
    return total / len(tables)


@kernel
def note_thresholds(
    events: Ints,
    tables: Ints,
    slots: Ints,
    streets: Ints,
    mus: Array,
    odds_of: Array,
    tag: Ints,
    best: Array,
    odds: Array,
) -> int:
    """Record the thresholds of Loki-1 re-weighting ``events`` (in log order): a round's
    first sets its pending re-weighting, a later one only when its mu is higher (Papp 1998
    section 7.2.1: at most one re-weighting per round, from the round-start table).

    Returns the first event whose opponent still has a pending re-weighting of another round
    (which ``materialize`` should have folded in), -1 when none.
    """
    for q in range(len(events)):
        e = events[q]
        t, o, street = tables[e], slots[e], streets[e]
        if tag[t, o] != street:
            if tag[t, o] >= 0:
                return int(e)
            tag[t, o] = street
            best[t, o] = -np.inf
        if mus[e] > best[t, o]:
            best[t, o] = mus[e]
            odds[t, o] = odds_of[e]
    return -1


@kernel
def materialize(
    tables: Ints,
    before: int,
    weights: Array,
    tag: Ints,
    best: Array,
    odds: Array,
    ir7: Array,
    ir7_sorted: Array,
    hs1: Array,
    ppot: Array,
    preflop_sigma: Array,
    skip: Array,
    slope: Array,
    low: Array,
) -> None:
    """Fold every pending re-weighting of a round before ``before`` into the tables at
    ``tables`` (the board values ``hs1``, ``ppot`` per table: the pending round's)."""
    for q in range(len(tables)):
        t = tables[q]
        for o in range(weights.shape[1]):
            if 0 <= tag[t, o] < before:
                w = weights[t, o]
                _apply(
                    w, w, tag[t, o], best[t, o], odds[t, o], ir7, ir7_sorted, hs1[t], ppot[t],
                    preflop_sigma[t], skip[t], slope[t], low[t],
                )  # fmt: skip
                tag[t, o] = -1


@kernel
def fields(
    tables: Ints,
    seat: Ints,
    folded: npt.NDArray[np.bool_],
    uniform: npt.NDArray[np.bool_],
    weights: Array,
    tag: Ints,
    best: Array,
    odds: Array,
    ir7: Array,
    ir7_sorted: Array,
    hs1: Array,
    ppot: Array,
    preflop_sigma: Array,
    skip: Array,
    slope: Array,
    low: Array,
    out: Array,
) -> None:
    """The field array of each row's opponents still in (seat order), their pending
    re-weightings applied; all ones at the tables that do not model (``uniform``)."""
    seats = folded.shape[1]
    current = np.empty(_HOLDINGS)
    for i in range(len(tables)):
        t, me = tables[i], seat[i]
        if uniform[t]:
            out[i, :] = 1.0
            continue
        total = np.zeros(_HOLDINGS)
        count = 0
        for s in range(seats):
            if s == me or folded[i, s]:
                continue
            o = (s - me - 1) % seats
            _apply(
                weights[t, o], current, tag[t, o], best[t, o], odds[t, o], ir7, ir7_sorted,
                hs1[t], ppot[t], preflop_sigma[t], skip[t], slope[t], low[t],
            )  # fmt: skip
            _accumulate(current, total)
            count += 1
        for h in range(_HOLDINGS):
            out[i, h] = total[h] / count
