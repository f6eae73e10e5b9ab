"""The Loki and Loki-2 agents: papers' worked examples, opponent modelling, the shipped table.

How the pre-flop table is fitted (and that it plays the target share of hands) is tested with
the fitter, in tests/tuning/test_loki_fit.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.loki import Loki, Loki2, LokiParams, Modelling, Tightness
from agents.loki.preflop import (
    Group,
    PreflopStrategy,
    group_of,
    load_preflop_table,
    preflop_action,
    preflop_situation,
)
from agents.strength.holdings import PAIR_INDEX, dead_mask
from agents.strength.income_rate import load_income_rates
from envs.cards import parse_cards
from envs.game import Hand
from envs.registry import make_agent
from envs.rules import Action, Rules, Street

TABLE = load_preflop_table()
PAPP_ROW = {
    PreflopStrategy.MAKE1: (50.0, 50.0),
    PreflopStrategy.MAKE2: (200.0, 50.0),
    PreflopStrategy.MAKE4: (580.0, 0.0),
}
"""Papp 1998, section 6.1: the one row of Table B.1 that survives (tight, "3-4 players")."""


def deal(num_seats: int, holes: dict[int, str], board: str = "") -> list[int]:
    """A deck giving ``holes`` to their seats and ``board`` as the board, the rest in order."""
    fixed = {seat: parse_cards(cards) for seat, cards in holes.items()}
    used = {c for cards in fixed.values() for c in cards} | set(parse_cards(board))
    rest = iter(c for c in range(52) if c not in used)
    deck: list[int] = []
    for seat in range(num_seats):
        deck += fixed.get(seat) or [next(rest), next(rest)]
    deck += list(parse_cards(board)) if board else []
    deck += list(rest)
    return deck


def play(hand: Hand, actions: list[Action]) -> None:
    for action in actions:
        hand.act(action)


def seeded(agent: Loki, seed: int = 0) -> Loki:
    agent.reset(np.random.default_rng(seed))
    return agent


# ------------------------------------------------------------------ pre-flop


def test_papp_preflop_example() -> None:
    """Papp 6.1: six players, A-d T-d, tight; blinds posted, two folds, only the button behind:
    position 1, num_inpot 4, num_guaranteed 3, E = 3.6 -> "3-4"; thresholds 100 / 250 / 580;
    IR4 = 491 -> Make2, raise."""
    hand = Hand(Rules(num_seats=6), deal(6, {5: "AdTd"}), button=0)
    play(hand, [Action.FOLD, Action.FOLD])  # seats 3 and 4
    view = hand.view(5)
    assert preflop_situation(view) == (1, 4, 3)
    assert group_of(3 + 0.6 * (4 - 3)) == Group.THREE_FOUR
    thresholds = [
        TABLE.threshold(Tightness.TIGHT, Group.THREE_FOUR, s, 1)
        for s in (PreflopStrategy.MAKE1, PreflopStrategy.MAKE2, PreflopStrategy.MAKE4)
    ]
    assert thresholds == [100, 250, 580]
    loki = seeded(Loki(LokiParams(tightness=Tightness.TIGHT)))
    assert loki.act(view) == Action.RAISE
    assert loki.preflop_strategy == PreflopStrategy.MAKE2


def test_pena_preflop_example() -> None:
    """Pena 3.1: Loki on the button with A-h 8-h, four players active, moderate: Make2."""
    hand = Hand(Rules(num_seats=4), deal(4, {0: "Ah8h"}), button=0)
    play(hand, [Action.CALL])  # seat 3, first to act, calls
    loki = seeded(Loki(LokiParams(tightness=Tightness.MODERATE)))
    assert preflop_situation(hand.view(0)) == (0, 4, 4)
    assert loki.act(hand.view(0)) == Action.RAISE
    assert loki.preflop_strategy == PreflopStrategy.MAKE2


def test_strategy_is_fixed_for_the_round_and_followed() -> None:
    hand = Hand(Rules(num_seats=3), deal(3, {0: "AdTd"}), button=0)
    loki = seeded(Loki())
    assert loki.act(hand.view(0)) == Action.RAISE  # button opens with Make2 (or Make4)
    strategy = loki.preflop_strategy
    play(hand, [Action.RAISE, Action.RAISE, Action.RAISE])  # button raises, blinds re-raise
    if strategy == PreflopStrategy.MAKE2:
        assert loki.act(hand.view(0)) == Action.CALL  # two bets already made: call
    assert loki.preflop_strategy == strategy


def test_preflop_strategies_behave_as_defined() -> None:
    """Papp 6.1 strategy definitions, on a three-seat table (button 0, SB 1, BB 2)."""
    hand = Hand(Rules(num_seats=3), deal(3, {}), button=0)
    opened = hand.view(0)  # facing the big blind only
    assert preflop_action(PreflopStrategy.MAKE0, opened) == Action.FOLD
    assert preflop_action(PreflopStrategy.MAKE1, opened) == Action.CALL
    assert preflop_action(PreflopStrategy.MAKE2, opened) == Action.RAISE
    play(hand, [Action.RAISE])
    small_blind = hand.view(1)  # 1.5 bets to call
    assert preflop_action(PreflopStrategy.CALL1, small_blind) == Action.FOLD
    assert preflop_action(PreflopStrategy.CALL2, small_blind) == Action.CALL
    assert preflop_action(PreflopStrategy.MAKE2, small_blind) == Action.CALL  # two bets made
    assert preflop_action(PreflopStrategy.MAKE4, small_blind) == Action.RAISE
    limp = Hand(Rules(num_seats=3), deal(3, {}), button=0)
    play(limp, [Action.CALL, Action.CALL])
    big_blind = limp.view(2)  # nothing to call: Make0 checks
    assert preflop_action(PreflopStrategy.MAKE0, big_blind) == Action.CALL
    complete = Hand(Rules(num_seats=3), deal(3, {}), button=0)
    play(complete, [Action.FOLD])
    assert preflop_action(PreflopStrategy.CALL1, complete.view(1)) == Action.CALL  # half a bet


def test_fitted_table_keeps_papps_row_and_is_monotone() -> None:
    """Table B.1: the surviving tight / 3-4 row exactly; Make1 < Make2 < Make4 and thresholds
    that do not rise from tight to moderate to loose (our reading of the lost table; see
    agents/loki/README.md), at every position a
    group can occur in. (Make4's increment is 0 as in Papp's row, so from position 8 on --
    the blinds of a full table -- Make2's line passes Make4's and Make2 is never chosen.)"""
    for strategy, pair in PAPP_ROW.items():
        assert TABLE.lines[Tightness.TIGHT, Group.THREE_FOUR, strategy] == pair
    order = (Tightness.TIGHT, Tightness.MODERATE, Tightness.LOOSE)
    # E rounds to 2 with at most 3 players in (position <= 2), to 3-4 with at most 6.
    positions = {Group.TWO: range(3), Group.THREE_FOUR: range(6), Group.FIVE_PLUS: range(8)}
    strategies = (PreflopStrategy.MAKE1, PreflopStrategy.MAKE2, PreflopStrategy.MAKE4)
    for group, reachable in positions.items():
        for position in reachable:
            for tightness in order:
                values = [TABLE.threshold(tightness, group, s, position) for s in strategies]
                assert values == sorted(values), (group, tightness, position)
            for strategy in strategies:
                line = [TABLE.threshold(t, group, strategy, position) for t in order]
                assert line == sorted(line, reverse=True), (group, strategy, position)


# ------------------------------------------------------------------ opponent modelling


def raised_preflop(modelling: Modelling = Modelling.GENERIC) -> tuple[Loki, Hand]:
    """Three seats: the button (seat 0) raises; Loki in the small blind observes it."""
    hand = Hand(Rules(num_seats=3), deal(3, {1: "AsKs"}, "2c7d9h4s5s"), button=0)
    play(hand, [Action.RAISE])
    loki = seeded(Loki(LokiParams(modelling=modelling)))
    loki.act(hand.view(1))
    return loki, hand


def test_preflop_reweighting_after_a_raise() -> None:
    """Papp 7.2.2: a raise with 1 bet to call implies mu = fold + call = 0.8 (Table B.2), the
    IR7 value at the 80th percentile; sigma 330; weights floored at 0.01."""
    loki, _ = raised_preflop()
    weights = loki.weights(0)
    ir7 = load_income_rates().of_holdings(7)
    mu = np.sort(ir7)[round(0.8 * 1325)]
    assert weights[PAIR_INDEX[parse_cards("7c2d")]] == 0.01
    assert weights[PAIR_INDEX[parse_cards("AcAd")]] == 1.0
    middle = ir7 == ir7[PAIR_INDEX[parse_cards("QdJd")]]
    expected = np.clip((ir7[middle] - mu + 330) / 660, 0.01, 1.0)
    assert np.allclose(weights[middle], expected)
    assert loki.weights(2).tolist() == [1.0] * 1326  # the big blind has not acted yet


def test_reweighting_at_most_once_per_round() -> None:
    """Pena 3.3: re-weight from the round-start copy, and only for a higher threshold."""
    loki, hand = raised_preflop()  # the button raised: mu 0.8
    before = loki.weights(0)
    # Loki's seat re-raises, the big blind calls two bets (mu = fold = 0.7), the button calls
    # one bet (mu = 0.5 < 0.8: nothing changes).
    play(hand, [Action.RAISE, Action.CALL, Action.CALL])
    loki.observe(hand.view(1))
    assert np.array_equal(loki.weights(0), before)
    assert loki.weights(2).min() == 0.01

    # A limp (mu 0.5) then a raise facing two bets (mu 0.9) in the same round: the raise
    # re-weights the round-start (uniform) table, not the limp's.
    hand = Hand(Rules(num_seats=3), deal(3, {1: "AsKs"}), button=0)
    play(hand, [Action.CALL, Action.RAISE, Action.RAISE, Action.RAISE])
    loki = seeded(Loki())
    loki.observe(hand.view(1))
    ir7 = load_income_rates().of_holdings(7)
    mu = np.sort(ir7)[round(0.9 * 1325)]
    expected = np.maximum(np.clip((ir7 - mu + 330) / 660, 0, 1), 0.01)
    assert np.allclose(loki.weights(0), expected)


def test_postflop_reweighting_keeps_draws_on_pot_odds() -> None:
    """Papp 7.2.3: a flop bet with nothing to call implies mu = 0.5 (Table B.2), sigma = 0.2;
    hands with EHS' below 0.3 drop to 0.01 unless PPOTc pays the bet's pot odds."""
    from agents.loki.modelling import board_values

    hand = Hand(Rules(num_seats=2), deal(2, {0: "AsKs"}, "2c7d9h4s5s"), button=0)
    play(hand, [Action.CALL, Action.CALL])  # limp, check: flop; seat 1 (big blind) acts first
    play(hand, [Action.RAISE])
    loki = seeded(Loki())
    loki.act(hand.view(0))
    weights = loki.weights(1)
    hs1, ppot = board_values(parse_cards("2c7d9h"))
    ehs = hs1 + (1 - hs1) * ppot
    live = ~dead_mask(parse_cards("AsKs2c7d9h"))
    pot_odds = 2 / (4 + 2)  # two chips into a pot of four
    assert (weights[live & (ehs >= 0.7)] == 1.0).all()
    dropped = live & (ehs < 0.3) & (ppot < pot_odds)
    assert dropped.any() and (weights[dropped] == 0.01).all()
    kept = live & (ehs < 0.3) & (ppot >= pot_odds)
    assert (weights[kept] == 1.0).all()


def test_loki2_reweights_on_checks_too() -> None:
    """Pena 4.2: weight x PT[observed action], checks included."""
    hand = Hand(Rules(num_seats=2), deal(2, {0: "AsKs"}, "2c7d9h4s5s"), button=0)
    play(hand, [Action.CALL, Action.CALL, Action.CALL])  # limp, check, flop check by seat 1
    loki1, loki2 = seeded(Loki()), seeded(Loki2())
    loki1.act(hand.view(0))
    loki2.act(hand.view(0))
    assert (loki1.weights(1) == 1.0).all()
    weights = loki2.weights(1)
    assert weights.min() == pytest.approx(0.01) and weights.max() == 1.0


def test_specific_modelling_learns_and_generic_does_not() -> None:
    som = seeded(Loki(LokiParams(modelling=Modelling.SPECIFIC)))
    gom = seeded(Loki())
    for hand_id in range(30):
        hand = Hand(Rules(num_seats=2), deal(2, {0: "7c2d"}), button=1, hand_id=hand_id)
        hand.act(Action.RAISE)  # seat 1 (button, small blind) raises every hand
        for agent in (som, gom):
            agent.act(hand.view(0))
    assert som.frequencies(1, Street.PREFLOP, 1).tolist() == [0.0, 0.0, 1.0]
    assert gom.frequencies(1, Street.PREFLOP, 1).tolist() == [0.5, 0.3, 0.2]
    som.reset(np.random.default_rng(0))  # a new match forgets
    assert som.frequencies(1, Street.PREFLOP, 1).tolist() == [0.5, 0.3, 0.2]


def test_loki2_draws_nothing_when_its_triple_is_certain() -> None:
    """Pena 4.1 (betting with PTs): one random number per hand, drawn when a decision first
    mixes (``tests/agents/test_loki_known_policy.py``); a set of nines on the flop raises
    for sure, and asking again gives the same action."""
    loki = Loki2()
    rng = np.random.default_rng(3)
    loki.reset(rng)
    hand = Hand(Rules(num_seats=2), deal(2, {0: "9s9d"}, "9h7d2c4s5s"), button=0)
    play(hand, [Action.CALL, Action.CALL, Action.CALL])
    state = rng.bit_generator.state
    assert loki.action_probabilities(hand.view(0)) == (0.0, 0.0, 1.0)
    assert loki.act(hand.view(0)) == loki.act(hand.view(0)) == Action.RAISE
    assert rng.bit_generator.state == state


def test_registry_names_and_their_settings() -> None:
    expected = {
        "loki": (Tightness.LOOSE, Modelling.GENERIC, Loki),
        "loki-tight": (Tightness.TIGHT, Modelling.GENERIC, Loki),
        "loki-moderate": (Tightness.MODERATE, Modelling.GENERIC, Loki),
        "loki-som": (Tightness.LOOSE, Modelling.SPECIFIC, Loki),
        "loki2": (Tightness.LOOSE, Modelling.GENERIC, Loki2),
    }
    for name, (tightness, modelling, kind) in expected.items():
        agent = make_agent(name)
        assert type(agent) is kind and agent.name == name
        assert isinstance(agent, Loki)
        assert (agent.params.tightness, agent.params.modelling) == (tightness, modelling)
    with pytest.raises(TypeError, match="LokiParams"):
        Loki(params={"tightness": "tight"})  # type: ignore[arg-type]
