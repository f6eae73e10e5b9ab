"""Batched fixed-limit hold'em: thousands of independent tables stepped as whole arrays.

``HandBatch`` plays the game of ``envs.game.Hand`` at many tables at once (struct of arrays,
masks for tables at different points) and raises ``TableError`` (a ``ValueError``) naming the
tables whose input it refuses; ``random_decks`` shuffles many decks at once.
"""

from __future__ import annotations

from envs.batched.decks import random_decks
from envs.batched.engine import HandBatch
from envs.batched.errors import TableError
from envs.batched.state import max_decisions

__all__ = ["HandBatch", "TableError", "max_decisions", "random_decks"]
