"""Replay of the public betting history: the situation each seat faced when it acted.

Loki's opponent model needs, for every observed action, its context (round and bets to call,
Papp 1998 section 7.1.2) and, for the pot-odds exception of post-flop re-weighting, the chips
the seat put in and the pot before it (section 7.2.3). ``PlayerView.actions`` holds the actions
only, so the situation is rebuilt from the blinds and the amounts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from envs.rules import Action, Street
from envs.view import PlayerView

__all__ = ["Decision", "replay"]


@dataclass(frozen=True, slots=True)
class Decision:
    """One public action with the situation its seat faced just before it."""

    index: int
    """Position in ``view.actions``."""
    street: Street
    seat: int
    action: Action
    amount: int
    """Chips the seat put in with the action."""
    to_call: int
    """Chips the seat had to add to call, before acting."""
    pot: int
    """Chips in the pot before the action (current round included)."""
    num_bets: int
    """Bets made in the round before the action (the big blind counts pre-flop)."""
    bet_size: int
    active: int
    """Seats not folded before the action (the actor included)."""
    invested: bool
    """Whether the seat had already put chips in voluntarily this round."""

    @property
    def bets_to_call(self) -> int:
        """Papp's context variable: 0, 1 or 2 (meaning two or more) bets to call."""
        if self.to_call <= 0:
            return 0
        return min(2, -(-self.to_call // self.bet_size))


def replay(view: PlayerView, start: int = 0) -> Iterator[Decision]:
    """The decisions of ``view.actions[start:]``, each with the situation before it."""
    rules = view.rules
    n = rules.num_seats
    bets = list(view.blinds)
    pot = sum(view.blinds)
    folded = [False] * n
    invested = [False] * n
    street = Street.PREFLOP
    num_bets = 1
    for index, acted in enumerate(view.actions):
        if acted.street != street:
            street = acted.street
            bets = [0] * n
            invested = [False] * n
            num_bets = 0
        seat = acted.seat
        top = max(bets)
        if index >= start:
            yield Decision(
                index=index,
                street=street,
                seat=seat,
                action=acted.action,
                amount=acted.amount,
                to_call=top - bets[seat],
                pot=pot,
                num_bets=num_bets,
                bet_size=rules.bet_size(street),
                active=n - sum(folded),
                invested=invested[seat],
            )
        bets[seat] += acted.amount
        pot += acted.amount
        if acted.action == Action.FOLD:
            folded[seat] = True
        elif acted.amount > 0:
            invested[seat] = True
        if acted.action == Action.RAISE:
            num_bets += 1
