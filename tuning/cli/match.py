"""``holdem-lab match``: a seeded (duplicate) match between registered agents.

holdem-lab match rule call --hands 20000                       # seed 0, one session
holdem-lab match bpp bpp-curves --hands 1000000 --sessions 1000 --estimator aivat
holdem-lab match rule call random raise --hands 8000 --json --history hands.phhs
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from envs.game import Hand
from envs.match import Estimator, play_match
from envs.phh import PHHWriter, check_phh_rules
from envs.registry import check_spec
from envs.rules import MAX_SEATS, MIN_SEATS, Rules
from tuning.cli._args import add_match_options, positive_int

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
            "hands is rounded up to a multiple of the number of agents (and of sessions)."
        ),
    )
    match.add_argument("agents", nargs="+", metavar="AGENT", help="agent names or NAME:FILE")
    match.add_argument("--hands", type=positive_int, required=True, help="hands to play")
    add_match_options(match, estimator=Estimator.RAW)
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
    match.add_argument(
        "--history",
        type=Path,
        metavar="FILE",
        help="write every hand to FILE in PokerKit's PHH format (a .phhs set, one per hand)",
    )
    match.set_defaults(command=run, parser=match)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    names: list[str] = args.agents
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        parser.error(f"a match needs {MIN_SEATS} to {MAX_SEATS} agents, got {len(names)}")
    for name in names:
        try:
            check_spec(name)
        except ValueError as error:
            parser.error(str(error))
    progress = (
        args.hands > PROGRESS_MIN_HANDS
        and not args.quiet
        and (not args.json or sys.stderr.isatty())
    )
    if args.history is not None:
        try:
            check_phh_rules(Rules(num_seats=len(names)))
        except ValueError as error:
            parser.error(str(error))
    try:
        with contextlib.ExitStack() as stack:
            writers: list[Callable[[Hand, tuple[str, ...]], None]] = []
            if args.acpc_log is not None:
                log = stack.enter_context(_open(args.acpc_log, "ACPC log"))

                def acpc(hand: Hand, seats: tuple[str, ...]) -> None:
                    log.write(hand.to_acpc(seats) + "\n")

                writers.append(acpc)
            if args.history is not None:
                stream = stack.enter_context(_open(args.history, "hand history"))
                writers.append(stack.enter_context(PHHWriter(stream)).write)

            def on_hand(hand: Hand, seat_names: tuple[str, ...]) -> None:
                for write in writers:
                    write(hand, seat_names)

            result = play_match(
                names,
                hands=args.hands,
                seed=args.seed,
                duplicate=args.duplicate,
                progress=progress,
                on_hand=on_hand if writers else None,
                sessions=args.sessions,
                engine=args.engine,
                estimator=args.estimator,
                keep_deals=False,
            )
    except ValueError as error:  # e.g. an agent returned an illegal action
        sys.stderr.write(f"holdem-lab match: error: {error}\n")
        return 1
    except _CannotWrite as error:
        sys.stderr.write(f"holdem-lab match: error: {error}\n")
        return 1
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), allow_nan=False) + "\n")
    else:
        sys.stdout.write(result.format_table() + "\n")
    return 0


class _CannotWrite(Exception):
    """A log file could not be opened or written."""


@contextlib.contextmanager
def _open(path: Path, what: str) -> Iterator[TextIO]:
    try:
        with path.open("w", encoding="utf-8") as handle:
            yield handle
    except OSError as error:
        raise _CannotWrite(f"cannot write the {what} {path}: {error}") from None
