"""Every agent against every other: duplicate matches over every lineup, in one table.

``crosstable(specs, hands=..., seed=...)`` plays, for ``seats = 2``, every unordered pair of
the agents (agent specs: registry names or ``NAME:FILE``) in a duplicate match of ``hands``
hands; for ``seats = K > 2`` every K-agent lineup. All lineups play the same deals (one root
seed), so differences between cells are not differences of luck in the cards. Each cell is the
row agent's winnings in sb/hand against the column agent (heads-up) with its 95% interval, the
AIVAT estimate where asked (``estimator="aivat"``, the default). ``Crosstable`` renders it as
a markdown table, a JSON object and a heat map (matplotlib).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from envs.match import AgentResult, play_match
from envs.registry import check_spec
from envs.rules import MAX_SEATS, Rules

__all__ = ["Cell", "Crosstable", "crosstable"]


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


@dataclass(frozen=True)
class Crosstable:
    """The results of every lineup of ``agents`` (see the module)."""

    agents: tuple[str, ...]
    seats: int
    hands: int
    """Hands per lineup."""
    seed: int
    sessions: int
    estimator: str
    cells: tuple[Cell, ...]

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """Heads-up: ``(value, half_width)`` matrices, row agent against column agent
        (NaN on the diagonal)."""
        if self.seats != 2:
            raise ValueError("a matrix needs heads-up lineups (seats=2)")
        n = len(self.agents)
        value, width = np.full((n, n), np.nan), np.full((n, n), np.nan)
        index = {name: i for i, name in enumerate(self.agents)}
        for cell in self.cells:
            other = next(name for name in cell.lineup if name != cell.agent)
            value[index[cell.agent], index[other]] = cell.sb_per_hand
            width[index[cell.agent], index[other]] = cell.half_width
        return value, width

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

    def markdown(self) -> list[str]:
        """The table (heads-up: the matrix; else every lineup) and the means, as markdown."""
        unit = "AIVAT sb/hand" if self.estimator == "aivat" else "sb/hand"
        lines = [
            f"{len(self.agents)} agents, {self.seats} seats, {self.hands:,} hands per lineup "
            f"(duplicate, {self.sessions} session(s), seed {self.seed}); {unit}, "
            "+- the 95% half-width; row agent's winnings.",
            "",
        ]
        if self.seats == 2:
            value, width = self.matrix()
            lines.append("| | " + " | ".join(f"`{a}`" for a in self.agents) + " | mean |")
            lines.append("|---" * (len(self.agents) + 2) + "|")
            means = {name: (mean, w) for name, mean, w in self.means()}
            for i, name in enumerate(self.agents):
                row = [
                    "-" if i == j else f"{value[i, j]:+.3f} +- {width[i, j]:.3f}"
                    for j in range(len(self.agents))
                ]
                mean, w = means[name]
                lines.append(f"| `{name}` | " + " | ".join(row) + f" | {mean:+.3f} +- {w:.3f} |")
        else:
            lines += ["| lineup | agent | value | +- |", "|---|---|---:|---:|"]
            for cell in self.cells:
                lineup = ", ".join(cell.lineup)
                lines.append(
                    f"| {lineup} | `{cell.agent}` | {cell.sb_per_hand:+.3f} | "
                    f"{cell.half_width:.3f} |"
                )
            lines += ["", "| agent | mean over its lineups | +- |", "|---|---:|---:|"]
            for name, mean, w in self.means():
                lines.append(f"| `{name}` | {mean:+.3f} | {w:.3f} |")
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
            "unit": "small bets per hand",
            "cells": [
                {
                    "agent": c.agent,
                    "lineup": list(c.lineup),
                    "sb_per_hand": c.sb_per_hand,
                    "half_width": c.half_width,
                    "raw_sb_per_hand": c.raw_sb_per_hand,
                    "hands": c.hands,
                }
                for c in self.cells
            ],
            "means": [
                {"agent": name, "sb_per_hand": mean, "half_width": w}
                for name, mean, w in self.means()
            ],
        }

    def plot(self, path: Path) -> Path:
        """A heat map of the heads-up matrix (row agent's winnings), saved to ``path``."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        value, width = self.matrix()
        n = len(self.agents)
        top = float(np.nanmax(np.abs(value))) if n > 1 else 1.0
        fig, ax = plt.subplots(figsize=(1.2 * n + 2.5, 1.0 * n + 1.5))
        image = ax.imshow(value, cmap="RdBu", vmin=-top, vmax=top)
        for i, j in itertools.product(range(n), range(n)):
            if i != j:
                text = f"{value[i, j]:+.2f}\n±{width[i, j]:.2f}"
                dark = abs(value[i, j]) > 0.6 * top  # light text on the deep colours
                color = "white" if dark else "black"
                ax.text(j, i, text, ha="center", va="center", fontsize=8, color=color)
        ax.set_xticks(range(n), self.agents, rotation=45, ha="right")
        ax.set_yticks(range(n), self.agents)
        ax.set_xlabel("opponent")
        ax.set_ylabel("agent (its winnings)")
        unit = "AIVAT sb/hand" if self.estimator == "aivat" else "sb/hand"
        ax.set_title(f"Crosstable, {unit}, {self.hands:,} hands per pair")
        fig.colorbar(image, ax=ax, label=unit)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        return path


def crosstable(
    specs: Sequence[str],
    *,
    hands: int,
    seed: int,
    seats: int = 2,
    sessions: int = 1,
    estimator: str = "aivat",
    engine: str = "auto",
    on_lineup: Callable[[int, int, tuple[str, ...]], None] | None = None,
) -> Crosstable:
    """Play every lineup (see the module); ``on_lineup(done, total, lineup)`` after each.

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
    lineups = list(itertools.combinations(agents, seats))
    cells: list[Cell] = []
    played = 0
    for done, lineup in enumerate(lineups, start=1):
        result = play_match(
            list(lineup),
            hands=hands,
            seed=seed,
            rules=Rules(num_seats=seats),
            names=list(lineup),
            sessions=sessions,
            engine=engine,
            estimator=estimator,
        )
        cells += [_cell(r, lineup, estimator) for r in result.results]
        played = result.hands
        if on_lineup is not None:
            on_lineup(done, len(lineups), lineup)
    return Crosstable(agents, seats, played, seed, sessions, estimator, tuple(cells))


def _cell(result: AgentResult, lineup: tuple[str, ...], estimator: str) -> Cell:
    use_aivat = estimator == "aivat" and result.aivat_ci is not None
    ci = result.aivat_ci if use_aivat else result.ci
    value = result.aivat_sb_per_hand if use_aivat else result.sb_per_hand
    assert value is not None
    width = (ci[1] - ci[0]) / 2 if ci is not None else math.nan
    return Cell(result.name, lineup, value, width, result.sb_per_hand, result.hands)
