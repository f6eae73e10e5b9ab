"""Loki's speed: the batched twins beside the scalar runner, hand ranks per hand, memory.

Protocol. ``envs.match.play_match`` end to end (decks, engine, both agents deciding and
learning, the runner's accounts), timed with ``time.process_time`` (CPU time: the machine is
shared). Each set-up is played by the batched engine (``--hands`` hands in sessions of
``--deals`` deals, so that every table of every set-up plays as many deals: a session of a
K-seat set-up is played as K seatings side by side) and by the scalar engine
(``--scalar-hands``, one session) in alternating rounds; the figure is the median over rounds
and the ratio is of the medians of the same run. Set-ups: heads-up ``loki`` against
``bpp-curves``, ``loki2`` against ``rule``, and a ten-seat table of five ``loki`` and five
``rule``. Compiled kernels are loaded (or built) before timing.

Hand ranks: the batched Loki computes its street tables (``agents.strength.street``) once per
table and betting round where it acts or re-weights; the benchmark counts those rows during
the heads-up batched run and multiplies by the ranks a row reads (every 2- and 3-subset of the
non-board cards on the flop and turn, every 2-subset on the river), and times the kernel alone
on 4,096 random flop rows. Memory: ``BatchedLoki.nbytes`` per table.

    python benchmarks/bench_loki.py [--hands 200000] [--deals 50] [--scalar-hands 2000] \\
        [--rounds 3] [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from math import comb
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import agents.loki.batched_rounds as rounds
from agents.loki import Loki, Loki2
from agents.strength.street import street_tables
from envs.batched.engine import HandBatch
from envs.match import play_match
from envs.match.seeded import play_seeded_passes
from envs.registry import make_agent
from envs.rules import Rules

SETUPS: dict[str, list[str]] = {
    "heads-up loki vs bpp-curves": ["loki", "bpp-curves"],
    "heads-up loki2 vs rule": ["loki2", "rule"],
    "ten seats, 5 loki + 5 rule": ["loki"] * 5 + ["rule"] * 5,
}
TARGETS = {
    "heads-up loki vs bpp-curves": (5_000, 15),
    "heads-up loki2 vs rule": (5_000, None),
    "ten seats, 5 loki + 5 rule": (None, 10),
}
"""Issue 22: (hands per CPU-second batched, times the scalar runner) where one is set."""


def sessions(agents: list[str], args: argparse.Namespace) -> int:
    """Sessions of ``args.deals`` deals in ``args.hands`` hands at ``agents``' table."""
    return max(1, args.hands // (args.deals * len(agents)))


def rate(agents: list[str], hands: int, sessions: int, engine: str) -> float:
    """Hands per CPU-second of one match."""
    start = time.process_time()
    result = play_match(agents, hands=hands, seed=5, sessions=sessions, engine=engine)
    return result.hands / (time.process_time() - start)


class RowCounter:
    """Counts the street-table rows the batched Loki computes, by board size."""

    def __init__(self) -> None:
        self.rows = {3: 0, 4: 0, 5: 0}
        self.original: Callable[..., object] = rounds.street_tables

    def __enter__(self) -> RowCounter:
        def counted(holes: object, boards: object, board_len: np.ndarray, **kw: object) -> object:
            for size in (3, 4, 5):
                self.rows[size] += int(np.count_nonzero(np.asarray(board_len) == size))
            return self.original(holes, boards, board_len, **kw)

        rounds.street_tables = counted  # type: ignore[assignment]
        return self

    def __exit__(self, *args: object) -> None:
        rounds.street_tables = self.original  # type: ignore[assignment]


def ranks_per_row(board: int) -> int:
    """Hand ranks a street-table row reads: 2- and 3-subsets of the non-board cards (only
    2-subsets on the river)."""
    rest = 52 - board
    return comb(rest, 2) + (comb(rest, 3) if board < 5 else 0)


def kernel_rate(rows: int = 4096) -> tuple[float, float]:
    """(flop rows per CPU-second, ranks per CPU-second) of ``street_tables`` alone."""
    rng = np.random.default_rng(3)
    deals = np.argsort(rng.random((rows, 52)), axis=1)[:, :5]
    street_tables(deals[:64, :2], deals[:64, 2:], np.full(64, 3))  # compiled or loaded
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        street_tables(deals[:, :2], deals[:, 2:], np.full(rows, 3))
        best = min(best, time.process_time() - start)
    return rows / best, rows * ranks_per_row(3) / best


def bytes_per_table(loki: Loki, seats: int, tables: int = 256) -> int:
    """``BatchedLoki.nbytes`` per table once it has played a hand at ``seats``-seat tables
    (its memory is sized by the first batch)."""
    twin = loki.batched(tables)
    assert twin is not None
    others = [make_agent("call").batched(tables) for _ in range(seats - 1)]
    batch = HandBatch(Rules(num_seats=seats), tables)
    seeds = np.arange(tables, dtype=np.uint64)
    play_seeded_passes(batch, [twin, *others], seeds, 1, np.zeros(tables, dtype=np.int64))  # type: ignore[list-item]
    return twin.nbytes // tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per batched run")
    parser.add_argument(
        "--deals", type=int, default=50, help="deals per session (per table) of a batched run"
    )
    parser.add_argument("--scalar-hands", type=int, default=2_000, help="hands per scalar run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)

    for agents in SETUPS.values():  # kernels compiled or loaded, tables built
        rate(agents, 2_000, 20, "batched")
        rate(agents, 100, 1, "scalar")
    load_before = os.getloadavg()[0]
    rates: dict[str, dict[str, list[float]]] = {s: {"batched": [], "scalar": []} for s in SETUPS}
    for r in range(args.rounds):
        for setup, agents in SETUPS.items():
            order = ["batched", "scalar"] if r % 2 == 0 else ["scalar", "batched"]
            for engine in order:
                batched = engine == "batched"
                hands = args.hands if batched else args.scalar_hands
                rates[setup][engine].append(
                    rate(agents, hands, sessions(agents, args) if batched else 1, engine)
                )
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    with RowCounter() as counter:
        counted = play_match(
            SETUPS["heads-up loki vs bpp-curves"],
            hands=args.hands,
            seed=5,
            sessions=sessions(SETUPS["heads-up loki vs bpp-curves"], args),
            engine="batched",
        )
    rows_per_hand = sum(counter.rows.values()) / counted.hands
    ranks_per_hand = sum(n * ranks_per_row(b) for b, n in counter.rows.items()) / counted.hands
    rows_per_second, ranks_per_second = kernel_rate()
    memory = {
        seats: (bytes_per_table(Loki(), seats), bytes_per_table(Loki2(), seats))
        for seats in (2, 6, 10)
    }
    lines = report(
        rates, rows_per_hand, ranks_per_hand, rows_per_second, ranks_per_second, memory, args
    )
    lines.insert(
        2, f"Load average {load_before:.1f} before timing, {os.getloadavg()[0]:.1f} after."
    )
    print("\n".join(lines))
    if args.write:
        from bench_engine import write_section

        write_section(args.write, "loki", "\n".join(lines))
    return 0


def report(
    rates: dict[str, dict[str, list[float]]],
    rows_per_hand: float,
    ranks_per_hand: float,
    rows_per_second: float,
    ranks_per_second: float,
    memory: dict[int, tuple[int, int]],
    args: argparse.Namespace,
) -> list[str]:
    """The markdown section."""
    lines = [
        "## Loki (`python benchmarks/bench_loki.py`)",
        "",
        f"Measured {datetime.date.today()} on {platform.machine()} "
        f"({platform.python_implementation()} {platform.python_version()}, numpy "
        f"{np.__version__}), one process, CPU time. Batched: {args.hands:,} hands in "
        f"sessions of {args.deals} deals (every table plays {args.deals} deals); "
        f"scalar: {args.scalar_hands:,} hands, one session; "
        f"medians of {args.rounds} alternating rounds (every round's figure in brackets).",
        "",
        "| set-up | batched hands/CPU-s | scalar hands/CPU-s | batched / scalar | target |",
        "|---|---:|---:|---:|---|",
    ]
    for setup, by in rates.items():
        batched, scalar = statistics.median(by["batched"]), statistics.median(by["scalar"])
        least, times = TARGETS[setup]
        wanted = [f">= {least:,} hands/CPU-s" if least else "", f">= {times}x" if times else ""]
        met = (least is None or batched >= least) and (times is None or batched >= times * scalar)
        target = "; ".join(w for w in wanted if w) + (" (met)" if met else " (**not met**)")
        lines.append(
            f"| {setup} | {batched:,.0f} [{', '.join(f'{x:,.0f}' for x in by['batched'])}] | "
            f"{scalar:,.0f} [{', '.join(f'{x:,.0f}' for x in by['scalar'])}] | "
            f"{batched / scalar:.1f} | {target} |"
        )
    lines += [
        "",
        f"Hand ranks (heads-up loki vs bpp-curves, batched): {rows_per_hand:.2f} street-table "
        f"rows per hand, **{ranks_per_hand:,.0f} hand ranks per hand** (before the compiled "
        "street tables: about 58,000, one exact PPOT1 of 48,645 six-card ranks per call and "
        "1.2 calls per hand). The street-table kernel alone: "
        f"{rows_per_second:,.0f} flop rows per CPU-second, **{ranks_per_second / 1e6:,.0f} "
        "million hand ranks per CPU-second** (before: NumPy's PPOT1, about 27 million).",
        "",
        "Memory of a batched Loki per table (`BatchedLoki.nbytes`; float64 weight tables, "
        "1,326 per opponent seat, kept so that the twins agree with the scalar agents to the "
        "last bit, plus the current street's tables of 26,520 bytes):",
        "",
        "| seats | loki (bytes/table) | loki2 (bytes/table) |",
        "|---:|---:|---:|",
    ]
    for seats, (loki, loki2) in memory.items():
        lines.append(f"| {seats} | {loki:,} | {loki2:,} |")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
