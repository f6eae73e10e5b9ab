"""The batched Loki's reading of the action logs: the situation behind every new action, the
action frequencies it counts, and what each opponent action asks of the weight tables.

``new_events`` replays each row's log in place (``DecisionBatch.logs()``) from the blinds, as
``agents.loki.action_contexts.replay`` does for one view, and returns the actions the table
has not processed yet, each with its context (round, chips to call, pot, bets made, seats
still in, whether the seat had put chips in this round). ``learn_events`` then counts the
opponents' actions under specific modelling (Papp 1998 section 7.1.2: per round and bets to
call 0 / 1 / 2+) and turns each into its re-weighting: none (a fold, a Loki-1 check, or no
modelling), Loki-1's threshold mu (Papp 7.2) or Loki-2's triple with the opponent's thresholds
(Pena 1999 sections 4.2-4.3). The frequency blend is the arithmetic of
``agents.loki.modelling.ActionFrequencies`` and the threshold shift that of
``agents.loki.opponents.shifted_thresholds``, operation for operation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.jit import kernel, readonly
from envs.batched.views import ActionLogs

__all__ = [
    "NONE",
    "THRESHOLD",
    "TRIPLE",
    "Events",
    "Learned",
    "blend",
    "learn_events",
    "new_events",
]

Ints = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

NONE, THRESHOLD, TRIPLE = 0, 1, 2
"""What an event asks of its opponent's weight table (``Events.kind``)."""
_FOLD, _CALL, _RAISE = 0, 1, 2


class Events(NamedTuple):
    """The new log entries of a batch, row by row in log order (E entries)."""

    row: Ints
    """The batch row of each entry."""
    position: Ints
    """Its position in the log."""
    street: Ints
    seat: Ints
    action: Ints
    amount: Ints
    to_call: Ints
    pot: Ints
    num_bets: Ints
    active: Ints
    invested: Bools
    own_invested: Bools
    """Per row: whether the agent's seat put chips in during the log's last round."""
    last_street: Ints
    """Per row: the round of the log's last entry (0 for an empty log)."""


def new_events(
    logs: ActionLogs, processed: Ints, blinds: Ints, me: Ints, num_seats: int
) -> Events:
    """The entries of each row's log from ``processed[i]`` on, with their situations.

    Args:
        logs: The batch's action logs (``DecisionBatch.logs()``).
        processed: ``(k,)`` entries already seen at each row's table.
        blinds: ``(k, S)`` chips each seat posted as a blind.
        me: ``(k,)`` the agent's seat.
        num_seats: S.
    """
    rows = readonly(logs.rows, np.intp)
    length = readonly(logs.length, np.int16)
    counts = np.maximum(length[rows].astype(np.int64) - processed, 0)
    start = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    total = int(start[-1])
    columns = [np.empty(total, dtype=np.int64) for _ in range(10)]
    invested = np.empty(total, dtype=np.bool_)
    own_invested = np.empty(len(rows), dtype=np.bool_)
    last_street = np.empty(len(rows), dtype=np.int64)
    row, position, street, seat, action, amount, to_call, pot, num_bets, active = columns
    _replay(
        rows,
        length,
        readonly(logs.street, np.int8),
        readonly(logs.seat, np.int8),
        readonly(logs.action, np.int8),
        readonly(logs.amount, np.int32),
        readonly(processed, np.int64),
        readonly(blinds, np.int64),
        readonly(me, np.int64),
        num_seats,
        start,
        row,
        position,
        street,
        seat,
        action,
        amount,
        to_call,
        pot,
        num_bets,
        active,
        invested,
        own_invested,
        last_street,
    )
    return Events(
        row,
        position,
        street,
        seat,
        action,
        amount,
        to_call,
        pot,
        num_bets,
        active,
        invested,
        own_invested,
        last_street,
    )


@kernel
def _replay(
    rows: npt.NDArray[np.intp],
    length: npt.NDArray[np.int16],
    log_street: npt.NDArray[np.int8],
    log_seat: npt.NDArray[np.int8],
    log_action: npt.NDArray[np.int8],
    log_amount: npt.NDArray[np.int32],
    processed: Ints,
    blinds: Ints,
    me: Ints,
    num_seats: int,
    start: Ints,
    row: Ints,
    position: Ints,
    street: Ints,
    seat: Ints,
    action: Ints,
    amount: Ints,
    to_call: Ints,
    pot: Ints,
    num_bets: Ints,
    active: Ints,
    invested: Bools,
    own_invested: Bools,
    last_street: Ints,
) -> None:
    bets = np.zeros(num_seats, dtype=np.int64)
    folded = np.zeros(num_seats, dtype=np.bool_)
    put_in = np.zeros(num_seats, dtype=np.bool_)
    for i in range(len(rows)):
        r = rows[i]
        bets[:] = blinds[i]
        chips = 0
        for s in range(num_seats):
            chips += blinds[i, s]
        folded[:] = False
        put_in[:] = False
        current, bets_made, q = 0, 1, start[i]
        for j in range(length[r]):
            if log_street[r, j] != current:
                current = log_street[r, j]
                bets[:] = 0
                put_in[:] = False
                bets_made = 0
            s, a, chips_in = log_seat[r, j], log_action[r, j], log_amount[r, j]
            if j >= processed[i]:
                row[q], position[q], street[q], seat[q] = i, j, current, s
                action[q], amount[q] = a, chips_in
                to_call[q], pot[q], num_bets[q] = bets.max() - bets[s], chips, bets_made
                active[q] = num_seats - folded.sum()
                invested[q] = put_in[s]
                q += 1
            bets[s] += chips_in
            chips += chips_in
            if a == _FOLD:
                folded[s] = True
            elif chips_in > 0:
                put_in[s] = True
            if a == _RAISE:
                bets_made += 1
        own_invested[i] = put_in[me[i]]
        last_street[i] = current


