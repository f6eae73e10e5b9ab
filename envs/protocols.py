"""The contracts envs/ needs from agents, stated structurally.

``agents.base.Agent`` implements ``SeatAgent``; envs/ only depends on these protocols, so that
envs never imports agents (agents are found by name through the ``holdem_lab.agents`` entry
points).

* ``SeatAgent``: an agent that can sit at a table and choose actions from its ``PlayerView``.
* ``KnownPolicy``: a seat agent that also states the probabilities it plays. The runners then
  draw its action themselves, by inverse CDF from the common random number of the decision
  (``envs.crn``), and variance-reduced estimators (``envs.aivat``) may correct its decisions.
* ``BatchedAgent``: one object deciding for thousands of tables at once (``envs.batched``),
  with per-table memory and parameters; ``HasBatchedForm``: a seat agent that can build one
  playing its own parameters at every table.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from envs.batched.views import DecisionBatch, HandEndBatch
from envs.rules import Action
from envs.view import PlayerView

__all__ = [
    "BatchedAgent",
    "HasBatchedForm",
    "HasTableBytes",
    "KnownPolicy",
    "Probabilities",
    "SeatAgent",
]

Probabilities = tuple[float, float, float]
"""Probabilities of ``(FOLD, CALL, RAISE)``; zero on illegal actions, summing to one."""


@runtime_checkable
class SeatAgent(Protocol):
    """An agent that can sit at a table."""

    name: str

    def reset(self, rng: np.random.Generator) -> None:
        """Start a new match: forget what was learned and draw from ``rng`` from now on."""

    def act(self, view: PlayerView) -> Action:
        """Choose a legal action for the seat to act."""
        ...

    def observe(self, view: PlayerView) -> None:
        """Be told the end of a hand, with the cards this seat saw (``view.is_terminal``)."""


@runtime_checkable
class KnownPolicy(Protocol):
    """A seat agent that states the action probabilities it plays at a decision.

    An agent may also set ``hand_uniform = True``: its decisions in a hand share one uniform
    (its probabilities at a decision are conditioned on its earlier actions in the hand), and
    the runners draw them from the residuals of one per-hand uniform (``envs.crn``). Without
    the attribute every decision has a uniform of its own.
    """

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """``(P(fold), P(call), P(raise))`` at this decision (the agent may update its
        within-hand state, exactly as ``act`` would)."""
        ...


class BatchedAgent(Protocol):
    """One agent at ``num_tables`` tables at once (arrays over tables; see ``envs.batched``).

    At table ``t`` it sits in the seat given to ``start_tables``, with its own memory and
    parameters there. It never draws its actions: it returns probabilities, and the runner
    draws each action from the common random number of the decision.
    """

    name: str
    known_policy: bool
    """Whether the probabilities are the policy (False: one-hot choices of an agent that
    decided by itself, e.g. with its own generator), so corrections may use them."""
    memoryless: bool
    """Whether its decisions at a table depend on nothing from that table's earlier hands
    (then a runner may deal a session's hands to several tables)."""
    hand_uniform: bool
    """Whether its decisions in a hand share one uniform (``KnownPolicy``, ``envs.crn``)."""

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Fresh memory at ``tables`` (new sessions); it sits in ``seats[i]`` at ``tables[i]``."""

    def probabilities(self, batch: DecisionBatch) -> npt.NDArray[np.float64]:
        """``(k, 3)`` action probabilities at the rows of ``batch``."""
        ...

    def observe_ends(self, batch: HandEndBatch) -> None:
        """The hands at ``batch.tables`` ended: learn from what the seat saw."""


@runtime_checkable
class HasBatchedForm(Protocol):
    """A seat agent that may have a batched twin playing exactly as it does."""

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """A batched agent playing this agent's parameters at each of ``num_tables`` tables,
        with fresh memory (nothing this agent learned is copied); ``None`` when there is no
        faithful twin (e.g. for a subclass that changes how the agent plays or remembers)."""
        ...


@runtime_checkable
class HasTableBytes(Protocol):
    """A seat agent whose batched form keeps much memory per table: the match runner plays
    fewer tables at once for it, so that a match's memory does not grow with its sessions."""

    def table_bytes(self, num_seats: int) -> int:
        """Bytes its batched form keeps per table at ``num_seats``-seat tables."""
        ...
