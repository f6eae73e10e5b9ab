"""What Loki's values read of a board alone, kept for every table of a local best response.

``ShadowLoki`` (``agents.lbr.loki_range``) needs two things per board that depend on the board
only, never on a field, a seat or a table: the arrays of the all-holdings call
(``agents.lbr.loki_boards.loki_board``) and the HS1 and PPOTc with which Loki re-weights
(``agents.lbr.loki_boards.board_values``, Papp 1998 section 7.2.3), both computed from the
board's subsets ranked once (``agents.lbr.loki_boards.board_ranks``), kept as a third kind. A
duplicate match deals every board at two tables, one per seat rotation, which the batched
engine plays at the same time, so the batched form's shadows share one ``BoardMemo``: a board
is counted once for both. Since the results are functions of the board, keeping or dropping
one never changes a value; the memo only bounds how many are kept (least recently used
dropped first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from agents.lbr.loki_boards import (
    BoardSubsetRanks,
    LokiBoard,
    board_ranks,
    board_values,
    loki_board,
)

__all__ = ["BoardMemo"]

Floats = npt.NDArray[np.float64]
Board = tuple[int, ...]
T = TypeVar("T")


class BoardMemo:
    """The board arrays, re-weighting values and ranks of the ``capacity`` boards last used.

    Args:
        capacity: Boards kept of each kind (at least 1).

    Raises:
        ValueError: on a capacity below 1.
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"a board memo keeps at least one board, got {capacity}")
        self.capacity = capacity
        # Insertion-ordered: a hit moves its board to the end, the front is dropped first.
        self._arrays: dict[Board, LokiBoard] = {}
        self._values: dict[Board, tuple[Floats, Floats]] = {}
        self._ranks: dict[Board, BoardSubsetRanks] = {}

    def arrays(self, board: Board) -> LokiBoard:
        """``loki_board(board)``, computed once while kept (from the kept ranks)."""
        return self._kept(self._arrays, board, lambda b: loki_board(b, self.ranks(b)))

    def values(self, board: Board) -> tuple[Floats, Floats]:
        """``board_values(board)``, computed once while kept (from the kept ranks; the callers
        only read it; left writeable so that the kernels reading it keep their compiled
        signatures)."""
        return self._kept(self._values, board, lambda b: board_values(b, self.ranks(b)))

    def ranks(self, board: Board) -> BoardSubsetRanks:
        """``board_ranks(board)``, computed once while kept."""
        return self._kept(self._ranks, board, board_ranks)

    def _kept(self, kept: dict[Board, T], board: Board, compute: Callable[[Board], T]) -> T:
        """``compute(board)`` from ``kept`` (moved to the end), or computed and kept (the
        least recently used dropped beyond the capacity)."""
        found = kept.pop(board, None)
        if found is None:
            found = compute(board)
        kept[board] = found
        if len(kept) > self.capacity:
            del kept[next(iter(kept))]
        return found

    def __len__(self) -> int:
        """Boards kept (of the arrays)."""
        return len(self._arrays)
