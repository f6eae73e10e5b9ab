"""Loki's post-flop rules, Loki-2's probability triples and the re-weighting pieces."""

from __future__ import annotations

import numpy as np
import pytest

from agents.loki.action_contexts import replay
from agents.loki.modelling import ActionFrequencies, ramp, threshold
from agents.loki.params import DEFAULT_FREQUENCIES, LokiParams, Modelling, Tightness
from agents.loki.postflop import BettingThresholds, Spot, probability_triples, rule_action
from envs.cards import parse_cards
from envs.game import Hand
from envs.rules import Action, Rules, Street

RULES = BettingThresholds(make1=0.50, make2=0.85)


def spot(**changes: object) -> Spot:
    """A flop spot, heads-up, nothing bet yet (override any field)."""
    fields: dict[str, object] = dict(
        street=Street.FLOP,
        to_call=0,
        pot=8,
        bet_size=2,
        num_bets=0,
        can_raise=True,
        invested=False,
        opponents=1,
        later_bets=8,
    )
    fields.update(changes)
    return Spot(**fields)  # type: ignore[arg-type]


def act(ehs: float, where: Spot, *, hsn: float | None = None, ppot: float = 0.0) -> Action:
    return rule_action(ehs if hsn is None else hsn, ppot, ehs, where, RULES)


# ------------------------------------------------------------------ Loki-1 rules


def test_make2_raises_until_two_bets_then_calls() -> None:
    """Papp 6.2: EHS' >= 0.85 bets or raises while fewer than two bets were made."""
    assert act(0.9, spot()) == Action.RAISE
    assert act(0.9, spot(to_call=2, num_bets=1)) == Action.RAISE
    assert act(0.9, spot(to_call=2, num_bets=2)) == Action.CALL
    assert act(0.9, spot(to_call=2, num_bets=1, can_raise=False)) == Action.CALL


def test_make1_bets_calls_and_declines_two_bets() -> None:
    """Papp 6.2: 0.5 <= EHS' < 0.85 bets when nobody has bet, calls one bet, folds to two
    unless it already put chips in this round."""
    assert act(0.6, spot()) == Action.RAISE
    assert act(0.6, spot(to_call=2, num_bets=1)) == Action.CALL
    assert act(0.6, spot(to_call=4, num_bets=2), hsn=0.0) == Action.FOLD
    assert act(0.6, spot(to_call=4, num_bets=2, invested=True)) == Action.CALL


def test_semi_bluff_uses_pot_odds2() -> None:
    """Papp 6.4: bet with PPOT >= 2b / ((pot + 4b) + 2b) when nobody has bet."""
    where = spot(pot=8, bet_size=2)  # Pot_Odds2 = 4 / 20 = 0.2
    assert act(0.3, where, ppot=0.2) == Action.RAISE
    assert act(0.3, where, ppot=0.19) == Action.CALL
    # Having semi-bluffed earlier, keep betting while nobody bets.
    assert act(0.3, spot(semi_bluffing=True), ppot=0.0) == Action.RAISE


def test_pot_odds_call_example() -> None:
    """Papp 6.5: a $20 pot after a $4 bet with 20% winning chances is a profitable call."""
    where = spot(to_call=4, pot=20, bet_size=4, num_bets=1, street=Street.TURN, later_bets=4)
    assert act(0.3, where, hsn=0.0, ppot=0.20) == Action.CALL
    assert act(0.3, where, hsn=0.0, ppot=0.16) == Action.FOLD  # 4 / 24 = 0.167 > 0.16
    river = spot(to_call=4, pot=20, bet_size=4, num_bets=1, street=Street.RIVER, later_bets=0)
    assert act(0.2, river, hsn=0.2) == Action.CALL  # on the river HS is the winning chance


def test_showdown_odds_and_switches() -> None:
    where = spot(to_call=2, pot=20, num_bets=1, later_bets=8, opponents=2)
    # cost 2 + 8 = 10 over 20 + 10 + 2 x 8 = 46: call from HSn 0.22 on.
    assert act(0.3, where, hsn=0.22, ppot=0.0) == Action.CALL
    assert act(0.3, where, hsn=0.21, ppot=0.0) == Action.FOLD
    off = BettingThresholds(
        make1=0.5, make2=0.85, showdown_odds=False, pot_odds=False, semi_bluff=False
    )
    assert rule_action(0.22, 0.9, 0.3, where, off) == Action.FOLD
    assert rule_action(0.22, 0.9, 0.3, spot(), off) == Action.CALL  # checks, never folds free


# ------------------------------------------------------------------ probability triples


def test_triples_are_distributions_and_pure_with_zero_width() -> None:
    rng = np.random.default_rng(5)
    hsn, ppot = rng.random(500), rng.random(500) * 0.4
    ehs = hsn + (1 - hsn) * ppot
    for where in (spot(), spot(to_call=2, num_bets=1), spot(to_call=4, num_bets=2)):
        smooth = probability_triples(hsn, ppot, ehs, where, RULES, width=0.05)
        assert np.allclose(smooth.sum(axis=1), 1.0) and (smooth >= 0).all()
        pure = probability_triples(hsn, ppot, ehs, where, RULES, width=0.0)
        assert set(np.unique(pure)) <= {0.0, 1.0}
        for i in range(0, 500, 50):
            assert np.argmax(pure[i]) == rule_action(hsn[i], ppot[i], ehs[i], where, RULES)
        # Away from the boundaries the smoothed triple is the pure one.
        far = (np.abs(ehs - 0.5) > 0.05) & (np.abs(ehs - 0.85) > 0.05)
        assert np.array_equal(smooth[far], pure[far])
    # Nothing to call: never fold.
    assert (probability_triples(hsn, ppot, ehs, spot(), RULES, 0.05)[:, 0] == 0).all()


