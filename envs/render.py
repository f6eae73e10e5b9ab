"""Plain-text rendering of one seat's view of a hand (the env's ``render_mode="ansi"``).

>>> from envs.cards import parse_cards
>>> from envs.game import Hand
>>> from envs.rules import Rules
>>> hand = Hand(Rules(), parse_cards("AsAh KdKc 2c3d4h 9s Jd"), button=0)
>>> print(render_view(hand.view(0), ("you", "call")))
hand 0 · pre-flop · pot 3 · board --
  seat 0 you  [AsAh]  button  stack 47  bet 1  to act
  seat 1 call [????]          stack 46  bet 2
betting: -
you to act: 1 to call; legal: fold, call, raise
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.acpc import betting_string
from envs.cards import format_cards
from envs.view import PlayerView

_STREET_NAMES = ("pre-flop", "flop", "turn", "river")


def render_view(view: PlayerView, names: Sequence[str]) -> str:
    """A few lines describing the table as seat ``view.seat`` sees it."""
    board = format_cards(view.board) if view.board else "--"
    lines = [
        f"hand {view.hand_id} · {_STREET_NAMES[view.street]} · pot {view.pot} · board {board}"
    ]
    width = max(len(name) for name in names)
    for seat, name in enumerate(names):
        if seat == view.seat:
            cards = format_cards(view.hole)
        elif view.shown and view.shown[seat] is not None:
            cards = format_cards(view.shown[seat])  # type: ignore[arg-type]
        else:
            cards = "????"
        marks = "button" if seat == view.button else "      "
        row = (
            f"  seat {seat} {name:<{width}} [{cards}]  {marks}  stack {view.stacks[seat]}  "
            f"bet {view.bets[seat]}"
        )
        if view.folded[seat]:
            row += "  folded"
        if seat == view.seat and view.legal_actions:
            row += "  to act"
        if view.payoffs:
            row += f"  {view.payoffs[seat]:+d}"
        lines.append(row)
    betting = betting_string(view.actions, rounds=view.street + 1)
    lines.append(f"betting: {betting or '-'}")
    if view.legal_actions:
        legal = ", ".join(a.name.lower() for a in view.legal_actions)
        lines.append(f"{names[view.seat]} to act: {view.to_call} to call; legal: {legal}")
    elif view.is_terminal:
        lines.append("hand over")
    return "\n".join(lines)
