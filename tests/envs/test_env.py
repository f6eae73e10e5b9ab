"""The Gymnasium environment: API contract, determinism, no leaks, masks, rewards, errors."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded, UnsupportedMode
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env

import envs
from agents.base import Agent, KnownPolicyAgent, legal_actions
from envs.cards import format_cards
from envs.crn import hand_key, sample_action, uniform_at
from envs.deals import deal_deck
from envs.events import Acted, ShowedDown
from envs.game import Hand
from envs.holdem_env import LimitHoldemEnv, UnsupportedRenderMode, match_key
from envs.observation import encode_view, history_length
from envs.rules import Action, Rules
from envs.vector_env import LimitHoldemVectorEnv
from envs.view import PlayerView

TABLES = {
    2: ["rule"],
    3: ["random", "raise"],
    6: ["random", "raise", "rule", "call", "random"],
    10: ["random", "raise", "call", "random", "raise", "rule", "random", "call", "random"],
}


class FoldAgent(Agent):
    """Folds whenever it may, checks otherwise; counts the hands it was told about."""

    name = "fold"

    def _forget(self) -> None:
        self.hands_seen = 0

    def act(self, view: PlayerView) -> Action:
        return Action.FOLD if Action.FOLD in legal_actions(view) else Action.CALL

    def observe(self, view: PlayerView) -> None:
        assert view.is_terminal
        self.hands_seen += 1


def rollout(env: gym.Env, seed: int, episodes: int) -> list[tuple[object, ...]]:
    """Random legal play; every observation, reward and info, in order."""
    env.action_space.seed(seed)
    trace: list[tuple[object, ...]] = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        trace.append((obs, info))
        done = False
        while not done:
            obs, reward, done, truncated, info = env.step(env.action_space.sample())
            assert not truncated
            trace.append((obs, reward, info))
        obs, info = env.reset()
    return trace


@pytest.mark.parametrize("opponents", [TABLES[2], TABLES[6]], ids=["heads-up", "6-max"])
def test_check_env_passes_without_warnings(opponents: list[str]) -> None:
    env = gym.make(envs.ENV_ID, opponents=opponents)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_check_env_passes_with_finite_stacks() -> None:
    rules = Rules(num_seats=3, stacks=(10, 25, 40))
    env = gym.make(envs.ENV_ID, opponents=["raise", "random"], rules=rules)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_make_without_a_prior_import_through_the_module_prefix() -> None:
    """Gymnasium >= 1.0 loads no plugins: ``"envs:<id>"`` imports and registers the env."""
    code = (
        "import sys, gymnasium as gym\n"
        "assert 'envs' not in sys.modules\n"
        "env = gym.make('envs:holdem_lab/LimitHoldem-v0', opponents=['call'])\n"
        "obs, info = env.reset(seed=0)\n"
        "print(type(env.unwrapped).__name__, info['action_mask'].tolist())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "LimitHoldemEnv [1, 1, 1]"


@pytest.mark.parametrize("num_seats", sorted(TABLES))
def test_same_seed_gives_the_same_episodes_opponents_included(num_seats: int) -> None:
    first = rollout(gym.make(envs.ENV_ID, opponents=TABLES[num_seats]), seed=5, episodes=40)
    second = rollout(gym.make(envs.ENV_ID, opponents=TABLES[num_seats]), seed=5, episodes=40)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert gym.utils.env_checker.data_equivalence(a, b, exact=True)
    other = rollout(gym.make(envs.ENV_ID, opponents=TABLES[num_seats]), seed=6, episodes=40)
    assert not gym.utils.env_checker.data_equivalence(first, other)


@pytest.mark.parametrize("num_seats", sorted(TABLES))
def test_observations_stay_in_the_space_and_never_show_hidden_cards(num_seats: int) -> None:
    rules = Rules(num_seats=num_seats, stacks=tuple(range(9, 9 + 7 * num_seats, 7)))
    for stacks in (None, rules.stacks):
        env = LimitHoldemEnv(TABLES[num_seats], rules=Rules(num_seats=num_seats, stacks=stacks))
        env.action_space.seed(num_seats)
        obs, _ = env.reset(seed=num_seats)
        for _ in range(150):
            done = False
            while True:
                assert env.observation_space.contains(obs)
                hand = env._hand
                assert hand is not None
                _assert_no_hidden_cards(obs, hand, done)
                if done:
                    break
                obs, _, done, _, _ = env.step(env.action_space.sample())
            obs, _ = env.reset()


def _assert_no_hidden_cards(obs: dict[str, np.ndarray], hand: Hand, done: bool) -> None:
    shown = {e.seat for e in hand.events if isinstance(e, ShowedDown)} if done else set()
    visible = set(obs["hole"].tolist()) | set(obs["board"].tolist()) | set(obs["shown"].tolist())
    for seat in range(1, hand.num_seats):
        cards = set(hand.hole(seat))
        if seat in shown:
            assert obs["shown"][2 * seat : 2 * seat + 2].tolist() == list(hand.hole(seat))
        else:
            assert not cards & visible, f"seat {seat}'s hidden cards leak into the observation"
    assert obs["hole"].tolist() == list(hand.hole(0))


@pytest.mark.parametrize("num_seats", [2, 3, 6])
def test_observation_does_not_depend_on_opponents_hidden_cards(num_seats: int) -> None:
    """Non-interference: swap the opponents' cards, replay the same actions, same observations.

    Only the terminal observation after a showdown may differ (the cards shown down).
    """
    rng = np.random.default_rng(num_seats)
    rows = history_length(Rules(num_seats=num_seats))
    for _ in range(60):
        deck = rng.permutation(52)
        other = deck.copy()
        # New hole cards for seats 1..: exchanged with cards of the undealt part of the deck
        # (a deck stays a permutation: every card once).
        n2 = 2 * num_seats
        spare = slice(n2 + 5, n2 + 5 + n2 - 2)
        other[2:n2], other[spare] = deck[spare], deck[2:n2]
        button = int(rng.integers(num_seats))
        hands = [Hand(Rules(num_seats=num_seats), d, button=button) for d in (deck, other)]
        while hands[0].actor is not None:
            a = encode_view(hands[0].view(0), rows)
            b = encode_view(hands[1].view(0), rows)
            assert gym.utils.env_checker.data_equivalence(a, b, exact=True)
            legal = hands[0].legal_actions()
            weights = np.array([0.1 if x == Action.FOLD else 1.0 for x in legal])
            action = legal[int(rng.choice(len(legal), p=weights / weights.sum()))]
            for hand in hands:
                hand.act(action)
        a = encode_view(hands[0].view(0), rows)
        b = encode_view(hands[1].view(0), rows)
        if not any(isinstance(e, ShowedDown) for e in hands[0].events):
            assert gym.utils.env_checker.data_equivalence(a, b, exact=True)


def test_masks_agree_and_sampling_without_a_mask_is_legal() -> None:
    env = LimitHoldemEnv(TABLES[3])
    env.action_space.seed(0)
    _, info = env.reset(seed=0)
    for _ in range(300):
        mask = info["action_mask"]
        assert mask.dtype == np.int8
        assert np.array_equal(env.action_masks(), mask.astype(bool))
        assert env._hand is not None
        assert [Action(a) for a in np.flatnonzero(mask)] == list(env._hand.legal_actions())
        _, _, done, _, info = env.step(env.action_space.sample())
        if done:
            assert not info["action_mask"].any()
            _, info = env.reset()


def test_illegal_and_malformed_actions_raise_with_the_reason() -> None:
    env = LimitHoldemEnv(["call"])
    env.reset(seed=0)
    env.step(Action.CALL)  # the learner (button, small blind) completes; the call bot checks
    with pytest.raises(ValueError, match="may not fold: checking is free"):
        env.step(Action.FOLD)
    for bad in (3, -1, 1.0, "call", True, np.bool_(True), np.array(1.0), np.array([1])):
        with pytest.raises(ValueError, match="action must be 0"):
            env.step(bad)  # type: ignore[arg-type]
    while True:  # nothing was applied: the learner may still act, and finish the hand
        *_, done, _, _ = env.step(Action.CALL)
        if done:
            break
    with pytest.raises(ResetNeeded, match="call reset"):
        env.step(Action.CALL)


def test_raise_is_refused_at_the_cap() -> None:
    env = LimitHoldemEnv(["raise"])
    env.reset(seed=3)
    while env.action_mask().any():  # hand 0: the learner is the button; call it down
        env.step(Action.CALL)
    _, info = env.reset()  # hand 1: the learner is the big blind, the bot raised to 2 bets
    assert info["action_mask"].tolist() == [1, 1, 1]
    *_, info = env.step(Action.RAISE)  # 3 bets; the bot caps it at 4
    assert info["action_mask"].tolist() == [1, 1, 0]
    with pytest.raises(ValueError, match="cap of 4 bets on the preflop is reached"):
        env.step(Action.RAISE)


def test_rewards_are_the_learners_chips_in_big_blinds() -> None:
    rules = Rules(num_seats=3, small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    env = LimitHoldemEnv(["random", "rule"], rules=rules)
    env.action_space.seed(1)
    env.reset(seed=1)
    total = 0.0
    for _ in range(200):
        while True:
            _, reward, done, _, info = env.step(env.action_space.sample())
            if done:
                break
            assert reward == 0.0
        assert sum(info["payoffs"]) == 0
        assert reward == info["payoffs"][0] / 10
        total += reward
        _, info = env.reset()
        total += sum(info["skipped_rewards"])
    assert total != 0.0


def test_button_rotates_and_hands_without_a_learner_decision_are_reported() -> None:
    folder = FoldAgent()
    env = LimitHoldemEnv([folder])
    obs, info = env.reset(seed=0)
    assert (info["hand_id"], obs["button"], obs["position"]) == (0, 0, 1)
    assert info["skipped_rewards"] == ()
    env.step(Action.CALL)  # the folder checks behind ... to the showdown
    while env.action_mask().any():
        env.step(Action.CALL)
    # Hand 1: the learner is the big blind and the folder folds its small blind at once.
    obs, info = env.reset()
    assert info["skipped_rewards"] == (0.5,)
    assert (info["hand_id"], obs["button"], obs["position"]) == (2, 0, 1)
    assert folder.hands_seen == 2  # it was told about the skipped hand too
    env.reset(seed=0)  # a seeded reset starts a new match: the opponent forgets
    assert folder.hands_seen == 0


def test_opponents_keep_their_memory_across_episodes() -> None:
    folder = FoldAgent()
    env = LimitHoldemEnv(["call", folder])
    env.reset(seed=2)
    for _ in range(30):
        while True:
            *_, done, _, _ = env.step(env.action_space.sample())
            if done:
                break
        _, info = env.reset()
        assert folder.hands_seen == info["hand_id"]


def test_render_ansi_shows_the_learners_cards_only() -> None:
    env = gym.make(envs.ENV_ID, opponents=["call", "call"], render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    hand = env.unwrapped._hand
    assert isinstance(text, str) and "learner" in text and "to act" in text
    assert format_cards(hand.hole(0)) in text
    assert format_cards(hand.hole(1)) not in text
    silent = LimitHoldemEnv(["call"])
    silent.reset(seed=4)
    assert silent.render() is None


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"opponents": []}, ValueError, "1 to 9 opponents"),
        ({"opponents": ["call"] * 10}, ValueError, "1 to 9 opponents"),
        ({"opponents": "call"}, TypeError, "sequence of agents"),
        ({"opponents": ["nobody"]}, ValueError, "unknown agent 'nobody'"),
        ({"opponents": ["call"], "rules": Rules(num_seats=3)}, ValueError, "3 seats"),
        ({"opponents": ["call"], "render_mode": "human"}, UnsupportedMode, "render_mode"),
        ({"opponents": [object()]}, TypeError, "not an agent"),
    ],
)
def test_bad_arguments_give_clear_errors(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        LimitHoldemEnv(**kwargs)  # type: ignore[arg-type]


def test_the_same_opponent_object_cannot_take_two_seats() -> None:
    bot = FoldAgent()
    with pytest.raises(ValueError, match="given twice"):
        LimitHoldemEnv([bot, bot])


def test_numpy_integers_and_0d_integer_arrays_are_actions() -> None:
    """What SB3's ``model.predict(obs)[0]`` returns for a ``Discrete`` space is an action."""
    for action in (np.array(1), np.int32(1), np.uint8(1), np.array(1, dtype=np.int8)):
        env = LimitHoldemEnv(["call"])
        env.reset(seed=0)
        *_, info = env.step(action)
        assert info["action_mask"].tolist() == [0, 1, 1]  # the learner limped; the bot checked


