"""P(BPP wins) with every one of its current types, at many tables at once.

``TypeBelief`` follows the hands of N tables as ``agents.bpp.batched_belief.BatchedBelief``
does (the same opponent model, the same restarts and log absorbing), but for each decision
returns the probability BPP would give with each of its 27 current types
(``agents.bpp.hand_types``), not with the cards it holds: what a local best response needs to
know how BPP would play every holding (``agents.bpp.type_kernels`` says why one pass serves
all the types). Its state is its own, so a table's ``BatchedBelief`` is not disturbed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_belief import NetworkTables
from agents.bpp.batched_model import BatchedOpponentModel, log_arrays
from agents.bpp.batched_types import BOARD_WIDTH, board_classes
from agents.bpp.hand_types import NUM_CURRENT_TYPES
from agents.bpp.type_kernels import type_win_probabilities
from agents.jit import readonly
from envs.batched.views import DecisionBatch

__all__ = ["TypeBelief"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
_C = NUM_CURRENT_TYPES
_FINALS = 25
State = tuple[
    Array,
    Array,
    npt.NDArray[np.int8],
    npt.NDArray[np.int16],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
]
"""The per-table state: likelihoods, lambda(F'), street, log entries seen, hand id, in hand."""


class TypeBelief:
    """BPP's P(win) with each current type at N tables (see the module).

    Args:
        tables: The network's tables, as a ``BatchedBelief`` of the same network holds them.
        model: The opponent model of the same tables (read, never changed here).
        num_seats: Seats per table.
    """

    def __init__(self, tables: NetworkTables, model: BatchedOpponentModel, num_seats: int) -> None:
        n, slots = model.num_tables, num_seats - 1
        self.model = model
        self.tables = tables
        self._likelihood = np.ones((n, slots, 4, _C))
        self._lam = np.ones((n, slots, _FINALS))
        self._street = np.full(n, -1, dtype=np.int8)
        self._seen = np.zeros(n, dtype=np.int16)
        self._hand_id = np.zeros(n, dtype=np.int64)
        self._in_hand = np.zeros(n, dtype=bool)

    @property
    def nbytes(self) -> int:
        """Bytes of per-table state."""
        arrays: tuple[npt.NDArray[Any], ...] = self._state()
        return sum(a.nbytes for a in arrays)

    def end_hands(self, tables: Index) -> None:
        """Drop the hands in progress at ``tables``."""
        self._in_hand[tables] = False

    def save(self, tables: Index) -> tuple[npt.NDArray[Any], ...]:
        """A copy of the state of ``tables`` (distinct), for ``restore`` after a hand that did
        not happen was asked about there: the hand that did then goes on from where it
        was, with no need to absorb its log again."""
        arrays: tuple[npt.NDArray[Any], ...] = self._state()
        return tuple(array[tables] for array in arrays)

    def restore(self, tables: Index, saved: tuple[npt.NDArray[Any], ...]) -> None:
        """Put back the state ``save`` copied at ``tables``."""
        arrays: tuple[npt.NDArray[Any], ...] = self._state()
        for array, copy in zip(arrays, saved, strict=True):
            array[tables] = copy

    def _state(self) -> State:
        """The per-table state, in the order ``type_win_probabilities`` takes it."""
        return (
            self._likelihood,
            self._lam,
            self._street,
            self._seen,
            self._hand_id,
            self._in_hand,
        )

    def win_probabilities(self, batch: DecisionBatch) -> Array:
        """``(k, 27)``: P(BPP beats every opponent still in the hand) with each type."""
        model = self.model
        p = np.empty((len(batch.tables), _C))
        boards = board_classes(batch.board, BOARD_WIDTH[batch.street])
        type_win_probabilities(
            readonly(batch.tables, np.intp),
            readonly(batch.seat, np.int8),
            readonly(batch.hand_id, np.int64),
            readonly(batch.street, np.int8),
            readonly(batch.folded, np.bool_),
            *log_arrays(batch.logs()),
            model.bet_sizes(batch.rules),
            boards,
            *self._state(),
            model.table_counts,
            model.learn,
            model.prior_rows,
            model.kernel_weights,
            *self.tables,
            p,
        )
        return p
