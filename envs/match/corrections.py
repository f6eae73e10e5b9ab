"""Finished hands waiting for their AIVAT corrections, corrected a chunk at a time.

The estimator's cost per call is large and its cost per hand small, so the batched runner's
books hold finished hands back until ``AIVAT_CHUNK`` of them are waiting (or the books need
them), correct them in one call and hand each value to the books with the index arrays it was
queued under. The values do not depend on the grouping.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from envs.aivat import PlayedHands, aivat_corrections, concatenate
from envs.rules import Rules

__all__ = ["AIVAT_CHUNK", "PendingCorrections"]

AIVAT_CHUNK = 16_384
"""Finished hands corrected together."""

Where = tuple[npt.NDArray[np.integer], ...]
"""Index arrays saying where each queued hand's seat values belong (one row per hand)."""
Sink = Callable[[Where, npt.NDArray[np.float64]], None]
"""``sink(where, values)``: store the ``(k, S)`` AIVAT values of the hands queued at
``where`` (the queued index arrays, concatenated)."""


class PendingCorrections:
    """Hands queued for AIVAT (see the module docstring).

    Args:
        rules: The game.
        sink: Where the corrected values go.
        seed: The seed of the equity's board samples for hands that carry none of their own
            (``PlayedHands.seeds``: the batched runner records each hand's seed, the scalar
            engine plays one seed and records none).
        samples: Boards sampled by the AIVAT equity on the flop and pre-flop.
    """

    def __init__(self, rules: Rules, sink: Sink, *, seed: int, samples: int) -> None:
        self.rules, self.sink, self.seed, self.samples = rules, sink, seed, samples
        self._queued: list[tuple[Where, npt.NDArray[np.int64], PlayedHands]] = []
        self._hands = 0

    def add(self, where: Where, payoffs: npt.NDArray[np.int64], played: PlayedHands) -> None:
        """Queue hands (``payoffs``: ``(k, S)`` chips); correct the queue once it is a chunk."""
        self._queued.append((where, payoffs, played))
        self._hands += len(payoffs)
        if self._hands >= AIVAT_CHUNK:
            self.flush()

    def flush(self) -> None:
        """Correct every queued hand now and hand the values to the sink."""
        if not self._queued:
            return
        queued, self._queued, self._hands = self._queued, [], 0
        played = concatenate([q[2] for q in queued])
        payoffs = np.concatenate([q[1] for q in queued])
        values = payoffs + aivat_corrections(
            self.rules, played, seed=self.seed, samples=self.samples
        )
        where = tuple(np.concatenate(parts) for parts in zip(*(q[0] for q in queued), strict=True))
        self.sink(where, values)
