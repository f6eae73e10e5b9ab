"""Training: features, the SB3 adapter, the policy as an agent, short runs, resume, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from agents.biased import PairRaiseAgent, has_pair
from agents.strength import hand_strength
from envs.cards import parse_cards
from envs.game import Hand
from envs.holdem_env import LimitHoldemEnv
from envs.match import play_match
from envs.registry import make_agent
from envs.rules import Action, Rules
from envs.view import PlayerView
from tuning.cli import main
from tuning.experiments.learning_switch import SWITCHES
from tuning.training.config import TrainConfig
from tuning.training.curve import read_curve
from tuning.training.observation_features import FeatureEncoder
from tuning.training.policy import PolicyAgent
from tuning.training.sb3_env import HoldemVecEnv
from tuning.training.trainer import FinalEvaluation, RunState, resume, train

TINY = TrainConfig(
    opponents=("call",),
    steps=256,
    seed=3,
    num_envs=2,
    eval_every=128,
    eval_hands=40,
    final_eval_hands=60,
    n_steps=64,
    batch_size=64,
    n_epochs=2,
    net_arch=(16,),
)
"""A few hundred steps: enough to exercise every part of a run, not to learn."""


def test_features_are_the_same_one_by_one_and_batched() -> None:
    env = LimitHoldemEnv(["random", "raise"])
    encoder = FeatureEncoder(env.rules)
    obs, info = env.reset(seed=8)
    observations = []
    while len(observations) < 60:
        observations.append(obs)
        obs, _, done, _, info = env.step(env.action_space.sample(mask=info["action_mask"]))
        if done:
            obs, info = env.reset()
    batch = {key: np.stack([np.asarray(o[key]) for o in observations]) for key in obs}
    features = encoder.encode(batch)
    assert features.shape == (60, encoder.size) and features.dtype == np.float32
    for row, single in zip(features, observations, strict=True):
        np.testing.assert_array_equal(row, encoder.encode_one(single))
    assert features.min() >= 0.0 and features.max() <= 1.0


def test_hand_strength_feature_is_loki_hs_after_the_flop_only() -> None:
    env = LimitHoldemEnv(["call"])
    encoder = FeatureEncoder(env.rules)
    obs, _ = env.reset(seed=2)
    seen = set()
    while len(seen) < 2:
        board = obs["board"][obs["board"] != 52]
        hs = encoder.encode_one(obs)[encoder.blocks["hand_strength"]][0]
        expected = hand_strength(obs["hole"], board) if len(board) else 0.0
        assert hs == pytest.approx(expected)
        seen.add(len(board) > 0)
        obs, _, done, _, _ = env.step(Action.CALL)
        if done:
            obs, _ = env.reset()


def test_sb3_adapter_gives_masks_and_terminal_observations() -> None:
    venv = HoldemVecEnv(3, ["raise"])
    venv.seed(5)
    obs = venv.reset()
    assert obs.shape == (3, venv.encoder.size)
    ends = 0
    for _ in range(40):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.shape == (3, 3) and masks.any(axis=1).all()
        obs, _, dones, infos = venv.step(masks.argmax(axis=1))  # fold or check
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (venv.encoder.size,)
            ends += 1
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~dones))
    assert ends > 0 and venv.hands >= ends


def test_sb3_adapter_without_terminal_observations_plays_the_same_hands() -> None:
    full, lean = HoldemVecEnv(3, ["rule"]), HoldemVecEnv(3, ["rule"], terminal_observations=False)
    for venv in (full, lean):
        venv.seed(9)
    first = [full.reset(), lean.reset()]
    assert np.array_equal(*first)
    ended = 0
    for _ in range(40):
        masks = np.stack(full.env_method("action_masks"))
        actions = (masks * [1, 3, 2]).argmax(axis=1)  # raise when it may, else call
        obs, rewards, dones, infos = full.step(actions)
        lean_obs, lean_rewards, lean_dones, lean_infos = lean.step(actions)
        assert np.array_equal(obs, lean_obs) and np.array_equal(rewards, lean_rewards)
        assert np.array_equal(dones, lean_dones)
        for i in np.flatnonzero(dones):
            assert "terminal_observation" in infos[i]
            assert lean_infos[i] == {"TimeLimit.truncated": False}
            ended += 1
    assert ended > 0


def test_policy_agent_plays_legal_actions_and_its_draws_follow_its_generator() -> None:
    venv = HoldemVecEnv(1, ["call"])
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, seed=0, device="cpu")
    deterministic = PolicyAgent(model)
    first = play_match([deterministic, "random"], hands=100, seed=4)
    again = play_match([PolicyAgent(model), "random"], hands=100, seed=4)
    assert first.deal_chips.tolist() == again.deal_chips.tolist()
    sampled = [
        play_match([PolicyAgent(model, deterministic=False), "call"], hands=100, seed=s)
        for s in (1, 1, 2)
    ]
    assert sampled[0].deal_chips.tolist() == sampled[1].deal_chips.tolist()
    assert sampled[0].deal_chips.tolist() != sampled[2].deal_chips.tolist()


def test_a_short_run_writes_its_files_and_resumes(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    result = train(TINY, run_dir)
    for name in ("config.json", "model.zip", "curve.csv", "curve.png", "summary.json"):
        assert (run_dir / name).stat().st_size > 0, name
    assert TrainConfig.load(run_dir / "config.json") == TINY
    curve = read_curve(run_dir / "curve.csv")
    assert [p.timesteps for p in curve] == [0, 128, 256]
    assert curve[0].hands == 0 < curve[1].hands < curve[2].hands == result.hands
    assert all(p.ci_low <= p.sb_per_hand <= p.ci_high for p in curve)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["timesteps"] == result.timesteps == 256 and summary["segments"] == 1
    assert summary["final"]["hands"] == result.final.hands == 60

    more = resume(run_dir, steps=384)
    assert more.timesteps == 384 and more.hands > result.hands
    assert [p.timesteps for p in read_curve(run_dir / "curve.csv")] == [0, 128, 256, 384]
    assert json.loads((run_dir / "summary.json").read_text())["segments"] == 2
    with pytest.raises(ValueError, match="already trained 384"):
        resume(run_dir, steps=384)
    # Checkpoints fall between updates, so a target inside the last rollout (200 of 256) is
    # evaluated once, at the end, and no point repeats the update before it.
    odd = train(replace(TINY, steps=200, eval_every=100), tmp_path / "odd")
    assert [p.timesteps for p in odd.curve] == [0, 128, 256]
    with pytest.raises(FileExistsError):
        train(TINY, run_dir)
    with pytest.raises(FileNotFoundError, match="no run to resume"):
        resume(tmp_path / "missing")


def test_the_figure_is_redrawn_sparingly_but_always_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tuning.training import trainer

    drawn: list[int] = []
    monkeypatch.setattr(trainer, "plot_curve", lambda path, curve, *rest: drawn.append(len(curve)))
    monkeypatch.setattr(trainer, "PLOT_SECONDS", 1e9)
    train(TINY, tmp_path / "run")
    assert drawn == [1, 3]  # the first checkpoint, then the whole curve at the end
    monkeypatch.setattr(trainer, "PLOT_SECONDS", 0.0)
    drawn.clear()
    train(TINY, tmp_path / "again")
    assert drawn == [1, 2, 3]


def test_run_state_reads_back_what_it_writes(tmp_path: Path) -> None:
    final = FinalEvaluation(
        hands=40, sb_per_hand=0.5, ci=(0.1, 0.9), std_error=0.2, vpip=0.6, pfr=0.3
    )
    for state in (RunState(), RunState(timesteps=256, hands=90, segments=2, final=final)):
        (tmp_path / "summary.json").write_text(state.to_json())
        assert RunState.load(tmp_path / "summary.json") == state
    (tmp_path / "summary.json").write_text('{"timesteps": 3}')
    with pytest.raises(ValueError, match="is not a run summary"):
        RunState.load(tmp_path / "summary.json")


def test_the_same_seed_trains_the_same_learner(tmp_path: Path) -> None:
    config = replace(TINY, steps=128, eval_every=10_000)
    curves = [train(config, tmp_path / str(k)).curve for k in range(2)]
    assert curves[0] == curves[1]
    other = train(replace(config, seed=4), tmp_path / "other").curve
    assert other != curves[0]


def test_config_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="steps"):
        replace(TINY, steps=-1)
    with pytest.raises(ValueError, match="batch_size"):
        replace(TINY, batch_size=1000)
    with pytest.raises(ValueError, match="non-empty"):
        replace(TINY, opponents=())
    with pytest.raises(ValueError, match="unknown training settings"):
        TrainConfig.from_dict({"opponents": ["call"], "steps": 1, "seed": 0, "speed": 9})


def test_cli_trains_and_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "cli"
    args = ["train", "--opponents", "raise", "--steps", "64", "--seed", "0", "--quiet"]
    args += ["--run-dir", str(run_dir), "--num-envs", "1", "--eval-hands", "20"]
    args += ["--final-eval-hands", "20", "--eval-every", "64", "--batch-size", "64"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "sb/hand (AIVAT), 95% CI" in out and "of the best response +3.698 sb/hand" in out
    final = json.loads((run_dir / "summary.json").read_text())["final"]
    assert final["ceiling"] == pytest.approx(3.6977, abs=1e-4)
    assert final["ceiling_kind"] == "best response" and final["estimator"] == "aivat"
    assert final["fraction"] == pytest.approx(final["sb_per_hand"] / final["ceiling"])
    assert "trained " not in out  # 64 steps are one whole rollout of 64 x 1: no rounding
    curve = read_curve(run_dir / "curve.csv")
    assert curve[0].timesteps == 0 and curve[-1].timesteps >= 64  # whole rollouts of 64
    small = ["train", "--opponents", "call", "--steps", "5", "--seed", "0", "--num-envs", "1"]
    assert main([*small, "--run-dir", str(tmp_path / "small")]) == 1
    assert "batch_size (4096) exceeds a rollout" in capsys.readouterr().err
    assert main(["train", "--opponents", "nobody", "--steps", "5", "--seed", "0"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert main(["train", "--opponents", "call", "--seed", "0"]) == 2
    assert "--steps" in capsys.readouterr().err
    assert main(["train", "--resume", str(tmp_path / "none"), "--steps", "9"]) == 1
    assert "no run to resume" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "option", "value", "extra", "copies"),
    [
        ("--plain-features", "range_features", False, 0, 1),  # no range block
        # The critic's row: the learner's (with the range block) and the opponent's.
        ("--privileged-critic", "privileged_critic", True, 3, 2),
    ],
)
def test_a_run_with_an_option_saves_it_and_plays_back(
    tmp_path: Path, flag: str, option: str, value: bool, extra: int, copies: int
) -> None:
    run_dir = tmp_path / option
    args = ["train", "--opponents", "bpp", "--steps", "64", "--seed", "0", "--quiet"]
    args += ["--run-dir", str(run_dir), "--num-envs", "1", "--eval-hands", "20"]
    args += ["--final-eval-hands", "20", "--eval-every", "64", "--batch-size", "64"]
    assert main([*args, flag]) == 0
    config = TrainConfig.load(run_dir / "config.json")
    assert getattr(config, option) is value and getattr(TINY, option) is not value
    agent = make_agent(f"ppo:{run_dir}")
    width = agent.model.observation_space.shape[0]
    assert width == copies * FeatureEncoder(Rules()).size + extra
    assert play_match([agent, "bpp"], hands=40, seed=3).results[0].hands == 40
    old = json.loads((run_dir / "config.json").read_text())
    del old[option]  # a run saved before the option: off
    assert getattr(TrainConfig.from_dict(old), option) is False


def test_training_defaults_to_the_range_features_in_sessions_and_the_cli_can_undo_both(
    tmp_path: Path,
) -> None:
    assert TINY.range_features and TINY.session_hands == 600
    args = ["train", "--opponents", "call", "--steps", "64", "--seed", "0", "--quiet"]
    args += ["--run-dir", str(tmp_path / "one"), "--num-envs", "1", "--eval-hands", "20"]
    args += ["--final-eval-hands", "20", "--eval-every", "64", "--batch-size", "64"]
    assert main([*args, "--session-hands", "all", "--plain-features"]) == 0
    config = TrainConfig.load(tmp_path / "one" / "config.json")
    assert config.session_hands is None and config.range_features is False
    assert main([*args, "--plain-features", "--range-features"]) == 2
    old = json.loads((tmp_path / "one" / "config.json").read_text())
    del old["session_hands"]  # a run saved before sessions existed: one match per table
    assert TrainConfig.from_dict(old).session_hands is None


def test_the_cli_does_not_import_torch() -> None:
    code = (
        "import sys, tuning.cli; sys.exit('torch' in sys.modules or 'sb3_contrib' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_rules_of_another_table_size_get_their_own_features() -> None:
    three = FeatureEncoder(Rules(num_seats=3))
    two = FeatureEncoder(Rules(num_seats=2))
    assert three.size == two.size + 1  # one more position


# --- The papers' agents as learners: the learning switch -------------------------------------


def _flop_probe(hole: str, opponent_flop: Action) -> PlayerView:
    """Heads-up, seat 1 (the pair-raise bot, button) limps, seat 0 checks, checks the flop
    Kc7d3s, and seat 1 bets (``RAISE``) or checks behind (``CALL``: seat 0 acts on the turn)."""
    hand = Hand(Rules(), parse_cards(hole + "2d2h" + "Kc7d3s" + "9sJd"), button=1)
    for action in (Action.CALL, Action.CALL, Action.CALL, opponent_flop):
        hand.act(action)
    return hand.view(0)


@pytest.mark.parametrize("strategy", ["MIXED", "DETERMINISTIC"])
def test_bpp_learning_switch_reads_the_pair_raise_bots_bets(strategy: str) -> None:
    """BPP learns P(action | hand type) from showdowns; frozen, it keeps its generic prior.

    The pair-raise bot bets only with a pair: after 400 hands against it, BPP facing its flop
    bet with ace-high believes it is behind more often than its prior says, and folds more.
    """
    from agents.bpp import BPPAgent, Strategy

    fresh = BPPAgent(strategy=Strategy[strategy], rng=np.random.default_rng(0))
    learned = {}
    for learn in (True, False):
        agent = BPPAgent(strategy=Strategy[strategy], learn=learn)
        play_match([agent, PairRaiseAgent()], hands=400, seed=3, duplicate=False)
        learned[learn] = agent
    probes = [_flop_probe(h, a) for h in ("Ah9c", "7h6c") for a in (Action.RAISE, Action.CALL)]
    for view in probes:
        assert learned[False].decide(view) == fresh.decide(view)  # frozen: the prior, exactly
        assert learned[True].decide(view).p_win != pytest.approx(fresh.decide(view).p_win)
    facing_bet = _flop_probe("Ah9c", Action.RAISE)
    before, after = fresh.decide(facing_bet), learned[True].decide(facing_bet)
    assert after.p_win < before.p_win - 0.03
    assert after.probabilities[Action.FOLD] > before.probabilities[Action.FOLD]


@pytest.mark.parametrize("agent", ["loki", "loki2"])
def test_loki_specific_modelling_learns_what_the_pair_raise_bots_bets_mean(agent: str) -> None:
    """Specific modelling learns each opponent's action frequencies; generic never learns.

    The pair-raise bot bets rarely and only with a pair, so once Loki has counted its actions
    its flop bet re-weights the bot's holdings towards the ones that pair the board, far more
    than the default frequencies (Table B.2) do; generic Loki stays exactly where it started.
    (The test's 200 hands suffice: with 400, the weight on pairing holdings is 0.89 against
    0.63.)
    """
    from agents.strength.holdings import HOLDINGS

    flop = parse_cards("Kc7d3s")
    pairs = np.array([has_pair((int(a), int(b)), flop) for a, b in HOLDINGS])
    fresh = SWITCHES[agent](False)
    fresh.reset(np.random.default_rng(0))
    agents = {"fresh": fresh}
    for learn in (True, False):
        agents[str(learn)] = SWITCHES[agent](learn)
        play_match([agents[str(learn)], PairRaiseAgent()], hands=200, seed=3, duplicate=False)
    mass = {}
    for key, loki in agents.items():
        loki.act(_flop_probe("Ah9c", Action.RAISE))  # Loki re-weights the bot on its bet
        weights = loki.weights(1)
        mass[key] = weights[pairs].sum() / weights.sum()
    assert mass["False"] == mass["fresh"]
    assert mass["True"] > mass["fresh"] + 0.15


def test_the_curves_title_names_the_options_a_run_differs_by() -> None:
    from tuning.training.trainer import _title

    plain = _title(
        TrainConfig(opponents=("bpp",), steps=1, seed=2, range_features=False, session_hands=None)
    )
    assert plain == "masked PPO vs bpp (seed 2, entropy bonus 0.01)"
    full = TrainConfig(
        opponents=("bpp",),
        steps=1,
        seed=2,
        range_features=True,
        privileged_critic=True,
        session_hands=600,
    )
    assert _title(full).endswith("range features, privileged critic, 600-hand sessions)")
