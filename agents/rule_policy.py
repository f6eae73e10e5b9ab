"""The ``rule`` bot's policy, shared by its scalar form (``agents.baselines.RuleAgent``) and its
batched form (``agents.batched_baselines.BatchedRule``): the pre-flop classes of the hole cards
and the post-flop hand-strength thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import HOLDINGS
from envs.rules import Action

__all__ = ["RuleParams", "holding_classes", "preflop_class"]


@dataclass(frozen=True, kw_only=True)
class RuleParams:
    """Post-flop thresholds of ``RuleAgent`` (hand strength against one random holding)."""

    raise_threshold: float = 0.8
    """Bet or raise when HS is at least this (top fifth of holdings beaten)."""
    call_threshold: float = 0.5
    """Check or call when HS is at least this, whatever the price."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.call_threshold <= self.raise_threshold <= 1.0:
            raise ValueError(
                "RuleParams needs 0 <= call_threshold <= raise_threshold <= 1, got "
                f"call_threshold={self.call_threshold}, raise_threshold={self.raise_threshold}"
            )


_RAISE_HANDS = frozenset({(12, 11), (12, 10)})  # AK, AQ (suited or not); AJs, KQs below
_RAISE_SUITED = frozenset({(12, 9), (11, 10)})


def preflop_class(hole: tuple[int, int]) -> Action:
    """``RuleAgent``'s pre-flop rule: ``RAISE``, ``CALL`` (play) or ``FOLD`` (give up).

    * raise: pairs 77+, AK, AQ, AJs, KQs;
    * call: any other pair, two cards ten or higher, suited aces, suited connectors 54s+;
    * fold: everything else (the agent checks instead when checking is free).

    >>> from envs.cards import parse_cards
    >>> [preflop_class(parse_cards(h)).name for h in ("7c7d", "AhJh", "AhJd", "5s4s", "Kd7c")]
    ['RAISE', 'RAISE', 'CALL', 'CALL', 'FOLD']
    """
    high, low = sorted((hole[0] >> 2, hole[1] >> 2), reverse=True)
    suited = (hole[0] & 3) == (hole[1] & 3)
    if high == low:
        return Action.RAISE if high >= 5 else Action.CALL  # rank 5 is a seven
    if (high, low) in _RAISE_HANDS or (suited and (high, low) in _RAISE_SUITED):
        return Action.RAISE
    if low >= 8:  # ten or higher
        return Action.CALL
    if suited and (high == 12 or (high - low == 1 and low >= 2)):  # suited ace, 54s..KQs
        return Action.CALL
    return Action.FOLD


@cache
def holding_classes() -> npt.NDArray[np.int8]:
    """``preflop_class`` of every holding (``agents.strength.holdings.HOLDINGS`` order),
    computed once; read-only."""
    classes = np.array([preflop_class((int(a), int(b))) for a, b in HOLDINGS], dtype=np.int8)
    classes.flags.writeable = False
    return classes
