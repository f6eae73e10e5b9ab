"""The local best response's speed: the batched twin beside the scalar agent, and where the
batched time goes.

Protocol. ``envs.match.play_match`` end to end (decks, engine, both agents, the runner's
accounts), timed with ``time.process_time`` (CPU time: the machine is shared). Each heads-up
set-up is played by the batched engine (``--hands`` hands in sessions of ``--deals`` deals per
seating) and by the scalar engine (``--scalar-hands`` hands, one session) in alternating
rounds; the figure is the median over rounds and the ratio is of the medians of the same run.
``lbr-loki`` against ``loki`` is slower by two orders of magnitude, so it plays fewer hands:
``--loki-hands`` batched (in sessions of ``--deals`` deals per seating) and
``--loki-scalar-hands`` scalar, in the same alternating rounds. The pre-flop equities (1,326
roll-outs, kept per process) and the compiled kernels are built before timing.

Against an earlier commit (``--against REV``, default ``3067788``, the code before Loki's
sweep by now-rank group, its rules asked once per spot and the memoryless shadow left untold
of hands' ends; ``b584ae5`` before the
compiled betting step of the engine, the fused range passes and the branch-free holding
types; ``43e41a7`` before the flushes' class scores taken off per suit in the roll-outs;
``c67c29d`` before the equities
written in place and the opponent's decisions grouped by its own order; ``74e1e13``
is the code before BPP's type belief and the shadow hands kept between decisions,
``3bcb3ea`` before the rank-class roll-outs and the one-pass range kernels; ``none`` to
skip): the batched matches of
both trees, each in a fresh process (``PYTHONPATH`` set to a temporary git worktree of REV, as
``benchmarks/bench_ab.py`` does, with its helpers) that computes every pre-flop equity and plays a
warm-up match before timing, in the same alternating rounds; the speed-up is REV's CPU time
over this tree's.

By table count (``--tables``, default 400, 800, 1,600 and 3,200; ``none`` to skip): the
batched ``lbr-bpp`` against ``bpp`` match of ``--hands`` hands with as many tables (sessions
of two seatings: half as many sessions), each a fresh process as above, in alternating
rounds. Every step of the engine and every call of the agents costs some Python whatever
the number of rows, so fewer tables cost more per hand; the commands of
``results/exploitability.md`` play 400.

Where the time goes: one more batched ``lbr-bpp`` against ``bpp`` match under ``cProfile``,
its time split by the functions named in ``PARTS`` (cumulative, so each part includes what it
calls; the rest is the engine, the runner and the opponent's own decisions); the same for a
``lbr-loki`` against ``loki`` match of ``--loki-hands`` hands and ``LOKI_PARTS``.

    python benchmarks/bench_lbr.py [--hands 40000] [--deals 50] [--scalar-hands 1000] \\
        [--loki-hands 2000] [--loki-scalar-hands 300] [--rounds 2] [--against 3067788] \\
        [--tables 400,800,1600,3200] [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import json
import os
import platform
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ab import ROOT, run, worktree

from agents.lbr.equity_cache import preflop_equities
from agents.strength.holdings import NUM_HOLDINGS
from envs.match import play_match

SETUPS: dict[str, list[str]] = {
    "lbr-bpp vs bpp": ["lbr-bpp", "bpp"],
    "lbr-rule vs rule": ["lbr-rule", "rule"],
    "lbr-loki vs loki": ["lbr-loki", "loki"],
}
LOKI = "lbr-loki vs loki"
"""The set-up played at the ``--loki-hands`` sizes."""
TARGET = 5_000
"""Issue 23: ``lbr-bpp`` against ``bpp``, batched hands per CPU-second."""
LOKI_TARGET = 500
"""Issue 23: ``lbr-loki`` against ``loki``, hands per CPU-second."""
BEFORE = "3067788"
"""The commit before Loki's sweep by now-rank group, its rules asked once per spot and the
memoryless shadow left untold of hands' ends (2026-11-28)."""
TABLES = "400,800,1600,3200"
"""Table counts of the ``lbr-bpp`` sweep."""
CHILD = """
import os
os.environ["OMP_NUM_THREADS"] = "1"
import json, sys, time
from agents.lbr.equity_cache import preflop_equities
from envs.match import play_match
agents, hands, sessions = json.loads(sys.argv[1])
for key in range(1326):
    preflop_equities(key, 500, 0)
play_match(agents, hands=200, seed=3, sessions=2, engine="batched")
start = time.process_time()
result = play_match(agents, hands=hands, seed=7, sessions=sessions, engine="batched")
print(result.hands / (time.process_time() - start))
"""
"""A batched match's hands per CPU-second in a fresh process of a tree (after the warm-up;
one thread for NumPy, as the parent's matches)."""
PARTS = {
    "equities (roll-outs, turn and river counts)": "equity_cache.py:.*\\(fill\\)",
    "the opponent's policy at every holding (BPP types, batched BPP)": (
        "batched_ranges.py:.*\\(probabilities\\)"
    ),
    "replaying the public logs (shadow engine)": (
        "batched_replay.py:.*\\((opponent_decisions|after_our_raise|take_back_raise)\\)"
    ),
    "the LBR in all (values, ranges, the above)": "batched_lbr.py:.*\\(probabilities\\)",
}
LOKI_PARTS = {
    "a board's arrays, once per board": "loki_board_kernels.py:.*\\(board_arrays\\)",
    "HS1 and PPOT1 of every holding (holding_values)": "loki_kernels.py:.*\\(holding_values\\)",
    "Loki's models replayed through a history (the field)": "loki_range.py:.*\\(_field\\)",
    "the shadow Loki in all (per-table views, the above)": (
        "per_table_ranges.py:.*\\(probabilities\\)"
    ),
    "the LBR in all (values, ranges, the above)": "batched_lbr.py:.*\\(probabilities\\)",
}


