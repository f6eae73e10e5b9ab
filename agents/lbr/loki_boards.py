"""One board's arrays for Loki's all-holdings values, and the values against one field.

``board_ranks`` ranks a board's subsets once (no own hand); from them ``loki_board`` computes
what ``agents.lbr.loki_kernels.holding_values`` reads whatever the field
(``agents.lbr.loki_board_kernels.board_arrays``: the board's ranks, the sweep's points with
one more card, the card-removal counts) and ``board_values`` the HS1 and PPOTc with which Loki
re-weights (Papp 1998 section 7.2.3); ``loki_holding_values`` gives
HS1 and PPOT1 of all 1,326 holdings against a field (Papp 1998 sections 5.2, 5.3 and 7.3) for
the local best response's ``agents.lbr.loki_range.ShadowLoki``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.lbr.loki_board_kernels import BoardArrays, board_arrays
from agents.lbr.loki_kernels import holding_values
from agents.strength.holdings import NUM_HOLDINGS, PAIR_INDEX
from agents.strength.ppotc_kernels import ppotc_rows
from agents.strength.street_constants import kernel_constants
from agents.strength.street_kernels import MOST_PAIRS, MOST_TRIPLES
from agents.strength.strength_all_kernels import strength_all_rows
from agents.strength.subset_kernels import board_subset_ranks

__all__ = [
    "BoardSubsetRanks",
    "LokiBoard",
    "board_ranks",
    "board_values",
    "loki_board",
    "loki_holding_values",
]

Floats = npt.NDArray[np.float64]
Int16s = npt.NDArray[np.int16]
Int32s = npt.NDArray[np.int32]
Int64s = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BoardSubsetRanks:
    """One board's subsets ranked once (``board_subset_ranks``), for both ``loki_board`` and
    ``board_values``, in the shapes ``street_tables``' kernels take a row."""

    m: int
    """Cards off the board."""
    slots: Int64s
    """``slots[:m]``: the off-board cards, ascending."""
    pairs: Int16s
    """``(1, MOST_PAIRS)``: the ranks of the slot pairs with the board (colex)."""
    triples: Int16s
    """The ranks of the slot triples with the board (colex; one unread cell on the river)."""
    rare: Int32s
    """``(1, r)``: the slot triples ranked a straight or better, as ``street_rows`` packs
    and orders them (``r`` at least 1; ``rare_count`` of them are read)."""
    rare_count: Int64s
    """``(1,)``: how many of ``rare`` are read (0 on the river)."""
    board: Int64s
    """``(1, 5)``: the board, padded with zeros (read-only, as ``checked_rows`` gives it)."""
    length: Int64s
    """``(1,)``: the board's length (read-only)."""


@dataclass(frozen=True)
class LokiBoard:
    """One board's arrays for ``holding_values`` (``board_arrays``)."""

    m: int
    """Cards off the board (``board_subset_ranks``)."""
    arrays: BoardArrays
    """What ``holding_values`` reads of the board (``board_arrays``)."""


def board_ranks(board: tuple[int, ...]) -> BoardSubsetRanks:
    """The ranks of the subsets of ``board`` (3 to 5 distinct cards) with no own hand."""
    slots = np.empty(52, dtype=np.int64)
    pairs = np.empty((1, MOST_PAIRS), dtype=np.int16)
    triples = np.empty(MOST_TRIPLES if len(board) < 5 else 1, dtype=np.int16)
    rare = np.empty(MOST_TRIPLES, dtype=np.int32)
    c = kernel_constants()
    m, count = board_subset_ranks(
        np.array(board, dtype=np.int64), len(board), c.card_keys, c.flush_keys,
        c.rank_keys, c.offs, c.look, c.flush, slots, pairs[0], triples, rare,
    )  # fmt: skip
    return BoardSubsetRanks(
        m,
        slots,
        pairs,
        triples,
        rare[np.newaxis, : max(count, 1)].copy(),
        np.array([count], dtype=np.int64),
        readonly([[*board, *(0,) * (5 - len(board))]], np.int64),
        readonly([len(board)], np.int64),
    )


def board_values(
    board: tuple[int, ...], ranks: BoardSubsetRanks | None = None
) -> tuple[Floats, Floats]:
    """HS1 and PPOTc of every holding on ``board`` as Loki's re-weighting reads them:
    ``street_tables``' HS1 and PPOTc kernels on the board's ranks (``ranks``, by default
    computed here). The values do not depend on an own hand, so no hand is ranked: the same
    numbers as ``street_tables`` with any hand off the board, to the last bit (the tests
    check it)."""
    r = ranks if ranks is not None else board_ranks(board)
    c = kernel_constants()
    hs1, ppotc = np.empty((1, NUM_HOLDINGS)), np.empty((1, NUM_HOLDINGS))
    row = np.zeros(1, dtype=np.int64)
    strength_all_rows(r.board, r.length, r.pairs, c.pair_index, hs1, row)
    ppotc_rows(
        r.board, r.length, r.pairs, r.rare, r.rare_count, c.pair_index, c.categories,
        c.next_floor, c.flop_weights, c.turn_weights, ppotc, row,
    )  # fmt: skip
    return hs1[0], ppotc[0]


def loki_board(board: tuple[int, ...], ranks: BoardSubsetRanks | None = None) -> LokiBoard:
    """The arrays of ``board`` (3 to 5 distinct cards) for ``loki_holding_values``, from its
    ranks (``ranks``, by default computed here)."""
    r = ranks if ranks is not None else board_ranks(board)
    return LokiBoard(r.m, board_arrays(r.m, r.slots, r.pairs[0], r.triples, PAIR_INDEX))


def loki_holding_values(
    board: tuple[int, ...], field: Floats, *, ranks: LokiBoard | None = None
) -> tuple[Floats, Floats]:
    """``(HS1, PPOT1)`` of every holding (NaN where it meets the board, PPOT1 0 on the
    river) against the field weights ``field`` (1,326 non-negative values).

    Raises:
        ValueError: on a board of other than 3 to 5 distinct cards, or a bad field.
    """
    if not 3 <= len(board) <= 5 or len(set(board)) != len(board):
        raise ValueError(f"board must be 3 to 5 distinct cards, got {board!r}")
    weights = np.ascontiguousarray(field, dtype=np.float64)
    if weights.shape != (NUM_HOLDINGS,) or not np.all(np.isfinite(weights) & (weights >= 0)):
        raise ValueError("field must be 1,326 finite non-negative weights")
    b = ranks if ranks is not None else loki_board(board)
    hs1, ppot = np.empty(NUM_HOLDINGS), np.empty(NUM_HOLDINGS)
    holding_values(b.m, *b.arrays, weights, hs1, ppot)
    return hs1, ppot
