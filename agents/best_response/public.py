"""The public side of a heads-up hand: who is who, and the betting state everyone sees."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from envs.rules import Action, Street

__all__ = ["ACTION_LETTERS", "LearnerSeat", "PublicState", "Role"]

ACTION_LETTERS = "fcr"
"""ACPC's letters for fold, check/call and bet/raise, indexed by ``Action``."""


class Role(IntEnum):
    """The two players of a best-response computation; also the index of their chips."""

    LEARNER = 0
    """The player whose best response is computed."""
    BOT = 1
    """The card-independent opponent."""


class LearnerSeat(IntEnum):
    """Where the learner sits heads-up."""

    BUTTON = 0
    """The button: posts the small blind, acts first pre-flop and last after the flop."""
    BIG_BLIND = 1
    """Posts the big blind, acts last pre-flop and first after the flop."""

    @property
    def label(self) -> str:
        """Lower-case name for tables and JSON: ``button`` or ``big blind``."""
        return "button" if self is LearnerSeat.BUTTON else "big blind"


class PublicState(NamedTuple):
    """What a card-independent policy may condition on: the public betting state of a decision.

    The same information a ``PlayerView`` carries about the betting, in the two-player terms
    of the best-response computation.
    """

    street: Street
    actor: Role
    """Who is to act."""
    bot_is_button: bool
    """Whether the bot posted the small blind (and acts first pre-flop)."""
    rounds: tuple[str, ...]
    """Actions of each betting round so far as ACPC letters (``fcr``), the current one last."""
    contributions: tuple[int, int]
    """Chips the learner and the bot have put in over the hand, blinds included."""
    num_bets: int
    """Bets made in the current round, the big blind counting as the first pre-flop."""
    to_call: int
    """Chips the actor must add to call (0 when it may check)."""
    legal_actions: tuple[Action, ...]
