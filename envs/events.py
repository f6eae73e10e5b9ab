"""The immutable record a hand leaves behind: one small value per thing that happened.

Events are ``NamedTuple``s because the engine creates a dozen per hand in its hot path.
"""

from __future__ import annotations

from typing import NamedTuple

from envs.rules import Action, Street


class HoleDealt(NamedTuple):
    """Two private cards dealt to a seat."""

    seat: int
    cards: tuple[int, int]


class BlindPosted(NamedTuple):
    """A forced bet (possibly all-in for less than the blind)."""

    seat: int
    amount: int


class BoardDealt(NamedTuple):
    """Community cards of a round (three on the flop, one on the turn and river)."""

    street: Street
    cards: tuple[int, ...]


class Acted(NamedTuple):
    """A betting decision; ``amount`` is the chips the seat put in with it."""

    street: Street
    seat: int
    action: Action
    amount: int


class BetReturned(NamedTuple):
    """The uncalled part of a bet, given back at the end of a round."""

    seat: int
    amount: int


class ShowedDown(NamedTuple):
    """A seat showing its cards; ``rank`` is 1..7462, higher is stronger."""

    seat: int
    cards: tuple[int, int]
    rank: int


class PotAwarded(NamedTuple):
    """Chips of pot ``pot`` (0 = main pot, then side pots) given to a winner."""

    pot: int
    seat: int
    amount: int


class HandEnded(NamedTuple):
    """Net chips won by each seat; they sum to zero."""

    payoffs: tuple[int, ...]


Event = (
    HoleDealt
    | BlindPosted
    | BoardDealt
    | Acted
    | BetReturned
    | ShowedDown
    | PotAwarded
    | HandEnded
)
