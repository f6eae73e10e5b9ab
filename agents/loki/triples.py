"""Loki's post-flop rules as a probability triple per holding, in compiled loops shared by
both Lokis: their own decisions, Loki-2's re-weighting, and Loki-2's one draw per hand.

* ``_triple`` -- the rules of ``agents.loki.postflop`` (Papp 1998 sections 6.2-6.6) for one
  holding, blended over +-width of EHS' at make1 and make2 (Pena 1999 section 4.1; width 0:
  Loki-1's pure action). ``agents.loki.postflop.probability_triples`` is the NumPy reference.
* ``decide`` -- the probabilities of the deciding rows: Loki-1's certain action, or Loki-2's
  triple conditioned on its per-hand draw lying in ``[lo, hi)`` (``conditional``);
  ``decide_holdings`` the same with every holding at one spot.
* ``triple_weights`` / ``triple_events`` -- Loki-2's re-weighting (Pena 1999 section 4.2):
  every holding's weight times its triple's entry of the observed action, floored.

Loki-2 draws one uniform number per hand and plays the region of its triple that holds it:
fold ``[0, C0)``, call ``[C0, C1)``, raise ``[C1, 1)`` with ``C0 = T0`` and ``C1 = T0 + T1``
(``C1 = 1`` when the raise has no chance, so that no rounding gives it one). Knowing its
earlier actions of the hand, the draw is uniform on an interval ``[lo, hi)``; the probability
of action a is then ``|[lo, hi) & R_a| / (hi - lo)``, and playing a narrows the interval to
``[lo, hi) & R_a`` (``narrow``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from agents.loki.postflop import BettingThresholds, Spot
from envs.protocols import Probabilities

__all__ = [
    "absorb_own",
    "conditional",
    "decide",
    "decide_holdings",
    "decide_spot",
    "narrow",
    "triple",
    "triple_events",
    "triple_weights",
]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]
Bools = npt.NDArray[np.bool_]

_HOLDINGS = 1326
_FOLD, _CALL, _RAISE = 0, 1, 2
_RIVER = 3


@kernel
def _clean(value: float) -> float:
    """0 for a NaN (a holding that meets the board), as ``numpy.nan_to_num``."""
    return value if value == value else 0.0


@kernel
def _clip(value: float) -> float:
    return 0.0 if value < 0.0 else (1.0 if value > 1.0 else value)


@kernel
def triple(
    hsn: float,
    ppot: float,
    ehs: float,
    street: int,
    to_call: int,
    pot: int,
    bet_size: int,
    num_bets: int,
    can_raise: bool,
    invested: bool,
    opponents: int,
    later_bets: int,
    semi_bluffing: bool,
    make1: float,
    make2: float,
    semi_bluff: bool,
    pot_odds: bool,
    showdown_odds: bool,
    width: float,
) -> tuple[float, float, float]:
    """(fold, call, raise) of one holding (the arguments as ``agents.loki.postflop.Spot`` and
    ``BettingThresholds``; ``hsn``, ``ppot``, ``ehs`` its values)."""
    high = _RAISE if num_bets < 2 else _CALL
    low = _FOLD if to_call else _CALL
    if to_call > 0:
        if showdown_odds:
            cost = to_call + later_bets
            if hsn >= cost / (pot + cost + opponents * later_bets):
                low = _CALL
        if pot_odds:
            chance = hsn if street == _RIVER else ppot
            if chance >= to_call / (pot + to_call):
                low = _CALL
    elif semi_bluff and num_bets == 0:  # nobody has bet: semi-bluff on PPOT >= Pot_Odds2
        odds = 2 * bet_size / ((pot + 4 * bet_size) + 2 * bet_size)
        low = _RAISE if ppot >= odds or semi_bluffing else low
    if num_bets == 0:
        middle = _RAISE
    elif to_call >= 2 * bet_size and not invested:
        middle = low  # Make1 declines two bets: the lower rules decide
    else:
        middle = _CALL
    if to_call == 0:  # checking is free: never fold
        high, middle, low = max(high, _CALL), max(middle, _CALL), max(low, _CALL)
    if not can_raise:
        high, middle, low = min(high, _CALL), min(middle, _CALL), min(low, _CALL)
    if width > 0:
        above2 = _clip((ehs - (make2 - width)) / (2 * width))
        above1 = _clip((ehs - (make1 - width)) / (2 * width))
    else:
        above2 = 1.0 if ehs >= make2 else 0.0
        above1 = 1.0 if ehs >= make1 else 0.0
    fold, call, bet = 0.0, 0.0, 0.0  # added in NumPy's order: high, middle, low
    for action, share in ((high, above2), (middle, above1 - above2), (low, 1.0 - above1)):
        if action == _FOLD:
            fold += share
        elif action == _CALL:
            call += share
        else:
            bet += share
    return fold, call, bet


@kernel
def conditional(lo: float, hi: float, c0: float, c1: float) -> tuple[float, float, float]:
    """P(fold, call, raise) of a draw uniform on ``[lo, hi)`` with the regions' bounds."""
    width = hi - lo
    fold = max(0.0, min(hi, c0) - lo) / width
    call = max(0.0, min(hi, c1) - max(lo, c0)) / width
    bet = max(0.0, hi - max(lo, c1)) / width
    return fold, call, bet


