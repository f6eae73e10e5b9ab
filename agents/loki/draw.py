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

from agents.loki.triples import conditional, narrow
from envs.protocols import Probabilities
from envs.rules import Action

__all__ = ["HandDraw", "Played", "next_residual"]

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
