"""Batched engine speed: random play in hands per CPU-second, against the scalar ``Hand`` and
OpenSpiel's C++ ``universal_poker`` measured in the same run.

Protocol (the engine half of peers' random-play protocol): every decision takes a uniformly
random legal action by inverse CDF; one hand is a fresh deal played to its payoffs.

* ``HandBatch`` over ``T`` tables: all tables step together; finished tables are restarted in
  place with decks from ``random_decks``; the uniforms come from ``envs.crn`` (vectorised:
  one per (seed, hand, seat, decision index)), the actions from ``sample_actions``.
* The scalar ``Hand``: decks from ``random_decks`` in chunks of 1,024, one ``envs.crn``
  uniform per decision (``uniform_at``).
* OpenSpiel's ``universal_poker`` (open_spiel 2.0.2): the ACPC limit game of our default rules
  (blinds 1/2, bets 2/2/4/4, ``maxRaises 3 4 4 4``: four bets a round counting the big blind
  pre-flop; reverse blinds heads-up), played through its state API; its chance nodes (the cards)
  and decisions draw from a pre-generated list of uniforms, which is cheaper than our hash,
  so the ratio is conservative. It cannot build limit games above four players, so its 6-max
  column is empty and a 4-player row is measured instead.

After a warm-up, every contender runs ``--slices`` slices of about ``--slice-seconds`` CPU
seconds each, the contenders taking turns so that they meet the same machine (a shared VM
drifts by tens of percent within seconds); the rate is total hands over total CPU time
(``time.process_time``). The batched engine's tables carry on across slices (steady state).

Memory: the state arrays per table (``HandBatch.bytes_per_table``), and the peak of all NumPy
allocations (``tracemalloc``) while 10,000 heads-up tables play, step temporaries included.

    python benchmarks/bench_batched.py [--slices 8] [--write results/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import write_section

from envs.batched import HandBatch, random_decks
from envs.crn import decision_uniforms, hand_key, sample_actions, uniform_at
from envs.game import Hand
from envs.rules import Action, Rules

SEED = 2026
OPENSPIEL_MAX_LIMIT_PLAYERS = 4


class BatchedRandomPlay:
    """``HandBatch`` tables playing random hands without end."""

    def __init__(self, num_seats: int, tables: int) -> None:
        self.name = f"HandBatch, {tables:,} tables"
        self.seats, self.tables = num_seats, tables
        self.rng = np.random.default_rng(SEED)
        self.batch = HandBatch(Rules(num_seats=num_seats), tables)
        self.cards = 2 * num_seats + 5
        rows = np.arange(tables)
        self.batch.start(rows, random_decks(self.rng, tables, self.cards), rows % num_seats, rows)
        self.next_id = tables
        self.spent = {"engine": 0.0, "draw": 0.0, "deal": 0.0}

    def play(self, hands: int) -> tuple[int, int]:
        """Step until at least ``hands`` hands ended: (hands ended, decisions taken).

        CPU time is split between the engine (``legal_mask``, ``step``, ``start``), drawing
        the actions (``envs.crn`` uniforms, inverse CDF) and dealing (``random_decks``).
        """
        batch, played, decisions = self.batch, 0, 0
        clock, spent = time.process_time, self.spent
        while played < hands:
            t0 = clock()
            legal = batch.legal_mask()
            t1 = clock()
            counts = legal.sum(axis=1, keepdims=True)
            probabilities = legal / np.maximum(counts, 1)
            u = decision_uniforms(
                SEED, batch.hand_id, np.maximum(batch.actor, 0), batch.decision_index()
            )
            actions = sample_actions(probabilities, u)
            t2 = clock()
            batch.step(actions)
            over = np.flatnonzero(batch.over)
            t3 = clock()
            spent["engine"] += (t1 - t0) + (t3 - t2)
            spent["draw"] += t2 - t1
            if len(over):
                played += len(over)
                decisions += int(batch.log_len[over].sum())  # the ended hands' decisions
                ids = np.arange(self.next_id, self.next_id + len(over))
                self.next_id += len(over)
                buttons = (batch.button[over] + 1) % self.seats
                decks = random_decks(self.rng, len(over), self.cards)
                t4 = clock()
                batch.start(over, decks, buttons, ids)
                spent["deal"] += t4 - t3
                spent["engine"] += clock() - t4
        return played, decisions


class ScalarRandomPlay:
    """One ``Hand`` after another."""

    def __init__(self, num_seats: int) -> None:
        self.name = "scalar Hand"
        self.rules = Rules(num_seats=num_seats)
        self.rng = np.random.default_rng(SEED)
        self.hand_id = 0
        self.decks: list[list[int]] = []

    def play(self, hands: int) -> tuple[int, int]:
        rules, n, decisions = self.rules, self.rules.num_seats, 0
        for _ in range(hands):
            if not self.decks:
                self.decks = random_decks(self.rng, 1024, 2 * n + 5).tolist()
            hand = Hand(rules, self.decks.pop(), button=self.hand_id % n, hand_id=self.hand_id)
            key = hand_key(SEED, self.hand_id)
            taken = [0] * n
            while (seat := hand.actor) is not None:
                legal = hand.legal_actions()
                u = uniform_at(key, seat, taken[seat])
                taken[seat] += 1
                hand.act(legal[int(u * len(legal))])
            decisions += sum(taken)
            hand.payoffs  # noqa: B018 - the payoffs are part of the work measured
            self.hand_id += 1
        return hands, decisions


def openspiel_game_string(num_seats: int) -> str:
    """The ``universal_poker`` parameters of ``Rules(num_seats=num_seats)`` (ACPC gamedef).

    ACPC seats are positions: heads-up player 0 is the big blind and player 1 the button,
    which posts the small blind and acts first pre-flop (reverse blinds); with more players,
    players 0 and 1 post the blinds and player 2 opens. ``maxRaises`` counts raises after the
    big blind, so ``3 4 4 4`` is our four bets a round.
    """
    if num_seats == 2:
        blinds, first = "2 1", "2 1 1 1"
    else:
        blinds, first = " ".join(["1", "2"] + ["0"] * (num_seats - 2)), "3 1 1 1"
    return (
        f"universal_poker(betting=limit,numPlayers={num_seats},numRounds=4,blind={blinds},"
        f"firstPlayer={first},numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
        "raiseSize=2 2 4 4,maxRaises=3 4 4 4,bettingAbstraction=fcpa)"
    )


class OpenSpielRandomPlay:
    """OpenSpiel's ``universal_poker`` states, one hand after another."""

    def __init__(self, num_seats: int) -> None:
        import pyspiel

        self.name = "OpenSpiel universal_poker"
        self.game = pyspiel.load_game(openspiel_game_string(num_seats))
        self.rng = np.random.default_rng(SEED)
        self.uniforms: list[float] = []

    def play(self, hands: int) -> tuple[int, int]:
        uniforms, decisions = self.uniforms, 0
        for _ in range(hands):
            state = self.game.new_initial_state()
            while not state.is_terminal():
                if not uniforms:  # refilled in blocks: a list pop is cheaper than a call
                    uniforms.extend(self.rng.random(1 << 14).tolist())
                legal = state.legal_actions()
                if not state.is_chance_node():
                    decisions += 1
                state.apply_action(legal[int(uniforms.pop() * len(legal))])
            state.returns()
        return hands, decisions


