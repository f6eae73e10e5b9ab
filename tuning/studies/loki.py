"""The Loki studies: Loki-1 (``--agent loki``) and Loki-2 (``--agent loki2``) knobs, heads-up.

The knobs are those that act heads-up, the default table (``MatchProtocol.seats``, ``--seats``
plays larger tables with the same knobs). Not ``probability_play``: it sets the expected
number of players pre-flop (Papp 1998 eq. 6.2), which heads-up is always 2 (both blinds are
in), so it never changes a heads-up decision; at larger tables it keeps its published value.
The knobs:

* ``preflop_shift``: every pre-flop threshold of Loki's tightness (Table B.1's Make1, Make2,
  Make4 bases and the small blind's Call1 / Call2) lowered by this many IR4 units (x1000), in
  every group (``LokiParams.preflop_shift``, ``PreflopTable.shifted``). Positive is looser.
  The fitted tightnesses lie 54 units tighter to 65 looser than the surviving row, so
  [-150, 150] spans well beyond them.
* ``make1``, ``make2``: the post-flop EHS' thresholds of betting and raising (Papp 1998
  section 6.2, Appendix B: 0.50 and 0.85), in [0.40, 0.60] and [0.75, 0.95].
* ``preflop_sigma``: the spread of the pre-flop re-weighting ramp, IR7 units (Papp 1998
  section 7.2.2: 330), in [100, 1000] on a log scale.
* Loki-1 only: ``sigma_slope``, the post-flop re-weighting spread sigma = sigma_slope (1 - mu)
  (Papp 1998 section 7.2.3: 0.4), in [0.1, 1.0].
* Loki-2 only: ``triple_width``, the half-width of the probability triples' blend around make1
  and make2 (ours: 0.05; Pena 1999 section 4.1 gives none), in [0, 0.07].

A point is ``LokiParams`` fields by name (``to_params``), as the BPP study's is ``BPPParams``
fields; every other field keeps its published value (``LokiParams()`` for Loki-1,
``Loki2.default_params()`` for Loki-2), and the defaults are the published agent itself (the
registry's ``loki`` / ``loki2``, which are also the default opponents: a study asks whether
any setting beats the published agent). The ranges keep every point valid (make1 below make2,
the blend narrower than half their gap); ``ranges`` that could break this are refused. Many
points play at once as one ``BatchedLoki`` with per-table parameters.

The figure shows what the knobs do: post-flop, the EHS' zones of checking / folding, betting /
calling and raising; pre-flop, the share of the 1,326 holdings that reach each heads-up
threshold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from agents.loki import Loki, Loki2, LokiParams
from agents.loki.batched_loki import BatchedLoki
from agents.loki.preflop import Group, PreflopStrategy, load_preflop_table
from agents.strength.income_rate import load_income_rates
from tuning.studies.spec import ParamRange, StudySpec, with_ranges

__all__ = ["loki2_batched", "loki2_spec", "loki_batched", "loki_spec", "to_params"]

_COMMON = (
    ParamRange("preflop_shift", -150.0, 150.0, log=False),
    ParamRange("make1", 0.40, 0.60, log=False),
    ParamRange("make2", 0.75, 0.95, log=False),
    ParamRange("preflop_sigma", 100.0, 1000.0, log=True),
)
_LOKI1 = (*_COMMON, ParamRange("sigma_slope", 0.1, 1.0, log=False))
_LOKI2 = (*_COMMON, ParamRange("triple_width", 0.0, 0.07, log=False))


def loki_spec(*, ranges: Mapping[str, tuple[float, float]] | None = None) -> StudySpec:
    """The Loki-1 study (registry ``loki``: loose, generic modelling, rule betting)."""
    params = with_ranges(_LOKI1, ranges or {})
    _check(params)
    return StudySpec(
        agent="loki",
        title="Loki (Loki-1: loose, generic opponent modelling)",
        params=params,
        defaults=_defaults(LokiParams(), params),
        factory=loki_agent,
        batched=loki_batched,
        settings=loki_settings,
        default_opponents=("loki",),
        figure=plot_loki,
        figure_name="loki.png",
    )


def loki2_spec(*, ranges: Mapping[str, tuple[float, float]] | None = None) -> StudySpec:
    """The Loki-2 study (registry ``loki2``: probability triples)."""
    params = with_ranges(_LOKI2, ranges or {})
    _check(params)
    return StudySpec(
        agent="loki2",
        title="Loki-2 (probability triples, generic opponent modelling)",
        params=params,
        defaults=_defaults(Loki2.default_params(), params),
        factory=loki2_agent,
        batched=loki2_batched,
        settings=loki2_settings,
        default_opponents=("loki2",),
        figure=plot_loki,
        figure_name="loki.png",
    )


def _defaults(base: LokiParams, params: tuple[ParamRange, ...]) -> dict[str, float]:
    return {p.name: float(getattr(base, p.name)) for p in params}


def _check(params: tuple[ParamRange, ...]) -> None:
    """Refuse ranges that hold invalid points (``LokiParams`` would refuse them mid-study)."""
    by_name = {p.name: p for p in params}
    make1, make2 = by_name["make1"], by_name["make2"]
    if not (make1.low > 0.0 and make1.high < make2.low and make2.high <= 1.0):
        raise ValueError(
            f"make1's range [{make1.low:g}, {make1.high:g}] must lie above 0 and below make2's "
            f"[{make2.low:g}, {make2.high:g}], which must not exceed 1"
        )
    width = by_name.get("triple_width")
    if width is not None and not (width.low >= 0.0 and width.high < (make2.low - make1.high) / 2):
        raise ValueError(
            f"triple_width's range [{width.low:g}, {width.high:g}] must be non-negative and "
            f"below half the smallest make1..make2 gap, {(make2.low - make1.high) / 2:g}"
        )
    sigma_slope = by_name.get("sigma_slope")
    if sigma_slope is not None and not (sigma_slope.low > 0.0 and sigma_slope.high <= 1.0):
        raise ValueError(f"sigma_slope's range must lie in (0, 1], got {sigma_slope}")


def to_params(base: LokiParams, values: Mapping[str, float]) -> LokiParams:
    """``base`` with the ``LokiParams`` fields a point names (``ValueError`` for other names)."""
    unknown = sorted(set(values) - {f.name for f in fields(LokiParams)})
    if unknown:
        raise ValueError(f"{unknown} are not LokiParams fields")
    knobs = {name: float(value) for name, value in values.items()}
    return replace(base, **knobs)  # type: ignore[arg-type]  # the knobs are float fields


def loki_agent(values: Mapping[str, float]) -> Loki:
    """Loki-1 with the point's knobs."""
    return Loki(to_params(LokiParams(), values))


