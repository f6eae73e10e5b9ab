"""Loki's pre-flop betting (Papp 1998 section 6.1): income rate against position thresholds.

At its first pre-flop decision Loki picks one strategy and follows it for the rest of the round:

1. ``position`` = active players to act before the small blind's turn comes round again
   (button 0, big blind ``num_inpot - 2``, small blind ``num_inpot - 1``);
2. ``E_num_players = num_guaranteed + probability_play * (num_inpot - num_guaranteed)``
   (eq. 6.2), rounded, selects the group "2", "3-4" or "5+" and with it the income-rate table
   IR2, IR4 or IR7;
3. the thresholds ``base + increment * position`` (eq. 6.1) of Make1, Make2 and Make4 for the
   group and the tightness come from Table B.1 (``PreflopTable``); the small blind also has
   fixed Call1 / Call2 thresholds;
4. the most aggressive strategy whose threshold the hand's IR reaches is chosen (Fig. 6.1 is
   lost; our reconstruction from Papp's worked example and Pena's summary: Make4, Make2,
   [small blind: Call2], Make1, [small blind: Call1], else Make0).

Only the tight / "3-4 players" row of Table B.1 survives; the shipped table keeps it and fits the
rest (``holdem-lab loki-fit preflop``), see ``agents/data/loki_preflop.json`` and
``agents/loki/README.md``. The row is in IR4 units; ``group_lines`` carries IR4 units into each
group's table, and ``PreflopTable.shifted`` moves one tightness's thresholds by IR4 units (the
pre-flop knob ``LokiParams.preflop_shift``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

import numpy as np

from agents.loki.params import Tightness
from agents.strength.holdings import PAIR_INDEX
from agents.strength.income_rate import load_income_rates
from envs.rules import Action, Street
from envs.view import PlayerView

__all__ = [
    "Group",
    "PreflopStrategy",
    "PreflopTable",
    "group_lines",
    "group_of",
    "load_preflop_table",
    "preflop_action",
    "preflop_situation",
    "select_strategy",
]

DATA_FILE = "loki_preflop.json"


class Group(Enum):
    """Expected number of players [PAPP-6.1], with the IR table each group uses."""

    TWO = "2"
    THREE_FOUR = "3-4"
    FIVE_PLUS = "5+"

    @property
    def players(self) -> int:
        """Table size ``N`` of the income-rate table IR<N> used for the group."""
        return {"2": 2, "3-4": 4, "5+": 7}[self.value]


class PreflopStrategy(IntEnum):
    """Pre-flop strategies, least aggressive first [PAPP-6.1], [PAPP-B]."""

    MAKE0 = 0
    """Check if free, otherwise fold."""
    CALL1 = 1
    """Fold to two bets or more unless already in voluntarily this round; else check/call."""
    MAKE1 = 2
    """Like Call1, but bet if nobody has bet (never pre-flop: the big blind is a bet)."""
    CALL2 = 3
    """Always check or call."""
    MAKE2 = 4
    """Raise while fewer than two bets were made this round, otherwise call."""
    MAKE4 = 5
    """Raise until the betting is capped, otherwise call."""


_THRESHOLD_STRATEGIES = (PreflopStrategy.MAKE1, PreflopStrategy.MAKE2, PreflopStrategy.MAKE4)


@dataclass(frozen=True, eq=False)  # hashed by identity: cached per object
class PreflopTable:
    """Table B.1: [base, increment] per (tightness, group, strategy), plus small-blind calls."""

    lines: dict[tuple[Tightness, Group, PreflopStrategy], tuple[float, float]]
    """``(base, increment)`` of Make1, Make2 and Make4 for every tightness and group."""
    small_blind: dict[tuple[Tightness, Group], tuple[float, float]]
    """Fixed small-blind ``(Call1, Call2)`` thresholds per tightness and group (ours)."""
    source: str = ""
    """How the table was obtained (the command that fitted it)."""

    def __post_init__(self) -> None:
        for tightness in Tightness:
            for group in Group:
                for strategy in _THRESHOLD_STRATEGIES:
                    if (tightness, group, strategy) not in self.lines:
                        raise ValueError(
                            f"preflop table lacks {tightness.value}/{group.value}/{strategy.name}"
                        )
                if (tightness, group) not in self.small_blind:
                    raise ValueError(
                        f"preflop table lacks small blind {tightness.value}/{group.value}"
                    )
                pairs = [self.lines[tightness, group, s] for s in _THRESHOLD_STRATEGIES]
                pairs.append(self.small_blind[tightness, group])
                if not all(math.isfinite(value) for pair in pairs for value in pair):
                    raise ValueError(
                        f"{tightness.value}/{group.value}: thresholds must be finite, got "
                        f"Make1, Make2, Make4 (base, increment), small blind (Call1, Call2) "
                        f"{pairs}"
                    )
                bases = [pair[0] for pair in pairs[:3]]
                if not bases[0] <= bases[1] <= bases[2]:
                    raise ValueError(
                        f"{tightness.value}/{group.value}: bases must grow from Make1 to Make4, "
                        f"got {bases}"
                    )

    def threshold(
        self, tightness: Tightness, group: Group, strategy: PreflopStrategy, position: int
    ) -> float:
        """``base + increment * position`` (Papp eq. 6.1)."""
        base, increment = self.lines[tightness, group, strategy]
        return base + increment * position

    def shifted(self, tightness: Tightness, shift: float) -> PreflopTable:
        """This table with ``tightness``'s thresholds lowered by ``shift`` IR4 units (x1000).

        Every threshold of the tightness moves: the Make1, Make2 and Make4 bases and the small
        blind's Call1 / Call2, in group ``g`` by ``b_g shift`` (``b_g`` the slope of the group's
        line ``IRg = a + b IR4``, ``group_lines``), as ``holdem-lab loki-fit preflop`` shifts a
        tightness. The increments and the other tightnesses stay. Positive is looser; a shift
        of 0 returns this table itself.

        Raises:
            ValueError: if ``shift`` is not a finite number. Any finite shift is valid (the
                thresholds move together and keep their order) unless it is so large (about
                1.5e308 IR4 units) that a threshold overflows, which the new table refuses.
        """
        given: object = shift  # checked as the user may have passed it
        if (
            isinstance(given, bool)
            or not isinstance(given, int | float)
            or not math.isfinite(given)
        ):
            raise ValueError(f"shift must be a finite number of IR4 units, got {shift!r}")
        if shift == 0.0:
            return self
        lines = dict(self.lines)
        small_blind = dict(self.small_blind)
        for group, (_, slope) in group_lines().items():
            down = slope * shift
            for strategy in _THRESHOLD_STRATEGIES:
                base, increment = lines[tightness, group, strategy]
                lines[tightness, group, strategy] = (base - down, increment)
            call1, call2 = small_blind[tightness, group]
            small_blind[tightness, group] = (call1 - down, call2 - down)
        source = f"{self.source}, {tightness.value} shifted by {shift:+g} IR4 units"
        return PreflopTable(lines=lines, small_blind=small_blind, source=source)

    def to_json(self) -> dict[str, Any]:
        """The table as the JSON document shipped in ``agents/data``."""
        lines: dict[str, Any] = {}
        for (tightness, group, strategy), pair in self.lines.items():
            entry = lines.setdefault(tightness.value, {}).setdefault(group.value, {})
            entry[strategy.name.lower()] = [round(pair[0], 1), round(pair[1], 1)]
        for (tightness, group), (call1, call2) in self.small_blind.items():
            entry = lines[tightness.value][group.value]
            entry["sb_call1"], entry["sb_call2"] = round(call1, 1), round(call2, 1)
        return {"source": self.source, "thresholds": lines}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PreflopTable:
        """Parse ``to_json`` output; ``ValueError`` on a malformed document."""
        lines: dict[tuple[Tightness, Group, PreflopStrategy], tuple[float, float]] = {}
        small: dict[tuple[Tightness, Group], tuple[float, float]] = {}
        try:
            for t_name, groups in data["thresholds"].items():
                tightness = Tightness(t_name)
                for g_name, entry in groups.items():
                    group = Group(g_name)
                    for strategy in _THRESHOLD_STRATEGIES:
                        base, increment = entry[strategy.name.lower()]
                        lines[tightness, group, strategy] = (float(base), float(increment))
                    small[tightness, group] = (float(entry["sb_call1"]), float(entry["sb_call2"]))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"malformed pre-flop table: {error!r}") from None
        return cls(lines=lines, small_blind=small, source=str(data.get("source", "")))


@cache
def load_preflop_table() -> PreflopTable:
    """The shipped Table B.1 (``agents/data/loki_preflop.json``), read once per process."""
    text = resources.files("agents").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    return PreflopTable.from_json(json.loads(text))


@cache
def group_lines() -> Mapping[Group, tuple[float, float]]:
    """``(a, b)`` of the least-squares line ``IRg = a + b IR4`` per group (ours).

    Fitted over the holdings with IR4 >= -100, where thresholds live; the "3-4" group's table
    is IR4 itself, ``(0, 1)``. Table B.1's surviving row is in IR4 units (Papp 1998 section
    6.1): these lines carry it, and shifts in IR4 units, into the IR2 and IR7 tables.
    """
    tables = load_income_rates()
    ir4 = tables.of_holdings(4)
    keep = ir4 >= -100
    lines = {}
    for group in Group:
        slope, intercept = np.polyfit(ir4[keep], tables.of_holdings(group.players)[keep], 1)
        lines[group] = (float(intercept), float(slope))
    lines[Group.THREE_FOUR] = (0.0, 1.0)
    return MappingProxyType(lines)


def small_blind_seat(view: PlayerView) -> int:
    """The seat that posts the small blind (the button heads-up)."""
    n = view.rules.num_seats
    return view.button if n == 2 else (view.button + 1) % n


def preflop_situation(view: PlayerView) -> tuple[int, int, int]:
    """``(position, num_inpot, num_guaranteed)`` of the seat to act [PAPP-6.1].

    ``num_guaranteed`` counts the active seats that have put chips in (blinds, callers,
    raisers) plus the seat itself.
    """
    n = view.rules.num_seats
    sb = small_blind_seat(view)
    active = [not f for f in view.folded]
    position = 0
    for k in range(1, n):
        seat = (view.seat + k) % n
        if seat == sb:
            break
        position += active[seat]
    guaranteed = sum(
        1 for s in range(n) if active[s] and (view.contributions[s] > 0 or s == view.seat)
    )
    return position, sum(active), guaranteed


def group_of(expected_players: float) -> Group:
    """Group of ``E_num_players`` rounded to the nearest integer (halves round up)."""
    rounded = math.floor(expected_players + 0.5)
    if rounded <= 2:
        return Group.TWO
    return Group.THREE_FOUR if rounded <= 4 else Group.FIVE_PLUS


def select_strategy(
    view: PlayerView,
    table: PreflopTable,
    tightness: Tightness,
    probability_play: float,
) -> PreflopStrategy:
    """The strategy of Papp's Fig. 6.1 for the seat to act (call at its first decision)."""
    position, inpot, guaranteed = preflop_situation(view)
    group = group_of(guaranteed + probability_play * (inpot - guaranteed))
    ir = load_income_rates().of_holdings(group.players)[PAIR_INDEX[view.hole[0], view.hole[1]]]
    small_blind = view.seat == small_blind_seat(view)
    call1, call2 = table.small_blind[tightness, group]

    def reaches(strategy: PreflopStrategy) -> bool:
        return bool(ir >= table.threshold(tightness, group, strategy, position))

    if reaches(PreflopStrategy.MAKE4):
        return PreflopStrategy.MAKE4
    if reaches(PreflopStrategy.MAKE2):
        return PreflopStrategy.MAKE2
    if small_blind and ir >= call2:
        return PreflopStrategy.CALL2
    if reaches(PreflopStrategy.MAKE1):
        return PreflopStrategy.MAKE1
    if small_blind and ir >= call1:
        return PreflopStrategy.CALL1
    return PreflopStrategy.MAKE0


