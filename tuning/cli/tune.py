"""``holdem-lab tune``: an Optuna study of an agent's parameters (BPP's by default).

    holdem-lab tune                                   # the default study -> runs/default/
    holdem-lab tune --study demo --trials 96 --workers 2
    holdem-lab tune --study vs-call --opponent call   # tuned against another opponent
    holdem-lab tune --agent loki --seats 6 --opponent rule call raise loki loki   # multi-way
    holdem-lab tune --study carlton --preset carlton  # the thesis's greedy search of fp / cp
    holdem-lab tune --study pg --storage postgresql://user:pw@host/db --trials 200
    holdem-lab tune --agent loki --study loki-demo --trials 32   # Loki-1's knobs

Creates or resumes the study and runs it in batches of trials asked together and evaluated
side by side on the batched engine (AIVAT-corrected, the same blocks of deals and decision
uniforms for every trial, clearly worse trials dropped early by racing), with a progress bar.
Then it re-evaluates the top trials on fresh deals, confirms the best against the agent's
defaults on independent deals until the 95% interval is narrow enough, writes
<results>/<study>/ (runs/ by default, ignored by git) and says in words whether the tuned
parameters beat the defaults. --workers evaluate shares of the tables in parallel: the study
is the same bit for bit whatever their number. --agent chooses what is tuned
(tuning.studies): bpp (alpha, alpha' and the fp / cp betting curves), loki or loki2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import RUNS, positive_float, positive_int, seed
from tuning.studies import AGENTS, DEFAULT_AGENT

DEFAULT_STUDY = "default"
SAMPLERS = ("tpe", "tpe-indep", "cmaes", "gp", "random", "greedy")
PRUNERS = ("racing", "none")
PRESETS: dict[str, dict[str, Any]] = {
    "carlton": {
        "agent": "bpp",
        "curves_only": True,
        "opponent": ["bpp-curves"],
        "sampler": "greedy",
    },
}
"""``--preset NAME``: values of options the user did not give. ``carlton`` is Carlton's
(2000) setting: a stochastic greedy search over the eight fp / cp against the curve BPP."""


def add_study_options(parser: argparse.ArgumentParser) -> None:
    """The options that define a study's protocol and search (shared with
    ``compare-samplers``)."""
    parser.add_argument(
        "--agent",
        choices=AGENTS,
        help=f"the agent whose parameters are tuned (default {DEFAULT_AGENT})",
    )
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        help="carlton: greedy search over the eight fp / cp against bpp-curves (options given "
        "explicitly win)",
    )
    parser.add_argument(
        "--opponent",
        nargs="+",
        metavar="AGENT",
        help=(
            "registered agent(s) the tuned agent plays heads-up; several are averaged "
            "(default: bpp-curves for bpp, the published agent itself for loki and loki2); "
            "with --seats K above 2, the K - 1 opponents of one table (names may repeat)"
        ),
    )
    parser.add_argument(
        "--seats",
        type=positive_int,
        default=2,
        help="2 (heads-up, the default) to 10: one table of the tuned agent and its opponents",
    )
    parser.add_argument("--deals-per-block", type=positive_int, default=250)
    parser.add_argument(
        "--blocks", type=positive_int, default=384, help="blocks (sessions) per trial"
    )
    parser.add_argument("--seed", type=seed, default=0, help="root seed of the deals")
    parser.add_argument(
        "--per-round-alpha", action="store_true", help="bpp: one alpha pair per round"
    )
    parser.add_argument(
        "--curves-only",
        action="store_const",
        const=True,
        help="bpp: search only the eight fp / cp (the alphas keep their defaults)",
    )
    parser.add_argument(
        "--range",
        action="append",
        default=[],
        metavar="NAME=LOW:HIGH",
        help="override a parameter's search range (repeatable)",
    )
    parser.add_argument(
        "--batch-size", type=positive_int, default=16, help="trials asked and played together"
    )
    parser.add_argument(
        "--rounds", type=positive_int, default=5, help="racing rounds of blocks per batch"
    )
    parser.add_argument(
        "--pruner",
        choices=PRUNERS,
        default="racing",
        help="racing: drop clearly worse candidates between rounds (paired Wilcoxon test)",
    )
    parser.add_argument("--workers", type=positive_int, default=1, help="evaluation processes")


def add_parser(sub: Any) -> None:
    """Add the ``tune`` sub-command."""
    parser = sub.add_parser(
        "tune",
        help="tune an agent's parameters with Optuna (creates or resumes a study)",
        description=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--study", default=DEFAULT_STUDY, help="study name (<results>/<study>/)")
    parser.add_argument("--trials", type=positive_int, default=64, help="total trials")
    parser.add_argument("--sampler", choices=SAMPLERS, help="default tpe (greedy: carlton)")
    parser.add_argument("--sampler-seed", type=seed, default=0, help="root of the sampler seeds")
    add_study_options(parser)
    parser.add_argument(
        "--storage",
        help="Optuna storage: a journal file (default <results>/<study>/study.log), "
        "postgresql://..., or memory",
    )
    parser.add_argument(
        "--results", type=Path, default=RUNS, help="results directory (default runs/)"
    )
    parser.add_argument("--top-k", type=positive_int, default=5, help="trials to re-evaluate")
    parser.add_argument("--reevaluation-blocks", type=positive_int, default=128)
    parser.add_argument(
        "--confirmation-blocks", type=positive_int, default=128, help="blocks of the first round"
    )
    parser.add_argument(
        "--confirm-half-width",
        type=positive_float,
        default=0.01,
        help="confirm until the 95%% interval of tuned minus defaults is this narrow (sb/hand)",
    )
    parser.add_argument(
        "--max-confirmation-blocks", type=positive_int, default=512, help="cap of the above"
    )
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


def apply_preset(args: argparse.Namespace) -> None:
    """Fill the options the user left unset from ``--preset``, then the plain defaults."""
    preset = PRESETS.get(args.preset or "", {})
    for key, value in preset.items():
        if getattr(args, key, None) is None:
            setattr(args, key, value)
    if args.agent is None:
        args.agent = DEFAULT_AGENT
    if getattr(args, "sampler", None) is None:
        args.sampler = "tpe"


def study_parts(args: argparse.Namespace) -> tuple[Any, Any]:
    """The spec and protocol the options describe; ``ValueError`` on bad values."""
    from tuning.evaluation import MatchProtocol
    from tuning.studies import make_spec

    options: dict[str, Any] = {}
    if args.per_round_alpha:
        options["per_round_alpha"] = True
    if args.curves_only:
        options["curves_only"] = True
    spec = make_spec(args.agent, ranges=parse_ranges(args.range), options=options)
    protocol = MatchProtocol(
        opponents=tuple(args.opponent or spec.default_opponents),
        seats=args.seats,
        deals_per_block=args.deals_per_block,
        blocks=args.blocks,
        seed=args.seed,
    )
    return spec, protocol


def run(args: argparse.Namespace) -> int:
    """Run the study, re-evaluate, confirm, write the results, say the answer."""
    from tqdm import tqdm

    from tuning.cli._optuna import quiet_optuna
    from tuning.launch import run_trials, trials_held
    from tuning.pool import EvaluationPool
    from tuning.report import finish_study, is_finished, write_outputs
    from tuning.study import StudySettings, prepare_study
    from tuning.summary import StudySummary

    quiet_optuna()

    parser: argparse.ArgumentParser = args.parser
    apply_preset(args)
    try:
        spec, protocol = study_parts(args)
        settings = StudySettings(
            study_name=args.study,
            trials=args.trials,
            storage=args.storage,
            results_dir=args.results,
            sampler=args.sampler,
            pruner=args.pruner,
            seed=args.sampler_seed,
            protocol=protocol,
            spec=spec,
            batch_size=args.batch_size,
            rounds=args.rounds,
            heartbeat_interval=args.heartbeat,
            grace_period=3 * args.heartbeat,
        )
        storage = settings.open()
        study = prepare_study(settings, storage)
    except ValueError as error:
        parser.error(str(error))
    held = trials_held(study)
    if held >= settings.trials:
        sys.stderr.write(
            f"study {args.study!r} already holds {held} trials: the total asked (--trials "
            f"{settings.trials}) is reached, no new trial runs (raise --trials to run more)\n"
        )
    progress = not args.quiet
    try:
        with EvaluationPool(spec, protocol, args.workers) as pool:
            study = run_trials(settings, progress=progress, storage=storage, pool=pool)
            if not is_finished(study):
                bar = tqdm(
                    unit="hand",
                    unit_scale=True,
                    desc="re-evaluation and confirmation",
                    file=sys.stderr,
                    disable=not progress,
                )
                with bar:
                    finish_study(
                        study,
                        pool,
                        top_k=args.top_k,
                        reevaluation_blocks=args.reevaluation_blocks,
                        confirmation_blocks=args.confirmation_blocks,
                        target_half_width=args.confirm_half_width,
                        max_confirmation_blocks=args.max_confirmation_blocks,
                        on_hands=bar.update,
                    )
        files = write_outputs(study, args.results / args.study)
    except (ValueError, RuntimeError) as error:
        sys.stderr.write(f"holdem-lab tune: error: {error}\n")
        return 1
    sys.stdout.write(f"study {args.study}: results in {files[-1].parent}\n")
    sys.stdout.write(StudySummary.from_study(study).verdict() + "\n")
    return 0
