"""Hand-evaluator speed: batched 7-card ranks, the per-hand fast path and the table start-up.

Random 7-card hands are drawn before timing. Rates are hands per CPU-second
(``time.process_time``), best and median over the repeats; start-up times are wall-clock.

    python benchmarks/bench_evaluator.py [--n 2000000] [--repeats 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from envs import _evaluator_tables
from envs.evaluator import evaluate, evaluate_one

ONE_CALLS = 200_000


def random_hands(rng: np.random.Generator, n: int, size: int = 7) -> np.ndarray:
    """``n`` uniformly random hands of ``size`` distinct card ids, as ``uint8``."""
    hands = rng.integers(0, 52, size=(n, size), dtype=np.uint8)
    while True:
        ordered = np.sort(hands, axis=1)
        bad = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not bad.size:
            return hands
        hands[bad] = rng.integers(0, 52, size=(bad.size, size), dtype=np.uint8)


def _rates(function: object, work: int, repeats: int) -> list[float]:
    assert callable(function)
    rates = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        rates.append(work / (time.process_time() - start))
    return rates


def _first_call_ms() -> float:
    """First ``evaluate_one`` in a new interpreter (tables from the cache), best of 3, in ms."""
    code = (
        "import time; from envs.evaluator import evaluate_one; t = time.perf_counter(); "
        "evaluate_one((0, 5, 10, 15, 20, 25, 30)); print(time.perf_counter() - t)"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
        for _ in range(3)
    ]
    return 1000 * min(float(run.stdout) for run in runs)


def measure_evaluator(n: int = 2_000_000, repeats: int = 5, seed: int = 0) -> dict[str, float]:
    """Measure the evaluator; see the module docstring.

    Args:
        n: random 7-card hands per batched repeat.
        repeats: timed repeats of each measurement.
        seed: seed of the hands.

    Returns:
        Rates in evaluations per CPU-second and start-up times in milliseconds, by label.
    """
    rng = np.random.default_rng(seed)
    hands = random_hands(rng, n)
    wide = hands.astype(np.int64)
    evaluate(hands[:1000])  # builds or loads the tables outside the timed region
    batch = _rates(lambda: evaluate(hands), n, repeats)
    batch_wide = _rates(lambda: evaluate(wide), n, repeats)
    singles = [tuple(h) for h in hands[:ONE_CALLS].tolist()]

    def one_by_one() -> None:
        for hand in singles:
            evaluate_one(hand)

    one = _rates(one_by_one, len(singles), repeats)

    path = _evaluator_tables.cache_file()
    load_ms = float("nan")
    if path is not None and path.exists():
        loads = []
        for _ in range(repeats):
            start = time.perf_counter()
            _evaluator_tables._load(path)
            loads.append(time.perf_counter() - start)
        load_ms = 1000 * min(loads)
    return {
        "batched 7-card evals per CPU-s, uint8 input (best)": max(batch),
        "batched 7-card evals per CPU-s, uint8 input (median)": statistics.median(batch),
        "batched 7-card evals per CPU-s, int64 input (median)": statistics.median(batch_wide),
        "evaluate_one 7-card calls per CPU-s (median)": statistics.median(one),
        "table load from cache, ms (best)": load_ms,
        "first evaluate_one in a new process (load + list conversion), ms": _first_call_ms(),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures of ``measure_evaluator``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for label, value in measure_evaluator(args.n, args.repeats, args.seed).items():
        print(f"{label}: {value:,.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
