"""Masked PPO against fixed opponents: train, evaluate at checkpoints, save, resume.

A run lives in one directory:

| file | content |
|---|---|
| ``config.json`` | the ``TrainConfig`` |
| ``model.zip`` | the latest checkpoint (sb3-contrib ``MaskablePPO.save``) |
| ``curve.csv`` / ``curve.png`` | the learning curve (``tuning.training.curve``) |
| ``summary.json`` | progress (timesteps, training hands, segments) and the final evaluation |

Every checkpoint saves the model, the curve and the summary, in that order, so an interrupted
run (Ctrl-C saves too) resumes from its last save with ``resume(run_dir, steps=...)``.
Checkpoints are evaluated by the duplicate match runner against fresh copies of the opponents
on held-out deals (``TrainConfig.match_seed``). Torch and sb3-contrib (the ``rl`` extra) are
imported here and in the modules this one imports, never by ``tuning.cli``.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import LinearSchedule
from tqdm import tqdm

from envs.match import AgentResult, play_match
from envs.registry import make_agent
from envs.rules import Action
from tuning.training.ceiling import Ceiling, ceiling_of
from tuning.training.config import TrainConfig
from tuning.training.curve import CurvePoint, plot_curve, read_curve, write_curve
from tuning.training.policy import PolicyAgent
from tuning.training.privileged import AsymmetricPolicy
from tuning.training.run_state import FinalEvaluation, RunState
from tuning.training.sb3_env import HoldemVecEnv

__all__ = ["FinalEvaluation", "RunState", "TrainResult", "evaluate_model", "resume", "train"]

logger = logging.getLogger(__name__)

CONFIG, MODEL, CURVE, FIGURE, SUMMARY = (
    "config.json",
    "model.zip",
    "curve.csv",
    "curve.png",
    "summary.json",
)
PLOT_SECONDS = 60.0
"""Least wall time between two drawings of ``curve.png`` during a run (the CSV is written at
every checkpoint; the figure always at the end)."""


@dataclass(frozen=True)
class TrainResult:
    """What a (resumed) run reached."""

    run_dir: Path
    timesteps: int
    hands: int
    curve: tuple[CurvePoint, ...]
    final: AgentResult
    """The final model's evaluation over ``final_eval_hands`` held-out hands."""
    evaluation: FinalEvaluation
    """Its figures as ``summary.json`` keeps them (AIVAT where computed, the ceiling)."""
    ceiling: Ceiling | None = None
    """The opponent's best-response value or LBR lower bound in sb/hand, where known."""

    @property
    def fraction(self) -> float | None:
        """The final winnings as a fraction of ``ceiling`` (``None`` when unknown)."""
        return self.evaluation.fraction


def evaluate_model(
    model: Any,
    opponents: tuple[str, ...],
    *,
    hands: int,
    seed: int,
    sessions: int = 1,
    aivat: bool = False,
) -> AgentResult:
    """The policy's duplicate-match result against fresh ``opponents`` on deals of ``seed``
    in ``sessions`` sessions (on the batched engine, all deals at once, when every opponent
    has a batched form), with AIVAT estimates when ``aivat``."""
    agents = [PolicyAgent(model), *(make_agent(name) for name in opponents)]
    estimator = "aivat" if aivat else "raw"
    return play_match(
        agents, hands=hands, seed=seed, sessions=sessions, estimator=estimator
    ).results[0]


def train(config: TrainConfig, run_dir: Path, *, progress: bool = False) -> TrainResult:
    """Start a new run in ``run_dir``; ``FileExistsError`` if it already holds one."""
    if (run_dir / CONFIG).exists():
        raise FileExistsError(
            f"{run_dir} already holds a run: resume it, or choose another run directory"
        )
    for name in config.opponents:
        make_agent(name)  # ValueError listing the registered names if unknown
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / CONFIG).write_text(config.to_json(), encoding="utf-8")
    return _Run(config, run_dir, RunState(), [], progress).execute()


