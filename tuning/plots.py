"""Figures of any study, drawn from the stored study alone (no tuning logic here).

The figure of the tuned parameters is the spec's (``tuning.studies``: BPP's betting curves,
Loki's thresholds); these are the others:

* ``history.png``: Optuna's optimisation history (observed values are noisy).
* ``importances.png``: parameter importances (Optuna's default PED-ANOVA; noise shows too).
* ``confirmation.png``: the re-evaluated candidates and the confirmation match, with 95% CIs.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; never a window

import matplotlib.pyplot as plt
import numpy as np
import optuna

logger = logging.getLogger(__name__)


def plot_history(study: optuna.Study, path: Path) -> None:
    """Optuna's optimisation history."""
    # rc_context undoes the global plt.style.use("ggplot") of Optuna's plot functions.
    with matplotlib.rc_context(), warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        ax = optuna.visualization.matplotlib.plot_optimization_history(study)
        ax.set_ylabel("sb/hand (observed, noisy)")
        _save(ax, path)


def plot_importances(study: optuna.Study, path: Path) -> bool:
    """Parameter importances; ``False`` (and no file) when the study has too few trials."""
    with matplotlib.rc_context(), warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        try:
            ax = optuna.visualization.matplotlib.plot_param_importances(study)
        except (ValueError, RuntimeError) as error:
            logger.warning("no importance plot: %s", error)
            return False
        _save(ax, path)
    return True


def plot_confirmation(
    reevaluation: list[Mapping[str, Any]], confirmation: Mapping[str, Any] | None, path: Path
) -> None:
    """Re-evaluated means with CIs; the confirmation's paired difference beside them."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [3, 1]})
    labels = [e["label"] for e in reevaluation]
    means = np.array([e["mean"] for e in reevaluation])
    errors = np.array([[e["mean"] - e["ci"][0], e["ci"][1] - e["mean"]] for e in reevaluation]).T
    left.errorbar(range(len(labels)), means, yerr=errors, fmt="o", capsize=4)
    left.axhline(means[0], color="grey", linestyle="--", label="defaults")
    left.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    left.set_ylabel("sb/hand, re-evaluation deals (95% CI)")
    left.set_title(f"re-evaluation ({reevaluation[0]['hands']:,} hands each)")
    left.legend()
    if confirmation is not None:
        diff, (lo, hi) = confirmation["diff"], confirmation["diff_ci"]
        right.errorbar([0], [diff], yerr=[[diff - lo], [hi - diff]], fmt="o", capsize=6)
        right.set_title(f"confirmation ({confirmation['hands']:,} hands)")
    else:
        right.set_title("no confirmation:\nthe defaults won")
    right.axhline(0.0, color="grey", linestyle="--")
    right.set_xticks([0], ["tuned - defaults"])
    right.set_ylabel("paired difference, sb/hand (95% CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _save(ax: Any, path: Path) -> None:
    first = ax.flat[0] if isinstance(ax, np.ndarray) else ax
    figure = first.get_figure()
    figure.set_size_inches(8, 5)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
