"""The compiled loop of PPOTc of every holding on many boards (``StreetTables.ppotc``).

Row by row, the same numbers as ``agents.strength.ppot_c(board)``: the out counts of
``agents.strength.ppotc.out_features``, weighted by ``FLOP_WEIGHTS`` or ``TURN_WEIGHTS`` and
clipped to [0, 1] (Papp 1998 section 7.2.3). The non-board cards of a row are its *slots*,
ascending; slot pair ``{i < j}`` is at ``C(j, 2) + i`` (colex). The inputs come from
``agents.strength.street_kernels.street_rows``: the ranks of the slot pairs with the board,
and the slot triples ``{i < j < k}`` whose hand with the board is a straight or better (a
triple is the hand of holding ``{i, j}`` after next card ``k``, and of its other two splits).

A next card is an out only where it raises the holding's category (its final rank reaches
``NEXT_FLOOR`` of the category now). Then

* to a straight or better: only those triples can do it; each of their three splits that
  raises its holding's category is sorted by kind (flush, by the board's cards of the suit
  after it; straight, shared with the board or not; full house or quads);
* to a pair (from high card) or to two pair or trips (from one pair), with an own pair, that
  is a card of a hole card's rank absent from the board: from high card or one pair every
  such card raises the category, so these outs are counted without ranks -- three cards of
  each such hole rank remain (two of a pocket pair's) -- less those among them that make a
  straight or better, which the first kind counted instead.

A holding's four-suited flush outs come by ascending next card (colex order), the order of
the reference's float sum.
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

_HIGH_CARD, _PAIR, _STRAIGHT, _FLUSH, _SF = 0, 1, 4, 5, 8
# The 8-bit fields of the packed out counts: field c counts column c of out_features (column
# 4, the four-suited flush, is a float sum of its own). Fields may dip below zero on the way
# (a correction before its count); the packed sum is exact, so the fields end right.
_TOP_PAIR, _LOW_PAIR, _IMPROVE, _FLUSH_OUT = 1, 1 << 8, 1 << 16, 1 << 24
_STRAIGHT_OUT, _SHARED_OUT, _FULL_OUT = 1 << 40, 1 << 48, 1 << 56


@kernel
def _made_outs(
    rare: npt.NDArray[np.int32],
    count: int,
    slots: npt.NDArray[np.int64],
    board_ranks: int,
    high: int,
    threshold: npt.NDArray[np.int16],
    category_now: npt.NDArray[np.int8],
    draw: npt.NDArray[np.bool_],
    board_after: npt.NDArray[np.int8],
    categories: npt.NDArray[np.int8],
    outs: npt.NDArray[np.int64],
    four_flush: npt.NDArray[np.float64],
) -> None:
    """Count the splits of the triples ranked a straight or better (``rare[:count]``, packed
    ``i | j << 6 | k << 12 | rank << 18``, colex) that raise their holding's category, by
    kind, and take those that pair a hole card back from the pairing outs; ``draw`` (the
    board and the card hold four ranks of a straight) and ``board_after`` (the board's cards
    of the card's suit, with it) per slot."""
    for e in range(count):
        packed = rare[e]
        i, j, k, rank = packed & 63, (packed >> 6) & 63, (packed >> 12) & 63, packed >> 18
        code = categories[rank]
        for split in range(3):
            low, high_slot, slot = (
                (i, j, k) if split == 0 else ((i, k, j) if split == 1 else (j, k, i))
            )
            pair = high_slot * (high_slot - 1) // 2 + low
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
                    if slots[high_slot] & 3 == suit:
                        hole_top = slots[high_slot] >> 2
                    four_flush[pair] += 0.5 + hole_top / 24.0
                else:
                    outs[pair] += _SHARED_OUT
            elif code == _STRAIGHT:
                outs[pair] += _SHARED_OUT if draw[slot] else _STRAIGHT_OUT
            else:
                outs[pair] += _FULL_OUT
            card_rank = slots[slot] >> 2
            pairs_hole = card_rank in (slots[low] >> 2, slots[high_slot] >> 2)
            if pairs_hole and not board_ranks >> card_rank & 1:
                if category_now[pair] == _HIGH_CARD:
                    outs[pair] -= _TOP_PAIR if card_rank >= high else _LOW_PAIR
                elif category_now[pair] == _PAIR:
                    outs[pair] -= _IMPROVE


@kernel
def ppotc_rows(
    boards: npt.NDArray[np.int64],
    board_len: npt.NDArray[np.int64],
    pair_ranks: npt.NDArray[np.int16],
    rare_triples: npt.NDArray[np.int32],
    rare_count: npt.NDArray[np.int64],
    pair_index: npt.NDArray[np.int64],
    categories: npt.NDArray[np.int8],
    next_floor: npt.NDArray[np.int16],
    flop_weights: npt.NDArray[np.float64],
    turn_weights: npt.NDArray[np.float64],
    ppotc_out: npt.NDArray[np.float64],
    out_rows: npt.NDArray[np.int64],
) -> None:
    """``ppotc_out[out_rows[row]]`` of every holding on ``boards[row, :board_len[row]]`` from
    the ranks of its slot pairs and its rare triples; 0 on the river, NaN where the holding
    meets the board."""
    slots = np.empty(52, dtype=np.int64)
    on_board = np.empty(52, dtype=np.bool_)
    draw = np.empty(52, dtype=np.bool_)
    board_after = np.empty(52, dtype=np.int8)
    draw_rank = np.empty(13, dtype=np.bool_)
    suit_count = np.empty(4, dtype=np.int64)
    threshold = np.empty(pair_ranks.shape[1], dtype=np.int16)
    category_now = np.empty(pair_ranks.shape[1], dtype=np.int8)
    outs = np.empty(pair_ranks.shape[1], dtype=np.int64)
    four_flush = np.empty(pair_ranks.shape[1], dtype=np.float64)
    share = np.zeros(256, dtype=np.float64)  # indexed by an 8-bit field
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
        m = 0
        for card in range(52):
            if not on_board[card]:
                slots[m] = card
                draw[m] = draw_rank[card >> 2]
                board_after[m] = suit_count[card & 3] + 1
                m += 1
        ppotc = ppotc_out[out_rows[row]]
        ppotc[:] = np.nan
        if n == 5:
            for j in range(1, m):
                for i in range(j):
                    ppotc[pair_index[slots[j], slots[i]]] = 0.0
            continue
        ranks = pair_ranks[row]
        pairs = m * (m - 1) // 2
        for p in range(pairs):
            category_now[p] = categories[ranks[p]]
            threshold[p] = next_floor[category_now[p]]
        outs[:pairs] = 0
        four_flush[:pairs] = 0.0
        _made_outs(
            rare_triples[row],
            rare_count[row],
            slots,
            board_ranks,
            high,
            threshold,
            category_now,
            draw,
            board_after,
            categories,
            outs,
            four_flush,
        )
        unseen = np.float64(m - 2)
        for c in range(m):
            share[c] = c / unseen  # a count's column of out_features
        weights = flop_weights if n == 3 else turn_weights
        for j in range(1, m):
            holdings = pair_index[slots[j]]
            rank_j = slots[j] >> 2
            for i in range(j):
                p = j * (j - 1) // 2 + i
                category = category_now[p]
                rank_i = slots[i] >> 2
                packed = outs[p]
                for side in range(0 if category > _PAIR else (1 if rank_i == rank_j else 2)):
                    # The pairing outs: the cards of a hole rank off the board, but the hole's.
                    rank = rank_j if side else rank_i
                    if not board_ranks >> rank & 1:
                        left = 4 - (rank == rank_i) - (rank == rank_j)
                        if category == _HIGH_CARD:
                            packed += left * (_TOP_PAIR if rank >= high else _LOW_PAIR)
                        else:
                            packed += left * _IMPROVE
                value = 0.0  # weight x column, in column order (zero columns add nothing)
                for kind in range(8):
                    if kind != 4:
                        value += share[(packed >> (8 * kind)) & 255] * weights[kind]
                    elif four_flush[p] != 0.0:
                        value += four_flush[p] / unseen * weights[kind]
                value += np.float64(category == _HIGH_CARD) * weights[8]
                value += np.float64(category == _PAIR) * weights[9]
                ppotc[holdings[slots[i]]] = min(max(value, 0.0), 1.0)
