"""Many independent streams of hands side by side: what a tuning study evaluates at once.

A stream is one table's life: fresh agents play deals ``0 .. deals - 1`` of its own seed, in
order, seated by its rotation (agent ``j`` in seat ``(j + rotation) % n``). Streams with the
same seed see the same cards and the same decision uniforms, so a study plays every candidate
on the same streams (common random numbers), and puts its blocks and duplicate rotations side
by side on thousands of tables. ``play_streams`` returns each stream's totals per agent, raw
and AIVAT-corrected.

An agent without a batched form plays as one scalar agent per stream (``envs.batched.adapter``).
Each is reset at the start of its stream with a generator from ``stream_generator(seed, role)``:
``SeedSequence([seed, AGENT_STREAM, role])`` of the stream's seed and the agent's role (its index
in ``agents``), so streams with the same seed give the same role the same generator whatever
else plays beside them, and runs are reproducible.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from envs.aivat import PlayedHands, aivat_corrections, concatenate
from envs.batched.adapter import ScalarTables
from envs.batched.engine import HandBatch
from envs.match.driver import Driver
from envs.match.plan import AGENT_STREAM
from envs.protocols import BatchedAgent, SeatAgent
from envs.rules import Rules

__all__ = ["StreamAgent", "StreamTotals", "play_streams", "stream_generator"]

Ints = npt.NDArray[np.int64]
StreamAgent = BatchedAgent | Sequence[SeatAgent]
"""A role's players: one batched agent serving every stream, or one scalar agent per stream."""

AIVAT_CHUNK = 16_384
"""Finished hands corrected together."""


@dataclass(frozen=True)
class StreamTotals:
    """What each stream's agents won over its deals."""

    chips: Ints
    """``(streams, agents)`` net chips of agent ``j`` (whatever seat it held)."""
    corrected: npt.NDArray[np.float64] | None
    """``(streams, agents)`` the same with the AIVAT corrections, when requested."""
    hands: Ints
    """``(streams,)`` hands played."""


def stream_generator(seed: int, role: int) -> np.random.Generator:
    """The generator of the scalar agent of ``role`` on a stream of ``seed`` (module docstring)."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), AGENT_STREAM, int(role)]))


def play_streams(
    rules: Rules,
    agents: Sequence[StreamAgent],
    seeds: npt.ArrayLike,
    deals: int,
    rotations: npt.ArrayLike,
    *,
    aivat: bool = False,
    samples: int = 32,
    progress: bool = False,
    on_hands: Callable[[int], None] | None = None,
) -> StreamTotals:
    """Play ``deals`` deals on every stream (one table each) and total the chips.

    Args:
        rules: The game.
        agents: Per role, a batched agent serving ``len(seeds)`` tables (table ``t`` is
            stream ``t``), or a sequence of ``len(seeds)`` distinct scalar agents, one per
            stream (each reset with ``stream_generator(seed, role)`` before its first hand).
        seeds: ``(streams,)`` the seed of each stream's cards and decisions.
        deals: Deals each stream plays.
        rotations: ``(streams,)`` each stream's seating.
        aivat: Also total the AIVAT-corrected chips.
        samples: Boards sampled by the AIVAT equity on the flop and pre-flop.
        progress: Show a progress bar of hands on stderr.
        on_hands: Called with the number of hands just finished (e.g. a worker's progress).
    """
    seed_of = np.asarray(seeds, dtype=np.uint64).reshape(-1)
    rotation = np.asarray(rotations, dtype=np.int64).reshape(-1)
    streams, n = len(seed_of), rules.num_seats
    if rotation.shape != (streams,):
        raise ValueError(f"{streams} seeds but {rotation.size} rotations")
    if len(agents) != n:
        raise ValueError(f"{len(agents)} agents for {n} seats")
    batch = HandBatch(rules, streams)
    players = [_players(batch, agent) for agent in agents]
    driver = Driver(batch, players, aivat=aivat)
    everyone = np.arange(streams)

    def generator(table: int, role: int) -> np.random.Generator:
        return stream_generator(int(seed_of[table]), role)

    driver.open(everyone, rotation, generator)
    chips = np.zeros((streams, n), dtype=np.int64)
    corrected = np.zeros((streams, n)) if aivat else None
    hands = np.zeros(streams, dtype=np.int64)
    next_deal = np.zeros(streams, dtype=np.int64)
    bar = tqdm(total=streams * deals, unit="hand", file=sys.stderr, disable=not progress)

    def deal(rows: npt.NDArray[np.intp]) -> None:
        while rows.size:
            rows = rows[next_deal[rows] < deals]
            if not rows.size:
                return
            driver.deal_hands(rows, seed_of[rows], next_deal[rows], next_deal[rows])
            next_deal[rows] += 1
            rows = np.flatnonzero(batch.finished)
            book(rows)

    pending: list[tuple[npt.NDArray[np.intp], Ints, PlayedHands]] = []

    def correct() -> None:
        """AIVAT on the hands waiting for it, all at once (the estimator's cost per call is
        large, its cost per hand small)."""
        if corrected is None or not pending:
            return
        rows = np.concatenate([p[0] for p in pending])
        payoffs = np.concatenate([p[1] for p in pending])
        played = concatenate([p[2] for p in pending])
        pending.clear()
        values = payoffs + aivat_corrections(rules, played, samples=samples)
        agent_at = (np.arange(n)[np.newaxis, :] - rotation[rows, np.newaxis]) % n
        np.add.at(corrected, (rows[:, np.newaxis], agent_at), values)

    def book(rows: npt.NDArray[np.intp]) -> None:
        if not rows.size:
            return
        finished = driver.ended(rows)
        agent_at = (np.arange(n)[np.newaxis, :] - rotation[rows, np.newaxis]) % n
        np.add.at(chips, (rows[:, np.newaxis], agent_at), finished.payoffs)
        if corrected is not None and finished.played is not None:
            pending.append((rows, finished.payoffs, finished.played))
            if sum(len(p[0]) for p in pending) >= AIVAT_CHUNK:
                correct()
        hands[rows] += 1
        bar.update(len(rows))
        if on_hands is not None:
            on_hands(len(rows))

    with bar:
        deal(everyone)
        while driver.decide():
            ended = np.flatnonzero(batch.finished)
            book(ended)
            deal(ended)
        correct()
    return StreamTotals(chips, corrected, hands)


def _players(batch: HandBatch, agent: StreamAgent) -> BatchedAgent:
    """A role's batched agent: itself, or its scalar agents behind the adapter."""
    if isinstance(agent, list | tuple):
        return ScalarTables(batch, agent)
    return agent  # type: ignore[return-value]  # a BatchedAgent (a protocol, not checkable)
