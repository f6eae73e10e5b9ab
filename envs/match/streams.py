"""Many independent streams of hands side by side: what a tuning study evaluates at once.

A stream is one table's life: fresh agents play deals ``0 .. deals - 1`` of its own seed, in
order, seated by its rotation (agent ``j`` in seat ``(j + rotation) % n``). Streams with the
same seed see the same cards and the same decision uniforms, so a study plays every candidate
on the same streams (common random numbers), and puts its blocks and duplicate rotations side
by side on thousands of tables. ``play_streams`` returns each stream's totals per agent, raw
and AIVAT-corrected.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from envs.aivat import PlayedHands, aivat_corrections, concatenate
from envs.batched.engine import HandBatch
from envs.match.driver import Driver
from envs.protocols import BatchedAgent
from envs.rules import Rules

__all__ = ["StreamTotals", "play_streams"]

Ints = npt.NDArray[np.int64]

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


def play_streams(
    rules: Rules,
    agents: Sequence[BatchedAgent],
    seeds: npt.ArrayLike,
    deals: int,
    rotations: npt.ArrayLike,
    *,
    aivat: bool = False,
    samples: int = 32,
    progress: bool = False,
) -> StreamTotals:
    """Play ``deals`` deals on every stream (one table each) and total the chips.

    Args:
        rules: The game.
        agents: One batched agent per role, each serving ``len(seeds)`` tables (table ``t``
            is stream ``t``); none may need generators (agents without a batched form).
        seeds: ``(streams,)`` the seed of each stream's cards and decisions.
        deals: Deals each stream plays.
        rotations: ``(streams,)`` each stream's seating.
        aivat: Also total the AIVAT-corrected chips.
        samples: Boards sampled by the AIVAT equity on the flop and pre-flop.
        progress: Show a progress bar of hands on stderr.
    """
    seed_of = np.asarray(seeds, dtype=np.uint64).reshape(-1)
    rotation = np.asarray(rotations, dtype=np.int64).reshape(-1)
    streams, n = len(seed_of), rules.num_seats
    if rotation.shape != (streams,):
        raise ValueError(f"{streams} seeds but {rotation.size} rotations")
    batch = HandBatch(rules, streams)
    driver = Driver(batch, agents, aivat=aivat)
    everyone = np.arange(streams)
    driver.open(everyone, rotation)
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

    with bar:
        deal(everyone)
        while driver.decide():
            ended = np.flatnonzero(batch.finished)
            book(ended)
            deal(ended)
        correct()
    return StreamTotals(chips, corrected, hands)
