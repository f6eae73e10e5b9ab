"""Training throughput: ``holdem-lab train`` runs, steps per CPU-second, where the time goes.

Protocol. Each measurement is one training run in a fresh process, through the CLI's code path
(``tuning.training.trainer.train`` with a ``TrainConfig`` of the defaults, ``--steps`` steps,
seed 1, a temporary run directory): start-up (imports, the model), the rollouts, the PPO
updates, every checkpoint's evaluation and save, and the final evaluation match. The figure is
the run's learner steps (PPO timesteps) over the process's whole CPU time
(``time.process_time`` at its end: the machine is shared). Against ``call`` and ``bpp``.

Where the time goes: the run's functions below are wrapped with CPU timers, each part's time
exclusive of the parts it calls (so the parts add up to the run), and the parts inside an
evaluation match are counted as the evaluation's. The timers cost a few microseconds per call
(a few thousand calls per 100,000 steps).

With ``--baseline-tree PATH`` (a checkout of an earlier commit, e.g. ``git worktree add
/tmp/base a023d8c``) every run is repeated there (``PYTHONPATH`` set to that tree), alternating
which goes first, and the ratio of the rates is reported beside the learned numbers of both
(the final match's sb/hand: the same code path and seed give the same numbers when the
optimisations leave learning unchanged).

    python benchmarks/bench_training.py [--steps 1500000] [--opponents call bpp] \\
        [--baseline-tree PATH] [--rounds 1] [--option FIELD=JSON ...] \\
        [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ab import run_json
from bench_engine import write_section

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"call": 10_000, "bpp": 5_000}
"""Issue 24: learner steps per CPU-second through ``holdem-lab train``, evaluation included."""

RUN = r"""
import functools, json, sys, tempfile, time
from pathlib import Path

import sb3_contrib
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

import envs.vector_env as vector_env
import tuning.training.observation_features as features
import tuning.training.policy as policy
import tuning.training.sampled_equity as sampled_equity
import tuning.training.sb3_env as sb3_env
import tuning.training.trainer as trainer
from tuning.training.config import TrainConfig

imported = time.process_time()
EVALUATION = "evaluation match"
spent = {}
stack = []


