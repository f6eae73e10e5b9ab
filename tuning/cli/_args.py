"""Argument types shared by the ``holdem-lab`` commands (argparse reports their errors)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from envs.match import Engine, Estimator

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


def add_match_options(parser: Any, *, estimator: Estimator) -> None:
    """The options of a duplicate match that ``match`` and ``crosstable`` share: ``--seed``,
    ``--sessions``, ``--engine`` and ``--estimator`` (default ``estimator``)."""
    parser.add_argument(
        "--seed", type=seed, default=0, help="root seed of cards and decisions (default 0)"
    )
    parser.add_argument(
        "--sessions",
        type=positive_int,
        default=1,
        help="independent sessions of equal length, fresh agents in each (default 1: the "
        "whole match is one session); the batched engine plays them side by side",
    )
    parser.add_argument(
        "--engine",
        choices=[e.value for e in Engine],
        default=Engine.AUTO.value,
        help="scalar (one hand at a time) or batched (thousands of tables at once); both play "
        "the same hands; auto: batched when every agent has a batched form and there is "
        "enough to batch",
    )
    parser.add_argument(
        "--estimator",
        choices=[e.value for e in Estimator],
        default=estimator.value,
        help="aivat: also report AIVAT estimates (unbiased, lower variance)",
    )
