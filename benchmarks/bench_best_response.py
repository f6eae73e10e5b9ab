"""Best-response speed per bot, and against an earlier commit in the same run.

Each measurement runs in a fresh process and is given in CPU seconds (user + system), which
other jobs on a shared machine inflate less than wall-clock seconds (given beside them).

* default: ``FlopValues.compute`` (both seats: every holding, turn and river card after the
  flop) on the same ``--flops`` canonical flops (20) drawn with ``--seed``, after one warm-up
  flop (compiled kernels loaded); the per-flop mean times 1,755 extrapolates the exact
  computation's flop loop (the start-up, the pre-flop backup and tables add a few seconds);
* ``--whole``: the whole exact ``compute_best_response`` per bot, start-up included (the
  child process's CPU time);
* ``--against REV``: the same measurements of ``REV`` too (default ``3d75adc``, the commit
  before the compiled best response), checked out in a temporary git worktree
  (``PYTHONPATH`` set to it, as ``benchmarks/bench_ab.py`` does), alternating which tree goes
  first, and the speed-up REV / this tree per bot in CPU time; ``--against none``: this tree
  only;
* ``--hands N``: also ``BestResponseAgent.act`` per street, from the first decision of a
  round (this tree only; the shipped pre-flop tables of call, raise and random);
* ``--write FILE``: the table also replaces the ``best-response`` section of ``FILE``
  (``results/benchmarks.md``), as the other benchmarks' ``--write`` do.

    python benchmarks/bench_best_response.py --write results/benchmarks.md  # about 2 minutes
    python benchmarks/bench_best_response.py --whole --against none --bots call mix:0.2,0.5,0.3

The exact computation of ``3d75adc`` took about 12 CPU-minutes per bot, so ``--whole`` against
it takes an hour.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from agents.best_response import BestResponseAgent, parse_policy
from envs.game import Hand
from envs.rules import Rules, Street

ROOT = Path(__file__).resolve().parents[1]
CANONICAL_FLOPS = 1755
BEFORE = "3d75adc"
"""The commit before the compiled best response (b1bea53 and after)."""
BOTS = ["call", "raise", "random", "fold", "mix:0.2,0.5,0.3"]

FLOPS = """
import json, sys, time
import numpy as np
from agents.best_response import FULL_DECK, LearnerSeat, parse_policy
from agents.best_response.flops import FlopValues
from agents.best_response.tree import build_game
from envs.rules import Rules
bot, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
policy = parse_policy(bot)
values = FlopValues([build_game(policy, Rules(), seat) for seat in LearnerSeat], FULL_DECK)
flops, _ = FULL_DECK.canonical_flops()
chosen = np.random.default_rng(seed).choice(len(flops) - 1, count, replace=False) + 1
values.compute(tuple(int(c) for c in flops[0]))
start, wall = time.process_time(), time.perf_counter()
for index in chosen:
    values.compute(tuple(int(c) for c in flops[index]))
print(json.dumps([(time.process_time() - start) / count, (time.perf_counter() - wall) / count]))
"""

WHOLE = """
import sys
from agents.best_response import compute_best_response, parse_policy
compute_best_response(parse_policy(sys.argv[1]))
"""


def run(tree: Path, script: str, *args: str) -> tuple[float, float]:
    """One measurement in a fresh process importing ``tree``'s code: CPU and wall seconds,
    those the script prints or else the whole child process's."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"measurement failed in {tree}:\n{done.stderr}")
    if done.stdout.strip():
        cpu, wall = json.loads(done.stdout.strip().splitlines()[-1])
        return float(cpu), float(wall)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    return cpu, wall


