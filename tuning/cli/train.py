"""``holdem-lab train``: a masked-PPO learner against fixed opponents (needs the ``rl`` extra).

    holdem-lab train --opponents call --steps 1500000 --seed 1
    holdem-lab train --resume runs/ppo-call-s1 --steps 2000000

Torch and sb3-contrib are imported inside ``run`` only, so the other commands stay fast and
work without the extra.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from envs.registry import check_spec
from tuning.cli._args import RUNS, positive_int, seed

_SETTINGS = (
    "num_envs",
    "n_steps",
    "batch_size",
    "eval_every",
    "eval_hands",
    "final_eval_hands",
    "eval_session_deals",
    "ent_coef",
    "learning_rate",
    "reward_scale",
    "fold_bias",
    "eval_aivat",
    "session_hands",
    "range_features",
    "privileged_critic",
)
"""Options that override ``TrainConfig``'s defaults when given."""


def add_parser(sub: Any) -> None:
    """Add the ``train`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    train = sub.add_parser(
        "train",
        help="train a masked PPO learner against fixed opponents (needs holdem-lab[rl])",
        description=(
            "Train a masked PPO learner (sb3-contrib) in seat 0 against the given opponents, "
            "evaluate it at checkpoints with the duplicate match runner on held-out deals, and "
            "save the model, the learning curve (CSV and PNG) and a summary in the run "
            "directory. --resume continues a saved run."
        ),
    )
    train.add_argument("--opponents", nargs="+", metavar="AGENT", help="registered agent names")
    train.add_argument(
        "--steps",
        type=positive_int,
        help="learner decisions to train for in all; PPO trains whole rollouts (--n-steps x "
        "--num-envs decisions), so a run stops at the end of the first rollout reaching STEPS "
        "and says so",
    )
    train.add_argument("--seed", type=seed, help="root seed (>= 0)")
    train.add_argument("--run-dir", type=Path, help="where to save (default runs/ppo-...)")
    train.add_argument("--resume", type=Path, metavar="RUN_DIR", help="continue this saved run")
    train.add_argument("--num-envs", type=positive_int, help="tables stepped together")
    train.add_argument("--n-steps", type=positive_int, help="rollout length per table")
    train.add_argument(
        "--batch-size", type=positive_int, help="PPO minibatch (at most n-steps x num-envs)"
    )
    train.add_argument("--eval-every", type=positive_int, help="timesteps between checkpoints")
    train.add_argument("--eval-hands", type=positive_int, help="hands per checkpoint evaluation")
    train.add_argument("--final-eval-hands", type=positive_int, help="hands of the final match")
    train.add_argument(
        "--eval-session-deals",
        type=_session_deals,
        metavar="DEALS",
        help="deals per seating of an evaluation session (learning opponents start each "
        "fresh; default 600, as the LBR bounds), or 'all' for one session per evaluation "
        "(the protocol of runs made before this option)",
    )
    train.add_argument(
        "--raw-eval",
        dest="eval_aivat",
        action="store_const",
        const=False,
        help="report the evaluations' plain winnings instead of their AIVAT estimates",
    )
    train.add_argument("--ent-coef", type=float, help="PPO entropy bonus")
    train.add_argument("--learning-rate", type=float, help="Adam step size")
    train.add_argument("--reward-scale", type=float, help="factor on the training rewards")
    train.add_argument("--fold-bias", type=float, help="added to the fresh policy's fold logit")
    train.add_argument(
        "--session-hands",
        type=_session_deals,
        metavar="HANDS",
        help="start each training table afresh (new opponents' memory) every this many hands "
        "(default 600, as the evaluation's sessions), or 'all' for one match per table for "
        "the whole run (the default of runs made before 2026-11-27)",
    )
    features = train.add_mutually_exclusive_group()
    features.add_argument(
        "--range-features",
        action="store_const",
        const=True,
        help="add the hand's strength against the range a generic model of the opponents' "
        "betting leaves to the learner's features (the default)",
    )
    features.add_argument(
        "--plain-features",
        dest="range_features",
        action="store_const",
        const=False,
        help="the features without the range block (cheaper; the default before 2026-11-27)",
    )
    train.add_argument(
        "--privileged-critic",
        action="store_const",
        const=True,
        help="let the value network also see the opponents' cards in training (an asymmetric "
        "actor-critic; the policy still sees only the learner's view)",
    )
    train.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    train.set_defaults(command=run, parser=train)


ALL_DEALS = "all"
"""``--eval-session-deals all``: each evaluation is one session; ``--session-hands all``: each
training table is one match."""


def _session_deals(text: str) -> int | str:
    return ALL_DEALS if text == ALL_DEALS else positive_int(text)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    if args.resume is None:
        missing = [f"--{n}" for n in ("opponents", "steps", "seed") if getattr(args, n) is None]
        if missing:
            parser.error(f"a new run needs {', '.join(missing)} (or --resume RUN_DIR)")
        for name in args.opponents:
            try:
                check_spec(name)
            except ValueError as error:
                parser.error(str(error))
    elif args.opponents is not None or args.seed is not None or args.run_dir is not None:
        parser.error("--resume takes the run's own opponents, seed and directory; give --steps")
    try:
        from tuning.training.config import TrainConfig
        from tuning.training.trainer import resume, train
    except ImportError as error:
        sys.stderr.write(
            f"holdem-lab train: error: {error}; install the extra: pip install 'holdem-lab[rl]'\n"
        )
        return 1
    try:
        if args.resume is not None:
            result = resume(args.resume, steps=args.steps, progress=not args.quiet)
            config = TrainConfig.load(args.resume / "config.json")
        else:
            given = {
                name: getattr(args, name) for name in _SETTINGS if getattr(args, name) is not None
            }
            for name in ("eval_session_deals", "session_hands"):
                if given.get(name) == ALL_DEALS:
                    given[name] = None
            config = TrainConfig(
                opponents=tuple(args.opponents), steps=args.steps, seed=args.seed, **given
            )
            run_dir = args.run_dir or RUNS / (f"ppo-{'-'.join(args.opponents)}-s{args.seed}")
            result = train(config, run_dir, progress=not args.quiet)
    except (ValueError, FileExistsError, FileNotFoundError) as error:
        sys.stderr.write(f"holdem-lab train: error: {error}\n")
        return 1
    final = result.evaluation
    ci = f"[{final.ci[0]:+.3f}, {final.ci[1]:+.3f}]" if final.ci else "n/a"
    ceiling = ""
    if result.ceiling is not None and result.fraction is not None:
        ceiling = f"; {100 * result.fraction:.1f}% of the {result.ceiling.label} sb/hand"
    estimate = " (AIVAT)" if final.estimator == "aivat" else ""
    sys.stdout.write(
        f"{result.run_dir}: {result.timesteps:,} steps, {result.hands:,} training hands; "
        f"final {final.hands:,} held-out hands in {final.sessions:,} "
        f"session{'s' if final.sessions != 1 else ''}: "
        f"{final.sb_per_hand:+.3f} sb/hand{estimate}, 95% CI {ci}{ceiling}\n"
    )
    note = rounding_note(config.steps, result.timesteps, config.n_steps, config.num_envs)
    if note:
        sys.stdout.write(note + "\n")
    return 0


def rounding_note(requested: int, trained: int, n_steps: int, num_envs: int) -> str:
    """Why a run trained ``trained`` steps when ``requested`` were asked for ('' if equal)."""
    if trained == requested:
        return ""
    rollout = n_steps * num_envs
    return (
        f"trained {trained:,} steps for --steps {requested:,}: PPO updates the policy on whole "
        f"rollouts of n_steps x num_envs = {n_steps} x {num_envs} = {rollout:,} decisions, so a "
        "run stops at the end of the first rollout that reaches the requested total"
    )
