"""The batched Loki and Loki-2 (``loki``, ``loki-tight``, ``loki-moderate``, ``loki-som``,
``loki2``): ``agents.loki.Loki`` at N tables at once, one ``LokiParams`` per table.

At every decision it returns the probabilities ``Loki.action_probabilities(view)`` of its
scalar twin with the same parameters and the same history at that table (it never draws: the
runner does). A call reads each row's action log in place (``DecisionBatch.logs()``) and
replays only the entries the table has not processed (``agents.loki.batched_history``): the
agent's own actions move Loki-2's draw and the semi-bluff, the opponents' are counted (specific
modelling) and re-weight their tables, round by round: before a round's re-weightings and
decisions a table gets the own hand's values of that round (``agents.strength.street``), once per
table and round, after the pending re-weighting of the round before is folded in. Then the
pre-flop rows decide by income rate (``agents.loki.batched_preflop``) and the post-flop rows on
HSn and PPOT against the field of their opponents (``agents.loki.weighting``,
``agents.loki.triples``). The per-holding arithmetic is the scalar Loki's own compiled loops, so
the two agree to the last bit. The Python work of a call does not grow with the tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.loki.batched_history import Events, Learned, blend, learn_events, new_events
from agents.loki.batched_loki_params import LokiParamArrays, check_num_tables
from agents.loki.batched_preflop import preflop_decisions
from agents.loki.batched_rounds import income_rate_tables, postflop, reweight
from agents.loki.batched_state import LokiTables
from agents.loki.params import LokiParams, Modelling
from agents.loki.preflop import Group, PreflopStrategy, PreflopTable, load_preflop_table
from agents.loki.triples import absorb_own
from agents.loki.weighting import threshold_weights
from agents.strength.holdings import PAIR_INDEX
from agents.strength.income_rate import load_income_rates
from envs.batched.checks import check_batch_tables, check_seats
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.rules import Rules, Street

__all__ = ["BatchedLoki", "table_bytes"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
Ints = npt.NDArray[np.int64]


class BatchedLoki:
    """``Loki`` / ``Loki2`` at N tables, parameters per table (see the module docstring).

    Args:
        num_tables: N.
        params: One ``LokiParams`` for every table, or a sequence of N (``LokiParams()``,
            Loki-1, if None).
        name: The agent's name (the registry name of the scalar twin).
        preflop_table: Table B.1 as for ``Loki`` (the shipped one by default).
    """

    known_policy = True
    """The returned probabilities are the policy played."""

    def __init__(
        self,
        num_tables: int,
        params: LokiParams | Sequence[LokiParams] | None = None,
        *,
        name: str = "loki",
        preflop_table: PreflopTable | None = None,
    ) -> None:
        check_num_tables(num_tables)
        table = preflop_table if preflop_table is not None else load_preflop_table()
        self.params = LokiParamArrays.of(params, num_tables, table)
        self.num_tables = num_tables
        self.name = name
        self.memoryless = not bool(self.params.specific.any())
        """Nothing carries over between hands unless a table models specifically."""
        self.hand_uniform = bool(self.params.triple_betting.any())
        """Loki-2's decisions in a hand share one uniform (Loki-1's are all certain)."""
        self.seats = np.full(num_tables, -1, dtype=np.int8)
        """The agent's seat at each table, -1 until ``start_tables``."""
        self.num_seats = 0
        """Seats per table, fixed by the first batch (0 before)."""
        self.state: LokiTables | None = None
        """The per-table memory, sized by the first batch."""
        rates = load_income_rates()
        self._income_rates = readonly([rates.of_holdings(g.players) for g in Group], np.float64)
        self._ir7, self._ir7_sorted = income_rate_tables()
        self._pair_index = readonly(PAIR_INDEX, np.int64)
        self._row_of = np.full(num_tables, -1, dtype=np.intp)  # scratch: duplicate check

    # ------------------------------------------------------------------ contract

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Fresh memory at ``tables`` (new sessions), this agent sitting in ``seats[i]``.

        Raises:
            ValueError: on a table outside ``0..N-1`` or a negative seat, a seat outside the
                table once the number of seats is known, or arrays of different lengths.
        """
        index, seat = check_seats(tables, seats, self.num_tables, self.num_seats)
        self.seats[index] = seat
        if self.state is not None:
            self.state.forget(index)

    def probabilities(self, batch: DecisionBatch) -> Array:
        """``(k, 3)`` action probabilities (certain for Loki-1 and pre-flop)."""
        state = self._check(batch.rules, batch.tables, batch.seat)
        tables = readonly(batch.tables, np.intp)
        logs = batch.logs()
        length = logs.length[logs.rows].astype(np.int64)
        state.new_hands(tables, batch.hand_id, batch.hole, length)
        me = batch.seat.astype(np.int64)
        events = new_events(logs, state.processed[tables], batch.blinds, me, self.num_seats)
        learned = self._learn(batch.rules, tables, me, events)
        self._absorb_own(tables, me, events)
        reweight(state, self.params, batch, tables, events, learned)
        street = batch.street
        out = np.empty((len(tables), 3))
        preflop = np.flatnonzero(street == Street.PREFLOP)
        if len(preflop):
            self._preflop(batch, preflop, events, out)
        rest = np.flatnonzero(street != Street.PREFLOP)
        if len(rest):
            postflop(state, self.params, batch, rest, events, out)
        state.processed[tables] = length
        return out

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Hands ended at the batch's tables: count the last actions (specific modelling)."""
        state = self._check(batch.rules, batch.tables, batch.seat)
        rows = np.flatnonzero(self.params.specific[batch.tables])
        if len(rows) == 0:
            return
        tables = readonly(batch.tables, np.intp)[rows]
        logs = batch.logs()
        logs = logs._replace(rows=logs.rows[rows])
        length = logs.length[logs.rows].astype(np.int64)
        state.new_hands(tables, batch.hand_id[rows], batch.hole[rows], length)
        me = batch.seat[rows].astype(np.int64)
        blinds = _blinds(batch.rules, batch.button[rows])
        events = new_events(logs, state.processed[tables], blinds, me, self.num_seats)
        self._learn(batch.rules, tables, me, events)
        state.processed[tables] = length

    @property
    def nbytes(self) -> int:
        """Bytes of all per-table state (memory, parameters, seats)."""
        memory = self.state.nbytes if self.state is not None else 0
        return memory + self.params.nbytes + self.seats.nbytes + self._row_of.nbytes

    # ------------------------------------------------------------------ inspection

    def weights(self, table: int, seat: int) -> Array:
        """The current weight table of the opponent in ``seat`` at ``table`` (a copy)."""
        state, p = self._state(), self.params
        o = (seat - int(self.seats[table]) - 1) % self.num_seats
        weights: Array = threshold_weights(
            state.weights[table, o], int(state.tag[table, o]), float(state.best[table, o]),
            float(state.odds[table, o]), self._ir7, self._ir7_sorted, state.values.hs1[table],
            state.values.ppotc[table], float(p.preflop_sigma[table]),
            float(p.preflop_skip_percentile[table]), float(p.sigma_slope[table]),
            float(p.low_weight[table]),
        )  # fmt: skip
        return weights

    def frequencies(self, table: int, seat: int, street: Street, bets_to_call: int) -> Array:
        """(fold, call, raise) the agent assumes for ``seat`` at ``table`` in a context."""
        state, p = self._state(), self.params
        defaults = p.default_frequencies[table, bets_to_call]
        if not p.specific[table]:
            return np.array(defaults)
        o = (seat - int(self.seats[table]) - 1) % self.num_seats
        out = np.empty(3)
        blend(
            state.counts[table, o], int(street), bets_to_call, defaults,
            int(p.min_observations[table]), out,
        )  # fmt: skip
        return out

    def preflop_strategy(self, table: int) -> PreflopStrategy | None:
        """The pre-flop strategy of the current hand at ``table`` (``None`` before)."""
        strategy = int(self._state().strategy[table])
        return None if strategy < 0 else PreflopStrategy(strategy)

    def draw_interval(self, table: int) -> tuple[float, float]:
        """Where Loki-2's draw of the current hand at ``table`` lies."""
        lo, hi = self._state().interval[table]
        return float(lo), float(hi)

    # ------------------------------------------------------------------ the steps

    def _state(self) -> LokiTables:
        if self.state is None:
            raise ValueError(f"{self.name}: no batch seen yet")
        return self.state

    def _check(self, rules: Rules, tables: Index, seat: npt.NDArray[np.int8]) -> LokiTables:
        """Size the memory on the first batch; reject batches this object cannot serve."""
        if self.state is None:
            if (self.seats >= rules.num_seats).any():
                raise ValueError(f"a started seat lies outside a {rules.num_seats}-seat table")
            self.num_seats = rules.num_seats
            self.state = LokiTables(
                self.num_tables, rules.num_seats, specific=bool(self.params.specific.any())
            )
        elif rules.num_seats != self.num_seats:
            raise ValueError(
                f"{self.name}: a batch of {rules.num_seats}-seat tables, but this object plays "
                f"{self.num_seats}-seat tables"
            )
        check_batch_tables(self.name, tables, seat, self.seats, self._row_of)
        return self.state

    def _learn(self, rules: Rules, tables: Index, me: Ints, events: Events) -> Learned:
        """Count the opponents' new actions; say how each re-weights."""
        state, p = self._state(), self.params
        return learn_events(
            events,
            tables,
            me,
            self.num_seats,
            np.asarray(rules.bet_sizes),
            state.counts,
            (p.models, p.specific, p.triple_reweighting, p.default_frequencies,
             p.min_observations, p.make1, p.make2),
        )  # fmt: skip

    def _absorb_own(self, tables: Index, me: Ints, events: Events) -> None:
        """The agent's own new actions: Loki-2's draw and the semi-bluff follow them."""
        own = np.flatnonzero(events.seat == me[events.row])
        if len(own):
            state = self._state()
            absorb_own(
                own, tables[events.row], events.position, events.action, events.street,
                state.last_index, state.bounds, state.last_semi, self.params.triple_betting,
                state.interval, state.semi_street,
            )  # fmt: skip

    def _preflop(self, batch: DecisionBatch, rows: Index, events: Events, out: Array) -> None:
        """The pre-flop ``rows``' certain actions into ``out``."""
        state, p = self._state(), self.params
        tables = readonly(batch.tables, np.intp)[rows]
        legal = readonly(batch.legal[rows], np.bool_)
        probabilities = np.empty((len(rows), 3))
        bad = preflop_decisions(
            tables, batch.seat[rows].astype(np.int64), batch.button[rows].astype(np.int64),
            batch.hole[rows].astype(np.int64), readonly(batch.folded[rows], np.bool_),
            batch.contributions[rows].astype(np.int64), batch.to_call[rows].astype(np.int64),
            batch.num_bets[rows].astype(np.int64), legal,
            events.own_invested[rows] & (events.last_street[rows] == Street.PREFLOP),
            batch.rules.bet_size(Street.PREFLOP), self._pair_index, self._income_rates,
            p.preflop_base, p.preflop_increment, p.small_blind, p.probability_play,
            state.strategy, probabilities,
        )  # fmt: skip
        if bad >= 0:
            strategy = PreflopStrategy(int(state.strategy[tables[bad]]))
            raise ValueError(
                f"{self.name}: pre-flop strategy {strategy.name} chose an illegal action at "
                f"table {int(tables[bad])} (to call {int(batch.to_call[rows[bad]])})"
            )
        out[rows] = probabilities
        state.last_index[tables] = -1  # a certain action: nothing follows it


