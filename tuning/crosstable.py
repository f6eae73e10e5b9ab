"""Every agent against every other: duplicate matches over every lineup, in one table.

``crosstable(specs, hands=..., seed=...)`` plays, for ``seats = 2``, every unordered pair of
the agents (agent specs: registry names or ``NAME:FILE``) in a duplicate match of ``hands``
hands; for ``seats = K > 2`` every K-agent lineup. All lineups play the same deals (one root
seed), so differences between cells are not differences of luck in the cards. Each cell is the
row agent's winnings in sb/hand against the column agent (heads-up) with its 95% interval, the
AIVAT estimate where asked (``estimator="aivat"``, the default). ``Crosstable`` renders it as
a markdown table, a JSON object and a heat map (matplotlib), rows sorted by mean winnings.

With ``half_width=W`` a lineup whose widest 95% half-width exceeds ``W`` is played again, from
its first deal, on more hands of the same session length (the width shrinks as one over the
square root of the hands), until it meets ``W`` or reaches ``max_hands``; every cell stays one
seeded duplicate match that ``play_match`` (``holdem-lab match``) replays with the cell's hands
and sessions. Lineups given in ``known`` (cells of an earlier, interrupted run with the same
settings) are not played again.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from envs.match import AgentResult, play_match
from envs.registry import check_spec
from envs.rules import MAX_SEATS, Rules

__all__ = ["Cell", "Crosstable", "cell_dict", "cell_from_dict", "crosstable"]


@dataclass(frozen=True)
class Cell:
    """One agent's result in one lineup."""

    agent: str
    lineup: tuple[str, ...]
    sb_per_hand: float
    """The estimate shown: AIVAT's when the table was asked with it, else the raw one."""
    half_width: float
    """Half the 95% interval of ``sb_per_hand``."""
    raw_sb_per_hand: float
    hands: int
    sessions: int
    """Sessions of the cell's match (grows with its hands when a lineup was played longer)."""