def test_triples_blend_linearly_at_the_boundaries() -> None:
    """Pena 4.1: boundaries smoothed by linear interpolation (width ours)."""
    where = spot(to_call=2, num_bets=1)  # Make2 raises, Make1 calls, below folds
    ehs = np.array([0.80, 0.825, 0.85, 0.875, 0.90, 0.45, 0.50, 0.55])
    triples = probability_triples(np.zeros(8), np.zeros(8), ehs, where, RULES, width=0.05)
    assert triples[:, 2].tolist() == pytest.approx([0, 0.25, 0.5, 0.75, 1, 0, 0, 0])
    assert triples[5:, 0].tolist() == pytest.approx([1, 0.5, 0])


# ------------------------------------------------------------------ modelling pieces


def test_ramp_matches_pena_example_and_papp_area() -> None:
    """Pena 3.3: mu 0.6, sigma 0.2 -> keep above 0.8, 0 below 0.4, linear between.
    Papp 7.2.3: the corrected ramp for sigma > mu has area 1 - mu (eqs. 7.5-7.8)."""
    values = np.array([0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    factor = ramp(values, 0.6, 0.2, low_mu_correction=True)
    assert factor.tolist() == pytest.approx([0, 0, 0.25, 0.5, 0.75, 1, 1])
    grid = (np.arange(200_000) + 0.5) / 200_000
    for mu in (0.05, 0.15, 0.25, 0.5):
        sigma = 0.4 * (1 - mu)
        area = ramp(grid, mu, sigma, low_mu_correction=True).mean()
        assert area == pytest.approx(1 - mu, abs=1e-4), mu


def test_frequencies_generic_and_specific() -> None:
    """Table B.2 defaults; specific modelling blends n/20 of the observed frequencies."""
    generic = ActionFrequencies(LokiParams())
    for _ in range(50):
        generic.observe(Street.FLOP, 1, Action.RAISE)
    assert generic.frequencies(Street.FLOP, 1).tolist() == list(DEFAULT_FREQUENCIES[1])
    specific = ActionFrequencies(LokiParams(modelling=Modelling.SPECIFIC))
    for _ in range(10):
        specific.observe(Street.PREFLOP, 1, Action.RAISE)
    assert specific.frequencies(Street.PREFLOP, 1).tolist() == pytest.approx([0.25, 0.15, 0.6])
    # The flop has no observation yet: it falls back on the pre-flop blend.
    assert specific.frequencies(Street.FLOP, 1).tolist() == pytest.approx([0.25, 0.15, 0.6])
    for _ in range(10):
        specific.observe(Street.PREFLOP, 1, Action.RAISE)
    assert specific.frequencies(Street.PREFLOP, 1).tolist() == [0.0, 0.0, 1.0]
    assert threshold(np.array([0.5, 0.3, 0.2]), Action.RAISE) == pytest.approx(0.8)
    assert threshold(np.array([0.5, 0.3, 0.2]), Action.CALL) == 0.5
    assert threshold(np.array([0.5, 0.3, 0.2]), Action.FOLD) is None


def test_replay_reconstructs_each_seats_situation() -> None:
    rules = Rules(num_seats=3)
    deck = parse_cards("AsKs QhQd 7c2d 2s3s4s 5h 6h")
    hand = Hand(rules, deck, button=0)
    for action in (Action.RAISE, Action.CALL, Action.RAISE, Action.FOLD, Action.CALL):
        hand.act(action)
    view = hand.view(1)
    decisions = list(replay(view))
    # Seat 0 (button) opens with a raise facing the big blind; the small blind faces 2 bets...
    assert [(d.seat, d.action, d.to_call, d.bets_to_call) for d in decisions] == [
        (0, Action.RAISE, 2, 1),
        (1, Action.CALL, 3, 2),
        (2, Action.RAISE, 2, 1),
        (0, Action.FOLD, 2, 1),
        (1, Action.CALL, 2, 1),
    ]
    assert decisions[2].pot == 3 + 4 + 3 and decisions[2].num_bets == 2
    assert decisions[4].invested and not decisions[1].invested
    assert next(replay(view, 3)).index == 3


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"make1": 0.9}, "make1 < make2"),
        ({"probability_play": 1.5}, "probability_play"),
        ({"preflop_shift": float("nan")}, "preflop_shift must be a finite number of IR4 units"),
        ({"lookahead": 3}, "lookahead"),
        ({"lookahead": 1.0}, "lookahead must be an integer, got 1.0"),
        ({"min_observations": 2.5}, "min_observations must be an integer, got 2.5"),
        ({"min_observations": 0}, "min_observations must be at least 1"),
        ({"tightness": "loose"}, "Tightness"),
        ({"default_frequencies": ((1.0, 0.0, 0.0),)}, "default_frequencies"),
        ({"triple_width": 0.3}, "triple_width"),
        ({"low_weight": 0.0}, "low_weight"),
    ],
)
def test_params_validate(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LokiParams(**changes)  # type: ignore[arg-type]
    assert LokiParams().tightness == Tightness.LOOSE
