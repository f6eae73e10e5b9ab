"""The vectorised env: same results as Gymnasium's SyncVectorEnv and as the single env."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import envs
from agents.baselines import CallAgent
from envs.holdem_env import LimitHoldemEnv
from envs.rules import Rules
from envs.vector_env import LimitHoldemVectorEnv

TABLES = {"heads-up": ["rule"], "4-max": ["random", "raise", "rule"]}


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


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
@pytest.mark.parametrize("table", TABLES, ids=list(TABLES))
def test_matches_sync_vector_env(table: str, mode: AutoresetMode) -> None:
    opponents = TABLES[table]
    ours = LimitHoldemVectorEnv(5, opponents, autoreset_mode=mode)
    theirs = SyncVectorEnv(
        [lambda: LimitHoldemEnv(opponents) for _ in range(5)], autoreset_mode=mode
    )
    obs, info = ours.reset(seed=11)
    expected = theirs.reset(seed=11)
    assert_same((obs, info), expected)
    rng = np.random.default_rng(3)
    finished = 0
    for step in range(300):
        actions = random_actions(rng, info["action_mask"])
        result = ours.step(actions)
        assert_same(result, theirs.step(actions), f"step {step}")
        obs, _, terminated, _, info = result
        assert ours.observation_space.contains(obs)
        np.testing.assert_array_equal(ours.action_masks(), info["action_mask"].astype(bool))
        finished += int(terminated.sum())
    assert finished > 50  # many hands ended and restarted along the way


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
    for i in np.flatnonzero(~terminated):
        assert (obs["hole"][i] == 0).all()  # not reset: zeros, as SyncVectorEnv gives
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