def preflop_action(strategy: PreflopStrategy, view: PlayerView) -> Action:
    """The action ``strategy`` takes in ``view``: a raise only where raising is legal (at the
    cap, or short of chips, the raising strategies call), a fold only facing a bet.

    "Costs two bets or more" is read as "more than one bet to add", which for the small blind
    makes Call1 a call of half a bet and Call2 of one and a half [PAPP-6.1].

    Raises:
        ValueError: if it is not this seat's turn, or (a defect of the rules) the action is
            not legal in ``view``.
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} is not to act in hand {view.hand_id}")
    can_raise = Action.RAISE in legal
    invested = any(
        a.street == Street.PREFLOP and a.seat == view.seat and a.amount > 0 for a in view.actions
    )
    if strategy == PreflopStrategy.MAKE0:
        choice = Action.CALL if view.to_call == 0 else Action.FOLD
    elif strategy in (PreflopStrategy.CALL1, PreflopStrategy.MAKE1):
        if strategy == PreflopStrategy.MAKE1 and view.num_bets == 0 and can_raise:
            choice = Action.RAISE
        elif view.to_call > view.bet_size and not invested:
            choice = Action.FOLD
        else:
            choice = Action.CALL
    elif strategy == PreflopStrategy.CALL2:
        choice = Action.CALL
    elif strategy == PreflopStrategy.MAKE2:
        choice = Action.RAISE if view.num_bets < 2 and can_raise else Action.CALL
    else:
        choice = Action.RAISE if can_raise else Action.CALL
    if choice not in legal:
        raise ValueError(
            f"pre-flop strategy {strategy.name} chose {choice.name}, which is not legal for "
            f"seat {view.seat} (to call {view.to_call}, legal "
            f"{', '.join(a.name for a in legal)})"
        )
    return choice
