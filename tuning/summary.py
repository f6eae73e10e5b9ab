"""A finished study's figures (``StudySummary``), read from its storage, and its ``summary.md``.

The summary is built from the stored study alone (its attributes and trials), so that every
file of ``results/<study>/`` can be regenerated from the storage (``holdem-lab plot``).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import optuna
from optuna.trial import TrialState

from tuning.evaluation import MatchProtocol, Namespace
from tuning.reevaluate import Candidate, Confirmation, Estimate
from tuning.studies import StudySpec, spec_from_attrs

__all__ = ["StudySummary", "format_ci", "noise_and_throughput"]


def noise_and_throughput(study: optuna.Study) -> tuple[float | None, float | None]:
    """Median per-trial standard error (sb/hand) and hands per CPU-second of the trials."""
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    errors = [t.user_attrs["std_error"] for t in complete if "std_error" in t.user_attrs]
    hands = sum(t.user_attrs.get("hands", 0) for t in complete)
    cpu = sum(t.user_attrs.get("cpu_seconds", 0.0) for t in complete)
    return (statistics.median(errors) if errors else None, hands / cpu if cpu else None)


@dataclass(frozen=True, kw_only=True)
class StudySummary:
    """What a finished study found, as ``summary.md`` and ``holdem-lab tune`` report it."""

    name: str
    spec: StudySpec
    """What the study tuned (rebuilt from the stored attributes)."""
    protocol: MatchProtocol
    sampler: str
    sampler_seed: int
    """Worker 0's sampler seed; worker k uses ``sampler_seed + k``."""
    pruner: str
    environment: Mapping[str, str]
    """Versions of holdem-lab, Optuna, Python and the platform when the study was created."""
    trial_states: Mapping[str, int]
    """Trials per state name (``COMPLETE``, ``PRUNED``, ...), in Optuna's order of states."""
    std_error: float | None
    """Median standard error of one trial's value (sb/hand)."""
    hands_per_cpu_second: float | None
    best_observed: float | None
    """The best observed trial value: optimistic (the maximum of noisy values)."""
    reevaluation: tuple[Estimate, ...]
    """The defaults first, then the top trials, on the re-evaluation deals."""
    winner: Candidate
    confirmation: Confirmation | None
    """``None`` when the defaults won the re-evaluation."""

    @classmethod
    def from_study(cls, study: optuna.Study) -> StudySummary:
        """The summary of a stored study; ``ValueError`` if it has no re-evaluation yet."""
        attrs = study.user_attrs
        if "winner" not in attrs:
            raise ValueError(
                f"study {study.study_name!r} has no re-evaluation yet: finish it with "
                "holdem-lab tune"
            )
        trials = study.get_trials(deepcopy=False)
        std_error, rate = noise_and_throughput(study)
        values = [t.value for t in trials if t.state == TrialState.COMPLETE]
        confirmation = attrs["confirmation"]
        return cls(
            name=study.study_name,
            spec=spec_from_attrs(attrs),
            protocol=MatchProtocol.from_dict(attrs["protocol"]),
            sampler=str(attrs["sampler"]),
            sampler_seed=int(attrs["seed"]),
            pruner=str(attrs["pruner"]),
            environment=dict(attrs.get("environment", {})),
            trial_states={s.name: sum(t.state == s for t in trials) for s in TrialState},
            std_error=std_error,
            hands_per_cpu_second=rate,
            best_observed=max((v for v in values if v is not None), default=None),
            reevaluation=tuple(Estimate.from_dict(e) for e in attrs["reevaluation"]),
            winner=Candidate.from_dict(attrs["winner"]),
            confirmation=Confirmation.from_dict(confirmation) if confirmation else None,
        )

    @property
    def trials(self) -> int:
        """Trials of the study in every state."""
        return sum(self.trial_states.values())

    def verdict(self) -> str:
        """One line: the confirmed difference of the tuned parameters, or that none won."""
        if self.confirmation is None:
            return "the defaults won the re-evaluation: no tuned parameters beat them"
        lo, hi = self.confirmation.diff_ci
        return (
            f"tuned ({self.winner.label}) minus defaults on confirmation deals: "
            f"{self.confirmation.diff:+.4f} sb/hand, 95% CI [{lo:+.4f}, {hi:+.4f}] "
            f"({self.confirmation.hands:,} hands each)"
        )

    def markdown(self, files: Sequence[str]) -> str:
        """The ``summary.md`` of the study, listing ``files`` (written beside it)."""
        p = self.protocol
        counts = ", ".join(f"{k.lower()} {v}" for k, v in self.trial_states.items() if v)
        hands_per_trial = p.hands_per_block * p.blocks
        lines = [
            f"# Tuning study `{self.name}`",
            "",
            f"{self.spec.title} with the trial's parameters against "
            f"{', '.join(f'`{o}`' for o in p.opponents)}, heads-up, duplicate deals (each deal "
            "played twice with the seats swapped), the same deal blocks for every trial "
            "(common random numbers). Unit: small bets per hand (sb/hand); 95% t intervals "
            "over blocks.",
            "",
            "## Protocol",
            "",
            f"- trials: {self.trials} ({counts})",
            f"- per trial: {p.blocks} blocks x {p.deals_per_block} deals x 2 seatings = "
            f"{hands_per_trial:,} hands",
            f"- game: blinds {p.small_blind}/{p.big_blind}, bets {p.small_bet}/{p.big_bet}, "
            "ACPC caps",
            f"- seeds: deals root seed {p.seed} (namespaces: tuning {int(Namespace.TUNE)}, "
            f"re-evaluation {int(Namespace.REEVALUATE)}, confirmation "
            f"{int(Namespace.CONFIRM)}); sampler `{self.sampler}` seed {self.sampler_seed} "
            f"(worker k uses seed + k); pruner `{self.pruner}`",
            f"- search space: {self._space()}",
            f"- versions: {', '.join(f'{k} {v}' for k, v in self.environment.items())}",
            "",
            "## Noise and throughput",
            "",
            f"- median standard error of one trial's value: {_num(self.std_error)} sb/hand",
            f"- throughput: {_num(self.hands_per_cpu_second, '{:,.0f}')} hands per "
            "CPU-second (one worker process)",
            f"- best observed value: {_num(self.best_observed)} sb/hand (optimistic: the "
            "maximum of noisy values; see the re-evaluation)",
            "",
            "## Re-evaluation (fresh deals, same deals for every candidate)",
            "",
            "| candidate | hands | sb/hand | 95% CI | minus defaults | 95% CI (paired) |",
            "|---|---:|---:|---|---:|---|",
        ]
        for e in self.reevaluation:
            lines.append(
                f"| {e.label} | {e.hands:,} | {e.mean:+.4f} | {format_ci(e.ci)} | "
                f"{e.diff:+.4f} | {format_ci(e.diff_ci)} |"
            )
        lines += ["", "## Confirmation (independent deals)", "", *self._confirmation()]
        lines += ["", "## Parameters", "", "| parameter | defaults | tuned |", "|---|---:|---:|"]
        defaults = self.spec.settings(self.spec.defaults)
        for key, value in self.spec.settings(self.winner.values).items():
            lines.append(f"| {key} | {_value(defaults[key])} | {_value(value)} |")
        lines += ["", "## Files", "", *(f"- `{name}`" for name in files), ""]
        lines.append(
            f"Regenerate the files from the stored study: `holdem-lab plot --study {self.name}`."
        )
        return "\n".join(lines) + "\n"

    def _space(self) -> str:
        return "; ".join(
            f"{r.name} in [{r.low:g}, {r.high:g}]{' (log)' if r.log else ''}"
            for r in self.spec.params
        )

    def _confirmation(self) -> list[str]:
        c = self.confirmation
        if c is None:
            return [
                "The defaults had the best re-evaluated mean: no tuned parameter set beat "
                "them, so the defaults are the result."
            ]
        lo, hi = c.diff_ci
        verdict = (
            "the tuned parameters beat the defaults (the interval lies above 0)"
            if lo > 0
            else "the tuned parameters lose to the defaults (the interval lies below 0)"
            if hi < 0
            else "no significant difference from the defaults (the interval contains 0)"
        )
        return [
            f"- winner of the re-evaluation: {self.winner.label}",
            f"- tuned: {c.tuned.mean:+.4f} sb/hand {format_ci(c.tuned.ci)}; defaults: "
            f"{c.defaults.mean:+.4f} {format_ci(c.defaults.ci)} ({c.hands:,} hands each)",
            f"- tuned minus defaults: {c.diff:+.4f} sb/hand {format_ci(c.diff_ci)} (paired): "
            f"{verdict}",
        ]


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