@dataclass(frozen=True)
class Crosstable:
    """The results of every lineup of ``agents`` (see the module)."""

    agents: tuple[str, ...]
    seats: int
    hands: int
    """Hands per lineup asked (a lineup played longer to meet ``half_width`` has more)."""
    seed: int
    sessions: int
    estimator: str
    cells: tuple[Cell, ...]
    half_width: float | None = None
    """The 95% half-width every cell was asked to meet, if any."""
    max_hands: int | None = None
    """The most hands a lineup could be played to meet ``half_width``."""

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """Heads-up: ``(value, half_width)`` matrices, row agent against column agent in the
        order of ``ranked()`` (NaN on the diagonal)."""
        if self.seats != 2:
            raise ValueError("a matrix needs heads-up lineups (seats=2)")
        order = self.ranked()
        n = len(order)
        value, width = np.full((n, n), np.nan), np.full((n, n), np.nan)
        index = {name: i for i, name in enumerate(order)}
        for cell in self.cells:
            other = next(name for name in cell.lineup if name != cell.agent)
            value[index[cell.agent], index[other]] = cell.sb_per_hand
            width[index[cell.agent], index[other]] = cell.half_width
        return value, width

    def ranked(self) -> tuple[str, ...]:
        """The agents, best mean first."""
        return tuple(name for name, _, _ in self.means())

    def means(self) -> list[tuple[str, float, float]]:
        """Each agent's mean over its lineups, with the half-width of that mean (lineups
        treated as independent estimates), best first."""
        rows = []
        for name in self.agents:
            mine = [cell for cell in self.cells if cell.agent == name]
            mean = sum(c.sb_per_hand for c in mine) / len(mine)
            width = math.sqrt(sum(c.half_width**2 for c in mine)) / len(mine)
            rows.append((name, mean, width))
        return sorted(rows, key=lambda row: -row[1])

    def wide(self) -> tuple[Cell, ...]:
        """The cells whose half-width exceeds ``half_width`` (none when it was not asked)."""
        if self.half_width is None:
            return ()
        return tuple(cell for cell in self.cells if cell.half_width > self.half_width)

    def hands_played(self) -> str:
        """The hands per lineup, as shown: one number, or the range over the lineups."""
        low = min(cell.hands for cell in self.cells)
        high = max(cell.hands for cell in self.cells)
        return f"{low:,}" if low == high else f"{low:,} to {high:,}"

    def markdown(self) -> list[str]:
        """The table (heads-up: the matrix; else every lineup) and the means, as markdown."""
        unit = "AIVAT sb/hand" if self.estimator == "aivat" else "sb/hand"
        target = (
            ""
            if self.half_width is None
            else f", each lineup played until its half-width is at most {self.half_width:g} "
            f"(at most {self.max_hands:,} hands)"
        )
        lines = [
            f"{len(self.agents)} agents, {self.seats} seats, {self.hands_played()} hands per "
            f"lineup (duplicate, sessions of {self.hands / self.sessions:,.0f} hands, seed "
            f"{self.seed}{target}); {unit}, +- the 95% half-width; row agent's winnings, rows "
            "sorted by their mean.",
            "",
        ]
        if self.seats == 2:
            order = self.ranked()
            value, width = self.matrix()
            lines.append("| | " + " | ".join(f"`{a}`" for a in order) + " | mean |")
            lines.append("|---" * (len(order) + 2) + "|")
            means = {name: (mean, w) for name, mean, w in self.means()}
            for i, name in enumerate(order):
                row = [
                    "-" if i == j else f"{value[i, j]:+.3f} +- {width[i, j]:.3f}"
                    for j in range(len(order))
                ]
                mean, w = means[name]
                lines.append(f"| `{name}` | " + " | ".join(row) + f" | {mean:+.3f} +- {w:.3f} |")
        else:
            lines += ["| lineup | agent | value | +- | hands |", "|---|---|---:|---:|---:|"]
            for cell in self.cells:
                lineup = ", ".join(cell.lineup)
                lines.append(
                    f"| {lineup} | `{cell.agent}` | {cell.sb_per_hand:+.3f} | "
                    f"{cell.half_width:.3f} | {cell.hands:,} |"
                )
            lines += ["", "| agent | mean over its lineups | +- |", "|---|---:|---:|"]
            for name, mean, w in self.means():
                lines.append(f"| `{name}` | {mean:+.3f} | {w:.3f} |")
        wide = self.wide()
        if wide:
            lines += ["", f"Cells wider than {self.half_width:g} at {self.max_hands:,} hands:"]
            lines += [
                f"- `{c.agent}` in {', '.join(c.lineup)}: +- {c.half_width:.3f}" for c in wide
            ]
        return lines

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: the settings, every cell, the means."""
        return {
            "agents": list(self.agents),
            "seats": self.seats,
            "hands_per_lineup": self.hands,
            "seed": self.seed,
            "sessions": self.sessions,
            "estimator": self.estimator,
            "half_width": self.half_width,
            "max_hands": self.max_hands,
            "unit": "small bets per hand",
            "cells": [cell_dict(c) for c in self.cells],
            "means": [
                {"agent": name, "sb_per_hand": mean, "half_width": w}
                for name, mean, w in self.means()
            ],
        }

    def grid(self) -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray, np.ndarray]:
        """``(rows, columns, value, half_width)``: the agents best mean first against their
        opponents (heads-up, ``matrix``) or against the lineups, labelled by who sits out
        (more seats; NaN where the agent is not in the lineup)."""
        order = self.ranked()
        if self.seats == 2:
            return (order, order, *self.matrix())
        lineups = list(dict.fromkeys(cell.lineup for cell in self.cells))
        labels = tuple(_lineup_label(self.agents, lineup, k) for k, lineup in enumerate(lineups))
        value = np.full((len(order), len(lineups)), np.nan)
        width = np.full_like(value, np.nan)
        for cell in self.cells:
            i, j = order.index(cell.agent), lineups.index(cell.lineup)
            value[i, j], width[i, j] = cell.sb_per_hand, cell.half_width
        return order, labels, value, width

    def plot(self, path: Path) -> Path:
        """A heat map of ``grid()`` with every cell's interval written in it, saved to
        ``path``."""
        from tuning.crosstable_plot import heat_map

        return heat_map(self, path)


def _lineup_label(agents: tuple[str, ...], lineup: tuple[str, ...], k: int) -> str:
    out = [name for name in agents if name not in lineup]
    return f"without {', '.join(out)}" if len(out) <= 2 else f"lineup {k + 1}"


def cell_dict(cell: Cell) -> dict[str, Any]:
    """``cell`` as a JSON object (``cell_from_dict`` reads it back)."""
    return {
        "agent": cell.agent,
        "lineup": list(cell.lineup),
        "sb_per_hand": cell.sb_per_hand,
        "half_width": cell.half_width,
        "raw_sb_per_hand": cell.raw_sb_per_hand,
        "hands": cell.hands,
        "sessions": cell.sessions,
    }


def cell_from_dict(data: dict[str, Any]) -> Cell:
    """The cell ``cell_dict`` wrote."""
    return Cell(
        str(data["agent"]),
        tuple(str(name) for name in data["lineup"]),
        float(data["sb_per_hand"]),
        float(data["half_width"]),
        float(data["raw_sb_per_hand"]),
        int(data["hands"]),
        int(data["sessions"]),
    )


GROWTH_MARGIN = 1.15
"""Extra hands over the square-root law's estimate, so one re-play usually meets the width."""


