"""The measured evidence of results/loki.md: one sub-command per experiment, seeded.

    python benchmarks/loki_evidence.py vpip --deals 20000 --hands 2000 --seed 2026
    python benchmarks/loki_evidence.py headsup --hands 200000 --seed 2026 [--sessions K]
    python benchmarks/loki_evidence.py table --hands 100000 --seed 2026 AGENT ...
    python benchmarks/loki_evidence.py loki2 --hands 100000 --seed 2026
    python benchmarks/loki_evidence.py som --hands 100000 --seed 2026

Every figure is in small bets per hand (sb/hand) or a fraction of hands, with a 95% CI. Matches
are duplicate (``envs.match.play_match``); a group of identical agents at one table is scored
by its per-deal mean, and a difference between two agents by the per-deal paired difference
(common random numbers: same seed, same deals). ``--estimator aivat`` (the default) scores
the AIVAT-corrected chips (``envs.aivat``: unbiased, less variance) and also prints the raw
figure; ``--sessions K`` plays K independent sessions (fresh agents in each; a learning agent
learns within a session), which the batched engine plays side by side. Prints Markdown.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.loki import Betting, Loki, LokiParams, Reweighting, Tightness
from agents.loki.preflop import load_preflop_table
from envs.events import Acted
from envs.game import Hand
from envs.match import MatchResult, play_match
from envs.protocols import SeatAgent
from envs.registry import make_agent
from envs.rules import Street
from envs.stats import mean_estimate
from tuning.loki_fit import preflop_vpip

BASELINES = ("rule", "call", "raise", "random", "bpp", "bpp-curves")
"""The heads-up opponents: the baseline bots and the papers' BPPs."""
VARIANTS = {
    "loki2-B": LokiParams(betting=Betting.TRIPLES),
    "loki2-R": LokiParams(reweighting=Reweighting.TRIPLES),
    "loki2-BR": LokiParams(betting=Betting.TRIPLES, reweighting=Reweighting.TRIPLES),
}
"""Pena's enhancements over Loki-1: PT betting (B), PT re-weighting (R), both."""


def ci_text(values: np.ndarray, scale: float = 1.0, digits: int = 3) -> str:
    estimate = mean_estimate(values * scale)
    assert estimate.ci is not None
    low, high = estimate.ci
    return f"{estimate.mean:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"


def per_deal_sb(result: MatchResult, columns: Sequence[int], *, raw: bool = False) -> np.ndarray:
    """Per-deal mean sb/hand of the agents in ``columns`` (one observation per deal): the
    AIVAT-corrected chips when the match has them (unless ``raw``), else the chips."""
    rotations = len(result.agents) if result.duplicate else 1
    chips = result.deal_aivat if result.deal_aivat is not None and not raw else result.deal_chips
    assert chips is not None
    return chips[:, list(columns)].mean(axis=1) / (rotations * result.rules.small_bet)


def match(
    agents: Sequence[SeatAgent | str], args: argparse.Namespace, **kw: object
) -> MatchResult:
    """``play_match`` with the experiment's hands, seed, sessions and estimator."""
    return play_match(
        agents,
        hands=args.hands,
        seed=args.seed,
        sessions=args.sessions,
        estimator=args.estimator,
        keep_deals=True,
        progress=True,
        **kw,  # type: ignore[arg-type]
    )


def vpip(args: argparse.Namespace) -> None:
    print(
        "| tightness | target | pre-flop self-play VPIP (95% CI) | full ten-handed match VPIP "
        "(95% CI) |"
    )
    print("|---|---:|---:|---:|")
    table = load_preflop_table()
    for tightness, target, name in (
        (Tightness.TIGHT, 0.18, "loki-tight"),
        (Tightness.MODERATE, 0.21, "loki-moderate"),
        (Tightness.LOOSE, 0.24, "loki"),
    ):
        pre = preflop_vpip(table, tightness, deals=args.deals, seed=args.seed)
        played: list[float] = []

        def record(hand: Hand, names: tuple[str, ...], played: list[float] = played) -> None:
            seats = {
                e.seat
                for e in hand.events
                if type(e) is Acted and e.street == Street.PREFLOP and e.amount > 0
            }
            played.append(len(seats) / len(names))

        play_match(
            [name] * 10,
            hands=args.hands,
            seed=args.seed,
            duplicate=False,
            on_hand=record,
            progress=True,
        )
        low, high = pre.ci
        full = mean_estimate(played)
        assert full.ci is not None
        print(
            f"| {tightness.value} | {target:.0%} | {pre.vpip:.2%} [{low:.2%}, {high:.2%}] "
            f"({pre.hands:,} seat-hands) | {full.mean:.2%} [{full.ci[0]:.2%}, {full.ci[1]:.2%}] "
            f"({10 * args.hands:,} seat-hands) |"
        )


