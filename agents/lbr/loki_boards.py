"""One board's arrays for Loki's all-holdings values, and the values against one field.

``loki_board`` computes, once per board, what ``agents.lbr.loki_kernels.holding_values`` reads
whatever the field (``agents.lbr.loki_board_kernels.board_arrays``: the board's ranks, the
sweep's points with one more card, the card-removal counts); ``board_values`` the HS1 and
PPOTc with which Loki re-weights (Papp 1998 section 7.2.3); ``loki_holding_values`` gives
HS1 and PPOT1 of all 1,326 holdings against a field (Papp 1998 sections 5.2, 5.3 and 7.3) for
the local best response's ``agents.lbr.loki_range.ShadowLoki``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.lbr.loki_board_kernels import BoardArrays, board_arrays
from agents.lbr.loki_kernels import holding_values
from agents.strength.board_kernels import board_subset_ranks
from agents.strength.holdings import NUM_HOLDINGS, PAIR_INDEX
from agents.strength.street import street_tables
from agents.strength.street_constants import kernel_constants
from agents.strength.street_kernels import MOST_PAIRS, MOST_TRIPLES

__all__ = ["LokiBoard", "board_values", "loki_board", "loki_holding_values"]

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class LokiBoard:
    """One board's arrays for ``holding_values`` (``board_arrays``)."""

    m: int
    """Cards off the board (``board_subset_ranks``)."""
    arrays: BoardArrays
    """What ``holding_values`` reads of the board (``board_arrays``)."""


def board_values(board: tuple[int, ...]) -> tuple[Floats, Floats]:
    """HS1 and PPOTc of every holding on ``board`` as Loki's re-weighting reads them: from
    ``street_tables`` with any hand off the board (the values do not depend on it)."""
    spare = [c for c in range(52) if c not in board][:2]
    padded = np.array([[*board, *(0,) * (5 - len(board))]])
    tables = street_tables(np.array([spare]), padded, np.array([len(board)]))
    return tables.hs1[0], tables.ppotc[0]


def loki_board(board: tuple[int, ...]) -> LokiBoard:
    """The arrays of ``board`` (3 to 5 distinct cards) for ``loki_holding_values``."""
    slots = np.empty(52, dtype=np.int64)
    pairs = np.empty(MOST_PAIRS, dtype=np.int16)
    triples = np.empty(MOST_TRIPLES if len(board) < 5 else 1, dtype=np.int16)
    c = kernel_constants()
    m = board_subset_ranks(
        np.array(board, dtype=np.int64), len(board), c.card_keys, c.flush_keys,
        c.rank_keys, c.offs, c.look, c.flush, slots, pairs, triples,
    )  # fmt: skip
    return LokiBoard(m, board_arrays(m, slots, pairs, triples, PAIR_INDEX))


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
