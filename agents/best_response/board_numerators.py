"""Compiled river showdown numerators of every holding on chosen turn-river boards of a flop.

The compiled form of ``agents.best_response.river_numerators``, board by board: the live
holdings of a board (those sharing no card with it) are ranked with the evaluator's tables,
sorted by rank with a two-pass radix sort (ranks fit in 13 bits), and swept once in rank order
keeping how many holdings lie below the current rank, in total and per card. A holding's wins
and ties against the uniform range of the opponent holdings disjoint from it then follow by
inclusion-exclusion over its two cards (Johanson, Waugh, Bowling and Zinkevich, "Accelerating
best response calculation in large extensive games", IJCAI 2011):

    wins(x, y) = #below - #below holding x - #below holding y
    ties(x, y) = #equal - #equal holding x - #equal holding y + 1

O(n) per board after the sort, instead of the vectorised route's two sorts of the whole
``(boards, cards, cards)`` rank matrix. The result is the numerator ``2 wins + ties``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.best_response.river_numerators import flop_layout
from agents.jit import kernel
from envs import _evaluator_tables as _t
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, lookup_tables

__all__ = ["board_numerators"]

IntArray = npt.NDArray[np.int64]

_KEY_MASK = (1 << _t.KEY_BITS) - 1
_FLUSH_BITS = _t.FLUSH_NIBBLES << _t.FLUSH_SHIFT
_ROW_SHIFT = _t.ROW_SHIFT
_COL_MASK = _t.COL_MASK
_FLUSH_SHIFT = _t.FLUSH_SHIFT
_FLUSH_NIBBLES = _t.FLUSH_NIBBLES
_RANK_KEY = CARD_KEYS[::4].view(np.int64) & _KEY_MASK
"""A card's key below the suit counters: the same for the four cards of a rank."""
_SUIT_SHIFT = _t.SUIT_SHIFT
_LOW_BITS = 7
"""Bits of the first radix pass; ranks (1..7462) need 13, so the second pass takes 6."""
_LOW_MASK = (1 << _LOW_BITS) - 1


@kernel
def _by_class(
    left: npt.NDArray[np.int64],
    by_ranks: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    numerator: npt.NDArray[np.int64],
) -> None:
    """``numerator[13 a + b]``: the numerator of every holding of card ranks ``a`` and ``b``
    on a board where no flush can be made, ``left[r]`` live cards of rank ``r`` and
    ``by_ranks`` the ranks of the hands. A holding's rank then depends on its card ranks only,
    and so does how many holdings below or level with it hold one of its cards: the sweep goes
    over the (at most 91) rank classes instead of the holdings."""
    classes = 0
    for a in range(13):
        for b in range(a, 13):
            if (left[a] * left[b] if a != b else left[a] * (left[a] - 1)) > 0:
                order[classes] = 13 * a + b
                classes += 1
    # Insertion sort by hand rank: a few dozen classes.
    for i in range(1, classes):
        item = order[i]
        j = i - 1
        while j >= 0 and by_ranks[order[j]] > by_ranks[item]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = item
    below = np.zeros(13, dtype=np.int64)  # holdings below holding one given card of a rank
    equal = np.zeros(13, dtype=np.int64)
    under = 0
    start = 0
    while start < classes:
        stop = start + 1
        while stop < classes and by_ranks[order[stop]] == by_ranks[order[start]]:
            stop += 1
        tied = 0
        for i in range(start, stop):
            a, b = order[i] // 13, order[i] % 13
            if a == b:
                tied += left[a] * (left[a] - 1) // 2
                equal[a] += left[a] - 1
            else:
                tied += left[a] * left[b]
                equal[a] += left[b]
                equal[b] += left[a]
        for i in range(start, stop):
            a, b = order[i] // 13, order[i] % 13
            wins = under - below[a] - below[b]
            ties = tied - equal[a] - equal[b] + 1
            numerator[13 * a + b] = numerator[13 * b + a] = 2 * wins + ties
        for r in range(13):
            below[r] += equal[r]
            equal[r] = 0
        under += tied
        start = stop


