"""Does the sampler matter? Optuna's default against Carlton's stochastic greedy search.

Each sampler runs one study per seed with the same protocol, the same number of trials (so the
same hands budget; no pruning) and the same tuning deals. Each study's pick is what that
optimiser would report: its best observed trial. The picks and the agent's defaults are then
played on held-out deals (a namespace no study saw), all on the same blocks, so that every
difference is paired: per seed, sampler against sampler and pick against defaults, with 95%
t intervals over blocks; across seeds, the mean difference with a t interval over seeds
(which also carries the optimisers' own randomness).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from optuna.trial import TrialState

from envs.stats import mean_estimate
from tuning.evaluation import MatchProtocol, Namespace
from tuning.launch import run_trials
from tuning.reevaluate import DEFAULTS, Candidate, block_means
from tuning.samplers import SamplerName
from tuning.studies import DEFAULT_AGENT, StudySpec, make_spec
from tuning.study import StudySettings
from tuning.summary import format_ci


@dataclass(frozen=True)
class Pick:
    """One study's reported parameters and their held-out block means."""

    sampler: str
    seed: int
    trial: int
    best_observed: float
    values: dict[str, float]
    holdout: list[float]


def run_comparison(
    spec: StudySpec,
    samplers: Sequence[str],
    seeds: Sequence[int],
    *,
    trials: int,
    protocol: MatchProtocol,
    holdout_blocks: int,
    results_dir: Path,
    workers: int = 1,
    progress: bool = False,
) -> dict[str, Any]:
    """Run every (sampler, seed) study of ``spec``, evaluate the picks on held-out deals;
    return the data."""
    picks: list[Candidate] = [Candidate(DEFAULTS, None, dict(spec.defaults))]
    meta: list[tuple[str, int, int, float]] = []
    for sampler in samplers:
        for seed in seeds:
            settings = StudySettings(
                study_name=f"{sampler}-seed{seed}",
                trials=trials,
                results_dir=results_dir,
                sampler=SamplerName(sampler),
                seed=seed,
                protocol=protocol,
                spec=spec,
            )
            study = run_trials(settings, workers=workers, progress=progress)
            best = max(
                (
                    t
                    for t in study.get_trials(states=(TrialState.COMPLETE,))
                    if t.value is not None
                ),
                key=lambda t: t.value or 0.0,
            )
            picks.append(Candidate(f"{sampler}-seed{seed}", best.number, dict(best.params)))
            meta.append((sampler, seed, best.number, float(best.value or 0.0)))
    tasks = [(c.values, b) for c in picks for b in range(holdout_blocks)]
    means = np.array(block_means(spec, tasks, protocol, Namespace.HOLDOUT, workers, progress))
    table = means.reshape(len(picks), holdout_blocks)
    results = [
        dataclasses.asdict(Pick(s, seed, n, best, picks[k + 1].values, table[k + 1].tolist()))
        for k, (s, seed, n, best) in enumerate(meta)
    ]
    return {
        "agent": spec.agent,
        "samplers": list(samplers),
        "seeds": list(seeds),
        "holdout_blocks": holdout_blocks,
        "protocol": protocol.to_dict(),
        "trials": trials,
        "hands_per_study": trials * protocol.hands_per_block * protocol.blocks,
        "holdout_hands": holdout_blocks * protocol.hands_per_block,
        "defaults_holdout": table[0].tolist(),
        "picks": results,
    }


def summarise(data: dict[str, Any]) -> dict[str, Any]:
    """Means and paired CIs from ``run_comparison``'s data (pure arithmetic, no play)."""
    defaults = np.array(data["defaults_holdout"])
    by_sampler: dict[str, dict[int, np.ndarray]] = {}
    rows = []
    for pick in data["picks"]:
        blocks = np.array(pick["holdout"])
        by_sampler.setdefault(pick["sampler"], {})[pick["seed"]] = blocks
        level, diff = mean_estimate(blocks), mean_estimate(blocks - defaults)
        rows.append(
            {**pick, "mean": level.mean, "ci": level.ci, "diff": diff.mean, "diff_ci": diff.ci}
        )
    samplers = list(by_sampler)
    pairs = []
    for i, a in enumerate(samplers):
        for b in samplers[i + 1 :]:
            seeds = sorted(set(by_sampler[a]) & set(by_sampler[b]))
            per_seed = {s: mean_estimate(by_sampler[a][s] - by_sampler[b][s]) for s in seeds}
            across = mean_estimate([e.mean for e in per_seed.values()]) if seeds else None
            pairs.append(
                {
                    "a": a,
                    "b": b,
                    "per_seed": {s: (e.mean, e.ci) for s, e in per_seed.items()},
                    "mean": across.mean if across else None,
                    "ci": across.ci if across else None,
                }
            )
    return {"defaults": mean_estimate(defaults), "rows": rows, "pairs": pairs}