def rate(agents: list[str], hands: int, sessions: int, engine: str) -> float:
    """Hands per CPU-second of one match."""
    start = time.process_time()
    result = play_match(agents, hands=hands, seed=7, sessions=sessions, engine=engine)
    return result.hands / (time.process_time() - start)


def sessions(args: argparse.Namespace, hands: int | None = None) -> int:
    """Sessions of ``args.deals`` deals per seating in ``hands`` (``args.hands``) heads-up
    hands."""
    return max(1, (args.hands if hands is None else hands) // (2 * args.deals))


def compare(args: argparse.Namespace, against: str) -> dict[str, dict[str, list[float]]]:
    """Batched hands per CPU-second of each set-up in a worktree of ``against`` and in this
    tree, fresh processes (``bench_ab.run``), alternating which goes first."""
    rates: dict[str, dict[str, list[float]]] = {s: {"before": [], "now": []} for s in SETUPS}
    with tempfile.TemporaryDirectory(prefix="bench-lbr-") as tmp:
        before = worktree(against, Path(tmp))
        try:
            for r in range(args.rounds):
                for setup, agents in SETUPS.items():
                    hands, runs = sizes(args, setup, "batched")
                    order = [("before", before), ("now", ROOT)]
                    for label, tree in order if r % 2 == 0 else order[::-1]:
                        figure = run(tree, CHILD, json.dumps([agents, hands, runs]))
                        rates[setup][label].append(figure)
                print(f"against {against}: round {r + 1}/{args.rounds} done", file=sys.stderr)
        finally:
            git = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)]
            subprocess.run(git, check=False)
    return rates