def timed(label, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        frame = [label, time.process_time(), 0.0]
        stack.append(frame)
        try:
            return function(*args, **kwargs)
        finally:
            stack.pop()
            elapsed = time.process_time() - frame[1]
            inside = any(f[0] == EVALUATION for f in stack)
            key = f"{EVALUATION}: {label}" if inside and label != EVALUATION else label
            spent[key] = spent.get(key, 0.0) + elapsed - frame[2]
            if stack:
                stack[-1][2] += elapsed
    return wrapper


def wrap(owner, name, label):
    if hasattr(owner, name):
        setattr(owner, name, timed(label, getattr(owner, name)))


wrap(trainer, "evaluate_model", EVALUATION)
wrap(trainer._Run, "execute", "start-up and the rest")
wrap(trainer._Run, "_model", "start-up and the rest")
wrap(trainer._Run, "_checkpoint", "checkpoint saves (model, curve, figure)")
wrap(sb3_contrib.MaskablePPO, "collect_rollouts", "SB3 rollout loop (buffer, masks, callback)")
wrap(sb3_contrib.MaskablePPO, "train", "PPO updates (backprop)")
wrap(MaskableActorCriticPolicy, "forward", "policy forward passes")
wrap(policy, "policy_probabilities", "policy forward passes")
wrap(sb3_env.HoldemVecEnv, "step_wait", "SB3 adapter (infos, rewards)")
wrap(vector_env.LimitHoldemVectorEnv, "step", "env: engine, deals, observations")
wrap(vector_env.LimitHoldemVectorEnv, "reset", "env: engine, deals, observations")
wrap(vector_env.LimitHoldemVectorEnv, "step_batched", "env: engine, deals, observations")
wrap(features.FeatureEncoder, "encode", "features: the rest")
wrap(features, "hand_strengths", "features: hand strength")
wrap(features, "hand_strengths_on_boards", "features: hand strength")
wrap(sampled_equity, "hand_strengths", "features: hand strength")
wrap(sampled_equity.EquityEstimator, "equity", "features: equity")
wrap(policy, "hand_strengths", "features: hand strength")
wrap(features, "ranged_strengths", "features: range")  # trees before the next line's function
wrap(features, "ranged_and_hand_strengths", "features: range (and HS1)")

tables_init = vector_env.LimitHoldemVectorEnv.__init__


def opponents_timed(self, *args, **kwargs):
    tables_init(self, *args, **kwargs)
    for agent in self.tables.opponents:
        wrap(agent, "probabilities", "env: opponents' decisions")


vector_env.LimitHoldemVectorEnv.__init__ = opponents_timed

opponent, steps, options = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
hands = {"eval_hands": 4, "final_eval_hands": 4} if sys.argv[4:] == ["warm-up"] else {}
config = TrainConfig(opponents=(opponent,), steps=steps, seed=1, **hands, **options)
with tempfile.TemporaryDirectory(prefix="bench-training-") as tmp:
    result = trainer.train(config, Path(tmp) / "run")
cpu = time.process_time()
spent["start-up and the rest"] = spent.get("start-up and the rest", 0.0) + imported
print(json.dumps({
    "tree": str(Path(trainer.__file__).resolve().parents[2]),
    "steps": result.timesteps,
    "cpu": cpu,
    "parts": spent,
    "final": result.final.sb_per_hand,
    "curve": [point.sb_per_hand for point in result.curve],
}))
"""


def run(
    tree: Path,
    opponent: str,
    steps: int,
    options: dict[str, Any],
    *,
    warm_up: bool = False,
) -> dict[str, Any]:
    """One training run in a fresh process importing ``tree``'s code, with ``TrainConfig``
    fields ``options`` over the defaults (a warm-up run, which compiles or loads the kernels,
    evaluates on 4 hands only)."""
    measured: dict[str, Any] = run_json(
        tree, RUN, opponent, str(steps), json.dumps(options), *(["warm-up"] if warm_up else [])
    )
    if Path(measured["tree"]) != tree.resolve():
        raise RuntimeError(f"the run imported {measured['tree']}, not {tree}")
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_500_000, help="learner steps per run")
    parser.add_argument("--opponents", nargs="+", default=list(TARGETS))
    parser.add_argument("--baseline-tree", type=Path, help="a checkout of the code to compare")
    parser.add_argument("--rounds", type=int, default=1, help="runs per tree and opponent")
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="FIELD=JSON",
        help="a TrainConfig field over the defaults, e.g. range_features=true (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    args.options = {}
    for item in args.option:
        field, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option needs FIELD=JSON: {item!r}")
        try:
            args.options[field] = json.loads(value)
        except json.JSONDecodeError as error:
            parser.error(f"--option {field}: {value!r} is not JSON ({error})")
    trees = {"new": ROOT}
    if args.baseline_tree is not None:
        trees["baseline"] = args.baseline_tree.resolve()
    for tree in trees.values():  # compile or load the kernels before timing
        for opponent in args.opponents:
            run(tree, opponent, 4_096, args.options, warm_up=True)
    load_before = os.getloadavg()[0]
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        o: {t: [] for t in trees} for o in args.opponents
    }
    for r in range(args.rounds):
        for opponent in args.opponents:
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for label in order:
                runs[opponent][label].append(run(trees[label], opponent, args.steps, args.options))
                print(f"round {r + 1}: {opponent} {label} done", file=sys.stderr)
    lines = report(runs, trees, args)
    lines.insert(
        3, f"Load average {load_before:.1f} before timing, {os.getloadavg()[0]:.1f} after."
    )
    print("\n".join(lines))
    if args.write:
        write_section(args.write, "training", "\n".join(lines))
    return 0


def rate(measured: dict[str, Any]) -> float:
    return float(measured["steps"]) / float(measured["cpu"])


def report(
    runs: dict[str, dict[str, list[dict[str, Any]]]],
    trees: dict[str, Path],
    args: argparse.Namespace,
) -> list[str]:
    """The markdown section."""
    lines = [
        "## Training throughput (`python benchmarks/bench_training.py`)",
        "",
        f"Measured {datetime.date.today()} on {platform.machine()} "
        f"({platform.python_implementation()} {platform.python_version()}), "
        "`holdem-lab train`'s code path with "
        + (
            "the default settings but " + ", ".join(f"`{k}={v}`" for k, v in args.options.items())
            if args.options
            else "the default settings"
        )
        + f", {args.steps:,} steps, "
        f"seed 1, each run a fresh process, whole-process CPU time (start-up and every "
        f"evaluation included); medians of {args.rounds} run(s) per tree"
        + (f", baseline tree `{trees['baseline']}`" if "baseline" in trees else "")
        + ".",
        "",
        "| opponent | tree | steps | CPU-s | steps/CPU-s | new / baseline | target | "
        "final sb/hand | curve (sb/hand) |",
        "|---|---|---:|---:|---:|---:|---|---:|---|",
    ]
    for opponent, by_tree in runs.items():
        rates = {t: statistics.median(rate(m) for m in ms) for t, ms in by_tree.items()}
        for label, measured in by_tree.items():
            last = measured[-1]
            ratio = f"{rates['new'] / rates['baseline']:.2f}" if "baseline" in rates else ""
            target = ""
            if label == "new" and opponent in TARGETS:
                met = "met" if rates["new"] >= TARGETS[opponent] else "**not met**"
                target = f">= {TARGETS[opponent]:,} ({met})"
            curve = ", ".join(f"{x:+.3f}" for x in last["curve"])
            lines.append(
                f"| {opponent} | {label} | {last['steps']:,} | "
                f"{statistics.median(m['cpu'] for m in measured):.1f} | "
                f"{rates[label]:,.0f} | {ratio if label == 'new' else ''} | {target} | "
                f"{last['final']:+.4f} | {curve} |"
            )
    for opponent, by_tree in runs.items():
        for label, measured in by_tree.items():
            parts = measured[-1]["parts"]
            total = measured[-1]["cpu"]
            lines += [
                "",
                f"Where the time goes, {opponent}, {label} tree (CPU-s of the last run, each "
                "part exclusive of the parts it calls):",
                "",
                "| part | CPU-s | share |",
                "|---|---:|---:|",
            ]
            for part, seconds in sorted(parts.items(), key=lambda item: -item[1]):
                lines.append(f"| {part} | {seconds:.1f} | {seconds / total:.0%} |")
            rest = total - sum(parts.values())
            lines.append(f"| unattributed | {rest:.1f} | {rest / total:.0%} |")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