def test_masks_before_the_first_reset_need_a_reset() -> None:
    env = LimitHoldemEnv(["call"])
    for method in (env.action_masks, env.action_mask):
        with pytest.raises(ResetNeeded, match="reset"):
            method()
    assert env.action_space.sample() in (0, 1, 2)  # no state yet: any action of the space


def test_unsupported_render_modes_are_gymnasium_errors_and_type_errors() -> None:
    for mode in ("human", "rgb_array"):
        with pytest.raises(UnsupportedRenderMode, match=f"got '{mode}'") as raised:
            LimitHoldemEnv(["call"], render_mode=mode)
        assert isinstance(raised.value, UnsupportedMode)  # Gymnasium's error for it
        assert isinstance(raised.value, TypeError)  # what SB3's make_vec_env falls back on
    assert LimitHoldemEnv.metadata["render_modes"] == ["ansi"]


def test_deals_and_stated_policies_follow_the_match_keys_common_random_numbers() -> None:
    """Hand ``h`` is ``deal_deck(key, h)``; a ``random`` opponent's action at its ``i``-th
    decision is the inverse CDF of its probabilities at the uniform ``(key, h, seat, i)``."""
    env = LimitHoldemEnv(["random", "random"])
    obs, _ = env.reset(seed=9)
    key = match_key(seeding.np_random(9)[0])
    decisions = 0
    for _ in range(40):
        hand = env._hand
        assert hand is not None
        deck = deal_deck(key, hand.hand_id, cards=11)
        assert obs["hole"].tolist() == deck[:2].tolist()
        while True:
            mask = env.action_mask()
            *_, done, _, _ = env.step(int(np.flatnonzero(mask)[-1]))  # raise or call
            if done:
                break
        replay = Hand(env.rules, deck, button=hand.hand_id % 3, hand_id=hand.hand_id)
        made = [0, 0, 0]
        for acted in hand.view(0).actions:
            assert isinstance(acted, Acted)
            if acted.seat != 0:
                legal = replay.legal_actions()
                probabilities = tuple(1 / len(legal) if a in legal else 0.0 for a in Action)
                u = uniform_at(hand_key(key, hand.hand_id), acted.seat, made[acted.seat])
                assert acted.action == sample_action(probabilities, u)
                made[acted.seat] += 1
                decisions += 1
            replay.act(acted.action)
        obs, _ = env.reset()
    assert decisions > 100


