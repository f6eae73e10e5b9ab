"""One contract suite for every registered agent (future agents join automatically).

Every agent built by name from the ``holdem_lab.agents`` registry must: be a ``SeatAgent``;
return one of ``view.legal_actions`` in seeded random states at 2, 3, 6 and 10 seats on every
street; act deterministically for a given generator seed; decide from what its seat may see
only (the same action when the cards hidden from it are different); forget everything at
``reset`` (the same actions as a fresh agent after having played); keep its memory to itself
(another instance playing in between changes nothing); leave its views untouched; accept the
terminal views of ``observe``; and, before it has a generator, either act without randomness
or raise a clear ``RuntimeError``.

Each check is a function that returns the violations it finds, and each is shown to find
them in a deliberately broken agent (``Peeker``, ``Unforgetful``, ``Gossip``, ``Tamperer``,
``Cheat``), so that a check which could not fail would fail its own test.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest

from agents.base import Agent, legal_actions
from envs.game import Hand
from envs.protocols import SeatAgent
from envs.registry import available_agents, make_agent
from envs.rules import Action, Rules, Street
from envs.view import PlayerView

AGENTS = available_agents()
SEAT_COUNTS = (2, 3, 6, 10)
STATES_PER_STREET = 4
Factory = Callable[[], SeatAgent]


# ------------------------------------------------------------------ decision points


@dataclass(frozen=True)
class Spot:
    """A decision point that can be replayed: the cards, the button and the actions before it."""

    num_seats: int
    deck: tuple[int, ...]
    button: int
    hand_id: int
    history: tuple[Action, ...]

    def hand(self) -> Hand:
        """The hand replayed up to the decision (its actor is to act)."""
        hand = Hand(
            Rules(num_seats=self.num_seats), self.deck, button=self.button, hand_id=self.hand_id
        )
        for action in self.history:
            hand.act(action)
        assert hand.actor is not None
        return hand

    def view(self) -> PlayerView:
        hand = self.hand()
        assert hand.actor is not None
        return hand.view(hand.actor)

    def with_hidden_cards_moved(self, rng: np.random.Generator) -> Spot:
        """The same spot, with every card the actor cannot see shuffled among those positions:
        other seats' hole cards, the board still to come and the rest of the deck."""
        hand = self.hand()
        seat, n = hand.actor, self.num_seats
        assert seat is not None
        seen = {2 * seat, 2 * seat + 1, *range(2 * n, 2 * n + len(hand.board))}
        hidden = [i for i in range(len(self.deck)) if i not in seen]
        deck = list(self.deck)
        for i, card in zip(hidden, rng.permutation([deck[i] for i in hidden]), strict=True):
            deck[i] = int(card)
        return Spot(self.num_seats, tuple(deck), self.button, self.hand_id, self.history)


@cache
def random_spots(num_seats: int) -> tuple[Spot, ...]:
    """Seeded decision points, ``STATES_PER_STREET`` per street, from random-ish play."""
    rng = np.random.default_rng(np.random.SeedSequence([num_seats, 2024]))
    rules = Rules(num_seats=num_seats)
    found: dict[Street, list[Spot]] = {street: [] for street in Street}
    for hand_id in range(2000):
        deck = tuple(int(c) for c in rng.permutation(52))
        button = hand_id % num_seats
        hand = Hand(rules, deck, button=button, hand_id=hand_id)
        history: list[Action] = []
        while (seat := hand.actor) is not None:
            if len(found[hand.street]) < STATES_PER_STREET and rng.random() < 0.3:
                found[hand.street].append(Spot(num_seats, deck, button, hand_id, tuple(history)))
            legal = hand.legal_actions()
            # Mostly check/call so that later streets are reached at ten seats too.
            weights = np.array([0.05 if a == Action.FOLD else 1.0 for a in legal])
            if Action.RAISE in legal:
                weights[legal.index(Action.RAISE)] = 0.3
            action = legal[int(rng.choice(len(legal), p=weights / weights.sum()))]
            hand.act(action)
            history.append(action)
            assert seat is not None
        if all(len(spots) == STATES_PER_STREET for spots in found.values()):
            break
    assert all(len(spots) == STATES_PER_STREET for spots in found.values()), found.keys()
    return tuple(spot for street in Street for spot in found[street])


@cache
def random_states(num_seats: int) -> tuple[PlayerView, ...]:
    return tuple(spot.view() for spot in random_spots(num_seats))


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


def seeded(factory: Factory | str, seed: int = 7) -> SeatAgent:
    agent = make_agent(factory) if isinstance(factory, str) else factory()
    agent.reset(np.random.default_rng(seed))
    return agent


