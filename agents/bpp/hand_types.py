"""BPP's hand types: the 25 final types of the hold'em BPP, two draw types, and board classes.

Final types (the hold'em BPP of Nicholson, Korb & Boulton 2006):
busted-low (8-high or lower), busted-medium (9, T or J high), busted-Q, busted-K, busted-A,
each of the 13 pairs separately, and the 7 classes above a pair: 25 types. A busted hand is
classified by its highest card, a pair by its rank.

Current (partial) types, one per round, are the final types of the cards seen so far plus two
draw types on the flop and turn, in the spirit of the stud BPP's partial types ("three to a
flush", Carlton 2000): a busted hand with four cards of one suit is a ``FLUSH_DRAW``, else one
with four ranks of one five-rank straight window (open-ended or gutshot, the wheel included) is
a ``STRAIGHT_DRAW``. A pair or better with a draw keeps its made type (ours: the made hand is
what the 25-type scheme already tells apart).

The board class summarises the community cards for the network: the type of the board cards
alone times a flush texture (how many cards of the most common suit: 1, 2, 3, 4 or more). It is
the "Board" node of the hold'em BPP (Nicholson, Korb & Boulton 2006) and carries the dependence
between the two players' hands that the shared cards create.

>>> from envs.cards import parse_cards
>>> hand_type(parse_cards("AsKd")).name, hand_type(parse_cards("7c7d2h9sJd")).name
('BUSTED_ACE', 'PAIR_7')
>>> hand_type(parse_cards("As9s2s5sKd")).name
'FLUSH_DRAW'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from functools import cache, lru_cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from envs.evaluator import HandCategory, category_of, evaluate, evaluate_one

__all__ = [
    "NUM_BOARD_CLASSES",
    "NUM_CURRENT_TYPES",
    "NUM_FINAL_TYPES",
    "HandType",
    "board_class",
    "board_classes",
    "cached_board_class",
    "cached_hand_type",
    "hand_type",
    "hand_types",
    "type_by_rank",
]


class HandType(IntEnum):
    """BPP hand types: 0..24 are the final types, 25 and 26 the draws of the current types."""

    BUSTED_LOW = 0
    BUSTED_MEDIUM = 1
    BUSTED_QUEEN = 2
    BUSTED_KING = 3
    BUSTED_ACE = 4
    PAIR_2 = 5
    PAIR_3 = 6
    PAIR_4 = 7
    PAIR_5 = 8
    PAIR_6 = 9
    PAIR_7 = 10
    PAIR_8 = 11
    PAIR_9 = 12
    PAIR_T = 13
    PAIR_J = 14
    PAIR_Q = 15
    PAIR_K = 16
    PAIR_A = 17
    TWO_PAIR = 18
    THREE_OF_A_KIND = 19
    STRAIGHT = 20
    FLUSH = 21
    FULL_HOUSE = 22
    FOUR_OF_A_KIND = 23
    STRAIGHT_FLUSH = 24
    FLUSH_DRAW = 25
    STRAIGHT_DRAW = 26


NUM_FINAL_TYPES = 25
NUM_CURRENT_TYPES = 27
FLUSH_TEXTURES = 4
"""Board flush textures: most common suit seen 0-1, 2, 3, or 4-5 times."""
NUM_BOARD_CLASSES = NUM_FINAL_TYPES * FLUSH_TEXTURES

# Busted type by highest rank (rank 0..12 = 2..A): 2..8 low, 9..J medium, then Q, K, A.
_BUSTED_BY_RANK = np.array([0] * 7 + [1] * 3 + [2, 3, 4], dtype=np.int8)
_PY_BUSTED = _BUSTED_BY_RANK.tolist()
# Category above a pair -> type (two pair .. straight flush).
_TYPE_OF_CATEGORY = {int(c): 16 + int(c) for c in HandCategory if c >= HandCategory.TWO_PAIR}
_WINDOWS = [0b1000000001111] + [0b11111 << low for low in range(9)]  # A-5, then 2-6 .. T-A


def _made_type(ranks: Sequence[int], rank: int) -> int:
    """Type of five cards given their ranks (0..12) and their evaluator rank."""
    counts = [ranks.count(r) for r in range(13)]
    cat = category_of(rank)
    if cat == HandCategory.HIGH_CARD:
        return int(_BUSTED_BY_RANK[max(ranks)])
    if cat == HandCategory.PAIR:
        return int(HandType.PAIR_2) + counts.index(2)
    return _TYPE_OF_CATEGORY[cat]


@cache
def type_by_rank() -> npt.NDArray[np.int8]:
    """Final type of every evaluator rank 1..7462 (index 0 unused), from all 5-card patterns."""
    table = np.full(7463, -1, dtype=np.int8)
    patterns = [(p, False) for p in combinations_with_replacement(range(13), 5)]
    patterns += [
        (p, True) for p in combinations_with_replacement(range(13), 5) if len(set(p)) == 5
    ]
    for ranks, flush in patterns:
        if max(ranks.count(r) for r in ranks) == 5:
            continue
        # Suits i % 4 give distinct cards and never a flush; suit 0 throughout gives a flush.
        rank = evaluate_one([4 * r + (0 if flush else i % 4) for i, r in enumerate(ranks)])
        table[rank] = _made_type(ranks, rank)
    assert int((table[1:] < 0).sum()) == 0
    return table


@cache
def _straight_draw_by_mask() -> npt.NDArray[np.bool_]:
    """Whether a 13-bit rank mask holds four ranks of some five-rank straight window."""
    masks = np.arange(1 << 13)
    found = np.zeros(1 << 13, dtype=bool)
    for window in _WINDOWS:
        found |= np.bitwise_count(masks & window) >= 4
    return found


_PY_TYPE_BY_RANK: list[int] = []
_PY_STRAIGHT_DRAW: list[bool] = []


def hand_type(cards: Sequence[int]) -> HandType:
    """Current type of a player's 2 hole cards plus the 0, 3, 4 or 5 board cards dealt.

    Two cards give a pair or a busted type; five to seven a made type; five or six busted cards
    may give a draw type. Cards are not validated (this is BPP's hot path).
    """
    if len(cards) == 2:
        high, low = cards[0] >> 2, cards[1] >> 2
        if high == low:
            return HandType(HandType.PAIR_2 + high)
        return HandType(_PY_BUSTED[max(high, low)])
    if not _PY_TYPE_BY_RANK:
        _PY_TYPE_BY_RANK.extend(type_by_rank().tolist())
        _PY_STRAIGHT_DRAW.extend(_straight_draw_by_mask().tolist())
    made = _PY_TYPE_BY_RANK[evaluate_one(cards)]
    if made <= HandType.BUSTED_ACE and len(cards) < 7:
        suits = [0, 0, 0, 0]
        mask = 0
        for card in cards:
            suits[card & 3] += 1
            mask |= 1 << (card >> 2)
        if max(suits) >= 4:
            return HandType.FLUSH_DRAW
        if _PY_STRAIGHT_DRAW[mask]:
            return HandType.STRAIGHT_DRAW
    return HandType(made)


def board_class(board: Sequence[int]) -> int:
    """Board class 0..99 of 0, 3, 4 or 5 community cards: ``4 * board type + flush texture``."""
    if not board:
        return 0
    suits = [0, 0, 0, 0]
    counts = [0] * 13
    for card in board:
        suits[card & 3] += 1
        counts[card >> 2] += 1
    texture = min(max(suits), 4) - 1
    if len(board) == 5:
        if not _PY_TYPE_BY_RANK:
            hand_type(board)  # fills the lookup lists
        return 4 * _PY_TYPE_BY_RANK[evaluate_one(board)] + texture
    top = max(counts)
    if top == 4:
        kind = int(HandType.FOUR_OF_A_KIND)
    elif top == 3:
        kind = int(HandType.THREE_OF_A_KIND)
    elif counts.count(2) == 2:
        kind = int(HandType.TWO_PAIR)
    elif top == 2:
        kind = int(HandType.PAIR_2) + counts.index(2)
    else:
        kind = _PY_BUSTED[max(card >> 2 for card in board)]
    return 4 * kind + texture


# The same boards and hands come back within a hand (every seat sees the board) and in the
# replays of a duplicate match, so BPP's hot path reads them through small bounded caches.
cached_hand_type = lru_cache(maxsize=1 << 15)(hand_type)
"""``hand_type`` of a tuple of cards, memoised."""
cached_board_class = lru_cache(maxsize=1 << 14)(board_class)
"""``board_class`` of a tuple of cards, memoised."""


def hand_types(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int8]:
    """``hand_type`` of each row of an ``(n, k)`` array, ``k`` in 2 or 5..7 (vectorised)."""
    n, width = cards.shape
    ranks = (cards >> 2).astype(np.int8)
    if width == 2:
        busted = _BUSTED_BY_RANK[ranks.max(axis=1)]
        return np.where(ranks[:, 0] == ranks[:, 1], HandType.PAIR_2 + ranks[:, 0], busted).astype(
            np.int8
        )
    types = type_by_rank()[evaluate(cards)]
    if width < 7:
        busted = types <= HandType.BUSTED_ACE
        suit_counts = np.zeros((n, 4), dtype=np.int8)
        masks = np.zeros(n, dtype=np.int64)
        for j in range(width):
            suit_counts[np.arange(n), cards[:, j] & 3] += 1
            masks |= np.left_shift(1, ranks[:, j].astype(np.int64))
        straight = _straight_draw_by_mask()[masks]
        types = np.where(busted & straight, np.int8(HandType.STRAIGHT_DRAW), types)
        types = np.where(
            busted & (suit_counts.max(axis=1) >= 4), np.int8(HandType.FLUSH_DRAW), types
        )
    return types.astype(np.int8)


def board_classes(board: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
    """``board_class`` of each row of an ``(n, k)`` board array, ``k`` in 0, 3, 4, 5."""
    n, width = board.shape
    if width == 0:
        return np.zeros(n, dtype=np.int16)
    rows = np.arange(n)
    suits = np.zeros((n, 4), dtype=np.int8)
    counts = np.zeros((n, 13), dtype=np.int8)
    for j in range(width):
        suits[rows, board[:, j] & 3] += 1
        counts[rows, board[:, j] >> 2] += 1
    texture = np.minimum(suits.max(axis=1), 4) - 1
    if width == 5:
        kind = type_by_rank()[evaluate(board)].astype(np.int16)
    else:
        top = counts.max(axis=1)
        pairs = (counts == 2).sum(axis=1)
        pair_rank = np.argmax(counts == 2, axis=1)
        high = 12 - np.argmax(counts[:, ::-1] > 0, axis=1)
        kind = _BUSTED_BY_RANK[high].astype(np.int16)
        kind = np.where(top == 2, HandType.PAIR_2 + pair_rank, kind)
        kind = np.where(pairs == 2, int(HandType.TWO_PAIR), kind)
        kind = np.where(top == 3, int(HandType.THREE_OF_A_KIND), kind)
        kind = np.where(top == 4, int(HandType.FOUR_OF_A_KIND), kind)
    classes: npt.NDArray[np.int16] = (4 * kind + texture).astype(np.int16)
    return classes
