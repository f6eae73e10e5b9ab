"""``holdem-lab crosstable``: every agent against every other, as a table, JSON and heat map.

holdem-lab crosstable rule bpp bpp-curves loki --hands 20000 --sessions 100
holdem-lab crosstable rule bpp bpp-curves loki --hands 20000 --out results/crosstable-run
holdem-lab crosstable rule call raise random --seats 3 --hands 6000 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from envs.match import Engine, Estimator
from tuning.cli._args import positive_int, seed
from tuning.crosstable import Crosstable, crosstable

OUTPUTS = ("crosstable.md", "crosstable.json", "crosstable.png")
"""What ``--out DIR`` writes (the heat map for heads-up tables only)."""


def add_parser(sub: Any) -> None:
    """Add the ``crosstable`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    parser = sub.add_parser(
        "crosstable",
        help="every agent against every other (duplicate, AIVAT): table, JSON, heat map",
        description=(
            "Play every pair of the agents (or every lineup of --seats agents) in a duplicate "
            "match on the same deals, and report each agent's winnings against each other "
            "with 95% intervals (AIVAT by default)."
        ),
    )
    parser.add_argument("agents", nargs="+", metavar="AGENT", help="agent names or NAME:FILE")
    parser.add_argument("--hands", type=positive_int, required=True, help="hands per lineup")
    parser.add_argument("--seed", type=seed, default=0, help="root seed of every lineup's deals")
    parser.add_argument("--seats", type=positive_int, default=2, help="seats per lineup (2-10)")
    parser.add_argument(
        "--sessions", type=positive_int, default=1, help="independent sessions per lineup"
    )
    parser.add_argument(
        "--estimator", choices=[e.value for e in Estimator], default=Estimator.AIVAT.value
    )
    parser.add_argument("--engine", choices=[e.value for e in Engine], default=Engine.AUTO.value)
    parser.add_argument(
        "--out", type=Path, help=f"write {', '.join(OUTPUTS)} into this directory (new files)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    if args.out is not None:
        taken = [name for name in OUTPUTS if (args.out / name).exists()]
        if taken:
            parser.error(f"{args.out} already holds {', '.join(taken)}; choose a new directory")

    def report(done: int, total: int, lineup: tuple[str, ...]) -> None:
        if not args.quiet:
            sys.stderr.write(f"crosstable: {done}/{total} lineups ({' vs '.join(lineup)})\n")

    try:
        table = crosstable(
            args.agents,
            hands=args.hands,
            seed=args.seed,
            seats=args.seats,
            sessions=args.sessions,
            estimator=args.estimator,
            engine=args.engine,
            on_lineup=report,
        )
    except ValueError as error:
        parser.error(str(error))
    if args.out is not None:
        _write(table, args.out)
    if args.json:
        sys.stdout.write(json.dumps(table.to_dict(), allow_nan=False) + "\n")
    else:
        sys.stdout.write("\n".join(table.markdown()) + "\n")
    return 0


def _write(table: Crosstable, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "crosstable.md").write_text("\n".join(table.markdown()) + "\n")
    (out / "crosstable.json").write_text(json.dumps(table.to_dict(), indent=2) + "\n")
    if table.seats == 2:
        table.plot(out / "crosstable.png")
