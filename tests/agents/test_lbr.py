"""The local best response (issue 15): the opponents' policies over all holdings equal the
scalar agents', the range is Bayes' posterior, the values follow the formula, and against
``call`` it takes the exact best response's decisions after the flop."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from agents.base import KnownPolicyAgent
from agents.baselines import CallAgent, RuleAgent
from agents.best_response import CALL, BestResponseAgent
from agents.bpp import BPPAgent, BPPCurvesAgent, deterministic_bpp
from agents.lbr import (
    CardIndependent,
    LBRParams,
    LocalBestResponse,
    RangePolicy,
    ShadowBayesian,
    VectorRule,
    action_values,
    best_action,
    holding_equities,
)
from agents.strength.holdings import HOLDINGS, dead_mask
from envs.cards import parse_cards
from envs.evaluator import evaluate_one
from envs.game import Hand
from envs.protocols import SeatAgent
from envs.rules import Action, Rules, Street
from envs.seating import play_turns, tell_hand_end
from envs.view import PlayerView

Policy = Callable[[], tuple[RangePolicy, KnownPolicyAgent]]

POLICIES: dict[str, Policy] = {
    "rule": lambda: (VectorRule(), RuleAgent()),
    "bpp": lambda: (ShadowBayesian(BPPAgent()), BPPAgent()),
    "bpp-det": lambda: (ShadowBayesian(deterministic_bpp()), deterministic_bpp()),
    "bpp-curves": lambda: (ShadowBayesian(BPPCurvesAgent()), BPPCurvesAgent()),
}


def random_spots(seed: int, count: int) -> list[PlayerView]:
    """Decision views of random heads-up hands, every street, actions drawn uniformly."""
    rng = np.random.default_rng(seed)
    views = []
    while len(views) < count:
        hand = Hand(Rules(), rng.permutation(52)[:9], button=int(rng.integers(2)))
        while hand.actor is not None:
            views.append(hand.view(hand.actor))
            legal = [a for a in hand.legal_actions() if a != Action.FOLD]
            hand.act(legal[int(rng.integers(len(legal)))])
    return views[:count]


@pytest.mark.parametrize("name", list(POLICIES))
def test_range_policies_equal_the_agents_holding_by_holding(name: str) -> None:
    """At random spots of every street, the vectorised policy gives each holding the
    probabilities the scalar agent plays with those hole cards."""
    vector, scalar = POLICIES[name]()
    rng = np.random.default_rng(1)
    for view in random_spots(2, 24):
        live = np.flatnonzero(~dead_mask(view.board))
        holdings = rng.choice(live, 40, replace=False)
        got = vector.probabilities(view, holdings)
        for row, (a, b) in zip(got, HOLDINGS[holdings], strict=True):
            expected = scalar.action_probabilities(view._replace(hole=(int(a), int(b))))
            np.testing.assert_allclose(row, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["rule", "bpp"])
def test_the_range_is_the_bayes_posterior(name: str) -> None:
    """Along a played hand, the agent's range equals prior x product of the opponent's action
    probabilities at its real views, computed holding by holding with a separate agent."""
    vector, scalar = POLICIES[name]()
    lbr = LocalBestResponse(vector, rng=np.random.default_rng(3))
    opponent_draws = np.random.default_rng(4)
    deck = parse_cards("AsKd 9h9c 2c7dJh Qs 5d")
    hand = Hand(Rules(), deck, button=0)
    seen: list[tuple[PlayerView, Action]] = []
    checked = 0
    while hand.actor is not None:
        view = hand.view(hand.actor)
        if hand.actor == 1:
            p = scalar.action_probabilities(view)
            action = Action(int(opponent_draws.choice(3, p=p)))
            seen.append((view, action))
        else:
            weights = lbr.opponent_range(view)
            direct = (~dead_mask([*view.hole, *view.board])).astype(float)
            for past, action in seen:
                for i in np.flatnonzero(direct):
                    a, b = (int(c) for c in HOLDINGS[i])
                    direct[i] *= scalar.action_probabilities(past._replace(hole=(a, b)))[action]
            np.testing.assert_allclose(weights, direct / direct.sum(), rtol=1e-9, atol=1e-15)
            checked += bool(seen)
            action = lbr.act(view)
        hand.act(action)
    assert checked >= 2


def test_values_follow_the_formula() -> None:
    """Two holdings: one we beat that calls our raise (weight 1), one that beats us and folds
    to it (weight 3)."""
    values = action_values(
        np.array([1.0, 3.0]),
        np.array([1.0, 0.0]),
        pot=10,
        to_call=2,
        bet=4,
        can_fold=True,
        response=np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]),
    )
    assert values.win_probability == pytest.approx(0.25)
    assert values.call == pytest.approx(0.25 * 12 - 2)
    # 1/4: called, we win the pot of 20 after putting in 6; 3/4: it folds, we win the 10.
    assert values.raise_ == pytest.approx(0.25 * (20 - 6) + 0.75 * 10)
    assert values.fold_probability == pytest.approx(0.75)
    assert best_action(values) == Action.RAISE
    assert best_action(values._replace(raise_=0.5, call=-0.5)) == Action.RAISE
    assert best_action(values._replace(raise_=-1.0, call=-0.5)) == Action.FOLD
    reraised = action_values(
        np.array([1.0]),
        np.array([0.0]),
        pot=10,
        to_call=0,
        bet=4,
        can_fold=False,
        response=np.array([[0.0, 0.0, 1.0]]),
    )
    assert reraised.raise_ == pytest.approx(-8.0)  # bet, call its raise, lose
    assert best_action(reraised) == Action.CALL
    with pytest.raises(ValueError, match="empty"):
        action_values(
            np.zeros(2), np.zeros(2), pot=1, to_call=0, bet=2, can_fold=False, response=None
        )


def test_river_equities_are_exact() -> None:
    hole, board = parse_cards("AhKh"), parse_cards("2c7dJhQs5d")
    got = holding_equities(hole, board, samples=1)
    mine = evaluate_one([*hole, *board])
    for i in (0, 100, 700, 1325):
        a, b = (int(c) for c in HOLDINGS[i])
        if {a, b} & {*hole, *board}:
            assert got[i] == 0.0
        else:
            theirs = evaluate_one([a, b, *board])
            assert got[i] == (mine > theirs) + 0.5 * (mine == theirs)


def scripted(deck: str, actions: str, lbr: LocalBestResponse, button: int = 0) -> Action:
    """LBR's action (it sits in seat 0) after the actions ``f``/``c``/``r`` of both seats."""
    hand = Hand(Rules(), parse_cards(deck), button=button)
    for letter in actions:
        hand.act(Action("fcr".index(letter)))
    assert hand.actor == 0
    return lbr.act(hand.view(0))


