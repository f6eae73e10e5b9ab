"""``holdem-lab crosstable``: every agent against every other, as a table, JSON and heat map.

holdem-lab crosstable rule bpp bpp-curves loki --hands 20000 --sessions 100
holdem-lab crosstable rule bpp bpp-curves loki --hands 20000 --out runs/crosstable
holdem-lab crosstable rule call raise random --seats 3 --hands 6000 --json
holdem-lab crosstable rule bpp loki call --hands 8000 --sessions 10 --half-width 0.02 --out DIR

With ``--out DIR`` every finished lineup is kept in ``DIR/lineups.jsonl``: the same command
run again after an interruption plays only the lineups still missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from envs.match import Estimator
from tuning.cli._args import add_match_options, positive_float, positive_int
from tuning.crosstable import Cell, Crosstable, crosstable
from tuning.crosstable_log import LineupLog

OUTPUTS = ("crosstable.md", "crosstable.json", "crosstable.png")
"""What ``--out DIR`` writes."""
LOG = "lineups.jsonl"
"""The finished lineups in ``--out DIR``, read back when the command is run again."""


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
    parser.add_argument("--seats", type=positive_int, default=2, help="seats per lineup (2-10)")
    add_match_options(parser, estimator=Estimator.AIVAT)
    parser.add_argument(
        "--half-width",
        type=positive_float,
        metavar="W",
        help="play a lineup longer (same session length) until every 95%% half-width is <= W",
    )
    parser.add_argument(
        "--max-hands",
        type=positive_int,
        metavar="N",
        help="with --half-width: the most hands of a lineup (default: 100 x --hands)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=f"write {', '.join(OUTPUTS)} into this directory (new files), keeping finished "
        f"lineups in {LOG} so that the same command resumes an interrupted run",
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

    try:
        log = None if args.out is None else LineupLog(args.out / LOG, _settings(args))
    except ValueError as error:
        parser.error(str(error))

    def report(done: int, total: int, cells: tuple[Cell, ...]) -> None:
        kept = False  # True: the lineup came from the log and was not played again
        if log is not None:
            kept = not log.append(cells)
        if not args.quiet:
            lineup = " vs ".join(cells[0].lineup)
            source = f", kept in {LOG}" if kept else ""
            hands = cells[0].hands
            sys.stderr.write(
                f"crosstable: {done}/{total} lineups ({lineup}, {hands:,} hands{source})\n"
            )

    try:
        table = crosstable(
            args.agents,
            hands=args.hands,
            seed=args.seed,
            seats=args.seats,
            sessions=args.sessions,
            estimator=args.estimator,
            engine=args.engine,
            half_width=args.half_width,
            max_hands=args.max_hands,
            known=None if log is None else log.known,
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


def _settings(args: argparse.Namespace) -> dict[str, object]:
    """What makes two runs' cells the same (the engines play identical matches)."""
    return {
        "seats": args.seats,
        "hands": args.hands,
        "seed": args.seed,
        "sessions": args.sessions,
        "estimator": args.estimator,
        "half_width": args.half_width,
        "max_hands": args.max_hands,
    }


def _write(table: Crosstable, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "crosstable.md").write_text("\n".join(table.markdown()) + "\n")
    (out / "crosstable.json").write_text(json.dumps(table.to_dict(), indent=2) + "\n")
    table.plot(out / "crosstable.png")
