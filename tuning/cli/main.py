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
import sys
from collections.abc import Callable

from envs.registry import available_agents
from tuning.cli import (
    bpp_tables,
    compare_samplers,
    ir_tables,
    learning_curve,
    loki_fit,
    match,
    plot,
    train,
    tune,
    worker,
)

COMMANDS = (
    match,
    ir_tables,
    loki_fit,
    tune,
    plot,
    worker,
    train,
    bpp_tables,
    compare_samplers,
    learning_curve,
)
"""The sub-command modules, each with ``add_parser(sub)`` that sets ``command=run``."""


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
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def _cmd_agents(args: argparse.Namespace) -> int:
    sys.stdout.write("".join(f"{name}\n" for name in available_agents()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
