"""Seating agents at a table and letting them play: shared by the match runner and the env.

A table is a list with one entry per seat: a hosted agent (``SeatAgent``) or ``None`` for a
seat played from outside (the Gymnasium learner). ``play_turns`` lets the hosted agents act
until an outside seat is to act or the hand ends, checking every returned action.

With ``HandDraws``, an agent that states its policy (``envs.protocols.KnownPolicy``) does not
draw its action itself: the action is drawn by inverse CDF from the uniform of the decision,
``(seed, deal, seat, decision index)`` (``envs.crn``), exactly as the batched engine draws it,
and the probabilities played are recorded (for ``envs.aivat``). An agent whose decisions share
one uniform per hand (``hand_uniform``) draws its later decisions from the residual of its
earlier ones (``envs.crn.residual``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

from envs.crn import hand_key, residual, sample_action, uniform_at
from envs.game import Hand
from envs.protocols import KnownPolicy, Probabilities, SeatAgent
from envs.registry import make_agent
from envs.rules import Action
from envs.view import PlayerView

__all__ = ["HandDraws", "build_agents", "play_turns", "tell_hand_end"]

_CERTAIN = {
    Action.FOLD: (1.0, 0.0, 0.0),
    Action.CALL: (0.0, 1.0, 0.0),
    Action.RAISE: (0.0, 0.0, 1.0),
}


class HandDraws:
    """The common random numbers of one hand's decisions, and the probabilities played.

    Args:
        seed: The match seed.
        deal: The deal number (the key of the hand's uniforms with ``seed``).
        num_seats: Seats at the table.
    """

    __slots__ = ("_key", "_left", "decisions", "known", "probabilities")

    def __init__(self, seed: int, deal: int, num_seats: int) -> None:
        self._key = hand_key(seed, deal)
        self.decisions = [0] * num_seats
        """Decisions taken by each seat so far."""
        self._left = [0.0] * num_seats
        """Each seat's residual uniform (for agents with ``hand_uniform``)."""
        self.probabilities: list[Probabilities] = []
        """The probabilities played at each public action, in order."""
        self.known: list[bool] = []
        """Whether each of those was a stated policy (else the one-hot of a choice)."""

    def decide(self, agent: SeatAgent, view: PlayerView) -> Action:
        """The action of ``agent`` at ``view``: drawn from its stated probabilities with the
        decision's uniform, or its own choice; ``ValueError`` if not a legal distribution."""
        seat = view.seat
        if _states_policy(type(agent)):
            probabilities = cast(KnownPolicy, agent).action_probabilities(view)
            _check(agent, view, probabilities)
            shared = _shares_hand_uniform(agent)
            if shared and self.decisions[seat]:
                u = self._left[seat]
            else:
                u = uniform_at(self._key, seat, self.decisions[seat])
            action = sample_action(probabilities, u)
            if shared:
                self._left[seat] = residual(probabilities, u, action)
            known = True
        else:
            action = agent.act(view)
            _check_action(agent, view, action)
            probabilities = _CERTAIN[action]
            known = False
        self.decisions[seat] += 1
        self.probabilities.append(probabilities)
        self.known.append(known)
        return action


def _shares_hand_uniform(agent: SeatAgent) -> bool:
    """Whether the agent's decisions in a hand share one uniform (``KnownPolicy``)."""
    return bool(getattr(agent, "hand_uniform", False))


@functools.cache
def _states_policy(kind: type) -> bool:
    # Once per class: a protocol isinstance check costs more than the decision it guards.
    return issubclass(kind, KnownPolicy)


def _check(agent: SeatAgent, view: PlayerView, probabilities: Probabilities) -> None:
    legal = view.legal_actions
    if len(probabilities) == 3:
        fold, call, bet = probabilities
        # Unrolled (this runs at every decision): non-negative (NaN fails), zero on the
        # illegal actions, summing to one.
        if (
            fold >= 0.0
            and call >= 0.0
            and bet >= 0.0
            and abs(fold + call + bet - 1.0) <= 1e-9
            and (fold == 0.0 or Action.FOLD in legal)
            and (call == 0.0 or Action.CALL in legal)
            and (bet == 0.0 or Action.RAISE in legal)
        ):
            return
    raise ValueError(
        f"agent {agent.name!r} in seat {view.seat} returned action probabilities "
        f"{tuple(probabilities)} in hand {view.hand_id} ({view.street.name.lower()}) that "
        f"are not a distribution over its legal actions: "
        f"{', '.join(a.name for a in legal)}"
    )


def _check_action(agent: SeatAgent, view: PlayerView, action: object) -> None:
    if type(action) is not Action or action not in view.legal_actions:
        raise ValueError(
            f"agent {agent.name!r} in seat {view.seat} returned an illegal action {action!r} "
            f"in hand {view.hand_id} ({view.street.name.lower()}); legal actions: "
            f"{', '.join(a.name for a in view.legal_actions)}"
        )


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


def play_turns(
    hand: Hand, table: Sequence[SeatAgent | None], draws: HandDraws | None = None
) -> int | None:
    """Let hosted agents act until an outside seat (``None``) is to act or the hand ends.

    Args:
        hand: The hand in progress.
        table: The hosted agent of each seat, ``None`` for outside seats.
        draws: The hand's common random numbers; without them every agent chooses itself
            (``act``).

    Returns:
        The outside seat to act, or ``None`` once the hand is over.

    Raises:
        ValueError: when an agent returns anything but one of its legal actions (or
            probabilities that are not a distribution over them).
    """
    while (seat := hand.actor) is not None:
        agent = table[seat]
        if agent is None:
            return seat
        view = hand.view(seat)
        if draws is None:
            action = agent.act(view)
            _check_action(agent, view, action)
        else:
            action = draws.decide(agent, view)
        hand.act(action)
    return None


def tell_hand_end(hand: Hand, table: Sequence[SeatAgent | None]) -> None:
    """Show every hosted agent its terminal view of ``hand`` (the cards its seat saw)."""
    for seat, agent in enumerate(table):
        if agent is not None:
            agent.observe(hand.view(seat))