def factory_of(name: str) -> Factory:
    return lambda: make_agent(name)


# ------------------------------------------------------------------ the checks


def illegal_actions(factory: Factory, views: Sequence[PlayerView]) -> list[str]:
    """Actions that are not one of ``view.legal_actions`` (or not an ``Action`` at all)."""
    agent = seeded(factory)
    problems = []
    for view in views:
        action = agent.act(view)
        if type(action) is not Action or action not in view.legal_actions:
            problems.append(f"{action!r} on the {view.street.name}, legal {view.legal_actions}")
    return problems


def act_at(agent: SeatAgent, hand: Hand) -> Action:
    """The agent's action at ``hand``'s decision, asked as a table does: the hand in a caller's
    frame, the agent given its seat's view only."""
    seat = hand.actor
    assert seat is not None
    return agent.act(hand.view(seat))


def peeks(factory: Factory, spots: Sequence[Spot], seeds: Sequence[int] = (0, 1)) -> list[str]:
    """Decisions that change when only cards hidden from the agent change.

    For every spot and generator seed, a fresh agent decides in the spot and another fresh
    agent, seeded the same, in the same spot with the hidden cards moved; an agent that sees
    only its view sees the same thing twice and draws the same numbers, so it must act the same.
    """
    problems = []
    for index, spot in enumerate(spots):
        moved = spot.with_hidden_cards_moved(np.random.default_rng(index))
        for seed in seeds:
            first = act_at(seeded(factory, seed), spot.hand())
            second = act_at(seeded(factory, seed), moved.hand())
            if first != second:
                problems.append(f"spot {index} seed {seed}: {first.name} then {second.name}")
    return problems


def play_some_hands(agent: SeatAgent, num_seats: int = 3, hands: int = 8) -> None:
    """The agent in every seat of a few seeded hands, told every seat's end of each hand."""
    rng = np.random.default_rng(99)
    for hand_id in range(hands):
        hand = Hand(Rules(num_seats=num_seats), rng.permutation(52), button=hand_id % num_seats)
        while (seat := hand.actor) is not None:
            hand.act(agent.act(hand.view(seat)))
        for seat in range(num_seats):
            agent.observe(hand.view(seat))


def probe(agent: SeatAgent, views: Sequence[PlayerView]) -> list[Action]:
    return [agent.act(view) for view in views]


def remembers_after_reset(factory: Factory, views: Sequence[PlayerView]) -> list[str]:
    """Differences between a fresh agent and one that played, then was reset with the same seed."""
    expected = probe(seeded(factory, 5), views)
    played = seeded(factory, 3)
    play_some_hands(played)
    played.reset(np.random.default_rng(5))
    actual = probe(played, views)
    return [
        f"state {i}: {a.name} instead of {e.name}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True))
        if e != a
    ]


def shares_state(factory: Factory, views: Sequence[PlayerView]) -> list[str]:
    """Differences a fresh agent shows when another instance played before it acts."""
    expected = probe(seeded(factory, 5), views)
    twin = seeded(factory, 5)
    other = seeded(factory, 3)
    play_some_hands(other)
    actual = probe(twin, views)
    return [
        f"state {i}: {a.name} instead of {e.name}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True))
        if e != a
    ]


def mutated_views(factory: Factory, views: Sequence[PlayerView], *, observe: bool) -> list[str]:
    """Views that differ after ``act`` (or ``observe``) from a deep copy taken before."""
    agent = seeded(factory)
    problems = []
    for index, view in enumerate(views):
        before = copy.deepcopy(view)
        if observe:
            agent.observe(view)
        else:
            agent.act(view)
        if view != before:
            problems.append(f"view {index} changed")
    return problems


# ------------------------------------------------------------------ broken agents


class Peeker(Agent):
    """Finds the ``Hand`` in its caller's frames and raises when the others' cards sum odd."""

    name = "peeker"

    def act(self, view: PlayerView) -> Action:
        legal = legal_actions(view)
        frame = inspect.currentframe()
        while frame is not None:
            for value in list(frame.f_locals.values()):
                if isinstance(value, Hand):
                    secret = sum(
                        sum(value.hole(s)) for s in range(value.num_seats) if s != view.seat
                    )
                    wanted = Action.RAISE if secret % 2 else Action.CALL
                    return wanted if wanted in legal else Action.CALL
            frame = frame.f_back
        return Action.CALL


