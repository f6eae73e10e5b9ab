"""The PettingZoo AEC env: PettingZoo's API and seed tests, a replay in ``Hand``, the rules.

The differential test drives the env with random legal actions and replays the same decks
(the documented seeding) and the same decisions in ``envs.game.Hand`` with a plain loop: the
agent to act, every observation and every step's rewards must agree. Scripted hands check
the points where PettingZoo's ``texas_holdem_v4`` (RLCard's engine) departs from the rules.
"""

from __future__ import annotations

import ast
import logging
import re
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, seed_test

import envs.pettingzoo_env as pz
from agents.baselines import CallAgent
from envs.deals import deal_deck
from envs.game import Hand
from envs.holdem_env import match_key
from envs.observation import encode_view
from envs.pettingzoo_env import LimitHoldemAECEnv, env, raw_env
from envs.protocols import SeatAgent
from envs.registry import make_agent
from envs.rules import Action, Rules
from envs.seating import HandDraws

FOLD, CALL, RAISE = Action.FOLD, Action.CALL, Action.RAISE

CONFIGS: dict[str, dict[str, Any]] = {
    "2 learners": {},
    "3 learners": {"num_seats": 3},
    "6 learners, short stacks, 20 hands": {
        "num_seats": 6,
        "rules": Rules(num_seats=6, stacks=(5, 10, 20, 40, 8, 3)),
        "hands_per_episode": 20,
    },
    "3 seats, 1 hosted": {"num_seats": 3, "hosted": {1: "rule"}, "hands_per_episode": 10},
    "6 seats, 3 hosted": {
        "num_seats": 6,
        "hosted": {0: "call", 2: "random", 4: "raise"},
        "hands_per_episode": 10,
    },
    "heads-up against random": {"hosted": {1: "random"}, "hands_per_episode": 30},
}
# PettingZoo's advice for flat observations; ours is a Dict, as the Gymnasium env's.
ADVISORY = ("Observation is not a NumPy array", "Observation space for each agent probably")


@pytest.mark.parametrize("name", CONFIGS)
@pytest.mark.parametrize("factory", [env, raw_env])
def test_pettingzoo_api_test(name: str, factory: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(factory(**CONFIGS[name]), num_cycles=200)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(ADVISORY)]
    assert not unexpected


@pytest.mark.parametrize("name", CONFIGS)
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(lambda: env(**CONFIGS[name]), num_cycles=200)


def test_api_test_with_pettingzoo_illegal_move_convention() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="|".join(ADVISORY))
        api_test(env(num_seats=3, illegal_reward=-1.0), num_cycles=100)


def _random_play(aec: Any, seed: int, episodes: int = 1, policy_seed: int = 0) -> list[Any]:
    """Every (agent, last(), action) of ``episodes`` episodes after ``reset(seed=seed)``."""
    rng = np.random.default_rng(policy_seed)
    trace = []
    for episode in range(episodes):
        aec.reset(seed=seed if episode == 0 else None)
        for agent in aec.agent_iter():
            last = aec.last()
            action = None
            if not (last[2] or last[3]):
                action = Action(int(rng.choice(np.flatnonzero(last[0]["action_mask"]))))
            trace.append((agent, last, action))
            aec.step(action)
    return trace


def test_seeded_matches_repeat_over_several_episodes() -> None:
    config = {"num_seats": 3, "hosted": {2: "random"}, "hands_per_episode": 3}
    first = _random_play(env(**config), seed=5, episodes=4)
    assert data_equivalence(first, _random_play(env(**config), seed=5, episodes=4))
    again = env(**config)
    _random_play(again, seed=9, episodes=2)
    assert data_equivalence(first, _random_play(again, seed=5, episodes=4))  # seed restarts
    assert not data_equivalence(first, _random_play(env(**config), seed=6, episodes=4))
    hand_ids = [last[4]["hand_id"] for _, last, _ in first]
    assert hand_ids == sorted(hand_ids) and hand_ids[-1] >= 11  # the match goes on


# ------------------------------------------------------------- differential