def write_report(data: dict[str, Any], directory: Path) -> list[Path]:
    """``comparison.json``, ``comparison.md`` and ``holdout.png`` in ``directory``."""
    summary = summarise(data)
    agent = data.get("agent", DEFAULT_AGENT)  # comparisons before studies named their agent
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / "comparison.json"
    json_path.write_text(json.dumps(data, indent=1) + "\n")
    d = summary["defaults"]
    lines = [
        "# Sampler comparison: equal hands budgets, judged on held-out deals",
        "",
        f"Each study: {data['trials']} trials = {data['hands_per_study']:,} hands against "
        f"{', '.join(data['protocol']['opponents'])} (deals seed {data['protocol']['seed']}). "
        "Each study's pick is its best observed trial; picks and defaults are played on the "
        f"same held-out deals ({data['holdout_hands']:,} hands each). sb/hand, 95% t intervals "
        "over blocks (per study) or over seeds (across seeds).",
        "",
        f"{make_spec(agent).title} defaults on the held-out deals: "
        f"{d.mean:+.4f} {format_ci(d.ci)}",
        "",
        "| study | pick | best observed | held-out sb/hand | 95% CI | minus defaults | 95% CI |",
        "|---|---|---:|---:|---|---:|---|",
    ]
    for r in summary["rows"]:
        lines.append(
            f"| {r['sampler']} seed {r['seed']} | trial {r['trial']} | {r['best_observed']:+.4f} "
            f"| {r['mean']:+.4f} | {format_ci(r['ci'])} | {r['diff']:+.4f} "
            f"| {format_ci(r['diff_ci'])} |"
        )
    lines += ["", "## Sampler against sampler (paired on the held-out deals)", ""]
    for p in summary["pairs"]:
        per_seed = "; ".join(
            f"seed {s}: {m:+.4f} {format_ci(ci)}" for s, (m, ci) in p["per_seed"].items()
        )
        lines.append(f"- {p['a']} minus {p['b']}: {per_seed}")
        if p["mean"] is not None:
            lines.append(f"  - mean over seeds: {p['mean']:+.4f} {format_ci(p['ci'])}")
    p = data["protocol"]
    command = (
        f"holdem-lab compare-samplers --agent {agent} --samplers {' '.join(data['samplers'])} "
        f"--seeds {' '.join(map(str, data['seeds']))} --trials {data['trials']} "
        f"--opponent {' '.join(p['opponents'])} --deals-per-block {p['deals_per_block']} "
        f"--blocks {p['blocks']} --seed {p['seed']} --holdout-blocks {data['holdout_blocks']} "
        f"--out {directory}"
    )
    lines += [
        "",
        f"Reproduce: `{command}` (add `--workers 2` on two cores). The studies are resumable "
        "journals in this directory; `--report-only` redraws this page and the figure from "
        "`comparison.json`.",
    ]
    md_path = directory / "comparison.md"
    md_path.write_text("\n".join(lines) + "\n")
    fig = Figure(figsize=(9, 4))
    ax = fig.subplots()
    labels = ["defaults", *(f"{r['sampler']}\nseed {r['seed']}" for r in summary["rows"])]
    estimates = [d, *(mean_estimate(np.array(r["holdout"])) for r in summary["rows"])]
    for x, e in enumerate(estimates):
        lo, hi = e.ci if e.ci else (e.mean, e.mean)
        ax.errorbar([x], [e.mean], yerr=[[e.mean - lo], [hi - e.mean]], fmt="o", capsize=4)
    ax.axhline(d.mean, color="grey", linestyle="--")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("sb/hand on held-out deals (95% CI)")
    ax.set_title("Each study's pick on held-out deals")
    fig.tight_layout()
    png = directory / "holdout.png"
    fig.savefig(png, dpi=110)
    return [json_path, md_path, png]
