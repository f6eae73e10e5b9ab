"""Vectorised features, equity, the batched policy and the best-response line of training."""

from __future__ import annotations

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from agents.strength import hand_strength
from envs.batched.views import decision_batch
from envs.cards import parse_cards
from envs.game import Hand
from envs.holdem_env import LimitHoldemEnv
from envs.observation import NO_CARD, encode_view
from envs.rules import Action, Rules
from envs.view import PlayerView
from tuning.training.ceiling import Ceiling, CeilingKind, best_response_value, fraction_of
from tuning.training.curve import CurvePoint, curve_figure
from tuning.training.observation_features import FeatureEncoder, seat_relative
from tuning.training.policy import BatchedPolicy, PolicyAgent
from tuning.training.sampled_equity import EquityEstimator
from tuning.training.sb3_env import HoldemVecEnv
from tuning.training.strength_memo import StrengthMemo, card_keys


def _observations(opponents: list[str], count: int, seed: int) -> list[dict[str, np.ndarray]]:
    env = LimitHoldemEnv(opponents)
    obs, info = env.reset(seed=seed)
    observations = []
    while len(observations) < count:
        observations.append(obs)
        mask = info["action_mask"].copy()
        mask[Action.FOLD] = 0 if mask[Action.CALL] else mask[Action.FOLD]  # reach the river
        obs, _, done, _, info = env.step(env.action_space.sample(mask=mask))
        if done:
            obs, info = env.reset()
    return observations


def test_vectorised_hand_strength_equals_the_per_row_computation() -> None:
    observations = _observations(["random", "call"], 150, seed=11)
    encoder = FeatureEncoder(Rules(num_seats=3))
    batch = {key: np.stack([np.asarray(o[key]) for o in observations]) for key in observations[0]}
    block = encoder.encode(batch)[:, encoder.blocks["hand_strength"]]
    streets = set()
    for row, obs in zip(block, observations, strict=True):
        board = [int(c) for c in obs["board"] if c != 52]
        streets.add(len(board))
        if len(board) < 3:
            assert row.tolist() == [0.0, 0.0]
            continue
        hs = hand_strength([int(c) for c in obs["hole"]], board)
        opponents_in = max(2 - int(np.asarray(obs["folded"])[1:].sum()), 1)
        assert row.tolist() == [np.float32(hs), np.float32(hs**opponents_in)]
    assert streets == {0, 3, 4, 5}


def _equity(estimator: EquityEstimator, hole: str, board: str) -> float:
    cards = parse_cards(board) if board else []
    padded = np.array([[*cards, *[52] * (5 - len(cards))]])
    holes = np.array([parse_cards(hole)])
    return float(estimator.equity(holes, padded, np.array([len(cards)]))[0])


def test_equity_is_hs_on_the_river_and_an_unbiased_estimate_before() -> None:
    estimator = EquityEstimator(samples=256)
    hole, river = "AhKh", "2h7hQc3d9s"
    assert _equity(estimator, hole, river) == hand_strength(parse_cards(hole), parse_cards(river))
    # Deterministic: a function of the cards and the seed only.
    assert _equity(EquityEstimator(samples=256), "8c9c", "7d6sKh") == _equity(
        estimator, "8c9c", "7d6sKh"
    )
    # Pre-flop against the known equities of AA (85.2%) and 72o (34.6%) against a random hand,
    # after the flop against a large sample (0.5 / sqrt(256) = 0.031 bounds the error).
    assert _equity(estimator, "AsAh", "") == pytest.approx(0.852, abs=0.1)
    assert _equity(estimator, "7c2d", "") == pytest.approx(0.346, abs=0.1)
    precise = EquityEstimator(samples=8192, seed=7)
    for hole, board in [("8c9c", "7d6sKh"), ("AhKh", "2h7hQc3d"), ("2c3d", "AsKsQs")]:
        assert _equity(estimator, hole, board) == pytest.approx(
            _equity(precise, hole, board), abs=0.1
        )
    # An open-ended straight flush draw on the flop: HS is low, equity is not.
    assert (
        _equity(precise, "8c9c", "7c6cKh")
        > 0.6
        > 0.3
        > hand_strength(parse_cards("8c9c"), parse_cards("7c6cKh"))
    )