def resume(run_dir: Path, *, steps: int | None = None, progress: bool = False) -> TrainResult:
    """Continue the run saved in ``run_dir`` up to ``steps`` timesteps (default: its own).

    Raises:
        FileNotFoundError: if ``run_dir`` holds no saved run.
    """
    missing = [f for f in (CONFIG, MODEL, SUMMARY) if not (run_dir / f).exists()]
    if missing:
        raise FileNotFoundError(f"no run to resume in {run_dir} (missing {', '.join(missing)})")
    config = TrainConfig.load(run_dir / CONFIG)
    if steps is not None:
        config = TrainConfig.from_dict({**json.loads(config.to_json()), "steps": steps})
    state = RunState.load(run_dir / SUMMARY)
    if state.final is not None and config.steps <= state.timesteps:
        raise ValueError(
            f"the run in {run_dir} has already trained {state.timesteps:,} steps: ask for "
            "more steps to continue it"
        )
    (run_dir / CONFIG).write_text(config.to_json(), encoding="utf-8")
    curve = read_curve(run_dir / CURVE) if (run_dir / CURVE).exists() else []
    return _Run(config, run_dir, state, curve, progress).execute()


class _Run:
    """One segment of a run: from the saved state (or scratch) up to ``config.steps``."""

    def __init__(
        self,
        config: TrainConfig,
        run_dir: Path,
        state: RunState,
        curve: list[CurvePoint],
        progress: bool,
    ) -> None:
        self.config = config
        self.run_dir = run_dir
        self.state = state
        self.curve = curve
        self.progress = progress
        self.segment = state.segments
        self.hands_before = state.hands
        seed_seq = np.random.SeedSequence([config.seed, self.segment])
        self.segment_seed = int(seed_seq.generate_state(1)[0] >> 1)  # SB3 wants < 2**31
        self.venv: HoldemVecEnv | None = None
        self.model: Any = None
        self.ceiling: Ceiling | None = None
        self._plotted: tuple[int, float] | None = None
        """Points in the last figure drawn, and when (``time.monotonic``)."""

    def execute(self) -> TrainResult:
        config = self.config
        torch.set_num_threads(config.threads)
        self.venv = HoldemVecEnv(
            config.num_envs,
            config.opponents,
            reward_scale=config.reward_scale,
            session_hands=config.session_hands,
            session_seed=self.segment_seed,
            range_features=config.range_features,
            privileged_critic=config.privileged_critic,
            terminal_observations=False,  # hands never truncate: PPO would not read them
        )
        self.ceiling = ceiling_of(config.opponents, self.venv.tables.rules)
        # Counted at once, so that a resumption after an interruption gets fresh table seeds.
        self.state = replace(self.state, segments=self.segment + 1)
        try:
            self.model = self._model()
            done = int(self.model.num_timesteps)
            if done < config.steps:
                self._learn(done)
            if not self.curve or self.curve[-1].timesteps != self.model.num_timesteps:
                self._checkpoint()
            self._plot(force=True)
            final = self._evaluate(config.final_eval_hands)
            evaluation = FinalEvaluation.of(
                final, self.ceiling, sessions=config.eval_sessions(config.final_eval_hands)
            )
            self.state = replace(self.state, final=evaluation)
            self._save_state()
        finally:
            self.venv.close()
        return TrainResult(
            self.run_dir,
            int(self.model.num_timesteps),
            self._hands(),
            tuple(self.curve),
            final,
            evaluation,
            self.ceiling,
        )

    def _model(self) -> Any:
        config, path = self.config, self.run_dir / MODEL
        assert self.venv is not None
        if path.exists():
            model = MaskablePPO.load(path, env=self.venv, device="cpu")
            model.set_random_seed(self.segment_seed)
            return model
        policy_kwargs: dict[str, Any] = {
            "net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)}
        }
        if config.privileged_critic:
            policy_kwargs["features_extractor_kwargs"] = {"public": self.venv.public_size}
        model = MaskablePPO(
            AsymmetricPolicy if config.privileged_critic else "MlpPolicy",
            self.venv,
            n_steps=config.n_steps,
            batch_size=config.batch_size,
            n_epochs=config.n_epochs,
            learning_rate=(
                LinearSchedule(config.learning_rate, 0.0, 1.0)
                if config.anneal_lr
                else config.learning_rate
            ),
            gamma=config.gamma,
            gae_lambda=config.gae_lambda,
            ent_coef=config.ent_coef,
            policy_kwargs=policy_kwargs,
            seed=self.segment_seed,
            device="cpu",
            verbose=0,
        )
        with torch.no_grad():
            # A fresh policy is near uniform; fold_bias shifts its fold logit (see the config).
            bias = model.policy.action_net.bias
            assert isinstance(bias, torch.Tensor)
            bias[Action.FOLD] += config.fold_bias
        return model

    def _learn(self, done: int) -> None:
        config = self.config
        bar = tqdm(
            total=config.steps,
            initial=done,
            unit="step",
            file=sys.stderr,
            disable=not self.progress,
            dynamic_ncols=True,
        )
        if not self.curve:
            self._checkpoint()  # the untrained policy: where the curve starts
        callback = _Checkpoints(self._checkpoint, config.eval_every, bar, self._train_sb)
        try:
            with bar:
                self.model.learn(
                    total_timesteps=config.steps - done,
                    reset_num_timesteps=False,
                    callback=callback,
                )
        except KeyboardInterrupt:
            self._save_model()  # keep the progress; the curve keeps its last checkpoint
            self._save_state()
            self._plot(force=True)
            raise

    def _checkpoint(self) -> None:
        config = self.config
        result = self._evaluate(config.eval_hands)
        point = CurvePoint.from_result(int(self.model.num_timesteps), self._hands(), result)
        self.curve.append(point)
        logger.info("checkpoint %s", point)
        self._save_model()
        write_curve(self.run_dir / CURVE, self.curve)
        self._plot(force=False)
        self._save_state()

    def _plot(self, *, force: bool) -> None:
        """Redraw the figure from the curve: at the end, on an interruption, and at checkpoints
        at most every ``PLOT_SECONDS`` (a drawing costs about 0.7 CPU-s, a checkpoint against a
        memoryless bot a few tenths)."""
        now = time.monotonic()
        if self._plotted is not None:
            points, at = self._plotted
            if points == len(self.curve) or (not force and now - at < PLOT_SECONDS):
                return
        plot_curve(self.run_dir / FIGURE, self.curve, _title(self.config), self.ceiling)
        self._plotted = (len(self.curve), now)

    def _evaluate(self, hands: int) -> AgentResult:
        config = self.config
        return evaluate_model(
            self.model,
            config.opponents,
            hands=hands,
            seed=config.match_seed,
            sessions=config.eval_sessions(hands),
            aivat=config.eval_aivat,
        )

    def _save_model(self) -> None:
        tmp = self.run_dir / "model.tmp.zip"
        self.model.save(tmp)
        tmp.replace(self.run_dir / MODEL)
        self.state = replace(
            self.state, timesteps=int(self.model.num_timesteps), hands=self._hands()
        )

    def _save_state(self) -> None:
        tmp = self.run_dir / "summary.tmp.json"
        tmp.write_text(self.state.to_json(), encoding="utf-8")
        tmp.replace(self.run_dir / SUMMARY)

    def _hands(self) -> int:
        assert self.venv is not None
        return self.hands_before + self.venv.hands

    def _train_sb(self) -> float | None:
        """Mean training winnings over the last hands, in small bets (rewards are in bb)."""
        assert self.venv is not None
        recent = self.venv.recent_rewards
        if not recent:
            return None
        rules = self.venv.tables.rules
        return float(np.mean(recent)) * rules.big_blind / rules.small_bet