def _reference(
    seed: int,
    rules: Rules,
    hosted: dict[int, str],
    hands: int,
    episodes: int,
    decisions: list[Any],
) -> tuple[list[dict[str, float]], list[dict[str, Any]], int]:
    """Replay in ``Hand``: rewards per decision, observations at decisions, and the number of
    hands played out before an episode's first decision (paid with its first step)."""
    n = rules.num_seats
    rng = np.random.default_rng(seed)
    key = match_key(rng)
    table: list[SeatAgent | None] = [None] * n
    for seat in sorted(hosted):
        table[seat] = make_agent(hosted[seat])
    bots = [(seat, a) for seat, a in enumerate(table) if a is not None]
    for (_, bot), stream in zip(bots, rng.spawn(len(bots)), strict=True):
        bot.reset(stream)
    players = [f"player_{s}" for s in range(n) if table[s] is None]
    buckets: list[dict[str, float]] = []  # the rewards of each decision's step
    observations: list[dict[str, Any]] = []
    collected = dict.fromkeys(players, 0.0)
    pending = iter(decisions)
    counted = done = skipped_at_reset = 0
    started = False  # whether the episode has had a decision
    for hand_id in range(10**6):
        hand = Hand(rules, deal_deck(key, hand_id), button=hand_id % n, hand_id=hand_id)
        draws = HandDraws(key, hand_id, n)
        decided = False
        while (seat := hand.actor) is not None:
            bot = table[seat]
            if bot is not None:
                hand.act(draws.decide(bot, hand.view(seat)))
                continue
            agent, action = next(pending)
            assert agent == f"player_{seat}", f"hand {hand_id}: the env asked {agent}"
            observations.append(encode_view(hand.view(seat)))
            if started:  # what was paid since the last decision belongs to its step
                buckets.append(collected)
                collected = dict.fromkeys(players, 0.0)
            started = decided = True
            hand.act(action)
        for seat, bot in bots:
            bot.observe(hand.view(seat))
        for player in players:
            collected[player] += hand.payoffs[int(player[7:])] / rules.big_blind
        counted += decided
        skipped_at_reset += not started
        if counted == hands:
            buckets.append(collected)
            collected = dict.fromkeys(players, 0.0)
            counted, started, done = 0, False, done + 1
            if done == episodes:
                break
    assert next(pending, None) is None, "the env asked for more decisions than the rules allow"
    return buckets, observations, skipped_at_reset


DIFFERENTIAL = [
    (2, {}, (30, 9), 40),
    (3, {}, None, 30),
    (6, {}, (14, 40, 9, 60, 25, 30), 20),
    (2, {1: "random"}, None, 1),
    (6, {1: "rule", 3: "random", 4: "raise"}, (14, 40, 9, 60, 25, 30), 20),
]
EPISODES = 8


