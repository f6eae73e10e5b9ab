"""Carlton's decision network and strategies, and the river bluff, over arrays of decisions.

The formulas of ``agents.bpp.decision`` and ``agents.bpp.agent.bluffed`` (see them for the
sources), one row per decision, evaluated in the same order of operations so that each row
equals the scalar result to the last bit given the same P(win) (up to the last bit of ``exp``).
Probabilities are ``(k, 3)`` in ``Action`` order: fold, pass (check/call), bet (bet/raise).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = [
    "bluff",
    "deterministic_probabilities",
    "expected_winnings",
    "logistic_down",
    "mixed_probabilities",
]

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


def expected_winnings(
    p_win: Array,
    *,
    pot: Array,
    to_call: Array,
    bet: Array,
    remaining: Array,
    alpha: Array,
    alpha_prime: Array,
    opponents: Array,
    owed: Array,
) -> tuple[Array, Array]:
    """``(EW(bet), EW(pass))`` of each row, as ``agents.bpp.decision.expected_winnings``."""
    b_bet = (to_call + bet) + remaining * alpha_prime
    b_pass = to_call + remaining * alpha
    o_bet = owed + opponents * (bet + remaining * alpha_prime)
    o_pass = owed + opponents * remaining * alpha
    ew_bet: Array = p_win * ((pot + b_bet) + o_bet) - b_bet
    ew_pass: Array = p_win * ((pot + b_pass) + o_pass) - b_pass
    return ew_bet, ew_pass


def logistic_down(z: Array) -> Array:
    """``1 / (1 + exp(z))`` without overflow (``exp`` of ``-|z|`` only)."""
    e = np.exp(-np.abs(z))
    result: Array = np.where(z > 0.0, e / (1.0 + e), 1.0 / (1.0 + e))
    return result


def mixed_probabilities(
    ew_bet: Array,
    ew_pass: Array,
    *,
    bet: Array,
    fp: Array,
    cp: Array,
    can_fold: Mask,
    can_raise: Mask,
) -> Array:
    """Carlton's logistic fold and call curves; illegal options pass their mass on."""
    fold = logistic_down(fp * ew_pass / bet)
    passing = np.where(can_raise, logistic_down(cp * (ew_bet - ew_pass) / bet), 1.0)
    keep = 1.0 - fold
    call = keep * passing
    probabilities = np.empty((len(fold), 3))
    probabilities[:, 0] = np.where(can_fold, fold, 0.0)
    probabilities[:, 1] = np.where(can_fold, call, fold + call)
    probabilities[:, 2] = keep * (1.0 - passing)
    return probabilities


def deterministic_probabilities(
    ew_bet: Array, ew_pass: Array, *, can_fold: Mask, can_raise: Mask
) -> Array:
    """The legal action of largest EW; ties go to passing, then betting."""
    best = np.maximum(ew_pass, np.where(can_raise, ew_bet, -np.inf))
    best = np.maximum(best, np.where(can_fold, 0.0, -np.inf))
    passing = ew_pass == best
    betting = ~passing & can_raise & (ew_bet == best)
    probabilities = np.zeros((len(best), 3))
    probabilities[:, 0] = ~passing & ~betting
    probabilities[:, 1] = passing
    probabilities[:, 2] = betting
    return probabilities


def bluff(probabilities: Array, rate: Array, where: Mask) -> None:
    """Mix a bet in with probability ``rate`` at the rows ``where`` (in place)."""
    rows = (where & (rate > 0.0)).nonzero()[0]
    if len(rows) == 0:
        return
    keep = 1.0 - rate[rows]
    probabilities[rows] *= keep[:, np.newaxis]
    probabilities[rows, 2] += rate[rows]
