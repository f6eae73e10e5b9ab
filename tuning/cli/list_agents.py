"""``holdem-lab agents``: list the registered agent names, one a line.

The names are those of the ``holdem_lab.agents`` entry points (``pyproject.toml``); every command
that seats agents (``match``, ``tune --opponent``, ``train --opponents``) accepts them. The module
is not named ``agents`` so that it never reads as the ``agents`` package.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from envs.registry import available_agents


def add_parser(sub: Any) -> None:
    """Add the ``agents`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    parser = sub.add_parser("agents", help="list the registered agent names")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Print the registered names."""
    sys.stdout.write("".join(f"{name}\n" for name in available_agents()))
    return 0
