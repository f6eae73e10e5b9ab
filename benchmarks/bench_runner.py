"""The match runner end to end: bpp vs bpp-curves heads-up, batched engine beside the scalar one.

Protocol. ``envs.match.play_match(["bpp", "bpp-curves"])`` with duplicate deals, timed with
``time.process_time`` (CPU time: the machine is shared), everything included (decks, engine,
views, both agents deciding and learning from showdowns, the runner's accounts). Rounds
alternate the contenders so that a change in the machine's load touches them alike; the
figure is the median over rounds. The scalar runner plays ``--scalar-hands`` per round, the
batched one ``--hands`` in ``--sessions`` independent sessions (each session's hands stay
sequential, as the agents learn; the engine batches across sessions and seatings), once with
the raw estimator and once with AIVAT. Compiled kernels are loaded (or built) before timing.

    python benchmarks/bench_runner.py [--hands 1638400] [--sessions 8192] [--rounds 3] \\
        [--write results/benchmarks.md]

The defaults are the figure of ``results/benchmarks.md``: 8,192 sessions keep each step's
arrays large enough that NumPy's cost per call is small beside its cost per table (2,048
sessions play about 10% fewer hands per CPU-second), and 200 hands per session amortise each
session's start.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from envs.match import play_match

AGENTS = ["bpp", "bpp-curves"]


def rate(engine: str, hands: int, sessions: int, estimator: str, seed: int) -> float:
    """Hands per CPU-second of one ``play_match``."""
    start = time.process_time()
    result = play_match(
        AGENTS, hands=hands, seed=seed, sessions=sessions, engine=engine, estimator=estimator
    )
    return result.hands / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_638_400, help="hands per batched run")
    parser.add_argument("--sessions", type=int, default=8192, help="sessions per batched run")
    parser.add_argument("--scalar-hands", type=int, default=4_000, help="hands per scalar run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)

    rate("batched", 4_000, 64, "aivat", seed=0)  # kernels compiled or loaded, tables built
    rate("scalar", 200, 1, "raw", seed=0)
    load_before = os.getloadavg()[0]
    rates: dict[str, list[float]] = {"scalar": [], "batched": [], "batched + AIVAT": []}
    for round_ in range(args.rounds):
        seed = 1 + round_
        rates["scalar"].append(rate("scalar", args.scalar_hands, 1, "raw", seed))
        rates["batched"].append(rate("batched", args.hands, args.sessions, "raw", seed))
        rates["batched + AIVAT"].append(rate("batched", args.hands, args.sessions, "aivat", seed))
        print(
            f"round {round_ + 1}: "
            + ", ".join(f"{name} {values[-1]:,.0f}" for name, values in rates.items()),
            file=sys.stderr,
        )
    load_after = os.getloadavg()[0]
    median = {name: statistics.median(values) for name, values in rates.items()}
    lines = [
        "## Match runner, bpp vs bpp-curves (`python benchmarks/bench_runner.py`)",
        "",
        f"Measured {datetime.date.today()} on {platform.machine()} (CPython "
        f"{platform.python_version()}, numpy {np.__version__}), one process, CPU time, "
        f"median of {args.rounds} alternating rounds; 1-minute load average {load_before:.1f} "
        f"before, {load_after:.1f} after ({os.cpu_count()} CPUs). Heads-up duplicate "
        "`play_match(['bpp', 'bpp-curves'])`, everything included (decks, engine, views, both "
        "agents deciding and learning, accounts).",
        "",
        "| runner | hands per run | hands/CPU-s (median) | rounds | x scalar |",
        "|---|---:|---:|---|---:|",
    ]
    for name, values in rates.items():
        size = (
            f"{args.scalar_hands:,}, 1 session"
            if name == "scalar"
            else f"{args.hands:,}, {args.sessions:,} sessions"
        )
        lines.append(
            f"| {name} | {size} | {median[name]:,.0f} | "
            f"{', '.join(f'{v:,.0f}' for v in values)} | "
            f"{median[name] / median['scalar']:.1f} |"
        )
    batched, target = median["batched"], 100_000
    verdict = "Met" if batched >= target else "**Not met**"
    lines += [
        "",
        "Target (issue 13): at least 100,000 hands per CPU-second batched, about 50x the "
        "scalar runner measured in the same run.",
        f"{verdict}: {batched:,.0f} hands per CPU-second, {batched / target:.0%} of the target; "
        f"{batched / median['scalar']:.0f}x the scalar runner of the same run.",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write is not None:
        from bench_engine import write_section  # type: ignore[import-not-found]

        write_section(args.write, "runner", text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
