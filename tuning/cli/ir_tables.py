"""``holdem-lab ir-tables``: regenerate Papp's pre-flop income-rate tables by roll-out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import positive_int, seed

DEFAULT_DEALS = 1_000_000
"""Deals per hand type, as in Papp (1998) section 5.1."""


def add_parser(sub: Any) -> None:
    """Add the ``ir-tables`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    parser = sub.add_parser(
        "ir-tables",
        help="regenerate the income-rate tables IR2..IR10 by roll-out (Papp 1998)",
        description=(
            "Roll out every one of the 169 starting-hand types against 1..9 always-calling "
            "opponents and write IR x1000 (IR = N * pot share - 1) with standard errors, the "
            "seed and the deal count as JSON. The shipped file is agents/data/ir_tables.json."
        ),
    )
    parser.add_argument(
        "--deals",
        type=positive_int,
        default=DEFAULT_DEALS,
        help=f"deals per hand type (default {DEFAULT_DEALS:,}, as in the paper)",
    )
    parser.add_argument("--seed", type=seed, required=True, help="root seed (>= 0)")
    parser.add_argument(
        "--max-players",
        type=positive_int,
        default=10,
        help="largest table size N (2..10); all smaller sizes come from the same deals",
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="JSON file to write"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from agents.strength.income_rate import MAX_PLAYERS, MIN_PLAYERS, income_rate_tables

    parser: argparse.ArgumentParser = args.parser
    if not MIN_PLAYERS <= args.max_players <= MAX_PLAYERS:
        parser.error(f"--max-players must be in {MIN_PLAYERS}..{MAX_PLAYERS}")
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    with tqdm(total=169, unit="type", file=sys.stderr, disable=args.quiet) as bar:
        tables = income_rate_tables(
            deals=args.deals,
            seed=args.seed,
            max_players=args.max_players,
            on_type=lambda _: bar.update(1),
        )
    try:
        args.out.write_text(tables.dumps(), encoding="utf-8")
    except OSError as error:
        sys.stderr.write(f"holdem-lab ir-tables: error: cannot write {args.out}: {error}\n")
        return 1
    return 0