@pytest.mark.parametrize(("n", "hosted", "stacks", "hands"), DIFFERENTIAL)
def test_replay_in_hand_gives_same_actors_observations_and_rewards(
    n: int, hosted: dict[int, str], stacks: tuple[int, ...] | None, hands: int
) -> None:
    rules = Rules(num_seats=n, stacks=stacks)
    aec = env(n, rules=rules, hosted=hosted, hands_per_episode=hands)
    seed = 100 + n
    decisions, observations, rewards = [], [], []
    rng = np.random.default_rng(n)
    for episode in range(EPISODES):  # one seeded match, episode after episode
        aec.reset(seed=seed if episode == 0 else None)
        for agent in aec.agent_iter():
            observation, _, terminated, _, _ = aec.last()
            if terminated:
                aec.step(None)
                continue
            action = Action(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            decisions.append((agent, action))
            observations.append(observation["observation"])
            aec.step(action)
            rewards.append(dict(aec.rewards))
    buckets, expected, skipped = _reference(seed, rules, hosted, hands, EPISODES, decisions)
    assert len(buckets) == len(rewards)
    for got, want in zip(rewards, buckets, strict=True):
        assert got == pytest.approx(want)
    if not hosted:  # chips only change hands between the agents
        assert all(sum(step.values()) == pytest.approx(0.0) for step in rewards)
    for got_obs, want_obs in zip(observations, expected, strict=True):
        assert got_obs.keys() == want_obs.keys()
        for key, value in want_obs.items():
            assert np.array_equal(got_obs[key], value), key
    if hosted == {1: "random"}:
        assert skipped > 0  # the random bot folded to the learner's big blind: paid, not lost


# --------------------------------------------------------- rules, scripted


def _select(aec: Any) -> tuple[str, list[int], int]:
    observation = aec.observe(aec.agent_selection)
    street = int(observation["observation"]["street"])
    return aec.agent_selection, observation["action_mask"].tolist(), street


def test_heads_up_big_blind_acts_first_after_the_flop_and_cannot_fold_a_free_check() -> None:
    aec = env()  # hand 0: seat 0 is the button and posts the small blind
    aec.reset(seed=0)
    assert _select(aec) == ("player_0", [1, 1, 1], 0)
    aec.step(CALL)
    assert _select(aec) == ("player_1", [0, 1, 1], 0)  # folding a free check is illegal
    with pytest.raises(ValueError, match="checking is free"):
        aec.step(FOLD)
    aec.step(CALL)
    assert _select(aec) == ("player_1", [0, 1, 1], 1)  # RLCard lets the button act here


def test_multiway_round_ends_once_every_live_seat_has_acted() -> None:
    aec = env(4)  # button seat 0, blinds seats 1 and 2, seat 3 opens
    aec.reset(seed=0)
    for expected, action in [(3, FOLD), (0, CALL), (1, CALL), (2, CALL)]:
        assert aec.agent_selection == f"player_{expected}"
        aec.step(action)
    for expected in (1, 2, 0):  # the folded seat is skipped, nobody acts twice
        assert _select(aec)[::2] == (f"player_{expected}", 1)
        aec.step(CALL)
    assert _select(aec)[::2] == ("player_1", 2)  # the turn


def test_pre_flop_cap_of_three_raises_after_the_blind() -> None:
    aec = env()
    aec.reset(seed=0)
    for _ in range(3):
        aec.step(RAISE)
    assert _select(aec) == ("player_1", [1, 1, 0], 0)
    with pytest.raises(ValueError, match="cap of 4 bets"):
        aec.step(RAISE)


def test_illegal_and_malformed_actions_raise_and_change_nothing() -> None:
    aec = env()
    aec.reset(seed=3)
    aec.step(np.int32(1))  # NumPy integers and 0-d arrays are actions
    before = aec.observe("player_1")
    for bad in (FOLD, 3, -1, True, 1.0, "1", None, np.array([1])):
        with pytest.raises(ValueError):
            aec.step(bad)
    assert data_equivalence(before, aec.observe("player_1"))
    aec.step(np.array(2))
    assert aec.agent_selection == "player_0"


def test_pettingzoo_convention_terminates_on_an_illegal_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    aec = env(3, illegal_reward=-1.0)
    aec.reset(seed=0)
    aec.step(CALL)
    aec.step(CALL)
    with caplog.at_level(logging.WARNING):
        aec.step(FOLD)  # the big blind may check
    assert "Illegal move" in caplog.text
    assert all(aec.terminations.values())
    assert aec.rewards == {"player_0": 0, "player_1": 0, "player_2": -1.0}


def test_reset_without_seed_goes_on_with_the_match() -> None:
    aec = env(3, hands_per_episode=1)
    aec.reset(seed=4)
    seen = []
    for _ in range(4):
        seen.append((aec.infos[aec.agent_selection]["hand_id"], aec.agent_selection))
        while aec.agents:
            terminated = aec.terminations[aec.agent_selection]
            aec.step(None if terminated else FOLD if aec.last()[0]["action_mask"][0] else CALL)
        aec.reset()
    # Hand k has the button on seat k % 3; the seat after the big blind opens.
    assert seen == [(0, "player_0"), (1, "player_1"), (2, "player_2"), (3, "player_0")]


def test_observations_hold_only_what_the_seat_may_see() -> None:
    aec = raw_env(3)
    aec.reset(seed=8)
    hand = aec._hand
    for agent in aec.agents:
        seat = int(agent[7:])
        observation = aec.observe(agent)["observation"]
        assert observation["hole"].tolist() == list(hand.hole(seat))
        assert set(observation["shown"].tolist()) == {52}  # nobody's cards shown yet
        want = encode_view(hand.view(seat))
        assert all(np.array_equal(observation[key], want[key]) for key in want)


def test_render_and_spaces() -> None:
    aec = env(3, hosted={2: "call"}, render_mode="ansi")
    assert aec.possible_agents == ["player_0", "player_1"]
    aec.reset(seed=1)
    text = aec.render()
    assert "player_0" in text and "call" in text and "to act" in text
    assert aec.observation_space("player_0") is aec.observation_space("player_0")
    assert aec.observation_space("player_0") is not aec.observation_space("player_1")
    quiet = env()
    quiet.reset(seed=1)
    assert quiet.render() is None


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"num_seats": 3, "rules": Rules()}, ValueError, "rules are for 2 seats but num_seats"),
        ({"num_seats": 11}, ValueError, "between 2 and 10"),
        ({"num_seats": 2.0}, ValueError, "num_seats must be an integer"),
        ({"rules": "holdem"}, TypeError, "envs.Rules"),
        ({"hosted": {2: "call"}}, ValueError, "seat 2 does not exist"),
        ({"hosted": {True: "call"}}, ValueError, "hosted seat must be an integer"),
        ({"hosted": {0: "call", 1: "rule"}}, ValueError, "every seat is hosted"),
        ({"hosted": {1: "nosuch"}}, ValueError, "unknown agent 'nosuch'"),
        ({"hosted": ["call"]}, TypeError, "hosted must map seats"),
        ({"render_mode": "rgb_array"}, ValueError, "None or 'ansi'"),
        ({"hands_per_episode": 0}, ValueError, "hands_per_episode must be an integer >= 1"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        raw_env(**kwargs)


def test_one_agent_object_in_two_seats_is_refused() -> None:
    bot = CallAgent()
    with pytest.raises(ValueError, match="given twice"):
        raw_env(3, hosted={0: bot, 1: bot})
    assert raw_env(3, hosted={0: bot}).hosted == (bot,)


def test_use_before_reset_and_after_the_end() -> None:
    aec = raw_env()
    with pytest.raises(ResetNeeded):
        aec.step(CALL)
    with pytest.raises(ResetNeeded):
        aec.observe("player_0")
    aec.reset(seed=0)
    aec.step(FOLD)
    assert all(aec.terminations.values())
    with pytest.raises(ValueError, match="only valid action is None"):
        aec.step(CALL)
    aec.step(None)
    aec.step(None)
    with pytest.raises(ResetNeeded):
        aec.step(None)


def test_seats_that_never_act_are_a_clear_error() -> None:
    aec = raw_env(rules=Rules(stacks=(1, 30)), hosted={1: "call"})
    with pytest.raises(ValueError, match="never get to act"):
        aec.reset(seed=0)
    assert pz.MAX_HANDS_WITHOUT_DECISION == 1000


def test_self_play_example_of_the_module_docstring(capsys: pytest.CaptureFixture[str]) -> None:
    doc = pz.__doc__
    assert doc is not None
    snippet = doc.split("```python\n")[1].split("```")[0]
    namespace: dict[str, Any] = {}
    exec(compile(snippet, "pettingzoo_env example", "exec"), namespace)
    won = namespace["won"]
    assert set(won) == {"player_0", "player_1", "player_2"}
    assert sum(won.values()) == pytest.approx(0.0)  # chips only change hands
    assert any(won.values())
    assert ast.literal_eval(capsys.readouterr().out) == pytest.approx(won)
    assert isinstance(namespace["env"].unwrapped, LimitHoldemAECEnv)
