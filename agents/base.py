"""The agent contract: what every holdem-lab agent implements.

An agent sees only a ``PlayerView`` (its own cards, the board and the public betting) and
answers with an ``Action`` taken from ``view.legal_actions``. Randomness comes from one injected
``numpy.random.Generator``: the match runner calls ``reset(rng)`` at the start of every match,
and an agent draws from ``self.rng`` and nothing else.

``Agent`` implements ``envs.protocols.SeatAgent`` (the structural contract envs/ relies on), so
agents can be seated by the match runner and the Gymnasium env, and registered by name under the
``holdem_lab.agents`` entry-point group.

Writing an agent::

    class AlwaysFold(Agent):
        '''Agent card: folds whenever it may, checks otherwise.'''

        name = "fold"

        def act(self, view: PlayerView) -> Action:
            legal = legal_actions(view)
            return Action.FOLD if Action.FOLD in legal else Action.CALL
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from envs.crn import sample_action
from envs.protocols import BatchedAgent, Probabilities
from envs.rules import Action
from envs.view import PlayerView

__all__ = [
    "Action",
    "Agent",
    "KnownPolicyAgent",
    "MemorylessBot",
    "PlayerView",
    "Probabilities",
    "certain",
    "legal_actions",
]


class Agent(ABC):
    """Base class of holdem-lab agents (implements ``envs.protocols.SeatAgent``).

    Subclasses set the class attribute ``name`` (their registry name), implement ``act`` and,
    if they learn during a match, override ``_forget`` (called by ``reset``) and ``observe``.

    Args:
        rng: The generator to draw from until the next ``reset``. ``None`` (the default, and
            what the registry uses) leaves the agent without randomness until ``reset(rng)``;
            reading ``rng`` before that raises ``RuntimeError``.
    """

    name: str = "agent"
    """Short name, the agent's key in the ``holdem_lab.agents`` registry."""
    memoryless: bool = False
    """Whether its decisions depend on nothing from earlier hands (no learning, no memory
    between hands); runners may then spread a session's hands over several copies."""

    def __init__(self, *, rng: np.random.Generator | None = None) -> None:
        if rng is not None:
            _check_generator(rng)
        self._rng = rng

    @property
    def rng(self) -> np.random.Generator:
        """The generator of this match; ``RuntimeError`` if none was given yet."""
        if self._rng is None:
            raise RuntimeError(
                f"agent {self.name!r} has no random generator yet: call "
                "reset(numpy.random.default_rng(seed)) (the match runner does) or pass rng= "
                "to the constructor"
            )
        return self._rng

    def reset(self, rng: np.random.Generator) -> None:
        """Start a match: forget anything learned and draw from ``rng`` from now on.

        Raises:
            TypeError: if ``rng`` is not a ``numpy.random.Generator``.
        """
        _check_generator(rng)
        self._rng = rng
        self._forget()

    def _forget(self) -> None:  # noqa: B027 - an optional hook, empty on purpose
        """Drop what was learned about opponents; subclasses with memory override this."""

    @abstractmethod
    def act(self, view: PlayerView) -> Action:
        """Choose an action for the seat to act; it must be one of ``view.legal_actions``."""

    def observe(self, view: PlayerView) -> None:  # noqa: B027 - optional, no-op by default
        """Be told how a hand ended (``view.is_terminal``, shown cards, payoffs)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class KnownPolicyAgent(Agent):
    """An agent that states its action probabilities (``envs.protocols.KnownPolicy``).

    Subclasses implement ``action_probabilities``; ``act`` samples it with the agent's own
    generator (drawing nothing when one action is certain). The match runners do not call
    ``act``: they draw the action from the probabilities with the common random number of the
    decision (``envs.crn``), so that two agents with close probabilities take the same action
    most of the time, and the variance-reduced estimator can correct the decision.
    """

    @abstractmethod
    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """``(P(fold), P(call), P(raise))`` at this decision: zero on illegal actions."""

    def act(self, view: PlayerView) -> Action:
        """An action drawn from ``action_probabilities(view)``."""
        probabilities = self.action_probabilities(view)
        for action, p in zip(ACTIONS, probabilities, strict=True):
            if p == 1.0:
                return action
        return sample_action(probabilities, float(self.rng.random()))


class MemorylessBot(KnownPolicyAgent):
    """A baseline bot with no memory; the bots of ``agents.baselines`` and ``agents.biased``
    build a batched twin (``agents.batched_baselines``)."""

    memoryless = True

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """The batched twin playing this bot at ``num_tables`` tables; ``None`` unless the
        class builds one."""
        return None


def certain(action: Action) -> Probabilities:
    """The probabilities of playing ``action`` for sure.

    >>> certain(Action.RAISE)
    (0.0, 0.0, 1.0)
    """
    return _CERTAIN[action]


ACTIONS = tuple(Action)
_CERTAIN: dict[Action, Probabilities] = {
    Action.FOLD: (1.0, 0.0, 0.0),
    Action.CALL: (0.0, 1.0, 0.0),
    Action.RAISE: (0.0, 0.0, 1.0),
}


def legal_actions(view: PlayerView) -> tuple[Action, ...]:
    """The legal actions of ``view``; ``ValueError`` if it is not this seat's turn.

    Agents call this first in ``act`` so that a misuse (asking an agent to act on a terminal
    view or on another seat's turn) fails loudly instead of returning a meaningless action.
    """
    legal = view.legal_actions
    if not legal:
        state = "the hand is over" if view.is_terminal else f"seat {view.seat} is not to act"
        raise ValueError(f"no legal action to choose from: {state}")
    return legal


def _check_generator(rng: object) -> None:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"agents draw from a numpy.random.Generator, got {type(rng).__name__}; "
            "build one with numpy.random.default_rng(seed)"
        )