def test_scripted_spots_are_sensible() -> None:
    """The nuts on the river bets; air facing the rule bot's river bet (HS >= 0.8) folds; a
    strong pre-flop hand raises against the calling station."""
    rule = LocalBestResponse(VectorRule(), rng=np.random.default_rng(0))
    # Seat 0 is the big blind (button 1): it acts first after the flop.
    nuts = "AhKh 9c9d QhJhTh 2c 3d"
    assert scripted(nuts, "cc" + "cc" * 2, rule, button=1) == Action.RAISE
    air = "3c2d AsKs KhQd8c 7h 9s"
    assert scripted(air, "cc" + "cc" * 2 + "cr", rule, button=1) == Action.FOLD
    station = LocalBestResponse(CardIndependent(CallAgent()), rng=np.random.default_rng(0))
    assert scripted("AsAd 7c2d 3h4h5h 6c 8d", "c", station, button=1) == Action.RAISE


def test_against_call_it_plays_the_exact_best_response_after_the_flop() -> None:
    """Against ``call`` a raise is worth b (2 WP - 1) more than a check, so LBR bets exactly
    when its equity exceeds 1/2, as the exact best response does (each bet is a side wager):
    with exact equities (turn, river, and the flop with every completion) the decisions are
    the same."""
    lbr = LocalBestResponse(
        CardIndependent(CallAgent()),
        params=LBRParams(flop_samples=1081),
        rng=np.random.default_rng(0),
    )
    best = BestResponseAgent(CALL)
    rng = np.random.default_rng(7)
    compared = {Street.FLOP: 0, Street.TURN: 0, Street.RIVER: 0}
    while min(compared.values()) < 2:
        hand = Hand(Rules(), rng.permutation(52)[:9], button=int(rng.integers(2)))
        while hand.actor is not None:
            view = hand.view(hand.actor)
            if hand.actor == 1:
                hand.act(Action.CALL)
                continue
            action = lbr.act(view)
            if view.street != Street.PREFLOP and compared[view.street] < 2:
                assert action == best.act(view), view
                compared[view.street] += 1
            hand.act(action)


def test_the_shadow_learns_what_the_opponent_learns() -> None:
    """Over hands with showdowns, the copy of BPP inside the local best response ends with the
    opponent model of the BPP it plays against."""
    lbr = LocalBestResponse(ShadowBayesian(BPPAgent()), rng=np.random.default_rng(0))
    bpp = BPPAgent(rng=np.random.default_rng(1))
    deals = np.random.default_rng(2)
    for hand_id in range(30):
        hand = Hand(Rules(), deals.permutation(52)[:9], button=hand_id % 2, hand_id=hand_id)
        table: list[SeatAgent | None] = [lbr, bpp]
        play_turns(hand, table)
        tell_hand_end(hand, table)
    shadow = lbr.opponent
    assert isinstance(shadow, ShadowBayesian)
    learned = bpp.belief.model.counts(0)
    assert learned.sum() > 0
    np.testing.assert_array_equal(shadow.agent.belief.model.counts(0), learned)
