"""``holdem-lab match``: a seeded (duplicate) match between registered agents."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from envs.game import Hand
from envs.match import play_match
from envs.registry import available_agents
from envs.rules import MAX_SEATS, MIN_SEATS
from tuning.cli._args import positive_int, seed

PROGRESS_MIN_HANDS = 2000
"""Matches longer than this show a progress bar on stderr, unless ``--quiet`` (and with
``--json`` only when stderr is a terminal)."""


def add_parser(sub: Any) -> None:
    """Add the ``match`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    match = sub.add_parser(
        "match",
        help="play a seeded (duplicate) match and report sb/hand with 95%% CIs",
        description=(
            "Play a seeded match, one agent per seat (2 to 10). In duplicate mode (the default) "
            "every deal is replayed with the agents rotated over all seats, so the number of "
            "hands is rounded up to a multiple of the number of agents."
        ),
    )
    match.add_argument("agents", nargs="+", metavar="AGENT", help="registered agent names")
    match.add_argument("--hands", type=positive_int, required=True, help="hands to play")
    match.add_argument("--seed", type=seed, required=True, help="root seed (>= 0)")
    match.add_argument(
        "--no-duplicate",
        dest="duplicate",
        action="store_false",
        help="deal every hand once instead of rotating the agents over the seats",
    )
    match.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    match.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    match.add_argument(
        "--acpc-log",
        type=Path,
        metavar="FILE",
        help="write every hand as an ACPC STATE line to FILE",
    )
    match.set_defaults(command=run, parser=match)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    names: list[str] = args.agents
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        parser.error(f"a match needs {MIN_SEATS} to {MAX_SEATS} agents, got {len(names)}")
    known = available_agents()
    unknown = [name for name in names if name not in known]
    if unknown:
        parser.error(
            f"unknown agent {', '.join(map(repr, unknown))}; registered agents: "
            f"{', '.join(known) or 'none (is holdem-lab installed with pip?)'}"
        )
    progress = (
        args.hands > PROGRESS_MIN_HANDS
        and not args.quiet
        and (not args.json or sys.stderr.isatty())
    )
    try:
        with contextlib.ExitStack() as stack:
            on_hand = None
            if args.acpc_log is not None:
                log = stack.enter_context(args.acpc_log.open("w", encoding="utf-8"))

                def on_hand(hand: Hand, seat_names: tuple[str, ...]) -> None:
                    log.write(hand.to_acpc(seat_names) + "\n")

            result = play_match(
                names,
                hands=args.hands,
                seed=args.seed,
                duplicate=args.duplicate,
                progress=progress,
                on_hand=on_hand,
            )
    except ValueError as error:  # e.g. an agent returned an illegal action
        sys.stderr.write(f"holdem-lab match: error: {error}\n")
        return 1
    except OSError as error:
        sys.stderr.write(f"holdem-lab match: error: cannot write the ACPC log: {error}\n")
        return 1
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), allow_nan=False) + "\n")
    else:
        sys.stdout.write(result.format_table() + "\n")
    return 0
