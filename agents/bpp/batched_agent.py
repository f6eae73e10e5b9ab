"""The batched decision-network BPP (``bpp``, ``bpp-det``): ``BPPAgent`` at N tables at once.

``BatchedBayesianPlayer`` holds what both batched BPPs share: the tables' seats, the opponent
model and the belief (``agents.bpp.batched_model``, ``agents.bpp.batched_belief``), and the
checks of each batch. ``BatchedBPP`` adds Carlton's decision network and strategies
(``agents.bpp.batched_decision``) with one ``BPPParams`` per table. At every decision it plays
the probabilities ``BPPAgent.decide(view).probabilities`` of its scalar twin with the same
parameters and the same history at that table; it never draws (the runner does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_belief import BatchedBelief
from agents.bpp.batched_decision import bpp_probabilities
from agents.bpp.batched_model import BatchedOpponentModel
from agents.bpp.batched_params import BPPParamArrays, check_num_tables
from agents.bpp.decision import Strategy
from agents.bpp.network import Network, shipped_network
from agents.bpp.opponent import generic_prior
from agents.bpp.params import BPPParams
from agents.bpp.type_belief import TypeBelief
from agents.jit import kernel, readonly
from envs.batched.checks import check_seats
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.rules import Rules

__all__ = ["BatchedBPP", "BatchedBPPDecision", "BatchedBayesianPlayer", "Decided"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
Seats = npt.NDArray[np.int8]


class Decided(Protocol):
    """What a batched BPP's strategy returns: at least the probabilities played."""

    @property
    def probabilities(self) -> Array:
        """``(k, 3)``: ``(P(fold), P(check/call), P(bet/raise))``."""
        ...


