"""Hand strength against the range a generic opponent model leaves after this hand's betting.

HS1 (``agents.strength.batched``) counts every opponent holding alike. After the opponents
have bet, raised, called or checked, some holdings are likelier than others; Loki weighs them
with per-opponent weight tables re-weighted after each action (Billings, Papp, Schaeffer and
Szafron 1998, section 4). ``ranged_strengths`` applies one generic rule of that kind to every
row at once, from the public betting alone: each live holding starts at weight 1 and, for each
of the opponents' actions on a street, is multiplied by

| action | factor (``q``: the holding's strength percentile on that street) |
|---|---|
| bet or raise | ``0.05 + q ** 2`` (strong hands bet, a few bluffs remain) |
| call | ``0.25 + q`` |
| check | ``1.5 - q`` (strong hands may slow-play) |

Pre-flop ``q`` is the holding's percentile in pre-flop equity against a random holding (a
table computed once); after the flop, its percentile among the live holdings by showdown rank
on the board of that street. The opponents' actions are pooled (one range for all of them).
The rule is ours and is the same against every opponent: it says which way actions move a
range, not how far a given agent moves it. Each row gives the weighted strength of the row's
hand against that range (pre-flop: the share of the range's weight with lower pre-flop
equity, ties half) and the range's weight over its live holdings' count (how narrow it is).
The holdings' ranks on each street's board come from a memo by board
(``agents.strength.board_memo``): a hand's later decisions ask for its earlier boards again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from agents.jit import kernel, readonly, uncached_kernel
from agents.strength.batched import _mark_known, _rank
from agents.strength.board_memo import BoardRanks, board_slot, shared_board_ranks
from agents.strength.holdings import HOLDINGS
from agents.strength.street_constants import kernel_constants
from envs.rules import Action

__all__ = [
    "CALLS",
    "CHECKS",
    "OPPONENT_RAISES",
    "OWN_RAISES",
    "RANGE_FEATURES",
    "action_counts",
    "percentiles",
    "ranged_and_hand_strengths",
    "ranged_strengths",
]

RANGE_FEATURES = 2
"""Columns of ``ranged_strengths``: strength against the range, the range's relative weight."""

_BOARD_WIDTH = (0, 3, 4, 5)
_RAISE = int(Action.RAISE)
_CALL = int(Action.CALL)


OWN_RAISES, OPPONENT_RAISES, CALLS, CHECKS = range(4)
"""Columns of ``action_counts`` per street: the player's bets and raises, the opponents'
bets and raises, their calls, their checks."""


