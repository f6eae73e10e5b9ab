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


FOLD, PASS, BET = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
STEEP = 1e3
"""fp = cp: steep enough that exp(-STEEP x) underflows for the |x| >= 0.5 bets used below."""

# fmt: off
LIMITS = [
    # (EW(pass), EW(bet)) in bets B; the steep mixed limit from eqs. 8 and 9 (P(fold) -> 1 if
    # EW(pass) < 0, 0 if > 0, 1/2 at 0; P(pass | no fold) -> 1 if EW(bet) < EW(pass), 0 if >,
    # 1/2 on a tie); the deterministic choice (largest EW; ties to pass, then bet).
    (1.0, 0.5, PASS, PASS),
    (1.0, 3.0, BET, BET),
    (-1.0, -3.0, FOLD, FOLD),
    (-1.0, -0.5, FOLD, FOLD),  # betting beats passing, but both lose: fold either way
    (-1.0, 3.0, FOLD, BET),  # eq. 8 compares pass with fold only: the mixed strategy folds
    (-1.0, 0.0, FOLD, BET),  # boundary EW(bet) = 0: the deterministic tie goes to betting
    (1.0, 1.0, (0.0, 0.5, 0.5), PASS),  # boundary EW(bet) = EW(pass): cp cannot decide
    (0.0, -1.0, (0.5, 0.5, 0.0), PASS),  # boundary EW(pass) = 0: folds half the time
    (0.0, 1.0, (0.5, 0.0, 0.5), BET),
    (0.0, 0.0, (0.5, 0.25, 0.25), PASS),
]
# fmt: on


@pytest.mark.parametrize(("ew_pass", "ew_bet", "limit", "deterministic"), LIMITS)
def test_steep_mixed_strategy_limit_against_the_deterministic_one(
    ew_pass: float, ew_bet: float, limit: tuple[float, ...], deterministic: tuple[float, ...]
) -> None:
    """Fold, pass and bet legal, B = 2 chips. Steep curves give the deterministic strategy
    exactly where the two columns agree: EW(pass) > 0 without a tie, or both EWs below 0."""
    bet = 2.0
    ew = {"ew_bet": ew_bet * bet, "ew_pass": ew_pass * bet, "bet": bet}
    steep = action_probabilities(
        Strategy.MIXED, **ew, fp=STEEP, cp=STEEP, can_fold=True, can_raise=True
    )
    assert steep == pytest.approx(limit, abs=1e-12)
    det = action_probabilities(
        Strategy.DETERMINISTIC, **ew, fp=1.0, cp=1.0, can_fold=True, can_raise=True
    )
    assert det == deterministic


# fmt: off
LEGAL_LIMITS = [
    # (can_fold, can_raise, EW(pass), EW(bet), steep mixed limit, deterministic); a free check
    # checks with the fold mass, a capped bet calls with the bet mass.
    (False, True, -1.0, 3.0, PASS, BET),
    (False, True, -1.0, -0.5, PASS, BET),  # a free check: betting only has to beat checking
    (False, True, -1.0, -3.0, PASS, PASS),
    (False, True, 1.0, 3.0, BET, BET),
    (False, True, 0.0, -1.0, PASS, PASS),
    (False, True, 0.0, 1.0, (0.0, 0.5, 0.5), BET),
    (True, False, -1.0, 3.0, FOLD, FOLD),  # capped: folding is right when passing loses
    (True, False, 1.0, -3.0, PASS, PASS),
    (True, False, 0.0, 3.0, (0.5, 0.5, 0.0), PASS),
]
# fmt: on


@pytest.mark.parametrize(
    ("can_fold", "can_raise", "ew_pass", "ew_bet", "limit", "deterministic"), LEGAL_LIMITS
)
def test_steep_limit_when_folding_or_betting_is_not_legal(
    can_fold: bool,
    can_raise: bool,
    ew_pass: float,
    ew_bet: float,
    limit: tuple[float, ...],
    deterministic: tuple[float, ...],
) -> None:
    legal = {"can_fold": can_fold, "can_raise": can_raise}
    steep = action_probabilities(
        Strategy.MIXED, ew_bet, ew_pass, bet=1.0, fp=STEEP, cp=STEEP, **legal
    )
    assert steep == pytest.approx(limit, abs=1e-12)
    det = action_probabilities(
        Strategy.DETERMINISTIC, ew_bet, ew_pass, bet=1.0, fp=1, cp=1, **legal
    )
    assert det == deterministic


