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
    log_len: Ints
    log_street: Ints
    log_seat: Ints
    log_action: Ints
    log_amount: Ints
    """``(k, L)`` the public actions (valid up to ``log_len``)."""
    showed: Bools
    """``(k, S)`` seats that showed down."""
    flop_dealt: Bools
    """``(k,)`` whether the flop was dealt (all-in run-outs included)."""
    played: PlayedHands | None = None
    """What AIVAT needs, when the match computes it."""


@dataclass(frozen=True)
class SeatFlags:
    """Per hand and seat, what the player statistics count (``envs.stats.PlayerTally``)."""

    vpip: Bools
    pfr: Bools
    saw_flop: Bools
    showdowns: Bools
    aggressive: Ints
    calls: Ints


def seat_flags(hands: FinishedHands, num_seats: int) -> SeatFlags:
    """VPIP, PFR, flop seen, showdown, post-flop bets/raises and calls of each seat."""
    k, width = hands.log_seat.shape
    valid = np.arange(width) < hands.log_len[:, np.newaxis]
    preflop = valid & (hands.log_street == Street.PREFLOP)
    postflop = valid & (hands.log_street > Street.PREFLOP)
    raised = hands.log_action == Action.RAISE
    called = (hands.log_action == Action.CALL) & (hands.log_amount > 0)
    folded = hands.log_action == Action.FOLD
    shape = (k, num_seats)
    vpip, pfr, folded_pre = np.zeros(shape, bool), np.zeros(shape, bool), np.zeros(shape, bool)
    aggressive, calls = np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    for seat in range(num_seats):
        mine = hands.log_seat == seat
        pfr[:, seat] = (preflop & mine & raised).any(axis=1)
        vpip[:, seat] = (preflop & mine & (raised | called)).any(axis=1)
        folded_pre[:, seat] = (preflop & mine & folded).any(axis=1)
        aggressive[:, seat] = (postflop & mine & raised).sum(axis=1)
        calls[:, seat] = (postflop & mine & called).sum(axis=1)
    saw_flop = hands.flop_dealt[:, np.newaxis] & ~folded_pre
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