def test_stable_baselines3_check_env_and_make_vec_env_pass() -> None:
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env_checker.check_env(gym.make(envs.ENV_ID, opponents=["rule", "random"]))
    # SB3's only remark: the public history is a table (rows of actions), not a flat vector.
    assert all("observation history has an unconventional shape" in str(w.message) for w in caught)
    # make_vec_env asks for render_mode="rgb_array" first (its default for env ids; Gymnasium
    # warns that the env does not list it), and on the TypeError of an unsupported mode builds
    # the env without one.
    with pytest.warns(UserWarning, match="render_mode='rgb_array' that is not in the possible"):
        vec = env_util.make_vec_env(
            envs.ENV_ID, n_envs=2, seed=0, env_kwargs={"opponents": ["call"]}
        )
    obs = vec.reset()
    assert obs["hole"].shape == (2, 2)
    ends = 0
    for _ in range(30):
        masks = np.stack(vec.env_method("action_masks"))
        obs, _, dones, infos = vec.step(masks.argmax(axis=1))
        ends += int(dones.sum())
        assert all("terminal_observation" in infos[i] for i in np.flatnonzero(dones))
    assert ends > 0


def test_the_sb3_evaluation_loop_steps_with_predicted_actions() -> None:
    """``env.step(model.predict(obs)[0])``: the prediction is a 0-d integer array."""
    contrib = pytest.importorskip("sb3_contrib")
    env = LimitHoldemEnv(["call"])
    model = contrib.MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, seed=0)
    obs, _ = env.reset(seed=0)
    for _ in range(20):
        action = model.predict(obs, action_masks=env.action_masks(), deterministic=True)[0]
        assert isinstance(action, np.ndarray) and action.shape == ()
        obs, _, done, _, _ = env.step(action)
        if done:
            obs, _ = env.reset()


