"""Best-response speed per bot, and against an earlier commit in the same run.

Times are CPU seconds (``time.process_time``), each measurement in a fresh process, so that
other jobs on a shared machine inflate them less than wall-clock times.

* default: ``FlopValues.compute`` (both seats: every holding, turn and river card after the
  flop) on the same ``--flops`` canonical flops drawn with ``--seed``, after one warm-up flop
  (compiled kernels loaded); the per-flop mean times 1,755 extrapolates the exact
  computation's flop loop (the pre-flop backup and tables add under a second);
* ``--whole``: the whole exact ``compute_best_response`` per bot, start-up included;
* ``--against REV``: the same measurements of ``REV`` too, checked out in a temporary git
  worktree (``PYTHONPATH`` set to it, as ``benchmarks/bench_ab.py`` does), alternating which
  tree goes first, and the speed-up REV / this tree per bot;
* ``--hands N``: also ``BestResponseAgent.act`` per street, from the first decision of a
  round (this tree only; the shipped pre-flop tables of call, raise and random).

    python benchmarks/bench_best_response.py --against 3d75adc --flops 20
    python benchmarks/bench_best_response.py --whole --bots call raise random

The exact computation of the earlier route took about 12 CPU-minutes per bot, so ``--whole``
with ``--against`` such a commit takes an hour.
"""

from __future__ import annotations

import argparse
import json
import os
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
start = time.process_time()
for index in chosen:
    values.compute(tuple(int(c) for c in flops[index]))
print(json.dumps((time.process_time() - start) / count))
"""

WHOLE = """
import json, sys, time
start = time.process_time()
from agents.best_response import compute_best_response, parse_policy
compute_best_response(parse_policy(sys.argv[1]))
print(json.dumps(time.process_time() - start))
"""


def run(tree: Path, script: str, *args: str) -> float:
    """One measurement in a fresh process importing ``tree``'s code."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"measurement failed in {tree}:\n{done.stderr}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def measure(trees: dict[str, Path], bots: list[str], args: argparse.Namespace) -> list[str]:
    """A markdown table: per bot, each tree's CPU seconds and the speed-up."""
    script, script_args = (WHOLE, ()) if args.whole else (FLOPS, (str(args.flops), str(args.seed)))
    seconds: dict[str, dict[str, float]] = {bot: {} for bot in bots}
    for number, bot in enumerate(bots):
        order = list(trees) if number % 2 == 0 else list(reversed(trees))
        for label in order:
            seconds[bot][label] = run(trees[label], script, bot, *script_args)
            print(f"{bot} ({label}): {seconds[bot][label]:.3f} s", file=sys.stderr)
    what = "whole exact computation" if args.whole else "per flop"
    head = ["bot"] + [f"{label} CPU s ({what})" for label in trees]
    if not args.whole:
        head += [f"{label} x {CANONICAL_FLOPS:,} flops (s)" for label in trees]
    if "before" in trees:
        head.append("speed-up")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for bot, by in seconds.items():
        cells = [f"`{bot}`"] + [f"{by[label]:.3f}" for label in trees]
        if not args.whole:
            cells += [f"{by[label] * CANONICAL_FLOPS:,.0f}" for label in trees]
        if "before" in trees:
            cells.append(f"{by['before'] / by['this tree']:.1f}x")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


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
    parser.add_argument("--against", metavar="REV", help="also measure this earlier commit")
    parser.add_argument("--hands", type=int, default=0, help="also time the agent (hands)")
    args = parser.parse_args(argv)
    if args.flops < 1:
        parser.error("--flops must be at least 1")
    bots: list[str] = args.bots
    with tempfile.TemporaryDirectory(prefix="bench-br-") as tmp:
        trees = {"this tree": ROOT}
        if args.against:
            before = Path(tmp) / "before"
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
                    args.against,
                ],
                check=True,
            )
            trees = {"before": before, "this tree": ROOT}
        try:
            lines = measure(trees, bots, args)
        finally:
            if args.against:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                    check=False,
                )
    sample = "" if args.whole else f", {args.flops} canonical flops (seed {args.seed})"
    against = f", before = `{args.against}`" if args.against else ""
    print(f"CPU seconds, load average {os.getloadavg()[0]:.1f}{sample}{against}:\n")
    print("\n".join(lines))
    for bot in bots if args.hands else []:
        for street, spent in time_decisions(bot, args.hands, args.seed).items():
            if spent:
                print(
                    f"agent {bot} {street.name.lower():<8} first decision of a round: best "
                    f"{1000 * min(spent):.2f} ms, median {1000 * statistics.median(spent):.2f} "
                    f"ms CPU ({len(spent)} rounds)"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
