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
from tuning.racing import stored_pruner
from tuning.reevaluate import Candidate, Confirmation, Estimate
from tuning.studies import StudySpec, spec_from_attrs

__all__ = ["StudySummary", "format_ci", "noise_and_throughput"]


def noise_and_throughput(study: optuna.Study) -> tuple[float | None, float | None]:
    """Median per-trial standard error (sb/hand) and hands per CPU-second of the trials."""
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    errors = [t.user_attrs["std_error"] for t in complete if t.user_attrs.get("std_error")]
    hands = sum(t.user_attrs.get("hands", 0) for t in complete)
    cpu = sum(t.user_attrs.get("cpu_seconds", 0.0) for t in complete)
    return (statistics.median(errors) if errors else None, hands / cpu if cpu else None)


def paired_errors(study: optuna.Study) -> list[float]:
    """The paired standard errors against the defaults of the fully evaluated trials."""
    return [
        float(t.user_attrs["paired_se"])
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if t.user_attrs.get("paired_se") and not t.user_attrs.get("pruned", False)
    ]


@dataclass(frozen=True, kw_only=True)
class StudySummary:
    """What a finished study found, as ``summary.md`` and ``holdem-lab tune`` report it."""

    name: str
    spec: StudySpec
    """What the study tuned (rebuilt from the stored attributes)."""
    protocol: MatchProtocol
    sampler: str
    sampler_seed: int
    """Root of the sampler seeds (each batch's seed derives from it, the worker id and the
    trials the study held when the batch was asked)."""
    pruner: str
    batch_size: int
    rounds: int
    environment: Mapping[str, str]
    """Versions of holdem-lab, Optuna, Python and the platform when the study was created."""
    trial_states: Mapping[str, int]
    """Trials per state name (``COMPLETE``, ``PRUNED``, ...), in Optuna's order of states."""
    std_error: float | None
    """Median standard error of one trial's value (sb/hand)."""
    paired_errors: tuple[float, ...]
    """Paired standard errors against the defaults of the fully evaluated trials."""
    pruned: int
    """Trials dropped by racing."""
    hands: int
    """Hands the trials played in all."""
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
            pruner=str(stored_pruner(attrs["pruner"])),
            batch_size=int(attrs.get("batch_size", 1)),
            rounds=int(attrs.get("rounds", 1)),
            environment=dict(attrs.get("environment", {})),
            trial_states={s.name: sum(t.state == s for t in trials) for s in TrialState},
            std_error=std_error,
            paired_errors=tuple(paired_errors(study)),
            pruned=sum(bool(t.user_attrs.get("pruned")) for t in trials),
            hands=sum(int(t.user_attrs.get("hands", 0)) for t in trials),
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
        """One sentence: whether the tuned parameters beat the defaults, with the confirmed
        interval."""
        if self.confirmation is None:
            return (
                "no trial but the defaults was fully evaluated (racing dropped every other "
                "one): the defaults stay"
            )
        return self.confirmation.verdict()

    def markdown(self, files: Sequence[str], results: str | None = None) -> str:
        """The ``summary.md`` of the study, listing ``files`` (written beside it); ``results``:
        the ``--results`` directory the regenerating command needs (``None``: the default)."""
        p = self.protocol
        counts = ", ".join(f"{k.lower()} {v}" for k, v in self.trial_states.items() if v)
        hands_per_trial = p.hands_per_block * p.blocks
        errors = sorted(self.paired_errors)
        lines = [
            f"# Tuning study `{self.name}`",
            "",
            f"**Answer: {self.verdict()}.**",
            "",
            f"{self.spec.title} with the trial's parameters against "
            f"{', '.join(f'`{o}`' for o in p.opponents)}, {_table(p.seats)}, the same deal "
            "blocks, cards and decision "
            "uniforms for every trial (common random numbers down to the decision). Values are "
            "AIVAT-corrected. Unit: small bets per hand (sb/hand); 95% t intervals over blocks.",
            "",
            "## Protocol",
            "",
            f"- trials: {self.trials} ({counts}; {self.pruned} dropped early by racing)",
            f"- per trial: {p.blocks} blocks (sessions) x {p.deals_per_block} deals x "
            f"{p.seats * len(p.lineups)} seatings = {hands_per_trial:,} hands; {self.hands:,} "
            "hands in all",
            f"- game: blinds {p.small_blind}/{p.big_blind}, bets {p.small_bet}/{p.big_bet}, "
            "ACPC caps",
            f"- seeds: deals root seed {p.seed} (namespaces: tuning {int(Namespace.TUNE)}, "
            f"re-evaluation {int(Namespace.REEVALUATE)}, confirmation "
            f"{int(Namespace.CONFIRM)}); sampler `{self.sampler}` seed {self.sampler_seed} "
            "(each batch's sampler seeded from it, the worker id and the trials held); "
            f"pruner `{self.pruner}` (racing rounds: {self.rounds}, batches of "
            f"{self.batch_size})",
            f"- search space: {self._space()}",
            f"- versions: {', '.join(f'{k} {v}' for k, v in self.environment.items())}",
            "",
            "## Noise and throughput",
            "",
            "- paired standard error of a fully evaluated trial against the defaults (same "
            f"blocks): median {_num(statistics.median(errors) if errors else None, '{:.4f}')}, "
            f"largest {_num(errors[-1] if errors else None, '{:.4f}')} sb/hand; "
            f"{sum(e <= 0.005 for e in errors)} of {len(errors)} at most 0.005",
            f"- median standard error of one trial's value: {_num(self.std_error)} sb/hand",
            f"- throughput: {_num(self.hands_per_cpu_second, '{:,.0f}')} hands per "
            "CPU-second (all evaluation processes, AIVAT included)",
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
        option = f" --results {results}" if results is not None else ""
        lines.append(
            "Regenerate the files from the stored study: "
            f"`holdem-lab plot --study {self.name}{option}`."
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
            return ["No trial was fully evaluated: the defaults are the result."]
        target = (
            f"played until the half-width was at most {c.target_half_width:g}"
            if c.target_half_width
            else "a fixed number of blocks"
        )
        reached = (
            ""
            if not c.target_half_width or c.half_width <= c.target_half_width
            else (f" (NOT reached: half-width {c.half_width:.4f}; confirm with more blocks)")
        )
        return [
            f"- tuned candidate: {self.winner.label}, the best re-evaluated trial",
            f"- tuned: {c.tuned.mean:+.4f} sb/hand {format_ci(c.tuned.ci)}; defaults: "
            f"{c.defaults.mean:+.4f} {format_ci(c.defaults.ci)} ({c.hands:,} hands each, "
            f"{target}{reached})",
            f"- tuned minus defaults: {c.diff:+.4f} sb/hand {format_ci(c.diff_ci)} (paired, "
            f"half-width {c.half_width:.4f}): {c.verdict()}",
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


def _table(seats: int) -> str:
    """How a study's hands are seated, in words."""
    if seats == 2:
        return "heads-up, duplicate deals (each deal played twice with the seats swapped)"
    return (
        f"at one {seats}-seat table, duplicate deals (each deal played {seats} times with the "
        "agents rotated over the seats)"
    )
