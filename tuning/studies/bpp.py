"""The BPP study: alpha, alpha' and the fp / cp curve parameters of BPP's mixed strategy.

Ten parameters by default (Carlton 2000, section "Mixed Strategy": the betting curves and the
alphas are what the thesis tuned): ``alpha`` and ``alpha_prime`` in [0, 2] on a linear scale
(1 means "one full bet per remaining round"), and ``fp_<round>``, ``cp_<round>`` for the four
betting rounds in [0.01, 10] on a log scale (the curves need positive steepness; 0.01 is
nearly flat, folding half the time, 10 nearly a step, which is the deterministic strategy only
in some cases: ``agents/bpp/README.md``). With ``per_round_alpha`` the two alphas become
eight, one per round; with ``curves_only`` only the eight fp / cp are searched and the alphas
keep their defaults (the thesis's own search: "the eight curve parameters"). The figure is the
betting curves of every round, Carlton's figures 8 and 9, the defaults dashed beside the tuned
values. Many points play at once as one ``BatchedBPP`` with per-table parameters.

>>> spec().names[:4]
('alpha', 'alpha_prime', 'fp_preflop', 'fp_flop')
>>> spec(ranges={"alpha": (1.0, 1.0)})
Traceback (most recent call last):
  ...
ValueError: empty range for alpha: low 1.0 must be below high 1.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from agents.bpp import BPPAgent, BPPParams, fold_probability, pass_probability
from agents.bpp.batched_agent import BatchedBPP
from tuning.studies.spec import ParamRange, StudySpec, with_ranges

__all__ = ["ROUNDS", "batched_agent", "from_params", "plot_curves", "spec", "to_params"]

ROUNDS = ("preflop", "flop", "turn", "river")
ALPHA_RANGE = (0.0, 2.0)
STEEPNESS_RANGE = (0.01, 10.0)


def spec(
    *,
    per_round_alpha: bool = False,
    curves_only: bool = False,
    ranges: Mapping[str, tuple[float, float]] | None = None,
) -> StudySpec:
    """The BPP study; ``ranges`` overrides ``{name: (low, high)}`` of the default ranges.

    Args:
        per_round_alpha: Search ``alpha_<round>`` and ``alpha_prime_<round>`` instead of two
            global alphas.
        curves_only: Search only the eight fp / cp (the alphas keep their defaults).
        ranges: Overrides of the default ranges; unknown names raise ``ValueError``.
    """
    if per_round_alpha and curves_only:
        raise ValueError("per_round_alpha and curves_only exclude each other")
    params = _params(per_round_alpha)
    defaults = from_params(BPPParams(), per_round_alpha=per_round_alpha)
    options: dict[str, Any] = {"per_round_alpha": per_round_alpha}
    if curves_only:
        params = tuple(p for p in params if p.name[:3] in ("fp_", "cp_"))
        defaults = {p.name: defaults[p.name] for p in params}
        options["curves_only"] = True
    return StudySpec(
        agent="bpp",
        title="BPP (mixed strategy)" + (", betting curves only" if curves_only else ""),
        params=with_ranges(params, ranges or {}),
        defaults=defaults,
        factory=agent,
        batched=batched_agent,
        settings=settings,
        default_opponents=("bpp-curves",),  # Carlton tuned against the curve BPP
        figure=plot_curves,
        figure_name="curves.png",
        options=options,
    )


def _params(per_round_alpha: bool) -> tuple[ParamRange, ...]:
    if per_round_alpha:
        alphas = [
            ParamRange(f"{a}_{r}", *ALPHA_RANGE, log=False)
            for a in ("alpha", "alpha_prime")
            for r in ROUNDS
        ]
    else:
        alphas = [ParamRange(a, *ALPHA_RANGE, log=False) for a in ("alpha", "alpha_prime")]
    curves = [
        ParamRange(f"{c}_{r}", *STEEPNESS_RANGE, log=True) for c in ("fp", "cp") for r in ROUNDS
    ]
    return (*alphas, *curves)


def to_params(values: Mapping[str, Any]) -> BPPParams:
    """The ``BPPParams`` of a point (other fields keep their defaults); per-round alphas when
    the point has ``alpha_preflop``; the default alphas when it has only the curves."""
    per_round_alpha = "alpha_preflop" in values
    if not per_round_alpha and "alpha" not in values and "alpha_prime" not in values:
        values = {**from_params(BPPParams()), **values}  # a curves-only point
    missing = {p.name for p in _params(per_round_alpha)} - set(values)
    if missing:
        raise ValueError(f"missing parameter(s) {sorted(missing)}")
    if per_round_alpha:
        alpha: float | tuple[float, ...] = tuple(float(values[f"alpha_{r}"]) for r in ROUNDS)
        alpha_prime: float | tuple[float, ...] = tuple(
            float(values[f"alpha_prime_{r}"]) for r in ROUNDS
        )
    else:
        alpha, alpha_prime = float(values["alpha"]), float(values["alpha_prime"])
    return BPPParams(
        alpha=alpha,  # type: ignore[arg-type]  # BPPParams accepts a number or four
        alpha_prime=alpha_prime,  # type: ignore[arg-type]
        fp=tuple(float(values[f"fp_{r}"]) for r in ROUNDS),  # type: ignore[arg-type]
        cp=tuple(float(values[f"cp_{r}"]) for r in ROUNDS),  # type: ignore[arg-type]
    )


def from_params(params: BPPParams, *, per_round_alpha: bool = False) -> dict[str, float]:
    """The point that ``params`` is (the inverse of ``to_params``).

    Raises:
        ValueError: with global alphas, if ``params`` has different alphas per round.
    """
    values: dict[str, float] = {}
    if per_round_alpha:
        for r, round_ in enumerate(ROUNDS):
            values[f"alpha_{round_}"] = params.alpha[r]
            values[f"alpha_prime_{round_}"] = params.alpha_prime[r]
    else:
        if len(set(params.alpha)) > 1 or len(set(params.alpha_prime)) > 1:
            raise ValueError("these parameters have per-round alphas: use per_round_alpha")
        values["alpha"], values["alpha_prime"] = params.alpha[0], params.alpha_prime[0]
    for r, round_ in enumerate(ROUNDS):
        values[f"fp_{round_}"] = params.fp[r]
        values[f"cp_{round_}"] = params.cp[r]
    return values


def agent(values: Mapping[str, float]) -> BPPAgent:
    """BPP (mixed strategy) with the parameters of a point."""
    return BPPAgent(to_params(values))


def batched_agent(points: Sequence[Mapping[str, float]]) -> BatchedBPP:
    """BPP (mixed strategy) at ``len(points)`` tables, table ``t`` with the parameters of
    ``points[t]``."""
    return BatchedBPP(len(points), [to_params(values) for values in points])


def settings(values: Mapping[str, float]) -> dict[str, Any]:
    """Every ``BPPParams`` value of a point, flat (``BPPParams.to_dict``)."""
    return dict(to_params(values).to_dict())


ROUND_TITLES = ("pre-flop", "flop", "turn", "river")
Curve = Callable[[npt.NDArray[np.float64], float], npt.NDArray[np.float64]]
CURVES: tuple[tuple[Curve, str, str, str], ...] = (
    (fold_probability, "fp", "P(fold)", "(EW(pass) - EW(fold)) / B"),
    (pass_probability, "cp", "P(pass/call | not folding)", "(EW(bet) - EW(pass)) / B"),
)


def plot_curves(
    defaults: Mapping[str, float], tuned: Mapping[str, float], path: Path, verdict: str = ""
) -> None:
    """The fold and call curves of every round, defaults against tuned (Carlton's figures 8
    and 9: the fold probability against (EW(pass) - EW(fold)) / B, the pass/call probability
    when not folding against (EW(bet) - EW(pass)) / B), titled with ``verdict`` (whether
    the tuned curves beat the defaults)."""
    x = np.linspace(-4.0, 4.0, 401)
    fig = Figure(figsize=(13, 6))
    axes = fig.subplots(2, 4, sharey=True)
    for row, (curve, attr, ylabel, xlabel) in enumerate(CURVES):
        for r, title in enumerate(ROUND_TITLES):
            ax = axes[row, r]
            for values, style, name in ((defaults, "--", "defaults"), (tuned, "-", "tuned")):
                steepness = getattr(to_params(values), attr)[r]
                ax.plot(x, curve(x, steepness), style, label=f"{name} {attr}={steepness:.3g}")
            ax.axhline(0.5, color="grey", linewidth=0.5)
            ax.axvline(0.0, color="grey", linewidth=0.5)
            ax.set_title(f"{title}: {'fold' if row == 0 else 'call'} curve")
            ax.set_xlabel(xlabel)
            ax.legend(fontsize=7, loc="upper right")
        axes[row, 0].set_ylabel(ylabel)
    title = "BPP mixed-strategy betting curves (Carlton 2000, figures 8 and 9)"
    fig.suptitle(f"{title}\n{verdict}" if verdict else title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
