"""The markdown summary of a study: protocol, noise, throughput, re-evaluation, confirmation."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

import optuna
from optuna.trial import TrialState

from tuning.evaluation import Namespace
from tuning.studies import StudySpec


def noise_and_throughput(study: optuna.Study) -> tuple[float | None, float | None]:
    """Median per-trial standard error (sb/hand) and hands per CPU-second of the trials."""
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    errors = [t.user_attrs["std_error"] for t in complete if "std_error" in t.user_attrs]
    hands = sum(t.user_attrs.get("hands", 0) for t in complete)
    cpu = sum(t.user_attrs.get("cpu_seconds", 0.0) for t in complete)
    return (statistics.median(errors) if errors else None, hands / cpu if cpu else None)


def summary_markdown(
    study: optuna.Study, spec: StudySpec, tuned: Mapping[str, float], files: list[str]
) -> str:
    """The ``summary.md`` of a finished study of ``spec`` whose winner is ``tuned``."""
    attrs = study.user_attrs
    protocol = attrs["protocol"]
    trials = study.get_trials(deepcopy=False)
    states = {s.name: sum(t.state == s for t in trials) for s in TrialState}
    counts = ", ".join(f"{k.lower()} {v}" for k, v in states.items() if v)
    hands_per_trial = (
        2 * protocol["deals_per_block"] * len(protocol["opponents"]) * protocol["blocks"]
    )
    se, rate = noise_and_throughput(study)
    complete = [t for t in trials if t.state == TrialState.COMPLETE and t.value is not None]
    lines = [
        f"# Tuning study `{study.study_name}`",
        "",
        f"{spec.title} with the trial's parameters against "
        f"{', '.join(f'`{o}`' for o in protocol['opponents'])}, heads-up, duplicate deals "
        "(each deal played twice with the seats swapped), the same deal blocks for every trial "
        "(common random numbers). Unit: small bets per hand (sb/hand); 95% t intervals over "
        "blocks.",
        "",
        "## Protocol",
        "",
        f"- trials: {len(trials)} ({counts})",
        f"- per trial: {protocol['blocks']} blocks x {protocol['deals_per_block']} deals x "
        f"2 seatings = {hands_per_trial:,} hands",
        f"- game: blinds {protocol['small_blind']}/{protocol['big_blind']}, bets "
        f"{protocol['small_bet']}/{protocol['big_bet']}, ACPC caps",
        f"- seeds: deals root seed {protocol['seed']} (namespaces: tuning "
        f"{int(Namespace.TUNE)}, re-evaluation {int(Namespace.REEVALUATE)}, confirmation "
        f"{int(Namespace.CONFIRM)}); sampler `{attrs['sampler']}` seed {attrs['seed']} "
        "(worker k uses seed + k); pruner "
        f"`{attrs['pruner']}`",
        f"- search space: {_space(attrs['space'])}",
        f"- versions: {', '.join(f'{k} {v}' for k, v in attrs.get('environment', {}).items())}",
        "",
        "## Noise and throughput",
        "",
        f"- median standard error of one trial's value: {_num(se)} sb/hand",
        f"- throughput: {_num(rate, '{:,.0f}')} hands per CPU-second (one worker process)",
        f"- best observed value: {_num(max((t.value for t in complete), default=None))} sb/hand "
        "(optimistic: the maximum of noisy values; see the re-evaluation)",
        "",
        "## Re-evaluation (fresh deals, same deals for every candidate)",
        "",
        "| candidate | hands | sb/hand | 95% CI | minus defaults | 95% CI (paired) |",
        "|---|---:|---:|---|---:|---|",
    ]
    for e in attrs["reevaluation"]:
        lines.append(
            f"| {e['label']} | {e['hands']:,} | {e['mean']:+.4f} | {format_ci(e['ci'])} | "
            f"{e['diff']:+.4f} | {format_ci(e['diff_ci'])} |"
        )
    lines += ["", "## Confirmation (independent deals)", ""]
    confirmation = attrs["confirmation"]
    if confirmation is None:
        lines.append(
            "The defaults had the best re-evaluated mean: no tuned parameter set beat them, "
            "so the defaults are the result."
        )
    else:
        lo, hi = confirmation["diff_ci"]
        verdict = (
            "the tuned parameters beat the defaults (the interval lies above 0)"
            if lo > 0
            else "the tuned parameters lose to the defaults (the interval lies below 0)"
            if hi < 0
            else "no significant difference from the defaults (the interval contains 0)"
        )
        tuned_, defaults_ = confirmation["tuned"], confirmation["defaults"]
        lines += [
            f"- winner of the re-evaluation: {attrs['winner']['label']}",
            f"- tuned: {tuned_['mean']:+.4f} sb/hand {format_ci(tuned_['ci'])}; defaults: "
            f"{defaults_['mean']:+.4f} {format_ci(defaults_['ci'])} "
            f"({confirmation['hands']:,} hands each)",
            f"- tuned minus defaults: {confirmation['diff']:+.4f} sb/hand "
            f"{format_ci(confirmation['diff_ci'])} (paired): {verdict}",
        ]
    lines += ["", "## Parameters", "", "| parameter | defaults | tuned |", "|---|---:|---:|"]
    defaults = spec.settings(spec.defaults)
    for key, value in spec.settings(tuned).items():
        lines.append(f"| {key} | {_value(defaults[key])} | {_value(value)} |")
    lines += ["", "## Files", "", *(f"- `{name}`" for name in files), ""]
    lines.append(
        "Regenerate the files from the stored study: "
        f"`holdem-lab plot --study {study.study_name}`."
    )
    return "\n".join(lines) + "\n"


def _space(space: dict[str, Any]) -> str:
    return "; ".join(
        f"{name} in [{lo:g}, {hi:g}]{' (log)' if log else ''}"
        for name, lo, hi, log in space["params"]
    )


def format_ci(ci: Sequence[float] | None) -> str:
    """``[-0.0123, +0.0456]``, or ``n/a`` for an undefined interval."""
    return "n/a" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def _num(value: float | None, fmt: str = "{:+.4f}") -> str:
    return "n/a" if value is None else fmt.format(value)


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value)
    return str(value)
