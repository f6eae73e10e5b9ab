"""BPP speed: decision time and heads-up BPP-versus-BPP hands per second.

Protocol. Decision time: BPP (mixed) plays BPP heads-up for ``--hands`` hands after 500 warm-up
hands; every ``act`` call is timed with ``time.perf_counter_ns`` (wall clock, so the median is
robust to the other processes of a shared machine) and the total CPU time spent in ``act`` is
divided by the number of decisions. Throughput: ``envs.match.play_match(["bpp", "bpp"])`` (the
duplicate runner the tuning study uses) in hands per CPU-second (``time.process_time``),
median of 3 runs, beside the same runner with two calling stations (the engine and runner
alone); and the agents' own CPU time, replaying the recorded views of a BPP-versus-BPP play to
two fresh agents. CPU time, because the machine is shared and noisy.

    python benchmarks/bench_bpp.py [--hands 20000] [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import math
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import write_section

from agents.bpp import BPPAgent
from agents.bpp.network import shipped_network
from envs.game import Hand
from envs.match import deal_deck, play_match
from envs.rules import Rules
from envs.view import PlayerView


def decision_times(hands: int, seed: int = 1) -> tuple[float, float, float, float]:
    """(median wall us, mean CPU us, 90th percentile wall us, decisions per hand) of ``act``."""
    agents = [BPPAgent(), BPPAgent()]
    for i, agent in enumerate(agents):
        agent.reset(np.random.default_rng(i))
    rules = Rules()
    walls: list[int] = []
    cpu = 0
    for deal in range(hands + 500):
        hand = Hand(rules, deal_deck(seed, deal).tolist(), button=deal % 2, hand_id=deal)
        timed = deal >= 500
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            c0, w0 = time.process_time_ns(), time.perf_counter_ns()
            action = agents[seat].act(view)
            w1, c1 = time.perf_counter_ns(), time.process_time_ns()
            if timed:
                walls.append(w1 - w0)
                cpu += c1 - c0
            hand.act(action)
        for seat, agent in enumerate(agents):
            agent.observe(hand.view(seat))
    walls.sort()
    n = len(walls)
    return walls[n // 2] / 1e3, cpu / n / 1e3, walls[int(0.9 * n)] / 1e3, n / hands


def runner_rate(names: list[str], hands: int) -> float:
    """Hands per CPU-second of ``play_match`` (median of 3)."""
    rates = []
    for run in range(3):
        start = time.process_time()
        play_match(names, hands=hands, seed=100 + run)
        rates.append(hands / (time.process_time() - start))
    return statistics.median(rates)


def agent_cpu(hands: int, seed: int = 7) -> tuple[float, float]:
    """(CPU us per hand, CPU us per decision) of the two BPPs alone: the views of a recorded
    BPP-versus-BPP play are replayed to two fresh agents, so no engine time is counted
    (best of 3 replays)."""
    agents = [BPPAgent(), BPPAgent()]
    for i, agent in enumerate(agents):
        agent.reset(np.random.default_rng(i))
    script: list[tuple[int, bool, PlayerView]] = []
    for deal in range(hands):
        hand = Hand(Rules(), deal_deck(seed, deal).tolist(), button=deal % 2, hand_id=deal)
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            script.append((seat, True, view))
            hand.act(agents[seat].act(view))
        script += [(seat, False, hand.view(seat)) for seat in (0, 1)]
    decisions = sum(1 for _, acts, _ in script if acts)
    best = math.inf
    for run in range(3):
        fresh = [BPPAgent(), BPPAgent()]
        for i, agent in enumerate(fresh):
            agent.reset(np.random.default_rng(10 * run + i))
        start = time.process_time()
        for seat, acts, view in script:
            if acts:
                fresh[seat].act(view)
            else:
                fresh[seat].observe(view)
        best = min(best, time.process_time() - start)
    return 1e6 * best / hands, 1e6 * best / decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)

    start = time.process_time()
    shipped_network()
    load_ms = 1e3 * (time.process_time() - start)
    median_us, mean_us, p90_us, decisions_per_hand = decision_times(args.hands)
    print(
        f"decision: median {median_us:.1f} us (wall), mean {mean_us:.1f} us (CPU), "
        f"90th percentile {p90_us:.1f} us, {decisions_per_hand:.2f} decisions/hand"
    )
    bpp = runner_rate(["bpp", "bpp"], args.hands)
    calls = runner_rate(["call", "call"], args.hands)
    per_hand, per_decision = agent_cpu(args.hands)
    engine_share = 1e6 / bpp - per_hand
    print(
        f"play_match bpp vs bpp: {bpp:,.0f} hands/CPU-s; call vs call: {calls:,.0f}; "
        f"BPP agents alone: {per_hand:.0f} us/hand, {per_decision:.1f} us/decision; "
        f"tables load {load_ms:.0f} ms"
    )
    if args.write:
        verdict_time = "met" if median_us < 100 else "NOT met"
        verdict_rate = "met" if bpp >= 3000 else "NOT met"
        lines = [
            "## BPP (`python benchmarks/bench_bpp.py`)",
            "",
            f"Measured {datetime.date.today()} on {platform.machine()} "
            f"({platform.python_implementation()} {platform.python_version()}, "
            f"numpy {np.__version__}), one process on a shared 2-core machine, heads-up, "
            f"{args.hands:,} hands per measure. Regenerate with "
            "`python benchmarks/bench_bpp.py --write results/benchmarks.md`.",
            "",
            "| measure | value | target |",
            "|---|---:|---:|",
            f"| BPP decision, median (wall clock) | {median_us:.1f} us "
            f"| < 100 us ({verdict_time}) |",
            f"| BPP decision, mean (CPU time) | {mean_us:.1f} us | |",
            f"| BPP decision, 90th percentile (wall clock) | {p90_us:.1f} us | |",
            f"| `play_match` bpp vs bpp, hands per CPU-second | {bpp:,.0f} | >= 3,000 "
            f"({verdict_rate}) |",
            f"| `play_match` call vs call (engine and runner alone) | {calls:,.0f} | |",
            f"| the two BPPs alone (views replayed), CPU per hand | {per_hand:.0f} us | |",
            f"| the two BPPs alone, CPU per decision | {per_decision:.1f} us | |",
            f"| engine and runner per bpp-vs-bpp hand (the rest) | {engine_share:.0f} us | |",
            f"| decisions per hand, bpp vs bpp | {decisions_per_hand:.2f} | |",
            f"| loading the network tables (first use in a process) | {load_ms:.0f} ms | |",
            "",
            "A decision is the whole `act`: updating the opponent's type vectors with its new",
            "actions, entering a round (hand type, board class and the network products),",
            "P(win), the expected winnings, the curves and the draw. The first decision of a",
            "round costs most (see the 90th percentile).",
        ]
        if bpp < 3000:
            lines += [
                "",
                "The hands-per-second target is not met through `play_match`: at 3,000 hands",
                "per second a hand may cost 333 us, and the engine, the views and the runner's",
                f"statistics alone take about {engine_share:.0f} us of a BPP hand, the two",
                f"agents {per_hand:.0f} us.",
            ]
        write_section(args.write, "bpp", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
