"""Carlton's decision network (seed 000) and the strategies that read it (seed 001).

Utility table (Carlton 2000, Table 3): betting then winning is worth ``F' - b'``, betting then
losing ``-b'``; passing (check or call) then winning ``F - b``, losing ``-b``; folding 0. With
``p = P(BPP Win)``: ``EW(bet) = p F' - b'``, ``EW(pass) = p F - b``, ``EW(fold) = 0``, where

    b' = delta + B + R alpha'      b = delta + R alpha       (BPP's future contributions)
    o' = B + R alpha'              o = R alpha               (the opponent's)
    F' = c + b' + o'               F = c + b + o             (the final pots)

``c`` is the pot, ``delta`` the amount to call, ``B`` the current round's bet, and ``R`` --
Carlton's ``R x B`` -- the sum of the bet sizes of the rounds still to come (ours: Carlton's
stud BPP had one betting unit, hold'em has two bet sizes).

Multi-way (ours; Carlton's network is heads-up): the field is one opponent. ``p`` is the
probability of beating every opponent still in the hand, and each of them contributes to the
final pot: opponent ``i`` adds what it owes now (``owed_i`` if BPP passes, ``owed_i + B`` if it
raises) plus ``R alpha`` (or ``R alpha'``). Heads-up ``owed = 0`` whenever BPP acts, which gives
Carlton's formulas exactly.

Mixed strategy (Carlton eqs. 8 and 9): ``P(fold) = 1 / (1 + exp(fp x))`` with
``x = (EW(pass) - EW(fold)) / B``, then ``P(pass | not fold) = 1 / (1 + exp(cp y))`` with
``y = (EW(bet) - EW(pass)) / B``. Deterministic strategy: the legal action with the largest EW.
With fold, pass and bet legal, steep curves (fp, cp -> infinity) give the deterministic
strategy only where ``EW(pass) > 0`` without a pass/bet tie, or both EWs are negative. The
fold curve looks at EW(pass) only, so when ``EW(pass) < 0 <= EW(bet)`` the steep mixed
strategy folds where the deterministic one bets; at ``EW(pass) = 0`` (P(fold) = 1/2 for every
fp) and ``EW(bet) = EW(pass) > 0`` (P(pass | not fold) = 1/2 for every cp) it keeps splitting
where the deterministic one breaks the tie. The limits case by case, and with a free check or
a capped bet: ``agents/bpp/README.md``.
Illegal options pass their mass on: when checking is free (no fold), the fold mass goes to
check (ours: folding a free check is never better); when betting is capped, the bet
mass goes to call.
"""

from __future__ import annotations

import math
from enum import Enum
from typing import overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "Strategy",
    "action_probabilities",
    "expected_winnings",
    "fold_probability",
    "pass_probability",
]

Probabilities = tuple[float, float, float]
"""Probabilities of ``(FOLD, CALL, RAISE)``, i.e. fold, pass (check/call), bet (bet/raise)."""


class Strategy(Enum):
    """How BPP turns expected winnings into an action."""

    MIXED = "mixed"
    """Carlton's logistic fold and call curves (random, tuned by fp and cp)."""
    DETERMINISTIC = "deterministic"
    """The action with the largest expected winnings."""


def expected_winnings(
    p_win: float,
    *,
    pot: float,
    to_call: float,
    bet: float,
    remaining: float,
    alpha: float,
    alpha_prime: float,
    opponents: int = 1,
    owed: float = 0.0,
) -> tuple[float, float]:
    """``(EW(bet), EW(pass))`` of the decision network, in chips (``EW(fold) = 0``).

    Args:
        p_win: P(BPP wins at the showdown), against the whole field.
        pot: ``c``, all chips in the pot now.
        to_call: ``delta``, the chips BPP must add to call (0 when it may check).
        bet: ``B``, the bet size of the current round.
        remaining: ``R``, the sum of the bet sizes of the rounds after this one.
        alpha: Future bets per remaining round if BPP passes.
        alpha_prime: Future bets per remaining round if BPP bets or raises.
        opponents: Opponents still in the hand (1 heads-up).
        owed: The chips those opponents owe now, in total, to match the current bet (0
            heads-up, where the opponent always holds the current bet when BPP acts).

    >>> expected_winnings(0.75, pot=4, to_call=2, bet=2, remaining=10, alpha=0.5, alpha_prime=1)
    (8.5, 5.0)
    """
    b_bet = to_call + bet + remaining * alpha_prime
    b_pass = to_call + remaining * alpha
    o_bet = owed + opponents * (bet + remaining * alpha_prime)
    o_pass = owed + opponents * remaining * alpha
    ew_bet = p_win * (pot + b_bet + o_bet) - b_bet
    ew_pass = p_win * (pot + b_pass + o_pass) - b_pass
    return ew_bet, ew_pass


def _logistic_down(z: float) -> float:
    """``1 / (1 + exp(z))`` without overflow."""
    if z > 0.0:
        e = math.exp(-z)
        return e / (1.0 + e)
    return 1.0 / (1.0 + math.exp(z))


@overload
def fold_probability(x: float, fp: float) -> float: ...
@overload
def fold_probability(x: npt.NDArray[np.float64], fp: float) -> npt.NDArray[np.float64]: ...
def fold_probability(
    x: float | npt.NDArray[np.float64], fp: float
) -> float | npt.NDArray[np.float64]:
    """Carlton's fold curve ``1 / (1 + exp(fp x))``, ``x = (EW(pass) - EW(fold)) / B``.

    Vectorised over NumPy arrays; 0.5 at ``x = 0``, decreasing in ``x`` for ``fp > 0``.

    >>> fold_probability(0.0, 2.0), round(fold_probability(1.0, 1.0), 3)
    (0.5, 0.269)
    """
    if isinstance(x, np.ndarray):
        result: npt.NDArray[np.float64] = 0.5 * (1.0 - np.tanh(0.5 * fp * x))
        return result
    return _logistic_down(fp * x)


@overload
def pass_probability(x: float, cp: float) -> float: ...
@overload
def pass_probability(x: npt.NDArray[np.float64], cp: float) -> npt.NDArray[np.float64]: ...
def pass_probability(
    x: float | npt.NDArray[np.float64], cp: float
) -> float | npt.NDArray[np.float64]:
    """Carlton's call curve ``1 / (1 + exp(cp x))``, ``x = (EW(bet) - EW(pass)) / B``.

    The probability of passing (check or call) among the actions other than folding.
    """
    return fold_probability(x, cp)


def action_probabilities(
    strategy: Strategy,
    ew_bet: float,
    ew_pass: float,
    *,
    bet: float,
    fp: float,
    cp: float,
    can_fold: bool,
    can_raise: bool,
) -> Probabilities:
    """``(P(fold), P(pass), P(bet))`` of a strategy over the legal actions (module docstring)."""
    if strategy is Strategy.DETERMINISTIC:
        best = max(ew_pass, ew_bet if can_raise else -math.inf, 0.0 if can_fold else -math.inf)
        if ew_pass == best:  # ties go to the passive action that keeps the hand alive
            return (0.0, 1.0, 0.0)
        if can_raise and ew_bet == best:
            return (0.0, 0.0, 1.0)
        return (1.0, 0.0, 0.0)
    fold = _logistic_down(fp * ew_pass / bet)
    passing = _logistic_down(cp * (ew_bet - ew_pass) / bet) if can_raise else 1.0
    keep = 1.0 - fold
    if not can_fold:  # checking is free: what would have folded checks instead
        return (0.0, fold + keep * passing, keep * (1.0 - passing))
    return (fold, keep * passing, keep * (1.0 - passing))
