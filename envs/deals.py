"""Seeded deals: the cards of deal ``d`` of a match seeded ``s``, a pure function of ``(s, d)``.

The deck order is drawn card by card: draw ``t`` takes the ``j``-th card (in increasing card
order) of those not drawn yet, ``j = floor(u_t * (52 - t))``, with ``u_t`` the counter-based hash
uniform of ``(seed, deal, t)`` on the deck stream of ``envs.crn``. Every order is equally
likely, the cards depend on nothing but the seed and the deal (common random numbers across
matches), and any number of deals can be drawn at once with array operations, so the batched
runner and the scalar one deal identical cards at no cost per deal worth speaking of.

>>> deal_deck(7, 3, cards=9).tolist() == deal_decks(7, np.array([3]), cards=9)[0].tolist()
True
>>> sorted(deal_deck(7, 3).tolist()) == list(range(52))
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from envs.crn import decision_uniforms, hand_key, uniform_at

__all__ = ["DECK_STREAM", "deal_deck", "deal_decks"]

DECK_STREAM = 0x4445434B  # "DECK"
"""``envs.crn`` stream of the deck draws (apart from the agents' decisions)."""


def deal_deck(seed: int, deal: int, *, cards: int = 52) -> npt.NDArray[np.int64]:
    """The first ``cards`` cards of deal ``deal``'s deck in matches seeded with ``seed``."""
    if not 1 <= cards <= 52:
        raise ValueError(f"cards must be between 1 and 52, got {cards}")
    key = hand_key(seed, deal, DECK_STREAM)
    left = list(range(52))
    drawn = []
    for t in range(cards):
        u = uniform_at(key, 0, t)
        drawn.append(left.pop(min(int(u * (52 - t)), 51 - t)))
    return np.array(drawn, dtype=np.int64)


def deal_decks(
    seed: int | npt.ArrayLike, deals: npt.ArrayLike, *, cards: int = 52
) -> npt.NDArray[np.uint8]:
    """``deal_deck`` of many deals at once: ``(len(deals), cards)`` ``uint8`` card ids.

    ``seed`` is one seed for all deals, or one per deal.
    """
    if not 1 <= cards <= 52:
        raise ValueError(f"cards must be between 1 and 52, got {cards}")
    index = np.asarray(deals, dtype=np.int64).reshape(-1)
    seeds = np.asarray(seed)
    if seeds.ndim:
        seeds = seeds.reshape(-1, 1)
    u = decision_uniforms(seeds, index[:, np.newaxis], 0, np.arange(cards), DECK_STREAM)
    left = 52 - np.arange(cards)
    picks = np.minimum((u * left).astype(np.int64), left - 1)
    # Picks are indices among the cards not drawn yet; from the last draw back, each later
    # value at or above draw t's moves up by one (skips draw t's card), which leaves card ids.
    # One array operation per draw.
    taken = np.ascontiguousarray(picks.T)  # card-major: columns are deals
    for t in range(cards - 2, -1, -1):
        later = taken[t + 1 :]
        later += later >= taken[t]
    return np.ascontiguousarray(taken.T).astype(np.uint8)