def check_same_game(num_seats: int, hands: int = 2000) -> None:
    """Assert that ``universal_poker`` and ``Hand`` play the same betting game: the same seat
    to act and the same legal actions at every decision of ``hands`` random hands."""
    import pyspiel

    game = pyspiel.load_game(openspiel_game_string(num_seats))
    rules = Rules(num_seats=num_seats)
    rng = np.random.default_rng(SEED)
    for _ in range(hands):
        state = game.new_initial_state()
        # With the button on the last seat, our seat p is ACPC position p.
        hand = Hand(rules, rng.permutation(52), button=num_seats - 1)
        while not state.is_terminal():
            legal = state.legal_actions()
            if not state.is_chance_node():
                ours = [int(a) for a in hand.legal_actions()]
                assert (hand.actor, ours) == (state.current_player(), legal), str(state)
                action = legal[int(rng.integers(len(legal)))]
                hand.act(Action(action))
            else:
                action = legal[int(rng.integers(len(legal)))]  # a card
            state.apply_action(action)
        assert hand.is_over, str(state)


class Contender:
    """A runner with its accumulated hands, decisions and CPU time."""

    def __init__(self, runner: BatchedRandomPlay | ScalarRandomPlay | OpenSpielRandomPlay):
        self.runner = runner
        self.name = runner.name
        self.rate_guess = 1000.0
        self.reset()

    def reset(self) -> None:
        """Forget what was measured (after the warm-up)."""
        self.hands = self.decisions = 0
        self.cpu = 0.0
        if isinstance(self.runner, BatchedRandomPlay):
            self.runner.spent = dict.fromkeys(self.runner.spent, 0.0)

    def slice(self, seconds: float) -> None:
        start = time.process_time()
        hands, decisions = self.runner.play(max(1, int(self.rate_guess * seconds)))
        spent = time.process_time() - start
        self.hands += hands
        self.decisions += decisions
        self.cpu += spent
        self.rate_guess = hands / max(spent, 1e-6)

    @property
    def rate(self) -> float:
        return self.hands / self.cpu

    @property
    def split(self) -> str:
        """Shares of the CPU time of a batched contender (empty for the others)."""
        if not isinstance(self.runner, BatchedRandomPlay):
            return ""
        spent = self.runner.spent
        total = sum(spent.values())
        return ", ".join(f"{part} {100 * cpu / total:.0f}%" for part, cpu in spent.items())


