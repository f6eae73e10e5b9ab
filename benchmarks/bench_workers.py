"""Tuning throughput: trials per minute of the default study with 1, 2 and 3 local workers.

Each run is a fresh study with the default protocol (``holdem-lab tune``'s defaults: BPP
against bpp-curves, 40 blocks x 250 duplicate deals = 20,000 hands per trial) on the given
storage, run to a fixed number of trials by N worker processes; wall-clock time, because the
point is how the work spreads over the machine's cores.

    tools/with_postgres.sh .venv/bin/python benchmarks/bench_workers.py \
        --write results/benchmarks.md            # PostgreSQL from HOLDEM_LAB_PG_URL
    python benchmarks/bench_workers.py --storage journal   # the default journal file
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import write_section

from tuning.launch import run_trials
from tuning.samplers import SamplerName
from tuning.study import StudySettings


def trials_per_minute(workers: int, trials: int, storage: str | None, results: Path) -> float:
    """Wall-clock trials per minute of a fresh default study run by ``workers`` processes."""
    settings = StudySettings(
        study_name=f"bench-{workers}w-{os.getpid()}-{time.monotonic_ns()}",
        trials=trials,
        storage=storage,
        results_dir=results,
        sampler=SamplerName.TPE,
    )
    start = time.perf_counter()
    run_trials(settings, workers=workers)
    return 60.0 * trials / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=12, help="trials per run")
    parser.add_argument("--storage", default="postgres", help="postgres or journal")
    parser.add_argument("--write", type=Path, help="write the figures into this markdown file")
    args = parser.parse_args()
    if args.storage == "postgres":
        storage = os.environ.get("HOLDEM_LAB_PG_URL")
        if not storage:
            parser.error("HOLDEM_LAB_PG_URL is not set: run through tools/with_postgres.sh")
        label = "PostgreSQL on loopback (tools/with_postgres.sh)"
    else:
        storage, label = None, "journal file"
    rows = []
    with tempfile.TemporaryDirectory() as results:
        for workers in (1, 2, 3):
            rate = trials_per_minute(workers, args.trials, storage, Path(results))
            rows.append((workers, rate))
            print(f"{workers} worker(s): {rate:.2f} trials/min")
    base = rows[0][1]
    if args.write:
        lines = [
            "## Tuning workers (`benchmarks/bench_workers.py`)",
            "",
            f"Measured {datetime.date.today()}: fresh default studies (20,000 hands per trial, "
            f"BPP against bpp-curves) of {args.trials} trials each, storage: {label}; "
            f"wall-clock time on a {os.cpu_count()}-core machine.",
            "",
            "| local workers | trials per minute | speed-up |",
            "|---:|---:|---:|",
            *(f"| {w} | {r:.2f} | {r / base:.2f} |" for w, r in rows),
            "",
            "Workers are processes: the simulator is CPU-bound Python, so the speed-up stops at",
            "the number of cores; a third worker on two cores only shares them.",
            "",
        ]
        write_section(args.write, "workers", "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
