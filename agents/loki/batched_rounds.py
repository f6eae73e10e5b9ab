"""The batched Loki's work on the weight tables, round by round, and its post-flop decisions.

``reweight`` applies a batch's new opponent actions in log order at each table, a round at a
time: the pre-flop thresholds first, then for the flop, the turn and the river in turn, at the
tables with an action or a decision in that round, (1) the pending re-weighting of an earlier
round is folded into the table (``agents.loki.weighting.materialize``: it still reads that
round's board values), (2) the own hand's values of the round are computed once per table and
round (``agents.strength.street.street_tables``, written into the tables' memory), (3)
Loki-1's thresholds are noted and Loki-2's triples multiplied in. ``postflop`` then decides
the post-flop rows: the field of each row's opponents still in, HSn and PPOT against it
(``field_values``; PPOT2 on the flop with ``lookahead=2``), the rules or the conditioned triple
(``agents.loki.triples.decide``).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.loki.batched_history import THRESHOLD, TRIPLE, Events, Learned
from agents.loki.batched_loki_params import LokiParamArrays
from agents.loki.batched_state import LokiTables
from agents.loki.opponents import later_bets
from agents.loki.triples import decide, triple_events
from agents.loki.weighting import fields, materialize, note_thresholds
from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.income_rate import load_income_rates
from agents.strength.street import field_potential2, field_values, street_tables
from envs.batched.views import DecisionBatch
from envs.rules import Rules, Street

__all__ = ["income_rate_tables", "postflop", "reweight"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
Ints = npt.NDArray[np.int64]

_BOARD_SIZE = (0, 3, 4, 5)


@cache
def income_rate_tables() -> tuple[Array, Array]:
    """IR7 of every holding and the same sorted (Loki-1's pre-flop re-weighting values)."""
    ir7 = load_income_rates().of_holdings(7)
    return readonly(ir7, np.float64), readonly(np.sort(ir7), np.float64)


@cache
def _rule_arrays(rules: Rules) -> tuple[Ints, Ints, Ints]:
    """Bet size, most bets and one bet per later round, per street."""
    sizes = readonly(rules.bet_sizes, np.int64)
    most = readonly(rules.max_bets, np.int64)
    later = readonly([later_bets(rules, s) for s in Street], np.int64)
    return sizes, most, later


class _Pending(NamedTuple):
    """What ``materialize`` and ``fields`` read after the weight tables."""

    tag: npt.NDArray[np.int8]
    best: Array
    odds: Array
    ir7: Array
    ir7_sorted: Array
    hs1: Array
    ppot: Array
    preflop_sigma: Array
    skip: Array
    slope: Array
    low: Array


def _pending(state: LokiTables, p: LokiParamArrays) -> _Pending:
    ir7, ir7_sorted = income_rate_tables()
    values = state.values
    return _Pending(
        state.tag, state.best, state.odds, ir7, ir7_sorted, values.hs1, values.ppotc,
        p.preflop_sigma, p.preflop_skip_percentile, p.sigma_slope, p.low_weight,
    )  # fmt: skip


def reweight(
    state: LokiTables,
    p: LokiParamArrays,
    batch: DecisionBatch,
    tables: Index,
    events: Events,
    learned: Learned,
) -> None:
    """Apply the opponents' new actions to their weight tables (module docstring)."""
    seats = state.num_seats
    me = batch.seat.astype(np.int64)
    event_tables = tables[events.row]
    slots = (events.seat - me[events.row] - 1) % seats
    deciding = batch.street.astype(np.int64)
    kind, street = learned.kind, events.street
    thresholds = np.flatnonzero((kind == THRESHOLD) & (street == Street.PREFLOP))
    _note(state, thresholds, event_tables, slots, street, learned)
    sizes, most, later = _rule_arrays(batch.rules)
    for r in (Street.FLOP, Street.TURN, Street.RIVER):
        acting = np.flatnonzero((kind != 0) & (street == r))
        rows = np.unique(np.concatenate([events.row[acting], np.flatnonzero(deciding == r)]))
        if len(rows) == 0:
            continue
        touched = tables[rows]
        materialize(touched, int(r), state.weights, *_pending(state, p))
        stale = rows[state.values_street[touched] != r]
        if len(stale):
            width = np.full(len(stale), _BOARD_SIZE[r])
            street_tables(
                batch.hole[stale], batch.board[stale], width, out=state.values, at=tables[stale]
            )
            state.values_street[tables[stale]] = int(r)
        _note(state, acting[kind[acting] == THRESHOLD], event_tables, slots, street, learned)
        triples = acting[kind[acting] == TRIPLE]
        if len(triples):
            triple_events(
                triples, event_tables, slots, events.action, street, events.to_call,
                events.pot, events.num_bets, events.invested, events.active, learned.make1,
                learned.make2, sizes, most, later, state.weights, state.values.hs1,
                state.values.ppotc, p.switches, p.triple_width, p.low_weight,
            )  # fmt: skip


def _note(
    state: LokiTables,
    chosen: Index,
    event_tables: Index,
    slots: Ints,
    street: Ints,
    learned: Learned,
) -> None:
    if len(chosen) == 0:
        return
    stray = note_thresholds(
        chosen, event_tables, slots, street, learned.mu, learned.odds, state.tag, state.best,
        state.odds,
    )  # fmt: skip
    if stray >= 0:
        raise AssertionError(f"a pending re-weighting of another round at event {stray}")


def postflop(
    state: LokiTables,
    p: LokiParamArrays,
    batch: DecisionBatch,
    rows: Index,
    events: Events,
    out: Array,
) -> None:
    """The probabilities of the post-flop ``rows`` into ``out`` (module docstring).

    Raises:
        ValueError: if (a defect of the rules) an illegal action gets a chance.
    """
    tables = readonly(batch.tables, np.intp)[rows]
    street = batch.street[rows].astype(np.int64)
    to_call = batch.to_call[rows].astype(np.int64)
    folded = readonly(batch.folded[rows], np.bool_)
    me = batch.seat[rows].astype(np.int64)
    state.semi_street[tables[to_call > 0]] = -1  # somebody bet: the semi-bluff is over
    opponents = np.maximum(1, state.num_seats - 1 - folded.sum(axis=1)).astype(np.int64)
    field = np.empty((len(rows), NUM_HOLDINGS))
    fields(tables, me, folded, ~p.models, state.weights, *_pending(state, p), field)
    hsn, ppot = field_values(state.values, field, opponents, rows=tables)
    two = np.flatnonzero((street == Street.FLOP) & (p.lookahead[tables] == 2))
    if len(two):
        ppot[two] = field_potential2(batch.hole[rows[two]], batch.board[rows[two]], field[two])
    semi = state.semi_street[tables].astype(np.int64)
    sizes, _, later = _rule_arrays(batch.rules)
    probabilities = np.empty((len(rows), 3))
    bounds, ehs = np.empty((len(rows), 2)), np.empty(len(rows))
    decide(
        hsn, ppot, tables, street, to_call, batch.pot[rows].astype(np.int64), sizes[street],
        batch.num_bets[rows].astype(np.int64), readonly(batch.legal[rows, 2], np.bool_),
        events.own_invested[rows] & (events.last_street[rows] == street), opponents,
        later[street], (semi >= 0) & (semi < street), p.make1, p.make2, p.switches,
        p.triple_width, p.triple_betting, state.interval, probabilities, bounds, ehs,
    )  # fmt: skip
    illegal = ((probabilities > 0.0) & ~batch.legal[rows]).any(axis=1)
    if illegal.any():
        i = int(np.flatnonzero(illegal)[0])
        raise ValueError(
            f"the post-flop rules gave an illegal action a chance {probabilities[i].tolist()} "
            f"at table {int(tables[i])} (to call {int(to_call[i])})"
        )
    out[rows] = probabilities
    state.last_index[tables] = events_length(batch, rows)
    state.bounds[tables] = bounds
    state.last_semi[tables] = (to_call == 0) & (ehs < p.make1[tables])


def events_length(batch: DecisionBatch, rows: Index) -> Ints:
    """The log length of ``rows`` (where their seat's action will go)."""
    logs = batch.logs()
    length: Ints = logs.length[logs.rows[rows]].astype(np.int64)
    return length
