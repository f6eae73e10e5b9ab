"""One dealing convention for the three envs (``envs.holdem_env.MatchDeals``).

The same seed deals the same hole cards and boards, with the same button, in
``LimitHoldemEnv``, the vector env (table ``i`` of ``reset(seed=s)`` is ``reset(seed=s + i)``)
and the PettingZoo env; and with the same hosted agents in seats 1..n-1 the PettingZoo env
plays the Gymnasium env's hands, hosted decisions included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.holdem_env import LimitHoldemEnv
from envs.pettingzoo_env import raw_env
from envs.rules import Action
from envs.vector_env import LimitHoldemVectorEnv

HANDS = 6
CALL = int(Action.CALL)

Dealt = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""A finished hand as seat 0 saw it: hand number, button, board, every seat's shown cards."""


def _dealt(obs: dict[str, Any], hand_id: int) -> Dealt:
    board = tuple(int(c) for c in obs["board"])
    return hand_id, int(obs["button"]), board, tuple(int(c) for c in obs["shown"])


def gymnasium_hands(num_seats: int, seed: int) -> list[Dealt]:
    """The first hands of ``LimitHoldemEnv`` seeded ``seed``, every seat calling."""
    env = LimitHoldemEnv(["call"] * (num_seats - 1))
    env.reset(seed=seed)
    hands = []
    for _ in range(HANDS):
        terminated = False
        while not terminated:
            obs, _, terminated, _, info = env.step(CALL)
        hands.append(_dealt(obs, info["hand_id"]))
        env.reset()
    return hands


def vector_hands(num_seats: int, seed: int, tables: int) -> list[list[Dealt]]:
    """The first hands of each table of the vector env reset with ``seed``, all calling."""
    vec = LimitHoldemVectorEnv(tables, ["call"] * (num_seats - 1))
    vec.reset(seed=seed)
    hands: list[list[Dealt]] = [[] for _ in range(tables)]
    while min(len(h) for h in hands) < HANDS:
        _, _, terminated, _, info = vec.step(np.full(tables, CALL))
        for table in np.flatnonzero(terminated):
            hand_id = int(info["final_info"]["hand_id"][table])
            hands[table].append(_dealt(info["final_obs"][table], hand_id))
    return [h[:HANDS] for h in hands]


def pettingzoo_hands(num_seats: int, seed: int, *, hosted: bool) -> list[Dealt]:
    """The first hands of the PettingZoo env seeded ``seed``, every seat calling (seats
    1..n-1 hosted callers, or PettingZoo agents)."""
    callers = dict.fromkeys(range(1, num_seats), "call") if hosted else None
    aec = raw_env(num_seats, hosted=callers)
    hands: list[Dealt] = []
    for episode in range(HANDS):
        aec.reset(seed=seed if episode == 0 else None)
        for agent in aec.agent_iter():
            if aec.terminations[agent]:
                if len(hands) == episode:  # the hand is over: its cards as seat 0 saw them
                    obs = aec.observe("player_0")["observation"]
                    hands.append(_dealt(obs, aec.infos[agent]["hand_id"]))
                aec.step(None)
            else:
                aec.step(CALL)
    return hands


@pytest.mark.parametrize("num_seats", [2, 3, 6])
@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_the_same_seed_deals_the_same_cards_in_the_three_envs(num_seats: int, seed: int) -> None:
    expected = gymnasium_hands(num_seats, seed)
    # Everybody calls to the river: whole boards, every seat's cards shown, the button moving.
    assert [h[0] for h in expected] == list(range(HANDS))
    assert [h[1] for h in expected] == [h % num_seats for h in range(HANDS)]
    for _, _, board, shown in expected:
        cards = board + shown
        assert 52 not in cards and len(set(cards)) == len(cards)
    assert len({h[2] for h in expected}) == HANDS  # the hands differ
    tables = vector_hands(num_seats, seed, tables=2)
    assert tables[0] == expected
    assert tables[1] == gymnasium_hands(num_seats, seed + 1)
    assert pettingzoo_hands(num_seats, seed, hosted=True) == expected
    assert pettingzoo_hands(num_seats, seed, hosted=False) == expected


@pytest.mark.parametrize("opponents", [("rule", "loki"), ("random", "bpp", "raise")])
def test_pettingzoo_with_the_same_hosted_agents_plays_the_gymnasium_envs_hands(
    opponents: tuple[str, ...],
) -> None:
    """Stated policies draw from the common random numbers, Loki from its own generator
    (spawned alike): the learner's observations and winnings agree decision by decision."""
    seed, hands = 11, 25
    gym_env = LimitHoldemEnv(list(opponents))
    aec = raw_env(len(opponents) + 1, hosted=dict(enumerate(opponents, start=1)))
    rng = np.random.default_rng(seed)
    obs, info = gym_env.reset(seed=seed)
    gym_won = sum(info["skipped_rewards"])
    aec_won = 0.0
    decisions = 0
    for hand in range(hands):
        aec.reset(seed=seed if hand == 0 else None)
        for agent in aec.agent_iter():
            assert agent == "player_0"  # the only PettingZoo agent: seat 0, the learner's
            observation, reward, terminated, _, _ = aec.last()
            aec_won += reward
            if terminated:
                aec.step(None)
                continue
            got = observation["observation"]
            assert np.array_equal(observation["action_mask"], info["action_mask"]), hand
            assert got.keys() == obs.keys()
            for key in obs:
                assert np.array_equal(got[key], obs[key]), (hand, key)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            decisions += 1
            aec.step(action)
            obs, gym_reward, done, _, info = gym_env.step(action)
            gym_won += gym_reward
            if done:
                obs, info = gym_env.reset()
                gym_won += sum(info["skipped_rewards"])
    assert aec_won == pytest.approx(gym_won - sum(info["skipped_rewards"]))
    assert decisions > 2 * hands
