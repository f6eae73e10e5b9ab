"""The crosstable's heat map: each agent's winnings, with its 95% half-width in the cell (the
colours clipped at a quantile of the cells' sizes when a few cells dwarf the rest)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tuning.crosstable import Crosstable

__all__ = ["heat_map"]


def heat_map(table: Crosstable, path: Path) -> Path:
    """Draw ``table.grid()`` (blue: the row agent wins) and save it to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, columns, value, width = table.grid()
    top, clipped = _colour_range(np.abs(value[~np.isnan(value)]))
    fig, ax = plt.subplots(figsize=(1.2 * len(columns) + 2.5, 1.0 * len(rows) + 1.5))
    image = ax.imshow(value, cmap="RdBu", vmin=-top, vmax=top)
    for i, j in itertools.product(range(len(rows)), range(len(columns))):
        if not np.isnan(value[i, j]):
            dark = abs(value[i, j]) > 0.6 * top  # light text on the deep colours
            ax.text(
                j,
                i,
                f"{value[i, j]:+.2f}\n±{width[i, j]:.2f}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if dark else "black",
            )
    ax.set_xticks(range(len(columns)), columns, rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel("opponent" if table.seats == 2 else f"{table.seats}-seat lineup")
    ax.set_ylabel("agent (its winnings), best mean first")
    unit = "AIVAT sb/hand" if table.estimator == "aivat" else "sb/hand"
    per = "pair" if table.seats == 2 else "lineup"
    ax.set_title(f"Crosstable, {unit}, {table.hands_played()} hands per {per}")
    fig.colorbar(image, ax=ax, label=unit, extend="both" if clipped else "neither")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


COLOUR_QUANTILE = 0.9
"""The colours span this quantile of the cells' sizes: a few huge cells (a maniac against a
learner that folds) would otherwise wash every other cell out to white."""


def _colour_range(sizes: np.ndarray) -> tuple[float, bool]:
    """``(top, clipped)``: the colour scale's half-range, and whether larger cells exist."""
    if not sizes.size or not sizes.max() > 0:
        return 1.0, False
    top = float(np.quantile(sizes, COLOUR_QUANTILE))
    if not top > 0 or top >= 0.5 * sizes.max():  # no outliers worth clipping
        return float(sizes.max()), False
    return top, True