def headsup(args: argparse.Namespace) -> None:
    """Loki (generic) and Loki-SOM against each baseline heads-up, plus their paired gap."""
    print(
        "| opponent | loki sb/hand (95% CI) | loki-som sb/hand (95% CI) | som - generic, paired "
        "| loki2 sb/hand (95% CI) | raw: loki / loki-som / loki2 |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for opponent in BASELINES:
        results = {name: match([name, opponent], args) for name in ("loki", "loki-som", "loki2")}
        gom = per_deal_sb(results["loki"], [0])
        som = per_deal_sb(results["loki-som"], [0])
        pt = per_deal_sb(results["loki2"], [0])
        raw = " / ".join(
            f"{per_deal_sb(results[name], [0], raw=True).mean():+.3f}"
            for name in ("loki", "loki-som", "loki2")
        )
        print(
            f"| {opponent} | {ci_text(gom)} | {ci_text(som)} | {ci_text(som - gom)} | "
            f"{ci_text(pt)} | {raw} |"
        )


def table(args: argparse.Namespace) -> None:
    print(_group_rows(match(args.agents, args)))


def _group_rows(result: MatchResult) -> str:
    groups: dict[str, list[int]] = {}
    for column, label in enumerate(result.agents):
        groups.setdefault(label.split("#")[0], []).append(column)
    lines = [
        f"{result.hands:,} hands ({result.deals:,} deals x {len(result.agents)} seatings), "
        f"seed {result.seed}",
        "",
        "| agent (copies) | sb/hand per copy (95% CI) | raw sb/hand per copy (95% CI) | VPIP |",
        "|---|---:|---:|---:|",
    ]
    for name, columns in groups.items():
        vpips = [result.results[c].vpip for c in columns]
        lines.append(
            f"| {name} ({len(columns)}) | {ci_text(per_deal_sb(result, columns))} | "
            f"{ci_text(per_deal_sb(result, columns, raw=True))} | {np.mean(vpips):.1%} |"
        )
    return "\n".join(lines)


def loki2(args: argparse.Namespace) -> None:
    """Pena's homogeneous test: 8 Loki-1 and 2 enhanced players at ten seats."""
    for label, params in VARIANTS.items():
        agents: list[SeatAgent | str] = [make_agent("loki") for _ in range(8)]
        agents += [Loki(params, name=label) for _ in range(2)]
        names = [f"loki#{i}" for i in range(1, 9)] + [f"{label}#1", f"{label}#2"]
        result = match(agents, args, names=names)
        print(f"#### {label}: 8 loki + 2 {label}\n")
        print(_group_rows(result) + "\n")


def som(args: argparse.Namespace) -> None:
    """Five generic and five specific Loki-1 at ten seats."""
    result = match(["loki"] * 5 + ["loki-som"] * 5, args)
    print(_group_rows(result))
    gom = per_deal_sb(result, range(5))
    som_ = per_deal_sb(result, range(5, 10))
    print(f"\nsom - generic per copy, paired by deal: {ci_text(som_ - gom)} sb/hand")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="experiment", required=True)
    for name, function in (
        ("vpip", vpip),
        ("headsup", headsup),
        ("table", table),
        ("loki2", loki2),
        ("som", som),
    ):
        command = sub.add_parser(name)
        command.add_argument("--hands", type=int, required=True)
        command.add_argument("--seed", type=int, required=True)
        command.add_argument("--sessions", type=int, default=1, help="independent sessions")
        command.add_argument("--estimator", choices=("raw", "aivat"), default="aivat")
        command.set_defaults(function=function)
        if name == "vpip":
            command.add_argument("--deals", type=int, default=20_000)
        if name == "table":
            command.add_argument("agents", nargs="+")
    args = parser.parse_args(argv)
    print(f"`python benchmarks/loki_evidence.py {' '.join(argv or sys.argv[1:])}`\n")
    args.function(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
