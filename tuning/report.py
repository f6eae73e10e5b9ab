"""After the trials: re-evaluation, confirmation, and the files a study leaves behind.

``finish_study`` re-evaluates the top trials and the defaults on fresh deals, confirms the best
re-evaluated trial (the tuned candidate) against the defaults on independent deals until the
interval is as narrow as asked, and stores both as study attributes, so that ``write_outputs``
can regenerate every file from the stored study alone:

    <results>/<study>/best_params.json   tuned and default parameters, confirmation figures
    <results>/<study>/trials.csv         every trial: state, value, paired difference and its
                                         SE, parameters, hands, pruned, worker
    <results>/<study>/reevaluation.csv   the candidates on the re-evaluation deals
    <results>/<study>/summary.md         protocol, noise, throughput, re-evaluation,
                                         confirmation, the verdict in words
    <results>/<study>/plots/*.png        the spec's figure (BPP: curves.png, its title the
                                         verdict), history, importances, confirmation
"""

from __future__ import annotations

import csv
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState

from envs.validation import whole_number
from tuning.evaluation import Namespace
from tuning.plots import plot_confirmation, plot_history, plot_importances
from tuning.pool import EvaluationPool, OnHands
from tuning.reevaluate import (
    DEFAULTS,
    Confirmation,
    Estimate,
    confirm,
    estimates,
    top_candidates,
)
from tuning.studies import StudySpec
from tuning.study import DEFAULT_RESULTS
from tuning.summary import StudySummary

logger = logging.getLogger(__name__)

TARGET_HALF_WIDTH = 0.01
"""The confirmation plays until tuned minus defaults has a 95% interval this narrow (sb/hand)."""


def finish_study(
    study: optuna.Study,
    pool: EvaluationPool,
    *,
    top_k: int,
    reevaluation_blocks: int,
    confirmation_blocks: int,
    target_half_width: float | None = TARGET_HALF_WIDTH,
    max_confirmation_blocks: int | None = None,
    on_hands: OnHands | None = None,
) -> None:
    """Re-evaluate the top ``top_k`` trials and the defaults, confirm the best trial; store
    both (see the module docstring)."""
    for name, value in (
        ("top_k", top_k),
        ("reevaluation_blocks", reevaluation_blocks),
        ("confirmation_blocks", confirmation_blocks),
    ):
        whole_number(name, value, minimum=1, what="a positive integer")
    candidates = top_candidates(study, pool.spec.defaults, top_k)
    values = pool.evaluate(
        Namespace.REEVALUATE,
        [c.values for c in candidates],
        range(reevaluation_blocks),
        on_hands,
    )
    reevaluation = estimates(candidates, values.aivat, values.hands)
    confirmation: Confirmation | None = None
    trials = reevaluation[1:]
    if trials:
        best = max(trials, key=lambda e: (e.mean, -(e.trial or 0)))
        tuned = next(c for c in candidates if c.label == best.label)
        confirmation = confirm(
            pool,
            candidates[0],
            tuned,
            blocks=confirmation_blocks,
            target_half_width=target_half_width,
            max_blocks=max_confirmation_blocks or 4 * confirmation_blocks,
            on_hands=on_hands,
        )
        winner = tuned
    else:
        winner = candidates[0]  # no fully evaluated trial but the defaults
    study.set_user_attr("reevaluation", [e.to_dict() for e in reevaluation])
    study.set_user_attr("winner", winner.to_dict())
    study.set_user_attr("confirmation", confirmation.to_dict() if confirmation else None)
    study.set_user_attr("finished_trials", _finished(study))


def _finished(study: optuna.Study) -> int:
    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))


def is_finished(study: optuna.Study) -> bool:
    """Whether the stored re-evaluation covers every finished trial."""
    return study.user_attrs.get("finished_trials") == _finished(study)


def write_outputs(study: optuna.Study, directory: Path) -> list[Path]:
    """Write the files of the module docstring from the stored study; returns their paths,
    ``summary.md`` last.

    Raises:
        ValueError: if the study has no re-evaluation yet.
    """
    summary = StudySummary.from_study(study)
    spec, winner = summary.spec, summary.winner
    plots = directory / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    written = [
        _write_json(directory / "best_params.json", _best_params(summary)),
        _write_trials(directory / "trials.csv", study, spec),
        _write_reevaluation(directory / "reevaluation.csv", summary.reevaluation),
    ]
    if spec.figure is not None:
        title = (
            f"The tuned parameters ({summary.winner.label}) {summary.confirmation.predicate()}"
            if summary.confirmation
            else "No trial but the defaults was fully evaluated: the defaults stay"
        )
        spec.figure(spec.defaults, winner.values, plots / spec.figure_name, title)
        written.append(plots / spec.figure_name)
    plot_history(study, plots / "history.png")
    plot_confirmation(summary.reevaluation, summary.confirmation, plots / "confirmation.png")
    written += [plots / "history.png", plots / "confirmation.png"]
    if plot_importances(study, plots / "importances.png"):
        written.append(plots / "importances.png")
    markdown = directory / "summary.md"
    markdown.write_text(summary.markdown([p.name for p in written], _results_option(directory)))
    return [*written, markdown]


def _results_option(directory: Path) -> str | None:
    """The ``--results`` a command needs to find the study of ``directory`` (``None`` for the
    default ``runs/``), relative to the working directory when it lies inside it."""
    results = directory.parent
    if results.resolve() == DEFAULT_RESULTS.resolve():
        return None
    try:
        return str(results.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(results)


def _best_params(summary: StudySummary) -> dict[str, Any]:
    spec, confirmation = summary.spec, summary.confirmation
    beats = confirmation is not None and confirmation.diff_ci[0] > 0
    return {
        "tuned": spec.settings(summary.winner.values),
        "tuned_source": summary.winner.label,
        "defaults": spec.settings(spec.defaults),
        "recommended": "tuned" if beats else DEFAULTS,
        "verdict": summary.verdict(),
        "confirmation": confirmation.to_dict() if confirmation else None,
        "unit": "small bets per hand (AIVAT-corrected)",
    }


def _write_json(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data, indent=2, allow_nan=False) + "\n")
    return path


TRIAL_ATTRS = (
    "diff",
    "paired_se",
    "raw_value",
    "raw_diff",
    "raw_paired_se",
    "hands",
    "blocks",
    "std_error",
    "pruned",
    "batch",
    "source",
    "worker",
    "sampler_seed",
    "cpu_seconds",
)
"""The trial attributes written to ``trials.csv`` (set by the objective and the study)."""


def _write_trials(path: Path, study: optuna.Study, spec: StudySpec) -> Path:
    columns = ["number", "state", "value", *spec.names, *TRIAL_ATTRS, "started", "completed"]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for t in study.get_trials(deepcopy=False):
            writer.writerow(
                [
                    t.number,
                    t.state.name,
                    t.value,
                    *(t.params.get(name) for name in spec.names),
                    *(t.user_attrs.get(key) for key in TRIAL_ATTRS),
                    t.datetime_start.isoformat() if t.datetime_start else None,
                    t.datetime_complete.isoformat() if t.datetime_complete else None,
                ]
            )
    return path


def _write_reevaluation(path: Path, rows: Sequence[Estimate]) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "candidate",
                "trial",
                "hands",
                "mean",
                "ci_low",
                "ci_high",
                "diff_vs_defaults",
                "diff_ci_low",
                "diff_ci_high",
            ]
        )
        for r in rows:
            writer.writerow([r.label, r.trial, r.hands, r.mean, *r.ci, r.diff, *r.diff_ci])
    return path
