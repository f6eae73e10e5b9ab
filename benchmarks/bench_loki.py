"""Loki's speed: flop decision time and ten-handed hands per second (CPU time).

Both figures come from ten-handed Loki self-play (registry ``loki``: loose, generic modelling).
A flop decision is one ``Loki.act`` call on the flop, opponent-model update included; the
values of all holdings on a board (HS1, PPOTc) are cached per board and shared by the ten
agents, so the first agent to act on a new flop pays for them and appears in the tail. Times
are CPU seconds of this process (``time.process_time``) because the machine is shared.

    python benchmarks/bench_loki.py [--hands 300] [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from agents.loki import Loki
from envs.game import Hand
from envs.match import deal_deck, play_match
from envs.rules import Rules, Street


def flop_decision_times(hands: int, seed: int) -> list[float]:
    """CPU seconds of every flop decision in ``hands`` hands of ten-handed self-play."""
    agents = [Loki() for _ in range(10)]
    streams = np.random.SeedSequence([seed, 1]).spawn(10)
    for agent, stream in zip(agents, streams, strict=True):
        agent.reset(np.random.default_rng(stream))
    rules = Rules(num_seats=10)
    times = []
    for deal in range(hands):
        hand = Hand(rules, deal_deck(seed, deal).tolist(), button=deal % 10, hand_id=deal)
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            start = time.process_time()
            action = agents[seat].act(view)
            elapsed = time.process_time() - start
            if view.street == Street.FLOP:
                times.append(elapsed)
            hand.act(action)
        for seat, agent in enumerate(agents):
            agent.observe(hand.view(seat))
    return times


def hands_per_second(hands: int, seed: int) -> float:
    """Ten-handed Loki self-play hands per CPU-second through the match runner."""
    start = time.process_time()
    play_match(["loki"] * 10, hands=hands, seed=seed, duplicate=False)
    return hands / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per measurement")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)

    flop_decision_times(20, seed=args.seed + 100)  # warm-up: tables, index arrays
    times = np.array(flop_decision_times(args.hands, seed=args.seed)) * 1000.0
    median, p95 = float(np.median(times)), float(np.percentile(times, 95))
    rates = [hands_per_second(args.hands, seed=args.seed + k) for k in range(3)]
    rate = statistics.median(rates)
    print(
        f"flop decisions: {len(times)}, median {median:.2f} ms, 95th percentile {p95:.2f} ms, "
        f"mean {times.mean():.2f} ms (CPU)"
    )
    print(f"ten-handed Loki self-play: {rate:.1f} hands per CPU-second (median of 3)")
    if args.write:
        from bench_engine import write_section

        lines = [
            "## Loki (`python benchmarks/bench_loki.py`)",
            "",
            f"Measured {datetime.date.today()} on {platform.machine()} "
            f"({platform.python_implementation()} {platform.python_version()}, "
            f"numpy {np.__version__}), one process, CPU time (`time.process_time`; the "
            "machine is shared, so wall time is noisier).",
            "",
            "| measure | value |",
            "|---|---:|",
            f"| flop decisions timed ({args.hands} hands of ten-handed self-play) "
            f"| {len(times):,} |",
            f"| flop decision, median (ms) | {median:.2f} |",
            f"| flop decision, 95th percentile (ms) | {p95:.2f} |",
            f"| flop decision, mean (ms) | {times.mean():.2f} |",
            f"| ten-handed Loki hands per CPU-second (median of 3 x {args.hands}) | {rate:.1f} |",
            "",
            "Target: median flop decision under 5 ms. A decision includes the opponent-model",
            "update; the first agent to act on a new flop also computes HS1 and PPOTc of every",
            "holding for it (cached for the table), which sits in the tail.",
            "",
        ]
        write_section(args.write, "loki", "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
