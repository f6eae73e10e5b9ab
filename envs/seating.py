"""Seating agents at a table and letting them play: shared by the match runner and the env.

A table is a list with one entry per seat: a hosted agent (``SeatAgent``) or ``None`` for a
seat played from outside (the Gymnasium learner). ``play_turns`` lets the hosted agents act
until an outside seat is to act or the hand ends, checking every returned action.
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.game import Hand
from envs.protocols import SeatAgent
from envs.registry import make_agent
from envs.rules import Action

__all__ = ["build_agents", "play_turns", "tell_hand_end"]


def build_agents(agents: Sequence[SeatAgent | str]) -> list[SeatAgent]:
    """Agent objects from objects or registry names, each a distinct ``SeatAgent``.

    Raises:
        ValueError: on an unknown registry name, or one agent object given twice (its memory
            and generator would be shared between seats).
        TypeError: on an object that is not an agent.
    """
    built = [make_agent(a) if isinstance(a, str) else a for a in agents]
    seen: dict[int, int] = {}
    for index, agent in enumerate(built):
        if not isinstance(agent, SeatAgent):
            raise TypeError(f"not an agent (see envs.protocols.SeatAgent): {agent!r}")
        if id(agent) in seen:
            raise ValueError(
                f"the same agent object {agent!r} is given twice (positions {seen[id(agent)]} "
                f"and {index}); seat distinct instances"
            )
        seen[id(agent)] = index
    return built


def play_turns(hand: Hand, table: Sequence[SeatAgent | None]) -> int | None:
    """Let hosted agents act until an outside seat (``None``) is to act or the hand ends.

    Returns:
        The outside seat to act, or ``None`` once the hand is over.

    Raises:
        ValueError: when an agent returns anything but one of its legal actions.
    """
    while (seat := hand.actor) is not None:
        agent = table[seat]
        if agent is None:
            return seat
        view = hand.view(seat)
        action = agent.act(view)
        if type(action) is not Action or action not in view.legal_actions:
            raise ValueError(
                f"agent {agent.name!r} in seat {seat} returned an illegal action {action!r} "
                f"in hand {hand.hand_id} ({view.street.name.lower()}); legal actions: "
                f"{', '.join(a.name for a in view.legal_actions)}"
            )
        hand.act(action)
    return None


def tell_hand_end(hand: Hand, table: Sequence[SeatAgent | None]) -> None:
    """Show every hosted agent its terminal view of ``hand`` (the cards its seat saw)."""
    for seat, agent in enumerate(table):
        if agent is not None:
            agent.observe(hand.view(seat))
