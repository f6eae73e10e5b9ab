"""The most a learner can win against a training run's opponent, or a bound on it.

Against a card-independent bot heads-up, the best response's value is known exactly
(``agents.best_response``; Johanson et al., "Accelerating best response calculation in large
extensive games", IJCAI 2011, compute such values for HULHE). Against the papers' agents
only a lower bound is known: what the local best response won against them (Lisy and
Bowling, "Equilibrium approximation quality of current no-limit poker bots", 2017), measured
once and shipped with its interval and command (``tuning/data/lbr_bounds.json``). Learning
curves draw the ceiling as a line and summaries report the fraction of it a learner reached.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from agents.best_response import NAMED_POLICIES, load_table
from agents.specs import params_data
from envs.rules import Rules

__all__ = ["Ceiling", "CeilingKind", "best_response_value", "ceiling_of", "fraction_of"]

BOUNDS_FILE = "lbr_bounds.json"
"""The shipped LBR bounds, in ``tuning/data``."""


class CeilingKind(enum.Enum):
    """What a ceiling's value is."""

    BEST_RESPONSE = "best response"
    """The exact best response's value: nothing wins more."""
    LBR_BOUND = "LBR lower bound"
    """What the local best response won: the best response wins at least this."""


@dataclass(frozen=True)
class Ceiling:
    """A value in sb/hand (mean of the two seats) to measure a learner's winnings against."""

    value: float
    kind: CeilingKind
    ci: tuple[float, float] | None = None
    """95% interval of a measured bound; ``None`` for an exact value."""
    session_deals: int | None = None
    """Deals per seating of a session in the bound's match (learning opponents are fresh at
    every session); ``None`` for an exact value (the bots do not learn)."""
    command: str | None = None
    """The command that measured the bound."""

    @property
    def label(self) -> str:
        """E.g. ``LBR lower bound +0.673``."""
        return f"{self.kind.value} {self.value:+.3f}"


def best_response_value(opponents: Sequence[str], rules: Rules) -> float | None:
    """The best response's winnings in sb/hand (mean of the two seats) against the single
    opponent ``opponents[0]`` under ``rules``, when a table of it is shipped or cached;
    ``None`` otherwise (several opponents, an agent that is not a card-independent bot, or a
    game without a table: computing one takes about a CPU-minute, so it is never done
    here)."""
    if len(opponents) != 1 or rules.num_seats != 2:
        return None
    policy = NAMED_POLICIES.get(opponents[0])
    if policy is None:
        return None
    try:
        table = load_table(policy, rules, compute=False)
    except LookupError:
        return None
    return sum(table.seat_chips) / 2 / table.rules.small_bet


def ceiling_of(opponents: Sequence[str], rules: Rules) -> Ceiling | None:
    """The exact best response against a card-independent bot, else the shipped LBR bound of
    the single heads-up opponent ``opponents[0]`` under the rules it was measured with: a
    registry name, or a ``NAME:FILE`` spec whose file holds exactly the parameters of a
    bound (the default study's tuned BPP); ``None`` when neither is known (several
    opponents, other parameters, other rules)."""
    exact = best_response_value(opponents, rules)
    if exact is not None:
        return Ceiling(exact, CeilingKind.BEST_RESPONSE)
    if len(opponents) != 1:
        return None
    spec = opponents[0]
    name, colon, path = spec.partition(":")
    if not colon:
        return lbr_bounds(rules).get(spec)
    bounds = _parameter_bounds(rules, name)
    if not bounds:
        return None
    try:
        given = params_data(path)
    except ValueError:
        return None  # the spec's own error is the registry's to raise
    return next((ceiling for params, ceiling in bounds if params == given), None)


def lbr_bounds(rules: Rules) -> dict[str, Ceiling]:
    """The shipped LBR bounds of the registry's agents (default parameters) by name; empty
    for rules they were not measured with."""
    return {
        entry["opponent"]: _ceiling(entry) for entry in _entries(rules) if "params" not in entry
    }


def _parameter_bounds(rules: Rules, name: str) -> list[tuple[dict[str, Any], Ceiling]]:
    """The bounds of agent ``name`` with other parameters (a study's tuned set)."""
    return [
        (entry["params"], _ceiling(entry))
        for entry in _entries(rules)
        if "params" in entry and entry["opponent"] == name
    ]


def _entries(rules: Rules) -> list[dict[str, Any]]:
    data = _bounds_data()
    measured_with = Rules(**{**data["rules"], "max_bets": tuple(data["rules"]["max_bets"])})
    return list(data["bounds"]) if rules == measured_with else []


def _ceiling(entry: dict[str, Any]) -> Ceiling:
    return Ceiling(
        float(entry["sb_per_hand"]),
        CeilingKind.LBR_BOUND,
        (float(entry["ci"][0]), float(entry["ci"][1])),
        int(_bounds_data()["session_deals"]),
        str(entry["command"]),
    )


@cache
def _bounds_data() -> dict[str, Any]:
    text = (resources.files("tuning") / "data" / BOUNDS_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def fraction_of(sb_per_hand: float, ceiling: float | None) -> float | None:
    """``sb_per_hand / ceiling``, or ``None`` without a positive ceiling."""
    if ceiling is None or ceiling <= 0:
        return None
    return sb_per_hand / ceiling