class BatchedBayesianPlayer:
    """What both batched BPPs share (see the module docstring).

    Args:
        num_tables: N, the tables this object serves.
        prior_weight: The opponent prior's pseudo-observations at each table, ``(N,)``.
        learn: Learn each opponent's P(action | type) from showdowns, per table.
        network: The tables of the Bayesian network (the shipped ones by default).
    """

    name = "bpp"
    known_policy = True
    """The returned probabilities are the policy played."""
    hand_uniform = False

    def __init__(
        self, num_tables: int, *, prior_weight: Array, learn: bool, network: Network | None
    ) -> None:
        net = network if network is not None else shipped_network()
        self.num_tables = num_tables
        self.learn = learn
        self.memoryless = not learn
        """Without learning, nothing carries over from one hand to the next at a table."""
        self.network = net
        self.model = BatchedOpponentModel(generic_prior(net.strength), prior_weight, learn=learn)
        self.belief = BatchedBelief(net, self.model)
        self.seats = np.full(num_tables, -1, dtype=np.int8)
        """The agent's seat at each table, -1 until ``start_tables``."""
        self.num_seats = 0
        """Seats per table, fixed by the first batch (0 before)."""
        self._row_of = np.full(num_tables, -1, dtype=np.intp)  # scratch: duplicate check
        self._types: TypeBelief | None = None  # made when first asked (type_probabilities)

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Fresh memory at ``tables`` (new sessions), this agent sitting in ``seats[i]``.

        Raises:
            ValueError: on a table outside ``0..N-1`` or a negative seat, a seat outside the
                table once the number of seats is known, or arrays of different lengths.
        """
        index, seat = check_seats(tables, seats, self.num_tables, self.num_seats)
        self.seats[index] = seat
        if self.num_seats:
            self.model.forget(index)
            self.belief.end_hands(index)
        if self._types is not None:
            self._types.end_hands(index)

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Hands ended at the batch's tables: learn from the showdowns, drop the hands."""
        self._check(batch.rules, batch.tables, batch.seat)
        self.model.observe(batch)
        self.belief.end_hands(batch.tables)
        if self._types is not None:
            self._types.end_hands(batch.tables)

    def win_probability(self, batch: DecisionBatch) -> Array:
        """P(BPP wins at the showdown) at each row, as the scalar ``Belief`` computes it."""
        self._check(batch.rules, batch.tables, batch.seat)
        return self.belief.win_probability(batch)

    def type_probabilities(self, batch: DecisionBatch, *, hypothetical: bool = False) -> Array:
        """``(k, 27, 3)``: the probabilities this BPP would play at each row with each of its
        current types (``agents.bpp.hand_types``) in place of its cards, which are ignored.
        Each table follows its hand in a ``TypeBelief`` of its own, so a table serves either
        this method or ``probabilities``. ``hypothetical``: the rows show hands that did not
        happen (an action only considered, last in the log); each table's hand then goes on
        from where it was before this call."""
        self._check(batch.rules, batch.tables, batch.seat)
        if self._types is None:
            self._types = TypeBelief(self.belief.tables, self.model, self.num_seats)
        types = self._types
        if not hypothetical:
            return self.play(types.win_probabilities(batch), batch)
        tables = batch.tables.astype(np.intp)
        saved = types.save(tables)
        try:
            return self.play(types.win_probabilities(batch), batch)
        finally:
            types.restore(tables, saved)

    def end_hands(self, tables: Index) -> None:
        """Forget the hands in progress at ``tables`` (they will be asked about afresh)."""
        self.belief.end_hands(tables)
        if self._types is not None:
            self._types.end_hands(tables)

    def play(self, p_win: Array, batch: DecisionBatch) -> Array:
        """The probabilities played at each row with P(win) ``p_win``: ``(k, 3)`` for ``p_win``
        ``(k,)``, ``(k, m, 3)`` for ``(k, m)`` (m hands at each row)."""
        per = p_win.shape[1] if p_win.ndim == 2 else 1
        played = self._decide(p_win.reshape(-1), batch, per).probabilities
        return played.reshape(*p_win.shape, 3)

    def _decide(self, p: Array, batch: DecisionBatch, per: int) -> Decided:
        """The strategy's quantities with each P(win) of ``p``, ``per`` of them per row."""
        raise NotImplementedError

    @property
    def nbytes(self) -> int:
        """Bytes of all per-table state (memory, parameters, seats)."""
        own = self.model.nbytes + self.belief.nbytes + self.seats.nbytes + self._row_of.nbytes
        return own + (0 if self._types is None else self._types.nbytes)

    def _check(self, rules: Rules, tables: Index, seat: npt.NDArray[np.int8]) -> None:
        """Size the memory on the first batch; reject batches this object cannot serve."""
        if self.num_seats == 0:
            if (self.seats >= rules.num_seats).any():
                raise ValueError(f"a started seat lies outside a {rules.num_seats}-seat table")
            self.num_seats = rules.num_seats
            self.model.allocate(rules.num_seats)
            self.belief.allocate(rules.num_seats)
        elif rules.num_seats != self.num_seats:
            raise ValueError(
                f"{self.name}: a batch of {rules.num_seats}-seat tables, but this object plays "
                f"{self.num_seats}-seat tables"
            )
        problem, row = _table_problem(
            readonly(tables, np.intp), readonly(seat, np.int8), self.seats, self._row_of
        )
        if problem == _OUTSIDE:
            raise ValueError(f"{self.name}: tables must lie in 0..{self.num_tables - 1}")
        if problem == _TWICE:
            raise ValueError(f"{self.name}: a table appears twice in one batch")
        if problem == _WRONG_SEAT:
            table = int(tables[row])
            raise ValueError(
                f"{self.name}: at table {table} the batch's seat is {int(seat[row])} but "
                f"this agent sits in seat {int(self.seats[table])} (start_tables first)"
            )


_OUTSIDE, _TWICE, _WRONG_SEAT = 1, 2, 3


