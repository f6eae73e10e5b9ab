"""Loki's opponent model: weight tables, action frequencies and re-weighting (Papp 1998 ch. 7).

* ``ActionFrequencies`` counts an opponent's fold / check-call / bet-raise per context (round x
  bets to call 0, 1, 2+) across hands, and blends them with the defaults (Table B.2) while a
  context has fewer than 20 observations (section 7.1.2.1, whose equations are cut off; our
  recursive reading: a round's frequencies fall back on the previous round's, the pre-flop ones
  on Table B.2).
  Generic modelling never learns and always answers Table B.2.
* ``threshold`` turns the frequencies into the percentile mu implied by an action: a call means
  the hand is above the folding fraction, a bet or raise above the folding and calling fractions
  (our reading, consistent with Papp's "raises 30% -> 70th percentile").
* ``ramp`` is the re-weighting factor of Figs. 7.1 and 7.3: 0 below mu - sigma, 1 above
  mu + sigma, linear in between, with the low-mu correction of section 7.2.3 (post-flop, when
  sigma > mu the ramp starts at r = 1 - 2 mu / (mu + sigma) instead of 0).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from agents.loki.params import LokiParams, Modelling
from agents.strength import hand_strength_all, ppot_c
from envs.rules import Action, Street

__all__ = ["ActionFrequencies", "board_values", "ramp", "threshold"]

Array = npt.NDArray[np.float64]


class ActionFrequencies:
    """One opponent's action counts per (round, bets to call), and the blended frequencies."""

    def __init__(self, params: LokiParams) -> None:
        self._params = params
        self._defaults = np.array(params.default_frequencies, dtype=np.float64)
        self.counts = np.zeros((4, 3, 3), dtype=np.int64)
        """``counts[round, bets to call, action]`` observed so far."""

    def copy(self) -> ActionFrequencies:
        """An independent copy (its own counts)."""
        twin = ActionFrequencies.__new__(ActionFrequencies)
        twin._params, twin._defaults = self._params, self._defaults
        twin.counts = self.counts.copy()
        return twin

    def observe(self, street: Street, bets_to_call: int, action: Action) -> None:
        """Count one action (only specific modelling learns)."""
        if self._params.modelling == Modelling.SPECIFIC:
            self.counts[street, bets_to_call, action] += 1

    def frequencies(self, street: Street, bets_to_call: int) -> Array:
        """(fold, call, raise) for the context, blended with the defaults [PAPP-7.1.2.1]."""
        fallback: Array = self._defaults[bets_to_call]
        if self._params.modelling != Modelling.SPECIFIC:
            return fallback
        need = self._params.min_observations
        for rnd in range(int(street) + 1):
            counts = self.counts[rnd, bets_to_call]
            n = int(counts.sum())
            if n >= need:
                fallback = counts / n
            elif n > 0:
                fallback = (counts / n) * (n / need) + fallback * (1.0 - n / need)
        return fallback


def threshold(frequencies: Array, action: Action) -> float | None:
    """Percentile mu implied by ``action`` (``None`` for a fold: nothing to re-weight)."""
    if action == Action.CALL:
        return float(frequencies[0])
    if action == Action.RAISE:
        return float(frequencies[0] + frequencies[1])
    return None


def ramp(values: Array, mu: float, sigma: float, *, low_mu_correction: bool) -> Array:
    """Re-weighting factor of every holding with hand value ``values`` (Figs. 7.1, 7.3)."""
    if low_mu_correction and sigma > mu:
        top = mu + sigma
        r = 1.0 - 2.0 * mu / top
        factor: Array = np.where(values >= top, 1.0, r + (1.0 - r) * values / top)
        return factor
    factor = np.clip((values - mu + sigma) / (2.0 * sigma), 0.0, 1.0)
    return factor


@lru_cache(maxsize=256)
def _board_values(board: tuple[int, ...]) -> tuple[Array, Array]:
    hs1 = np.nan_to_num(hand_strength_all(board))
    ppot = np.zeros(len(hs1)) if len(board) == 5 else np.nan_to_num(ppot_c(board))
    for array in (hs1, ppot):
        array.flags.writeable = False
    return hs1, ppot


def board_values(board: tuple[int, ...]) -> tuple[Array, Array]:
    """``(HS1, PPOTc)`` of every holding as its owner sees ``board`` (0 where it conflicts).

    The hand values of post-flop re-weighting [PAPP-7.2.3]: HS1 against a uniform opponent
    and the PPOTc estimate (0 on the river). Cached per board, so every Loki at a table
    shares them.
    """
    return _board_values(tuple(sorted(board)))
