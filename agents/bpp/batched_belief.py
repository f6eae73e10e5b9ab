"""P(BPP Win) at the decisions of many tables at once: ``agents.bpp.belief.Belief`` in arrays.

Each table keeps what the scalar ``Belief`` keeps for its hand in progress: per opponent slot
(``agents.bpp.batched_model``) the product of that opponent's action likelihoods per round and
type, ``L_k(C)`` (reset to ones when a hand starts), and the current round's vectors
``u(C) = sum_F' P(C | F') lambda(F') (num, den)(F')``; the round it was computed for; how much
of the action log was absorbed; and the hand it belongs to (hand id and hole cards, as the
scalar key). A call then does, for all rows at once and in the scalar order:

1. restart the rows whose hand changed (or whose log shrank);
2. absorb the new log entries, multiplying each opponent action's likelihood row into
   ``L_round`` of its slot, one "wave" per position so that repeated actions of one opponent
   multiply in log order;
3. on entering a round, look up BPP's current type and the board class and compute ``u`` for
   each opponent still in the hand: ``lambda`` is the product over earlier rounds ``k`` of
   ``L_k @ P(C_k | F', board)``, one gathered ``(27, 25)`` matrix per (row, slot, k), all in
   one batched product;
4. P(win) ``= (u_num . L_r) / (u_den . L_r)``, multiplied over the opponents still in the
   hand (multi-way: beating each as if independent given the board, ``agents.bpp.belief``).

Products are the scalar ones reassociated only where BLAS sums in another order, so P(win)
agrees with ``Belief.win_probability`` to a few units in the last place.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_model import (
    BOARD_WIDTH,
    BatchedOpponentModel,
    action_classes,
    opponent_slots,
)
from agents.bpp.batched_types import street_types
from agents.bpp.hand_types import NUM_CURRENT_TYPES, NUM_FINAL_TYPES
from agents.bpp.network import Network
from envs.batched.views import DecisionBatch

__all__ = ["BatchedBelief"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]

_C = NUM_CURRENT_TYPES
_F = NUM_FINAL_TYPES


class BatchedBelief:
    """BPP's posterior P(win) at N tables, the hand in progress of each kept in arrays.

    Args:
        network: The card-combinatorial tables (shared by all tables).
        model: The opponent model of the same tables.
    """

    def __init__(self, network: Network, model: BatchedOpponentModel) -> None:
        self.network = network
        self.model = model
        self.num_tables = model.num_tables
        self.num_seats = 0
        self._boards = network.ratio_terms.shape[1]
        # Flat views of the network: one decision reads rows of these by computed index.
        self._current = network.current.reshape(-1, _C, _F)  # (round r, board, k)
        self._current_t = network.current_t.reshape(-1, _F, _C)  # (round r, board, k)
        self._terms = network.ratio_terms.reshape(-1, 2, _F)  # (round, board, BPP's type)
        self._preflop = network.preflop_terms
        n = self.num_tables
        self._likelihood: Array = np.ones((0, _C))
        self._u: Array = np.ones((0, 2, _C))
        self._street = np.full(n, -1, dtype=np.int8)
        self._seen = np.zeros(n, dtype=np.int16)
        self._hand_id = np.zeros(n, dtype=np.int64)
        self._hole = np.zeros((n, 2), dtype=np.uint8)
        self._in_hand = np.zeros(n, dtype=bool)

    def allocate(self, num_seats: int) -> None:
        """Size the per-opponent arrays for tables of ``num_seats`` seats; no hand running."""
        self.num_seats = num_seats
        slots = self.num_tables * (num_seats - 1)
        self._likelihood = np.ones((slots * 4, _C))
        self._u = np.ones((slots, 2, _C))
        self._in_hand[:] = False

    @property
    def nbytes(self) -> int:
        """Bytes of per-table state."""
        arrays = (self._likelihood, self._u, self._street, self._seen, self._hand_id)
        return sum(a.nbytes for a in arrays) + self._hole.nbytes + self._in_hand.nbytes

    def end_hands(self, tables: Index) -> None:
        """Drop the hands in progress at ``tables`` (they ended, or a session starts)."""
        self._in_hand[tables] = False

    def state(self, table: int) -> tuple[Array, Array]:
        """Copies of the hand state at ``table``: ``L_k(C)`` per slot ``(slot, round, type)``
        and the current round's ``u`` per slot ``(slot, 2, type)`` (for tests)."""
        slots = self.num_seats - 1
        likelihood = self._likelihood.reshape(self.num_tables, slots, 4, _C)[table].copy()
        u = self._u.reshape(self.num_tables, slots, 2, _C)[table].copy()
        return likelihood, u

    def win_probability(self, batch: DecisionBatch) -> Array:
        """P(BPP beats every opponent still in the hand) at each row, ties half, ``(k,)``."""
        tables = batch.tables
        log_len = batch.log_len.astype(np.intp)
        seen = self._seen[tables].astype(np.intp)
        new = (
            ~self._in_hand[tables]
            | (self._hand_id[tables] != batch.hand_id)
            | (self._hole[tables] != batch.hole).any(axis=1)
            | (log_len < seen)
        )
        if new.any():
            self._start(batch, new.nonzero()[0])
            seen[new] = 0
        if len(log_len) and int((log_len - seen).max()) > 0:
            self._absorb(batch, seen, log_len)
            self._seen[tables] = batch.log_len
        entering = (self._street[tables] != batch.street).nonzero()[0]
        if len(entering):
            self._enter_round(batch, entering)
            self._street[tables[entering]] = batch.street[entering]
        return self._compute(batch)

    def _start(self, batch: DecisionBatch, rows: Index) -> None:
        tables = batch.tables[rows]
        self._likelihood.reshape(self.num_tables, -1)[tables] = 1.0
        self._seen[tables] = 0
        self._street[tables] = -1
        self._hand_id[tables] = batch.hand_id[rows]
        self._hole[tables] = batch.hole[rows]
        self._in_hand[tables] = True

    def _absorb(self, batch: DecisionBatch, seen: Index, log_len: Index) -> None:
        """Multiply each opponent's new actions into its round's likelihood, in log order."""
        width = batch.log_seat.shape[1]
        gap = log_len - seen
        rows = np.repeat(np.arange(len(gap)), np.maximum(gap, 0))  # one per new log entry
        if len(rows) == 0:
            return
        first = np.cumsum(gap) - gap
        position = np.arange(len(rows)) - first[rows]  # the entry's rank among its row's
        flat = rows * width + seen[rows] + position
        seat = batch.log_seat.reshape(-1)[flat]
        street = batch.log_street.reshape(-1)[flat].astype(np.intp)
        classes = action_classes(
            batch.log_action.reshape(-1)[flat],
            batch.log_amount.reshape(-1)[flat],
            street,
            batch.rules,
        )
        keep = ((seat != batch.seat[rows]) & (classes >= 0)).nonzero()[0]
        if len(keep) == 0:
            return
        rows, position, street, classes = rows[keep], position[keep], street[keep], classes[keep]
        tables = batch.tables[rows]
        slots = opponent_slots(seat[keep], batch.seat[rows], self.num_seats)
        factors = self.model.rows(tables, slots, street, classes)
        target = (tables * (self.num_seats - 1) + slots) * 4 + street
        # Rows are distinct tables, so the entries of one rank never repeat a target; the
        # ranks go in log order, as the scalar belief multiplies. Called at each decision, an
        # opponent acts at most once per round between two of them: one product suffices.
        if self.num_seats == 2:  # one opponent: its entries of a round are adjacent
            repeated = bool((target[1:] == target[:-1]).any())
        else:
            repeated = len(np.unique(target)) < len(target)
        if not repeated:
            self._likelihood[target] *= factors
            return
        for rank in range(int(position.max()) + 1):
            at = position == rank
            self._likelihood[target[at]] *= factors[at]

    def _enter_round(self, batch: DecisionBatch, rows: Index) -> None:
        """Compute ``u`` of the round just entered at ``rows`` (module docstring, step 3)."""
        tables = batch.tables[rows]
        street = batch.street[rows].astype(np.intp)
        mine, beta = street_types(batch.hole[rows], batch.board[rows], BOARD_WIDTH[street])
        slots = self.num_seats - 1
        u = self._u.reshape(self.num_tables, slots, 2, _C)
        preflop = (street == 0).nonzero()[0]
        if len(preflop):
            u[tables[preflop]] = self._preflop[mine[preflop]][:, np.newaxis]
        post = (street > 0).nonzero()[0]
        if len(post) == 0:
            return
        tables, street, mine, beta = tables[post], street[post], mine[post], beta[post]
        key = street * self._boards + beta
        if slots == 1:  # heads-up: the opponent has not folded, BPP being to act
            pair_rows, pair_slots = np.arange(len(post)), np.zeros(len(post), dtype=np.intp)
        else:
            seats = (batch.seat[rows[post], np.newaxis] + 1 + np.arange(slots)) % self.num_seats
            live = ~np.take_along_axis(batch.folded[rows[post]], seats, axis=1)
            pair_rows, pair_slots = np.nonzero(live)
        # lambda(F') of each (row, slot): the product over rounds k < r of L_k @ P(C_k | F').
        rounds = street[pair_rows]
        first = np.cumsum(rounds) - rounds
        owner = np.repeat(np.arange(len(pair_rows)), rounds)
        k = np.arange(len(owner)) - first[owner]
        slot_row = tables[pair_rows] * slots + pair_slots
        likelihood = self._likelihood[slot_row[owner] * 4 + k]
        current = self._current[key[pair_rows][owner] * 4 + k]
        factors = np.matmul(likelihood[:, np.newaxis, :], current)[:, 0, :]
        lam = np.multiply.reduceat(factors, first, axis=0)
        if slots > 1:
            key, street, mine = key[pair_rows], street[pair_rows], mine[pair_rows]
        terms = self._terms[key * _C + mine]
        own = self._current_t[key * 4 + street]
        self._u[slot_row] = np.matmul(lam[:, np.newaxis, :] * terms, own)

    def _compute(self, batch: DecisionBatch) -> Array:
        tables = batch.tables
        street = batch.street.astype(np.intp)
        slots = self.num_seats - 1
        if slots == 1:
            return self._ratio(tables, street)
        p = np.ones(len(tables))
        rows = np.arange(len(tables))
        for o in range(slots):
            seat = (batch.seat.astype(np.intp) + 1 + o) % self.num_seats
            live = (~batch.folded[rows, seat]).nonzero()[0]
            if len(live):
                p[live] *= self._ratio(tables[live] * slots + o, street[live])
        return p

    def _ratio(self, slot_rows: Index, street: Index) -> Array:
        """``num / den`` of one opponent slot per row (``slot_rows`` index the slot arrays)."""
        likelihood = self._likelihood[slot_rows * 4 + street]
        terms = np.einsum("njc,nc->nj", self._u[slot_rows], likelihood)
        ratio: Array = terms[:, 0] / np.maximum(terms[:, 1], 1e-300)
        return ratio
