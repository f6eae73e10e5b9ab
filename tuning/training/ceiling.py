"""The best-response value of a training run's opponents: the most a learner can win.

Against a card-independent bot heads-up, the best response's value is known exactly
(``agents.best_response``; Johanson et al., "Accelerating best response calculation in large
extensive games", IJCAI 2011, compute such values for HULHE). Learning curves draw it as a
line and summaries report the fraction of it a learner reached.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.best_response import NAMED_POLICIES, load_table
from envs.rules import Rules

__all__ = ["best_response_value", "fraction_of"]


def best_response_value(opponents: Sequence[str], rules: Rules) -> float | None:
    """The best response's winnings in sb/hand (mean of the two seats) against the single
    opponent ``opponents[0]`` under ``rules``, when a table of it is shipped or cached;
    ``None`` otherwise (several opponents, an agent that is not a card-independent bot, or a
    game without a table: computing one takes about 12 CPU-minutes, so it is never done
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


def fraction_of(sb_per_hand: float, ceiling: float | None) -> float | None:
    """``sb_per_hand / ceiling``, or ``None`` without a positive ceiling."""
    if ceiling is None or ceiling <= 0:
        return None
    return sb_per_hand / ceiling
