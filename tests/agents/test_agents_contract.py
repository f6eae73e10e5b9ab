"""One contract suite for every registered agent (future agents join automatically).

Every agent built by name from the ``holdem_lab.agents`` registry must: be a ``SeatAgent``;
return one of ``view.legal_actions`` in seeded random states at 2, 3, 6 and 10 seats on every
street; act deterministically for a given generator seed; leave its views untouched; accept the
terminal views of ``observe``; and, before it has a generator, either act without randomness or
raise a clear ``RuntimeError``.
"""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest

from envs.game import Hand
from envs.protocols import SeatAgent
from envs.registry import available_agents, make_agent
from envs.rules import Action, Rules, Street
from envs.view import PlayerView

AGENTS = available_agents()
SEAT_COUNTS = (2, 3, 6, 10)
STATES_PER_STREET = 4


@cache
def random_states(num_seats: int) -> tuple[PlayerView, ...]:
    """Seeded decision points, ``STATES_PER_STREET`` per street, from random-ish play."""
    rng = np.random.default_rng(np.random.SeedSequence([num_seats, 2024]))
    rules = Rules(num_seats=num_seats)
    found: dict[Street, list[PlayerView]] = {street: [] for street in Street}
    for hand_id in range(2000):
        hand = Hand(rules, rng.permutation(52), button=hand_id % num_seats, hand_id=hand_id)
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            if len(found[view.street]) < STATES_PER_STREET and rng.random() < 0.3:
                found[view.street].append(view)
            legal = hand.legal_actions()
            # Mostly check/call so that later streets are reached at ten seats too.
            weights = np.array([0.05 if a == Action.FOLD else 1.0 for a in legal])
            if Action.RAISE in legal:
                weights[legal.index(Action.RAISE)] = 0.3
            hand.act(legal[int(rng.choice(len(legal), p=weights / weights.sum()))])
        if all(len(views) == STATES_PER_STREET for views in found.values()):
            break
    assert all(len(views) == STATES_PER_STREET for views in found.values()), found.keys()
    return tuple(view for street in Street for view in found[street])


def terminal_views(num_seats: int, hands: int = 6) -> list[PlayerView]:
    """Terminal views of every seat of a few hands played with uniform random actions."""
    rng = np.random.default_rng(num_seats)
    views = []
    for hand_id in range(hands):
        hand = Hand(Rules(num_seats=num_seats), rng.permutation(52), button=hand_id % num_seats)
        while hand.actor is not None:
            legal = hand.legal_actions()
            hand.act(legal[int(rng.integers(len(legal)))])
        views += [hand.view(seat) for seat in range(num_seats)]
    return views


def seeded(name: str, seed: int = 7) -> SeatAgent:
    agent = make_agent(name)
    agent.reset(np.random.default_rng(seed))
    return agent


def test_registry_lists_the_baselines() -> None:
    assert {"random", "call", "raise", "rule"} <= set(AGENTS)


@pytest.mark.parametrize("name", AGENTS)
def test_is_a_seat_agent_with_a_name(name: str) -> None:
    agent = make_agent(name)
    assert isinstance(agent, SeatAgent)
    assert isinstance(agent.name, str) and agent.name


@pytest.mark.parametrize("num_seats", SEAT_COUNTS)
@pytest.mark.parametrize("name", AGENTS)
def test_returns_a_legal_action_on_every_street(name: str, num_seats: int) -> None:
    agent = seeded(name)
    states = random_states(num_seats)
    assert {view.street for view in states} == set(Street)
    for view in states:
        action = agent.act(view)
        assert type(action) is Action, f"{name} returned {action!r}, not an Action"
        assert action in view.legal_actions, (name, view.street, action, view.legal_actions)


@pytest.mark.parametrize("name", AGENTS)
def test_same_generator_seed_gives_the_same_actions(name: str) -> None:
    states = [view for n in SEAT_COUNTS for view in random_states(n)]
    agent = seeded(name, seed=11)
    first = [agent.act(view) for view in states]
    # A fresh agent, and the same agent reset again, both replay the same choices.
    again = seeded(name, seed=11)
    assert [again.act(view) for view in states] == first
    again.reset(np.random.default_rng(11))
    assert [again.act(view) for view in states] == first


@pytest.mark.parametrize("name", AGENTS)
def test_does_not_mutate_its_views(name: str) -> None:
    agent = seeded(name)
    for view in random_states(3) + random_states(6):
        before = copy.deepcopy(view)
        agent.act(view)
        assert view == before
        # Every container of a view is immutable, so an agent cannot alias shared state.
        for value in (view.actions, view.bets, view.board, view.legal_actions, view.folded):
            assert isinstance(value, tuple)


@pytest.mark.parametrize("num_seats", (2, 6))
@pytest.mark.parametrize("name", AGENTS)
def test_observes_terminal_views(name: str, num_seats: int) -> None:
    agent = seeded(name)
    for view in terminal_views(num_seats):
        assert view.is_terminal
        before = copy.deepcopy(view)
        agent.observe(view)
        assert view == before
    # It still acts legally after observing.
    view = random_states(num_seats)[0]
    assert agent.act(view) in view.legal_actions


@pytest.mark.parametrize("name", AGENTS)
def test_plays_whole_hands_in_every_seat(name: str) -> None:
    """The agent in all seats at once: every hand ends with zero-sum payoffs."""
    for num_seats in SEAT_COUNTS:
        agents = [seeded(name, seed=s) for s in range(num_seats)]
        rng = np.random.default_rng(num_seats)
        for hand_id in range(5):
            hand = Hand(Rules(num_seats=num_seats), rng.permutation(52), button=hand_id % 2)
            while (seat := hand.actor) is not None:
                hand.act(agents[seat].act(hand.view(seat)))
            assert sum(hand.payoffs) == 0
            for seat, agent in enumerate(agents):
                agent.observe(hand.view(seat))


@pytest.mark.parametrize("name", AGENTS)
def test_without_a_generator_it_acts_or_raises_a_clear_runtime_error(name: str) -> None:
    agent = make_agent(name)  # the registry's no-argument construction: rng is None
    for view in random_states(2):
        try:
            action = agent.act(view)
        except RuntimeError as error:
            assert "generator" in str(error)
            return
        assert action in view.legal_actions


def test_random_agent_without_generator_raises_runtime_error() -> None:
    agent = make_agent("random")
    with pytest.raises(RuntimeError, match=r"no random generator yet.*reset"):
        agent.act(random_states(2)[0])