def _title(config: TrainConfig) -> str:
    """The figure's title: opponents, seed, and the options a run may differ by."""
    options = [f"seed {config.seed}", f"entropy bonus {config.ent_coef:g}"]
    if config.range_features:
        options.append("range features")
    if config.privileged_critic:
        options.append("privileged critic")
    if config.session_hands is not None:
        options.append(f"{config.session_hands}-hand sessions")
    gap = "\n" if len(options) > 2 else " "  # a long title on two lines fits the figure
    return f"masked PPO vs {' + '.join(config.opponents)}{gap}({', '.join(options)})"


class _Checkpoints(BaseCallback):
    """Advances the progress bar and checkpoints every ``every`` timesteps."""

    def __init__(
        self,
        checkpoint: Callable[[], None],
        every: int,
        bar: tqdm[Any],
        train_sb: Callable[[], float | None],
    ) -> None:
        super().__init__()
        self._checkpoint = checkpoint
        self._every = every
        self._bar = bar
        self._train_sb = train_sb
        self._next = 0

    def _on_training_start(self) -> None:
        self._next = (self.num_timesteps // self._every + 1) * self._every
        self._last = self.num_timesteps

    def _on_step(self) -> bool:
        self._bar.update(self.num_timesteps - self._last)
        self._last = self.num_timesteps
        return True

    def _on_rollout_start(self) -> None:
        # Between an update and the next rollout: the model evaluated is the one trained on
        # exactly ``num_timesteps`` steps (mid-rollout it would be the previous update's, and
        # the run's end would evaluate it again when the last rollout crosses the target).
        if self.num_timesteps >= self._next:
            self._checkpoint()
            self._next = (self.num_timesteps // self._every + 1) * self._every
            sb = self._train_sb()
            if sb is not None:
                self._bar.set_postfix(train_sb=f"{sb:+.3f}", refresh=False)
