"""The batched Loki's pre-flop decisions (Papp 1998 section 6.1), row by row in one loop.

``preflop_decisions`` does at each row what ``agents.loki.preflop.select_strategy`` (at the
table's first pre-flop decision of the hand; the strategy is kept for the round) and
``preflop_action`` do for one view: the position and the expected number of players, the
group and its income-rate table, the most aggressive strategy whose threshold the hand's IR
reaches, and the strategy's action (certain), legal by construction.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel

__all__ = ["preflop_decisions"]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]
Bools = npt.NDArray[np.bool_]

_MAKE0, _CALL1, _MAKE1, _CALL2, _MAKE2, _MAKE4 = 0, 1, 2, 3, 4, 5
_FOLD, _CALL, _RAISE = 0, 1, 2


@kernel
def _select(
    me: int,
    button: int,
    folded: Bools,
    contributions: Ints,
    pair: int,
    income_rates: Array,
    base: Array,
    increment: Array,
    small_blind: Array,
    probability_play: float,
) -> int:
    """``select_strategy`` of one row (``pair`` the holding's index)."""
    n = len(folded)
    sb = button if n == 2 else (button + 1) % n
    position = 0
    for k in range(1, n):
        seat = (me + k) % n
        if seat == sb:
            break
        position += not folded[seat]
    inpot, guaranteed = 0, 0
    for s in range(n):
        if not folded[s]:
            inpot += 1
            if contributions[s] > 0 or s == me:
                guaranteed += 1
    rounded = np.floor(guaranteed + probability_play * (inpot - guaranteed) + 0.5)
    group = 0 if rounded <= 2 else (1 if rounded <= 4 else 2)
    ir = income_rates[group, pair]
    if ir >= base[group, 2] + increment[group, 2] * position:
        return _MAKE4
    if ir >= base[group, 1] + increment[group, 1] * position:
        return _MAKE2
    is_small_blind = me == sb
    if is_small_blind and ir >= small_blind[group, 1]:
        return _CALL2
    if ir >= base[group, 0] + increment[group, 0] * position:
        return _MAKE1
    if is_small_blind and ir >= small_blind[group, 0]:
        return _CALL1
    return _MAKE0


@kernel
def _action(
    strategy: int, to_call: int, bet_size: int, num_bets: int, can_raise: bool, invested: bool
) -> int:
    """``preflop_action`` of one row."""
    if strategy == _MAKE0:
        return _CALL if to_call == 0 else _FOLD
    if strategy in (_CALL1, _MAKE1):
        if strategy == _MAKE1 and num_bets == 0 and can_raise:
            return _RAISE
        if to_call > bet_size and not invested:
            return _FOLD
        return _CALL
    if strategy == _CALL2:
        return _CALL
    if strategy == _MAKE2:
        return _RAISE if num_bets < 2 and can_raise else _CALL
    return _RAISE if can_raise else _CALL


@kernel
def preflop_decisions(
    tables: Ints,
    me: Ints,
    button: Ints,
    hole: Ints,
    folded: Bools,
    contributions: Ints,
    to_call: Ints,
    num_bets: Ints,
    legal: Bools,
    invested: Bools,
    bet_size: int,
    pair_index: Ints,
    income_rates: Array,
    base: Array,
    increment: Array,
    small_blind: Array,
    probability_play: Array,
    strategy: Ints,
    out: Array,
) -> int:
    """Each row's certain action into ``out`` (``strategy`` per table: chosen at the first
    pre-flop decision of the hand, -1 before). Returns the first row whose action is not
    legal there (a defect of the rules), -1 when none."""
    for i in range(len(tables)):
        t = tables[i]
        if strategy[t] < 0:
            strategy[t] = _select(
                me[i], button[i], folded[i], contributions[i], pair_index[hole[i, 0], hole[i, 1]],
                income_rates, base[t], increment[t], small_blind[t], probability_play[t],
            )  # fmt: skip
        action = _action(
            strategy[t], to_call[i], bet_size, num_bets[i], legal[i, _RAISE], invested[i]
        )
        out[i, 0], out[i, 1], out[i, 2] = 0.0, 0.0, 0.0
        out[i, action] = 1.0
        if not legal[i, action]:
            return i
    return -1
