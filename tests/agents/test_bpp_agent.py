"""BPPParams, the BPP agents' decisions, the registry names and the learning switch."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from agents.bpp import (
    BPPAgent,
    BPPCurvesAgent,
    BPPParams,
    CurvesParams,
    Strategy,
    expected_winnings,
)
from agents.bpp.curves import curve_probabilities
from envs.game import Hand
from envs.match import deal_deck, play_match
from envs.registry import make_agent
from envs.rules import Action, Rules, Street
from envs.view import PlayerView


def test_params_normalise_per_round_values_and_round_trip() -> None:
    params = BPPParams(alpha=0.4, alpha_prime=(1, 1.2, 1.4, 1.6), fp=3, cp=(1, 2, 3, 4))
    assert params.alpha == (0.4,) * 4
    assert params.alpha_prime == (1.0, 1.2, 1.4, 1.6)
    assert all(isinstance(v, float) for v in params.alpha_prime + params.cp)
    flat = params.to_dict()
    assert flat["alpha_prime_turn"] == 1.4 and flat["cp_river"] == 4.0
    assert all(isinstance(v, float) for v in flat.values())
    assert BPPParams.from_dict(json.loads(json.dumps(flat))) == params
    assert BPPParams.from_dict({}) == BPPParams()
    default = BPPParams().fp[0]
    assert BPPParams.from_dict({"fp_flop": 5.0}).fp == (default, 5.0, default, default)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"alpha": -0.1}, r"alpha\[preflop\] must not be negative"),
        ({"alpha_prime": (1, 1, 1)}, "alpha_prime needs 4 values"),
        ({"fp": 0.0}, r"fp\[preflop\] must be positive"),
        ({"cp": (1, 1, math.nan, 1)}, r"cp\[turn\] must be a finite number"),
        ({"fp": "2"}, "fp must be a number or 4 numbers"),
        ({"bluff_rate": 1.5}, "bluff_rate must be a probability"),
        ({"prior_weight": 0}, "prior_weight must be positive"),
    ],
)
def test_params_reject_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BPPParams(**kwargs)  # type: ignore[arg-type]


def test_from_dict_rejects_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown BPPParams keys"):
        BPPParams.from_dict({"alpha": 1.0})


def test_curves_params_validation() -> None:
    assert CurvesParams(fold_shift=-0.2).fold_shift == (-0.2,) * 4
    with pytest.raises(ValueError, match="fold_shift <= call_shift <= bet_shift"):
        CurvesParams(fold_shift=0.5)
    with pytest.raises(ValueError, match="steepness"):
        CurvesParams(steepness=-1)


def test_registry_names_build_the_three_variants() -> None:
    mixed, det, curves = make_agent("bpp"), make_agent("bpp-det"), make_agent("bpp-curves")
    assert isinstance(mixed, BPPAgent) and mixed.strategy is Strategy.MIXED
    assert isinstance(det, BPPAgent) and det.strategy is Strategy.DETERMINISTIC
    assert isinstance(curves, BPPCurvesAgent)
    assert (mixed.name, det.name, curves.name) == ("bpp", "bpp-det", "bpp-curves")
    assert BPPAgent(learn=False).name == "bpp-nolearn"


def _decision_views(seats: int, deals: int = 60) -> list[PlayerView]:
    """Decision points of random-ish hands (mostly calls, some raises, few folds)."""
    rng = np.random.default_rng(seats)
    views = []
    for deal in range(deals):
        hand = Hand(Rules(num_seats=seats), deal_deck(41, deal).tolist(), button=deal % seats)
        while (seat := hand.actor) is not None:
            views.append(hand.view(seat))
            legal = hand.legal_actions()
            weights = np.array([0.1 if a == Action.FOLD else 1.0 for a in legal])
            hand.act(legal[int(rng.choice(len(legal), p=weights / weights.sum()))])
    return views


@pytest.mark.parametrize("seats", [2, 4])
def test_decisions_follow_the_decision_network(seats: int) -> None:
    agent = BPPAgent(rng=np.random.default_rng(0))
    params = agent.params
    for view in _decision_views(seats):
        d = agent.decide(view)
        assert 0.0 <= d.p_win <= 1.0 and d.ew_fold == 0.0
        r = view.street
        opponents = [s for s in view.active_seats if s != view.seat]
        ew_bet, ew_pass = expected_winnings(
            d.p_win,
            pot=view.pot,
            to_call=view.to_call,
            bet=view.bet_size,
            remaining=sum(view.rules.bet_sizes[r + 1 :]),
            alpha=params.alpha[r],
            alpha_prime=params.alpha_prime[r],
            opponents=len(opponents),
            owed=sum(max(view.bets) - view.bets[s] for s in opponents),
        )
        assert (d.ew_bet, d.ew_pass) == pytest.approx((ew_bet, ew_pass))
        assert sum(d.probabilities) == pytest.approx(1.0)
        for action, p in zip(Action, d.probabilities, strict=True):
            assert p == 0.0 or action in view.legal_actions
        if view.street == Street.RIVER and Action.RAISE in view.legal_actions:
            assert d.probabilities[2] >= params.bluff_rate  # the original BPP's river bluff


def test_deterministic_bpp_without_bluff_takes_the_best_ew_and_never_draws() -> None:
    agent = BPPAgent(BPPParams(bluff_rate=0.0), strategy=Strategy.DETERMINISTIC)  # no rng
    for view in _decision_views(3, deals=30):
        d = agent.decide(view)
        legal = view.legal_actions
        values = {Action.FOLD: 0.0, Action.CALL: d.ew_pass, Action.RAISE: d.ew_bet}
        best = max(values[a] for a in legal)
        action = agent.act(view)
        assert values[action] == best


def test_stronger_hands_bet_more_and_fold_less() -> None:
    """Pocket aces against seven-deuce in the same seat and spot (small blind, first to act)."""
    probabilities = {}
    for hole in ("AsAh", "7d2c"):
        deck = list(deal_deck(1, 0))
        cards = [c for c in deck if c not in _cards(hole)]
        hand = Hand(Rules(), [*_cards(hole), *cards], button=0)  # seat 0 holds `hole`
        probabilities[hole] = BPPAgent().decide(hand.view(0)).probabilities
    assert probabilities["AsAh"][2] > probabilities["7d2c"][2]
    assert probabilities["AsAh"][0] < probabilities["7d2c"][0]


def _cards(text: str) -> list[int]:
    from envs.cards import parse_cards

    return list(parse_cards(text))


def test_curve_probabilities_shape() -> None:
    kw = {"fold_shift": -0.1, "call_shift": 0.1, "bet_shift": 0.6, "steepness": 10.0}
    low, mid, high = (curve_probabilities(x, **kw) for x in (-0.5, 0.1, 0.9))
    assert max(low) == low[0] and max(mid) == mid[1] and max(high) == high[2]
    free = curve_probabilities(-0.5, can_fold=False, **kw)
    assert free[0] == 0.0 and free[1] == pytest.approx(low[0] + low[1])
    huge = curve_probabilities(1e6, **kw)  # no overflow far out
    assert huge == (0.0, 0.0, 1.0)


def test_learning_switch_changes_play_against_a_maniac() -> None:
    """Against the always-raising bot, a learning BPP soon reads raises as no evidence of
    strength; the frozen one keeps reading them as strength (the learning switch)."""
    learner = BPPAgent(rng=np.random.default_rng(1))
    frozen = BPPAgent(learn=False, rng=np.random.default_rng(1))
    maniac = make_agent("raise")
    for agent in (learner, frozen):
        for deal in range(300):  # BPP in seat 0, the maniac in seat 1
            hand = Hand(Rules(), deal_deck(8, deal).tolist(), button=deal % 2, hand_id=deal)
            seats = (agent, maniac)
            while (seat := hand.actor) is not None:
                hand.act(seats[seat].act(hand.view(seat)))
            agent.observe(hand.view(0))
    assert learner.belief.model.counts(1).sum() > 100
    assert frozen.belief.model.counts(1).sum() == 0
    facing = [v for v in _decision_views(2, deals=80) if v.seat == 0 and v.street >= Street.FLOP]
    raised = [v for v in facing if any(a.seat == 1 and a.amount > 0 for a in v.actions)]
    learned = np.mean([learner.decide(v).p_win for v in raised])
    prior = np.mean([frozen.decide(v).p_win for v in raised])
    assert len(raised) > 20
    assert learned > prior + 0.02


def test_match_smoke_all_variants() -> None:
    result = play_match(["bpp", "bpp-det", "bpp-curves"], hands=60, seed=2)
    assert sum(r.chips for r in result.results) == 0
