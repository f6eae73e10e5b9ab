"""A strongly biased baseline bot, for showing that opponent modelling learns something.

Registered as ``pair-raise`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.base import MemorylessBot, Probabilities, certain, legal_actions
from envs.rules import Action
from envs.view import PlayerView

if TYPE_CHECKING:
    from envs.protocols import BatchedAgent

__all__ = ["PairRaiseAgent", "has_pair"]


def has_pair(hole: tuple[int, int], board: tuple[int, ...]) -> bool:
    """A pocket pair, or a hole card whose rank is on the board (trips, two pair... included).

    >>> from envs.cards import parse_cards
    >>> has_pair(parse_cards("7c7d"), ()), has_pair(parse_cards("AhKd"), parse_cards("Kc2s3d"))
    (True, True)
    >>> has_pair(parse_cards("AhKd"), parse_cards("2c2s3d"))  # the board's pair is everyone's
    False
    """
    ranks = {card >> 2 for card in board}
    return hole[0] >> 2 == hole[1] >> 2 or any(card >> 2 in ranks for card in hole)


class PairRaiseAgent(MemorylessBot):
    """Agent card: bets or raises only with a pair or better, else checks or calls; never folds.

    "A pair or better" is ``has_pair``: a pocket pair, or a hole card paired by the board (so
    two pair, trips, full houses and quads made with a hole card count; flushes and straights
    without such a pair do not). When the betting is capped it calls. Deterministic.

    Its actions tell the truth about its cards, and it reaches every showdown, so an opponent
    model that learns P(action | hand) from showdowns (BPP's, Loki's) can exploit it: its raises
    mean a pair, its checks and calls mean no pair. A generic model, which reads a raise as a
    range of hands, leaves that money on the table. Our own bot (no paper source); the
    betting-only-with-value pattern is the "tight-passive" caricature of poker texts.
    """

    name = "pair-raise"

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """Raise with a pair or better (if raising is legal), otherwise check or call."""
        legal = legal_actions(view)
        if Action.RAISE in legal and has_pair(view.hole, view.board):
            return certain(Action.RAISE)
        return certain(Action.CALL)

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedPairRaise`` at ``num_tables`` tables; ``None`` for a subclass, which may play
        or remember differently."""
        if type(self) is not PairRaiseAgent:
            return None
        from agents.batched_baselines import BatchedPairRaise  # on demand: it loads numba

        return BatchedPairRaise(num_tables)
