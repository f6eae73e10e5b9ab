"""Behaviour of the baseline bots (hand strength itself is tested in test_features.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from agents.base import Agent
from agents.baselines import CallAgent, RaiseAgent, RandomAgent, RuleAgent
from agents.rule_policy import RuleParams, preflop_class
from agents.strength import hand_strength
from envs.cards import parse_cards
from envs.game import Hand
from envs.rules import Action, Rules, Street
from envs.view import PlayerView

# deck layout heads-up: seat 0 hole, seat 1 hole, then the five board cards
NUT_DECK = parse_cards("AsKs 2c7d QsJsTs 3h 4d") + parse_cards("5c6c8c9c")


def preflop_view(deck: tuple[int, ...] = NUT_DECK, actions: tuple[Action, ...] = ()) -> PlayerView:
    hand = Hand(Rules(), deck)
    for action in actions:
        hand.act(action)
    assert hand.actor is not None
    return hand.view(hand.actor)


def flop_view(deck: tuple[int, ...], actions: tuple[Action, ...] = ()) -> PlayerView:
    """Heads-up, button 0: both check/call pre-flop; on the flop seat 1 acts first."""
    hand = Hand(Rules(), deck)
    hand.act(Action.CALL)
    hand.act(Action.CALL)
    for action in actions:
        hand.act(action)
    assert hand.street == Street.FLOP and hand.actor is not None
    return hand.view(hand.actor)


def terminal_view() -> PlayerView:
    hand = Hand(Rules(), NUT_DECK)
    hand.act(Action.FOLD)
    return hand.view(0)


# ----------------------------------------------------------------------- base contract


def test_reset_rejects_a_non_generator() -> None:
    with pytest.raises(TypeError, match=r"numpy\.random\.Generator"):
        CallAgent().reset(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"numpy\.random\.Generator"):
        RandomAgent(rng=np.random.RandomState(1))  # type: ignore[arg-type]


def test_reset_calls_the_forget_hook() -> None:
    class Memory(CallAgent):
        def __init__(self) -> None:
            super().__init__()
            self.seen = 0

        def observe(self, view: PlayerView) -> None:
            self.seen += 1

        def _forget(self) -> None:
            self.seen = 0

    agent = Memory()
    agent.observe(terminal_view())
    assert agent.seen == 1
    agent.reset(np.random.default_rng(0))
    assert agent.seen == 0


@pytest.mark.parametrize("cls", [RandomAgent, CallAgent, RaiseAgent, RuleAgent])
def test_acting_on_a_terminal_view_is_an_error(cls: type[Agent]) -> None:
    agent = cls(rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="the hand is over"):
        agent.act(terminal_view())


def test_names_match_the_registry() -> None:
    assert [c.name for c in (RandomAgent, CallAgent, RaiseAgent, RuleAgent)] == [
        "random",
        "call",
        "raise",
        "rule",
    ]


# ----------------------------------------------------------------------- simple bots


def test_random_agent_is_uniform_over_legal_actions() -> None:
    agent = RandomAgent(rng=np.random.default_rng(5))
    facing_bet = preflop_view()  # SB to act: fold, call, raise
    counts = Counter(agent.act(facing_bet) for _ in range(6000))
    assert set(counts) == {Action.FOLD, Action.CALL, Action.RAISE}
    for action in counts:
        assert counts[action] / 6000 == pytest.approx(1 / 3, abs=0.03)
    free = flop_view(NUT_DECK)  # checking is free: check or bet only
    counts = Counter(agent.act(free) for _ in range(2000))
    assert set(counts) == {Action.CALL, Action.RAISE}
    assert counts[Action.CALL] / 2000 == pytest.approx(0.5, abs=0.04)


def test_call_agent_always_checks_or_calls() -> None:
    agent = CallAgent()
    assert agent.act(preflop_view()) == Action.CALL
    assert agent.act(flop_view(NUT_DECK)) == Action.CALL


def test_raise_agent_raises_until_the_cap_then_calls() -> None:
    agent = RaiseAgent()
    assert agent.act(preflop_view()) == Action.RAISE
    capped = preflop_view(actions=(Action.RAISE, Action.RAISE, Action.RAISE))
    assert Action.RAISE not in capped.legal_actions
    assert agent.act(capped) == Action.CALL


# ----------------------------------------------------------------------- rule bot


@pytest.mark.parametrize(
    ("hole", "expected"),
    [
        ("AsAh", Action.RAISE),
        ("7c7d", Action.RAISE),
        ("6c6d", Action.CALL),
        ("2c2d", Action.CALL),
        ("AsKd", Action.RAISE),
        ("QdAs", Action.RAISE),
        ("AhJh", Action.RAISE),
        ("AhJd", Action.CALL),
        ("KsQs", Action.RAISE),
        ("KsQd", Action.CALL),
        ("TcJd", Action.CALL),
        ("Ah2h", Action.CALL),
        ("Ah2d", Action.FOLD),
        ("5s4s", Action.CALL),
        ("4s3s", Action.FOLD),
        ("9h8h", Action.CALL),
        ("9h8d", Action.FOLD),
        ("Kd7c", Action.FOLD),
        ("9cTc", Action.CALL),
        ("Ts9d", Action.FOLD),
    ],
)
def test_preflop_rule(hole: str, expected: Action) -> None:
    cards = parse_cards(hole)
    assert preflop_class((cards[0], cards[1])) == expected


def test_rule_agent_preflop() -> None:
    agent = RuleAgent()
    # SB (seat 0) with AsKs raises; BB with 2c7d folds to a raise but checks when free.
    assert agent.act(preflop_view()) == Action.RAISE
    assert agent.act(preflop_view(actions=(Action.RAISE,))) == Action.FOLD
    assert agent.act(preflop_view(actions=(Action.CALL,))) == Action.CALL  # a free check
    aces_in_bb = parse_cards("2c7d AhAd QsJsTs 3h 4d")
    capped = preflop_view(aces_in_bb, actions=(Action.RAISE, Action.RAISE, Action.RAISE))
    assert capped.seat == 1 and Action.RAISE not in capped.legal_actions
    assert agent.act(capped) == Action.CALL  # aces at the cap call


def test_rule_agent_postflop_thresholds() -> None:
    agent = RuleAgent()
    # Seat 1 holds 2c7d on QsJsTs: HS is low; checking is free, so it checks.
    weak = flop_view(NUT_DECK)
    assert weak.seat == 1 and hand_strength(weak.hole, weak.board) < 0.2
    assert agent.act(weak) == Action.CALL
    # Facing a bet of 2 into 4 (pot odds 2/6 = 1/3 > HS) it folds.
    assert agent.act(flop_view(NUT_DECK, (Action.CALL, Action.RAISE))) == Action.FOLD
    # Seat 0 holds the royal flush: it bets.
    assert agent.act(flop_view(NUT_DECK, (Action.CALL,))) == Action.RAISE


@pytest.mark.parametrize(
    ("hole", "expected", "reason"),
    [
        ("5h5d", Action.CALL, "0.5 <= HS < 0.8: calls whatever the price"),
        ("Qh7d", Action.CALL, "HS < 0.5 but above the pot odds 2 / 12"),
        ("7h4d", Action.FOLD, "HS below the pot odds"),
    ],
)
def test_rule_agent_calls_on_threshold_or_pot_odds(
    hole: str, expected: Action, reason: str
) -> None:
    # Seat 1 bets the flop Ks8c2d, seat 0 raises: seat 1 owes 2 with 10 in the pot.
    deck = parse_cards("Ac4c" + hole + "Ks8c2d 3h 4s")
    view = flop_view(deck, (Action.RAISE, Action.RAISE))
    assert view.seat == 1 and view.to_call == 2 and view.pot == 10
    hs = hand_strength(view.hole, view.board)
    odds = view.to_call / (view.pot + view.to_call)
    assert {"5h5d": 0.5 <= hs < 0.8, "Qh7d": odds <= hs < 0.5, "7h4d": hs < odds}[hole]
    assert RuleAgent().act(view) == expected, reason


def test_rule_agent_thresholds_are_parameters() -> None:
    deck = parse_cards("Ac4c 5h5d Ks8c2d 3h 4s")
    view = flop_view(deck)  # seat 1 (5h5d, HS 0.72) acts first on the flop: checking is free
    assert view.seat == 1 and view.to_call == 0
    assert RuleAgent().act(view) == Action.CALL
    assert RuleAgent(RuleParams(raise_threshold=0.7)).act(view) == Action.RAISE


def test_rule_params_are_validated() -> None:
    with pytest.raises(ValueError, match="call_threshold <= raise_threshold"):
        RuleParams(call_threshold=0.9, raise_threshold=0.8)


def test_rule_agent_never_folds_when_checking_is_free() -> None:
    agent = RuleAgent()
    rng = np.random.default_rng(3)
    free_checks = 0
    for hand_id in range(300):
        num_seats = 2 + hand_id % 5
        hand = Hand(Rules(num_seats=num_seats), rng.permutation(52), button=hand_id % num_seats)
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            action = agent.act(view)
            assert action in view.legal_actions
            if view.to_call == 0:
                free_checks += 1
                assert action != Action.FOLD
            hand.act(action)
    assert free_checks > 100