@kernel
def _numerators(
    flop_key: int,
    flop_mask: int,
    flop_count: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    card_rank: npt.NDArray[np.int64],
    boards: npt.NDArray[np.int64],
    live: npt.NDArray[np.int64],
    pairs: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    out: npt.NDArray[np.int16],
) -> None:
    """``out[b, p]``: numerator of label pair ``p`` on board ``boards[b]`` (two labels), for
    the pairs ``live[b]`` disjoint from the board; other entries are left as they are."""
    count = live.shape[1]
    m = keys.shape[0]
    pair_key = keys[pairs[:, 0]] + keys[pairs[:, 1]]
    pair_mask = masks[pairs[:, 0]] | masks[pairs[:, 1]]
    pair_ranks = 13 * card_rank[pairs[:, 0]] + card_rank[pairs[:, 1]]
    # Without a flush a hand's rank depends on the ranks of its cards only: one lookup per
    # pair of hole-card ranks instead of one per holding, from a table that stays cached.
    by_ranks = np.zeros(169, dtype=np.int64)
    board_count = np.zeros(13, dtype=np.int64)
    ranks = np.empty(count, dtype=np.int64)
    scratch_rank = np.empty(count, dtype=np.int64)
    scratch_pair = np.empty(count, dtype=np.int64)
    sorted_rank = np.empty(count, dtype=np.int64)
    sorted_pair = np.empty(count, dtype=np.int64)
    first = np.empty(count, dtype=np.int64)
    second = np.empty(count, dtype=np.int64)
    low = np.empty(1 << _LOW_BITS, dtype=np.int64)
    high = np.empty(1 << (13 - _LOW_BITS), dtype=np.int64)
    below = np.zeros(m, dtype=np.int64)
    equal = np.zeros(m, dtype=np.int64)
    label_count = np.zeros(13, dtype=np.int64)
    for card in range(m):
        label_count[card_rank[card]] += 1
    left = np.empty(13, dtype=np.int64)
    class_order = np.empty(91, dtype=np.int64)
    class_numerator = np.zeros(169, dtype=np.int64)
    for b in range(boards.shape[0]):
        turn, river = boards[b, 0], boards[b, 1]
        base_key = flop_key + keys[turn] + keys[river]
        base_mask = flop_mask | masks[turn] | masks[river]
        board_count[:] = flop_count
        board_count[card_rank[turn]] += 1
        board_count[card_rank[river]] += 1
        for r1 in range(13):
            for r2 in range(r1, 13):
                if board_count[r1] + 1 + (r1 == r2) > 4 or board_count[r2] + 1 + (r1 == r2) > 4:
                    continue
                key = (base_key + _RANK_KEY[r1] + _RANK_KEY[r2]) & _KEY_MASK
                rank = np.int64(look[(key & _COL_MASK) + offs[key >> _ROW_SHIFT]])
                by_ranks[13 * r1 + r2] = rank
                by_ranks[13 * r2 + r1] = rank
        if not ((base_key >> _SUIT_SHIFT) + 0x2222) & 0x8888:  # no suit at three cards
            for r in range(13):
                left[r] = label_count[r]
            left[card_rank[turn]] -= 1
            left[card_rank[river]] -= 1
            _by_class(left, by_ranks, class_order, class_numerator)
            row = out[b]
            for i in range(count):
                p = live[b, i]
                row[p] = class_numerator[pair_ranks[p]]
            continue
        for i in range(count):
            p = live[b, i]
            sums = base_key + pair_key[p]
            if sums & _FLUSH_BITS:
                nibble = (sums >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
                shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
                ranks[i] = flush[((base_mask | pair_mask[p]) >> shift) & 0x1FFF]
            else:
                ranks[i] = by_ranks[pair_ranks[p]]
        # Least significant digit first, both passes stable; the second lays out the sorted
        # holdings' ranks and cards for the sweep to read in order.
        low[:] = 0
        for i in range(count):
            low[ranks[i] & _LOW_MASK] += 1
        total = 0
        for d in range(low.shape[0]):
            total, low[d] = total + low[d], total
        for i in range(count):
            d = ranks[i] & _LOW_MASK
            scratch_rank[low[d]] = ranks[i]
            scratch_pair[low[d]] = live[b, i]
            low[d] += 1
        high[:] = 0
        for i in range(count):
            high[ranks[i] >> _LOW_BITS] += 1
        total = 0
        for d in range(high.shape[0]):
            total, high[d] = total + high[d], total
        for i in range(count):
            d = scratch_rank[i] >> _LOW_BITS
            at = high[d]
            high[d] += 1
            p = scratch_pair[i]
            sorted_rank[at] = scratch_rank[i]
            sorted_pair[at] = p
            first[at] = pairs[p, 0]
            second[at] = pairs[p, 1]
        row = out[b]
        below[:] = 0
        under = 0
        start = 0
        while start < count:
            rank = sorted_rank[start]
            stop = start + 1
            while stop < count and sorted_rank[stop] == rank:
                stop += 1
            for i in range(start, stop):
                equal[first[i]] += 1
                equal[second[i]] += 1
            tied = stop - start
            for i in range(start, stop):
                x, y = first[i], second[i]
                wins = under - below[x] - below[y]
                ties = tied - equal[x] - equal[y] + 1
                row[sorted_pair[i]] = 2 * wins + ties
            for i in range(start, stop):
                x, y = first[i], second[i]
                equal[x] = 0
                equal[y] = 0
                below[x] += 1
                below[y] += 1
            under += tied
            start = stop


def board_numerators(
    flop: tuple[int, int, int],
    remaining: IntArray,
    boards: IntArray,
    clash: int,
) -> npt.NDArray[np.int16]:
    """Numerators ``2 wins + ties`` of every label pair on each turn-river board of a flop.

    Args:
        flop: The flop's card ids.
        remaining: Card id of each label (the cards left after the flop).
        boards: ``(B, 2)`` label pairs: the turn and river cards of each board.
        clash: The entry of holdings that share a card with the board.

    Returns:
        ``(B, P)`` ``int16``, holdings in ``flop_layout`` order.
    """
    tables = lookup_tables()
    keys = CARD_KEYS.view(np.int64)[remaining]
    masks = FLUSH_KEYS.view(np.int64)[remaining]
    flop_key = KEY_INIT + int(CARD_KEYS.view(np.int64)[list(flop)].sum())
    flop_mask = int(np.bitwise_or.reduce(FLUSH_KEYS.view(np.int64)[list(flop)]))
    layout = flop_layout(len(remaining))
    out = np.full((len(boards), len(layout.pairs)), clash, dtype=np.int16)
    _numerators(
        flop_key,
        flop_mask,
        np.bincount(np.asarray(flop) >> 2, minlength=13),
        np.ascontiguousarray(keys),
        np.ascontiguousarray(masks),
        remaining >> 2,
        np.ascontiguousarray(boards, dtype=np.int64),
        layout.live[layout.pair_index[boards[:, 0], boards[:, 1]]],
        layout.pairs,
        tables.offs,
        tables.look,
        tables.flush,
        out,
    )
    return out
