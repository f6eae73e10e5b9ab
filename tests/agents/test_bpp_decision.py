"""Carlton's decision network and strategies: EW against hand-computed values, curve shapes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.bpp import (
    Strategy,
    action_probabilities,
    expected_winnings,
    fold_probability,
    pass_probability,
)


def test_expected_winnings_heads_up_by_hand() -> None:
    """Carlton eqs. 2-7 with c = 10, delta = 2, B = 2, R = 8 (two later rounds of 4),
    alpha = 0.5, alpha' = 1, p = 0.6:
    b' = 2 + 2 + 8 = 12, b = 2 + 4 = 6, o' = 2 + 8 = 10, o = 4,
    F' = 10 + 12 + 10 = 32, F = 10 + 6 + 4 = 20,
    EW(bet) = 0.6 * 32 - 12 = 7.2, EW(pass) = 0.6 * 20 - 6 = 6.0."""
    ew_bet, ew_pass = expected_winnings(
        0.6, pot=10, to_call=2, bet=2, remaining=8, alpha=0.5, alpha_prime=1.0
    )
    assert ew_bet == pytest.approx(7.2)
    assert ew_pass == pytest.approx(6.0)


def test_expected_winnings_follow_the_utility_table() -> None:
    """EW = p * (F - b) + (1 - p) * (-b) for both actions, on the river (R = 0)."""
    p, pot, bet = 0.3, 24, 4
    ew_bet, ew_pass = expected_winnings(
        p, pot=pot, to_call=0, bet=bet, remaining=0, alpha=0.7, alpha_prime=1.3
    )
    b_bet, o_bet = bet, bet  # river: no future rounds
    assert ew_bet == pytest.approx(p * (pot + b_bet + o_bet - b_bet) + (1 - p) * -b_bet)
    assert ew_pass == pytest.approx(p * pot)  # checking on the river costs nothing more


def test_expected_winnings_multi_way_by_hand() -> None:
    """Two opponents still in, owing 2 and 0: o' = (2 + 2) + (0 + 2) + 2 * R alpha' and
    o = 2 + 2 * R alpha, with c = 9, delta = 2, B = 2, R = 10, alpha = alpha' = 1, p = 0.25:
    b' = 14, b = 12, o' = 6 + 20 = 26, o = 2 + 20 = 22, F' = 49, F = 43,
    EW(bet) = 12.25 - 14 = -1.75, EW(pass) = 10.75 - 12 = -1.25."""
    ew_bet, ew_pass = expected_winnings(
        0.25, pot=9, to_call=2, bet=2, remaining=10, alpha=1.0, alpha_prime=1.0,
        opponents=2, owed=2,
    )  # fmt: skip
    assert (ew_bet, ew_pass) == pytest.approx((-1.75, -1.25))


@pytest.mark.parametrize("curve", [fold_probability, pass_probability])
def test_curves_are_one_half_at_zero_and_decreasing(curve: object) -> None:
    assert callable(curve)
    for steepness in (0.1, 1.0, 3.0, 10.0):
        assert curve(0.0, steepness) == 0.5
        xs = np.linspace(-5, 5, 101)
        ys = curve(xs, steepness)
        assert np.all(np.diff(ys) <= 0)
        inside = (ys > 1e-9) & (ys < 1 - 1e-9)  # strictly decreasing where not saturated
        assert np.all(np.diff(ys[inside]) < 0) and inside.sum() >= 3
        assert np.allclose(ys + curve(-xs, steepness), 1.0)  # symmetric about (0, 1/2)
        assert [curve(float(x), steepness) for x in xs] == pytest.approx(list(ys))


def test_fold_curve_values() -> None:
    """Carlton's fold curve (our arithmetic): fp = 1 folds 0.27 at +1 bet and 0.12 at +2;
    fp = 3 folds 0.047 and 0.002."""
    assert fold_probability(1.0, 1.0) == pytest.approx(0.269, abs=1e-3)
    assert fold_probability(2.0, 1.0) == pytest.approx(0.119, abs=1e-3)
    assert fold_probability(1.0, 3.0) == pytest.approx(0.047, abs=1e-3)
    assert fold_probability(2.0, 3.0) == pytest.approx(0.0025, abs=1e-3)


def test_curves_reach_the_deterministic_limit_without_overflow() -> None:
    assert fold_probability(0.01, 1e4) < 1e-40
    assert fold_probability(-0.01, 1e4) == 1.0
    assert fold_probability(1e6, 50.0) == 0.0
    assert fold_probability(-1e6, 50.0) == 1.0
    big = fold_probability(np.array([-1e6, 1e6]), 50.0)
    assert big.tolist() == [1.0, 0.0]


CASES = [(ew_bet, ew_pass) for ew_bet in (-3.0, -0.5, 0.4, 2.0) for ew_pass in (-2.0, -0.2, 1.0)]


@pytest.mark.parametrize(("ew_bet", "ew_pass"), CASES)
@pytest.mark.parametrize(("can_fold", "can_raise"), [(True, True), (False, True), (True, False)])
def test_mixed_strategy_is_a_distribution_over_legal_actions(
    ew_bet: float, ew_pass: float, can_fold: bool, can_raise: bool
) -> None:
    probs = action_probabilities(
        Strategy.MIXED, ew_bet, ew_pass, bet=2, fp=1.5, cp=0.7,
        can_fold=can_fold, can_raise=can_raise,
    )  # fmt: skip
    assert sum(probs) == pytest.approx(1.0)
    assert all(p >= 0 for p in probs)
    fold = fold_probability(ew_pass / 2, 1.5)
    call = pass_probability((ew_bet - ew_pass) / 2, 0.7)
    if can_fold and can_raise:  # Carlton's composition, exactly
        assert probs == pytest.approx((fold, (1 - fold) * call, (1 - fold) * (1 - call)))
    if not can_fold:  # a free check: the fold mass checks instead
        assert probs == pytest.approx((0.0, fold + (1 - fold) * call, (1 - fold) * (1 - call)))
    if not can_raise:  # capped: the bet mass calls instead
        assert probs == pytest.approx((fold, 1 - fold, 0.0))


@pytest.mark.parametrize(("ew_bet", "ew_pass"), CASES)
def test_steep_mixed_strategy_tends_to_the_deterministic_one(
    ew_bet: float, ew_pass: float
) -> None:
    """Squeezed curves pick the largest EW, except where Carlton's fold curve looks only at
    EW(pass): with EW(pass) < 0 < EW(bet) the steep mixed strategy folds (documented)."""
    det = action_probabilities(
        Strategy.DETERMINISTIC, ew_bet, ew_pass, bet=2, fp=1, cp=1, can_fold=True, can_raise=True
    )
    best = int(np.argmax([0.0, ew_pass, ew_bet]))
    assert det[best] == 1.0
    steep = action_probabilities(
        Strategy.MIXED, ew_bet, ew_pass, bet=2, fp=200, cp=200, can_fold=True, can_raise=True
    )
    if ew_pass < 0.0 < ew_bet:
        assert steep == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)
    else:
        assert steep == pytest.approx(det, abs=1e-6)


def test_deterministic_strategy_never_folds_a_free_check_and_respects_the_cap() -> None:
    # Passing loses but is the best legal choice when folding is not offered.
    probs = action_probabilities(
        Strategy.DETERMINISTIC, -5.0, -1.0, bet=2, fp=1, cp=1, can_fold=False, can_raise=True
    )
    assert probs == (0.0, 1.0, 0.0)
    probs = action_probabilities(
        Strategy.DETERMINISTIC, 9.0, 1.0, bet=2, fp=1, cp=1, can_fold=True, can_raise=False
    )
    assert probs == (0.0, 1.0, 0.0)
    assert not math.isnan(sum(probs))