@kernel
def _table_problem(tables: Index, seat: Seats, seats: Seats, row_of: Index) -> tuple[int, int]:
    """What is wrong with a batch's tables, and at which row: ``(0, -1)`` when nothing,
    ``_OUTSIDE`` a table outside ``0..N-1``, ``_TWICE`` a table twice, ``_WRONG_SEAT`` a seat
    other than the agent's at that table (``seats`` per table; ``row_of`` is scratch)."""
    for i in range(len(tables)):
        if tables[i] < 0 or tables[i] >= len(seats):
            return _OUTSIDE, i
        row_of[tables[i]] = i
    for i in range(len(tables)):
        if row_of[tables[i]] != i:
            return _TWICE, i
    for i in range(len(tables)):
        if seats[tables[i]] != seat[i]:
            return _WRONG_SEAT, i
    return 0, -1


class BatchedBPPDecision(NamedTuple):
    """The decision network's quantities at each row (chips; ``EW(fold)`` is 0)."""

    p_win: Array
    ew_bet: Array
    """Expected winnings of betting or raising (computed even when the cap forbids it)."""
    ew_pass: Array
    probabilities: Array
    """``(k, 3)``: ``(P(fold), P(check/call), P(bet/raise))`` played, bluff included."""


class BatchedBPP(BatchedBayesianPlayer):
    """``BPPAgent`` (registry ``bpp`` / ``bpp-det``) at N tables, parameters per table.

    Args:
        num_tables: N.
        params: One ``BPPParams`` for every table, or a sequence of N (the defaults if None).
        strategy: ``Strategy.MIXED`` (``bpp``) or ``Strategy.DETERMINISTIC`` (``bpp-det``).
        learn: ``False`` keeps every opponent at the generic prior.
        network: As for ``BPPAgent``.
    """

    def __init__(
        self,
        num_tables: int,
        params: BPPParams | Sequence[BPPParams] | None = None,
        *,
        strategy: Strategy = Strategy.MIXED,
        learn: bool = True,
        network: Network | None = None,
    ) -> None:
        check_num_tables(num_tables)
        if not isinstance(strategy, Strategy):
            raise TypeError(f"strategy must be a Strategy, got {strategy!r}")
        self.params = BPPParamArrays.of(params, num_tables)
        super().__init__(
            num_tables, prior_weight=self.params.prior_weight, learn=learn, network=network
        )
        self.strategy = strategy
        base = "bpp" if strategy is Strategy.MIXED else "bpp-det"
        self.name = base if learn else f"{base}-nolearn"

    @property
    def nbytes(self) -> int:
        """Bytes of all per-table state, parameters included (the prior weights, which the
        opponent model shares, once)."""
        return super().nbytes + self.params.nbytes - self.params.prior_weight.nbytes

    def probabilities(self, batch: DecisionBatch) -> Array:
        """``(k, 3)`` action probabilities (0 on illegal actions, rows summing to one)."""
        return self.decide(batch).probabilities

    def decide(self, batch: DecisionBatch) -> BatchedBPPDecision:
        """P(win), the expected winnings and the probabilities played at each row."""
        return self._decide(self.win_probability(batch), batch, 1)

    def _decide(self, p: Array, batch: DecisionBatch, per: int) -> BatchedBPPDecision:
        ew_bet, ew_pass = np.empty(len(p)), np.empty(len(p))
        probabilities = np.empty((len(p), 3))
        params = self.params
        bpp_probabilities(
            p,
            per,
            readonly(batch.tables, np.intp),
            readonly(batch.seat, np.int8),
            readonly(batch.street, np.int8),
            readonly(batch.pot, np.int64),
            readonly(batch.to_call, np.int64),
            readonly(batch.bets, np.int64),
            readonly(batch.folded, np.bool_),
            readonly(batch.legal, np.bool_),
            self.model.bet_sizes(batch.rules),
            params.alpha,
            params.alpha_prime,
            params.fp,
            params.cp,
            params.bluff_rate,
            self.strategy is Strategy.DETERMINISTIC,
            ew_bet,
            ew_pass,
            probabilities,
        )
        return BatchedBPPDecision(p, ew_bet, ew_pass, probabilities)