def action_counts(history: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """``(rows, 4, 4)``: per row and street, the public actions by kind (``OWN_RAISES`` ..
    ``CHECKS``), from ``history`` ``(rows, H, >=3)`` (street, seat, ``Action``) in order with
    the player as seat 0 and -1 past the last. After the flop a call with nothing to call is a
    check; before it the blinds are a bet, so every call calls. The player's calls and
    everyone's folds are not counted."""
    log = np.asarray(history, dtype=np.int64)
    if log.ndim != 3 or log.shape[2] < 3:
        raise ValueError(f"need history (rows, H, >=3): {log.shape}")
    counts = np.zeros((len(log), 4, 4), dtype=np.int64)
    _count_rows(readonly(log, np.int64), counts)  # reads columns 0..2 only
    return counts


@kernel
def _count_rows(history: np.ndarray, counts: np.ndarray) -> None:
    raised = np.zeros(4, dtype=np.int64)  # anyone's, for telling checks from calls
    for row in range(history.shape[0]):
        raised[:] = 0
        for entry in range(history.shape[1]):
            s, seat, action = (
                history[row, entry, 0],
                history[row, entry, 1],
                history[row, entry, 2],
            )
            if s < 0:
                continue
            if action == _RAISE:
                raised[s] += 1
                counts[row, s, OWN_RAISES if seat == 0 else OPPONENT_RAISES] += 1
            elif action == _CALL and seat != 0:
                counts[row, s, CHECKS if (s > 0 and raised[s] == 0) else CALLS] += 1


@uncached_kernel
def _power(base: float, times: int) -> float:
    # Repeated products: a street has a few actions, and pow() per holding cost more than the
    # ranks.
    result = base
    for _ in range(times - 1):
        result *= base
    return result


@uncached_kernel
def _factor(q: float, raises: int, calls: int, checks: int) -> float:
    # The factors of the module's table, written out.
    factor = 1.0
    if raises:
        factor *= _power(0.05 + q * q, raises)
    if calls:
        factor *= _power(0.25 + q, calls)
    if checks:
        factor *= _power(1.5 - q, checks)
    return factor


_KEPT = 24
"""Pre-flop action counts whose holdings' factors a call keeps (a call's rows share few)."""
_KEPT_KEYS = 8 * 8 * 8
"""Keys of counts below 8 each: opponents' raises, calls and checks."""


@uncached_kernel
def _preflop_factors(
    preflop_pct: np.ndarray,
    raises: int,
    calls: int,
    checks: int,
    seen: np.ndarray,
    kept: np.ndarray,
) -> np.ndarray:
    # Every holding's pre-flop factor for these counts, once per call and counts: it depends
    # on the holding and the counts alone, and a batch's rows share few counts. ``seen`` maps
    # a key to its row of ``kept``, its last entry counts the rows taken.
    key = (raises * 8 + calls) * 8 + checks
    keyed = max(raises, calls, checks) < 8
    if keyed and seen[key] >= 0:
        found: np.ndarray = kept[seen[key]]
        return found
    taken = seen[-1]
    factors: np.ndarray = (
        kept[taken] if keyed and taken < kept.shape[0] else np.empty(kept.shape[1])
    )
    for h in range(preflop_pct.shape[0]):
        factors[h] = _factor(preflop_pct[h], raises, calls, checks)
    if keyed and taken < kept.shape[0]:
        seen[key] = taken
        seen[-1] = taken + 1
    return factors


@uncached_kernel
def _ranged_rows(
    known: np.ndarray,
    street: np.ndarray,
    counts: np.ndarray,
    preflop_pct: np.ndarray,
    pair_index: np.ndarray,
    memo: tuple[Any, ...],
    constants: tuple[Any, ...],
    out: np.ndarray,
) -> None:
    # Per street, a histogram of the live holdings' places on the board (from the memo) to
    # weigh them and, on the row's street, the sums: each weight and each sum takes the same
    # float operations in the same order as ranking the holdings at every call would.
    card_keys, flush_keys, holdings, _, _, offs, look, flush = constants
    _, _, _, board_ranks, board_dense, board_sizes, _, _ = memo
    count = holdings.shape[0]
    dead = np.zeros(53, dtype=np.bool_)
    alive = np.zeros(count, dtype=np.bool_)
    weight = np.zeros(count)
    below = np.zeros(count + 1, dtype=np.int64)
    factors = np.zeros(count)
    seen = np.full(_KEPT_KEYS + 1, -1, dtype=np.int64)
    seen[-1] = 0
    kept = np.empty((min(_KEPT, known.shape[0]), count))  # a row has one set of counts
    for row in range(known.shape[0]):
        now = street[row]
        if not 0 <= now <= 3:
            raise ValueError("each row's street must be 0..3 with its board cards dealt")
        for j in range(2 + _BOARD_WIDTH[now]):
            if not 0 <= known[row, j] < 52:
                raise ValueError(
                    "each row's street must be 0..3 with its board cards dealt, and every "
                    "card id 0..51"
                )
        dead[:] = False
        sums, masks, _ = _mark_known(
            known[row, : 2 + _BOARD_WIDTH[now]], dead, card_keys, flush_keys
        )
        raises, calls, checks = (
            counts[row, 0, OPPONENT_RAISES],
            counts[row, 0, CALLS],
            counts[row, 0, CHECKS],
        )
        acted = raises + calls + checks > 0
        live = 0
        total = 0.0
        ahead = 0.0
        mine_pct = preflop_pct[pair_index[known[row, 0], known[row, 1]]]
        prior = _preflop_factors(preflop_pct, raises, calls, checks, seen, kept)
        for h in range(count):
            alive[h] = not (dead[holdings[h, 0]] or dead[holdings[h, 1]])
            if not alive[h]:
                weight[h] = 0.0
                continue
            live += 1
            w = 1.0
            if acted:
                w = prior[h]  # 1.0 times the factor: the same float
            weight[h] = w
            if now == 0:
                total += w
                theirs = preflop_pct[h]
                # A product, not a branch: the comparison is unpredictable, and adding w * 0
                # leaves the sum as it is.
                ahead += w * ((mine_pct > theirs) + 0.5 * (mine_pct == theirs))
        scale = max(live - 1, 1)
        beaten = 0
        level = 0
        for s in range(1, now + 1):
            raises, calls, checks = (
                counts[row, s, OPPONENT_RAISES],
                counts[row, s, CALLS],
                counts[row, s, CHECKS],
            )
            acted = raises + calls + checks > 0
            if not (acted or s == now):
                continue
            slot = board_slot(known[row, 2 : 2 + _BOARD_WIDTH[s]], memo, constants)
            ranks = board_ranks[slot]
            if acted:
                dense = board_dense[slot]
                distinct = board_sizes[slot]
                below[: distinct + 1] = 0
                for h in range(count):
                    if alive[h]:
                        below[dense[h] + 1] += 1
                for d in range(distinct):
                    below[d + 1] += below[d]  # now: live holdings placed below d
                for d in range(distinct):
                    tied = below[d + 1] - below[d]
                    if tied:
                        factors[d] = _factor(
                            (below[d] + 0.5 * (tied - 1)) / scale, raises, calls, checks
                        )
            if s != now:
                for h in range(count):
                    if alive[h]:
                        weight[h] *= factors[dense[h]]
                continue
            # The row's street: its factors and the sums in one pass (each weight is the
            # same product as when it was stored first and read back).
            mine = _rank(sums, masks, offs, look, flush)
            for h in range(count):
                if alive[h]:
                    w = weight[h] * factors[dense[h]] if acted else weight[h]
                    total += w
                    ahead += w * ((mine > ranks[h]) + 0.5 * (mine == ranks[h]))
                    beaten += mine > ranks[h]
                    level += mine == ranks[h]
        out[row, 0] = ahead / total
        out[row, 1] = total / live
        # HS1 as ``agents.strength.batched.hand_strengths`` computes it, from the same ranks.
        out[row, 2] = (beaten + 0.5 * level) / live if now else 0.0


def percentiles(values: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
    """Each value's share of the others below it (ties count half), in [0, 1]."""
    array = np.asarray(values, dtype=np.float64)
    _, inverse, counts = np.unique(array, return_inverse=True, return_counts=True)
    below = np.concatenate([[0], np.cumsum(counts)[:-1]])
    result: npt.NDArray[np.float64] = (below[inverse] + 0.5 * (counts[inverse] - 1)) / max(
        len(array) - 1, 1
    )
    return result


def _checked_counts(counts: npt.NDArray[np.int64], rows: int) -> npt.NDArray[np.int64]:
    if np.shape(counts) != (rows, 4, 4):
        raise ValueError(f"counts must have shape ({rows}, 4, 4), got {np.shape(counts)}")
    return readonly(counts, np.int64)


def ranged_strengths(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    street: npt.NDArray[np.integer],
    history: npt.NDArray[np.integer],
    preflop_pct: npt.NDArray[np.floating],
    *,
    counts: npt.NDArray[np.int64] | None = None,
    boards: BoardRanks | None = None,
) -> npt.NDArray[np.float64]:
    """``(rows, RANGE_FEATURES)``: each row's strength against the generic range and its
    weight; the arguments and errors of ``ranged_and_hand_strengths``."""
    ranged, _ = ranged_and_hand_strengths(
        hole, board, street, history, preflop_pct, counts=counts, boards=boards
    )
    return ranged


def ranged_and_hand_strengths(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    street: npt.NDArray[np.integer],
    history: npt.NDArray[np.integer],
    preflop_pct: npt.NDArray[np.floating],
    *,
    counts: npt.NDArray[np.int64] | None = None,
    boards: BoardRanks | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``(rows, RANGE_FEATURES)``: each row's strength against the generic range and its weight;
    and ``(rows,)``: each row's HS1 on its street's board, 0.0 pre-flop (what
    ``agents.strength.batched.hand_strengths`` gives with ``board_len``, to the bit: the
    kernel ranks the board's holdings anyway).

    Args:
        hole: ``(rows, 2)`` the player's cards, 0..51.
        board: ``(rows, 5)`` board cards, 52 (``envs.observation.NO_CARD``) for cards to come.
        street: ``(rows,)`` 0 pre-flop to 3 river (the board must hold that street's cards).
        history: ``(rows, H, >=3)`` the public actions (street, seat, ``Action``) in order, the
            player as seat 0 and -1 past the last (``envs.observation`` with ``seat_relative``).
        preflop_pct: ``(1326,)`` every holding's pre-flop strength percentile, in ``HOLDINGS``
            order (``percentiles`` of an equity table).
        counts: ``action_counts(history)`` when the caller has it already.
        boards: The memo of boards' holding ranks to use (default: the process's, see
            ``shared_board_ranks``).

    Raises:
        ValueError: on mismatched shapes, a street outside 0..3, or a card id outside 0..51
            in the hole or in the street's board (the board cards after it are not read).
    """
    hole_array = np.asarray(hole, dtype=np.int64)
    board_array = np.asarray(board, dtype=np.int64)
    streets = np.asarray(street, dtype=np.int64)
    log = np.asarray(history, dtype=np.int64)
    rows = len(hole_array)
    if hole_array.shape != (rows, 2) or board_array.shape != (rows, 5):
        raise ValueError(
            f"need hole (rows, 2) and board (rows, 5): {hole_array.shape}, {board_array.shape}"
        )
    if streets.shape != (rows,) or log.ndim != 3 or len(log) != rows or log.shape[2] < 3:
        raise ValueError(
            f"need street (rows,) and history (rows, H, >=3): {streets.shape}, {log.shape}"
        )
    if np.shape(preflop_pct) != (len(HOLDINGS),):
        raise ValueError(f"preflop_pct must have shape ({len(HOLDINGS)},)")
    # Cards after the row's street are not the player's to see: the kernel reads the
    # street's cards only (and checks that they are dealt).
    known = np.concatenate([hole_array, board_array], axis=1)
    memo = shared_board_ranks() if boards is None else boards
    out = np.empty((rows, RANGE_FEATURES + 1))
    _ranged_rows(
        readonly(known, np.int64),
        readonly(streets, np.int64),
        action_counts(log) if counts is None else _checked_counts(counts, rows),
        readonly(preflop_pct, np.float64),
        kernel_constants().pair_index,
        memo.arrays,
        memo.constants(),
        out,
    )
    return out[:, :RANGE_FEATURES], out[:, RANGE_FEATURES]
