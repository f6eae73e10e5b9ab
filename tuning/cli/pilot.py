"""``holdem-lab pilot``: measure the paired noise that sizes a study.

    holdem-lab pilot --workers 2                       # BPP against bpp-curves
    holdem-lab pilot --opponent call --blocks 64       # before a study against call

Plays the defaults and three candidates at 5%, 15% and 50% of every range from them on the same
tuning blocks (the study's protocol options) and prints, per candidate, the paired difference
to the defaults, the standard deviation of its per-block differences (AIVAT-corrected and
raw), the same per deal, and the blocks a study needs for a paired standard error of
--target. Choose --blocks of holdem-lab tune from the near candidates' figure.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tuning.cli._args import positive_float, seed
from tuning.cli.tune import add_study_options, apply_preset, study_parts


def add_parser(sub: Any) -> None:
    """Add the ``pilot`` sub-command."""
    parser = sub.add_parser(
        "pilot",
        help="measure the paired noise of candidates against the defaults (sizes a study)",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_study_options(parser)
    parser.add_argument("--target", type=positive_float, default=0.005, help="paired SE goal")
    parser.add_argument("--pilot-seed", type=seed, default=0, help="seed of the directions")
    parser.add_argument("--quiet", action="store_true")
    parser.set_defaults(command=run, parser=parser, sampler="tpe")


def run(args: argparse.Namespace) -> int:
    """Run the pilot and print its table."""
    from tqdm import tqdm

    from tuning.pilot import run_pilot
    from tuning.pool import EvaluationPool

    parser: argparse.ArgumentParser = args.parser
    apply_preset(args)
    try:
        spec, protocol = study_parts(args)
    except ValueError as error:
        parser.error(str(error))
    total = 4 * protocol.blocks * protocol.hands_per_block
    bar = tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr, disable=args.quiet)
    try:
        with bar, EvaluationPool(spec, protocol, args.workers) as pool:
            _, rows = run_pilot(
                pool, blocks=protocol.blocks, target=args.target, seed=args.pilot_seed,
                on_hands=bar.update,
            )  # fmt: skip
            cpu = pool.cpu_seconds
    except (ValueError, RuntimeError) as error:
        sys.stderr.write(f"holdem-lab pilot: error: {error}\n")
        return 1
    out = [
        f"{spec.title} against {', '.join(protocol.opponents)}: {protocol.blocks} blocks x "
        f"{protocol.deals_per_block} deals, {total:,} hands in {cpu:,.0f} CPU-s "
        f"({total / max(cpu, 1e-9):,.0f} hands per CPU-second)",
        "distance | minus defaults | paired SD per block (AIVAT / raw) | per deal | "
        f"blocks for SE {args.target:g}",
    ]
    for r in rows:
        out.append(
            f"{r.distance:>8.0%} | {r.diff:+14.4f} | {r.block_sd:.4f} / {r.raw_block_sd:.4f} "
            f"| {r.deal_sd:.2f} / {r.raw_deal_sd:.2f} | {r.blocks_needed:,}"
        )
    sys.stdout.write("\n".join(out) + "\n")
    return 0
