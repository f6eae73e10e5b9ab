"""Any seat agent in a batched match: its batched form, or one scalar agent per table.

``batched_form`` is the one place that decides how an agent plays on a ``HandBatch``: its
batched twin when it has one (``envs.protocols.HasBatchedForm``), else ``ScalarTables`` of
copies of it. ``per_table`` seats given per-table agents (one batched agent, or one scalar
agent per table, e.g. each with its own parameters).

``ScalarTables`` holds a scalar agent for every table of a ``HandBatch`` and asks each for its
decision on the table's ``PlayerView`` (built from the batch, equal to the scalar engine's).
An agent that states its policy (``KnownPolicy``) gives its probabilities, which the runner
draws from with the common random numbers; any other agent chooses by itself (with its own
generator), and its choice is returned as certain. Correct and slow: one Python call per table
and decision. The runner resets the agents at the start of every pass (``reset_table``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from envs.batched.engine import HandBatch
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.protocols import BatchedAgent, HasBatchedForm, KnownPolicy, SeatAgent
from envs.rules import Action

__all__ = ["ScalarTables", "TableAgents", "batched_form", "has_batched_form", "per_table"]

TableAgents = BatchedAgent | Sequence[SeatAgent]
"""Agents for every table of a batch: one batched agent, or one scalar agent per table."""


def batched_form(
    agent: SeatAgent, batch: HandBatch, copy: Callable[[], SeatAgent]
) -> BatchedAgent:
    """``agent`` at every table of ``batch``: its batched twin, fresh (``agent.batched``), or
    else ``ScalarTables`` of ``copy()`` once per table (each a new, distinct agent configured
    as ``agent``; the runner resets them with their generators)."""
    if isinstance(agent, HasBatchedForm):
        twin = agent.batched(batch.num_tables)
        if twin is not None:
            return twin
    return ScalarTables(batch, [copy() for _ in range(batch.num_tables)])


def has_batched_form(agent: SeatAgent) -> bool:
    """Whether ``agent`` has a batched twin (``batched_form`` would not adapt copies)."""
    return isinstance(agent, HasBatchedForm) and agent.batched(1) is not None


def per_table(agents: TableAgents, batch: HandBatch) -> BatchedAgent:
    """One batched agent as it is, or one scalar agent per table behind ``ScalarTables``."""
    if isinstance(agents, Sequence):
        return ScalarTables(batch, agents)
    return agents


class ScalarTables:
    """A ``BatchedAgent`` made of one scalar agent per table (see the module docstring).

    Args:
        batch: The batch whose tables the agents sit at (their views come from it).
        agents: One distinct scalar agent per table.
    """

    def __init__(self, batch: HandBatch, agents: Sequence[SeatAgent]) -> None:
        if len(agents) != batch.num_tables:
            raise ValueError(f"{len(agents)} agents for {batch.num_tables} tables")
        if len({id(agent) for agent in agents}) != len(agents):
            raise ValueError("every table needs its own agent object")
        self.batch = batch
        self.agents = list(agents)
        self.name = agents[0].name
        self.known_policy = all(isinstance(agent, KnownPolicy) for agent in agents)
        self.memoryless = all(bool(getattr(agent, "memoryless", False)) for agent in agents)
        shared = {bool(getattr(agent, "hand_uniform", False)) for agent in agents}
        if len(shared) > 1:
            raise ValueError("the agents differ in hand_uniform: they cannot share one adapter")
        self.hand_uniform = shared.pop()
        self.seats = np.full(batch.num_tables, -1, dtype=np.int8)

    def reset_table(self, table: int, rng: np.random.Generator) -> None:
        """Start a pass at ``table``: the agent forgets everything and draws from ``rng``."""
        self.agents[table].reset(rng)

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Record the seat at each table (the runner resets the agents themselves)."""
        self.seats[np.asarray(tables, dtype=np.intp)] = np.asarray(seats, dtype=np.int8)

    def probabilities(self, batch: DecisionBatch) -> npt.NDArray[np.float64]:
        """Each table's agent on its own view: stated probabilities, or its choice for sure."""
        result = np.zeros((len(batch.tables), 3))
        tables, seats = batch.tables.tolist(), batch.seat.tolist()
        for row, (table, seat) in enumerate(zip(tables, seats, strict=True)):
            agent = self.agents[table]
            view = self.batch.view(table, seat)
            if isinstance(agent, KnownPolicy):
                result[row] = agent.action_probabilities(view)
            else:
                action = agent.act(view)
                if type(action) is not Action or action not in view.legal_actions:
                    raise ValueError(
                        f"agent {agent.name!r} in seat {seat} returned an illegal action "
                        f"{action!r} in hand {view.hand_id}; legal actions: "
                        f"{', '.join(a.name for a in view.legal_actions)}"
                    )
                result[row, action] = 1.0
        return result

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Show each table's agent its terminal view."""
        for table, seat in zip(batch.tables.tolist(), batch.seat.tolist(), strict=True):
            self.agents[table].observe(self.batch.view(table, seat))
