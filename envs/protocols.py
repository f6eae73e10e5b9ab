"""The contract envs/ needs from a seated agent, stated structurally.

``agents.base.Agent`` implements it; envs/ only depends on this protocol, so that envs never
imports agents (agents are found by name through the ``holdem_lab.agents`` entry points).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from envs.rules import Action
from envs.view import PlayerView


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
