"""Argument types shared by the ``holdem-lab`` commands (argparse reports their errors)."""

from __future__ import annotations

import argparse
from pathlib import Path

RUNS = Path("runs")
"""Where the commands write unless told otherwise: ignored by git, so that a user's command
never rewrites the committed evidence in ``results/``."""


def positive_int(text: str) -> int:
    return _whole_number(text, minimum=1, requirement="must be at least 1")


def seed(text: str) -> int:
    return _whole_number(text, minimum=0, requirement="must be non-negative")


def _whole_number(text: str, *, minimum: int, requirement: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"{requirement}, got {value}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text}")
    return value
