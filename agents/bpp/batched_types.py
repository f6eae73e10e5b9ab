"""BPP's current type and board class of many rows at once, through small lookup tables.

``street_types(hole, board, width)`` equals ``agents.bpp.hand_types.hand_type`` of the hole
cards plus the first ``width`` board cards and ``board_class`` of those board cards at every
row (the tests check it), for rows of any mix of rounds in one pass, because the batched
belief computes both for every table entering a round. The work per row is a few gathers:

* two hole cards: one lookup of the ``52 x 52`` pre-flop types;
* five to seven cards: the evaluator's rank (``envs.evaluator.rank_from_keys`` of summed card
  keys, the absent board cards adding nothing) gives the made type; the draws of a busted
  hand of five or six cards come from per-suit counts (one byte per suit, summed from per-card
  units: a count of four or more sets bit 3 of its byte once 4 is added) and the OR of the
  ranks' bits;
* the board: its flush texture from the same suit bytes, and its kind from a table over the
  ranks of three or four cards (digits base 14, 13 for an absent card, made once from
  ``board_classes``) or, for five cards, from the evaluator.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from agents.bpp.hand_types import (
    HandType,
    _straight_draw_by_mask,
    board_classes,
    hand_types,
    type_by_rank,
)
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, rank_from_keys

__all__ = ["street_types"]

Index = npt.NDArray[np.intp]

_CARDS = np.arange(52)
_KEYS = CARD_KEYS.view(np.int64)  # sums of keys stay below 2**63
_FLUSH_KEYS = FLUSH_KEYS.view(np.int64)
_SUIT_UNIT = np.left_shift(1, 8 * (_CARDS & 3)).astype(np.int64)
"""One in the byte of the card's suit."""
_RANK_BIT = np.left_shift(1, _CARDS >> 2).astype(np.int64)
_FOUR = 0x04040404  # adding 4 to each suit byte sets its bit 3 exactly when the count is >= 4
_BIT3 = 0x08080808
_BYTES = np.array([0, 8, 16, 24], dtype=np.int64)
_ABSENT = 13
_DIGITS = 14 ** np.arange(4)
_BUSTED_ACE = int(HandType.BUSTED_ACE)
_FLUSH_DRAW, _STRAIGHT_DRAW = int(HandType.FLUSH_DRAW), int(HandType.STRAIGHT_DRAW)


@cache
def _preflop_types() -> npt.NDArray[np.intp]:
    """``hand_type`` of every ordered pair of cards, indexed ``52 * first + second``."""
    pairs = np.stack(np.divmod(np.arange(52 * 52), 52), axis=1).astype(np.uint8)
    return hand_types(pairs).astype(np.intp)


@cache
def _board_kinds() -> npt.NDArray[np.intp]:
    """The board type (``board_class // 4``) of three or four cards by their ranks, indexed
    by the four rank digits base 14 (13 for an absent fourth card)."""
    kinds = np.zeros(14**4, dtype=np.intp)
    for width in (3, 4):
        ranks = np.stack(np.unravel_index(np.arange(13**width), (13,) * width), axis=1)
        cards = (4 * ranks + np.arange(width)).astype(np.uint8)  # distinct suits and cards
        digits = np.concatenate([ranks, np.full((len(ranks), 4 - width), _ABSENT)], axis=1)
        kinds[digits @ _DIGITS] = board_classes(cards) // 4
    return kinds


def street_types(
    hole: npt.NDArray[np.uint8], board: npt.NDArray[np.uint8], width: npt.NDArray[np.intp]
) -> tuple[Index, Index]:
    """(current type, board class) of each row.

    Args:
        hole: ``(n, 2)`` hole cards.
        board: ``(n, 5)`` board cards, those past ``width`` ignored.
        width: ``(n,)`` board cards dealt, each 0, 3, 4 or 5 (the class is 0 without board).
    """
    n = len(width)
    types = np.empty(n, dtype=np.intp)
    classes = np.zeros(n, dtype=np.intp)
    preflop = (width == 0).nonzero()[0]
    if len(preflop):
        first, second = hole[preflop, 0].astype(np.intp), hole[preflop, 1].astype(np.intp)
        types[preflop] = _preflop_types()[52 * first + second]
    rows = (width > 0).nonzero()[0]
    if len(rows) == 0:
        return types, classes
    holes, cards, dealt = hole[rows], board[rows], width[rows]
    absent = np.arange(5) >= dealt[:, np.newaxis]
    board_keys = np.where(absent, 0, _KEYS[cards]).sum(axis=1)
    board_flush = np.where(absent, 0, _FLUSH_KEYS[cards]).sum(axis=1)
    ranks = rank_from_keys(
        KEY_INIT + board_keys + _KEYS[holes].sum(axis=1),
        board_flush + _FLUSH_KEYS[holes].sum(axis=1),
    )
    made = type_by_rank()[ranks].astype(np.intp)
    board_suits = np.where(absent, 0, _SUIT_UNIT[cards]).sum(axis=1)
    # Draws: a busted hand of five or six cards with four to a flush, else to a straight.
    busted = (made <= _BUSTED_ACE) & (dealt < 5)
    if busted.any():
        suits = board_suits + _SUIT_UNIT[holes].sum(axis=1)
        flush = ((suits + _FOUR) & _BIT3) != 0
        mask = np.bitwise_or.reduce(np.where(absent, 0, _RANK_BIT[cards]), axis=1)
        mask |= _RANK_BIT[holes[:, 0]] | _RANK_BIT[holes[:, 1]]
        straight = _straight_draw_by_mask()[mask]
        made[busted & straight] = _STRAIGHT_DRAW
        made[busted & flush] = _FLUSH_DRAW
    types[rows] = made
    texture = np.minimum(((board_suits[:, np.newaxis] >> _BYTES) & 0xFF).max(axis=1), 4) - 1
    digits = np.where(absent[:, :4], _ABSENT, cards[:, :4] >> 2).astype(np.intp)
    kind = _board_kinds()[digits @ _DIGITS]
    river = (dealt == 5).nonzero()[0]
    if len(river):
        board_ranks = rank_from_keys(KEY_INIT + board_keys[river], board_flush[river])
        kind[river] = type_by_rank()[board_ranks]
    classes[rows] = 4 * kind + texture
    return types, classes
