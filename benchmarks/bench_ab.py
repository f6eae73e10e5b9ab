"""Two commits measured in the same run: the match runner and the vector env, A/B, alternating.

A refactor must leave the speed where it was, and a shared machine's speed drifts by several
per cent between runs, so the two commits are measured side by side: each is checked out in a
temporary git worktree, and every round runs one measurement of each in a fresh process
(``PYTHONPATH`` set to that worktree), alternating which goes first. Compiled kernels are built
(or loaded) by a warm-up process per worktree before timing. CPU time (``time.process_time``).

Measurements (public APIs present in both commits):

* ``runner``: ``play_match(["bpp", "bpp-curves"], engine="batched")`` with ``--hands`` hands in
  ``--sessions`` sessions: hands per CPU-second (the figure of ``bench_runner.py``);
* ``loki``: ``play_match(["loki", "bpp-curves"])`` on the scalar engine (2,000 hands, one
  session) and on the batched engine (``--loki-hands`` hands, 100 per session): the second
  says what a batched Loki gains over the commit before it, measured in the same run;
* ``vector``: ``LimitHoldemVectorEnv(4096, [opponent])`` stepped with random legal actions:
  learner steps per CPU-second, against ``call`` and ``bpp`` (the figure of
  ``bench_vector_env.py``'s 4,096-table row).

    python benchmarks/bench_ab.py BASE [HEAD] [--rounds 5] [--write results/benchmarks.md]

``HEAD`` defaults to the working tree itself (uncommitted changes included).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import write_section

ROOT = Path(__file__).resolve().parents[1]

RUNNER = """
import json, sys, time
from envs.match import play_match
hands, sessions = int(sys.argv[1]), int(sys.argv[2])
start = time.process_time()
result = play_match(["bpp", "bpp-curves"], hands=hands, seed=3, sessions=sessions,
                    engine="batched")
print(json.dumps(result.hands / (time.process_time() - start)))
"""

LOKI = """
import json, sys, time
from envs.match import play_match
engine, hands, sessions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.process_time()
result = play_match(["loki", "bpp-curves"], hands=hands, seed=3, sessions=sessions,
                    engine=engine)
print(json.dumps(result.hands / (time.process_time() - start)))
"""

VECTOR = """
import json, sys, time
import numpy as np
from envs.vector_env import LimitHoldemVectorEnv
opponent, steps = sys.argv[1], int(sys.argv[2])
env = LimitHoldemVectorEnv(4096, [opponent])
rounds = max(3, steps // 4096)
u = np.random.default_rng(7).random((rounds, 4096, 3))
info = env.reset(seed=0)[1]
for k in range(3):
    *_, info = env.step((u[k] * info["action_mask"]).argmax(axis=1))
start = time.process_time()
for k in range(rounds):
    *_, info = env.step((u[k] * info["action_mask"]).argmax(axis=1))
print(json.dumps(rounds * 4096 / (time.process_time() - start)))
"""


def run(tree: Path, script: str, *args: str) -> float:
    """One measurement in a fresh process importing ``tree``'s code."""
    return float(run_json(tree, script, *args))


def run_json(tree: Path, script: str, *args: str) -> Any:
    """The JSON value of the last line ``script`` prints, run with ``args`` in a fresh
    process importing ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"measurement failed in {tree}:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def worktree(revision: str, parent: Path) -> Path:
    """A detached worktree of ``revision`` under ``parent``."""
    path = parent / revision.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), revision],
        check=True,
    )
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the earlier commit (A)")
    parser.add_argument("head", nargs="?", help="the later commit (B); default: this tree")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=819_200)
    parser.add_argument("--sessions", type=int, default=8192)
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument(
        "--loki-hands",
        type=int,
        default=20_000,
        help="hands of the batched loki measurement (a commit without a batched Loki plays "
        "them through scalar copies, about 300 hands/CPU-s)",
    )
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    with tempfile.TemporaryDirectory(prefix="bench-ab-") as tmp:
        trees = {"A": worktree(args.base, Path(tmp))}
        trees["B"] = worktree(args.head, Path(tmp)) if args.head else ROOT
        try:
            rates = measure(trees, args)
        finally:
            for tree in trees.values():
                if tree != ROOT:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                        check=False,
                    )
    names = {"A": args.base, "B": args.head or "working tree"}
    lines = report(rates, names, args)
    print("\n".join(lines))
    if args.write:
        write_section(args.write, "A/B: match runner and vector env", "\n".join(lines))
    return 0


def measure(trees: dict[str, Path], args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    """Every measurement of both trees, ``args.rounds`` alternating rounds."""
    tasks = {
        "runner bpp vs bpp-curves (hands/CPU-s)": (RUNNER, str(args.hands), str(args.sessions)),
        "runner loki vs bpp-curves, scalar engine (hands/CPU-s)": (LOKI, "scalar", "2000", "1"),
        "runner loki vs bpp-curves, batched engine (hands/CPU-s)": (
            LOKI,
            "batched",
            str(args.loki_hands),
            str(args.loki_hands // 100),
        ),
        "vector env vs call (steps/CPU-s)": (VECTOR, "call", str(args.steps)),
        "vector env vs bpp (steps/CPU-s)": (VECTOR, "bpp", str(args.steps)),
    }
    for tree in trees.values():  # compile or load the kernels before timing
        run(tree, RUNNER, "4000", "64")
        run(tree, VECTOR, "bpp", "8192")
        run(tree, LOKI, "scalar", "100", "1")
    rates: dict[str, dict[str, list[float]]] = {t: {"A": [], "B": []} for t in tasks}
    for r in range(args.rounds):
        order = ["A", "B"] if r % 2 == 0 else ["B", "A"]
        for task, (script, *task_args) in tasks.items():
            for label in order:
                rates[task][label].append(run(trees[label], script, *task_args))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    return rates


def report(
    rates: dict[str, dict[str, list[float]]], names: dict[str, str], args: argparse.Namespace
) -> list[str]:
    load = os.getloadavg()[0]
    command = " ".join(
        ["python benchmarks/bench_ab.py", names["A"], *([args.head] if args.head else [])]
    )
    lines = [
        f"Measured {datetime.date.today().isoformat()} with `{command}` (load average "
        f"{load:.1f} after the run): "
        f"A = `{names['A']}`, B = `{names['B']}`, {args.rounds} alternating rounds, each "
        "measurement a fresh process; medians, with every round's figure.",
        "",
        "| measurement | A (median) | B (median) | B / A | A rounds | B rounds |",
        "|---|---:|---:|---:|---|---|",
    ]
    for task, by in rates.items():
        a, b = statistics.median(by["A"]), statistics.median(by["B"])
        lines.append(
            f"| {task} | {a:,.0f} | {b:,.0f} | {b / a:.3f} | "
            f"{', '.join(f'{x:,.0f}' for x in by['A'])} | "
            f"{', '.join(f'{x:,.0f}' for x in by['B'])} |"
        )
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
