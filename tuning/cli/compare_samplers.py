"""``holdem-lab compare-samplers``: samplers at equal budgets in hands, on held-out deals.

    holdem-lab compare-samplers --samplers tpe greedy --seeds 0 1 2 --workers 2
    holdem-lab compare-samplers --preset carlton --workers 2   # greedy vs TPE over fp / cp
    holdem-lab compare-samplers --budget-hands 200000 --blocks 8 --deals-per-block 50 \\
        --holdout-blocks 16 --seeds 0 1 --out runs/tiny-comparison     # a quick look

Runs one study per (sampler, seed) of --agent's parameters (bpp by default) under OUT
(runs/sampler-comparison/ by default, ignored by git) with the same budget in hands, each on
the batched engine like holdem-lab tune. Then it plays every study's incumbents and the
agent's defaults on the same held-out deals and writes comparison.md (which sampler wins, with
an interval over seeds), comparison.json, regret.png (the incumbent's held-out value against
the hands spent) and holdout.png there. Re-running resumes the studies; other sizes need
another --out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import RUNS, positive_int, seed
from tuning.cli.tune import SAMPLERS, add_study_options, apply_preset, study_parts

DEFAULT_SAMPLERS = ("tpe", "cmaes", "gp", "random", "greedy")
PRESET_SAMPLERS = {"carlton": ("greedy", "tpe")}


def add_parser(sub: Any) -> None:
    """Add the ``compare-samplers`` sub-command."""
    parser = sub.add_parser(
        "compare-samplers",
        help="compare samplers at equal budgets in hands on held-out deals",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--samplers", nargs="+", choices=SAMPLERS, help="default: all five")
    parser.add_argument("--seeds", nargs="+", type=seed, default=[0, 1, 2, 3, 4])
    parser.add_argument(
        "--budget-hands",
        type=positive_int,
        default=4_096_000,
        help="hands each study may spend (no new batch once spent)",
    )
    add_study_options(parser)
    parser.add_argument("--holdout-blocks", type=positive_int, default=128)
    parser.add_argument("--out", type=Path, default=RUNS / "sampler-comparison")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="redraw comparison.md and the figures from OUT/comparison.json, playing nothing",
    )
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run the comparison and write its report."""
    from tuning.cli._optuna import quiet_optuna
    from tuning.compare import run_comparison
    from tuning.compare_report import write_report

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
    samplers = args.samplers or PRESET_SAMPLERS.get(args.preset or "", DEFAULT_SAMPLERS)
    args.sampler = samplers[0]  # unused by the comparison; keeps the preset from setting it
    apply_preset(args)
    try:
        spec, protocol = study_parts(args)
    except ValueError as error:
        parser.error(str(error))
    try:
        data = run_comparison(
            spec,
            samplers,
            args.seeds,
            budget_hands=args.budget_hands,
            protocol=protocol,
            holdout_blocks=args.holdout_blocks,
            results_dir=args.out,
            workers=args.workers,
            batch_size=args.batch_size,
            rounds=args.rounds,
            pruner=args.pruner,
            progress=not args.quiet,
        )
        files = write_report(data, args.out)
    except (ValueError, RuntimeError) as error:
        hint = (
            " (a comparison of other sizes needs another --out)" if "exists" in str(error) else ""
        )
        sys.stderr.write(f"holdem-lab compare-samplers: error: {error}{hint}\n")
        return 1
    sys.stdout.write("".join(f"{path}\n" for path in files))
    sys.stdout.write(write_summary_line(files[1]))
    return 0


def write_summary_line(markdown: Path) -> str:
    """The verdict line of ``comparison.md`` (its first bold line)."""
    for line in markdown.read_text().splitlines():
        if line.startswith("**"):
            return line.strip("*") + "\n"
    return ""