def measure(num_seats: int, tables: list[int], slices: int, seconds: float) -> list[Contender]:
    """Hands per CPU-second of every contender at ``num_seats`` seats, interleaved."""
    makers: list[Callable[[], BatchedRandomPlay | ScalarRandomPlay | OpenSpielRandomPlay]]
    makers = [lambda t=t: BatchedRandomPlay(num_seats, t) for t in tables]
    makers.append(lambda: ScalarRandomPlay(num_seats))
    if num_seats <= OPENSPIEL_MAX_LIMIT_PLAYERS:
        makers.append(lambda: OpenSpielRandomPlay(num_seats))
    contenders = [Contender(make()) for make in makers]
    for contender in contenders:  # warm-up, and a first guess of the rate
        contender.slice(seconds / 2)
        contender.reset()
    for _ in range(slices):
        for contender in contenders:
            contender.slice(seconds)
    return contenders


def peak_memory(tables: int, steps: int = 30) -> tuple[float, float]:
    """(state bytes per table, peak MB of NumPy allocations) of ``tables`` heads-up tables
    playing ``steps`` random steps with restarts."""
    tracemalloc.start()
    runner = BatchedRandomPlay(2, tables)
    per_table = runner.batch.bytes_per_table
    runner.play(tables * steps // 5)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return per_table, peak / 2**20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=8)
    parser.add_argument("--slice-seconds", type=float, default=0.3)
    parser.add_argument("--tables", type=int, nargs="+", default=[4096, 16384])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--write", type=Path, help="write the figures as markdown here")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()[0]
    rows = []
    checked = []
    for seats in args.seats:
        if seats <= OPENSPIEL_MAX_LIMIT_PLAYERS:
            check_same_game(seats)
            checked.append(str(seats))
            print(f"{seats} seats: universal_poker plays the same betting game as Hand")
        contenders = measure(seats, args.tables, args.slices, args.slice_seconds)
        peer = next((c for c in contenders if c.name.startswith("OpenSpiel")), None)
        scalar = next(c for c in contenders if c.name == "scalar Hand")
        for c in contenders:
            vs_peer = c.rate / peer.rate if peer else None
            per_hand = c.decisions / c.hands
            rows.append((seats, c.name, c.rate, per_hand, vs_peer, c.rate / scalar.rate, c.split))
            print(
                f"{seats} seats, {c.name}: {c.rate:,.0f} hands/CPU-s "
                f"({per_hand:.2f} decisions/hand, {c.hands:,} hands)"
                + (f", {vs_peer:.1f}x OpenSpiel" if vs_peer else "")
                + f", {c.rate / scalar.rate:.1f}x scalar"
                + (f"; CPU: {c.split}" if c.split else "")
            )
    sizes = {seats: HandBatch(Rules(num_seats=seats), 1).bytes_per_table for seats in args.seats}
    per_table, peak = peak_memory(10_000)
    load = f"1-minute load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    load += f" ({os.cpu_count()} CPUs)"
    print(load)
    print("state bytes per table:", {s: round(b) for s, b in sizes.items()})
    print(
        f"10,000 heads-up tables: {per_table * 10_000 / 2**20:.1f} MB of state, "
        f"peak {peak:.1f} MB of NumPy allocations while playing"
    )

    if args.write:
        lines = [
            "## Batched engine (`python benchmarks/bench_batched.py`)",
            "",
            f"Measured {datetime.date.today()} on {platform.machine()} "
            f"({platform.python_implementation()} {platform.python_version()}, "
            f"numpy {np.__version__}, open_spiel {version('open_spiel')}), one process, CPU "
            f"time; {args.slices} interleaved slices of about {args.slice_seconds} s per "
            f"contender after a warm-up; {load}. Random legal actions by inverse CDF (ours "
            "from `envs.crn` uniforms); hands include dealing and payoffs. Regenerate with "
            "`make bench`.",
            "",
            "| seats | engine | hands/CPU-s | decisions/hand | x OpenSpiel | x scalar "
            "| CPU split |",
            "|---:|---|---:|---:|---:|---:|---|",
        ]
        lines += [
            f"| {s} | {name} | {rate:,.0f} | {dec:.2f} | "
            f"{'n/a' if peer is None else f'{peer:.1f}'} | {vs:.1f} | {split} |"
            for s, name, rate, dec, peer, vs, split in rows
        ]
        lines += [
            "",
            "Target (issue 13): the batched engine heads-up at least 10x OpenSpiel's "
            "universal_poker in the same run. OpenSpiel cannot build limit games with more "
            "than four players (n/a at 6 seats). Before measuring, the run checks that "
            f"universal_poker ({' and '.join(checked)} players) plays our betting game: the "
            "same seat to act and the same legal actions at every decision of 2,000 random "
            "hands. CPU split of the batched rows: `engine` is "
            "`legal_mask`, `step` and `start`; `draw` the `envs.crn` uniforms and inverse-CDF "
            "sampling of the random actions; `deal` the decks from `random_decks`.",
            "",
            "| memory | value |",
            "|---|---:|",
        ]
        lines += [f"| state bytes per table, {s} seats | {b:,.0f} |" for s, b in sizes.items()]
        lines += [
            f"| 10,000 heads-up tables: state | {per_table * 10_000 / 2**20:.1f} MB |",
            f"| 10,000 heads-up tables: peak NumPy allocations while playing | {peak:.1f} MB |",
            "",
            "Target: 10,000 heads-up tables within 200 MB.",
            "",
        ]
        write_section(args.write, "batched", "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
