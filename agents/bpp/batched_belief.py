"""P(BPP Win) at the decisions of many tables at once: ``agents.bpp.belief.Belief`` in arrays.

Each table keeps what the scalar ``Belief`` keeps for its hand in progress: per opponent slot
(``agents.bpp.batched_model``) the product of that opponent's action likelihoods per round and
type, ``L_k(C)`` (reset to ones when a hand starts), and the current round's vectors
``u(C) = sum_F' P(C | F') lambda(F') (num, den)(F')`` (pre-flop only BPP's type, ``u`` being
that type's row of the network's pre-flop terms); the round it was computed for; how much
of the action log was absorbed; and the hand it belongs to (hand id and hole cards, as the
scalar key). A call classifies BPP's current type and the board at every row
(``agents.bpp.batched_types``) and then does, at each row and in the scalar order (the
compiled loops of ``agents.bpp.batched_kernels``):

1. restart the row's hand if it changed (or if its log shrank);
2. absorb the new log entries, multiplying each opponent action's likelihood row into
   ``L_round`` of its slot, in log order;
3. on entering a round, compute ``u`` for each opponent still in the hand: ``lambda`` is the
   product over earlier rounds ``k`` of ``L_k @ P(C_k | F', board)``, read from the
   network's tables in place (each round's and board's tables in one contiguous block);
4. P(win) ``= (u_num . L_r) / (u_den . L_r)``, multiplied over the opponents still in the
   hand (multi-way: beating each as if independent given the board, ``agents.bpp.belief``).

Products are the scalar ones, sums of products reassociated only where BLAS sums in another
order, so P(win) agrees with ``Belief.win_probability`` to a few units in the last place.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_kernels import round_tables, win_probabilities
from agents.bpp.batched_model import BatchedOpponentModel, log_arrays
from agents.bpp.batched_types import BOARD_WIDTH, street_types
from agents.bpp.hand_types import NUM_CURRENT_TYPES
from agents.bpp.network import Network
from agents.jit import readonly
from envs.batched.views import DecisionBatch

__all__ = ["BatchedBelief", "NetworkTables"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
_C = NUM_CURRENT_TYPES


class NetworkTables(NamedTuple):
    """The network's tables in the order and layout the belief kernels take them."""

    of_round: Array
    """``round_tables(network.current)``: what entering each round on each board reads."""
    ratio_terms: Array
    """``network.ratio_terms``."""
    preflop: Array
    """``network.preflop_terms``."""


class BatchedBelief:
    """BPP's posterior P(win) at N tables, the hand in progress of each kept in arrays.

    Args:
        network: The card-combinatorial tables (shared by all tables).
        model: The opponent model of the same tables.
    """

    def __init__(self, network: Network, model: BatchedOpponentModel) -> None:
        self.network = network
        self.model = model
        self.num_tables = n = model.num_tables
        self.num_seats = 0
        self.tables = NetworkTables(
            readonly(round_tables(network.current), np.float64),
            readonly(network.ratio_terms, np.float64),
            readonly(network.preflop_terms, np.float64),
        )
        """The network's tables as the kernels read them (``TypeBelief`` shares them)."""
        self._likelihood: Array = np.ones((n, 0, 4, _C))
        self._u: Array = np.ones((n, 0, 2, _C))
        self._street = np.full(n, -1, dtype=np.int8)
        self._type = np.zeros(n, dtype=np.int16)  # BPP's pre-flop type, for its u there
        self._seen = np.zeros(n, dtype=np.int16)
        self._hand_id = np.zeros(n, dtype=np.int64)
        self._hole = np.zeros((n, 2), dtype=np.uint8)
        self._in_hand = np.zeros(n, dtype=bool)

    def allocate(self, num_seats: int) -> None:
        """Size the per-opponent arrays for tables of ``num_seats`` seats; no hand running."""
        self.num_seats = num_seats
        slots = num_seats - 1
        self._likelihood = np.ones((self.num_tables, slots, 4, _C))
        self._u = np.ones((self.num_tables, slots, 2, _C))
        self._in_hand[:] = False

    @property
    def nbytes(self) -> int:
        """Bytes of per-table state."""
        arrays = (self._likelihood, self._u, self._street, self._type, self._seen)
        hand = (self._hand_id, self._hole, self._in_hand)
        return sum(a.nbytes for a in (*arrays, *hand))

    def end_hands(self, tables: Index) -> None:
        """Drop the hands in progress at ``tables`` (they ended, or a session starts)."""
        self._in_hand[tables] = False

    def state(self, table: int) -> tuple[Array, Array]:
        """Copies of the hand state at ``table``: ``L_k(C)`` per slot ``(slot, round, type)``
        and the current round's ``u`` per slot ``(slot, 2, type)`` (for tests)."""
        u = self._u[table].copy()
        if self._street[table] == 0:  # pre-flop, the kernels read u from the network's table
            u[:] = self.tables.preflop[self._type[table]]
        return self._likelihood[table].copy(), u

    def win_probability(self, batch: DecisionBatch) -> Array:
        """P(BPP beats every opponent still in the hand) at each row, ties half, ``(k,)``."""
        model = self.model
        p = np.empty(len(batch.tables))
        types, boards = street_types(batch.hole, batch.board, BOARD_WIDTH[batch.street])
        win_probabilities(
            readonly(batch.tables, np.intp),
            readonly(batch.seat, np.int8),
            readonly(batch.hand_id, np.int64),
            readonly(batch.hole, np.uint8),
            readonly(batch.board, np.uint8),
            readonly(batch.street, np.int8),
            readonly(batch.folded, np.bool_),
            *log_arrays(batch.logs()),
            model.bet_sizes(batch.rules),
            types,
            boards,
            self._likelihood,
            self._u,
            self._street,
            self._type,
            self._seen,
            self._hand_id,
            self._hole,
            self._in_hand,
            model.table_counts,
            model.learn,
            model.prior_rows,
            model.kernel_weights,
            *self.tables,
            p,
        )
        return p
