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
    hand's 2n + 5 cards cost far less than a whole permutation per deck. The pick among the
    ``m`` cards left is ``floor(u * m)`` of a double ``u`` (one generator call for all picks):
    each card's probability is within 2**-53 of ``1 / m``, far below anything a simulation
    could detect.

    >>> decks = random_decks(np.random.default_rng(1), count=3, cards=9)
    >>> decks.shape, bool((np.sort(decks, axis=1)[:, 1:] > np.sort(decks, axis=1)[:, :-1]).all())
    ((3, 9), True)
    """
    whole_number("count", count, minimum=0)
    whole_number("cards", cards, minimum=0)
    if cards > DECK_SIZE:
        raise ValueError(f"a deck has {DECK_SIZE} cards, cannot deal {cards}")
    # Card-major work array: position j of every deck is one contiguous row.
    decks = np.repeat(np.arange(DECK_SIZE, dtype=np.uint8), count).reshape(DECK_SIZE, count)
    flat = decks.reshape(-1)
    left = DECK_SIZE - np.arange(cards)[:, np.newaxis]
    picks = np.minimum(rng.random((cards, count)) * left, left - 1).astype(np.intp)
    picks += np.arange(cards)[:, np.newaxis]  # the card taken sits at or after its position
    picks *= count
    picks += np.arange(count)
    for position, swap in enumerate(picks):
        chosen = flat[swap]
        flat[swap] = decks[position]
        decks[position] = chosen
    return np.ascontiguousarray(decks[:cards].T)
