"""Loki and Loki-2 as known policies: certain actions, Loki-2's triple conditioned on its one
draw per hand (Pena 1999 section 4.1), legal probabilities everywhere, and what they keep.

Loki-2's regions of a triple T are fold [0, T0), call [T0, T0 + T1), raise [T0 + T1, 1); knowing
its earlier actions the draw is uniform on [lo, hi), and P(a) = |[lo, hi) & R_a| / (hi - lo).
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np
import pytest

from agents.loki import Betting, Loki, Loki2, LokiParams, Reweighting
from agents.loki.draw import HandDraw, narrow_all, next_residual
from agents.loki.triples import conditional, narrow
from envs.crn import sample_action
from envs.deals import deal_deck
from envs.game import Hand
from envs.protocols import KnownPolicy
from envs.registry import make_agent
from envs.rules import Action, Rules

LOKIS = ("loki", "loki-tight", "loki-moderate", "loki-som", "loki2")
FOLD, CALL, RAISE = Action.FOLD, Action.CALL, Action.RAISE


# ------------------------------------------------------------------ the draw, by hand


def bounds(triple: tuple[float, float, float]) -> tuple[float, float]:
    """(C0, C1) of a triple: the fold region's end and the call region's."""
    return triple[0], 1.0 if triple[2] == 0.0 else triple[0] + triple[1]


# A hand of three triples, each decision's probabilities worked by hand: the interval starts
# at [0, 1); (0.2, 0.5, 0.3) and a call leave [0.2, 0.7); then (0.1, 0.3, 0.6) has call
# region [0.1, 0.4) and raise [0.4, 1): within [0.2, 0.7) that is 0.2 / 0.5 and 0.3 / 0.5;
# a raise leaves [0.4, 0.7); then (0.5, 0.5, 0) has fold [0, 0.5) and call [0.5, 1): 0.1 / 0.3
# and 0.2 / 0.3.
HAND = [
    ((0.2, 0.5, 0.3), (0.2, 0.5, 0.3), CALL, (0.2, 0.7)),
    ((0.1, 0.3, 0.6), (0.0, 0.4, 0.6), RAISE, (0.4, 0.7)),
    ((0.5, 0.5, 0.0), (1 / 3, 2 / 3, 0.0), FOLD, (0.4, 0.5)),
]


def test_conditional_probabilities_and_intervals_of_a_hand_worked_by_hand() -> None:
    draw = HandDraw()
    for triple, expected, action, interval in HAND:
        c0, c1 = bounds(triple)
        assert draw.probabilities(c0, c1) == pytest.approx(expected, abs=1e-15)
        draw.played(c0, c1, action)
        assert draw.interval == pytest.approx(interval, abs=1e-15)
    draw.start_hand()
    assert draw.interval == (0.0, 1.0)


@pytest.mark.parametrize(
    ("interval", "triple", "action", "after"),
    [
        ((0.0, 1.0), (0.25, 0.5, 0.25), RAISE, (0.75, 1.0)),
        ((0.3, 0.6), (0.25, 0.5, 0.25), CALL, (0.3, 0.6)),  # all of it lies in the call
        ((0.3, 0.6), (0.5, 0.5, 0.0), FOLD, (0.3, 0.5)),
        ((0.3, 0.6), (0.0, 1.0, 0.0), CALL, (0.3, 0.6)),  # a certain action: unchanged
        ((0.3, 0.6), (0.25, 0.25, 0.5), RAISE, (0.5, 0.6)),
        # an action the interval gave no chance (the seat played by someone else): the draw
        # restarts on the action's region; one the triple gave no chance: nothing changes
        ((0.3, 0.6), (0.1, 0.1, 0.8), FOLD, (0.0, 0.1)),
        ((0.3, 0.6), (0.0, 0.4, 0.6), FOLD, (0.3, 0.6)),
    ],
)
def test_the_interval_narrows_to_the_region_of_the_action_played(
    interval: tuple[float, float],
    triple: tuple[float, float, float],
    action: Action,
    after: tuple[float, float],
) -> None:
    assert narrow(*interval, *bounds(triple), int(action)) == pytest.approx(after, abs=1e-15)


def test_impossible_actions_get_exactly_zero() -> None:
    # no raise in the triple (raising illegal): exactly 0 whatever the rounding of T0 + T1
    assert conditional(0.0, 1.0, 0.1, 1.0)[2] == 0.0
    assert conditional(0.35, 0.9, 0.3, 1.0) == pytest.approx((0.0, 1.0, 0.0))
    # nothing to call: no fold region
    assert conditional(0.2, 0.9, 0.0, 0.4)[0] == 0.0
    # inside one region: certain, exactly
    assert conditional(0.3, 0.6, 0.25, 0.75) == (0.0, 1.0, 0.0)


def test_the_residual_is_the_draw_rescaled_to_its_interval() -> None:
    """act's residual after each action equals (u - lo) / (hi - lo) of the same hand."""
    u = 0.55
    draw, residual = HandDraw(), u
    for triple, _, _, _ in HAND:
        c0, c1 = bounds(triple)
        probabilities = draw.probabilities(c0, c1)
        action = sample_action(probabilities, residual)
        assert action == sample_action((c0, c1 - c0, 1.0 - c1), u)  # Pena's single draw
        residual = next_residual(residual, probabilities, action)
        draw.played(c0, c1, action)
        lo, hi = draw.interval
        assert lo <= u < hi
        assert residual == pytest.approx((u - lo) / (hi - lo), abs=1e-12)