def _blinds(rules: Rules, button: npt.NDArray[np.integer]) -> Ints:
    """The blinds each seat posted in hands with ``button`` (``(k, S)``): the rules' blinds,
    all-in for less from a short starting stack (a ``HandEndBatch`` does not carry them)."""
    n = rules.num_seats
    small = button.astype(np.int64) if n == 2 else (button.astype(np.int64) + 1) % n
    big = (small + 1) % n
    stacks = np.asarray(rules.starting_stacks, dtype=np.int64)
    blinds = np.zeros((len(button), n), dtype=np.int64)
    rows = np.arange(len(button))
    blinds[rows, small] = np.minimum(rules.small_blind, stacks[small])
    blinds[rows, big] = np.minimum(rules.big_blind, stacks[big])
    return blinds


def table_bytes(params: LokiParams, num_seats: int) -> int:
    """Bytes a ``BatchedLoki`` playing ``params`` keeps per ``num_seats``-seat table: its
    memory (a float64 weight table per opponent seat) and its parameter rows."""
    if not 2 <= num_seats <= 10:
        raise ValueError(f"num_seats must be 2 to 10, got {num_seats}")
    tables = LokiTables(1, num_seats, specific=params.modelling is Modelling.SPECIFIC)
    return tables.nbytes + LokiParamArrays.of(params, 1, load_preflop_table()).nbytes
