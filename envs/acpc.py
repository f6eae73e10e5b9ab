"""Export a hand as an ACPC ``STATE`` line, the competition dealers' log format.

``STATE:<hand>:<betting>:<cards>:<payoffs>:<players>``, positions starting at the first seat
left of the button (heads-up: the big blind, as in ACPC's reverse-blinds games). Rounds with no
betting after an all-in are left empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from envs.cards import format_cards
from envs.events import Acted
from envs.rules import Action, Street

if TYPE_CHECKING:
    from envs.game import Hand

_CHARS = {Action.FOLD: "f", Action.CALL: "c", Action.RAISE: "r"}
_BOARD_CUTS = ((Street.FLOP, 0, 3), (Street.TURN, 3, 4), (Street.RIVER, 4, 5))


def acpc_state(hand: Hand, names: Sequence[str] | None = None) -> str:
    """The ACPC ``STATE`` line of ``hand`` (payoffs empty while it is running)."""
    n = hand.num_seats
    if names is not None and len(names) != n:
        raise ValueError(f"need {n} player names, got {len(names)}")
    order = [(hand.button + 1 + p) % n for p in range(n)]
    acted = [event for event in hand.events if isinstance(event, Acted)]
    betting = betting_string(acted, rounds=1 + max(0, len(hand.board) - 2))
    cards = "|".join(format_cards(hand.hole(s)) for s in order)
    board = hand.board
    for _, lo, hi in _BOARD_CUTS:
        if len(board) >= hi:
            cards += "/" + format_cards(board[lo:hi])
    payoffs = "|".join(str(hand.payoffs[s]) for s in order) if hand.is_over else ""
    players = "|".join(names[s] if names else f"p{s}" for s in order)
    return f"STATE:{hand.hand_id}:{betting}:{cards}:{payoffs}:{players}"


def betting_string(actions: Iterable[Acted], rounds: int) -> str:
    """Betting in ACPC notation (``f``/``c``/``r``), ``rounds`` rounds separated by ``/``.

    >>> betting_string([Acted(Street.PREFLOP, 0, Action.RAISE, 3)], rounds=2)
    'r/'
    """
    chars = [""] * rounds
    for acted in actions:
        chars[acted.street] += _CHARS[acted.action]
    return "/".join(chars)
