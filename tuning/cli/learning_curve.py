"""``holdem-lab learning-curve``: a paper agent's winnings with its opponent modelling on / off.

holdem-lab learning-curve bpp --opponent pair-raise --hands 3000 --matches 20 --seed 0
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import RUNS, positive_int, seed


def add_parser(sub: Any) -> None:
    """Add the ``learning-curve`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    from tuning.experiments.learning_switch import SWITCHES

    parser = sub.add_parser(
        "learning-curve",
        help="winnings over a match with an agent's opponent modelling on and off",
        description=(
            "Play MATCHES duplicate matches of HANDS hands per seating between AGENT and the "
            "opponent, with AGENT's learning on and then off on the same cards, and write the "
            "winnings per block of hands (95% CIs over matches) as CSV and PNG."
        ),
    )
    parser.add_argument("agent", choices=sorted(SWITCHES), help="agent with a learning switch")
    parser.add_argument("--opponent", required=True, help="registered agent name")
    parser.add_argument("--hands", type=positive_int, default=3000, help="hands per match")
    parser.add_argument("--matches", type=positive_int, default=20, help="matches (>= 2)")
    parser.add_argument("--block", type=positive_int, default=250, help="hands per point")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the first match")
    parser.add_argument(
        "--out",
        type=Path,
        default=RUNS / "training",
        help="directory (default runs/training, ignored by git; the committed figures are in "
        "results/training)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    from tuning.experiments.learning_switch import learning_curves, plot_switch, write_switch

    try:
        curves = learning_curves(
            args.agent,
            args.opponent,
            hands=args.hands,
            matches=args.matches,
            block=args.block,
            seed=args.seed,
            progress=not args.quiet,
        )
    except ValueError as error:
        sys.stderr.write(f"holdem-lab learning-curve: error: {error}\n")
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"learning-{args.agent}-vs-{args.opponent}-{args.hands}x{args.matches}"
    write_switch(stem.with_suffix(".csv"), curves)
    plot_switch(stem.with_suffix(".png"), curves)
    for label, estimate in (
        ("learning on ", curves.total_on),
        ("learning off", curves.total_off),
        ("gain on-off ", curves.total_gain),
    ):
        low, high = estimate.ci if estimate.ci else (estimate.mean, estimate.mean)
        sys.stdout.write(
            f"{label}: {estimate.mean:+.3f} sb/hand, 95% CI [{low:+.3f}, {high:+.3f}]\n"
        )
    sys.stdout.write(f"wrote {stem}.csv and {stem}.png\n")
    return 0
