"""Finished hands as arrays: what both engines hand to the match's accounts.

The scalar engine converts its ``Hand`` objects (``from_hands``), the batched engine slices its
arrays (``envs.match.batched``); the accounts then count chips, player statistics and AIVAT
corrections the same way for both, so both report the same figures for the same hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from envs.aivat import PlayedHands
from envs.game import Hand
from envs.rules import Action, Rules, Street

__all__ = ["FinishedHands", "SeatFlags", "from_hands", "seat_flags"]

Ints = npt.NDArray[np.int64]
Integers = npt.NDArray[np.integer]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class FinishedHands:
    """``k`` finished hands (S seats, L the longest log)."""

    deals: Ints
    """``(k,)`` global deal number."""
    rotations: Ints
    """``(k,)`` rotation that played it (who sat where)."""
    payoffs: Ints
    """``(k, S)`` net chips per seat."""
    log_len: Integers
    log_street: Integers
    log_seat: Integers
    log_action: Integers
    log_amount: Integers
    """``(k, L)`` the public actions (valid up to ``log_len``), in any integer type."""
    showed: Bools
    """``(k, S)`` seats that showed down."""
    flop_dealt: Bools
    """``(k,)`` whether the flop was dealt (all-in run-outs included)."""
    played: PlayedHands | None = None
    """What AIVAT needs, when the match computes it."""


@dataclass(frozen=True)
class SeatFlags:
    """Per hand and seat, what the player statistics count.

    * VPIP: it put chips in pre-flop voluntarily (called a positive amount or raised; posting
      a blind or the big blind's free check is not voluntary).
    * PFR: it raised pre-flop.
    * AF: post-flop (bets + raises) / calls, checks not counted.
    * WTSD: it went to showdown, among the hands where it saw the flop (was not folded when
      the flop was dealt, all-in players included).
    """

    vpip: Bools
    pfr: Bools
    saw_flop: Bools
    showdowns: Bools
    aggressive: Ints
    calls: Ints


def seat_flags(hands: FinishedHands, num_seats: int) -> SeatFlags:
    """VPIP, PFR, flop seen, showdown, post-flop bets/raises and calls of each seat."""
    k, width = hands.log_seat.shape
    # The valid entries only (a few per hand, of a log as wide as the longest hand).
    entries = np.flatnonzero(np.arange(width) < hands.log_len[:, np.newaxis])
    street, seat, action, amount = (
        np.take(log, entries)
        for log in (hands.log_street, hands.log_seat, hands.log_action, hands.log_amount)
    )
    # Each entry's (hand, seat) cell: one count per flag over all seats at once.
    cell = entries // width * num_seats + seat
    preflop, raised = street == Street.PREFLOP, action == Action.RAISE
    called = (action == Action.CALL) & (amount > 0)

    def per_seat(chosen: Bools) -> Ints:
        counts = np.bincount(cell[chosen], minlength=k * num_seats)
        return counts.astype(np.int64, copy=False).reshape(k, num_seats)

    pfr = per_seat(preflop & raised) > 0
    vpip = per_seat(preflop & (raised | called)) > 0
    folded_pre = per_seat(preflop & (action == Action.FOLD)) > 0
    saw_flop = hands.flop_dealt[:, np.newaxis] & ~folded_pre
    aggressive, calls = per_seat(~preflop & raised), per_seat(~preflop & called)
    return SeatFlags(vpip, pfr, saw_flop, hands.showed, aggressive, calls)


def from_hands(
    rules: Rules,
    hands: Sequence[Hand],
    deals: Sequence[int],
    rotations: Sequence[int],
    played: PlayedHands | None = None,
) -> FinishedHands:
    """The arrays of finished scalar hands (in the order given)."""
    k, seats = len(hands), rules.num_seats
    width = max(1, max(len(h.view(0).actions) for h in hands))
    log = np.zeros((4, k, width), dtype=np.int64)
    lengths = np.zeros(k, dtype=np.int64)
    showed = np.zeros((k, seats), dtype=bool)
    for i, hand in enumerate(hands):
        view = hand.view(0)
        lengths[i] = len(view.actions)
        for j, acted in enumerate(view.actions):
            log[:, i, j] = (acted.street, acted.seat, acted.action, acted.amount)
        for seat, cards in enumerate(view.shown):
            showed[i, seat] = cards is not None
    return FinishedHands(
        deals=np.asarray(deals, dtype=np.int64),
        rotations=np.asarray(rotations, dtype=np.int64),
        payoffs=np.array([h.payoffs for h in hands], dtype=np.int64).reshape(k, seats),
        log_len=lengths,
        log_street=log[0],
        log_seat=log[1],
        log_action=log[2],
        log_amount=log[3],
        showed=showed,
        flop_dealt=np.array([len(h.board) >= 3 for h in hands], dtype=bool),
        played=played,
    )
