"""BPP's current types and board classes of many rows at once, in compiled loops.

``street_types(hole, board, width)`` equals ``agents.bpp.hand_types.hand_type`` of the hole
cards plus the first ``width`` board cards and ``board_class`` of those board cards at every
row (the tests check it), for rows of any mix of rounds; ``shown_types`` gives the type of the
cards each opponent showed down in every round of a finished hand. The batched belief and
opponent model read them (``agents.bpp.batched_kernels``).

A row costs one pass over its cards, which keeps in integers what the categories need: the
masks of the ranks held at least once, twice, three and four times, the count of each suit (a
byte per suit) and the ranks of each suit. The category then follows the evaluator's order
(straight flush, quads, full house, flush, straight, trips, two pair, pair, high card), which
is all that the 25 final types tell apart: a pair by its rank, a busted hand by its highest
card; draws and board kinds are as ``agents.bpp.hand_types`` defines them. A few bit tricks
and three tables over the 8,192 rank masks replace the evaluator.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from agents.bpp.hand_types import HandType
from agents.jit import kernel, readonly

__all__ = ["BOARD_WIDTH", "board_classes", "holding_types", "shown_types", "street_types"]

Index = npt.NDArray[np.intp]
Cards = npt.NDArray[np.integer]

BOARD_WIDTH = np.array([0, 3, 4, 5], dtype=np.intp)
"""Board cards seen in each round."""

# Busted type by highest rank (0..12 = 2..A), as ``agents.bpp.hand_types``.
_BUSTED = np.array([0] * 7 + [1] * 3 + [2, 3, 4], dtype=np.int64)
_WINDOWS = np.array([0b1000000001111] + [0b11111 << low for low in range(9)], dtype=np.int64)
"""The ten five-rank straight windows as rank masks, the wheel (A-5) first."""
_PAIR_2 = int(HandType.PAIR_2)
_TWO_PAIR, _TRIPS = int(HandType.TWO_PAIR), int(HandType.THREE_OF_A_KIND)
_STRAIGHT_TYPE, _FLUSH = int(HandType.STRAIGHT), int(HandType.FLUSH)
_FULL_HOUSE, _QUADS = int(HandType.FULL_HOUSE), int(HandType.FOUR_OF_A_KIND)
_STRAIGHT_FLUSH, _BUSTED_ACE = int(HandType.STRAIGHT_FLUSH), int(HandType.BUSTED_ACE)
_FLUSH_DRAW, _STRAIGHT_DRAW = int(HandType.FLUSH_DRAW), int(HandType.STRAIGHT_DRAW)


def _straights(need: int) -> npt.NDArray[np.bool_]:
    """Whether each 13-bit rank mask holds ``need`` ranks of some five-rank window."""
    masks = np.arange(1 << 13)
    found: npt.NDArray[np.bool_] = np.logical_or.reduce(
        [np.bitwise_count(masks & w) >= need for w in _WINDOWS]
    )
    return found


_STRAIGHT = _straights(5)
"""By rank mask: a straight."""
_STRAIGHT_DRAWS = _straights(4)
"""By rank mask: four ranks of a straight (``hand_types``' straight draw)."""
_HIGHEST = np.array([max(0, m.bit_length() - 1) for m in range(1 << 13)], dtype=np.int64)
"""By rank mask: the highest rank."""
_WIDTH = BOARD_WIDTH.astype(np.int64)
# Adding 3 (4) to a suit's byte sets its bit 3 exactly when the suit holds 5 (4) cards or more.
_FIVE, _FOUR, _BIT3 = 0x03030303, 0x04040404, 0x08080808


@kernel
def _with(
    card: Any, seen: tuple[int, int, int, int, int, int]
) -> tuple[int, int, int, int, int, int]:
    """``seen`` with one more card: the masks of ranks held at least once, twice, three and
    four times, the count of each suit (a byte per suit) and the ranks of each suit (sixteen
    bits per suit)."""
    once, twice, thrice, four, suits, suited = seen
    rank, suit = card >> 2, card & 3
    bit = 1 << rank
    four |= thrice & bit
    thrice |= twice & bit
    twice |= once & bit
    once |= bit
    return once, twice, thrice, four, suits + (1 << (8 * suit)), suited | (bit << (16 * suit))


@kernel
def _made_type(seen: tuple[int, int, int, int, int, int]) -> int:
    """The final type of five to seven cards, in the evaluator's order of categories."""
    once, twice, thrice, four, suits, suited = seen
    flush = (suits + _FIVE) & _BIT3
    if flush:
        for suit in range(4):
            if (flush >> (8 * suit)) & 0xFF and _STRAIGHT[(suited >> (16 * suit)) & 0x1FFF]:
                return _STRAIGHT_FLUSH
    if four:
        return _QUADS
    if thrice and (thrice & (thrice - 1) or twice & ~thrice):
        return _FULL_HOUSE
    if flush:
        return _FLUSH
    if _STRAIGHT[once]:
        return _STRAIGHT_TYPE
    if thrice:
        return _TRIPS
    if twice & (twice - 1):
        return _TWO_PAIR
    if twice:
        return int(_PAIR_2 + _HIGHEST[twice])
    return int(_BUSTED[_HIGHEST[once]])


@kernel
def _hand_type(hole: Cards, board: Cards, width: int) -> int:
    """``hand_type`` of the two cards of ``hole`` plus ``board[:width]`` (width 0, 3, 4, 5)."""
    high, low = np.int64(hole[0]) >> 2, np.int64(hole[1]) >> 2
    if width == 0:
        if high == low:
            return int(_PAIR_2 + high)
        return int(_BUSTED[max(high, low)])
    seen = _with(np.int64(hole[1]), _with(np.int64(hole[0]), (0, 0, 0, 0, 0, 0)))
    for j in range(width):
        seen = _with(np.int64(board[j]), seen)
    return _type_of_seen(seen, width)


@kernel
def _type_of_seen(seen: tuple[int, int, int, int, int, int], width: int) -> int:
    """The current type of the cards ``seen`` folds in, ``width`` of them on the board (3,
    4 or 5): the made type, or a draw with a card to come."""
    made = _made_type(seen)
    if made <= _BUSTED_ACE and width < 5:  # five or six cards: perhaps a draw
        if (seen[4] + _FOUR) & _BIT3:
            return _FLUSH_DRAW
        if _STRAIGHT_DRAWS[seen[0]]:
            return _STRAIGHT_DRAW
    return made


@kernel
def _board_class(board: Cards, width: int) -> int:
    """``board_class`` of ``board[:width]`` (width 0, 3, 4, 5)."""
    if width == 0:
        return 0
    seen = (0, 0, 0, 0, 0, 0)
    for j in range(width):
        seen = _with(np.int64(board[j]), seen)
    once, twice, thrice, four, suits, _ = seen
    most = 0
    for suit in range(4):
        most = max(most, (suits >> (8 * suit)) & 0xFF)
    texture = min(most, 4) - 1
    if width == 5:
        kind = _made_type(seen)
    elif four:
        kind = _QUADS
    elif thrice:
        kind = _TRIPS
    elif twice & (twice - 1):
        kind = _TWO_PAIR
    elif twice:
        kind = _PAIR_2 + _HIGHEST[twice]
    else:
        kind = int(_BUSTED[_HIGHEST[once]])
    return 4 * kind + texture


@kernel
def _street_types(hole: Cards, board: Cards, width: Index, types: Index, classes: Index) -> None:
    for i in range(len(width)):
        types[i] = _hand_type(hole[i], board[i], width[i])
        classes[i] = _board_class(board[i], width[i])


@kernel
def _board_classes(board: Cards, width: Index, classes: Index) -> None:
    for i in range(len(width)):
        classes[i] = _board_class(board[i], width[i])


def board_classes(board: npt.NDArray[np.uint8], width: npt.ArrayLike) -> Index:
    """The board class of each row, as ``street_types`` gives it (without the hole cards)."""
    dealt = readonly(width, np.intp)
    classes = np.empty(len(dealt), dtype=np.intp)
    _board_classes(readonly(board, np.uint8), dealt, classes)
    return classes


@kernel
def _with_rank(
    rank: Any, seen: tuple[int, int, int, int, int, int]
) -> tuple[int, int, int, int, int, int]:
    """``seen`` with one more card of ``rank`` counted by rank only (its suit left out)."""
    once, twice, thrice, four, suits, suited = seen
    bit = 1 << rank
    return (
        once | bit,
        twice | (once & bit),
        thrice | (twice & bit),
        four | (thrice & bit),
        suits,
        suited,
    )


@kernel
def _holding_types(
    holdings: Cards, board: Cards, width: Index, dead: int, types: npt.NDArray[np.int8]
) -> None:
    # A holding whose cards bring no suit to four cards or more (with the board's) is typed
    # by its ranks alone (flushes and flush draws are then the board's): its rank class is
    # typed once per board and every holding takes its class's type in one branch-free
    # pass. Then the holdings through a board card are marked dead, and those with a card of
    # a suit the board holds three times, or two cards of a suit it holds twice, are typed
    # card by card (from lists per suit made once per call). Pre-flop types do not depend
    # on the board: one row serves every pre-flop row.
    count = len(holdings)
    by_class = np.empty(169, dtype=np.int8)
    rank_class = np.empty(count, dtype=np.int64)
    # The holdings through card c: through[start[c]:start[c + 1]].
    start = np.zeros(53, dtype=np.int64)
    for h in range(count):
        start[np.int64(holdings[h, 0]) + 1] += 1
        start[np.int64(holdings[h, 1]) + 1] += 1
    start = np.cumsum(start)
    through = np.empty(2 * count, dtype=np.int64)
    filled = start[:52].copy()
    of_suit = np.empty((4, count), dtype=np.int64)  # a card of the suit
    of_suit_count = np.zeros(4, dtype=np.int64)
    both = np.empty((4, count), dtype=np.int64)  # both cards of the suit
    both_count = np.zeros(4, dtype=np.int64)
    preflop = np.empty(count, dtype=np.int8)
    preflop_made = False
    for h in range(count):
        first, second = np.int64(holdings[h, 0]), np.int64(holdings[h, 1])
        rank_class[h] = min(first >> 2, second >> 2) + 13 * max(first >> 2, second >> 2)
        for card in (first, second):
            through[filled[card]] = h
            filled[card] += 1
        first_suit, second_suit = first & 3, second & 3
        of_suit[first_suit, of_suit_count[first_suit]] = h
        of_suit_count[first_suit] += 1
        if second_suit != first_suit:
            of_suit[second_suit, of_suit_count[second_suit]] = h
            of_suit_count[second_suit] += 1
        else:
            both[first_suit, both_count[first_suit]] = h
            both_count[first_suit] += 1
    for i in range(len(width)):
        n = width[i]
        row = types[i]
        if n == 0:
            if not preflop_made:
                for h in range(count):
                    preflop[h] = _hand_type(holdings[h], board[i], 0)
                preflop_made = True
            row[:] = preflop
            continue
        seen = (0, 0, 0, 0, 0, 0)
        on_board = np.int64(0)
        for j in range(n):
            seen = _with(np.int64(board[i, j]), seen)
            on_board |= np.int64(1) << np.int64(board[i, j])
        for high in range(13):
            for low in range(high + 1):
                held = _with_rank(np.int64(high), _with_rank(np.int64(low), seen))
                by_class[low + 13 * high] = _type_of_seen(held, n)
        for h in range(count):
            row[h] = by_class[rank_class[h]]
        for j in range(n):
            card = np.int64(board[i, j])
            for k in range(start[card], start[card + 1]):
                row[through[k]] = dead
        for suit in range(4):
            on_suit = (seen[4] >> (8 * suit)) & 0xFF
            if on_suit >= 3:
                listed, listed_count = of_suit[suit], of_suit_count[suit]
            elif on_suit == 2:
                listed, listed_count = both[suit], both_count[suit]
            else:
                continue
            for k in range(listed_count):
                h = listed[k]
                first, second = np.int64(holdings[h, 0]), np.int64(holdings[h, 1])
                if ((np.int64(1) << first) | (np.int64(1) << second)) & on_board == 0:
                    row[h] = _type_of_seen(_with(second, _with(first, seen)), n)


def holding_types(
    holdings: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    width: npt.ArrayLike,
    dead: int,
) -> npt.NDArray[np.int8]:
    """``(k, H)``: the current type of each of ``holdings`` (``(H, 2)``) with the first
    ``width[i]`` cards of ``board[i]``, as ``street_types`` gives it, and ``dead`` for the
    holdings that meet those cards.

    Raises:
        ValueError: if a width is not 0, 3, 4 or 5, or ``dead`` does not fit in an int8.
    """
    dealt = readonly(width, np.intp)
    if dealt.size and not ((dealt == 0) | ((dealt >= 3) & (dealt <= 5))).all():
        raise ValueError(f"board widths must be 0, 3, 4 or 5, got {np.unique(dealt)}")
    if not -128 <= dead <= 127:
        raise ValueError(f"dead must fit in an int8, got {dead}")
    types = np.empty((len(dealt), len(holdings)), dtype=np.int8)
    _holding_types(readonly(holdings, np.uint8), readonly(board, np.uint8), dealt, dead, types)
    return types


@kernel
def _shown_types(shown: Cards, board: Cards, seat: Cards, rows: Index, types: Index) -> None:
    for q in range(len(rows)):
        i = rows[q]
        for s in range(shown.shape[1]):
            hidden = s == seat[i] or shown[i, s, 0] < 0
            for r in range(4):
                types[q, s, r] = -1 if hidden else _hand_type(shown[i, s], board[i], _WIDTH[r])


def street_types(
    hole: npt.NDArray[np.uint8], board: npt.NDArray[np.uint8], width: npt.ArrayLike
) -> tuple[Index, Index]:
    """(current type, board class) of each row.

    Args:
        hole: ``(n, 2)`` hole cards.
        board: ``(n, 5)`` board cards, those past ``width`` ignored.
        width: ``(n,)`` board cards dealt, each 0, 3, 4 or 5 (the class is 0 without board).
    """
    dealt = readonly(width, np.intp)
    types = np.empty(len(dealt), dtype=np.intp)
    classes = np.empty(len(dealt), dtype=np.intp)
    _street_types(readonly(hole, np.uint8), readonly(board, np.uint8), dealt, types, classes)
    return types, classes


def shown_types(
    shown: npt.NDArray[np.int16],
    board: npt.NDArray[np.uint8],
    seat: npt.NDArray[np.int8],
    rows: Index,
) -> Index:
    """The current type of the cards each seat showed down in each round, at the batch's
    ``rows``: ``(len(rows), S, 4)``, -1 for the viewing seat and the seats that showed nothing.

    Args:
        shown: ``(k, S, 2)`` as ``HandEndBatch.shown``.
        board: ``(k, 5)``, the whole board (of the hands at ``rows``, which reached a showdown).
        seat: ``(k,)`` the viewing seat.
        rows: The rows to classify.
    """
    types = np.empty((len(rows), shown.shape[1], 4), dtype=np.intp)
    _shown_types(
        readonly(shown, np.int16),
        readonly(board, np.uint8),
        readonly(seat, np.int8),
        readonly(rows, np.intp),
        types,
    )
    return types
