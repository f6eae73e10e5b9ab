"""holdem-lab environments: the fixed-limit hold'em engine, evaluator, Gymnasium env and matches.

Importing the package registers ``holdem_lab/LimitHoldem-v0`` with Gymnasium.
"""

from __future__ import annotations

from envs.cards import format_cards, parse_cards
from envs.game import Hand
from envs.rules import ACPC_LIMIT_HEADS_UP, Action, Rules, Street
from envs.view import PlayerView

ENV_ID = "holdem_lab/LimitHoldem-v0"

__all__ = [
    "ACPC_LIMIT_HEADS_UP",
    "ENV_ID",
    "Action",
    "Hand",
    "PlayerView",
    "Rules",
    "Street",
    "format_cards",
    "parse_cards",
    "register_envs",
]


def register_envs() -> None:
    """Register the Gymnasium environments of holdem-lab (idempotent)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="envs.holdem_env:LimitHoldemEnv",
            # gymnasium.make_vec(ENV_ID, num_envs=...) builds envs.vector_env's batched tables
            vector_entry_point="envs.vector_env:LimitHoldemVectorEnv",
        )


register_envs()
