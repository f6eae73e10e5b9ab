"""Starting and ending betting rounds over masked tables: blinds, who acts, uncalled bets
returned, dealing the next street, fold-outs and which tables go to showdown.

Same order of play as ``envs.game.Hand``: after the flop the first seat left of the button with
chips opens; a seat acts only if it has chips and someone could still contest them (the
effective-stack rule); a round with nobody to act (or one seat that already matches the bet)
ends at once. Opening and ending rounds are compiled loops over the tables concerned
(``envs.compiled``); paying fold-outs stays whole-array over those tables.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from envs.batched.seatwise import scatter
from envs.batched.state import BatchState, Bools, Chips, Index, Int8s, Int16s, Layout, SeatSets
from envs.compiled import kernel
from envs.rules import Street

__all__ = ["begin_preflop", "end_rounds", "finish", "post_blinds"]

_RIVER = int(Street.RIVER)


def post_blinds(state: BatchState, layout: Layout, rows: Index, stacks: Chips) -> Int8s:
    """Clear the hand state of freshly dealt ``rows`` (deck, button and hand id already set)
    and post both blinds there (all-in for less when a stack is short).

    Args:
        stacks: ``(seats, len(rows))`` chips before the blinds.

    Returns:
        ``(tables,)``: at ``rows``, the seat that opens the pre-flop betting, the one after
        the larger blind (a short big blind below the small blind hands that role to the
        small blind); 0 elsewhere.
    """
    opener = np.zeros(layout.num_tables, dtype=np.int8)
    s = state
    _post_blinds(
        rows, stacks, s.button, s.stacks, s.bets, s.contributions, s.blinds, s.payoffs,
        s.folded, s.showed, s.ranks, s.decisions, s.street, s.log_len, s.num_active, s.over,
        s.dealt, layout.blinds, layout.small_blind_seat, layout.big_blind_seat,
        layout.next_seat, opener,
    )  # fmt: skip
    return opener


@kernel
def _post_blinds(
    rows: Index,
    chips: Chips,
    button: Int8s,
    stacks: Chips,
    bets: Chips,
    contributions: Chips,
    blinds: Chips,
    payoffs: Chips,
    folded: Bools,
    showed: Bools,
    ranks: Int16s,
    decisions: Int16s,
    street: Int8s,
    log_len: Int16s,
    num_active: Int8s,
    over: Bools,
    dealt: Bools,
    owed: Chips,
    small_blind_seat: Int8s,
    big_blind_seat: Int8s,
    next_seat: Int8s,
    opener: Int8s,
) -> None:
    num_seats = stacks.shape[0]
    for k in range(len(rows)):
        t, b = rows[k], button[rows[k]]
        street[t], log_len[t], num_active[t] = 0, 0, num_seats
        over[t], dealt[t] = False, True
        for seat in range(num_seats):
            posted = min(chips[seat, k], owed[b, seat])
            stacks[seat, t] = chips[seat, k] - posted
            bets[seat, t] = contributions[seat, t] = blinds[seat, t] = posted
            payoffs[seat, t], ranks[seat, t], decisions[seat, t] = 0, 0, 0
            folded[seat, t] = showed[seat, t] = False
        small, big = small_blind_seat[b], big_blind_seat[b]
        top = big if bets[big, t] >= bets[small, t] else small
        opener[t] = next_seat[top]


def begin_preflop(state: BatchState, layout: Layout, tables: Bools, opener: Int8s) -> Bools:
    """Open the pre-flop betting at ``tables`` (blinds posted), ``opener`` first in line.

    Returns:
        The tables where nobody is to act (all-in blinds), so the round ends at once.
    """
    empty = np.zeros(layout.num_tables, dtype=np.bool_)
    s = state
    _begin_preflop(
        np.flatnonzero(tables), opener, s.stacks, s.bets, s.folded, s.num_bets, s.max_bet,
        s.full_raise, s.short_all_in, s.acted, s.able, s.queue, s.actor, layout.first_from,
        empty,
    )  # fmt: skip
    return empty


def end_rounds(state: BatchState, layout: Layout, tables: Bools) -> Bools:
    """End the betting round at ``tables`` and carry each on to the next street's first
    decision or to the end of the hand: fold-outs are paid here, showdowns are left to the
    caller (one evaluator call for all of them).

    Returns:
        The tables that reached a showdown (their board is complete, their payoffs not yet).
    """
    rows = np.flatnonzero(tables)
    s = state
    _return_uncalled(rows, s.stacks, s.bets, s.contributions)
    folded_out = tables & (state.num_active == 1)
    if folded_out.any():
        _pay_fold_outs(state, layout, folded_out)
    showdown = np.zeros(layout.num_tables, dtype=np.bool_)
    _next_streets(
        rows, s.stacks, s.folded, s.num_active, s.button, s.street, s.num_bets, s.max_bet,
        s.full_raise, s.short_all_in, s.acted, s.able, s.queue, s.actor, layout.first_from,
        layout.after, showdown,
    )  # fmt: skip
    return showdown


@kernel
def _second_largest(values: npt.NDArray[np.integer], t: int) -> int:
    """The second-largest of table ``t``'s seats in ``(seats, tables)`` values (the largest
    again when two seats share it)."""
    top, second = max(values[0, t], values[1, t]), min(values[0, t], values[1, t])
    for seat in range(2, values.shape[0]):
        second = max(second, min(top, values[seat, t]))
        top = max(top, values[seat, t])
    return int(second)


@kernel
def _able(stacks: Chips, folded: Bools, t: int) -> int:
    """The seats of table ``t`` that have not folded and have chips behind, as a bit set."""
    able = 0
    for seat in range(stacks.shape[0]):
        if stacks[seat, t] > 0 and not folded[seat, t]:
            able |= 1 << seat
    return able


@kernel
def _begin_preflop(
    rows: Index,
    opener: Int8s,
    stacks: Chips,
    bets: Chips,
    folded: Bools,
    num_bets: Int16s,
    max_bet: Chips,
    full_raise: Chips,
    short_all_in: Chips,
    acted: SeatSets,
    able: SeatSets,
    queue: SeatSets,
    actor: Int8s,
    first_from: Int8s,
    empty: Bools,
) -> None:
    num_seats = stacks.shape[0]
    live = np.empty((num_seats, 1), dtype=np.int64)
    for t in rows:
        num_bets[t] = 1  # the big blind is the first bet
        top = bets[0, t]
        for seat in range(1, num_seats):
            top = max(top, bets[seat, t])
        max_bet[t] = top
        full_raise[t], short_all_in[t], acted[t] = 0, 0, 0
        able[t] = _able(stacks, folded, t)
        # A seat with chips acts only if another live seat could match more than its bet
        # (the effective-stack rule: a short blind can leave a seat nothing to contest).
        for seat in range(num_seats):
            live[seat, 0] = -1 if folded[seat, t] else stacks[seat, t] + bets[seat, t]
        second = _second_largest(live, 0)
        waiting = 0
        for seat in range(num_seats):
            if able[t] >> seat & 1 and second > bets[seat, t]:
                waiting |= 1 << seat
        first = first_from[(opener[t] << num_seats) + waiting]
        alone = waiting & (waiting - 1) == 0  # at most one seat
        empty[t] = waiting == 0 or (alone and bets[max(first, 0), t] >= max_bet[t])
        queue[t] = 0 if empty[t] else waiting
        actor[t] = -1 if empty[t] else first


@kernel
def _return_uncalled(rows: Index, stacks: Chips, bets: Chips, contributions: Chips) -> None:
    # The uncalled part of the largest bet goes back to its owner.
    for t in rows:
        second = _second_largest(bets, t)
        for seat in range(bets.shape[0]):
            excess = max(bets[seat, t] - second, 0)
            stacks[seat, t] += excess
            contributions[seat, t] -= excess
            bets[seat, t] = 0


@kernel
def _next_streets(
    rows: Index,
    stacks: Chips,
    folded: Bools,
    num_active: Int8s,
    button: Int8s,
    street: Int8s,
    num_bets: Int16s,
    max_bet: Chips,
    full_raise: Chips,
    short_all_in: Chips,
    acted: SeatSets,
    able: SeatSets,
    queue: SeatSets,
    actor: Int8s,
    first_from: Int8s,
    after: Index,
    showdown: Bools,
) -> None:
    # Returned chips can give an all-in seat chips again: who can act is counted again.
    # Opening a street after the flop: every bet is 0 and at least two live seats have
    # chips, so the effective-stack rule leaves all of them to act, from the first left of
    # the button, and someone always does.
    for t in rows:
        able[t] = _able(stacks, folded, t)
        if num_active[t] == 1:  # folded out: paid already
            continue
        if street[t] == _RIVER or able[t] & (able[t] - 1) == 0:
            showdown[t] = True
            street[t] = _RIVER
            continue
        street[t] += 1
        num_bets[t], max_bet[t], full_raise[t], short_all_in[t], acted[t] = 0, 0, 0, 0, 0
        queue[t] |= able[t]  # the queue was empty
        actor[t] = first_from[after[button[t]] + queue[t]]


def _pay_fold_outs(state: BatchState, layout: Layout, tables: Bools) -> None:
    """The last seat in wins the whole pot."""
    rows = np.flatnonzero(tables)
    cells = layout.seat_offset[:, np.newaxis] + rows
    contributions = np.take(state.contributions, cells)
    winner = layout.seat_offset[np.argmin(np.take(state.folded, cells), axis=0)] + rows
    pot = contributions.sum(axis=0)
    scatter(state.payoffs, cells, -contributions)
    scatter(state.payoffs, winner, np.take(state.payoffs, winner) + pot)
    scatter(state.stacks, winner, np.take(state.stacks, winner) + pot)
    finish(state, tables)


def finish(state: BatchState, tables: Bools) -> None:
    """Mark the hands at ``tables`` as over (their payoffs are set)."""
    state.over |= tables
    state.finished |= tables
    state.actor -= tables * (state.actor + 1)
