"""Compiled river showdown numerators of every holding on chosen turn-river boards of a flop.

The compiled form of ``agents.best_response.river_numerators``, board by board. On a board a
holding's hand depends on its cards only through their *types*: a card's rank, and whether it
is of the board's flush suit (the one suit with three or more board cards, if any); cards of
another suit and the same rank are interchangeable. So the holdings fall into at most 351
classes (pairs of types; 91 on a board where no flush can be made), each class is ranked once
with the evaluator's tables, the classes are sorted by rank (two-pass radix sort: ranks fit in
13 bits) and swept once in rank order, keeping how many holdings lie below the current rank,
in total and per card type. A holding's wins and ties against the uniform range of the
opponent holdings disjoint from it then follow by inclusion-exclusion over its two cards
(Johanson, Waugh, Bowling and Zinkevich, "Accelerating best response calculation in large
extensive games", IJCAI 2011):

    wins(x, y) = #below - #below holding x - #below holding y
    ties(x, y) = #equal - #equal holding x - #equal holding y + 1

and, per card, "holding x" counts are the same for every card of x's type. The result is the
numerator ``2 wins + ties`` of each class, read by its holdings.
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
_TYPES = 26
"""Card types: ranks 0..12 off the flush suit, 13..25 on it."""
_LOW_BITS = 7
"""Bits of the first radix pass; ranks (1..7462) need 13, so the second pass takes 6."""
_LOW_MASK = (1 << _LOW_BITS) - 1


@kernel
def _sort_by_rank(
    items: IntArray, count: int, rank: IntArray, scratch: IntArray, low: IntArray, high: IntArray
) -> None:
    """Sort ``items[:count]`` by ``rank[item]``: two stable counting passes."""
    low[:] = 0
    for i in range(count):
        low[rank[items[i]] & _LOW_MASK] += 1
    total = 0
    for d in range(low.shape[0]):
        total, low[d] = total + low[d], total
    for i in range(count):
        d = rank[items[i]] & _LOW_MASK
        scratch[low[d]] = items[i]
        low[d] += 1
    high[:] = 0
    for i in range(count):
        high[rank[scratch[i]] >> _LOW_BITS] += 1
    total = 0
    for d in range(high.shape[0]):
        total, high[d] = total + high[d], total
    for i in range(count):
        d = rank[scratch[i]] >> _LOW_BITS
        items[high[d]] = scratch[i]
        high[d] += 1


@kernel
def _sweep(
    left: IntArray, rank: IntArray, order: IntArray, classes: int, numerator: IntArray
) -> None:
    """``numerator[26 a + b]`` of the classes ``order[:classes]`` (sorted by ``rank``), of
    card types ``a`` and ``b`` with ``left[t]`` live cards of type ``t``."""
    below = np.zeros(_TYPES, dtype=np.int64)  # holdings below holding one given card of a type
    equal = np.zeros(_TYPES, dtype=np.int64)
    under = 0
    start = 0
    while start < classes:
        stop = start + 1
        while stop < classes and rank[order[stop]] == rank[order[start]]:
            stop += 1
        if stop == start + 1:  # a class alone at its rank (most): the loops below, unrolled
            a, b = order[start] // _TYPES, order[start] % _TYPES
            if a == b:
                tied = left[a] * (left[a] - 1) // 2
                numerator[_TYPES * a + a] = (
                    2 * (under - 2 * below[a]) + tied - 2 * (left[a] - 1) + 1
                )
                below[a] += left[a] - 1
            else:
                tied = left[a] * left[b]
                wins = under - below[a] - below[b]
                numerator[_TYPES * a + b] = numerator[_TYPES * b + a] = (
                    2 * wins + tied - left[a] - left[b] + 1
                )
                below[a] += left[b]
                below[b] += left[a]
            under += tied
            start = stop
            continue
        tied = 0
        for i in range(start, stop):
            a, b = order[i] // _TYPES, order[i] % _TYPES
            if a == b:
                tied += left[a] * (left[a] - 1) // 2
                equal[a] += left[a] - 1
            else:
                tied += left[a] * left[b]
                equal[a] += left[b]
                equal[b] += left[a]
        for i in range(start, stop):
            a, b = order[i] // _TYPES, order[i] % _TYPES
            wins = under - below[a] - below[b]
            ties = tied - equal[a] - equal[b] + 1
            numerator[_TYPES * a + b] = numerator[_TYPES * b + a] = 2 * wins + ties
        for i in range(start, stop):  # a type's second class in the group adds zero
            a, b = order[i] // _TYPES, order[i] % _TYPES
            below[a] += equal[a]
            equal[a] = 0
            below[b] += equal[b]
            equal[b] = 0
        under += tied
        start = stop


@kernel
def _numerators(
    flop_key: int,
    flop_mask: int,
    flop_suits: IntArray,
    keys: IntArray,
    masks: IntArray,
    card_rank: IntArray,
    card_suit: IntArray,
    boards: IntArray,
    pairs: IntArray,
    pair_index: IntArray,
    clash: int,
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    out: npt.NDArray[np.int16],
) -> None:
    """``out[b, p]``: numerator of label pair ``p`` on board ``boards[b]`` (two labels), or
    ``clash`` if the pair holds a board card (``pair_index``: the pair id of two labels)."""
    m = keys.shape[0]
    # cell[f, p]: the class (26 a + b) of pair p on a board whose flush suit is f (4: none).
    cell = np.empty((5, pairs.shape[0]), dtype=np.int64)
    for f in range(5):
        for p in range(pairs.shape[0]):
            x, y = pairs[p, 0], pairs[p, 1]
            a = card_rank[x] + (13 if card_suit[x] == f else 0)
            cell[f, p] = _TYPES * a + card_rank[y] + (13 if card_suit[y] == f else 0)
    left = np.empty(_TYPES, dtype=np.int64)
    first = np.empty(_TYPES, dtype=np.int64)
    second = np.empty(_TYPES, dtype=np.int64)
    rank = np.zeros(_TYPES * _TYPES, dtype=np.int64)
    numerator = np.zeros(_TYPES * _TYPES, dtype=np.int64)
    order = np.empty(_TYPES * _TYPES, dtype=np.int64)
    scratch = np.empty(_TYPES * _TYPES, dtype=np.int64)
    low = np.empty(1 << _LOW_BITS, dtype=np.int64)
    high = np.empty(1 << (13 - _LOW_BITS), dtype=np.int64)
    suits = np.empty(4, dtype=np.int64)
    for b in range(boards.shape[0]):
        turn, river = boards[b, 0], boards[b, 1]
        base_key = flop_key + keys[turn] + keys[river]
        base_mask = flop_mask | masks[turn] | masks[river]
        suits[:] = flop_suits
        suits[card_suit[turn]] += 1
        suits[card_suit[river]] += 1
        flush_suit = -1
        for suit in range(4):
            if suits[suit] >= 3:
                flush_suit = suit
        left[:] = 0
        for card in range(m):
            if (card == turn) | (card == river):
                continue
            t = card_rank[card] + (13 if card_suit[card] == flush_suit else 0)
            if left[t] == 0:
                first[t] = card
            elif left[t] == 1:
                second[t] = card
            left[t] += 1
        classes = 0
        for a in range(_TYPES):
            if left[a] == 0:
                continue
            for c in range(a, _TYPES):
                if left[c] == 0 or (a == c and left[a] < 2):
                    continue
                x, y = first[a], first[c] if a != c else second[a]
                sums = base_key + keys[x] + keys[y]
                if sums & _FLUSH_BITS:
                    nibble = (sums >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
                    shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
                    value = flush[((base_mask | masks[x] | masks[y]) >> shift) & 0x1FFF]
                else:
                    key = sums & _KEY_MASK
                    value = look[(key & _COL_MASK) + offs[key >> _ROW_SHIFT]]
                rank[_TYPES * a + c] = value
                order[classes] = _TYPES * a + c
                classes += 1
        _sort_by_rank(order, classes, rank, scratch, low, high)
        _sweep(left, rank, order, classes, numerator)
        # Every pair read through its class, then the pairs holding a board card marked.
        row, classes_of = out[b], cell[flush_suit if flush_suit >= 0 else 4]
        for p in range(row.shape[0]):
            row[p] = numerator[classes_of[p]]
        for card in range(m):
            if card != turn:
                row[pair_index[turn, card]] = clash
            if card != river:
                row[pair_index[river, card]] = clash


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
    out = np.empty((len(boards), len(layout.pairs)), dtype=np.int16)  # every entry written
    _numerators(
        flop_key,
        flop_mask,
        np.bincount(np.asarray(flop) & 3, minlength=4),
        np.ascontiguousarray(keys),
        np.ascontiguousarray(masks),
        remaining >> 2,
        remaining & 3,
        np.ascontiguousarray(boards, dtype=np.int64),
        layout.pairs,
        layout.pair_index,
        clash,
        tables.offs,
        tables.look,
        tables.flush,
        out,
    )
    return out
