"""Engine and evaluator speed, against RLCard's raw limit hold'em engine in the same run.

Protocol: random legal actions, one hand = a
fresh deal played to its payoffs through the engine's public API; 1,000 warm-up hands, then
``--hands`` timed hands per engine in 20 slices, ours and RLCard's alternating so that both
meet the same machine, in hands per CPU-second (time.process_time).
Both engines draw their action choices from the same pre-generated uniform numbers.

    python benchmarks/bench_engine.py [--hands 20000] [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from envs.game import Hand
from envs.rules import Rules

Runner = Callable[[int, int, np.ndarray], int]


def run_ours(num_seats: int, hands: int, choices: np.ndarray) -> int:
    """Play ``hands`` random hands with our engine (deck from a NumPy generator per hand)."""
    rules = Rules(num_seats=num_seats)
    rng = np.random.default_rng(1)
    k = 0
    for i in range(hands):
        hand = Hand(rules, rng.permutation(52), button=i % num_seats)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.act(legal[int(choices[k] * len(legal))])
            k += 1
        hand.payoffs  # noqa: B018 - the payoffs are part of the work measured
    return k


def run_rlcard(num_seats: int, hands: int, choices: np.ndarray) -> int:
    """Play ``hands`` random hands with RLCard's raw ``LimitHoldemGame``."""
    from rlcard.games.limitholdem.game import LimitHoldemGame

    game = LimitHoldemGame(num_players=num_seats)
    game.np_random = np.random.RandomState(1)
    k = 0
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(choices[k] * len(legal))])
            k += 1
        game.get_payoffs()
    return k


def timed_run(
    runner: Runner, num_seats: int, hands: int, choices: np.ndarray
) -> tuple[float, int]:
    """(hands per CPU-second, decisions) of one run."""
    start = time.process_time()
    decisions = runner(num_seats, hands, choices)
    return hands / (time.process_time() - start), decisions


def paired_rates(
    num_seats: int, hands: int, chunks: int = 20
) -> tuple[float, float, float, float, float]:
    """Ours and RLCard's hands per CPU-second over ``hands`` hands each, timed in ``chunks``
    alternating slices so that both engines meet the same machine (a shared VM drifts by tens
    of percent within seconds): both rates, their ratio, and decisions per hand of each."""
    size = hands // chunks
    choices = np.random.default_rng(7).random(size * 60)
    run_ours(num_seats, 1000, choices)
    run_rlcard(num_seats, 1000, choices)
    ours_time = their_time = 0.0
    ours_decisions = their_decisions = 0
    for _ in range(chunks):
        rate, decisions = timed_run(run_ours, num_seats, size, choices)
        ours_time, ours_decisions = ours_time + size / rate, ours_decisions + decisions
        rate, decisions = timed_run(run_rlcard, num_seats, size, choices)
        their_time, their_decisions = their_time + size / rate, their_decisions + decisions
    played = size * chunks
    return (
        played / ours_time,
        played / their_time,
        their_time / ours_time,
        ours_decisions / played,
        their_decisions / played,
    )


def write_section(path: Path, name: str, body: str) -> None:
    """Replace (or append) the section ``name`` of a results file, keeping the others."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60_000)
    parser.add_argument("--evals", type=int, default=2_000_000)
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)

    rows = []
    for seats, label in ((2, "heads-up"), (6, "6-max")):
        ours, theirs, ratio, ours_decisions, their_decisions = paired_rates(seats, args.hands)
        rows.append((label, ours, theirs, ours_decisions, their_decisions, ratio))
        print(
            f"{label}: ours {ours:,.0f} hands/CPU-s ({ours_decisions:.1f} decisions/hand), "
            f"RLCard raw {theirs:,.0f} ({their_decisions:.1f}), ratio {ratio:.2f}"
        )

    from bench_evaluator import measure_evaluator

    ev = measure_evaluator(n=args.evals)
    print("evaluator:", ev)

    if args.write:
        lines = [
            "## Rules engine and evaluator (`python benchmarks/bench_engine.py`)",
            "",
            f"Measured {datetime.date.today()} on {platform.machine()} "
            f"({platform.python_implementation()} {platform.python_version()}, "
            f"numpy {np.__version__}), one process, CPU time. Regenerate with `make bench`.",
            "",
            f"### Random-play hands per CPU-second ({args.hands:,} hands each after 1,000 "
            "warm-up, in 20 alternating slices)",
            "",
            "| table | holdem-lab `Hand` | decisions/hand | RLCard 1.2.0 raw `LimitHoldemGame` "
            "| decisions/hand | ratio |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {t} | {o:,.0f} | {od:.1f} | {r:,.0f} | {rd:.1f} | {q:.2f} |"
            for t, o, r, od, rd, q in rows
        ]
        lines += [
            "",
            "Target: at least 1.5 x RLCard's raw engine heads-up. Our hands include the",
            "showdown evaluation, the event history and the ACPC rules RLCard lacks (no fold when",
            "checking is free, correct post-flop order, rounds that end when all have matched);",
            "random play lasts more decisions per hand with us because folding is never offered",
            "when checking is free.",
            "",
            "### Hand evaluator (`benchmarks/bench_evaluator.py`)",
            "",
            "| measure | value |",
            "|---|---:|",
        ]
        lines += [
            f"| {k} | {v:,.3f} |" if v < 100 else f"| {k} | {v:,.0f} |" for k, v in ev.items()
        ]
        lines += ["", "Target: at least 30 million batched 7-card evaluations per second.", ""]
        write_section(args.write, "engine", "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
