"""The compiled loop of PPOTc of every holding on many boards (``StreetTables.ppotc``).

Row by row, the same numbers as ``agents.strength.ppot_c(board)``: the out counts of
``agents.strength.ppotc.out_features``, weighted by ``FLOP_WEIGHTS`` or ``TURN_WEIGHTS`` and
clipped to [0, 1] (Papp 1998 section 7.2.3). The input is the ranks of the slot pairs and
triples (the non-board cards, ascending, colex: ``{i < j}`` at ``C(j, 2) + i``, ``{i < j < k}``
at ``C(k, 3) + C(j, 2) + i``) that ``agents.strength.street_kernels.street_rows`` computes: the
triple ``{x, y, z}`` is the hand of holding ``{x, y}`` after next card ``z``.

A next card is an out of some kind only where it raises the holding's category (its final
rank reaches ``NEXT_FLOOR`` of the category now), and then

* to a straight or better (``_draw_outs``): only triples ranked that high matter, found by
  the maximum of each run of triples, then sorted by kind (flush, by the board's cards of the
  suit; straight, shared or not; full house or quads);
* to one pair, two pair or trips (``_pairing_outs``): only with an own pair, a next card of a
  hole card's rank absent from the board, whose four cards are then consecutive slots.

A holding's four-suited flush outs come by ascending next card (colex order), as the
reference sums them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs import _evaluator_tables as _t

__all__ = ["CATEGORY_BY_RANK", "NEXT_FLOOR", "ppotc_rows"]

_NEVER = _t.NUM_RANKS + 1
CATEGORY_BY_RANK = np.repeat(np.arange(-1, 9, dtype=np.int8), (1, *_t.CLASS_COUNTS))
"""Hand category (``envs.evaluator.HandCategory``) of each rank 0..7462 (-1 at rank 0)."""
NEXT_FLOOR = np.array([*_t.CATEGORY_FLOORS[1:], _NEVER], dtype=np.int16)
"""Lowest rank of the category above each category: a rank at or above it improves."""
for _array in (CATEGORY_BY_RANK, NEXT_FLOOR):
    _array.flags.writeable = False

_PAIR, _TWO_PAIR, _STRAIGHT, _FLUSH, _SF = 1, 2, 4, 5, 8
_TWO_PAIR_FLOOR = _t.CATEGORY_FLOORS[_TWO_PAIR]
_STRAIGHT_FLOOR = _t.CATEGORY_FLOORS[_STRAIGHT]
# The 8-bit fields of the packed out counts: field c counts column c of out_features (column
# 4, the four-suited flush, is a float sum of its own).
_TOP_PAIR, _LOW_PAIR, _IMPROVE, _FLUSH_OUT = 1, 1 << 8, 1 << 16, 1 << 24
_STRAIGHT_OUT, _SHARED_OUT, _FULL_OUT = 1 << 40, 1 << 48, 1 << 56


@kernel
def _draw_outs(
    triples: npt.NDArray[np.int16],
    slots: npt.NDArray[np.int64],
    count: int,
    threshold: npt.NDArray[np.int16],
    draw: npt.NDArray[np.bool_],
    board_after: npt.NDArray[np.int8],
    categories: npt.NDArray[np.int8],
    outs: npt.NDArray[np.int64],
    four_flush: npt.NDArray[np.float64],
) -> None:
    """Count the splits of the triples ranked a straight or better that raise the category of
    their holding, by kind; ``draw`` (the board and the card hold four ranks of a straight)
    and ``board_after`` (the board's cards of the card's suit, with it) per slot."""
    for k in range(2, count):
        for j in range(1, k):
            row = k * (k - 1) * (k - 2) // 6 + j * (j - 1) // 2
            most = np.int16(0)
            for i in range(j):
                most = max(most, triples[row + i])
            if most < _STRAIGHT_FLOOR:
                continue
            for i in range(j):
                rank = triples[row + i]
                if rank < _STRAIGHT_FLOOR:
                    continue
                code = categories[rank]
                for split in range(3):
                    low, high, slot = (
                        (i, j, k) if split == 0 else ((i, k, j) if split == 1 else (j, k, i))
                    )
                    pair = high * (high - 1) // 2 + low
                    if rank < threshold[pair]:
                        continue
                    if code in (_FLUSH, _SF):
                        suited = board_after[slot]
                        if suited <= 3:
                            outs[pair] += _FLUSH_OUT
                        elif suited == 4:
                            # Papp: 0.5 (deuce) .. 1 (ace) out by the highest suited hole card.
                            suit = slots[slot] & 3
                            hole_top = -1
                            if slots[low] & 3 == suit:
                                hole_top = slots[low] >> 2
                            if slots[high] & 3 == suit:
                                hole_top = slots[high] >> 2
                            four_flush[pair] += 0.5 + hole_top / 24.0
                        else:
                            outs[pair] += _SHARED_OUT
                    elif code == _STRAIGHT:
                        outs[pair] += _SHARED_OUT if draw[slot] else _STRAIGHT_OUT
                    else:
                        outs[pair] += _FULL_OUT


@kernel
def _pairing_outs(
    triples: npt.NDArray[np.int16],
    count: int,
    rank_slot: npt.NDArray[np.int64],
    threshold: npt.NDArray[np.int16],
    category_now: npt.NDArray[np.int8],
    top: npt.NDArray[np.bool_],
    outs: npt.NDArray[np.int64],
) -> None:
    """Count a next card ``z`` pairing hole card ``x`` of holding ``{x, y}`` (the four cards
    of a rank off the board are the slots ``rank_slot[r] ..+ 3``; -1 for board ranks) where
    it raises the category below a straight: to a pair (top or low, ``top`` per slot), or to
    two pair or trips from one pair. A pocket pair ``{x, y}`` counts from its lower card."""
    for r in range(13):
        base = rank_slot[r]
        if base < 0:
            continue
        for x in range(base, base + 4):
            pair_x = x * (x - 1) // 2
            for z in range(base, base + 4):
                if z == x:
                    continue
                low, high = min(x, z), max(x, z)
                pair_out = _TOP_PAIR if top[z] else _LOW_PAIR
                block = high * (high - 1) * (high - 2) // 6 + low * (low - 1) // 2
                for y in range(base):  # {y, low, high}: contiguous
                    final = triples[block + y]
                    p = pair_x + y
                    rises = (final >= threshold[p]) & (final < _STRAIGHT_FLOOR)
                    improve = _IMPROVE if category_now[p] == _PAIR else 0
                    outs[p] += (pair_out if final < _TWO_PAIR_FLOOR else improve) * rises
                column = high * (high - 1) // 2 + low
                for y in range(base + 4, count):  # {low, high, y}
                    final = triples[y * (y - 1) * (y - 2) // 6 + column]
                    p = y * (y - 1) // 2 + x
                    rises = (final >= threshold[p]) & (final < _STRAIGHT_FLOOR)
                    improve = _IMPROVE if category_now[p] == _PAIR else 0
                    outs[p] += (pair_out if final < _TWO_PAIR_FLOOR else improve) * rises
                for y in range(x + 1, base + 4):  # pocket pair {x, y}: three of the rank
                    if y == z:
                        continue
                    a, c = min(y, low), max(y, high)
                    b = y + low + high - a - c
                    final = triples[c * (c - 1) * (c - 2) // 6 + b * (b - 1) // 2 + a]
                    p = y * (y - 1) // 2 + x
                    if threshold[p] <= final < _STRAIGHT_FLOOR and category_now[p] == _PAIR:
                        outs[p] += _IMPROVE


@kernel
def ppotc_rows(
    boards: npt.NDArray[np.int64],
    board_len: npt.NDArray[np.int64],
    pair_ranks: npt.NDArray[np.int16],
    triple_ranks: npt.NDArray[np.int16],
    pair_index: npt.NDArray[np.int64],
    categories: npt.NDArray[np.int8],
    next_floor: npt.NDArray[np.int16],
    flop_weights: npt.NDArray[np.float64],
    turn_weights: npt.NDArray[np.float64],
    ppotc_out: npt.NDArray[np.float64],
) -> None:
    """``ppotc_out[row]`` of every holding on ``boards[row, :board_len[row]]`` from the
    ranks of its slot pairs and triples; 0 on the river, NaN where the holding meets the
    board."""
    slots = np.empty(52, dtype=np.int64)
    on_board = np.empty(52, dtype=np.bool_)
    top = np.empty(52, dtype=np.bool_)
    draw = np.empty(52, dtype=np.bool_)
    board_after = np.empty(52, dtype=np.int8)
    rank_slot = np.empty(13, dtype=np.int64)
    draw_rank = np.empty(13, dtype=np.bool_)
    suit_count = np.empty(4, dtype=np.int64)
    pairs_most = pair_ranks.shape[1]
    threshold = np.empty(pairs_most, dtype=np.int16)
    category_now = np.empty(pairs_most, dtype=np.int8)
    outs = np.empty(pairs_most, dtype=np.int64)
    four_flush = np.empty(pairs_most, dtype=np.float64)
    share = np.empty(64, dtype=np.float64)
    for row in range(boards.shape[0]):
        n = board_len[row]
        on_board[:] = False
        suit_count[:] = 0
        board_ranks = 0
        high = 0
        for b in range(n):
            card = boards[row, b]
            on_board[card] = True
            suit_count[card & 3] += 1
            board_ranks |= 1 << (card >> 2)
            high = max(high, card >> 2)
        for rank in range(13):
            # Do the board and a card of this rank hold four ranks of a five-rank straight?
            # Bit r + 1 of ``present`` is rank r, bit 0 the ace playing low.
            present = (board_ranks | 1 << rank) << 1
            present |= present >> 13 & 1
            most = 0
            for start in range(10):
                inside = 0
                for r in range(start, start + 5):
                    inside += present >> r & 1
                most = max(most, inside)
            draw_rank[rank] = most >= 4
        rank_slot[:] = -1
        m = 0
        for card in range(52):
            if on_board[card]:
                continue
            rank = card >> 2
            slots[m] = card
            top[m] = rank >= high
            draw[m] = draw_rank[rank]
            board_after[m] = suit_count[card & 3] + 1
            if not board_ranks >> rank & 1 and rank_slot[rank] < 0:
                rank_slot[rank] = m
            m += 1
        pairs = m * (m - 1) // 2
        ranks = pair_ranks[row]
        for p in range(pairs):
            category_now[p] = categories[ranks[p]]
            threshold[p] = next_floor[category_now[p]]
        outs[:pairs] = 0
        four_flush[:pairs] = 0.0
        if n < 5:
            triples = triple_ranks[row]
            _draw_outs(
                triples, slots, m, threshold, draw, board_after, categories, outs, four_flush
            )
            _pairing_outs(triples, m, rank_slot, threshold, category_now, top, outs)
        unseen = np.float64(m - 2)
        for c in range(m):
            share[c] = c / unseen  # a count's column of out_features
        weights = flop_weights if n == 3 else turn_weights
        ppotc_out[row, :] = np.nan
        for j in range(1, m):
            for i in range(j):
                p = j * (j - 1) // 2 + i
                value = 0.0
                if n < 5:  # weight x column, in column order (zero columns add nothing)
                    for kind in range(8):
                        if kind != 4:
                            value += share[(outs[p] >> (8 * kind)) & 255] * weights[kind]
                        elif four_flush[p] != 0.0:
                            value += four_flush[p] / unseen * weights[kind]
                    value += np.float64(category_now[p] == 0) * weights[8]
                    value += np.float64(category_now[p] == _PAIR) * weights[9]
                ppotc_out[row, pair_index[slots[i], slots[j]]] = min(max(value, 0.0), 1.0)