# ------------------------------------------------------------------ the agents


@pytest.mark.parametrize("name", LOKIS)
def test_the_registry_lokis_are_known_policies(name: str) -> None:
    agent = make_agent(name)
    assert isinstance(agent, Loki) and isinstance(agent, KnownPolicy)
    assert agent.hand_uniform == (name == "loki2")
    assert agent.memoryless == (name != "loki-som")


class Rollout(NamedTuple):
    """A hand played with random legal actions, to be replayed decision by decision."""

    deck: list[int]
    button: int
    hand_id: int
    actions: list[Action]

    def decisions(self, rules: Rules) -> Iterator[tuple[Hand, Action]]:
        """The hand before each action, and the action."""
        hand = Hand(rules, self.deck, button=self.button, hand_id=self.hand_id)
        for action in self.actions:
            yield hand, action
            hand.act(action)

    def end(self, rules: Rules) -> Hand:
        hand = Hand(rules, self.deck, button=self.button, hand_id=self.hand_id)
        for action in self.actions:
            hand.act(action)
        return hand


def random_rollouts(rules: Rules, hands: int, seed: int) -> list[Rollout]:
    """Hands played to the end with random legal actions (folds rarer)."""
    rng = np.random.default_rng(seed)
    rollouts = []
    for h in range(hands):
        deck = deal_deck(seed, h).tolist()
        hand = Hand(rules, deck, button=h % rules.num_seats, hand_id=h)
        actions = []
        while not hand.is_over:
            legal = hand.legal_actions()
            weights = np.array([0.1 if a == FOLD else 1.0 for a in legal])
            action = legal[int(rng.choice(len(legal), p=weights / weights.sum()))]
            hand.act(action)
            actions.append(action)
        rollouts.append(Rollout(deck, h % rules.num_seats, h, actions))
    return rollouts


