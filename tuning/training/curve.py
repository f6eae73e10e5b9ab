"""Learning curves: checkpoints' winnings with 95% CIs, stored as CSV and drawn as PNG.

The CSV is the data; the figure is redrawn from it alone (``plot_curve``), so every figure in
``results/`` can be regenerated without rerunning the training.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from matplotlib.figure import Figure

from envs.match import AgentResult
from tuning.training.ceiling import Ceiling

__all__ = ["CurvePoint", "curve_figure", "plot_curve", "read_curve", "write_curve"]


@dataclass(frozen=True)
class CurvePoint:
    """One checkpoint of a run, evaluated on the held-out deals."""

    timesteps: int
    """Learner decisions trained on so far."""
    hands: int
    """Training hands played so far (hands without a learner decision included)."""
    eval_hands: int
    """Hands of the evaluation match."""
    sb_per_hand: float
    """The learner's mean winnings in the evaluation match, small bets per hand."""
    ci_low: float
    ci_high: float
    """95% confidence interval of ``sb_per_hand`` (over duplicate deals)."""
    estimator: str = "raw"
    """``aivat`` when the figures are the match's AIVAT estimate, else ``raw``."""

    @classmethod
    def from_result(cls, timesteps: int, hands: int, result: AgentResult) -> CurvePoint:
        """The point of a checkpoint's match: its AIVAT figures when it computed them."""
        figures = result.reported()
        assert figures.ci is not None  # evaluations have at least two deals
        return cls(
            timesteps, hands, result.hands, figures.sb_per_hand, *figures.ci, figures.estimator
        )


_FIELDS = [f.name for f in fields(CurvePoint)]


def write_curve(path: Path, points: Sequence[CurvePoint]) -> None:
    """Write ``points`` as CSV (written to a temporary file first: never half a curve)."""
    tmp = path.with_suffix(".csv.tmp")
    with tmp.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=_FIELDS)
        writer.writeheader()
        for point in points:
            writer.writerow(asdict(point))
    tmp.replace(path)


def read_curve(path: Path) -> list[CurvePoint]:
    """The points of a curve CSV written by ``write_curve``."""
    with path.open(newline="", encoding="utf-8") as source:
        return [
            CurvePoint(
                int(row["timesteps"]),
                int(row["hands"]),
                int(row["eval_hands"]),
                float(row["sb_per_hand"]),
                float(row["ci_low"]),
                float(row["ci_high"]),
                row.get("estimator") or "raw",  # curves written before the column: raw
            )
            for row in csv.DictReader(source)
        ]


def plot_curve(
    path: Path, points: Sequence[CurvePoint], title: str, ceiling: Ceiling | None = None
) -> None:
    """Draw winnings (with the CI band) against training hands into the PNG ``path``, and
    the opponent's ceiling (exact best response, or the LBR lower bound with its interval)
    as a dashed line when it is known."""
    curve_figure(points, title, ceiling).savefig(path, dpi=110)


def curve_figure(
    points: Sequence[CurvePoint], title: str, ceiling: Ceiling | None = None
) -> Figure:
    """The figure ``plot_curve`` saves."""
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.subplots()
    x = [p.hands for p in points]
    ax.axhline(0.0, color="0.6", linewidth=0.8)
    ax.fill_between(x, [p.ci_low for p in points], [p.ci_high for p in points], alpha=0.25)
    ax.plot(x, [p.sb_per_hand for p in points], marker="o", markersize=3, label="learner")
    if ceiling is not None:
        ax.axhline(
            ceiling.value, color="tab:red", linestyle="--", linewidth=1.0, label=ceiling.label
        )
        if ceiling.ci is not None:
            ax.axhspan(*ceiling.ci, color="tab:red", alpha=0.12, linewidth=0)
        if points:
            last = points[-1].sb_per_hand / ceiling.value if ceiling.value > 0 else None
            if last is not None:
                ax.plot([], [], " ", label=f"last checkpoint: {100 * last:.0f}% of it")
        ax.legend(loc="lower right", fontsize="small")
    estimators = {p.estimator for p in points}
    unit = "AIVAT, " if estimators == {"aivat"} else ""
    ax.set_xlabel("training hands")
    ax.set_ylabel(f"small bets per hand (held-out deals, {unit}95% CI)")
    ax.set_title(title, fontsize="small" if "\n" in title else None)
    return fig
