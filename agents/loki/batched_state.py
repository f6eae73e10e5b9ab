"""The batched Loki's memory: what the scalar Loki keeps, for N tables in arrays.

An opponent is addressed by its slot, its seat offset from the agent's: slot ``o`` is seat
``(seat + 1 + o) % S`` (``S - 1`` slots per table). Per table:

* ``weights (N, S - 1, 1326)`` float64: each opponent's weight table at the start of the
  current round, holding order (``agents.strength.holdings``). float64 as the scalar Loki's,
  so that both do the same arithmetic; 10,608 bytes per opponent. Loki-1's re-weighting of the
  current round is kept as its best threshold (``tag`` the round, -1 none; ``best`` mu;
  ``odds`` the pot odds of that action) and applied where the weights are read
  (``agents.loki.weighting``): the round-start copy costs no second table.
* ``values``: the own hand's ``StreetTables`` of the last street it needed
  (``values_street``, -1 none): HS1 and PPOTc of every holding (float64) for the
  re-weighting, ``versus`` and ``after`` (int8, uint8) for HSn and PPOT; 26,520 bytes.
* ``counts (N', S - 1, 4, 3, 3)`` int32: the actions counted per round, bets to call and
  action under specific modelling (``N' = 1`` when no table models specifically).
* per hand: its id and the hole cards (a new hand resets the rest), the log entries
  processed, the pre-flop strategy (-1 until the first pre-flop decision), the round of a
  semi-bluff (-1 none), Loki-2's draw interval, and the last decision (its log position, the
  regions' bounds ``(C0, C1)`` of its triple, whether a bet there is a semi-bluff).

With the parameters, ``BatchedLoki.nbytes`` is 37,570 bytes per heads-up table (37,713 with
specific modelling) and 122,582 per ten-handed one.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.street import StreetTables

__all__ = ["LokiTables"]

Index = npt.NDArray[np.intp]


class LokiTables:
    """Per-table memory of a batched Loki (see the module docstring).

    Args:
        num_tables: N.
        num_seats: S, seats per table.
        specific: Whether any table models specifically (counts actions).
    """

    def __init__(self, num_tables: int, num_seats: int, *, specific: bool) -> None:
        n, slots = num_tables, num_seats - 1
        self.num_seats = num_seats
        self.weights = np.ones((n, slots, NUM_HOLDINGS))
        self.tag = np.full((n, slots), -1, dtype=np.int8)
        self.best = np.full((n, slots), -np.inf)
        self.odds = np.zeros((n, slots))
        self.values = StreetTables(
            np.zeros((n, NUM_HOLDINGS)),
            np.zeros((n, NUM_HOLDINGS)),
            np.zeros((n, NUM_HOLDINGS), dtype=np.int8),
            np.zeros((n, NUM_HOLDINGS, 3), dtype=np.uint8),
        )
        self.values_street = np.full(n, -1, dtype=np.int8)
        self.specific = specific
        self.counts = np.zeros((n if specific else 1, slots, 4, 3, 3), dtype=np.int32)
        self.hand_id = np.full(n, -1, dtype=np.int64)
        self.hole = np.full((n, 2), -1, dtype=np.int16)
        self.processed = np.zeros(n, dtype=np.int64)
        self.strategy = np.full(n, -1, dtype=np.int8)
        self.semi_street = np.full(n, -1, dtype=np.int8)
        self.interval = np.tile([0.0, 1.0], (n, 1))
        self.last_index = np.full(n, -1, dtype=np.int64)
        self.bounds = np.zeros((n, 2))
        self.last_semi = np.zeros(n, dtype=np.bool_)

    @property
    def nbytes(self) -> int:
        """Bytes of all per-table arrays."""
        arrays = [value for value in vars(self).values() if isinstance(value, np.ndarray)]
        values = self.values
        tables = values.hs1, values.ppotc, values.versus, values.after
        return sum(a.nbytes for a in arrays) + sum(a.nbytes for a in tables)

    def forget(self, tables: Index) -> None:
        """New sessions at ``tables``: nothing learned, no hand."""
        if self.specific:  # (a single table's counts are one row either way)
            self.counts[tables] = 0
        self.hand_id[tables] = -1
        self.hole[tables] = -1
        self.start_hands(tables)

    def start_hands(self, tables: Index) -> None:
        """A new hand at ``tables``: uniform weights, nothing processed or decided."""
        self.weights[tables] = 1.0
        self.tag[tables] = -1
        self.best[tables] = -np.inf
        self.values_street[tables] = -1
        self.processed[tables] = 0
        self.strategy[tables] = -1
        self.semi_street[tables] = -1
        self.interval[tables] = (0.0, 1.0)
        self.last_index[tables] = -1

    def new_hands(
        self,
        tables: Index,
        hand_id: npt.NDArray[np.int64],
        hole: npt.NDArray[np.uint8],
        log_length: npt.NDArray[np.integer],
    ) -> None:
        """Start a hand at the rows' tables whose hand changed (another id or other hole
        cards, or a log shorter than what was processed), as the scalar Loki's key does."""
        changed = self.hand_id[tables] != hand_id
        changed |= (self.hole[tables] != hole).any(axis=1)
        changed |= log_length < self.processed[tables]
        if changed.any():
            fresh = tables[changed]
            self.start_hands(fresh)
            self.hand_id[fresh] = hand_id[changed]
            self.hole[fresh] = hole[changed]