@kernel
def narrow(lo: float, hi: float, c0: float, c1: float, action: int) -> tuple[float, float]:
    """The draw's interval after ``action`` was played: ``[lo, hi) & R_action``. An action its
    interval gave no chance (the seat played by someone else) restarts the draw on the action's
    region; one the triple gave no chance at all leaves the interval as it is."""
    low = 0.0 if action == _FOLD else (c0 if action == _CALL else c1)
    high = c0 if action == _FOLD else (c1 if action == _CALL else 1.0)
    new_lo, new_hi = min(max(low, lo), hi), min(max(high, lo), hi)
    if new_hi > new_lo:
        return new_lo, new_hi
    if high > low:
        return low, high
    return lo, hi


@kernel
def _decided(
    hsn: float,
    ppot: float,
    street: int,
    to_call: int,
    pot: int,
    bet_size: int,
    num_bets: int,
    can_raise: bool,
    invested: bool,
    opponents: int,
    later_bets: int,
    semi_bluffing: bool,
    make1: float,
    make2: float,
    switches: Bools,
    width: float,
    triples: bool,
    lo: float,
    hi: float,
) -> tuple[float, float, float, float, float, float]:
    """One decision: (fold, call, raise), the regions' bounds ``(C0, C1)`` and EHS'; the
    triple conditioned on the draw's ``[lo, hi)`` where Loki bets by ``triples``, else the
    certain action of Loki-1's rules."""
    ehs = hsn + (1.0 - hsn) * ppot
    fold, call, bet = triple(
        hsn, ppot, ehs, street, to_call, pot, bet_size, num_bets, can_raise, invested,
        opponents, later_bets, semi_bluffing, make1, make2, switches[0], switches[1],
        switches[2], width if triples else 0.0,
    )  # fmt: skip
    c0, c1 = fold, 1.0 if bet == 0.0 else min(fold + call, 1.0)
    if triples:
        fold, call, bet = conditional(lo, hi, c0, c1)
    return fold, call, bet, c0, c1, ehs


@kernel
def decide(
    hsn: Array,
    ppot: Array,
    tables: Ints,
    street: Ints,
    to_call: Ints,
    pot: Ints,
    bet_size: Ints,
    num_bets: Ints,
    can_raise: Bools,
    invested: Bools,
    opponents: Ints,
    later_bets: Ints,
    semi_bluffing: Bools,
    make1: Array,
    make2: Array,
    switches: Bools,
    width: Array,
    triples: Bools,
    interval: Array,
    out: Array,
    bounds: Array,
    ehs_out: Array,
) -> None:
    """Each deciding row's probabilities: the certain action of Loki-1's rules, or at the
    tables that bet by ``triples`` the triple conditioned on the draw's ``interval[t]``; the
    regions' bounds ``(C0, C1)`` go to ``bounds`` and EHS' to ``ehs_out`` (``switches[t]``:
    semi-bluff, pot odds, showdown odds)."""
    for i in range(len(tables)):
        t = tables[i]
        out[i, 0], out[i, 1], out[i, 2], bounds[i, 0], bounds[i, 1], ehs_out[i] = _decided(
            hsn[i], ppot[i], street[i], to_call[i], pot[i], bet_size[i], num_bets[i],
            can_raise[i], invested[i], opponents[i], later_bets[i], semi_bluffing[i],
            make1[t], make2[t], switches[t], width[t], triples[t], interval[t, 0],
            interval[t, 1],
        )  # fmt: skip


@kernel
def decide_holdings(
    hs1: Array,
    ppot: Array,
    opponents: int,
    street: int,
    to_call: int,
    pot: int,
    bet_size: int,
    num_bets: int,
    can_raise: bool,
    invested: bool,
    later_bets: int,
    semi: Ints,
    make1: float,
    make2: float,
    switches: Bools,
    width: float,
    triples: bool,
    interval: Array,
    out: Array,
    bounds: Array,
    ehs_out: Array,
) -> None:
    """``decide`` with every holding at one spot (for the local best response): HS1 raised
    to the ``opponents`` and PPOT1 read as 0 where NaN (a holding that meets the board), a
    semi-bluff going on where ``semi[h]`` is an earlier round than ``street`` (-1: none),
    each holding's draw in ``interval[h]``."""
    for h in range(len(hs1)):
        one = _clean(hs1[h])
        hsn = one if opponents == 1 else one**opponents
        out[h, 0], out[h, 1], out[h, 2], bounds[h, 0], bounds[h, 1], ehs_out[h] = _decided(
            hsn, _clean(ppot[h]), street, to_call, pot, bet_size, num_bets, can_raise,
            invested, opponents, later_bets, 0 <= semi[h] < street, make1, make2, switches,
            width, triples, interval[h, 0], interval[h, 1],
        )  # fmt: skip


