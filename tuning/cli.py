"""The ``holdem-lab`` command line.

    holdem-lab agents                                  # the registered agent names
    holdem-lab match rule call --hands 4000 --seed 1   # a duplicate match, as a table
    holdem-lab match rule call --hands 4000 --seed 1 --json

Errors in the arguments (unknown agent, ``--hands 0``, ...) print a one-line message on stderr
and exit with status 2, as argparse does; a failure during the match (an agent returning an
illegal action) prints its reason and exits with status 1. There is no traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

from envs.game import Hand
from envs.match import play_match
from envs.registry import available_agents
from envs.rules import MAX_SEATS, MIN_SEATS

PROGRESS_MIN_HANDS = 2000
"""Matches longer than this show a progress bar on stderr, unless ``--quiet`` (and with
``--json`` only when stderr is a terminal)."""


def main(argv: list[str] | None = None) -> int:
    """Run the ``holdem-lab`` command line; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        command: Callable[[argparse.Namespace], int] = args.command
        return command(args)
    except SystemExit as exit_:  # argparse's usage errors (status 2) and --help (status 0)
        return exit_.code if isinstance(exit_.code, int) else 1
    except KeyboardInterrupt:
        sys.stderr.write("holdem-lab: interrupted\n")
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holdem-lab",
        description="Fixed-limit hold'em lab: seeded matches between registered agents.",
    )
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    agents = sub.add_parser("agents", help="list the registered agent names")
    agents.set_defaults(command=_cmd_agents, parser=agents)

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
    match.add_argument("--hands", type=_positive_int, required=True, help="hands to play")
    match.add_argument("--seed", type=_seed, required=True, help="root seed (>= 0)")
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
    match.set_defaults(command=_cmd_match, parser=match)
    return parser


def _cmd_agents(args: argparse.Namespace) -> int:
    sys.stdout.write("".join(f"{name}\n" for name in available_agents()))
    return 0


def _cmd_match(args: argparse.Namespace) -> int:
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


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative, got {value}")
    return value


if __name__ == "__main__":
    sys.exit(main())
