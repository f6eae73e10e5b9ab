"""Batched BPP speed: CPU microseconds per decision of ``bpp`` and ``bpp-curves`` over k tables.

Protocol. A heads-up bpp-versus-bpp-curves play over ``--tables`` tables is recorded: scalar
``envs.game.Hand`` tables advanced in lockstep, the two batched agents deciding for all the
tables where their seat is to act (one ``DecisionBatch`` per agent per step, actions drawn by
``envs.crn`` from the returned probabilities), and one ``HandEndBatch`` per agent after each
hand. The recorded batches are then replayed to fresh batched agents and every
``probabilities`` and ``observe_ends`` call is timed with ``time.process_time`` (CPU time: the
machine is shared); the figure is the total over the decisions of the play (hand ends
included), best of ``--repeats`` replays. Smaller table counts replay the same play restricted
to its first tables. The scalar figure replays the views of the first ``--scalar-tables``
tables of the same play to fresh ``BPPAgent`` / ``BPPCurvesAgent`` objects (``decide`` and
``observe``), so both sides decide the same decisions.

The agents' compiled loops (numba) are built on their first call and cached on disk. The start
figure is the CPU time of a first short play (eight tables, two hands: every kernel's first
call) in a fresh process, first with an empty cache (compiling), then with the cache it
filled (loading); both use a temporary ``NUMBA_CACHE_DIR``, so the repository's caches are
left alone.

    python benchmarks/bench_bpp_batched.py [--tables 4096] [--hands 8] \\
        [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import write_section

from agents.bpp.agent import BPPAgent
from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from agents.bpp.curves import BPPCurvesAgent
from agents.bpp.network import shipped_network
from envs.batched.views import DecisionBatch, HandEndBatch, decision_batch, hand_end_batch
from envs.crn import decision_uniforms, sample_actions
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Action, Rules
from envs.view import PlayerView

Batch = DecisionBatch | HandEndBatch
Step = tuple[int, Batch]
"""(agent role: 0 = bpp, 1 = bpp-curves, the batch it received)."""


def fresh_agents(tables: int) -> list[BatchedBPP | BatchedBPPCurves]:
    """The two batched agents; bpp sits in seat ``i % 2`` at table ``i``."""
    agents: list[BatchedBPP | BatchedBPPCurves] = [BatchedBPP(tables), BatchedBPPCurves(tables)]
    seats = np.arange(tables) % 2
    agents[0].start_tables(np.arange(tables), seats)
    agents[1].start_tables(np.arange(tables), 1 - seats)
    return agents


def record(
    tables: int, hands: int, seed: int, keep_views: int
) -> tuple[list[Step], list[tuple[int, int, PlayerView]]]:
    """The batches of a recorded play, and the views of its first ``keep_views`` tables
    as ``(role, table, view)`` in order (see the module docstring)."""
    rules = Rules()
    agents = fresh_agents(tables)
    role_of_seat = np.stack([np.arange(tables) % 2, 1 - np.arange(tables) % 2], axis=1)
    steps: list[Step] = []
    views_kept: list[tuple[int, int, PlayerView]] = []
    for h in range(hands):
        deals = np.arange(tables) * hands + h
        games = [
            Hand(rules, deal_deck(seed, int(d)).tolist(), button=h % 2, hand_id=h) for d in deals
        ]
        decisions = np.zeros((tables, 2), dtype=np.int64)
        live = list(range(tables))
        while live:
            actors = np.array([games[i].actor for i in live])
            roles = role_of_seat[live, actors]
            for role in (0, 1):
                rows = [i for i, r in zip(live, roles, strict=True) if r == role]
                if not rows:
                    continue
                views = [games[i].view(games[i].actor) for i in rows]  # type: ignore[arg-type]
                batch = decision_batch(views, rows)
                probabilities = agents[role].probabilities(batch)
                seats = batch.seat.astype(np.int64)
                u = decision_uniforms(seed, deals[rows], seats, decisions[rows, seats])
                decisions[rows, seats] += 1
                for i, view, action in zip(
                    rows, views, sample_actions(probabilities, u), strict=True
                ):
                    if i < keep_views:
                        views_kept.append((role, i, view))
                    games[i].act(Action(int(action)))
                steps.append((role, batch))
            live = [i for i in live if not games[i].is_over]
        for role in (0, 1):
            seats = np.nonzero(role_of_seat == role)[1]
            views = [games[i].view(int(seats[i])) for i in range(tables)]
            end = hand_end_batch(views, np.arange(tables))
            agents[role].observe_ends(end)
            steps.append((role, end))
            views_kept += [(role, i, views[i]) for i in range(min(keep_views, tables))]
    return steps, views_kept


def restrict(batch: Batch, tables: int) -> Batch | None:
    """The rows of ``batch`` at tables ``< tables`` (None if there are none)."""
    keep = batch.tables < tables
    if not keep.any():
        return None
    fields: dict[str, Any] = {}
    for name in type(batch)._fields:
        value = getattr(batch, name)
        fields[name] = value[keep] if isinstance(value, np.ndarray) else value
    return type(batch)(**fields)


def replay_batched(steps: Sequence[Step], tables: int, repeats: int) -> tuple[float, int]:
    """(best CPU seconds, decisions) of fresh batched agents over ``steps`` at ``tables``."""
    subset = [(role, b) for role, batch in steps if (b := restrict(batch, tables)) is not None]
    decisions = sum(len(b.tables) for _, b in subset if isinstance(b, DecisionBatch))
    best = math.inf
    for _ in range(repeats):
        agents = fresh_agents(tables)
        start = time.process_time()
        for role, batch in subset:
            if isinstance(batch, DecisionBatch):
                agents[role].probabilities(batch)
            else:
                agents[role].observe_ends(batch)
        best = min(best, time.process_time() - start)
    return best, decisions


def bytes_per_table(steps: Sequence[Step]) -> float:
    """Bytes of per-table state of the two agents after the recorded play."""
    tables = 1 + max(int(batch.tables.max()) for _, batch in steps)
    agents = fresh_agents(tables)
    for role, batch in steps:
        if isinstance(batch, DecisionBatch):
            agents[role].probabilities(batch)
        else:
            agents[role].observe_ends(batch)
    return sum(agent.nbytes for agent in agents) / tables


def replay_scalar(views: Sequence[tuple[int, int, PlayerView]], repeats: int) -> tuple[float, int]:
    """(best CPU seconds, decisions) of fresh scalar agents (one per table and role)."""
    tables = 1 + max(i for _, i, _ in views)
    decisions = sum(1 for _, _, v in views if not v.is_terminal)
    best = math.inf
    for run in range(repeats):
        agents = [[BPPAgent(), BPPCurvesAgent()] for _ in range(tables)]
        for i, pair in enumerate(agents):
            for role, agent in enumerate(pair):
                agent.reset(np.random.default_rng([run, i, role]))
        start = time.process_time()
        for role, i, view in views:
            agent = agents[i][role]
            if view.is_terminal:
                agent.observe(view)
            else:
                agent.decide(view)
        best = min(best, time.process_time() - start)
    return best, decisions


def start_seconds(cache_dir: str) -> float:
    """CPU seconds of a first short play in a fresh process caching kernels in ``cache_dir``."""
    here = str(Path(__file__).resolve().parent)
    code = (
        f"import sys, time; sys.path.insert(0, {here!r}); import bench_bpp_batched as b; "
        "start = time.process_time(); b.record(8, 2, 1, 0); "
        "print(time.process_time() - start)"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    return float(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4096, help="largest table count")
    parser.add_argument("--hands", type=int, default=8, help="hands per table")
    parser.add_argument("--scalar-tables", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as cache_dir:
        cold, warm = start_seconds(cache_dir), start_seconds(cache_dir)
    print(f"first play in a fresh process: {cold:.1f} CPU-s compiling, {warm:.2f} from the cache")
    shipped_network()
    start = time.process_time()
    steps, views = record(args.tables, args.hands, args.seed, args.scalar_tables)
    record_s = time.process_time() - start
    sizes = sorted({1024, args.tables} if args.tables > 1024 else {args.tables})
    rows = []
    for tables in sizes:
        seconds, decisions = replay_batched(steps, tables, args.repeats)
        us = 1e6 * seconds / decisions
        rows.append((f"batched, {tables:,} tables", us, decisions))
        print(f"batched bpp + bpp-curves, {tables:,} tables: {us:.2f} us/decision ({decisions:,})")
    seconds, decisions = replay_scalar(views, args.repeats)
    scalar_us = 1e6 * seconds / decisions
    rows.append((f"scalar, {args.scalar_tables} tables", scalar_us, decisions))
    print(f"scalar bpp + bpp-curves: {scalar_us:.1f} us/decision ({decisions:,} decisions)")
    per_hand = sum(len(b.tables) for _, b in steps if isinstance(b, DecisionBatch))
    per_hand /= args.tables * args.hands
    print(f"{per_hand:.2f} decisions per hand; recording took {record_s:.0f} CPU-s")
    per_table = bytes_per_table(steps)
    print(f"memory: {per_table:,.0f} bytes per heads-up table (both agents)")
    if args.write:
        lines = [
            "## Batched BPP (`python benchmarks/bench_bpp_batched.py`)",
            "",
            f"Measured {datetime.date.today()} on {platform.machine()} "
            f"({platform.python_implementation()} {platform.python_version()}, "
            f"numpy {np.__version__}), one process on a shared 2-core machine: a heads-up "
            f"bpp-vs-bpp-curves play of {args.tables:,} tables x {args.hands} hands "
            f"({per_hand:.2f} decisions per hand) replayed to fresh agents, CPU time of the "
            f"agents alone (decisions and hand ends), best of {args.repeats}.",
            "",
            "| agents | CPU us per decision | decisions | ratio to scalar |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {label} | {us:.2f} | {n:,} | {scalar_us / us:.0f}x |" for label, us, n in rows
        ]
        largest = rows[-2][1]
        lines += [
            "",
            f"At {per_hand:.2f} decisions per hand the two batched agents alone cost "
            f"{largest * per_hand:.0f} us of CPU per hand at {args.tables:,} tables, so they cap "
            f"a bpp-vs-bpp-curves batched runner at {1e6 / (largest * per_hand):,.0f} hands per "
            "CPU-second before any engine time. The agents run compiled loops (numba, "
            "`agents/bpp/batched_kernels.py`); the largest costs of a decision are entering a "
            "round (a 27 x 25 product of the network per earlier round and one for the "
            "current round, read in place) and absorbing the opponent's action (its "
            "likelihood row from the learned counts), both bounded by memory as much as by "
            "arithmetic at thousands of tables.",
            "",
            f"First play in a fresh process (every kernel's first call): {cold:.1f} CPU-s with "
            f"an empty cache (compiling), {warm:.2f} CPU-s with the cache filled.",
            "",
            f"Per-table state of the two batched agents, heads-up: {per_table:,.0f} bytes "
            f"({per_table * 10_000 / 2**20:.0f} MiB for 10,000 tables).",
        ]
        write_section(args.write, "bpp-batched", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
