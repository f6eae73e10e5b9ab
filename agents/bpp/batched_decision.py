"""Both BPPs' strategies over a batch of decisions, in compiled loops: Carlton's decision
network (``bpp``, ``bpp-det``), the original BPP's betting curves (``bpp-curves``) and the
river bluff.

The formulas of ``agents.bpp.decision``, ``agents.bpp.curves`` and ``agents.bpp.agent.bluffed``
(see them for the sources), one row per decision, evaluated in the same order of operations so
that each row equals the scalar result to the last bit given the same P(win) (up to the last
bit of ``exp``). Probabilities are ``(k, 3)`` in ``Action`` order: fold, pass (check/call), bet
(bet/raise).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs.rules import Action, Street

__all__ = ["bluff_into", "bpp_probabilities", "curve_probabilities", "logistic_down"]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]
Bools = npt.NDArray[np.bool_]

_FOLD, _RAISE, _RIVER = int(Action.FOLD), int(Action.RAISE), int(Street.RIVER)


@kernel
def logistic_down(z: float) -> float:
    """``1 / (1 + exp(z))`` without overflow (``exp`` of ``-|z|`` only)."""
    if z > 0.0:
        e = math.exp(-z)
        return e / (1.0 + e)
    return 1.0 / (1.0 + math.exp(z))


@kernel
def bluff_into(probabilities: Array, rate: float) -> None:
    """Mix a bet in with probability ``rate`` (one row, in place), as ``bluffed``."""
    keep = 1.0 - rate
    probabilities[0] *= keep
    probabilities[1] *= keep
    probabilities[2] = keep * probabilities[2] + rate


@kernel
def bpp_probabilities(
    p_win: Array,
    per: int,
    tables: Ints,
    seat: Ints,
    street: Ints,
    pot: Ints,
    to_call: Ints,
    bets: Ints,
    folded: Bools,
    legal: Bools,
    bet_sizes: Ints,
    alpha: Array,
    alpha_prime: Array,
    fp: Array,
    cp: Array,
    bluff_rate: Array,
    deterministic: bool,
    ew_bet: Array,
    ew_pass: Array,
    out: Array,
) -> None:
    """EW(bet), EW(pass) and the probabilities played with each P(win), into the last three
    arrays (one entry per P(win)).

    Args:
        p_win: P(win): ``per`` values for each row, row by row (``per`` hands at each).
        tables, seat, street, pot, to_call, bets, folded, legal: The ``DecisionBatch``
            fields.
        bet_sizes: The rules' bet size per round.
        alpha, alpha_prime, fp, cp: ``BPPParams`` per table and round, ``(N, 4)``.
        bluff_rate: Per table, ``(N,)``.
        deterministic: The deterministic strategy (else the mixed one).
    """
    num_seats = bets.shape[1]
    for i in range(len(p_win) // per):  # what the row's hands share, once per row
        t, me, r = tables[i], seat[i], np.int64(street[i])
        bet = np.float64(bet_sizes[r])
        remaining = 0
        for later in range(r + 1, 4):
            remaining += bet_sizes[later]
        top = bets[i, 0]
        for s in range(1, num_seats):
            top = max(top, bets[i, s])
        opponents, owed = 0, 0
        for s in range(num_seats):
            if s != me and not folded[i, s]:
                opponents += 1
                owed += top - bets[i, s]
        # agents.bpp.decision.expected_winnings, term by term
        b_bet = np.float64(to_call[i] + bet_sizes[r]) + remaining * alpha_prime[t, r]
        b_pass = to_call[i] + remaining * alpha[t, r]
        o_bet = owed + opponents * (bet + remaining * alpha_prime[t, r])
        o_pass = owed + np.float64(opponents * remaining) * alpha[t, r]
        can_fold, can_raise = legal[i, _FOLD], legal[i, _RAISE]
        for q in range(i * per, (i + 1) * per):
            ew_bet[q] = p_win[q] * ((pot[i] + b_bet) + o_bet) - b_bet
            ew_pass[q] = p_win[q] * ((pot[i] + b_pass) + o_pass) - b_pass
            row = out[q]
            if deterministic:  # agents.bpp.decision.action_probabilities
                best = max(ew_pass[q], ew_bet[q] if can_raise else -np.inf)
                best = max(best, 0.0 if can_fold else -np.inf)
                passes = ew_pass[q] == best  # ties go to passing, then betting
                bets_most = not passes and can_raise and ew_bet[q] == best
                row[0] = 0.0 if passes or bets_most else 1.0
                row[1] = 1.0 if passes else 0.0
                row[2] = 1.0 if bets_most else 0.0
            else:
                fold = logistic_down(fp[t, r] * ew_pass[q] / bet)
                passing = 1.0
                if can_raise:
                    passing = logistic_down(cp[t, r] * (ew_bet[q] - ew_pass[q]) / bet)
                keep = 1.0 - fold
                row[0] = fold if can_fold else 0.0
                row[1] = keep * passing if can_fold else fold + keep * passing
                row[2] = keep * (1.0 - passing)
            if r == _RIVER and can_raise and bluff_rate[t] > 0.0:
                bluff_into(row, bluff_rate[t])


@kernel
def curve_probabilities(
    p_win: Array,
    per: int,
    tables: Ints,
    street: Ints,
    pot: Ints,
    to_call: Ints,
    legal: Bools,
    fold_shift: Array,
    call_shift: Array,
    bet_shift: Array,
    steepness: Array,
    bluff_rate: Array,
    theta: Array,
    out: Array,
) -> None:
    """The pot odds and ``agents.bpp.curves.curve_probabilities`` (bluff included) with each
    P(win), ``per`` of them for each row as in ``bpp_probabilities``, into ``theta`` and
    ``out`` ``(len(p_win), 3)``; shifts ``(N, 4)``, the rest per table."""
    for q in range(len(p_win)):
        i = q // per
        t, r = tables[i], np.int64(street[i])
        theta[q] = to_call[i] / (pot[i] + to_call[i]) if to_call[i] != 0 else 0.0
        x = p_win[q] - theta[q]
        k = steepness[t]
        # relative to the largest exponent, so that nothing overflows
        e_fold = -k * (x - fold_shift[t, r])
        e_call = -k * abs(x - call_shift[t, r])
        e_bet = k * (x - bet_shift[t, r])
        top = max(max(e_fold, e_call), e_bet)
        fold, call, bet = math.exp(e_fold - top), math.exp(e_call - top), math.exp(e_bet - top)
        can_fold, can_raise = legal[i, _FOLD], legal[i, _RAISE]
        if not can_fold:
            fold, call = 0.0, call + fold
        if not can_raise:
            bet, call = 0.0, call + bet
        total = (fold + call) + bet
        row = out[q]
        row[0], row[1], row[2] = fold / total, call / total, bet / total
        if r == _RIVER and can_raise and bluff_rate[t] > 0.0:
            bluff_into(row, bluff_rate[t])