@pytest.mark.parametrize(
    "rules",
    [
        Rules(num_seats=2),
        Rules(num_seats=2, stacks=(9, 23)),
        Rules(num_seats=3, stacks=(14, 30, 7)),
        Rules(num_seats=6, stacks=(20, 9, 40, 13, 30, 25)),
        Rules(num_seats=10),
    ],
    ids=["2", "2-short", "3-short", "6-short", "10"],
)
def test_probabilities_are_a_distribution_over_the_legal_actions(rules: Rules) -> None:
    """Every registry Loki in every seat of random rollouts (its own earlier actions random:
    off its policy), at every decision: no silent remapping is left to hide an illegal one."""
    n = rules.num_seats
    agents = {name: [make_agent(name) for _ in range(n)] for name in LOKIS}
    decisions = 0
    for rollout in random_rollouts(rules, hands=16 if n < 6 else 5, seed=n):
        for hand, _ in rollout.decisions(rules):
            seat = hand.actor
            assert seat is not None
            view = hand.view(seat)
            for name, seated in agents.items():
                p = seated[seat].action_probabilities(view)
                assert min(p) >= 0.0 and abs(sum(p) - 1.0) <= 1e-12, (name, p)
                illegal = [a for a, q in zip(Action, p, strict=True) if q and not view.can(a)]
                assert not illegal, (name, p, view.legal_actions)
                decisions += 1
    assert decisions > 80 * len(LOKIS)


def _hand_with_loki(deck: int, hand_id: int) -> Hand:
    return Hand(Rules(num_seats=2), deal_deck(3, deck).tolist(), button=0, hand_id=hand_id)


WIDE = LokiParams(betting=Betting.TRIPLES, reweighting=Reweighting.TRIPLES, triple_width=0.17)
"""Loki-2 with a wide blend, so that several decisions of a hand are mixed."""
MIXED_DECK = 237
"""A deal where Loki-2 (``WIDE``, seat 0, against a calling station) mixes at two post-flop
decisions of the hand."""


def play_loki2(
    choose: Callable[[Loki, Hand], Action], agent: Loki, hands: int
) -> collections.Counter[tuple[int, ...]]:
    """Loki-2's action sequences on ``MIXED_DECK`` against a calling station."""
    sequences: collections.Counter[tuple[int, ...]] = collections.Counter()
    for h in range(hands):
        hand = _hand_with_loki(MIXED_DECK, h)
        sequence = []
        while not hand.is_over:
            if hand.actor == 0:
                action = choose(agent, hand)
                sequence.append(int(action))
            else:
                action = CALL
            hand.act(action)
        agent.observe(hand.view(0))
        sequences[tuple(sequence)] += 1
    return sequences


def test_act_plays_the_single_draw_through_its_residual() -> None:
    """``act``: at most one uniform per hand from the generator, drawn at the first mixed
    decision; every action played is one its probabilities gave a chance, and the draw lies in
    the region of each (the interval of the hand): Pena's single draw."""
    agent = Loki2(WIDE)
    rng = np.random.default_rng(4)
    agent.reset(rng)
    hands_that_drew = 0
    for h in range(40):
        start = rng.bit_generator.state
        probe = np.random.default_rng()
        probe.bit_generator.state = start
        u = float(probe.random())  # the hand's draw, if it takes one
        hand = _hand_with_loki(MIXED_DECK, h)
        mixed = False
        while not hand.is_over:
            if hand.actor != 0:
                hand.act(CALL)
                continue
            view = hand.view(0)
            probabilities = agent.action_probabilities(view)
            action = agent.act(view)
            assert agent.action_probabilities(view) == probabilities  # asking again: the same
            assert probabilities[action] > 0.0
            mixed |= max(probabilities) < 1.0
            hand.act(action)
            agent.observe(hand.view(0)) if hand.is_over else None
            if mixed:
                lo, hi = agent.draw_interval
                assert lo <= u < hi
        assert rng.bit_generator.state == (probe.bit_generator.state if mixed else start)
        hands_that_drew += mixed
    assert hands_that_drew >= 10


