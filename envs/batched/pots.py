"""Showdowns of many tables at once: one evaluator call, then side pots and split pots as
array operations over (table, pot, seat).

The pots are those of ``envs.showdown.award_pots``: a hand that wins no pot is killed first (as
PokerKit does), so a pot is formed at each distinct contribution of a remaining winner, holding
the chips of every seat between that level and the level below; the chips above the highest
such level go to the highest pot. Each pot is split among its best hands, the odd chips going
to the first of them left of the button.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from envs.batched.rounds import finish
from envs.batched.seatwise import count_seats, scatter
from envs.batched.state import CHIP_LIMIT, BatchState, Bools, Chips, Int8s, Layout
from envs.evaluator import evaluate
from envs.view import position_of

__all__ = ["award", "showdown"]


def showdown(state: BatchState, layout: Layout, tables: Bools) -> None:
    """Show down the hands still in at ``tables`` (boards complete) and pay the pots."""
    rows = np.flatnonzero(tables)
    n = layout.num_seats
    cells = layout.seat_offset[:, np.newaxis] + rows  # (seat, row) in per-seat arrays
    contenders = ~np.take(state.folded, cells)
    # Every seat's seven cards, folded seats too: fewer array passes than picking contenders.
    deck = state.deck[rows]
    hands = np.empty((n, len(rows), 7), dtype=np.uint8)
    hands[:, :, :2] = deck[:, : 2 * n].reshape(len(rows), n, 2).transpose(1, 0, 2)
    hands[:, :, 2:] = deck[:, 2 * n : 2 * n + 5]
    ranks = evaluate(hands.reshape(-1, 7)).reshape(n, len(rows)).astype(np.int16)
    ranks *= contenders
    contributions = np.take(state.contributions, cells)
    button = state.button[rows]
    paid = contributions * contenders
    if (paid.max(axis=0) == (paid + ~contenders * CHIP_LIMIT).min(axis=0)).all():
        won = _split_one_pot(layout, contributions, ranks, button)
    else:
        won = award(contributions.T, contenders.T, ranks.T, button).T
    scatter(state.showed, cells, contenders)
    scatter(state.ranks, cells, ranks)
    scatter(state.payoffs, cells, won - contributions)
    scatter(state.stacks, cells, np.take(state.stacks, cells) + won)
    finish(state, tables)


def _split_one_pot(
    layout: Layout, contributions: Chips, ranks: npt.NDArray[np.int16], button: Int8s
) -> Chips:
    """``award`` when every contender put in the same (seat-major ``(seats, tables)``
    arrays): one pot, split among the best hands."""
    best = ranks == ranks.max(axis=0)  # ranks are 0 for seats not shown
    share, odd = np.divmod(contributions.sum(axis=0), count_seats(best))
    place = layout.place[button].T
    first = np.argmin(place + ~best * layout.num_seats, axis=0)
    won: Chips = best * share + (layout.seats[:, np.newaxis] == first) * odd
    return won


def award(
    contributions: Chips,
    contenders: Bools,
    ranks: npt.NDArray[np.int16],
    button: npt.NDArray[np.int8],
) -> Chips:
    """Chips won by each seat of each table.

    Args:
        contributions: ``(tables, seats)`` chips each seat put in over the hand.
        contenders: Seats still in at the showdown.
        ranks: Hand ranks of the contenders (higher is stronger; other entries are ignored).
        button: The button of each table (odd chips go to the first winner after it).
    """
    n = contributions.shape[1]
    seats = np.arange(n)
    strength = np.where(contenders, ranks, 0).astype(np.int32)
    # Axes [table, t, s]: seat t stands for the pot at its contribution level, s for a seat.
    level = contributions[:, :, np.newaxis]
    paid = contributions[:, np.newaxis, :]
    at_least = paid >= level
    # A contender wins some pot iff no contender who put in as much holds a better hand.
    best_above = np.where(at_least, strength[:, np.newaxis, :], 0).max(axis=2)
    winners = contenders & (strength == best_above)
    winner_seats = winners[:, np.newaxis, :]

    # One pot per distinct contribution of a winner, held by the first winner at that level.
    same_level = (paid == level) & winner_seats
    pots = winners & (np.argmax(same_level, axis=2) == seats)
    eligible = at_least & winner_seats
    best = np.where(eligible, strength[:, np.newaxis, :], 0).max(axis=2)
    split = eligible & (strength[:, np.newaxis, :] == best[:, :, np.newaxis])
    below = np.where(~at_least & winner_seats, paid, 0).max(axis=2)[:, :, np.newaxis]
    amount = (np.minimum(paid, level) - below).clip(0).sum(axis=2)
    # Chips above the highest winner's level (folded seats' only) join the highest pot.
    highest = np.where(winners, contributions, 0).max(axis=1, keepdims=True)
    amount += (pots & (contributions == highest)) * (paid - level).clip(0).sum(axis=2)
    amount *= pots
    share, odd = np.divmod(amount, np.maximum(split.sum(axis=2), 1))
    # The odd chips of a pot go to its first winner from the seat left of the button.
    place = position_of(seats, button[:, np.newaxis].astype(np.intp), n)
    first = np.argmin(np.where(split, place[:, np.newaxis, :], n), axis=2)
    won = (
        split * share[:, :, np.newaxis]
        + (first[:, :, np.newaxis] == seats) * odd[:, :, np.newaxis]
    )
    total: Chips = won.sum(axis=1).astype(contributions.dtype)
    return total