def _views(count: int, seed: int) -> list[PlayerView]:
    """Decisions of both seats in random heads-up hands."""
    rng = np.random.default_rng(seed)
    views: list[PlayerView] = []
    while len(views) < count:
        hand = Hand(Rules(), rng.permutation(52).astype(np.uint8), button=int(rng.integers(2)))
        while not hand.is_over:
            assert hand.actor is not None
            view = hand.view(hand.actor)
            views.append(view)
            legal = list(view.legal_actions)
            hand.act(legal[int(rng.integers(len(legal)))])
    return views


def test_the_batched_policy_plays_exactly_as_the_scalar_agent_in_both_seats() -> None:
    venv = HoldemVecEnv(2, ["call"])
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, seed=1, device="cpu")
    views = _views(60, seed=5)
    assert {v.seat for v in views} == {0, 1}
    batch = decision_batch(views, range(len(views)))
    for deterministic in (True, False):
        agent = PolicyAgent(model, deterministic=deterministic)
        batched = BatchedPolicy(model, len(views), deterministic=deterministic)
        probabilities = batched.probabilities(batch)
        for view, row in zip(views, probabilities, strict=True):
            expected = agent.action_probabilities(view)
            np.testing.assert_allclose(row, expected, rtol=0, atol=1e-6)  # float32 BLAS


def test_an_agent_outside_seat_0_sees_itself_as_seat_0() -> None:
    """Seat 1 after its own raise: its own contribution and raise are read as its own."""
    hand = Hand(Rules(), np.arange(52, dtype=np.uint8), button=0)
    hand.act(Action.RAISE)  # seat 0 (button, small blind) raises
    hand.act(Action.RAISE)  # seat 1 re-raises
    hand.act(Action.CALL)
    hand.act(Action.CALL)  # flop: seat 1 checks
    hand.act(Action.RAISE)  # seat 0 bets; seat 1 to act
    view = hand.view(1)
    obs = {key: np.asarray(value)[None] for key, value in encode_view(view).items()}
    encoder = FeatureEncoder(view.rules)
    features = encoder.encode(seat_relative(obs, [1]))[0]
    scale = view.rules.max_commitment
    chips = features[encoder.blocks["chips"]]
    assert chips[2] == pytest.approx(view.contributions[1] / scale)
    betting = features[encoder.blocks["betting"]].reshape(4, 3)
    assert betting[0, 0] > 0 and betting[1, 0] == 0  # own pre-flop re-raise, no own flop bet
    assert betting[1, 1] > 0  # the opponent's flop bet


def test_the_best_response_line_and_fraction() -> None:
    heads_up = Rules(num_seats=2)
    ceiling = best_response_value(["call"], heads_up)
    assert ceiling == pytest.approx(1.16348, abs=1e-5)
    assert best_response_value(["raise"], heads_up) == pytest.approx(3.69769, abs=1e-5)
    assert best_response_value(["bpp"], heads_up) is None
    assert best_response_value(["call", "call"], Rules(num_seats=3)) is None
    assert fraction_of(0.5, 2.0) == 0.25 and fraction_of(0.5, None) is None
    points = [CurvePoint(0, 0, 40, 0.1, 0.0, 0.2), CurvePoint(10, 5, 40, 0.6, 0.5, 0.7)]
    assert ceiling is not None
    drawn = Ceiling(ceiling, CeilingKind.BEST_RESPONSE)
    lines = curve_figure(points, "t", drawn).axes[0].lines
    assert any(set(line.get_ydata()) == {ceiling} for line in lines)  # type: ignore[arg-type]
    plain = curve_figure(points, "t").axes[0].lines
    assert not any(ceiling in set(line.get_ydata()) for line in plain)  # type: ignore[arg-type]