@pytest.mark.parametrize(
    ("steepness", "fold", "bet"),
    [
        (1.0, 0.7310585786300049, 0.26410418449773104),  # 1 / (1 + e^-1), (1 - it) / (1 + e^-4)
        (4.0, 0.9820137900379085, 0.017986207938010496),
        (10.0, 0.9999546021312976, 4.5397868702390376e-05),
        (40.0, 1.0, 0.0),  # 1 / (1 + e^-40) rounds to 1
    ],
)
def test_with_ew_pass_minus_one_and_ew_bet_three_steeper_curves_fold_more(
    steepness: float, fold: float, bet: float
) -> None:
    """EW(pass) = -1, EW(bet) = +3 bets, B = 1: P(fold) = 1 / (1 + exp(-fp)) -> 1 while the
    deterministic strategy bets (EW(bet) = 3 is the largest)."""
    probs = action_probabilities(
        Strategy.MIXED, 3.0, -1.0, bet=1.0, fp=steepness, cp=steepness,
        can_fold=True, can_raise=True,
    )  # fmt: skip
    assert probs[0] == pytest.approx(fold, rel=1e-12)
    assert probs[2] == pytest.approx(bet, rel=1e-9, abs=1e-300)
    det = action_probabilities(
        Strategy.DETERMINISTIC, 3.0, -1.0, bet=1.0, fp=1, cp=1, can_fold=True, can_raise=True
    )
    assert det == BET


@pytest.mark.parametrize(
    ("steepness", "bet"),
    [
        (1.0, 0.6439142598879724),  # (1 - 1 / (1 + e)) (1 - 1 / (1 + e^2))
        (4.0, 0.9816844715852994),
        (10.0, 0.9999546000702376),
    ],
)
def test_where_the_claim_holds_steeper_curves_bet_more(steepness: float, bet: float) -> None:
    """EW(pass) = +1, EW(bet) = +3 bets: the deterministic strategy bets, and so does the mixed
    one ever more often, (1 - 1 / (1 + e^fp)) (1 - 1 / (1 + e^(2 cp)))."""
    probs = action_probabilities(
        Strategy.MIXED, 3.0, 1.0, bet=1.0, fp=steepness, cp=steepness,
        can_fold=True, can_raise=True,
    )  # fmt: skip
    assert probs[2] == pytest.approx(bet, rel=1e-12)


def test_a_heads_up_spot_where_steep_mixed_folds_and_deterministic_bets() -> None:
    """Heads-up EW(bet) - EW(pass) = (2p - 1)(B + R (alpha' - alpha)): with p < 1/2 betting
    beats passing only if alpha' < alpha - B / R (the study's ranges allow it; the defaults
    alpha = alpha' = 1 do not). p = 0.4, c = 10, delta = 2, B = 2, R = 8, alpha = 2, alpha' = 0:
    b' = 4, o' = 2, F' = 16, EW(bet) = 6.4 - 4 = 2.4; b = 18, o = 16, F = 44,
    EW(pass) = 17.6 - 18 = -0.4; their difference 2.8 = (0.8 - 1)(2 + 8 (0 - 2)). At the
    study's steepest curves (fp = 10) P(fold) = 1 / (1 + e^-2) = 0.881; the deterministic
    strategy bets."""
    ew_bet, ew_pass = expected_winnings(
        0.4, pot=10, to_call=2, bet=2, remaining=8, alpha=2.0, alpha_prime=0.0
    )
    assert (ew_bet, ew_pass) == pytest.approx((2.4, -0.4))

    def play(strategy: Strategy) -> tuple[float, float, float]:
        return action_probabilities(
            strategy, ew_bet, ew_pass, bet=2.0, fp=10.0, cp=10.0, can_fold=True, can_raise=True
        )

    assert play(Strategy.MIXED)[0] == pytest.approx(0.8807970779778823, rel=1e-12)
    assert play(Strategy.DETERMINISTIC) == BET
    defaults = expected_winnings(
        0.4, pot=10, to_call=2, bet=2, remaining=8, alpha=1.0, alpha_prime=1.0
    )
    assert defaults == pytest.approx((0.8, 1.2))  # passing is worth more: no conflict


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