def crosstable(
    specs: Sequence[str],
    *,
    hands: int,
    seed: int,
    seats: int = 2,
    sessions: int = 1,
    estimator: str = "aivat",
    engine: str = "auto",
    half_width: float | None = None,
    max_hands: int | None = None,
    known: Mapping[tuple[str, ...], Sequence[Cell]] | None = None,
    on_lineup: Callable[[int, int, tuple[Cell, ...]], None] | None = None,
) -> Crosstable:
    """Play every lineup (see the module); ``on_lineup(done, total, cells)`` after each.

    Args:
        hands, sessions: Each lineup's match, and the session length (``hands / sessions``)
            of its longer re-plays.
        half_width: Play a lineup longer while a cell's 95% half-width exceeds this.
        max_hands: The most hands of a lineup (default: 100 times ``hands``).
        known: Cells of lineups already played with these settings (not played again).

    Raises:
        ValueError: on fewer than ``seats`` agents, an agent twice, a bad spec or bad sizes.
    """
    agents = tuple(specs)
    for spec in agents:
        check_spec(spec)
    if len(set(agents)) != len(agents):
        raise ValueError(f"an agent is named twice: {list(agents)}")
    if not 2 <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be 2 to {MAX_SEATS}, got {seats}")
    if len(agents) < seats:
        raise ValueError(f"{seats}-seat lineups need at least {seats} agents, got {len(agents)}")
    limit = _check_target(hands, half_width, max_hands)
    lineups = list(itertools.combinations(agents, seats))
    known = known or {}
    cells: list[Cell] = []
    for done, lineup in enumerate(lineups, start=1):
        mine = tuple(known[lineup]) if lineup in known else ()
        if not mine:
            play = partial(_play, lineup, seed=seed, engine=engine, estimator=estimator)
            mine = _lineup(play, hands, sessions, half_width, limit)
        cells += mine
        if on_lineup is not None:
            on_lineup(done, len(lineups), mine)
    return Crosstable(
        agents,
        seats,
        hands,
        seed,
        sessions,
        estimator,
        tuple(cells),
        half_width,
        limit if half_width is not None else None,
    )


def _check_target(hands: int, half_width: float | None, max_hands: int | None) -> int:
    if half_width is None:
        if max_hands is not None:
            raise ValueError("max_hands needs half_width (the width a lineup is played to)")
        return hands
    if not (math.isfinite(half_width) and half_width > 0):
        raise ValueError(f"half_width must be a positive number, got {half_width}")
    limit = 100 * hands if max_hands is None else max_hands
    if limit < hands:
        raise ValueError(f"max_hands ({limit}) is below hands ({hands})")
    return limit


def _lineup(
    play: Callable[[int, int], tuple[Cell, ...]],
    hands: int,
    sessions: int,
    half_width: float | None,
    limit: int,
) -> tuple[Cell, ...]:
    """One lineup's cells, played again on more sessions of the same length while too wide."""
    session_hands = hands / sessions
    cells = play(hands, sessions)
    while half_width is not None:
        widest = max(cell.half_width for cell in cells)
        if not widest > half_width:
            return cells
        wanted = cells[0].hands * (widest / half_width) ** 2 * GROWTH_MARGIN
        more = min(math.ceil(wanted / session_hands), math.floor(limit / session_hands))
        if more <= cells[0].sessions:
            return cells  # at the limit: the table lists it as wide
        cells = play(round(more * session_hands), more)
    return cells


def _play(
    lineup: tuple[str, ...], hands: int, sessions: int, *, seed: int, engine: str, estimator: str
) -> tuple[Cell, ...]:
    result = play_match(
        list(lineup),
        hands=hands,
        seed=seed,
        rules=Rules(num_seats=len(lineup)),
        names=list(lineup),
        sessions=sessions,
        engine=engine,
        estimator=estimator,
    )
    return tuple(_cell(r, lineup, result.sessions) for r in result.results)


def _cell(result: AgentResult, lineup: tuple[str, ...], sessions: int) -> Cell:
    figures = result.reported()
    ci = figures.ci
    width = (ci[1] - ci[0]) / 2 if ci is not None else math.nan
    return Cell(
        result.name, lineup, figures.sb_per_hand, width, result.sb_per_hand, result.hands, sessions
    )
