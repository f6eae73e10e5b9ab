"""Hand strength: how often a hand is ahead of one random opponent holding, right now.

Hand strength (HS) is the fraction of the opponent's possible hole-card pairs that the hand
beats on the current board, ties counting one half (Billings, Papp, Schaeffer & Szafron,
"Opponent modeling in poker", AAAI 1998, the "HS" of the Loki bot). It is exact here: every
holding not containing a known card is enumerated (1,081 on the flop, 1,035 on the turn, 990 on
the river) and ranked in one vectorised call of ``envs.evaluator.evaluate``.

>>> from envs.cards import parse_cards
>>> hand_strength(parse_cards("AsKs"), parse_cards("QsJsTs"))  # the royal flush
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from envs.cards import DECK_SIZE, check_distinct
from envs.evaluator import evaluate, evaluate_one

__all__ = ["hand_strength"]


def hand_strength(hole: Sequence[int], board: Sequence[int]) -> float:
    """Exact hand strength of ``hole`` on ``board`` against one uniformly random holding.

    Args:
        hole: The two hole cards (card ids 0..51).
        board: The three to five community cards dealt so far.

    Returns:
        ``(wins + ties / 2) / holdings`` over every opponent holding made of unseen cards, in
        [0, 1]; 1.0 for the nuts, 0.5 when every holding ties (the board plays).

    Raises:
        ValueError: on a wrong number of cards, an unknown card id or a repeated card.
    """
    if len(hole) != 2:
        raise ValueError(f"hand strength needs 2 hole cards, got {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise ValueError(
            f"hand strength needs a board of 3 to 5 cards (post-flop), got {len(board)}"
        )
    known = [int(c) for c in hole] + [int(c) for c in board]
    check_distinct(known)
    mine = evaluate_one(known)
    unseen = np.ones(DECK_SIZE, dtype=bool)
    unseen[known] = False
    rest = np.flatnonzero(unseen)
    first, second = _pair_indices(len(rest))
    holdings = np.empty((len(first), len(known)), dtype=np.uint8)
    holdings[:, 0] = rest[first]
    holdings[:, 1] = rest[second]
    holdings[:, 2:] = known[2:]
    ranks = np.asarray(evaluate(holdings))
    wins = int(np.count_nonzero(ranks < mine))
    ties = int(np.count_nonzero(ranks == mine))
    return (wins + 0.5 * ties) / len(ranks)


@cache
def _pair_indices(count: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Index pairs (i < j) of all two-card combinations of ``count`` cards (cached)."""
    first, second = np.triu_indices(count, k=1)
    first.flags.writeable = False
    second.flags.writeable = False
    return first, second
