"""``holdem-lab agents``: list the registered agent names, one a line.

The names are those of the ``holdem_lab.agents`` entry points (``pyproject.toml``); every command
that seats agents (``match``, ``tune --opponent``, ``train --opponents``) accepts them. A name
that also takes a parameter file (``NAME:FILE``: a study's results directory, its
``best_params.json`` or a plain parameter file; ``holdem_lab.agent_files``) is followed by that
form (a name that only takes one, such as ``ppo:RUN``, is listed by that form alone). The
module is not named ``agents`` so that it never reads as the ``agents`` package.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from envs.registry import agents_with_files, available_agents


def add_parser(sub: Any) -> None:
    """Add the ``agents`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    parser = sub.add_parser("agents", help="list the registered agent names")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Print the registered names (and ``NAME:FILE`` where a name takes a file)."""
    files = set(agents_with_files())
    names = sorted({*available_agents(), *files})
    width = max(map(len, names), default=0)
    for name in names:
        plain = name if name in available_agents() else ""
        form = f"  {name}:FILE" if name in files else ""
        sys.stdout.write(f"{plain:<{width}}{form}".rstrip() + "\n")
    return 0