class Unforgetful(Agent):
    """Counts the hands it was told about and plays aggressively once it has seen any; its
    ``reset`` keeps the count."""

    name = "unforgetful"

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def reset(self, rng: np.random.Generator) -> None:
        self._rng = rng  # the generator only: the count survives

    def observe(self, view: PlayerView) -> None:
        self.seen += 1

    def act(self, view: PlayerView) -> Action:
        legal = legal_actions(view)
        return Action.RAISE if self.seen and Action.RAISE in legal else Action.CALL


def gossip_class() -> type[Agent]:
    """A fresh class whose instances share one memory (a mutable class attribute)."""

    class Gossip(Agent):
        name = "gossip"
        heard: list[int] = []  # noqa: RUF012 - shared on purpose: the defect under test

        def observe(self, view: PlayerView) -> None:
            self.heard.append(view.hand_id)

        def act(self, view: PlayerView) -> Action:
            legal = legal_actions(view)
            return Action.RAISE if self.heard and Action.RAISE in legal else Action.CALL

    return Gossip


class Tamperer(Agent):
    """Writes into the frozen objects of its views (which ``object.__setattr__`` allows)."""

    name = "tamperer"

    def _tamper(self, view: PlayerView) -> None:
        object.__setattr__(view.rules, "big_bet", view.rules.big_bet + 1)

    def act(self, view: PlayerView) -> Action:
        self._tamper(view)
        return Action.CALL

    def observe(self, view: PlayerView) -> None:
        self._tamper(view)


class Cheat(Agent):
    """Folds whenever it likes, free checks included, and answers with plain ints."""

    name = "cheat"

    def act(self, view: PlayerView) -> Action:
        return 0  # type: ignore[return-value]


# ------------------------------------------------------------------ the suite


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
    states = random_states(num_seats)
    assert {view.street for view in states} == set(Street)
    assert illegal_actions(factory_of(name), states) == []


def test_the_legality_check_catches_illegal_actions() -> None:
    problems = illegal_actions(Cheat, random_states(3))
    # Every spot: a plain int is never an Action, and folding a free check is illegal too.
    assert len(problems) == len(random_states(3))


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
def test_decides_from_its_own_view_only(name: str) -> None:
    """Non-interference: other seats' cards and the undealt cards change no decision."""
    spots = random_spots(2) + random_spots(6)
    assert peeks(factory_of(name), spots) == []


def test_the_view_only_check_catches_an_agent_peeking_through_the_call_stack() -> None:
    spots = random_spots(2) + random_spots(6)
    assert peeks(Peeker, spots)
    # The cheat is in the cards it reads, not in the check: with nothing moved it is stable.
    assert all(
        act_at(seeded(Peeker), spot.hand()) == act_at(seeded(Peeker), spot.hand())
        for spot in spots
    )


@pytest.mark.parametrize("name", AGENTS)
def test_reset_forgets_everything(name: str) -> None:
    """After playing and ``reset(rng)``, the same actions as a fresh agent with that ``rng``."""
    assert remembers_after_reset(factory_of(name), random_states(3) + random_states(2)) == []


def test_the_reset_check_catches_an_agent_that_remembers_across_matches() -> None:
    assert remembers_after_reset(Unforgetful, random_states(3) + random_states(2))


@pytest.mark.parametrize("name", AGENTS)
def test_instances_keep_their_memory_to_themselves(name: str) -> None:
    """Another instance playing hands in between changes nothing for this one."""
    assert shares_state(factory_of(name), random_states(3) + random_states(2)) == []


def test_the_instance_check_catches_agents_sharing_a_memory() -> None:
    assert shares_state(gossip_class(), random_states(3) + random_states(2))


@pytest.mark.parametrize("name", AGENTS)
def test_does_not_mutate_its_views(name: str) -> None:
    views = random_states(3) + random_states(6)
    assert mutated_views(factory_of(name), views, observe=False) == []


@pytest.mark.parametrize("num_seats", (2, 6))
@pytest.mark.parametrize("name", AGENTS)
def test_observes_terminal_views(name: str, num_seats: int) -> None:
    views = terminal_views(num_seats)
    assert mutated_views(factory_of(name), views, observe=True) == []
    # It still acts legally after observing them.
    agent = seeded(name)
    for view in views:
        agent.observe(view)
    view = random_states(num_seats)[0]
    assert agent.act(view) in view.legal_actions


def test_the_mutation_check_catches_an_agent_writing_into_frozen_views() -> None:
    views = [spot.view() for spot in random_spots(3)]  # fresh: the shared ones stay intact
    assert mutated_views(Tamperer, views, observe=False) == [
        f"view {i} changed" for i in range(len(views))
    ]
    assert mutated_views(Tamperer, terminal_views(2), observe=True)


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