def test_the_strength_memo_remembers_exact_values_and_forgets_when_half_full() -> None:
    memo = StrengthMemo(bits=4)  # 16 slots: up to 8 entries
    hole = np.array([[0, 1], [5, 4], [8, 30]])
    board = np.array([[9, 10, 11, 52, 52], [9, 10, 11, 52, 52], [2, 3, 51, 6, 52]])
    keys = card_keys(hole, board)
    assert len(set(keys.tolist())) == 3
    assert (card_keys(hole[:, ::-1], board) == keys).all()  # either order of the hole cards
    values = np.array([[0.25, 0.5], [1 / 3, 0.1], [0.9, 0.7]])
    memo.store(keys[:2], values[:2])
    found, got = memo.lookup(keys)
    assert found.tolist() == [True, True, False]
    assert got[:2].tolist() == values[:2].tolist() and got[2].tolist() == [0.0, 0.0]
    more = np.arange(7, dtype=np.int64) * 1_000_003  # 2 + 7 > 8 entries: emptied first
    memo.store(more, np.ones((7, 2)))
    assert memo.lookup(keys)[0].tolist() == [False, False, False]
    assert memo.lookup(more)[0].all() and memo.entries == 7


def test_features_from_the_memo_equal_the_recomputed_ones() -> None:
    observations = _observations(["random", "call"], 200, seed=3)
    batch = {key: np.stack([np.asarray(o[key]) for o in observations]) for key in observations[0]}
    rules = Rules(num_seats=3)
    fresh = FeatureEncoder(rules)
    fresh._memo = StrengthMemo()
    first = fresh.encode(batch)  # every post-flop row computed and stored
    assert fresh._memo.entries > 50
    again = fresh.encode(batch)  # every post-flop row from the memo
    tiny = FeatureEncoder(rules)
    tiny._memo = StrengthMemo(bits=4)  # too small for a batch: never remembers
    np.testing.assert_array_equal(again, first)
    np.testing.assert_array_equal(tiny.encode(batch), first)


def test_hand_strength_from_the_shared_boards_equals_the_recomputed_one() -> None:
    observations = _observations(["random", "call"], 200, seed=5)
    batch = {key: np.stack([np.asarray(o[key]) for o in observations]) for key in observations[0]}
    rows = []
    for shared in (False, True):
        encoder = FeatureEncoder(Rules(num_seats=3), shared_boards=shared)
        encoder._memo = StrengthMemo()  # every post-flop row computed, none remembered
        rows.append(encoder.encode(batch))
    assert (batch["board"][:, 0] != NO_CARD).sum() > 50
    np.testing.assert_array_equal(rows[1], rows[0])


def test_a_learner_with_range_features_plays_with_them_in_both_engines() -> None:
    """The range block follows the plain features, and the network's width picks the encoder:
    a model trained with it gets it back as a seat agent, scalar or batched, in either seat."""
    venv = HoldemVecEnv(2, ["call"], range_features=True)
    plain = FeatureEncoder(Rules())
    assert venv.encoder.size == plain.size + 3
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, seed=1, device="cpu")
    views = _views(60, seed=6)
    agent = PolicyAgent(model)
    rows = np.concatenate([agent.features(view) for view in views])
    plain_rows = np.concatenate([PolicyAgent(None).features(view) for view in views])
    np.testing.assert_array_equal(rows[:, : plain.size], plain_rows)
    postflop = np.array([len(view.board) > 0 for view in views])
    hs1 = rows[postflop, plain.blocks["hand_strength"].start]
    assert postflop.any() and (rows[postflop, plain.size] != hs1).any()  # others' bets count
    batch = decision_batch(views, range(len(views)))
    np.testing.assert_array_equal(BatchedPolicy(model, len(views)).features(batch), rows)


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("street", 4, "street"),
        ("position", 2, "position"),
        ("num_bets", 9, "bets"),
        ("hole", np.array([3, 52]), "cards"),
        ("board", np.array([1, 2, 60, 52, 52]), "board card"),
    ],
)
def test_an_observation_out_of_range_is_refused_with_the_reason(
    key: str, value: object, reason: str
) -> None:
    obs = dict(_observations(["call"], 1, seed=4)[0])
    obs[key] = value
    with pytest.raises(ValueError, match=reason):
        FeatureEncoder(Rules()).encode_one(obs)
