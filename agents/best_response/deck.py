"""The deck a best response is computed over: holdings, suit symmetries and canonical flops.

The real game uses all 52 cards (``FULL_DECK``); tests use small decks (a few ranks in four
suits) so that an independent brute force can solve the same game. Cards keep their ids 0..51
(``4 * rank + suit``) so that the hand evaluator ranks them as usual.

Holding ``i`` of a deck is the ``i``-th pair of deck positions in ``numpy.triu_indices`` order;
for the full deck this is ``agents.strength.holdings.HOLDINGS``.

Suit isomorphism: relabelling the suits changes no hand's value against a card-independent
opponent, so every flop is worth as much as its canonical representative (the smallest image
under the suit permutations that map the deck onto itself). The 22,100 flops of the full deck
fall into the familiar 1,755 classes.

>>> flops, orbits = FULL_DECK.canonical_flops()
>>> len(flops), int(orbits.sum())
(1755, 22100)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np
import numpy.typing as npt

from envs.cards import DECK_SIZE, check_distinct, format_cards

__all__ = ["FULL_DECK", "Deck"]

IntArray = npt.NDArray[np.int64]

MIN_CARDS = 9
"""Two hole cards each and a five-card board."""


@dataclass(frozen=True)
class Deck:
    """A set of cards to deal from, sorted ascending; ``ValueError`` if invalid."""

    cards: tuple[int, ...]
    """Distinct card ids 0..51 in ascending order."""

    def __post_init__(self) -> None:
        check_distinct(self.cards)
        if len(self.cards) < MIN_CARDS:
            raise ValueError(f"a heads-up deal needs {MIN_CARDS} cards, the deck has {len(self)}")
        if list(self.cards) != sorted(self.cards):
            raise ValueError(f"deck cards must be sorted ascending, got {self.cards}")

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        if len(self) == DECK_SIZE:
            return "Deck(52 cards)"
        return f"Deck({format_cards(self.cards, ' ')})"

    @property
    def num_holdings(self) -> int:
        """Two-card holdings of the deck."""
        return comb(len(self), 2)

    @property
    def river_opponents(self) -> int:
        """Opponent holdings consistent with one's own two cards and a five-card board."""
        return comb(len(self) - 7, 2)

    @property
    def flops_per_holding(self) -> int:
        """Flops that avoid a given holding."""
        return comb(len(self) - 2, 3)

    @cached_property
    def holdings(self) -> IntArray:
        """``(num_holdings, 2)`` card pairs, ascending within a pair, read-only."""
        first, second = np.triu_indices(len(self), k=1)
        cards = np.asarray(self.cards, dtype=np.int64)
        pairs = np.stack([cards[first], cards[second]], axis=1)
        pairs.flags.writeable = False
        return pairs

    @cached_property
    def holding_index(self) -> IntArray:
        """``(52, 52)`` holding index of a card pair (either order), -1 if not in the deck."""
        index = np.full((DECK_SIZE, DECK_SIZE), -1, dtype=np.int64)
        ids = np.arange(self.num_holdings)
        index[self.holdings[:, 0], self.holdings[:, 1]] = ids
        index[self.holdings[:, 1], self.holdings[:, 0]] = ids
        index.flags.writeable = False
        return index

    @cached_property
    def symmetries(self) -> IntArray:
        """``(G, 52)`` card maps of the suit permutations that map the deck onto itself.

        Row 0 is the identity; permutations that act alike on the deck appear once. Cards
        outside the deck map as the permutation says, unused.
        """
        cards = np.arange(DECK_SIZE)
        maps = []
        seen = set()
        in_deck = set(self.cards)
        for perm in itertools.permutations(range(4)):
            mapped = 4 * (cards >> 2) + np.asarray(perm)[cards & 3]
            action = tuple(int(mapped[c]) for c in self.cards)
            if set(action) == in_deck and action not in seen:
                seen.add(action)
                maps.append(mapped)
        table = np.stack(maps).astype(np.int64)
        table.flags.writeable = False
        return table

    def canonical_flops(self) -> tuple[IntArray, IntArray]:
        """The canonical flops (ascending card triples) and the size of each one's class.

        The sizes sum to C(deck size, 3): weighting each canonical flop by its class size
        is the same as enumerating every flop.
        """
        triples = np.array(list(itertools.combinations(self.cards, 3)), dtype=np.int64)
        codes = np.full(len(triples), np.iinfo(np.int64).max)
        for mapping in self.symmetries:
            images = np.sort(mapping[triples], axis=1)
            codes = np.minimum(codes, (images[:, 0] * 64 + images[:, 1]) * 64 + images[:, 2])
        unique, counts = np.unique(codes, return_counts=True)
        flops = np.stack([unique >> 12, (unique >> 6) & 63, unique & 63], axis=1)
        return flops, counts.astype(np.int64)

    def canonical_flop(self, flop: tuple[int, int, int]) -> tuple[int, int, int]:
        """The canonical representative of a flop's suit-isomorphism class."""
        images = np.sort(self.symmetries[:, list(flop)], axis=1)
        best = min(tuple(int(c) for c in row) for row in images)
        return best[0], best[1], best[2]

    def remaining(self, dealt: tuple[int, ...]) -> IntArray:
        """Deck cards not in ``dealt``, ascending."""
        gone = set(dealt)
        return np.array([c for c in self.cards if c not in gone], dtype=np.int64)


FULL_DECK = Deck(tuple(range(DECK_SIZE)))
"""The standard 52-card deck."""