def measure(trees: dict[str, Path], bots: list[str], args: argparse.Namespace) -> list[str]:
    """A markdown table: per bot, each tree's CPU and wall seconds and the speed-up."""
    script, script_args = (WHOLE, ()) if args.whole else (FLOPS, (str(args.flops), str(args.seed)))
    seconds: dict[str, dict[str, tuple[float, float]]] = {bot: {} for bot in bots}
    for number, bot in enumerate(bots):
        order = list(trees) if number % 2 == 0 else list(reversed(trees))
        for label in order:
            cpu, wall = seconds[bot][label] = run(trees[label], script, bot, *script_args)
            print(f"{bot} ({label}): {cpu:.3f} CPU s, {wall:.3f} s wall", file=sys.stderr)
    what = "whole run" if args.whole else "per flop"
    head = ["bot"]
    for label in trees:
        head += [f"{label}: CPU s ({what})", f"{label}: wall s"]
    if not args.whole:
        head += [f"{label}: CPU s x {CANONICAL_FLOPS:,} flops" for label in trees]
    if "before" in trees:
        head.append("speed-up (CPU)")
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for bot, by in seconds.items():
        cells = [f"`{bot}`"]
        for label in trees:
            cells += [f"{by[label][0]:.3f}", f"{by[label][1]:.3f}"]
        if not args.whole:
            cells += [f"{by[label][0] * CANONICAL_FLOPS:,.0f}" for label in trees]
        if "before" in trees:
            cells.append(f"{by['before'][0] / by['this tree'][0]:.1f}x")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def describe(args: argparse.Namespace, against: str | None, load: float) -> str:
    """What the table measured, where and when."""
    what = (
        "the whole exact computation per bot (a fresh process each, start-up included)"
        if args.whole
        else (
            f"`FlopValues.compute` (both seats, every holding, turn and river card) per flop, "
            f"mean of {args.flops} canonical flops (seed {args.seed}) after a warm-up flop, a "
            f"fresh process per bot and tree; x {CANONICAL_FLOPS:,} extrapolates the exact "
            "computation's flop loop, to which start-up and the pre-flop add a few seconds"
        )
    )
    before = (
        f" `before` is `{against}` in a temporary worktree, measured in the same run "
        "(alternating which tree goes first); speed-up = before / this tree, CPU seconds."
        if against
        else ""
    )
    return (
        f"Measured {datetime.date.today()} on {platform.machine()} "
        f"({platform.python_implementation()} {platform.python_version()}, numpy "
        f"{np.__version__}, {os.cpu_count()} cores, load average {load:.1f} before timing, "
        f"{os.getloadavg()[0]:.1f} after): {what}. CPU = user + system seconds.{before}"
    )


def time_decisions(bot: str, hands: int, seed: int) -> dict[Street, list[float]]:
    """CPU seconds of the agent's first decision in each round, per street."""
    agent = BestResponseAgent(parse_policy(bot))
    rng = np.random.default_rng(seed)
    times: dict[Street, list[float]] = {street: [] for street in Street}
    for hand_id in range(hands):
        hand = Hand(Rules(), rng.permutation(52), button=hand_id % 2)
        seen: set[tuple[Street, int]] = set()
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            if seat == 0:
                start = time.process_time()
                action = agent.act(view)
                spent = time.process_time() - start
                if hand_id and (view.street, hand_id) not in seen:  # hand 0 loads the tables
                    times[view.street].append(spent)
                    seen.add((view.street, hand_id))
            else:
                legal = hand.legal_actions()
                action = legal[-1] if len(legal) > 1 else legal[0]  # keep hands going
            hand.act(action)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=BOTS, help=f"default: {' '.join(BOTS)}")
    parser.add_argument("--flops", type=int, default=20, help="canonical flops timed per bot")
    parser.add_argument("--seed", type=int, default=0, help="seed of the flop sample")
    parser.add_argument("--whole", action="store_true", help="time the whole computation")
    parser.add_argument(
        "--against",
        metavar="REV",
        default=BEFORE,
        help=f"also measure this earlier commit (default {BEFORE}; 'none': this tree only)",
    )
    parser.add_argument("--hands", type=int, default=0, help="also time the agent (hands)")
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)
    if args.flops < 1:
        parser.error("--flops must be at least 1")
    bots: list[str] = args.bots
    against = None if args.against.lower() == "none" else args.against
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-br-") as tmp:
        trees = {"this tree": ROOT}
        before = Path(tmp) / "before"
        if against:
            subprocess.run(
                [
                    "git",
                    "-C",
                    str(ROOT),
                    "worktree",
                    "add",
                    "--detach",
                    "-q",
                    str(before),
                    against,
                ],
                check=True,
            )
            trees = {"before": before, "this tree": ROOT}
        try:
            table = measure(trees, bots, args)
        finally:
            if against:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                    check=False,
                )
    command = "python benchmarks/bench_best_response.py" + (" --whole" if args.whole else "")
    lines = [f"## Best response (`{command}`)", "", describe(args, against, load), "", *table]
    for bot in bots if args.hands else []:
        lines.append("")
        for street, spent in time_decisions(bot, args.hands, args.seed).items():
            if spent:
                lines.append(
                    f"agent {bot} {street.name.lower():<8} first decision of a round: best "
                    f"{1000 * min(spent):.2f} ms, median {1000 * statistics.median(spent):.2f} "
                    f"ms CPU ({len(spent)} rounds)"
                )
    print("\n".join(lines))
    if args.write:
        from bench_engine import write_section

        write_section(args.write, "best-response", "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