def by_tables(args: argparse.Namespace, counts: list[int]) -> dict[int, list[float]]:
    """Batched ``lbr-bpp`` against ``bpp`` hands per CPU-second at each table count, fresh
    processes of this tree, alternating the order of the counts."""
    rates: dict[int, list[float]] = {count: [] for count in counts}
    agents = SETUPS["lbr-bpp vs bpp"]
    for r in range(args.rounds):
        for count in counts if r % 2 == 0 else counts[::-1]:
            rates[count].append(run(ROOT, CHILD, json.dumps([agents, args.hands, count // 2])))
        print(f"by tables: round {r + 1}/{args.rounds} done", file=sys.stderr)
    return rates


def report_tables(rates: dict[int, list[float]], args: argparse.Namespace) -> list[str]:
    """The sweep as markdown lines."""
    lines = [
        f"By table count (`lbr-bpp vs bpp`, batched, {args.hands:,} hands, each match a fresh "
        "process after a warm-up; medians of the alternating rounds, each round's figure in "
        "brackets):",
        "",
        "| tables (sessions x 2 seatings) | deals per table | hands/CPU-s | target |",
        "|---:|---:|---:|---|",
    ]
    for count, figures in rates.items():
        rate = statistics.median(figures)
        met = "met" if rate >= TARGET else "**not met**"
        lines.append(
            f"| {count:,} | {args.hands // count:,} | {rate:,.0f} "
            f"[{', '.join(f'{x:,.0f}' for x in figures)}] | >= {TARGET:,} ({met}) |"
        )
    return lines


def sizes(args: argparse.Namespace, setup: str, engine: str) -> tuple[int, int]:
    """Hands and sessions of one timed match."""
    if engine == "scalar":
        return (args.loki_scalar_hands if setup == LOKI else args.scalar_hands), 1
    hands = args.loki_hands if setup == LOKI else args.hands
    return hands, sessions(args, hands)


def profile_parts(
    setup: str, hands: int, sessions: int, parts: dict[str, str]
) -> tuple[float, dict[str, float]]:
    """CPU seconds of a profiled batched match of ``setup`` and of each of ``parts``."""
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    play_match(SETUPS[setup], hands=hands, seed=8, sessions=sessions, engine="batched")
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    found: dict[str, float] = {}
    for part, pattern in parts.items():
        seconds = 0.0
        for (file, line, name), row in stats.stats.items():  # type: ignore[attr-defined]
            if re.fullmatch(pattern, f"{Path(file).name}:{line}({name})"):
                seconds += row[3]  # cumulative time
        found[part] = seconds
    return total, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40_000, help="hands per batched run")
    parser.add_argument("--deals", type=int, default=50, help="deals per session and seating")
    parser.add_argument("--scalar-hands", type=int, default=1_000, help="hands per scalar run")
    parser.add_argument(
        "--loki-hands", type=int, default=2_000, help="batched hands of lbr-loki vs loki"
    )
    parser.add_argument(
        "--loki-scalar-hands", type=int, default=300, help="scalar hands of lbr-loki vs loki"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--against",
        metavar="REV",
        default=BEFORE,
        help=f"also time this earlier commit's batched matches (default {BEFORE}; 'none')",
    )
    parser.add_argument(
        "--tables",
        default=TABLES,
        help=f"table counts of the lbr-bpp sweep, even numbers (default {TABLES}; 'none')",
    )
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)
    against = None if args.against.lower() == "none" else args.against
    counts = [] if args.tables.lower() == "none" else [int(x) for x in args.tables.split(",")]
    if any(count < 2 or count % 2 for count in counts):
        parser.error(f"--tables must list even numbers of at least 2, got {args.tables!r}")

    for key in range(NUM_HOLDINGS):  # the pre-flop equities every LBR reads, once
        preflop_equities(key, 500, 0)
    for setup, agents in SETUPS.items():
        rate(agents, 200 if setup == LOKI else 2_000, 2 if setup == LOKI else 20, "batched")
        rate(agents, 50, 1, "scalar")
    load_before = os.getloadavg()[0]
    rates: dict[str, dict[str, list[float]]] = {s: {"batched": [], "scalar": []} for s in SETUPS}
    for r in range(args.rounds):
        for setup, agents in SETUPS.items():
            for engine in ["batched", "scalar"] if r % 2 == 0 else ["scalar", "batched"]:
                hands, runs = sizes(args, setup, engine)
                rates[setup][engine].append(rate(agents, hands, runs, engine))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    earlier = compare(args, against) if against else None
    tables = by_tables(args, counts) if counts else None
    profiles = {
        "lbr-bpp vs bpp": profile_parts("lbr-bpp vs bpp", args.hands, sessions(args), PARTS),
        LOKI: profile_parts(LOKI, args.loki_hands, sessions(args, args.loki_hands), LOKI_PARTS),
    }
    lines = report(rates, profiles, args)
    if earlier and against:
        lines += ["", *report_against(earlier, against)]
    if tables:
        lines += ["", *report_tables(tables, args)]
    lines.insert(
        2, f"Load average {load_before:.1f} before timing, {os.getloadavg()[0]:.1f} after."
    )
    print("\n".join(lines))
    if args.write:
        from bench_engine import write_section

        write_section(args.write, "lbr", "\n".join(lines))
    return 0


def report(
    rates: dict[str, dict[str, list[float]]],
    profiles: dict[str, tuple[float, dict[str, float]]],
    args: argparse.Namespace,
) -> list[str]:
    """The markdown section."""
    lines = [
        "## Local best response (`python benchmarks/bench_lbr.py`)",
        "",
        f"Measured {datetime.date.today()} on {platform.machine()} "
        f"({platform.python_implementation()} {platform.python_version()}, numpy "
        f"{np.__version__}), one process, CPU time. Batched: {args.hands:,} hands in sessions "
        f"of {args.deals} deals per seating; scalar: {args.scalar_hands:,} hands, one session "
        f"(`{LOKI}`: {args.loki_hands:,} and {args.loki_scalar_hands:,}); medians of "
        f"{args.rounds} alternating rounds (each round's figure in brackets).",
        "",
        "| set-up | batched hands/CPU-s | scalar hands/CPU-s | batched / scalar | target |",
        "|---|---:|---:|---:|---|",
    ]
    for setup, by in rates.items():
        batched, scalar = statistics.median(by["batched"]), statistics.median(by["scalar"])
        target = ""
        goal = {"lbr-bpp vs bpp": TARGET, LOKI: LOKI_TARGET}.get(setup)
        if goal is not None:
            met = "met" if batched >= goal else "**not met**"
            target = f">= {goal:,} hands/CPU-s ({met})"
        lines.append(
            f"| {setup} | {batched:,.0f} [{', '.join(f'{x:,.0f}' for x in by['batched'])}] | "
            f"{scalar:,.0f} [{', '.join(f'{x:,.0f}' for x in by['scalar'])}] | "
            f"{batched / scalar:.1f} | {target} |"
        )
    for setup, (total, parts) in profiles.items():
        hands = args.loki_hands if setup == LOKI else args.hands
        lines += [
            "",
            f"Where the batched `{setup}` time goes ({hands:,} hands under cProfile, "
            f"{total:.1f} CPU-s with the profiler's overhead; cumulative, so the last line "
            "includes the lines above it):",
            "",
            "| part | CPU-s | share |",
            "|---|---:|---:|",
        ]
        for part, seconds in parts.items():
            lines.append(f"| {part} | {seconds:.1f} | {seconds / total:.0%} |")
    return lines


def report_against(rates: dict[str, dict[str, list[float]]], against: str) -> list[str]:
    """The comparison with the earlier commit, as markdown lines."""
    lines = [
        f"Against `{against}` (batched, the sizes above, each match a fresh process after a "
        "warm-up; medians of the alternating rounds, each round's figure in brackets):",
        "",
        f"| set-up | `{against}` hands/CPU-s | this tree hands/CPU-s | speed-up |",
        "|---|---:|---:|---:|",
    ]
    for setup, by in rates.items():
        before, now = statistics.median(by["before"]), statistics.median(by["now"])
        lines.append(
            f"| {setup} | {before:,.0f} [{', '.join(f'{x:,.0f}' for x in by['before'])}] | "
            f"{now:,.0f} [{', '.join(f'{x:,.0f}' for x in by['now'])}] | {now / before:.1f}x |"
        )
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
