"""Betting decisions over every table at once: the legal-action mask and applying actions.

The rules are those of ``envs.game.Hand`` (checking is free so folding then is illegal, the
cap per round, all-in for less, a short all-in raise does not reopen the betting for seats
that already acted). Both are compiled loops over the tables (``envs.compiled``): as whole-array
NumPy they cost some forty array operations a step whatever the number of tables moving, a
few hundred microseconds at a thousand tables, which a local best response's replay pays
several times per decision. ``Decisions`` keeps the whole-array form (seat 0's chips where
nobody acts), and only the tables that act are written.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from envs.batched.state import (
    CHIPS,
    BatchState,
    Bools,
    Chips,
    Index,
    Int8s,
    Int16s,
    Layout,
    SeatSets,
)
from envs.compiled import kernel
from envs.rules import Action

__all__ = ["Decisions", "apply_actions", "pending_decisions"]

# Plain ints: an enum member's attribute lookup costs more than the array operation it is in.
_FOLD, _CALL, _RAISE = int(Action.FOLD), int(Action.CALL), int(Action.RAISE)


@dataclass(frozen=True, eq=False)
class Decisions:
    """The decision pending at every table, computed once per state: the legal-action mask
    and ``step`` share it."""

    acting: Bools
    """Whether a seat is to act (``actor >= 0``)."""
    seat: Int8s
    """The seat to act, 0 where nobody is (masked by ``acting``)."""
    flat: Index
    """Index of (seat, table) in the raveled per-seat arrays."""
    bit: SeatSets
    """``1 << seat``."""
    bet: Chips
    """Chips the actor has put in this round."""
    stack: Chips
    """Chips the actor has behind."""
    owed: Chips
    """Chips the actor must add to match the highest bet (before its stack caps it)."""
    legal: Bools
    """``(3, tables)`` legal actions by ``Action``, all False where nobody acts."""
    to_call: Chips
    """Chips the actor would put in by calling (0 where nobody acts or checking is free)."""


def pending_decisions(state: BatchState, layout: Layout) -> Decisions:
    """Who is to act at every table, with what chips, and which actions are legal."""
    n = layout.num_tables
    seat = np.empty(n, dtype=np.int8)
    flat = np.empty(n, dtype=np.intp)
    bit = np.empty(n, dtype=np.uint16)
    bet, stack, owed, to_call = (np.empty(n, dtype=CHIPS) for _ in range(4))
    legal = np.empty((3, n), dtype=np.bool_)
    _pending(
        state.actor, state.stacks, state.bets, state.folded, state.max_bet, state.acted,
        state.num_bets, state.street, state.full_raise, state.short_all_in, layout.bit,
        layout.caps, seat, flat, bit, bet, stack, owed, legal, to_call,
    )  # fmt: skip
    legal.flags.writeable = False
    to_call.flags.writeable = False
    return Decisions(state.actor >= 0, seat, flat, bit, bet, stack, owed, legal, to_call)


@kernel
def _pending(
    actor: Int8s,
    stacks: Chips,
    bets: Chips,
    folded: Bools,
    max_bet: Chips,
    acted: SeatSets,
    num_bets: Int16s,
    street: Int8s,
    full_raise: Chips,
    short_all_in: Chips,
    bits: SeatSets,
    caps: Int16s,
    seat_out: Int8s,
    flat_out: Index,
    bit_out: SeatSets,
    bet_out: Chips,
    stack_out: Chips,
    owed_out: Chips,
    legal: Bools,
    to_call: Chips,
) -> None:
    # Where nobody acts, seat 0's chips are read (the masked rows of ``Decisions``).
    num_seats, num_tables = stacks.shape
    for t in range(num_tables):
        acting = actor[t] >= 0
        seat = actor[t] if acting else 0
        bit = bits[seat]
        bet, stack = bets[seat, t], stacks[seat, t]
        owed = max_bet[t] - bet
        # A raise needs someone else who could still put in more than the current bet.
        covering, mine = 0, False
        for s in range(num_seats):
            covers = stacks[s, t] + bets[s, t] > max_bet[t] and not folded[s, t]
            covering += covers
            if s == seat:
                mine = covers
        short_closed = 0 < short_all_in[t] < full_raise[t] and acted[t] & bit > 0
        seat_out[t], flat_out[t], bit_out[t] = seat, seat * num_tables + t, bit
        bet_out[t], stack_out[t], owed_out[t] = bet, stack, owed
        legal[_FOLD, t] = acting and owed > 0
        legal[_CALL, t] = acting
        legal[_RAISE, t] = (
            acting
            and num_bets[t] < caps[street[t]]
            and stack > owed
            and owed >= full_raise[t]
            and not short_closed
            and covering > mine
        )
        to_call[t] = min(stack, owed) if acting else 0


def apply_actions(
    state: BatchState, layout: Layout, d: Decisions, actions: npt.NDArray[np.int8], acting: Bools
) -> Bools:
    """Apply one legal action at every ``acting`` table (``d`` describes the current state;
    ``actions`` are 0 elsewhere). Other tables keep their pending decision, if any.

    Returns:
        The tables whose betting round ended with this action (their actor is now -1).
    """
    ended = np.zeros(layout.num_tables, dtype=np.bool_)
    s = state
    _apply(
        np.flatnonzero(acting), actions, d.seat, d.bit, d.bet, d.stack, d.owed, s.street,
        s.stacks, s.bets, s.contributions, s.folded, s.decisions, s.num_active, s.queue,
        s.acted, s.able, s.max_bet, s.num_bets, s.full_raise, s.short_all_in, s.actor,
        s.log_street, s.log_seat, s.log_action, s.log_amount, s.log_len, layout.bet_sizes,
        layout.first_from, layout.after, ended,
    )  # fmt: skip
    return ended


@kernel
def _apply(
    tables: Index,
    actions: Int8s,
    seats: Int8s,
    bits: SeatSets,
    bets_before: Chips,
    stacks_before: Chips,
    owed_before: Chips,
    street: Int8s,
    stacks: Chips,
    bets: Chips,
    contributions: Chips,
    folded: Bools,
    decisions: Int16s,
    num_active: Int8s,
    queue: SeatSets,
    acted: SeatSets,
    able: SeatSets,
    max_bet: Chips,
    num_bets: Int16s,
    full_raise: Chips,
    short_all_in: Chips,
    actor: Int8s,
    log_street: Int8s,
    log_seat: Int8s,
    log_action: Int8s,
    log_amount: Chips,
    log_len: Int16s,
    bet_sizes: Chips,
    first_from: Int8s,
    after: Index,
    ended: Bools,
) -> None:
    for t in tables:
        seat, bit, action = seats[t], bits[t], actions[t]
        is_fold, is_raise = action == _FOLD, action == _RAISE
        bet, stack = bets_before[t], stacks_before[t]
        target = min(stack + bet, max_bet[t] + bet_sizes[street[t]])
        increment = target - max_bet[t]
        if is_raise:
            put = target - bet
        elif action == _CALL:
            put = min(stack, owed_before[t])
        else:
            put = 0
        stack -= put
        stacks[seat, t] = stack
        bets[seat, t] = bet + put
        contributions[seat, t] += put
        folded[seat, t] |= is_fold
        decisions[seat, t] += 1
        num_active[t] -= is_fold
        queue[t] &= ~bit  # the actor leaves the queue
        entry = log_len[t]
        log_street[t, entry], log_seat[t, entry] = street[t], seat
        log_action[t, entry], log_amount[t, entry] = action, put
        log_len[t] += 1
        # A full raise reopens the betting for everyone (only the raiser has acted since);
        # short all-in raises add up until they make a full raise.
        if is_raise and increment >= full_raise[t]:
            acted[t] = 0
        acted[t] |= bit
        if is_raise:
            max_bet[t] += increment
            num_bets[t] += 1
            full_raise[t] = max(full_raise[t], increment)
            short = short_all_in[t] + increment if stack == 0 else 0
            short_all_in[t] = short if short < full_raise[t] else 0
        if is_fold or stack == 0:
            able[t] &= ~bit
        if is_raise:  # every other seat with chips that has not folded is to act, in order
            queue[t] = able[t] & ~bit
        ended[t] = num_active[t] <= 1 or queue[t] == 0
        if ended[t]:
            queue[t] = 0
        # The next seat in the queue after the actor; -1 for an empty queue (the round ended).
        actor[t] = first_from[after[seat] + queue[t]]
