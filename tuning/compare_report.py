"""The sampler comparison's report, from its data alone (``tuning.compare``): no play here.

* per study: its pick at the budget, held-out value and paired difference to the defaults
  (95% t intervals over held-out blocks);
* per sampler: the mean gain over the defaults across seeds, with a t interval over seeds;
  every pair of samplers likewise (paired by seed), and which sampler wins;
* ``regret.png``: the held-out value of each study's incumbent minus the defaults' against
  the hands spent (thin: each seed; thick: the mean over seeds), ``holdout.png``: each
  sampler's gains at the budget with their interval over seeds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from envs.stats import MeanEstimate, mean_estimate
from tuning.racing import stored_pruner
from tuning.summary import format_ci

__all__ = ["at_budget", "summarise", "write_report"]


def at_budget(curve: Sequence[Mapping[str, int]], budget: int) -> Mapping[str, int]:
    """The curve's point at ``budget`` hands: the last batch ending within it (the first
    batch if even that one overran it)."""
    within = [point for point in curve if point["hands"] <= budget]
    return within[-1] if within else curve[0]


def summarise(data: Mapping[str, Any]) -> dict[str, Any]:
    """Picks, gains over the defaults and sampler comparisons (module docstring)."""
    holdout = np.asarray(data["holdout"], dtype=float)
    gains = holdout - holdout[0]  # per candidate and held-out block, paired with the defaults
    rows = []
    by_sampler: dict[str, dict[int, float]] = {}
    for study in data["studies"]:
        if not study["curve"]:
            continue
        pick = at_budget(study["curve"], data["budget_hands"])
        level, gain = (
            mean_estimate(holdout[pick["candidate"]]),
            mean_estimate(gains[pick["candidate"]]),
        )
        rows.append({**study, "pick": pick, "level": level, "gain": gain})
        by_sampler.setdefault(study["sampler"], {})[study["seed"]] = gain.mean
    samplers = {s: mean_estimate(list(v.values())) for s, v in by_sampler.items()}
    pairs = []
    names = list(by_sampler)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            seeds = sorted(set(by_sampler[a]) & set(by_sampler[b]))
            diffs = [by_sampler[a][s] - by_sampler[b][s] for s in seeds]
            pairs.append({"a": a, "b": b, "seeds": seeds, "diff": mean_estimate(diffs)})
    ranked = sorted(samplers, key=lambda s: samplers[s].mean, reverse=True)
    return {
        "defaults": mean_estimate(holdout[0]),
        "rows": rows,
        "samplers": samplers,
        "ranked": ranked,
        "pairs": pairs,
        "winner": _winner(ranked, pairs),
    }


def _winner(ranked: list[str], pairs: list[dict[str, Any]]) -> str:
    if len(ranked) < 2:
        return f"only {ranked[0] if ranked else 'no sampler'} ran: nothing to compare"
    best, second = ranked[0], ranked[1]
    pair = next(p for p in pairs if {p["a"], p["b"]} == {best, second})
    diff: MeanEstimate = pair["diff"]
    sign = 1.0 if pair["a"] == best else -1.0
    mean = sign * diff.mean
    ci = None if diff.ci is None else sorted((sign * diff.ci[0], sign * diff.ci[1]))
    text = f"{best} minus {second}: {mean:+.4f} sb/hand {format_ci(ci)} over seeds"
    if ci is not None and ci[0] > 0:
        return f"{best} wins: {text}, significantly better than the runner-up"
    return f"no sampler wins significantly: the best mean is {best}'s, but {text} contains 0"


def write_report(data: Mapping[str, Any], directory: Path) -> list[Path]:
    """``comparison.json``, ``comparison.md``, ``regret.png`` and ``holdout.png``."""
    summary = summarise(data)
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / "comparison.json"
    json_path.write_text(json.dumps(data, indent=1) + "\n")
    md_path = directory / "comparison.md"
    md_path.write_text(_markdown(data, summary, directory))
    regret, holdout = directory / "regret.png", directory / "holdout.png"
    _plot_regret(data, regret)
    _plot_gains(summary, holdout)
    return [json_path, md_path, regret, holdout]


def _markdown(data: Mapping[str, Any], summary: Mapping[str, Any], directory: Path) -> str:
    p = data["protocol"]
    d = summary["defaults"]
    pruner = stored_pruner(data["pruner"])
    lines = [
        "# Sampler comparison: equal budgets in hands, judged on held-out deals",
        "",
        f"**{summary['winner']}.**",
        "",
        f"Each study: {data['budget_hands']:,} hands of {data['agent']} against "
        f"{', '.join(p['opponents'])} ({p['blocks']} blocks x {p['deals_per_block']} deals per "
        f"trial, batches of {data['batch_size']}, {data['rounds']} racing rounds, pruner "
        f"{pruner}); seed s seeds the sampler and the tuning deals (root {p['seed']} + "
        "s). A study's pick is its incumbent (best observed fully evaluated trial) after the "
        "last batch within the budget. Picks, incumbents and defaults play the same held-out "
        f"deals ({data['holdout_hands']:,} hands each). AIVAT-corrected sb/hand; 95% t "
        "intervals over held-out blocks (per study) or over seeds (per sampler).",
        "",
        f"Defaults on the held-out deals: {d.mean:+.4f} {format_ci(d.ci)}",
        "",
        "## Per sampler (gain over the defaults at the budget)",
        "",
        "| sampler | seeds | mean gain | 95% CI over seeds |",
        "|---|---:|---:|---|",
    ]
    for name in summary["ranked"]:
        e = summary["samplers"][name]
        lines.append(f"| {name} | {e.count} | {e.mean:+.4f} | {format_ci(e.ci)} |")
    lines += ["", "## Sampler against sampler (paired by seed)", ""]
    for pair in summary["pairs"]:
        e = pair["diff"]
        lines.append(f"- {pair['a']} minus {pair['b']}: {e.mean:+.4f} {format_ci(e.ci)}")
    lines += [
        "",
        "## Studies",
        "",
        "| study | trials | pick | hands at the pick | held-out | minus defaults | 95% CI |",
        "|---|---:|---|---:|---:|---:|---|",
    ]
    for r in summary["rows"]:
        lines.append(
            f"| {r['sampler']} seed {r['seed']} | {r['trials']} | trial {r['pick']['trial']} | "
            f"{r['pick']['hands']:,} | {r['level'].mean:+.4f} | {r['gain'].mean:+.4f} | "
            f"{format_ci(r['gain'].ci)} |"
        )
    command = (
        f"holdem-lab compare-samplers --agent {data['agent']} "
        f"--samplers {' '.join(data['samplers'])} --seeds {' '.join(map(str, data['seeds']))} "
        f"--budget-hands {data['budget_hands']} --opponent {' '.join(p['opponents'])} "
        f"--deals-per-block {p['deals_per_block']} --blocks {p['blocks']} --seed {p['seed']} "
        f"--batch-size {data['batch_size']} --rounds {data['rounds']} --pruner {pruner} "
        f"--holdout-blocks {data['holdout_blocks']} "
        + ("--curves-only " if data.get("options", {}).get("curves_only") else "")
        + f"--out {directory}"
    )
    lines += [
        "",
        "![regret](regret.png)",
        "",
        f"Reproduce: `{command}` (add `--workers 2` on two cores: the figures do not change). "
        "The studies are resumable journals in this directory; `--report-only` redraws this "
        "page and the figures from `comparison.json`.",
    ]
    return "\n".join(lines) + "\n"


def _plot_regret(data: Mapping[str, Any], path: Path) -> None:
    holdout = np.asarray(data["holdout"], dtype=float)
    gain = holdout.mean(axis=1) - holdout[0].mean()
    budget = data["budget_hands"]
    grid = np.linspace(0, budget, 200)
    fig = Figure(figsize=(9, 5))
    ax = fig.subplots()
    for c, sampler in enumerate(data["samplers"]):
        curves = []
        for study in data["studies"]:
            if study["sampler"] != sampler or not study["curve"]:
                continue
            hands = np.array([p["hands"] for p in study["curve"]])
            values = gain[[p["candidate"] for p in study["curve"]]]
            at = np.searchsorted(hands, grid, side="right") - 1
            curve = np.where(at >= 0, values[np.maximum(at, 0)], np.nan)
            curves.append(curve)
            ax.step(grid, curve, where="post", color=f"C{c}", alpha=0.25, linewidth=0.8)
        if curves:
            stack = np.array(curves)
            counts = np.isfinite(stack).sum(axis=0)
            mean = np.where(counts > 0, np.nansum(stack, axis=0) / np.maximum(counts, 1), np.nan)
            ax.step(grid, mean, where="post", color=f"C{c}", label=sampler)
    ax.axhline(0.0, color="grey", linestyle="--", linewidth=0.8, label="defaults")
    ax.set_xlabel("hands spent by the study")
    ax.set_ylabel("held-out sb/hand of the incumbent minus the defaults")
    ax.set_title("Regret curves: the incumbent's held-out value against the hands spent")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _plot_gains(summary: Mapping[str, Any], path: Path) -> None:
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    for x, name in enumerate(summary["ranked"]):
        e: MeanEstimate = summary["samplers"][name]
        lo, hi = e.ci if e.ci else (e.mean, e.mean)
        ax.errorbar([x], [e.mean], yerr=[[e.mean - lo], [hi - e.mean]], fmt="o", capsize=5)
        seeds = [r["gain"].mean for r in summary["rows"] if r["sampler"] == name]
        ax.scatter([x] * len(seeds), seeds, s=10, color="grey", zorder=3)
    ax.axhline(0.0, color="grey", linestyle="--")
    ax.set_xticks(range(len(summary["ranked"])), summary["ranked"])
    ax.set_ylabel("held-out gain over the defaults, sb/hand")
    ax.set_title("Each sampler's pick at the budget (dots: seeds; bars: 95% CI over seeds)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