def test_conditioned_probabilities_give_the_joint_law_of_the_single_draw() -> None:
    """Actions drawn with independent uniforms from the conditioned probabilities follow the
    law of Pena's single draw (the action at each decision the unconditioned triple's region
    holding one u per hand); drawing from the unconditioned triples does not: it plays
    sequences the single draw never plays."""
    hands = 800
    rng = np.random.default_rng(11)

    def conditioned(agent: Loki, hand: Hand) -> Action:
        return sample_action(agent.action_probabilities(hand.view(0)), float(rng.random()))

    unconditioned = Loki2(WIDE)
    unconditioned.reset(np.random.default_rng(0))
    unconditioned._draw.played = lambda *args: None  # type: ignore[method-assign]
    u = {"hand": -1, "value": 0.0}

    def single_draw(agent: Loki, hand: Hand) -> Action:
        if u["hand"] != hand.hand_id:
            u["hand"], u["value"] = hand.hand_id, float(rng.random())
        p = agent.action_probabilities(hand.view(0))  # the triple itself: never narrowed
        return sample_action(p, u["value"])

    def independent(agent: Loki, hand: Hand) -> Action:
        return sample_action(agent.action_probabilities(hand.view(0)), float(rng.random()))

    agent = Loki2(WIDE)
    agent.reset(np.random.default_rng(0))
    law = play_loki2(conditioned, agent, hands)
    reference = play_loki2(single_draw, unconditioned, hands)
    dropped = play_loki2(independent, unconditioned, hands)
    assert len(reference) >= 3  # several sequences: the hand mixes
    for sequence in set(law) | set(reference):
        expected = reference[sequence]
        spread = 4 * np.sqrt(2 * max(expected, 5) * (1 - expected / hands))
        assert abs(law[sequence] - expected) <= spread, (sequence, law, reference)
    impossible = sum(count for seq, count in dropped.items() if seq not in reference)
    assert impossible >= 3 and all(seq in reference for seq in law), (dropped, reference)


def test_generic_modelling_forgets_everything_between_hands() -> None:
    """``memoryless``: after many hands, a generic Loki (and Loki-2) states the probabilities
    of a fresh one, with the same weight tables, on new hands; a specific one has learned."""
    rules = Rules(num_seats=3)
    rollouts = random_rollouts(rules, hands=30, seed=9)
    for name in ("loki", "loki2", "loki-som"):
        played = make_agent(name)
        assert isinstance(played, Loki)
        played.reset(np.random.default_rng(1))
        for rollout in rollouts[:25]:
            for seat in range(3):
                played.observe(rollout.end(rules).view(seat))
        fresh = make_agent(name)
        assert isinstance(fresh, Loki)
        fresh.reset(np.random.default_rng(1))
        same = []
        for rollout in rollouts[25:]:
            for hand, _ in rollout.decisions(rules):
                if hand.actor == 0:
                    view = hand.view(0)
                    p = played.action_probabilities(view)
                    same.append(p == fresh.action_probabilities(view))
                    for other in (1, 2):
                        same.append(np.array_equal(played.weights(other), fresh.weights(other)))
        assert all(same) == played.memoryless, name


def test_loki1_never_draws() -> None:
    agent = Loki()
    rng = np.random.default_rng(3)
    agent.reset(rng)
    state = rng.bit_generator.state
    rules = Rules(num_seats=2)
    for rollout in random_rollouts(rules, hands=10, seed=4):
        for hand, _ in rollout.decisions(rules):
            if hand.actor == 0:
                agent.act(hand.view(0))
    assert rng.bit_generator.state == state


@pytest.mark.parametrize("action", list(Action))
def test_narrow_all_equals_narrow_draw_by_draw(action: Action) -> None:
    """``narrow_all`` (the local best response's every holding) gives ``narrow``'s interval
    of each draw to the last bit, restarts and empty regions included."""
    rng = np.random.default_rng(int(action))
    lo = rng.random(400) * 0.6
    draw = np.stack([lo, lo + rng.random(400) * (1 - lo)], axis=1)
    c0 = np.round(rng.random(400), 1)
    bounds = np.stack([c0, np.minimum(1.0, c0 + np.round(rng.random(400), 1))], axis=1)
    got = narrow_all(draw, bounds, int(action))
    for row, (a, b), (c, d) in zip(got, draw, bounds, strict=True):
        assert tuple(row) == narrow(float(a), float(b), float(c), float(d), int(action))
