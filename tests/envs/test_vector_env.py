"""The vectorised env: same results as Gymnasium's SyncVectorEnv and as the single env."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import envs
from agents.baselines import CallAgent, RuleAgent
from agents.loki import Loki
from envs.batched.adapter import ScalarTables
from envs.holdem_env import LimitHoldemEnv, UnsupportedRenderMode
from envs.rules import Rules
from envs.vector_env import LimitHoldemVectorEnv

TABLES = {"heads-up": ["rule"], "6 seats": ["bpp-curves", "random", "raise", "rule", "call"]}
OPPONENTS = {
    "call": ["call"],
    "raise": ["raise"],
    "random": ["random"],
    "bpp": ["bpp"],
    "bpp-curves": ["bpp-curves"],
    "loki": ["loki"],
    "3 seats": ["bpp", "random"],
    "4 seats, loki": ["loki", "raise", "rule"],
}


def assert_same(a: Any, b: Any, where: str = "") -> None:
    """Deep equality of nested dicts, arrays (dtype and shape included), tuples and scalars."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for key in a:
            assert_same(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), where
        assert (a.dtype, a.shape) == (b.dtype, b.shape), where
        if a.dtype == object:
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                assert_same(x, y, f"{where}[{i}]")
        else:
            np.testing.assert_array_equal(a, b, err_msg=where)
    elif isinstance(a, tuple) and any(isinstance(x, dict | np.ndarray) for x in a):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}({i})")
    else:
        assert type(a) is type(b) and a == b, (where, a, b)


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly drawn legal action per table (the mask of each table has a legal one)."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def compare_with_sync(
    opponents: list[str], mode: AutoresetMode, steps: int, rules: Rules | None = None
) -> int:
    """Step ours and SyncVectorEnv with the same random legal actions, compare everything;
    reset both without a seed, then with one, along the way. Returns the hands finished."""
    ours = LimitHoldemVectorEnv(5, opponents, autoreset_mode=mode, rules=rules)
    theirs = SyncVectorEnv(
        [lambda: LimitHoldemEnv(opponents, rules=rules) for _ in range(5)], autoreset_mode=mode
    )
    obs, info = ours.reset(seed=11)
    assert_same((obs, info), theirs.reset(seed=11))
    rng = np.random.default_rng(3)
    finished = 0
    for step in range(steps):
        if step in (steps // 3, 2 * steps // 3):  # hands in progress are abandoned
            seed = None if step == steps // 3 else 40
            obs, info = ours.reset(seed=seed)
            assert_same((obs, info), theirs.reset(seed=seed), f"reset at {step}")
        actions = random_actions(rng, ours.action_masks())
        result = ours.step(actions)
        assert_same(result, theirs.step(actions), f"step {step}")
        obs, _, terminated, _, info = result
        assert ours.observation_space.contains(obs)
        np.testing.assert_array_equal(ours.action_masks(), info["action_mask"].astype(bool))
        finished += int(terminated.sum())
        if mode is AutoresetMode.DISABLED and terminated.any():
            obs, info = ours.reset(options={"reset_mask": terminated})
            expected = theirs.reset(options={"reset_mask": terminated.copy()})
            assert_same((obs, info), expected, f"masked reset at {step}")
    return finished


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("table", TABLES, ids=list(TABLES))
def test_matches_sync_vector_env(table: str, mode: AutoresetMode) -> None:
    assert compare_with_sync(TABLES[table], mode, 240) > 50


@pytest.mark.parametrize("opponents", OPPONENTS.values(), ids=list(OPPONENTS))
def test_matches_sync_vector_env_against_every_kind_of_opponent(opponents: list[str]) -> None:
    steps = 60 if "loki" in opponents else 150
    assert compare_with_sync(opponents, AutoresetMode.SAME_STEP, steps) > 10


def test_matches_sync_vector_env_with_short_stacks() -> None:
    """Finite stacks: all-in hands, and hands without a learner decision (skipped)."""
    rules = Rules(num_seats=3, stacks=(3, 8, 20))
    assert compare_with_sync(["raise", "random"], AutoresetMode.SAME_STEP, 200, rules) > 50


def test_opponents_play_in_their_batched_form_or_through_the_adapter() -> None:
    vec = LimitHoldemVectorEnv(3, ["call", "raise", "rule", "bpp", "bpp-curves", RuleAgent])
    assert not any(isinstance(a, ScalarTables) for a in vec.tables.opponents)
    assert vec.tables.names == ("learner", "call", "raise", "rule", "bpp", "bpp-curves", "rule")

    class Stubborn(CallAgent):  # a subclass has no batched twin: it may play differently
        name = "stubborn"

    class Wary(Loki):
        name = "wary"

    vec = LimitHoldemVectorEnv(3, [Wary, Stubborn])
    assert all(isinstance(a, ScalarTables) for a in vec.tables.opponents)
    agents = vec.tables.opponents[1].agents  # type: ignore[attr-defined]
    assert len({id(a) for a in agents}) == 3 and all(type(a) is Stubborn for a in agents)
    assert vec.bytes_per_table > 0


def test_each_table_replays_the_single_env_with_seed_plus_index() -> None:
    vec = LimitHoldemVectorEnv(3, ["random"], rules=Rules(num_seats=2, stacks=(30, 30)))
    singles = [LimitHoldemEnv(["random"], rules=vec.rules) for _ in range(3)]
    obs, info = vec.reset(seed=40)
    single = [env.reset(seed=40 + i) for i, env in enumerate(singles)]
    rng = np.random.default_rng(0)
    for _ in range(200):
        for i, (single_obs, single_info) in enumerate(single):
            for key, value in single_obs.items():
                np.testing.assert_array_equal(obs[key][i], value, err_msg=key)
            np.testing.assert_array_equal(info["action_mask"][i], single_info["action_mask"])
        actions = random_actions(rng, info["action_mask"])
        obs, rewards, terminated, _, info = vec.step(actions)
        for i, env in enumerate(singles):
            s_obs, s_reward, s_done, _, s_info = env.step(actions[i])
            assert (rewards[i], terminated[i]) == (s_reward, s_done)
            if s_done:  # SAME_STEP: the batch already shows the next hand of the same match
                assert_same(info["final_obs"][i], s_obs)
                assert info["final_info"]["payoffs"][i] == s_info["payoffs"]
                single[i] = env.reset()
            else:
                single[i] = (s_obs, s_info)


def test_make_vec_builds_the_vector_env() -> None:
    vec = gym.make_vec(envs.ENV_ID, num_envs=4, opponents=["call"])
    assert isinstance(vec.unwrapped, LimitHoldemVectorEnv)
    assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = vec.reset(seed=0)
    assert obs["hole"].shape == (4, 2) and info["action_mask"].shape == (4, 3)
    sync = gym.make_vec(envs.ENV_ID, num_envs=2, vectorization_mode="sync", opponents=["call"])
    assert isinstance(sync, SyncVectorEnv)


def test_disabled_autoreset_needs_a_masked_reset() -> None:
    vec = LimitHoldemVectorEnv(2, [CallAgent], autoreset_mode="Disabled")
    obs, info = vec.reset(seed=5)
    rng = np.random.default_rng(1)
    terminated = np.zeros(2, dtype=bool)
    while not terminated.any():
        obs, _, terminated, _, info = vec.step(random_actions(rng, info["action_mask"]))
    with pytest.raises(ValueError, match="reset_mask"):
        vec.step(np.ones(2, dtype=np.int64))
    before = {key: value.copy() for key, value in obs.items()}
    obs, info = vec.reset(options={"reset_mask": terminated})
    for key, value in obs.items():  # not reset: the latest observation, as SyncVectorEnv's
        np.testing.assert_array_equal(value[~terminated], before[key][~terminated])
    assert not np.array_equal(obs["hole"][terminated], before["hole"][terminated])
    assert info["_action_mask"].tolist() == terminated.tolist()


def test_bad_arguments_raise_with_the_reason() -> None:
    with pytest.raises(TypeError, match="agent objects"):
        LimitHoldemVectorEnv(2, [CallAgent()])
    with pytest.raises(ValueError, match="num_envs"):
        LimitHoldemVectorEnv(0, ["call"])
    with pytest.raises(ValueError, match="unknown agent"):
        LimitHoldemVectorEnv(2, ["nobody"])
    vec = LimitHoldemVectorEnv(2, ["call"])
    vec.reset(seed=1)
    with pytest.raises(ValueError, match="expected 2 actions"):
        vec.step(np.array([1]))
    with pytest.raises(ValueError, match="expected 2 seeds"):
        vec.reset(seed=[1, 2, 3])
    with pytest.raises(TypeError, match="reset_mask"):
        vec.reset(options={"reset_mask": [True, False]})
    # Heads-up the learner is the button (small blind) in the first hand: after its limp
    # the calling station checks, and on the flop the learner may check, so folding is
    # illegal. The env refuses it instead of remapping it.
    vec.step(np.array([1, 1]))
    assert not vec.action_masks()[0, 0]
    with pytest.raises(ValueError, match="illegal action FOLD"):
        vec.step(np.array([0, 1]))


def snapshot(vec: LimitHoldemVectorEnv) -> dict[str, np.ndarray]:
    batch = vec.tables.batch
    arrays = ("deck", "actor", "bets", "stacks", "log_len", "log_action", "hand_id", "over")
    return {name: getattr(batch, name).copy() for name in arrays}


def assert_unchanged(before: dict[str, np.ndarray], vec: LimitHoldemVectorEnv) -> None:
    after = snapshot(vec)
    for name, array in before.items():
        np.testing.assert_array_equal(array, after[name], err_msg=name)


def test_a_step_is_atomic_every_action_checked_before_any_table_moves() -> None:
    vec = LimitHoldemVectorEnv(2, ["call"])
    twin = LimitHoldemVectorEnv(2, ["call"])
    vec.reset(seed=1)
    twin.reset(seed=1)
    vec.step(np.array([1, 1]))  # both limp; the call bot checks: folding is now illegal
    twin.step(np.array([1, 1]))
    before = snapshot(vec)
    with pytest.raises(ValueError, match=r"illegal action FOLD .*table 1: seat 0 may not fold"):
        vec.step([1, 0])
    assert_unchanged(before, vec)
    with pytest.raises(ValueError, match=r"table 0: action must be 0 .* got 3"):
        vec.step([3, 1])
    for bad, message in [
        (np.array([1.0, 1.0]), "integers"),
        (np.array([True, True]), "integers"),
        ([1], "expected 2 actions"),
    ]:
        with pytest.raises(ValueError, match=message):
            vec.step(bad)
    assert_unchanged(before, vec)
    # Nothing moved: the same step as the twin's gives the same results.
    assert_same(vec.step(np.array([2, 1])), twin.step(np.array([2, 1])))


def test_disabled_mode_refuses_a_step_before_any_table_moves() -> None:
    vec = LimitHoldemVectorEnv(3, ["call"], autoreset_mode=AutoresetMode.DISABLED)
    vec.reset(seed=2)
    terminated = np.zeros(3, dtype=bool)
    while not terminated.any() or terminated.all():
        vec.reset(seed=int(vec.np_random.integers(1000)))
        _, _, terminated, _, _ = vec.step(np.array([0, 0, 1]))  # fold, fold, call
    before = snapshot(vec)
    table = int(np.argmax(terminated))
    with pytest.raises(ValueError, match=f"table {table} finished its hand"):
        vec.step(vec.action_masks().argmax(axis=1))
    assert_unchanged(before, vec)


def test_before_the_first_reset_steps_and_masks_need_a_reset() -> None:
    vec = LimitHoldemVectorEnv(2, ["call"])
    with pytest.raises(ResetNeeded):
        vec.action_masks()
    with pytest.raises(ResetNeeded):
        vec.step(np.array([1, 1]))
    assert vec.render() is None
    disabled = LimitHoldemVectorEnv(2, ["call"], autoreset_mode="Disabled")
    disabled.reset(seed=0, options={"reset_mask": np.array([True, False])})
    with pytest.raises(ResetNeeded, match="table 1 was never reset"):
        disabled.action_masks()


def test_render_modes_follow_gymnasium() -> None:
    vec = LimitHoldemVectorEnv(2, ["call"], render_mode="ansi")
    assert vec.metadata["render_modes"] == ["ansi"]
    vec.reset(seed=0)
    frames = vec.render()
    assert frames is not None and len(frames) == 2 and all("learner" in f for f in frames)
    with pytest.raises(UnsupportedRenderMode, match="got 'rgb_array'"):
        LimitHoldemVectorEnv(2, ["call"], render_mode="rgb_array")


@pytest.mark.parametrize("opponents", [["bpp"], ["raise", "call"]], ids=["bpp", "3 seats"])
def test_step_batched_moves_the_tables_as_step_and_batches_its_infos(
    opponents: list[str],
) -> None:
    stepped, batched = (LimitHoldemVectorEnv(8, opponents) for _ in range(2))
    stepped.reset(seed=4)
    batched.reset(seed=4)
    rng = np.random.default_rng(2)
    ended_hands = 0
    for _ in range(60):
        actions = random_actions(rng, stepped.action_masks())
        obs, rewards, terminated, _, info = stepped.step(actions)
        step = batched.step_batched(actions)
        assert_same(step.obs, obs)
        np.testing.assert_array_equal(step.rewards, rewards)
        np.testing.assert_array_equal(step.terminated, terminated)
        np.testing.assert_array_equal(step.ended, np.flatnonzero(terminated))
        if step.final_obs is None:
            assert not terminated.any()
        else:
            for row, table in enumerate(step.ended):
                final = {key: value[row] for key, value in step.final_obs.items()}
                for key, value in info["final_obs"][table].items():
                    np.testing.assert_array_equal(final[key], value, err_msg=key)
        flagged = np.flatnonzero(info.get("_skipped_rewards", np.zeros(8, dtype=bool)))
        skipped = {int(i): list(info["skipped_rewards"][i]) for i in flagged}
        assert step.skipped == {i: rewards for i, rewards in skipped.items() if rewards}
        ended_hands += len(step.ended)
    assert ended_hands > 50  # the comparison saw many hands end


def test_step_batched_needs_same_step_autoreset() -> None:
    vec = LimitHoldemVectorEnv(2, ["call"], autoreset_mode=AutoresetMode.NEXT_STEP)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="SAME_STEP"):
        vec.step_batched(np.ones(2, dtype=np.int64))
