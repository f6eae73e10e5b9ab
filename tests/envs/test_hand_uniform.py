"""One uniform per hand: an agent whose decisions share it plays as one draw per hand would."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import KnownPolicyAgent
from envs.crn import hand_key, residual, residuals, sample_action, uniform_at
from envs.deals import deal_deck
from envs.game import Hand
from envs.match import play_match
from envs.protocols import Probabilities
from envs.rules import Action
from envs.view import PlayerView

TRIPLES = ((0.1, 0.6, 0.3), (0.3, 0.3, 0.4), (0.5, 0.2, 0.3), (0.0, 0.5, 0.5))
"""The toy's unconditional triple at its k-th decision of a hand (k >= 3: the last)."""


def _legal(triple: tuple[float, float, float], view: PlayerView) -> tuple[float, float, float]:
    """The triple with illegal actions' mass moved to calling (the regions stay ordered)."""
    fold, call, bet = triple
    if Action.FOLD not in view.legal_actions:
        fold, call = 0.0, call + fold
    if Action.RAISE not in view.legal_actions:
        call, bet = call + bet, 0.0
    return fold, call, bet


class OneDrawPerHand(KnownPolicyAgent):
    """A toy Loki-2: the k-th decision of a hand takes the region of one per-hand draw in
    ``TRIPLES[k]``; it states that triple conditioned on the draw lying in the interval its
    earlier actions of the hand leave (Pena 1999 section 4.1's single draw)."""

    name = "one-draw"
    hand_uniform = True

    def _forget(self) -> None:
        self.hand: int | None = None

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        mine = [a for a in view.actions if a.seat == view.seat]
        if getattr(self, "hand", None) != view.hand_id:
            self.hand, self.stated = view.hand_id, []
        lo, hi = 0.0, 1.0
        for acted, triple in zip(mine, self.stated, strict=True):  # shrink by each action
            edges = (0.0, triple[0], triple[0] + triple[1], 1.0)
            lo, hi = (
                min(max(edges[acted.action], lo), hi),
                min(max(edges[acted.action + 1], lo), hi),
            )
        triple = _legal(TRIPLES[min(len(mine), len(TRIPLES) - 1)], view)
        self.stated.append(triple)
        edges = (0.0, triple[0], triple[0] + triple[1], 1.0)
        parts = [max(0.0, min(hi, edges[a + 1]) - max(lo, edges[a])) for a in range(3)]
        return parts[0] / (hi - lo), parts[1] / (hi - lo), parts[2] / (hi - lo)


def _single_draw_actions(hand: Hand, seat: int, u: float) -> list[Action]:
    """What one draw ``u`` picks at each of the seat's decisions, replaying the hand."""
    deck = deal_deck(5, hand.hand_id, cards=2 * hand.rules.num_seats + 5)
    replay = Hand(hand.rules, deck, button=hand.button, hand_id=hand.hand_id)
    chosen = []
    for acted in hand.view(seat).actions:
        if acted.seat == seat:
            view = replay.view(seat)
            triple = _legal(TRIPLES[min(len(chosen), len(TRIPLES) - 1)], view)
            chosen.append(sample_action(triple, u))
        replay.act(acted.action)
    return chosen


@pytest.mark.parametrize("engine", ["scalar", "batched"])
def test_the_runners_play_one_draw_per_hand(engine: str) -> None:
    hands: list[Hand] = []
    play_match(
        [OneDrawPerHand(), "raise"],
        hands=400,
        seed=5,
        duplicate=False,
        engine=engine,
        on_hand=lambda hand, _: hands.append(hand),
    )
    many = 0
    for hand in hands:
        u = uniform_at(hand_key(5, hand.hand_id), 0, 0)
        played = [a.action for a in hand.view(0).actions if a.seat == 0]
        assert played == _single_draw_actions(hand, 0, u)
        many += len(played) > 1
    assert many > 100  # the residuals were used: most hands have several decisions


def test_without_the_flag_later_decisions_use_their_own_uniforms() -> None:
    class Independent(OneDrawPerHand):
        hand_uniform = False

    hands: list[Hand] = []
    play_match(
        [Independent(), "raise"],
        hands=400,
        seed=5,
        duplicate=False,
        on_hand=lambda hand, _: hands.append(hand),
    )
    differ = 0
    for hand in hands:
        u = uniform_at(hand_key(5, hand.hand_id), 0, 0)
        played = [a.action for a in hand.view(0).actions if a.seat == 0]
        differ += played != _single_draw_actions(hand, 0, u)
    assert differ > 20  # the test above can tell the two apart


def test_residuals_are_the_scalar_residuals_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(3), size=2000)
    p[::7, 0] = 0.0  # some free checks and caps
    p[::11, 2] = 0.0
    p /= p.sum(axis=1, keepdims=True)
    u = rng.random(2000)
    actions = np.array([int(sample_action(tuple(row), x)) for row, x in zip(p, u, strict=True)])
    vector = residuals(p, u, actions)
    scalar = [residual(tuple(row), x, Action(a)) for row, x, a in zip(p, u, actions, strict=True)]
    assert vector.tolist() == scalar
    assert (vector >= 0.0).all() and (vector < 1.0).all()


def test_residuals_are_uniform_whatever_the_action() -> None:
    rng = np.random.default_rng(4)
    u = rng.random(200_000)
    p = np.tile([0.2, 0.5, 0.3], (len(u), 1))
    actions = (u >= 0.2).astype(int) + (u >= 0.7)
    left = residuals(p, u, actions)
    for a in range(3):
        counts = np.histogram(left[actions == a], bins=10, range=(0.0, 1.0))[0]
        expected = counts.sum() / 10
        assert abs(counts - expected).max() < 5 * np.sqrt(expected)


def test_the_vector_env_hosts_it_as_the_plain_env_does() -> None:
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from envs.holdem_env import LimitHoldemEnv
    from envs.vector_env import LimitHoldemVectorEnv

    mode = AutoresetMode.SAME_STEP
    ours = LimitHoldemVectorEnv(4, [OneDrawPerHand, "rule"], autoreset_mode=mode)
    theirs = SyncVectorEnv(
        [lambda: LimitHoldemEnv([OneDrawPerHand(), "rule"]) for _ in range(4)],
        autoreset_mode=mode,
    )

    def same(a: object, b: object) -> None:
        if isinstance(a, dict):
            assert isinstance(b, dict) and a.keys() == b.keys()
            for key in a:
                same(a[key], b[key])
        else:
            np.testing.assert_array_equal(a, b)

    obs, info = ours.reset(seed=9)
    expected, _ = theirs.reset(seed=9)
    same(obs, expected)
    rng = np.random.default_rng(2)
    for _ in range(150):
        actions = (rng.random((4, 3)) * info["action_mask"]).argmax(axis=1)
        obs, reward, *_, info = ours.step(actions)
        theirs_obs, theirs_reward, *_ = theirs.step(actions)
        same(obs, theirs_obs)
        same(reward, theirs_reward)
