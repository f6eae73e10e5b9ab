"""Starting and ending betting rounds over masked tables: blinds, who acts, uncalled bets
returned, dealing the next street, fold-outs and which tables go to showdown.

Same order of play as ``envs.game.Hand``: after the flop the first seat left of the button with
chips opens; a seat acts only if it has chips and someone could still contest them (the
effective-stack rule); a round with nobody to act (or one seat that already matches the bet)
ends at once.
"""

from __future__ import annotations

import numpy as np

from envs.batched.seatwise import pack_seats, scatter, second_largest
from envs.batched.state import BatchState, Bools, Chips, Index, Int8s, Layout
from envs.rules import Street

__all__ = ["begin_preflop", "end_rounds", "finish", "post_blinds"]

_RIVER = int(Street.RIVER)


def post_blinds(
    state: BatchState, layout: Layout, rows: Index, cells: Index, stacks: Chips
) -> Int8s:
    """Post both blinds (all-in for less when a stack is short) at freshly dealt ``rows``.

    Args:
        cells: ``(seats, len(rows))`` indices of the rows' seats in raveled per-seat arrays.
        stacks: ``(seats, len(rows))`` chips before the blinds.

    Returns:
        The seat that opens the pre-flop betting at each of ``rows``: the one after the larger
        blind (a short big blind below the small blind hands that role to the small blind).
    """
    button = state.button[rows]
    posted = np.minimum(stacks, layout.blinds[button].T)
    scatter(state.stacks, cells, stacks - posted)
    for chips in (state.bets, state.contributions, state.blinds):
        scatter(chips, cells, posted)
    small, big = layout.small_blind_seat[button], layout.big_blind_seat[button]
    columns = np.arange(len(rows))
    small_posted = np.take(posted, small.astype(np.intp) * len(rows) + columns)
    big_posted = np.take(posted, big.astype(np.intp) * len(rows) + columns)
    top = small + (big_posted >= small_posted) * (big - small)
    opener: Int8s = layout.next_seat[top]
    return opener


def begin_preflop(state: BatchState, layout: Layout, tables: Bools, opener: Int8s) -> Bools:
    """Open the pre-flop betting at ``tables`` (blinds posted), ``opener`` first in line.

    Returns:
        The tables where nobody is to act (all-in blinds), so the round ends at once.
    """
    keep = ~tables
    state.num_bets += tables * (1 - state.num_bets)  # the big blind is the first bet
    state.max_bet += tables * (state.bets.max(axis=0) - state.max_bet)
    state.full_raise *= keep
    state.short_all_in *= keep
    state.acted *= keep
    able = (state.stacks > 0) & ~state.folded
    state.able ^= (pack_seats(able) ^ state.able) * tables
    # A seat with chips acts only if another live seat could match more than its bet (the
    # effective-stack rule: a short blind can leave a seat nothing to contest).
    live = (state.stacks + state.bets + 1) * ~state.folded - 1
    queue = pack_seats(able & (second_largest(live) > state.bets))
    first = np.take(layout.first_from, (opener.astype(np.intp) << layout.num_seats) + queue)
    first_bet = np.take(state.bets, layout.seat_offset[np.maximum(first, 0)] + layout.tables)
    alone = (queue & (queue - 1)) == 0  # at most one seat
    empty: Bools = tables & ((queue == 0) | (alone & (first_bet >= state.max_bet)))
    queue *= ~empty
    state.queue ^= (queue ^ state.queue) * tables
    first = first * ~empty - empty
    state.actor += tables * (first - state.actor)
    return empty


def end_rounds(state: BatchState, layout: Layout, tables: Bools) -> Bools:
    """End the betting round at ``tables`` and carry each on to the next street's first
    decision or to the end of the hand: fold-outs are paid here, showdowns are left to the
    caller (one evaluator call for all of them).

    Returns:
        The tables that reached a showdown (their board is complete, their payoffs not yet).
    """
    # The uncalled part of the largest bet goes back to its owner.
    excess = np.maximum(state.bets - second_largest(state.bets), 0) * tables
    state.stacks += excess
    state.contributions -= excess
    state.bets *= ~tables
    folded_out = tables & (state.num_active == 1)
    if folded_out.any():
        _pay_fold_outs(state, layout, folded_out)
    # Returned chips can give an all-in seat chips again: recount who can act.
    able = pack_seats((state.stacks > 0) & ~state.folded)
    state.able ^= (able ^ state.able) * tables
    at_most_one = (able & (able - 1)) == 0
    showdown: Bools = tables & ~folded_out & ((state.street == _RIVER) | at_most_one)
    state.street += showdown * (_RIVER - state.street)
    advance = tables & ~folded_out & ~showdown
    state.street += advance
    _begin_street(state, layout, advance)
    return showdown


def _begin_street(state: BatchState, layout: Layout, tables: Bools) -> None:
    """Open the betting of a street after the flop at ``tables``.

    Every bet is 0 and at least two live seats have chips, so the effective-stack rule leaves
    all of them to act, from the first left of the button, and someone always does.
    """
    keep = ~tables
    state.num_bets *= keep
    state.max_bet *= keep
    state.full_raise *= keep
    state.short_all_in *= keep
    state.acted *= keep
    state.queue |= state.able * tables  # these tables' queues were empty
    first = np.take(layout.first_from, layout.after[state.button] + state.queue)
    state.actor += tables * (first - state.actor)


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
