"""The playable best response: the same decisions as the computation, a table that survives a
round trip, and a match against the bot that lands on the computed value (issue 15)."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from agents.best_response import (
    CALL,
    FOLD,
    FULL_DECK,
    RAISE,
    RANDOM,
    BestResponseAgent,
    FlopReachValues,
    LearnerSeat,
    PolicyBot,
    compute_best_response,
    load_table,
    parse_policy,
)
from agents.best_response.flop_reach import cache_path, shipped_path
from agents.best_response.flops import FlopValues
from agents.best_response.river_numerators import flop_layout
from agents.best_response.strategy import SeatStrategy
from agents.best_response.tree import build_game
from envs.game import Hand
from envs.match import play_match
from envs.registry import make_agent
from envs.rules import ACPC_LIMIT_HEADS_UP, Action, Rules, Street

MATCH_HANDS = 1000
"""Hands of the short agreement check (the 200,000-hand check is in results/exploitability.md)."""


@pytest.mark.parametrize("policy", [RAISE, RANDOM], ids=["raise", "random"])
def test_flop_decisions_use_the_computations_values(policy: object) -> None:
    """The agent's one-holding route gives each flop round the value the all-holdings
    computation gives (so it takes the same decisions)."""
    games = [build_game(policy, Rules(), seat) for seat in LearnerSeat]  # type: ignore[arg-type]
    values = FlopValues(games, FULL_DECK, quantities=1)
    flop = (3, 20, 41)
    remaining, by_seat = values.compute(flop)
    pairs = flop_layout(len(remaining)).pairs
    rng = np.random.default_rng(5)
    for seat in LearnerSeat:
        strategy = SeatStrategy(policy, Rules(), seat, None)  # type: ignore[arg-type]
        for holding in rng.choice(len(pairs), 8, replace=False):
            a, b = (int(c) for c in remaining[pairs[holding]])
            for round_id, expected in enumerate(by_seat[seat]):
                got = strategy.round_backup((a, b), flop, Street.FLOP, round_id).root
                assert float(got.reshape(-1)[0]) == pytest.approx(expected[0, holding], abs=1e-9)


def symmetric_values(rng: np.random.Generator) -> np.ndarray:
    """Random values that are equal within each starting-hand type."""
    from agents.strength.holdings import HOLDING_TYPE

    per_type = rng.normal(size=(13, 13))
    return per_type[HOLDING_TYPE[:, 0], HOLDING_TYPE[:, 1]]


def test_table_round_trip_and_scaling() -> None:
    rng = np.random.default_rng(6)
    histories = [h for h, _ in build_game(CALL, Rules(), LearnerSeat.BUTTON).preflop_exits]
    table = FlopReachValues(
        policy="call",
        rules=Rules(),
        exact=True,
        method="test",
        seat_chips=(1.5, 2.5),
        values={seat: {h: symmetric_values(rng) for h in histories} for seat in LearnerSeat},
    )
    again = FlopReachValues.from_json(table.to_json())
    assert (again.policy, again.rules, again.seat_chips) == ("call", Rules(), (1.5, 2.5))
    for seat in LearnerSeat:
        for history in histories:
            assert np.allclose(again.values[seat][history], table.values[seat][history], atol=0)
    scaled = again.scaled_for(ACPC_LIMIT_HEADS_UP)
    assert np.allclose(
        scaled[LearnerSeat.BUTTON]["cc"], 5 * table.values[LearnerSeat.BUTTON]["cc"]
    )
    with pytest.raises(ValueError, match="this table is for"):
        again.scaled_for(Rules(big_bet=6))
    broken = FlopReachValues(
        policy="call",
        rules=Rules(),
        exact=True,
        method="test",
        seat_chips=(0.0, 0.0),
        values={seat: {h: rng.normal(size=1326) for h in histories} for seat in LearnerSeat},
    )
    with pytest.raises(ValueError, match="within a hand type"):
        broken.to_json()
    with pytest.raises(ValueError, match="not a best-response table"):
        FlopReachValues.from_json('{"format": 1}')


def test_shipped_tables_cover_the_registry_agents() -> None:
    for name, policy in (("br-call", CALL), ("br-raise", RAISE), ("br-random", RANDOM)):
        agent = make_agent(name)
        assert isinstance(agent, BestResponseAgent) and agent.policy == policy
        table = FlopReachValues.load(shipped_path(policy.name))
        assert table.exact and table.policy == policy.name and table.rules == Rules()


@pytest.mark.parametrize("name", ["br-call", "br-raise", "br-random"])
def test_short_match_agrees_with_the_computed_value(name: str) -> None:
    agent = make_agent(name)
    assert isinstance(agent, BestResponseAgent)
    table = FlopReachValues.load(shipped_path(agent.policy.name))
    computed = sum(table.seat_chips) / 2 / Rules().small_bet
    match = play_match([agent, agent.policy.name], hands=MATCH_HANDS, seed=15)
    result = match.results[0]
    assert result.ci is not None
    assert result.ci[0] <= computed <= result.ci[1], (computed, result.ci)


def test_action_probabilities_are_one_hot_of_the_action() -> None:
    agent = make_agent("br-random")
    assert isinstance(agent, BestResponseAgent)
    rng = np.random.default_rng(7)
    checked = 0
    for hand_id in range(30):
        hand = Hand(Rules(), rng.permutation(52), button=hand_id % 2)
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            if seat == 0:
                probabilities = agent.action_probabilities(view)
                action = agent.act(view)
                assert probabilities == tuple(1.0 if a == action else 0.0 for a in Action)
                checked += 1
                hand.act(action)
            else:
                legal = hand.legal_actions()
                hand.act(legal[int(rng.integers(len(legal)))])
    assert checked > 30


def test_more_than_two_seats_checks_or_calls_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    agent = make_agent("br-call")
    rng = np.random.default_rng(8)
    hand = Hand(Rules(num_seats=3), rng.permutation(52), button=0)
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            assert agent.act(hand.view(hand.actor)) == Action.CALL
    assert sum("heads-up best response" in r.message for r in caplog.records) == 1


def test_playing_the_fold_bot_wins_750_mbb() -> None:
    """A best response to always-fold, from a (sampled, here exact) table, in a real match."""
    result = compute_best_response(FOLD, Rules(), flops=2, seed=1)
    assert result.sb_per_hand == pytest.approx(0.75) and result.ci == pytest.approx((0.75, 0.75))
    agent = BestResponseAgent(FOLD, table=FlopReachValues.from_result(result))
    match = play_match([agent, PolicyBot(FOLD)], hands=400, seed=3)
    assert match.results[0].mbb_per_hand == pytest.approx(750.0)


def test_policy_bot_draws_from_its_policy() -> None:
    bot = PolicyBot("mix:0.2,0.5,0.3", rng=np.random.default_rng(9))
    hand = Hand(Rules(), np.arange(52), button=0)
    hand.act(Action.CALL)
    hand.act(Action.CALL)  # the flop: the big blind may check or bet
    view = hand.view(hand.actor)
    counts = np.bincount([bot.act(view) for _ in range(4000)], minlength=3) / 4000
    assert counts[Action.FOLD] == 0.0
    assert counts == pytest.approx([0.0, 0.7, 0.3], abs=0.03)
    assert parse_policy(bot.name) == bot.policy


def test_cached_tables_are_found_and_broken_ones_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("HOLDEM_LAB_CACHE", str(tmp_path))
    path = cache_path(FOLD.name, Rules())
    assert path is not None and path.parent == tmp_path
    assert cache_path(FOLD.name, ACPC_LIMIT_HEADS_UP) == path  # the same game times five
    with pytest.raises(LookupError, match="no pre-flop table"):
        load_table(FOLD, Rules(), compute=False)
    path.write_text("not a table", encoding="utf-8")
    with caplog.at_level(logging.WARNING), pytest.raises(LookupError):
        load_table(FOLD, Rules(), compute=False)
    assert "ignoring the unusable cached table" in caplog.text
    histories = [h for h, _ in build_game(FOLD, Rules(), LearnerSeat.BUTTON).preflop_exits]
    rng = np.random.default_rng(10)
    table = FlopReachValues(
        policy="fold",
        rules=Rules(),
        exact=True,
        method="test",
        seat_chips=(2.0, 1.0),
        values={seat: {h: symmetric_values(rng) for h in histories} for seat in LearnerSeat},
    )
    table.save(path)
    assert load_table(FOLD, ACPC_LIMIT_HEADS_UP, compute=False).seat_chips == (2.0, 1.0)
