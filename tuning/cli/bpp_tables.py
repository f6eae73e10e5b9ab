"""``holdem-lab bpp-tables``: count BPP's card-combinatorial tables from seeded random deals.

holdem-lab bpp-tables --deals 20000000 --seed 2000      # regenerates the shipped file
holdem-lab bpp-tables --deals 200000 --seed 7 --out /tmp/bpp_small.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import positive_int, seed


def add_parser(sub: Any) -> None:
    """Add the ``bpp-tables`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    parser = sub.add_parser(
        "bpp-tables",
        help="count BPP's hand-type tables from random deals (the shipped data)",
        description=(
            "Deal random heads-up hands and count the card-combinatorial tables of BPP's "
            "Bayesian network (current type given final type per round and board class, the "
            "two final types given the board, win given the final types). The counts depend "
            "only on --deals and --seed. Without --out, the shipped file is overwritten."
        ),
    )
    parser.add_argument("--deals", type=positive_int, required=True, help="random deals")
    parser.add_argument("--seed", type=seed, required=True, help="root seed (>= 0)")
    parser.add_argument(
        "--out", type=Path, metavar="FILE", help="output .npz (default: the shipped tables)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    from agents.bpp.tables import generate_counts, shipped_path

    out: Path = args.out if args.out is not None else shipped_path()
    counts = generate_counts(args.deals, args.seed, progress=not args.quiet)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        counts.save(out)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"holdem-lab bpp-tables: error: cannot write {out}: {error}\n")
        return 1
    sys.stdout.write(f"wrote {args.deals:,} deals (seed {args.seed}) to {out}\n")
    return 0