def loki2_agent(values: Mapping[str, float]) -> Loki2:
    """Loki-2 with the point's knobs."""
    return Loki2(to_params(Loki2.default_params(), values))


def loki_batched(points: Sequence[Mapping[str, float]]) -> BatchedLoki:
    """Loki-1 at ``len(points)`` tables, table ``t`` with the knobs of ``points[t]``."""
    params = [to_params(LokiParams(), values) for values in points]
    return BatchedLoki(len(points), params, name="loki")


def loki2_batched(points: Sequence[Mapping[str, float]]) -> BatchedLoki:
    """Loki-2 at ``len(points)`` tables, table ``t`` with the knobs of ``points[t]``."""
    params = [to_params(Loki2.default_params(), values) for values in points]
    return BatchedLoki(len(points), params, name="loki2")


def loki_settings(values: Mapping[str, float]) -> dict[str, Any]:
    """Every ``LokiParams`` field of a Loki-1 point."""
    return _settings(to_params(LokiParams(), values))


def loki2_settings(values: Mapping[str, float]) -> dict[str, Any]:
    """Every ``LokiParams`` field of a Loki-2 point."""
    return _settings(to_params(Loki2.default_params(), values))


def _settings(params: LokiParams) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(params):
        value = getattr(params, f.name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = [list(row) for row in value]
        out[f.name] = value
    return out


ZONES = (("check / fold (or odds)", "0.85"), ("bet / call (Make1)", "0.55"), ("raise", "0.25"))


def plot_loki(
    defaults: Mapping[str, float], tuned: Mapping[str, float], path: Path, verdict: str = ""
) -> None:
    """Post-flop EHS' zones and pre-flop heads-up thresholds, defaults against tuned, titled
    with ``verdict``."""
    fig = Figure(figsize=(12, 5))
    if verdict:
        fig.suptitle(verdict)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    for row, values in enumerate((defaults, tuned)):
        cuts = [0.0, values["make1"], values["make2"], 1.0]
        for zone, (name, grey) in enumerate(ZONES):
            left.barh(
                row,
                cuts[zone + 1] - cuts[zone],
                left=cuts[zone],
                color=grey,
                edgecolor="black",
                label=name if row == 0 else None,
            )
        width = values.get("triple_width", 0.0)
        for cut in cuts[1:3]:
            if width > 0:
                left.barh(row, 2 * width, left=cut - width, fill=False, hatch="//", color="C0")
        left.text(1.01, row, f"make1 {cuts[1]:.3f}, make2 {cuts[2]:.3f}", va="center")
    left.set_yticks([0, 1], ["defaults", "tuned"])
    left.set_xlim(0.0, 1.35)
    left.set_xlabel("EHS' (hatched: probability-triple blend)")
    left.set_title("post-flop: action by EHS'")
    left.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.4, -0.16), ncol=3)
    labels, shares = _preflop_shares(defaults, tuned)
    x = np.arange(len(labels))
    for k, name in enumerate(("defaults", "tuned")):
        right.bar(x + (k - 0.5) * 0.38, shares[name], width=0.38, label=name)
    right.set_xticks(x, labels, fontsize=8)
    right.set_ylabel("share of the 1,326 holdings")
    right.set_title("pre-flop, heads-up: IR2 reaching the threshold")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _preflop_shares(
    defaults: Mapping[str, float], tuned: Mapping[str, float]
) -> tuple[list[str], dict[str, list[float]]]:
    """Heads-up (group "2", IR2): small blind (position 1) Call1 and Make2, big blind
    (position 0) Make1 and Make2, as shares of the holdings whose IR2 reaches them."""
    ir2 = load_income_rates().of_holdings(Group.TWO.players)
    tightness = LokiParams().tightness
    labels = ["SB calls", "SB raises", "BB Make1", "BB raises"]
    shares: dict[str, list[float]] = {}
    for name, values in (("defaults", defaults), ("tuned", tuned)):
        table = load_preflop_table().shifted(tightness, float(values["preflop_shift"]))
        call1, _ = table.small_blind[tightness, Group.TWO]
        make1_sb = table.threshold(tightness, Group.TWO, PreflopStrategy.MAKE1, 1)
        thresholds = [
            min(call1, make1_sb),
            table.threshold(tightness, Group.TWO, PreflopStrategy.MAKE2, 1),
            table.threshold(tightness, Group.TWO, PreflopStrategy.MAKE1, 0),
            table.threshold(tightness, Group.TWO, PreflopStrategy.MAKE2, 0),
        ]
        shares[name] = [float(np.mean(ir2 >= t)) for t in thresholds]
    return labels, shares
