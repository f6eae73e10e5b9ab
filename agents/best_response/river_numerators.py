"""Exact river showdown equity of every holding on every turn-river completion of a flop.

The vectorised route, which the tests hold the compiled one
(``agents.best_response.board_numerators``) to, and the label layout both share.

For a flop, the other ``m`` deck cards (49 in the full deck) are relabelled ``0..m-1``; a pair
of labels is either a holding or a turn-river board, both in ``numpy.triu_indices(m, 1)``
order (1,176 pairs in the full deck). On each board every live holding (1,081) is ranked in
one batched evaluator call, and its showdown against the uniform range of the opponent
holdings that share no card with it (990) is counted by sorting ranks and inclusion-exclusion
over the shared cards, O(n log n) per board (Johanson, Waugh, Bowling and Zinkevich,
"Accelerating best response calculation in large extensive games", IJCAI 2011, on fast
terminal evaluation):

    wins(x, y) = #below - #below holding x - #below holding y
    ties(x, y) = #equal - #equal holding x - #equal holding y + 1

where "below" and "equal" compare ranks with that of holding ``(x, y)`` on the board, and the
``+ 1`` puts back the holding itself, removed twice. The result is the integer
**numerator** ``2 wins + ties``: equity is ``numerator / (2 * opponents)``, on a fixed grid, so
river values can be tabulated once per grid point.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from agents.best_response.deck import Deck
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, rank_from_keys

__all__ = ["FlopLayout", "flop_layout", "less_and_equal", "river_numerators"]

IntArray = npt.NDArray[np.int64]
Int16Array = npt.NDArray[np.int16]

_KEYS = CARD_KEYS.view(np.int64)
_FLUSH = FLUSH_KEYS.view(np.int64)
_ABOVE_ALL_RANKS = 8191
"""Fills the rank matrix where there is no holding: never below or equal to a real rank."""


@dataclass(frozen=True, eq=False)
class FlopLayout:
    """Index arrays for the cards left after a flop, labelled ``0..m-1`` (see the module)."""

    m: int
    pairs: IntArray
    """``(P, 2)`` label pairs: holdings and turn-river boards alike."""
    pair_index: IntArray
    """``(m, m)`` pair id of two labels; ``P`` (one past the last pair) on the diagonal."""
    live: IntArray
    """``(P, L)`` for each board, the holdings that share no card with it."""
    first_cell: IntArray
    """``(P, L)`` flat index of ``(board, x, y)`` in a ``(P, m, m)`` array, per live holding."""
    second_cell: IntArray
    """The same for ``(board, y, x)``."""
    turn_ok: npt.NDArray[np.bool_]
    """``(m, P)``: the turn card (first axis) is not in the holding (second axis)."""


@cache
def flop_layout(m: int) -> FlopLayout:
    """The index arrays for ``m`` cards left after the flop (cached)."""
    x, y = np.triu_indices(m, k=1)
    count = len(x)
    pair_index = np.full((m, m), count, dtype=np.int64)
    pair_index[x, y] = pair_index[y, x] = np.arange(count)
    clash = (x[:, None] == x) | (x[:, None] == y) | (y[:, None] == x) | (y[:, None] == y)
    live = np.stack([np.flatnonzero(~row) for row in clash])
    boards = np.arange(count)[:, None] * m * m
    labels = np.arange(m)[:, None]
    layout = FlopLayout(
        m=m,
        pairs=np.stack([x, y], axis=1),
        pair_index=pair_index,
        live=live,
        first_cell=boards + x[live] * m + y[live],
        second_cell=boards + y[live] * m + x[live],
        turn_ok=(labels != x) & (labels != y),
    )
    for array in (layout.pairs, layout.pair_index, layout.live, layout.turn_ok):
        array.flags.writeable = False
    return layout


def less_and_equal(values: Int16Array, bits: int) -> tuple[Int16Array, Int16Array]:
    """For each entry, how many entries of its row (last axis) are smaller, and how many equal.

    Args:
        values: Non-negative ``int16`` array, rows along the last axis.
        bits: Bits that hold a column index (the row length must be below ``2**bits``).

    Returns:
        Two ``int16`` arrays of the same shape; "equal" counts the entry itself.
    """
    width = values.shape[-1]
    if width >= 1 << bits or int(values.max(initial=0)) >= 1 << (31 - bits):
        raise ValueError("rows too long or values too large to pack")
    # Sorting value and column packed in one int32 is several times faster than argsort.
    packed = (values.astype(np.int32) << bits) | np.arange(width, dtype=np.int32)
    packed.sort(axis=-1)
    ordered = packed >> bits
    column = packed & ((1 << bits) - 1)
    position = np.arange(width, dtype=np.int16)
    starts = np.ones(ordered.shape, dtype=bool)
    starts[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
    first = np.maximum.accumulate(np.where(starts, position, np.int16(0)), axis=-1)
    ends = np.ones(ordered.shape, dtype=bool)
    ends[..., :-1] = starts[..., 1:]
    last_reversed = np.where(ends, position, np.int16(width))[..., ::-1]
    last = np.minimum.accumulate(last_reversed, axis=-1)[..., ::-1]
    # Scatter back to the original columns through flat indices (put_along_axis is slower).
    target = (
        column + np.arange(0, values.size, width, dtype=np.int32).reshape((*column.shape[:-1], 1))
    ).reshape(-1)
    less = np.empty(values.size, dtype=np.int16)
    equal = np.empty(values.size, dtype=np.int16)
    less[target] = first.reshape(-1)
    equal[target] = (last - first + 1).reshape(-1)
    return less.reshape(values.shape), equal.reshape(values.shape)


def river_numerators(deck: Deck, flop: tuple[int, int, int]) -> tuple[IntArray, Int16Array]:
    """Showdown numerators ``2 wins + ties`` of every live holding on every board of a flop.

    Returns:
        The remaining cards (label -> card id) and an ``int16`` array ``(P, L)``: entry
        ``[b, j]`` is holding ``live[b, j]`` on board ``b`` (see ``FlopLayout``).
    """
    remaining = deck.remaining(flop)
    layout = flop_layout(len(remaining))
    x, y = layout.pairs[:, 0], layout.pairs[:, 1]
    pair_keys = _KEYS[remaining[x]] + _KEYS[remaining[y]]
    pair_flush = _FLUSH[remaining[x]] | _FLUSH[remaining[y]]
    flop_key = KEY_INIT + int(_KEYS[list(flop)].sum())
    flop_flush = int(np.bitwise_or.reduce(_FLUSH[list(flop)]))
    live = layout.live
    ranks = rank_from_keys(
        flop_key + pair_keys[:, None] + pair_keys[live],
        flop_flush | pair_flush[:, None] | pair_flush[live],
    ).astype(np.int16)
    count = len(layout.pairs)
    # Rank of holding (x, y) on board b at [b, x, y], for the per-card counts.
    by_holding = np.full((count, count + 1), _ABOVE_ALL_RANKS, dtype=np.int16)
    np.put_along_axis(by_holding, live, ranks, axis=1)
    matrix = by_holding[:, layout.pair_index]
    card_less, card_equal = (a.reshape(-1) for a in less_and_equal(matrix, bits=6))
    less, equal = less_and_equal(ranks, bits=11)
    first, second = layout.first_cell, layout.second_cell
    wins = less - card_less[first] - card_less[second]
    ties = equal - card_equal[first] - card_equal[second] + 1
    return remaining, (2 * wins + ties).astype(np.int16)