@kernel
def triple_weights(
    weights: Array,
    hs1: Array,
    ppot: Array,
    action: int,
    street: int,
    to_call: int,
    pot: int,
    bet_size: int,
    num_bets: int,
    can_raise: bool,
    invested: bool,
    opponents: int,
    later_bets: int,
    make1: float,
    make2: float,
    switches: Bools,
    width: float,
    low: float,
) -> None:
    """Loki-2's re-weighting of one opponent's table in place after ``action``: each holding
    rated HS1 ** opponents and PPOTc (NaN read as 0), its weight times its triple's entry of
    the action, floored at ``low``."""
    for h in range(_HOLDINGS):
        one = _clean(hs1[h])
        hsn = one
        for _ in range(opponents - 1):
            hsn = hsn * one
        potential = _clean(ppot[h])
        ehs = hsn + (1.0 - hsn) * potential
        entries = triple(
            hsn, potential, ehs, street, to_call, pot, bet_size, num_bets, can_raise, invested,
            opponents, later_bets, False, make1, make2, switches[0], switches[1], switches[2],
            width,
        )  # fmt: skip
        weight = weights[h] * entries[action]
        weights[h] = weight if weight > low else low


@kernel
def triple_events(
    events: Ints,
    tables: Ints,
    slots: Ints,
    actions: Ints,
    streets: Ints,
    to_call: Ints,
    pot: Ints,
    num_bets: Ints,
    invested: Bools,
    active: Ints,
    make1: Array,
    make2: Array,
    bet_sizes: Ints,
    max_bets: Ints,
    later_bets: Ints,
    weights: Array,
    hs1: Array,
    ppot: Array,
    switches: Bools,
    width: Array,
    low: Array,
) -> None:
    """``triple_weights`` of each event in order, on its table's board values (``make1``,
    ``make2`` per event: Loki's thresholds, shifted under specific modelling)."""
    for q in range(len(events)):
        e = events[q]
        t, street = tables[e], streets[e]
        triple_weights(
            weights[t, slots[e]], hs1[t], ppot[t], actions[e], street, to_call[e], pot[e],
            bet_sizes[street], num_bets[e], num_bets[e] < max_bets[street], invested[e],
            max(1, active[e] - 1), later_bets[street], make1[e], make2[e], switches[t],
            width[t], low[t],
        )  # fmt: skip


def decide_spot(
    hsn: float,
    ppot: float,
    spot: Spot,
    thresholds: BettingThresholds,
    width: float,
    interval: tuple[float, float] | None,
) -> tuple[Probabilities, tuple[float, float], float]:
    """``decide`` for one hand in ``spot``: the probabilities (conditioned on the draw's
    ``interval``, or the triple itself without one), the regions' bounds and EHS' (the
    compiled row, called with the spot's numbers)."""
    lo, hi = interval if interval is not None else (0.0, 1.0)
    switches = np.array([thresholds.semi_bluff, thresholds.pot_odds, thresholds.showdown_odds])
    fold, call, bet, c0, c1, ehs = _decided(
        hsn, ppot, int(spot.street), spot.to_call, spot.pot, spot.bet_size, spot.num_bets,
        spot.can_raise, spot.invested, spot.opponents, spot.later_bets, spot.semi_bluffing,
        thresholds.make1, thresholds.make2, switches, width, interval is not None, lo, hi,
    )  # fmt: skip
    return (fold, call, bet), (c0, c1), ehs


@kernel
def absorb_own(
    events: Ints,
    tables: Ints,
    index: Ints,
    actions: Ints,
    streets: Ints,
    last_index: Ints,
    bounds: Array,
    last_semi: Bools,
    triples: Bools,
    interval: Array,
    semi_street: Ints,
) -> None:
    """The agent's own actions (``events``, in log order), each played at its table's last
    decision: Loki-2's draw narrows to the action's region (``interval (T, 2)``, the decision's
    ``bounds (T, 2)``), and a bet the decision marked a semi-bluff starts one."""
    for q in range(len(events)):
        e = events[q]
        t = tables[e]
        if last_index[t] != index[e]:
            continue
        if triples[t]:
            lo, hi = narrow(interval[t, 0], interval[t, 1], bounds[t, 0], bounds[t, 1], actions[e])
            interval[t, 0], interval[t, 1] = lo, hi
        if actions[e] == _RAISE and last_semi[t]:
            semi_street[t] = streets[e]
        last_index[t] = -1
