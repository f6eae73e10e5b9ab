"""The compiled ranking of ``agents.strength.street.street_tables`` and the own hand's counts.

A row is an own hand and a board of ``n`` cards; its ``m = 52 - n`` non-board cards are the
*slots*, in ascending card order. Every 2-subset of the slots is ranked with the board (the
holdings now, C(m, 2)) and, with a card to come, every 3-subset (C(49, 3) = 18,424 on the flop,
17,296 on the turn): the 3-subset ``{x, y, z}`` is the final hand of holding ``{x, y}`` when
``z`` comes, and of ``{x, z}`` and ``{y, z}`` likewise, so each rank serves its three splits
and nothing is ranked twice. Subsets are stored in colex order: ``{i < j}`` at ``C(j, 2) + i``
and ``{i < j < k}`` at ``C(k, 3) + C(j, 2) + i``, so the 3-subsets of top card ``k`` list the
pairs below ``k`` in pair order. The ranks go to the caller, who derives the board's values
from them (``agents.strength.strength_all_kernels``, ``agents.strength.ppotc_kernels``).

Ranking: a hand of the board and two or three slots is a flush (read from the evaluator's
flush table) or else its rank depends on the added cards' ranks alone, so a row looks up the
91 (455) rank multisets in the evaluator's hash once and then reads a table of 13^2 (13^3)
entries per subset, which stays in the first-level cache: slots ascend, so their ranks do and
the multiset is its sorted ranks. A row of subsets that cannot reach a flush (no suit at four
cards yet) skips the flush test.

Own-hand counts (``after``): per holding disjoint from the own hand, the next cards after
which the own hand is ahead or tied (the rest behind). The 3-subsets of top card ``k`` give
the pairs below ``k`` their comparison for card ``k`` in one contiguous pass, and each row
``j`` of them gives the pairs ``{i, k}`` theirs for card ``j`` and pair ``{j, k}`` its sum over
``i``: every loop is contiguous and runs in SIMD lanes (``int16``; unsigned indices, so that
no negative-index fix-up stops the vectoriser).

``multiset_ranks``, ``rank_block``, ``set_board`` and ``rank_subsets`` are also the building
blocks of ``agents.strength.board_kernels`` and ``agents.strength.subset_kernels``. Kernels
are called once per row or per block of subsets, never per subset: a call passing arrays
costs several lookups' time.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs import _evaluator_tables as _t

__all__ = [
    "MOST_PAIRS",
    "MOST_TRIPLES",
    "multiset_ranks",
    "rank_block",
    "rank_subsets",
    "set_board",
    "street_rows",
]

_KEY_MASK = (1 << _t.KEY_BITS) - 1
_FLUSH_BITS = _t.FLUSH_NIBBLES << _t.FLUSH_SHIFT
_ROW_SHIFT = _t.ROW_SHIFT
_COL_MASK = _t.COL_MASK
_FLUSH_SHIFT = _t.FLUSH_SHIFT
_FLUSH_NIBBLES = _t.FLUSH_NIBBLES
_STRAIGHT_FLOOR = _t.CATEGORY_FLOORS[4]  # the lowest straight
_KEY_INIT = _t.KEY_INIT
_SUIT_SHIFT = _t.SUIT_SHIFT
_DEAD = -128
MOST_PAIRS = 49 * 48 // 2
"""Slot pairs of a flop row, C(49, 2)."""
MOST_TRIPLES = 49 * 48 * 47 // 6
"""Slot triples of a flop row, C(49, 3)."""


@kernel
def multiset_ranks(
    board_key: int,
    board_counts: npt.NDArray[np.int64],
    cards: int,
    rank_keys: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    table: npt.NDArray[np.int16],
) -> None:
    """``table[r1 + 13 r2 + 169 r3]``: the rank, were it no flush, of the board with ``cards``
    (2 or 3) more cards of ranks ``r1 <= r2 (<= r3)``. Multisets with a fifth card of a rank
    are left out (their keys fall outside the evaluator's hash)."""
    three = cards == 3
    for r3 in range(13 if three else 1):
        for r2 in range(r3 + 1 if three else 13):
            for r1 in range(r2 + 1):
                n1 = board_counts[r1] + 1 + (r2 == r1) + (three and r3 == r1)
                n2 = board_counts[r2] + 1 + (r1 == r2) + (three and r3 == r2)
                n3 = board_counts[r3] + 1 + (r1 == r3) + (r2 == r3) if three else 0
                if max(n1, n2, n3) > 4:
                    continue
                sums = board_key + rank_keys[r1] + rank_keys[r2]
                if three:
                    sums += rank_keys[r3]
                key = sums & _KEY_MASK
                table[r1 + 13 * r2 + 169 * r3] = look[(key & _COL_MASK) + offs[key >> _ROW_SHIFT]]


@kernel
def rank_block(
    base_key: int,
    base_mask: int,
    base_index: int,
    top: int,
    keys: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    card_rank: npt.NDArray[np.int64],
    table: npt.NDArray[np.int16],
    flush: npt.NDArray[np.uint16],
    out: npt.NDArray[np.int16],
    rare: npt.NDArray[np.int32],
    count: int,
) -> int:
    """``out[C(j, 2) + i]`` = rank of the base cards with slots ``i < j < top``: a flush from
    the flush table, else the multiset ``table`` at ``base_index + 13 rank_j + rank_i``.
    Ranks of a straight or better are listed as ``i | j << 6 | top << 12 | rank << 18`` in
    ``rare[count:]``; the new count."""
    t = 0
    for j in range(1, top):
        key_j = base_key + keys[j]
        mask_j = base_mask + masks[j]
        index_j = base_index + 13 * card_rank[j]
        row = t
        most = 0
        # A suit counter at 7 or more (four cards) is one card from a flush.
        if ((key_j >> _SUIT_SHIFT) + 0x1111) & 0x8888:
            for i in range(j):
                sums = key_j + keys[i]
                if sums & _FLUSH_BITS:
                    nibble = (sums >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
                    shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
                    rank = int(flush[((mask_j + masks[i]) >> shift) & 0x1FFF])
                else:
                    rank = int(table[index_j + card_rank[i]])
                out[t] = rank
                most = max(most, rank)
                t += 1
        else:  # unsigned indices: no negative-index fix-up, so the loop runs in SIMD lanes
            row_u, index_u = np.uint64(row), np.uint64(index_j)
            for i in range(np.uint64(j)):
                rank = int(table[index_u + np.uint64(card_rank[i])])
                out[row_u + i] = rank
                most = max(most, rank)
            t += j
        if most >= _STRAIGHT_FLOOR:
            for i in range(j):
                rank = int(out[row + i])
                if rank >= _STRAIGHT_FLOOR:
                    rare[count] = i | j << 6 | top << 12 | rank << 18
                    count += 1
    return count


@kernel
def set_board(
    board: npt.NDArray[np.int64],
    n: int,
    hole: npt.NDArray[np.int64],
    card_keys: npt.NDArray[np.int64],
    flush_keys: npt.NDArray[np.int64],
    on_board: npt.NDArray[np.bool_],
    board_counts: npt.NDArray[np.int64],
    slots: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    card_rank: npt.NDArray[np.int64],
    own: npt.NDArray[np.bool_],
) -> tuple[int, int, int, int, int]:
    """Mark the first ``n`` cards of ``board``; list the slots with their keys, flush masks,
    ranks and whether ``hole`` holds them. Returns the board's key and flush mask, ``m`` and
    the own cards' slots ``low < high`` (-1 when ``hole`` is not among the slots)."""
    on_board[:] = False
    board_counts[:] = 0
    board_key = _KEY_INIT
    board_mask = 0
    for b in range(n):
        card = board[b]
        on_board[card] = True
        board_counts[card >> 2] += 1
        board_key += card_keys[card]
        board_mask += flush_keys[card]
    m = 0
    low = high = -1
    for card in range(52):
        if on_board[card]:
            continue
        own[m] = card == hole[0] or card == hole[1]
        if own[m]:
            high = m
            low = m if low < 0 else low
        slots[m] = card
        keys[m] = card_keys[card]
        masks[m] = flush_keys[card]
        card_rank[m] = card >> 2
        m += 1
    return board_key, board_mask, m, low, high


@kernel
def rank_subsets(
    board_key: int,
    board_mask: int,
    board_counts: npt.NDArray[np.int64],
    n: int,
    m: int,
    keys: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    card_rank: npt.NDArray[np.int64],
    rank_keys: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    table: npt.NDArray[np.int16],
    pairs_out: npt.NDArray[np.int16],
    triples_out: npt.NDArray[np.int16],
    rare_out: npt.NDArray[np.int32],
) -> int:
    """Rank a board's (``set_board``'s) slot pairs into ``pairs_out`` and, with a card to
    come (``n < 5``), its slot triples into ``triples_out`` (both colex), the triples ranked a
    straight or better packed into ``rare_out``; returns their number (0 on the river: the
    pairs' straights written there are overwritten). ``table`` is scratch of 13^3 entries."""
    multiset_ranks(board_key, board_counts, 2, rank_keys, offs, look, table)
    rank_block(
        board_key, board_mask, 0, m, keys, masks, card_rank, table, flush, pairs_out, rare_out, 0
    )
    count = 0
    if n < 5:
        multiset_ranks(board_key, board_counts, 3, rank_keys, offs, look, table)
        for k in range(2, m):
            count = rank_block(
                board_key + keys[k],
                board_mask + masks[k],
                169 * card_rank[k],
                k,
                keys,
                masks,
                card_rank,
                table,
                flush,
                triples_out[k * (k - 1) * (k - 2) // 6 :],
                rare_out,
                count,
            )
    return count


@kernel
def _after_counts(
    triples: npt.NDArray[np.int16],
    slots: int,
    own: npt.NDArray[np.bool_],
    final: npt.NDArray[np.int16],
    ahead: npt.NDArray[np.int16],
    tied: npt.NDArray[np.int16],
) -> None:
    """Per slot pair, the next cards after which the own hand (``final`` rank per card, -1 at
    the own cards) is ahead of / tied with it; meaningless for pairs with an own card."""
    u = np.uint64
    ahead[: slots * (slots - 1) // 2] = 0
    tied[: slots * (slots - 1) // 2] = 0
    for k in range(2, slots):
        if own[k]:
            continue
        start = u(k * (k - 1) * (k - 2) // 6)
        base_k = u(k * (k - 1) // 2)
        final_k = final[k]
        for p in range(base_k):  # the pairs below k, card k
            rank = triples[start + p]
            ahead[p] += np.int16(rank < final_k)
            tied[p] += np.int16(rank == final_k)
        for j in range(1, k):
            if own[j]:
                continue
            row = start + u(j * (j - 1) // 2)
            final_j = final[j]
            sum_ahead = np.int16(0)
            sum_tied = np.int16(0)
            for i in range(u(j)):
                rank = triples[row + i]
                ahead[base_k + i] += np.int16(rank < final_j)  # pair {i, k}, card j
                tied[base_k + i] += np.int16(rank == final_j)
                sum_ahead += np.int16(rank < final[i])  # pair {j, k}, card i
                sum_tied += np.int16(rank == final[i])
            ahead[base_k + u(j)] += sum_ahead
            tied[base_k + u(j)] += sum_tied


@kernel
def street_rows(
    holes: npt.NDArray[np.int64],
    boards: npt.NDArray[np.int64],
    board_len: npt.NDArray[np.int64],
    card_keys: npt.NDArray[np.int64],
    flush_keys: npt.NDArray[np.int64],
    rank_keys: npt.NDArray[np.int64],
    pair_index: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    ranks_out: npt.NDArray[np.int16],
    rare_out: npt.NDArray[np.int32],
    rare_count: npt.NDArray[np.int64],
    versus_out: npt.NDArray[np.int8],
    after_out: npt.NDArray[np.uint8],
    out_rows: npt.NDArray[np.int64],
) -> None:
    """Per row: the ranks of the slot pairs (``ranks_out[row, :C(m, 2)]``, colex) and, on the
    flop and turn, the slot triples ranked a straight or better (``rare_out[row,
    :rare_count[row]]``, as ``rank_block`` packs them); ``versus_out`` and ``after_out`` as
    ``StreetTables`` has them, at row ``out_rows[row]`` of those two."""
    slots = np.empty(52, dtype=np.int64)
    keys = np.empty(52, dtype=np.int64)
    masks = np.empty(52, dtype=np.int64)
    card_rank = np.empty(52, dtype=np.int64)
    own = np.empty(52, dtype=np.bool_)
    final = np.empty(52, dtype=np.int16)  # the own hand's rank after each next card
    on_board = np.empty(52, dtype=np.bool_)
    board_counts = np.empty(13, dtype=np.int64)
    table = np.empty(13 * 13 * 13, dtype=np.int16)
    triples = np.empty(MOST_TRIPLES, dtype=np.int16)
    ahead = np.empty(MOST_PAIRS, dtype=np.int16)
    tied = np.empty(MOST_PAIRS, dtype=np.int16)
    for row in range(holes.shape[0]):
        n = board_len[row]
        board_key, board_mask, m, low, high = set_board(
            boards[row],
            n,
            holes[row],
            card_keys,
            flush_keys,
            on_board,
            board_counts,
            slots,
            keys,
            masks,
            card_rank,
            own,
        )
        ranks = ranks_out[row]
        rare_count[row] = rank_subsets(
            board_key, board_mask, board_counts, n, m, keys, masks, card_rank, rank_keys,
            offs, look, flush, table, ranks, triples, rare_out[row],
        )  # fmt: skip
        if n < 5:
            for s in range(m):
                if own[s]:
                    final[s] = -1
                    continue
                x, y, z = (
                    (s, low, high) if s < low else ((low, s, high) if s < high else (low, high, s))
                )
                final[s] = triples[z * (z - 1) * (z - 2) // 6 + y * (y - 1) // 2 + x]
            _after_counts(triples, m, own, final, ahead, tied)
        versus, after = versus_out[out_rows[row]], after_out[out_rows[row]].reshape(-1)
        versus[:] = _DEAD
        after[:] = 0
        mine = ranks[high * (high - 1) // 2 + low]
        cards = m - 4  # next cards disjoint from the board, the own hand and the holding
        for j in range(1, m):
            if own[j]:
                continue
            holdings = pair_index[slots[j]]
            for i in range(j):
                if own[i]:
                    continue
                p = j * (j - 1) // 2 + i
                h = holdings[slots[i]]
                versus[h] = (mine > ranks[p]) - (mine < ranks[p])
                if n < 5:
                    after[3 * h] = ahead[p]
                    after[3 * h + 1] = tied[p]
                    after[3 * h + 2] = cards - ahead[p] - tied[p]