def stating(probabilities: tuple[float, ...]) -> type[KnownPolicyAgent]:
    """An agent class stating ``probabilities`` at every decision."""

    class Stating(KnownPolicyAgent):
        name = "stating"

        def action_probabilities(self, view: PlayerView) -> tuple[float, float, float]:
            return probabilities  # type: ignore[return-value]  # malformed on purpose

    return Stating


@pytest.mark.parametrize(
    "probabilities",
    [(1.0, 0.0, 0.0), (0.5, 0.6, 0.0), (float("nan"), 1.0, 0.0), (-0.1, 1.1, 0.0), (0.0, 1.0)],
    ids=["fold when checking is free", "sum", "nan", "negative", "two"],
)
def test_stated_probabilities_that_are_no_legal_distribution_are_refused(
    probabilities: tuple[float, ...],
) -> None:
    """Heads-up the learner (button) limps first; then the opponent may check, not fold."""
    env = LimitHoldemEnv([stating(probabilities)()])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not a distribution over its legal actions"):
        env.step(Action.CALL)
    if len(probabilities) == 3:
        vec = LimitHoldemVectorEnv(2, [stating(probabilities)])
        vec.reset(seed=0)
        with pytest.raises(ValueError, match="not a distribution over its legal actions"):
            vec.step(np.array([1, 1]))
