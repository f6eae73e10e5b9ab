"""Loki-2's one random number per hand, as a known policy (Pena 1999 section 4.1).

Loki-2 draws one uniform number u per hand and plays, at each post-flop decision, the region
of its probability triple that holds u (``agents.loki.triples``): a high draw plays the whole
hand aggressively. Stated as action probabilities, a decision's probabilities are the triple's
conditioned on u being consistent with the actions Loki-2 already played this hand; u's
posterior is uniform on an interval ``[lo, hi)``, which every action narrows to its region.

Drawing each decision's action from those probabilities with independent uniforms gives the
same joint distribution of a hand's actions as the single draw. ``act`` keeps the single draw
itself: one uniform v from the agent's generator per hand, and after action a drawn from
probabilities p, ``v <- (v - P(a - 1)) / p(a)`` (``P`` cumulative), which is again uniform on
``[0, 1)`` and independent of the actions; it equals ``(u - lo) / (hi - lo)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.loki.triples import conditional, narrow
from envs.protocols import Probabilities
from envs.rules import Action

__all__ = ["HandDraw", "Played", "narrow_all", "next_residual"]

Array = npt.NDArray[np.float64]

_BELOW_ONE = 1.0 - 2.0**-53
"""The largest uniform below 1: a residual rounded up to 1 is kept below it."""


def next_residual(residual: float, probabilities: Probabilities, action: Action) -> float:
    """The uniform left after ``action`` was drawn from ``probabilities`` with ``residual``
    (unchanged for an action that had no chance: someone else played the seat)."""
    p = probabilities[action]
    if p <= 0.0:
        return residual
    below = 0.0 if action == Action.FOLD else sum(probabilities[:action])
    return min(max((residual - below) / p, 0.0), _BELOW_ONE)


class HandDraw:
    """The interval of Loki-2's draw in the current hand, and ``act``'s residual."""

    lo: float
    hi: float
    residual: float | None
    """``act``'s uniform of the hand (``None`` until it first needs one)."""

    def __init__(self) -> None:
        self.start_hand()

    def start_hand(self) -> None:
        """A new hand: the draw may lie anywhere in ``[0, 1)``."""
        self.lo, self.hi = 0.0, 1.0
        self.residual = None

    @property
    def interval(self) -> tuple[float, float]:
        """``[lo, hi)``."""
        return self.lo, self.hi

    def probabilities(self, c0: float, c1: float) -> Probabilities:
        """P(fold, call, raise) of the triple with regions ``[0, c0)``, ``[c0, c1)``,
        ``[c1, 1)``, given the draw's interval."""
        return conditional(self.lo, self.hi, c0, c1)

    def played(self, c0: float, c1: float, action: Action) -> None:
        """``action`` was played at a decision whose triple had bounds ``c0``, ``c1``."""
        self.lo, self.hi = narrow(self.lo, self.hi, c0, c1, int(action))


class Played(NamedTuple):
    """A decision of Loki in the current hand, until its action shows in the log."""

    position: int
    """The position its action takes in ``view.actions``."""
    probabilities: Probabilities
    bounds: tuple[float, float] | None
    """Loki-2's triple regions (``C0``, ``C1``) at a post-flop decision."""
    semi_bluff: bool
    """A bet here is a semi-bluff: nothing to call and EHS' below make1."""


def narrow_all(draw: Array, bounds: Array, action: int) -> Array:
    """``narrow`` of many draws at once: ``draw`` ``(k, 2)`` the intervals ``[lo, hi)``,
    ``bounds`` ``(k, 2)`` the regions' ``(C0, C1)``, ``action`` the one played (the same float
    operations as ``narrow``, for the local best response's every holding)."""
    lo, hi, c0, c1 = draw[:, 0], draw[:, 1], bounds[:, 0], bounds[:, 1]
    low = np.zeros_like(c0) if action == Action.FOLD else (c0 if action == Action.CALL else c1)
    high = c0 if action == Action.FOLD else (c1 if action == Action.CALL else np.ones_like(c0))
    new_lo = np.minimum(np.maximum(low, lo), hi)
    new_hi = np.minimum(np.maximum(high, lo), hi)
    kept = new_hi > new_lo
    restart = ~kept & (high > low)
    narrowed = np.empty_like(draw)
    narrowed[:, 0] = np.where(kept, new_lo, np.where(restart, low, lo))
    narrowed[:, 1] = np.where(kept, new_hi, np.where(restart, high, hi))
    return narrowed
