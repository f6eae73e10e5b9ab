"""A memo of the learner's card features (hand strength, equity) by hole cards and board.

Hand strength (1,081 opponent holdings) and sampled equity (256 samples) are most of what the
learner's features cost, and they are asked again and again for the same cards: at a table's
later decisions on a street, at the hand's final observation (the last board the learner saw),
and at every checkpoint's evaluation match, which replays the same held-out deals. Both are
deterministic functions of the cards, so a memo returns exactly the numbers a recomputation
gives. ``StrengthMemo`` is an open-addressing hash table in NumPy arrays, probed by a compiled
loop for all rows at once; when half full it is emptied (a memo forgets, it never evicts
wrongly). ``shared_memo`` gives the one memo of the process for an equity estimator's settings,
so that the training env's encoder and every evaluation's encoder share it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from agents.jit import kernel, readonly
from envs.cards import DECK_SIZE
from envs.validation import whole_number

__all__ = ["StrengthMemo", "card_keys", "shared_memo"]

_EMPTY = -1
_VALUES = 2
"""Hand strength and equity."""
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing's multiplier (2**64 over the golden ratio): spreads nearby keys."""


def card_keys(
    hole: npt.NDArray[np.integer], board: npt.NDArray[np.integer]
) -> npt.NDArray[np.int64]:
    """One int64 per row naming its cards: the hole pair (either order) and the board slots
    in order (``(rows, 5)``, ``NO_CARD`` 52 where not dealt), in base 53."""
    cards = np.asarray(hole, dtype=np.int64)
    key: npt.NDArray[np.int64] = cards.min(axis=1) * DECK_SIZE + cards.max(axis=1)
    for column in np.asarray(board, dtype=np.int64).T:
        key = key * (DECK_SIZE + 1) + column
    return key


@kernel
def _find(table: np.ndarray, keys: np.ndarray, bits: int, slots: np.ndarray) -> None:
    mask = (1 << bits) - 1
    for i in range(keys.shape[0]):
        key = keys[i]
        slot = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - bits))
        while table[slot] != key and table[slot] != _EMPTY:
            slot = (slot + 1) & mask
        slots[i] = slot if table[slot] == key else -1


@kernel
def _insert(
    table: np.ndarray, values: np.ndarray, keys: np.ndarray, new: np.ndarray, bits: int
) -> int:
    mask = (1 << bits) - 1
    added = 0
    for i in range(keys.shape[0]):
        key = keys[i]
        slot = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - bits))
        while table[slot] != key and table[slot] != _EMPTY:
            slot = (slot + 1) & mask
        if table[slot] == _EMPTY:
            table[slot] = key
            added += 1
        for j in range(values.shape[1]):
            values[slot, j] = new[i, j]
    return added


class StrengthMemo:
    """Hand strength and equity by ``card_keys`` (see the module docstring).

    Args:
        bits: The table has ``2 ** bits`` slots (24 bytes each) and holds up to half as many
            entries before it is emptied.
    """

    def __init__(self, bits: int = 20) -> None:
        self.bits = whole_number("bits", bits, minimum=4)
        self._keys = np.full(1 << self.bits, _EMPTY, dtype=np.int64)
        self._values = np.zeros((1 << self.bits, _VALUES))
        self.entries = 0

    def lookup(
        self, keys: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
        """Which ``keys`` are known, and ``(rows, 2)`` their hand strength and equity (zeros
        for the unknown ones)."""
        slots = np.empty(len(keys), dtype=np.int64)
        _find(self._keys, readonly(keys, np.int64), self.bits, slots)
        found = slots >= 0
        values = np.zeros((len(keys), _VALUES))
        values[found] = self._values[slots[found]]
        return found, values

    def store(self, keys: npt.NDArray[np.int64], values: npt.NDArray[np.float64]) -> None:
        """Remember ``(rows, 2)`` ``values`` for ``keys`` (emptying the table first if they
        could fill it past half)."""
        if self.entries + len(keys) > (1 << self.bits) // 2:
            self._keys.fill(_EMPTY)
            self.entries = 0
        if len(keys) > (1 << self.bits) // 2:
            return  # more than the memo holds: not worth remembering
        self.entries += _insert(
            self._keys,
            self._values,
            readonly(keys, np.int64),
            readonly(values, np.float64),
            self.bits,
        )


@lru_cache(maxsize=4)
def shared_memo(samples: int, seed: int) -> StrengthMemo:
    """The process's memo for the equity estimator of ``(samples, seed)``."""
    return StrengthMemo()
