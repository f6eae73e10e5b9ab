"""``holdem-lab loki-fit``: fit the Loki values the papers lost (see ``tuning.loki_fit``).

holdem-lab loki-fit preflop --deals 20000 --seed 1998 --out agents/data/loki_preflop.json
holdem-lab loki-fit ppotc --boards 40 --seed 1998
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import positive_int, seed


def compact_json(document: Any) -> str:
    """JSON with each innermost list (a [base, increment] pair) on one line."""
    text = json.dumps(document, indent=1)
    return (
        re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + " ".join(m[1].split()) + "]", text)
        + "\n"
    )


def add_parser(sub: Any) -> None:
    """Add the ``loki-fit`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    parser = sub.add_parser(
        "loki-fit",
        help="fit Loki's lost Table B.1 (pre-flop) or the PPOTc out weights",
        description=(
            "preflop: keep Papp's surviving tight/3-4 row of Table B.1 and fit the other pairs "
            "so that ten-handed Loki self-play plays 18/21/24% of hands (tight/moderate/"
            "loose); writes the table as JSON. ppotc: fit the PPOTc out weights to exact PPOT1 "
            "on random boards and print them with the agreement on other boards."
        ),
    )
    parser.add_argument("what", choices=("preflop", "ppotc"), help="which fit to run")
    parser.add_argument("--seed", type=seed, required=True, help="root seed (>= 0)")
    parser.add_argument(
        "--deals", type=positive_int, default=20_000, help="preflop: ten-handed deals per trial"
    )
    parser.add_argument(
        "--steps", type=positive_int, default=12, help="preflop: bisection steps per shift"
    )
    parser.add_argument(
        "--boards", type=positive_int, default=40, help="ppotc: fitting boards per street"
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help="preflop: JSON file to write")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from tuning import loki_fit

    parser: argparse.ArgumentParser = args.parser
    if args.what == "preflop":
        if args.out is None:
            parser.error("preflop needs --out FILE")
        with tqdm(
            total=3 * args.steps + 3, unit="trial", file=sys.stderr, disable=args.quiet
        ) as bar:

            def step(message: str) -> None:
                bar.set_postfix_str(message)
                bar.update(1)

            table, achieved = loki_fit.fit_preflop_table(
                deals=args.deals, seed=args.seed, steps=args.steps, on_step=step
            )
        document = table.to_json()
        document["vpip"] = {
            t.value: {
                "vpip": round(v.vpip, 4),
                "std_error": round(v.std_error, 4),
                "hands": v.hands,
            }
            for t, v in achieved.items()
        }
        try:
            args.out.write_text(compact_json(document), encoding="utf-8")
        except OSError as error:
            sys.stderr.write(f"holdem-lab loki-fit: error: cannot write {args.out}: {error}\n")
            return 1
        for tightness, estimate in achieved.items():
            low, high = estimate.ci
            sys.stdout.write(
                f"{tightness.value:<9} VPIP {estimate.vpip:.4f} (95% CI {low:.4f}..{high:.4f}, "
                f"{estimate.hands:,} seat-hands)\n"
            )
        return 0
    with tqdm(total=4 * args.boards, unit="board", file=sys.stderr, disable=args.quiet) as bar:
        fits = loki_fit.fit_ppotc(
            boards=args.boards, seed=args.seed, on_board=lambda: bar.update(1)
        )
    from agents.strength.ppotc import OutWeights

    names = list(OutWeights.__dataclass_fields__)
    for size, (weights, within, mae) in fits.items():
        street = "FLOP" if size == 3 else "TURN"
        body = ", ".join(f"{n}={w:.3f}" for n, w in zip(names, weights, strict=True))
        sys.stdout.write(f"{street}_WEIGHTS = OutWeights({body})\n")
        sys.stdout.write(
            f"# held-out {street.lower()}s: |PPOTc - PPOT1| <= 0.05 for {within:.1%} of "
            f"holdings, mean |difference| {mae:.4f}\n"
        )
    return 0
