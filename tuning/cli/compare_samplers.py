"""``holdem-lab compare-samplers``: Optuna's default sampler against the stochastic greedy search.

    holdem-lab compare-samplers --samplers tpe greedy --seeds 0 1 2 --trials 40 --workers 2

Runs one study per (sampler, seed) of --agent's parameters (bpp by default) under
results/<out>/ with equal hands budgets, plays each study's pick and the agent's defaults on
the same held-out deals, and writes comparison.md,
comparison.json and holdout.png there. Re-running resumes the studies.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import positive_int, seed
from tuning.studies import AGENTS, DEFAULT_AGENT


def add_parser(sub: Any) -> None:
    """Add the ``compare-samplers`` sub-command."""
    parser = sub.add_parser(
        "compare-samplers",
        help="compare samplers (e.g. tpe vs greedy) at equal budgets on held-out deals",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agent", default=DEFAULT_AGENT, choices=AGENTS)
    parser.add_argument("--samplers", nargs="+", default=["tpe", "greedy"])
    parser.add_argument("--seeds", nargs="+", type=seed, default=[0, 1, 2])
    parser.add_argument("--trials", type=positive_int, default=40)
    parser.add_argument(
        "--opponent", nargs="+", metavar="AGENT", help="default: the agent's study's default"
    )
    parser.add_argument("--deals-per-block", type=positive_int, default=250)
    parser.add_argument("--blocks", type=positive_int, default=40)
    parser.add_argument("--seed", type=seed, default=0, help="root seed of the deals")
    parser.add_argument("--holdout-blocks", type=positive_int, default=100)
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument("--out", type=Path, default=Path("results/sampler-comparison"))
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="redraw comparison.md and holdout.png from OUT/comparison.json, playing nothing",
    )
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run the comparison and write its report."""
    from tuning.cli._optuna import quiet_optuna
    from tuning.compare import run_comparison, write_report
    from tuning.evaluation import MatchProtocol
    from tuning.samplers import sampler_kind
    from tuning.studies import make_spec

    quiet_optuna()

    parser: argparse.ArgumentParser = args.parser
    if args.report_only:
        import json

        stored = args.out / "comparison.json"
        if not stored.exists():
            parser.error(f"no {stored}: run the comparison first")
        files = write_report(json.loads(stored.read_text()), args.out)
        sys.stdout.write("".join(f"{path}\n" for path in files))
        return 0
    try:
        for name in args.samplers:  # before the first study runs
            sampler_kind(name)
        spec = make_spec(args.agent)
        protocol = MatchProtocol(
            opponents=tuple(args.opponent or spec.default_opponents),
            deals_per_block=args.deals_per_block,
            blocks=args.blocks,
            seed=args.seed,
        )
    except ValueError as error:
        parser.error(str(error))
    try:
        data = run_comparison(
            spec,
            args.samplers,
            args.seeds,
            trials=args.trials,
            protocol=protocol,
            holdout_blocks=args.holdout_blocks,
            results_dir=args.out,
            workers=args.workers,
            progress=not args.quiet,
        )
        files = write_report(data, args.out)
    except (ValueError, RuntimeError) as error:
        sys.stderr.write(f"holdem-lab compare-samplers: error: {error}\n")
        return 1
    sys.stdout.write("".join(f"{path}\n" for path in files))
    return 0
