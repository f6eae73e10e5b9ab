"""Betting decisions over every table at once: the legal-action mask and applying actions.

The rules are those of ``envs.game.Hand`` (checking is free so folding then is illegal, the
cap per round, all-in for less, a short all-in raise does not reopen the betting for seats
that already acted), written as whole-array arithmetic: tables without a decision are masked
out (their seat 0 is read and written back unchanged) rather than compacted away.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from envs.batched.seatwise import count_seats, scatter
from envs.batched.state import BatchState, Bools, Chips, Index, Int8s, Layout, SeatSets
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
    acting = state.actor >= 0
    seat = np.maximum(state.actor, 0)
    flat = layout.seat_offset[seat] + layout.tables
    bit = layout.bit[seat]
    bet = np.take(state.bets, flat)
    stack = np.take(state.stacks, flat)
    owed = state.max_bet - bet
    # A raise needs someone else who could still put in more than the current bet.
    can_cover = (state.stacks + state.bets > state.max_bet) & ~state.folded
    others_cover = count_seats(can_cover) > np.take(can_cover, flat)
    short_closed = (
        (state.short_all_in > 0)
        & (state.short_all_in < state.full_raise)
        & (state.acted & bit > 0)
    )
    legal = np.empty((3, layout.num_tables), dtype=np.bool_)
    legal[_FOLD] = acting & (owed > 0)
    legal[_CALL] = acting
    legal[_RAISE] = (
        acting
        & (state.num_bets < layout.caps[state.street])
        & (stack > owed)
        & (owed >= state.full_raise)
        & ~short_closed
        & others_cover
    )
    to_call = np.minimum(stack, owed) * acting
    legal.flags.writeable = False
    to_call.flags.writeable = False
    return Decisions(acting, seat, flat, bit, bet, stack, owed, legal, to_call)


def apply_actions(
    state: BatchState, layout: Layout, d: Decisions, actions: npt.NDArray[np.int8], acting: Bools
) -> Bools:
    """Apply one legal action at every ``acting`` table (``d`` describes the current state;
    ``actions`` are 0 elsewhere). Other tables keep their pending decision, if any.

    Returns:
        The tables whose betting round ended with this action (their actor is now -1).
    """
    flat, seat, bit = d.flat, d.seat, d.bit
    is_fold = acting & (actions == _FOLD)
    is_call = acting & (actions == _CALL)
    is_raise = acting & (actions == _RAISE)
    street = state.street
    target = np.minimum(d.stack + d.bet, state.max_bet + layout.bet_sizes[street])
    increment = target - state.max_bet
    put = is_raise * (target - d.bet) + is_call * np.minimum(d.stack, d.owed)
    stack = d.stack - put
    scatter(state.stacks, flat, stack)
    scatter(state.bets, flat, d.bet + put)
    scatter(state.contributions, flat, np.take(state.contributions, flat) + put)
    scatter(state.folded, flat, np.take(state.folded, flat) | is_fold)
    scatter(state.decisions, flat, np.take(state.decisions, flat) + acting)
    state.num_active -= is_fold
    state.queue &= ~(bit * acting)  # the actor leaves the queue

    # Log every decision; tables without one write to the spare last column.
    spare = layout.log_width - 1
    entry = layout.log_base + (spare + acting * (state.log_len - spare))
    scatter(state.log_street, entry, street)
    scatter(state.log_seat, entry, seat)
    scatter(state.log_action, entry, actions)
    scatter(state.log_amount, entry, put)
    state.log_len += acting

    # A full raise reopens the betting for everyone (only the raiser has acted since); short
    # all-in raises add up until they make a full raise.
    reopens = is_raise & (increment >= state.full_raise)
    state.acted *= ~reopens
    state.acted |= bit * acting
    raised = increment * is_raise
    state.max_bet += raised
    state.num_bets += is_raise
    np.maximum(state.full_raise, raised, out=state.full_raise)
    short = (state.short_all_in + increment) * (stack == 0)
    short *= short < state.full_raise
    state.short_all_in += is_raise * (short - state.short_all_in)
    # After a raise every other seat with chips that has not folded is to act, in order.
    state.able &= ~(bit * (is_fold | (acting & (stack == 0))))
    state.queue ^= ((state.able & ~bit) ^ state.queue) * is_raise

    ended: Bools = acting & ((state.num_active <= 1) | (state.queue == 0))
    state.queue *= ~ended
    # The next seat in the queue after the actor; -1 for an empty queue (the round ended).
    following = np.take(layout.first_from, layout.after[seat] + state.queue)
    state.actor += acting * (following - state.actor)
    return ended