class Learned(NamedTuple):
    """What each event asks of its opponent's weight table (``learn_events``)."""

    kind: Ints
    """``NONE``, ``THRESHOLD`` or ``TRIPLE``."""
    mu: Array
    """Loki-1's threshold (``THRESHOLD``)."""
    odds: Array
    """The pot odds of the action: its chips over the pot after it."""
    make1: Array
    """The opponent's thresholds in Loki-2's triple (``TRIPLE``)."""
    make2: Array


def learn_events(
    events: Events,
    tables: Ints,
    me: Ints,
    num_seats: int,
    bet_sizes: Ints,
    counts: npt.NDArray[np.int32],
    params: tuple[Bools, Bools, Bools, Array, Ints, Array, Array],
) -> Learned:
    """Count the opponents' actions (in ``counts (T, S - 1, 4, 3, 3)``, at the tables that
    model specifically) and say how each event re-weights.

    Args:
        params: Per table: models at all, specific, re-weights by triples, default
            frequencies ``(T, 3, 3)``, min observations, make1, make2.
    """
    total = len(events.row)
    kind = np.empty(total, dtype=np.int64)
    values = [np.empty(total) for _ in range(4)]
    _learn(
        *events[:10],
        readonly(tables, np.int64),
        readonly(me, np.int64),
        num_seats,
        readonly(bet_sizes, np.int64),
        counts,
        *params,
        kind,
        *values,
    )
    return Learned(kind, *values)


@kernel
def _learn(
    row: Ints,
    position: Ints,
    street: Ints,
    seat: Ints,
    action: Ints,
    amount: Ints,
    to_call: Ints,
    pot: Ints,
    num_bets: Ints,
    active: Ints,
    tables: Ints,
    me: Ints,
    num_seats: int,
    bet_sizes: Ints,
    counts: npt.NDArray[np.int32],
    models: Bools,
    specific: Bools,
    triples: Bools,
    defaults: Array,
    need: Ints,
    make1: Array,
    make2: Array,
    kind: Ints,
    mu: Array,
    odds: Array,
    make1_out: Array,
    make2_out: Array,
) -> None:
    frequency = np.empty(3)
    for e in range(len(row)):
        i = row[e]
        t, s, a, r = tables[i], seat[e], action[e], street[e]
        kind[e] = NONE
        if s == me[i]:
            continue
        o = (s - me[i] - 1) % num_seats
        owed = to_call[e]
        bets_to_call = 0 if owed <= 0 else min(2, (owed + bet_sizes[r] - 1) // bet_sizes[r])
        if specific[t]:
            counts[t, o, r, bets_to_call, a] += 1
            blend(counts[t, o], r, bets_to_call, defaults[t, bets_to_call], need[t], frequency)
        else:
            frequency[:] = defaults[t, bets_to_call]
        if not models[t] or a == _FOLD:
            continue
        odds[e] = amount[e] / (pot[e] + amount[e])
        if r > 0 and triples[t]:
            kind[e] = TRIPLE
            make1_out[e], make2_out[e] = make1[t], make2[t]
            if specific[t]:
                m1, m2 = _shifted(
                    make1[t], make2[t], frequency, defaults[t, bets_to_call], bets_to_call
                )
                make1_out[e], make2_out[e] = m1, m2
        elif not (a == _CALL and owed == 0):  # Loki-1 learns nothing from a check
            kind[e] = THRESHOLD
            mu[e] = frequency[0] if a == _CALL else frequency[0] + frequency[1]


@kernel
def blend(
    counts: npt.NDArray[np.int32], street: int, bets: int, defaults: Array, need: int, out: Array
) -> None:
    """``ActionFrequencies.frequencies``: each round blended with the previous one's."""
    fold, call, bet = defaults[0], defaults[1], defaults[2]
    for r in range(street + 1):
        c = counts[r, bets]
        n = c[0] + c[1] + c[2]
        if n >= need:
            fold, call, bet = c[0] / n, c[1] / n, c[2] / n
        elif n > 0:
            fold = (c[0] / n) * (n / need) + fold * (1.0 - n / need)
            call = (c[1] / n) * (n / need) + call * (1.0 - n / need)
            bet = (c[2] / n) * (n / need) + bet * (1.0 - n / need)
    out[0], out[1], out[2] = fold, call, bet


@kernel
def _shifted(
    make1: float, make2: float, observed: Array, default: Array, bets: int
) -> tuple[float, float]:
    """``shifted_thresholds``: an opponent's make1 and make2 moved by its frequencies."""
    if bets == 0:
        m1 = make1 + (default[2] - observed[2])
        m2 = make2
    else:
        m1 = make1 + (observed[0] - default[0])
        m2 = make2 + (observed[0] + observed[1]) - (default[0] + default[1])
    m1 = min(max(m1, 0.05), 0.95)
    m2 = min(max(m2, m1 + 0.01), 0.99)
    return m1, m2
