"""The ``holdem-lab`` command line: one sub-command per module of this package.

    holdem-lab agents                                  # the registered agent names
    holdem-lab match rule call --hands 4000 --seed 1   # a duplicate match, as a table
    holdem-lab tune                                    # the default study of BPP -> runs/default/
    holdem-lab tune --agent loki --study loki-demo     # ... or of Loki's
    holdem-lab worker --study big --storage postgresql://...   # join a study from any machine
    holdem-lab plot --study demo                       # redraw a study's files
    holdem-lab compare-samplers                        # samplers at equal budgets in hands
    holdem-lab pilot --opponent call                   # the paired noise that sizes a study
    holdem-lab transfer --studies a b --opponents call raise   # tuned for X, played vs Y
    holdem-lab train --opponents call --steps 200000 --seed 1  # masked PPO (rl extra)
    holdem-lab learning-curve bpp --opponent pair-raise        # opponent modelling on / off
    holdem-lab best-response raise                     # exact best-response value (exploitability)
    holdem-lab ir-tables / bpp-tables / loki-fit       # regenerate the agents' shipped data

``holdem-lab COMMAND --help`` describes each. Errors in the arguments (unknown agent,
``--hands 0``, ...) print a one-line message on stderr and exit with status 2, as argparse
does; a failure while the command runs (an agent returning an illegal action, an unreadable
storage) prints its reason and exits with status 1. There is no traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from tuning.cli import (
    best_response,
    bpp_tables,
    compare_samplers,
    crosstable,
    ir_tables,
    learning_curve,
    list_agents,
    loki_fit,
    match,
    pilot,
    plot,
    train,
    transfer,
    tune,
    worker,
)

COMMANDS = (
    list_agents,
    match,
    crosstable,
    ir_tables,
    loki_fit,
    tune,
    pilot,
    plot,
    worker,
    train,
    bpp_tables,
    compare_samplers,
    transfer,
    learning_curve,
    best_response,
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
        description=(
            "Fixed-limit hold'em lab: seeded matches between registered agents, Optuna tuning "
            "studies of the agents' parameters, learners, and the agents' shipped tables."
        ),
    )
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


if __name__ == "__main__":
    sys.exit(main())
