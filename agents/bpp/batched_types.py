"""BPP's current type and board class of many rows at once, through small lookup tables.

``street_types(hole, board)`` equals ``agents.bpp.hand_types.hand_type`` of the hole cards plus
the board and ``board_class`` of the board at every row (the tests check it), at a fraction of
the vectorised ``hand_types`` / ``board_classes`` cost, because the batched belief computes
both for every table entering a round. The work per row is a few gathers:

* two hole cards: one lookup of the ``52 x 52`` pre-flop types;
* five to seven cards: the evaluator's rank gives the made type; the draws of a busted hand
  come from per-suit counts (one byte per suit, summed from per-card units: a count of four
  or more sets bit 3 of its byte once 4 is added) and the OR of the ranks' bits;
* the board: its flush texture from the same suit bytes, and its kind from a table over the
  ranks of three or four cards (``13**3`` and ``13**4`` entries, made once from
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
from envs.evaluator import evaluate

__all__ = ["street_types"]

Index = npt.NDArray[np.intp]

_CARDS = np.arange(52)
_SUIT_UNIT = np.left_shift(1, 8 * (_CARDS & 3)).astype(np.int64)
"""One in the byte of the card's suit."""
_RANK_BIT = np.left_shift(1, _CARDS >> 2).astype(np.int64)
_FOUR = 0x04040404  # adding 4 to each suit byte sets its bit 3 exactly when the count is >= 4
_BIT3 = 0x08080808
_BYTES = np.array([0, 8, 16, 24], dtype=np.int64)


@cache
def _preflop_types() -> npt.NDArray[np.intp]:
    """``hand_type`` of every ordered pair of cards, indexed ``52 * first + second``."""
    pairs = np.stack(np.divmod(np.arange(52 * 52), 52), axis=1).astype(np.uint8)
    return hand_types(pairs).astype(np.intp)


@cache
def _board_kinds(width: int) -> npt.NDArray[np.intp]:
    """The board type (``board_class // 4``) of ``width`` cards by their ranks, base 13."""
    ranks = np.stack(np.unravel_index(np.arange(13**width), (13,) * width), axis=1)
    cards = (4 * ranks + np.arange(width)).astype(np.uint8)  # distinct suits: distinct cards
    kinds: npt.NDArray[np.intp] = (board_classes(cards) // 4).astype(np.intp)
    return kinds


def street_types(hole: npt.NDArray[np.uint8], board: npt.NDArray[np.uint8]) -> tuple[Index, Index]:
    """(current type, board class) of each row: ``hole`` ``(n, 2)``, ``board`` ``(n, w)``.

    ``w`` is 0, 3, 4 or 5, the same at every row; the class is 0 without a board.
    """
    n, width = board.shape
    if width == 0:
        first, second = hole[:, 0].astype(np.intp), hole[:, 1].astype(np.intp)
        return _preflop_types()[52 * first + second], np.zeros(n, dtype=np.intp)
    cards = np.concatenate([hole, board], axis=1)
    types = type_by_rank()[evaluate(cards)].astype(np.intp)
    board_suits = _SUIT_UNIT[board].sum(axis=1)
    if width < 5:  # draws: busted with four to a flush, else four to a straight
        suits = board_suits + _SUIT_UNIT[hole].sum(axis=1)
        busted = types <= HandType.BUSTED_ACE
        flush = ((suits + _FOUR) & _BIT3) != 0
        mask = np.bitwise_or.reduce(_RANK_BIT[cards], axis=1)
        straight = _straight_draw_by_mask()[mask]
        types[busted & straight] = HandType.STRAIGHT_DRAW
        types[busted & flush] = HandType.FLUSH_DRAW
    texture = np.minimum(((board_suits[:, np.newaxis] >> _BYTES) & 0xFF).max(axis=1), 4) - 1
    if width == 5:
        kind = type_by_rank()[evaluate(board)].astype(np.intp)
    else:
        ranks = (board >> 2).astype(np.intp)
        index = ranks[:, 0] * 13 + ranks[:, 1]
        for j in range(2, width):
            index = index * 13 + ranks[:, j]
        kind = _board_kinds(width)[index]
    classes: Index = 4 * kind + texture
    return types, classes
