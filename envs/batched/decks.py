"""Many shuffled decks at once, for random play and simulations over a ``HandBatch``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from envs.cards import DECK_SIZE
from envs.validation import whole_number

__all__ = ["random_decks"]


def random_decks(
    rng: np.random.Generator, count: int, cards: int = DECK_SIZE
) -> npt.NDArray[np.uint8]:
    """The first ``cards`` cards of ``count`` independent uniformly shuffled decks.

    A partial Fisher-Yates shuffle run on all decks together: one pass per card dealt, so a
    hand's 2n + 5 cards cost far less than a whole permutation per deck.

    >>> decks = random_decks(np.random.default_rng(1), count=3, cards=9)
    >>> decks.shape, bool((np.sort(decks, axis=1)[:, 1:] > np.sort(decks, axis=1)[:, :-1]).all())
    ((3, 9), True)
    """
    whole_number("count", count, minimum=0)
    whole_number("cards", cards, minimum=0)
    if cards > DECK_SIZE:
        raise ValueError(f"a deck has {DECK_SIZE} cards, cannot deal {cards}")
    # Seat-major work array: position j of every deck is one contiguous row.
    decks = np.repeat(np.arange(DECK_SIZE, dtype=np.uint8), count).reshape(DECK_SIZE, count)
    flat = decks.reshape(-1)
    columns = np.arange(count)
    for position in range(cards):
        swap = rng.integers(position, DECK_SIZE, size=count) * count + columns
        picked = flat[swap]
        flat[swap] = decks[position]
        decks[position] = picked
    return np.ascontiguousarray(decks[:cards].T)
