"""``holdem-lab tune``: an Optuna study of an agent's parameters (BPP's by default).

    holdem-lab tune --study demo --trials 40 --workers 2      # results/demo/
    holdem-lab tune --study demo --trials 60 --workers 2      # resumes it up to 60 trials
    holdem-lab tune --study pg --storage postgresql://user:pw@host/db --trials 200
    holdem-lab tune --agent loki --study loki-demo --trials 30   # Loki-1's knobs

Creates or resumes the study, runs its trials (with a progress bar: trials, hands per
second, best value so far), re-evaluates the top trials on fresh deals, confirms the winner
against the agent's defaults on independent deals, and writes ``results/<study>/``. --agent
chooses what is tuned (tuning.studies): bpp (alpha, alpha' and the fp / cp betting curves),
loki or loki2 (pre-flop tightness, make1 / make2, re-weighting spreads, the triples' blend).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import positive_int, seed
from tuning.studies import AGENTS, DEFAULT_AGENT

DEFAULT_STUDY = "default"


def add_parser(sub: Any) -> None:
    """Add the ``tune`` sub-command."""
    parser = sub.add_parser(
        "tune",
        help="tune an agent's parameters with Optuna (creates or resumes a study)",
        description=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--study", default=DEFAULT_STUDY, help="study name (results/<study>/)")
    parser.add_argument(
        "--agent",
        default=DEFAULT_AGENT,
        choices=AGENTS,
        help=f"the agent whose parameters are tuned (default {DEFAULT_AGENT})",
    )
    parser.add_argument("--trials", type=positive_int, default=50, help="total trials")
    parser.add_argument(
        "--opponent",
        nargs="+",
        metavar="AGENT",
        help=(
            "registered agent(s) the tuned agent plays heads-up; several are averaged "
            "(default: bpp-curves for bpp, the published agent itself for loki and loki2)"
        ),
    )
    parser.add_argument("--deals-per-block", type=positive_int, default=250)
    parser.add_argument("--blocks", type=positive_int, default=40, help="blocks per trial")
    parser.add_argument("--seed", type=seed, default=0, help="root seed of the deals")
    parser.add_argument(
        "--sampler", default="tpe", help="tpe, tpe-indep, cmaes, gp, random, greedy"
    )
    parser.add_argument("--sampler-seed", type=seed, default=0, help="seed of worker 0's sampler")
    parser.add_argument("--pruner", default="none", help="none (default) or wilcoxon")
    parser.add_argument("--workers", type=positive_int, default=1, help="worker processes")
    parser.add_argument(
        "--storage", help="Optuna storage URL (default: results/<study>/study.log)"
    )
    parser.add_argument("--results", type=Path, default=Path("results"), help="results directory")
    parser.add_argument(
        "--per-round-alpha", action="store_true", help="bpp: one alpha pair per round"
    )
    parser.add_argument(
        "--range",
        action="append",
        default=[],
        metavar="NAME=LOW:HIGH",
        help="override a parameter's search range (repeatable)",
    )
    parser.add_argument("--top-k", type=positive_int, default=5, help="trials to re-evaluate")
    parser.add_argument("--reevaluation-blocks", type=positive_int, default=40)
    parser.add_argument("--confirmation-blocks", type=positive_int, default=60)
    parser.add_argument("--heartbeat", type=positive_int, default=60, help="RDB heartbeat, s")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.set_defaults(command=run, parser=parser)


def parse_ranges(items: list[str]) -> dict[str, tuple[float, float]]:
    """``["alpha=0:1.5"]`` -> ``{"alpha": (0.0, 1.5)}``; ``ValueError`` on a bad item."""
    ranges = {}
    for item in items:
        name, _, bounds = item.partition("=")
        low, _, high = bounds.partition(":")
        try:
            ranges[name.strip()] = (float(low), float(high))
        except ValueError:
            raise ValueError(f"--range expects NAME=LOW:HIGH, got {item!r}") from None
    return ranges


def run(args: argparse.Namespace) -> int:
    """Run the study, re-evaluate, confirm, write the results."""
    from tuning.cli._optuna import quiet_optuna
    from tuning.evaluation import MatchProtocol
    from tuning.launch import run_trials
    from tuning.report import finish_study, is_finished, write_outputs
    from tuning.samplers import sampler_kind
    from tuning.studies import make_spec
    from tuning.study import StudySettings
    from tuning.summary import StudySummary

    quiet_optuna()

    parser: argparse.ArgumentParser = args.parser
    try:
        options = {"per_round_alpha": True} if args.per_round_alpha else {}
        spec = make_spec(args.agent, ranges=parse_ranges(args.range), options=options)
        settings = StudySettings(
            study_name=args.study,
            trials=args.trials,
            storage=args.storage,
            results_dir=args.results,
            sampler=sampler_kind(args.sampler),
            pruner=args.pruner,
            seed=args.sampler_seed,
            protocol=MatchProtocol(
                opponents=tuple(args.opponent or spec.default_opponents),
                deals_per_block=args.deals_per_block,
                blocks=args.blocks,
                seed=args.seed,
            ),
            spec=spec,
            heartbeat_interval=args.heartbeat,
            grace_period=3 * args.heartbeat,
        )
        storage = settings.open()
    except ValueError as error:
        parser.error(str(error))
    progress = not args.quiet
    try:
        study = run_trials(settings, workers=args.workers, progress=progress, storage=storage)
        if not is_finished(study):
            finish_study(
                study,
                settings.spec,
                settings.protocol,
                top_k=args.top_k,
                reevaluation_blocks=args.reevaluation_blocks,
                confirmation_blocks=args.confirmation_blocks,
                workers=args.workers,
                progress=progress,
            )
        files = write_outputs(study, args.results / args.study)
    except (ValueError, RuntimeError) as error:
        sys.stderr.write(f"holdem-lab tune: error: {error}\n")
        return 1
    sys.stdout.write(f"study {args.study}: results in {files[-1].parent}\n")
    sys.stdout.write(StudySummary.from_study(study).verdict() + "\n")
    return 0
