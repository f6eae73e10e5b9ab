"""Figures of any study, drawn from the stored study alone (no tuning logic here).

The figure of the tuned parameters is the spec's (``tuning.studies``: BPP's betting curves,
Loki's thresholds); these are the others:

* ``history.png``: the optimisation history (observed values are noisy);
* ``importances.png``: parameter importances (Optuna's default evaluator, PED-ANOVA; noise
  shows too);
* ``confirmation.png``: the re-evaluated candidates and the confirmation match, with 95% CIs.

Figures are ``matplotlib.figure.Figure`` objects written straight to PNG: no pyplot, no
backend to select, no global style or state touched.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import optuna
from matplotlib.figure import Figure
from optuna.trial import TrialState

from tuning.reevaluate import Confirmation, Estimate

logger = logging.getLogger(__name__)


def plot_history(study: optuna.Study, path: Path) -> None:
    """Every complete trial's observed value by trial number, and the best so far."""
    trials = [
        t
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if t.value is not None and math.isfinite(t.value)
    ]
    numbers = [t.number for t in trials]
    values = np.array([t.value for t in trials], dtype=float)
    pruned = np.array([bool(t.user_attrs.get("pruned")) for t in trials], dtype=bool)
    fig = Figure(figsize=(8, 5))
    ax = fig.subplots()
    full = ~pruned
    ax.scatter(np.array(numbers)[full], values[full], s=14, label="fully evaluated")
    if pruned.any():
        ax.scatter(
            np.array(numbers)[pruned],
            values[pruned],
            s=14,
            facecolors="none",
            edgecolors="C0",
            label="dropped by racing (value on its blocks)",
        )
    if full.any():
        best = np.maximum.accumulate(np.where(full, values, -np.inf))
        shown = np.isfinite(best)
        ax.step(np.array(numbers)[shown], best[shown], where="post", color="C3", label="best full")
    ax.set_xlabel("trial")
    ax.set_ylabel("sb/hand (observed, noisy)")
    ax.set_title("Optimisation history")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def plot_importances(study: optuna.Study, path: Path) -> bool:
    """Parameter importances; ``False`` (and no file) when the study has too few trials."""
    try:
        importances = optuna.importance.get_param_importances(study)
    except (ValueError, RuntimeError) as error:
        logger.warning("no importance plot: %s", error)
        return False
    names = list(reversed(importances))  # the most important at the top
    values = [importances[name] for name in names]
    fig = Figure(figsize=(8, 5))
    ax = fig.subplots()
    bars = ax.barh(names, values)
    ax.bar_label(bars, [f"{v:.2f}" if v >= 0.01 else "<0.01" for v in values], padding=2)
    ax.set_xlabel("importance for the observed value")
    ax.set_title("Parameter importances")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def plot_confirmation(
    reevaluation: Sequence[Estimate], confirmation: Confirmation | None, path: Path
) -> None:
    """Re-evaluated means with CIs; the confirmation's paired difference beside them."""
    fig = Figure(figsize=(11, 4))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 1]})
    labels = [e.label for e in reevaluation]
    means = np.array([e.mean for e in reevaluation])
    errors = np.array([[e.mean - e.ci[0], e.ci[1] - e.mean] for e in reevaluation]).T
    left.errorbar(range(len(labels)), means, yerr=errors, fmt="o", capsize=4)
    left.axhline(means[0], color="grey", linestyle="--", label="defaults")
    left.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    left.set_ylabel("sb/hand, re-evaluation deals (95% CI)")
    left.set_title(f"re-evaluation ({reevaluation[0].hands:,} hands each)")
    left.legend()
    if confirmation is not None:
        diff, (lo, hi) = confirmation.diff, confirmation.diff_ci
        right.errorbar([0], [diff], yerr=[[diff - lo], [hi - diff]], fmt="o", capsize=6)
        right.set_title(f"confirmation ({confirmation.hands:,} hands)")
    else:
        right.set_title("no confirmation:\nthe defaults won")
    right.axhline(0.0, color="grey", linestyle="--")
    right.set_xticks([0], ["tuned - defaults"])
    right.set_ylabel("paired difference, sb/hand (95% CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
