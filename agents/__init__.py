"""holdem-lab agents: the agent contract and the bots that implement it.

Agents depend on envs/ (``PlayerView``, ``Action``), never the other way round: envs/ finds
them by name through the ``holdem_lab.agents`` entry points (see ``envs.registry``).
"""

from __future__ import annotations

from agents.base import Action, Agent, PlayerView, legal_actions

__all__ = ["Action", "Agent", "PlayerView", "legal_actions"]
