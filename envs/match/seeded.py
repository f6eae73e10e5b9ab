"""Many independent seeded passes side by side: what a tuning study evaluates at once.

A seeded pass (a pass, ``envs.match.passes``, with a seed of its own) is one table's life:
fresh agents play deals ``0 .. deals - 1`` of the pass's seed, in order, seated by its rotation
(agent ``j`` in seat ``(j + rotation) % n``). Passes with the same seed see the same cards and
the same decision uniforms, so a study plays every candidate on the same passes (common random
numbers), and puts its blocks and duplicate rotations side by side on thousands of tables.
``play_seeded_passes`` returns each pass's totals per agent, raw and AIVAT-corrected.

An agent without a batched form plays as one scalar agent per table
(``envs.batched.adapter.ScalarTables``). Each is reset at the start of its pass with a
generator from ``pass_generator(seed, role)``: ``SeedSequence([seed, AGENT_STREAM, role])`` of
the pass's seed and the agent's role (its index in ``agents``), so passes with the same seed
give the same role the same generator whatever else plays beside them, and runs are
reproducible.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from envs.batched.engine import HandBatch
from envs.match.corrections import PendingCorrections, Where
from envs.match.hands import FinishedHands
from envs.match.passes import run_passes
from envs.match.plan import AGENT_STREAM
from envs.protocols import BatchedAgent

__all__ = ["PassTotals", "SeededPasses", "pass_generator", "play_seeded_passes"]

Ints = npt.NDArray[np.int64]
Seeds = npt.NDArray[np.uint64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class PassTotals:
    """What each pass's agents won over its deals."""

    chips: Ints
    """``(passes, agents)`` net chips of agent ``j`` (whatever seat it held)."""
    corrected: Floats | None
    """``(passes, agents)`` the same with the AIVAT corrections, when requested."""
    hands: Ints
    """``(passes,)`` hands played."""


def pass_generator(seed: int, role: int) -> np.random.Generator:
    """The generator of the scalar agent of ``role`` in a pass of ``seed`` (module docstring)."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), AGENT_STREAM, int(role)]))


@dataclass(frozen=True)
class SeededPasses:
    """Pass ``i`` plays deals ``0 .. deals - 1`` of ``seeds[i]`` in ``rotations[i]``; hand
    ``d`` is numbered ``d`` (a ``envs.match.passes.PassSchedule``)."""

    seeds: Seeds
    rotations: Ints
    deals: int

    def __len__(self) -> int:
        return len(self.seeds)

    def bounds(self, index: Ints) -> tuple[Ints, Ints]:
        return np.zeros(len(index), dtype=np.int64), np.full(len(index), self.deals)

    def rotation(self, index: Ints) -> Ints:
        return self.rotations[index]

    def card_seeds(self, index: Ints) -> Seeds:
        return self.seeds[index]

    def decision_seeds(self, index: Ints) -> Seeds:
        return self.seeds[index]

    def hand_ids(self, index: Ints, deals: Ints) -> Ints:
        return deals

    def generator(self, index: int, role: int) -> np.random.Generator:
        return pass_generator(int(self.seeds[index]), role)


class _Totals:
    """The books of ``play_seeded_passes``: chips per pass and agent (one window: every deal)."""

    def __init__(self, batch: HandBatch, passes: SeededPasses, aivat: bool, samples: int):
        n, count = batch.num_seats, len(passes)
        self.n, self.rotations = n, passes.rotations
        self.aivat = aivat
        self.window_end = passes.deals
        self.expected = count * passes.deals
        self.chips = np.zeros((count, n), dtype=np.int64)
        self.corrected = np.zeros((count, n)) if aivat else None
        self.hands = np.zeros(count, dtype=np.int64)
        self.booked = 0
        self.closed = False
        self.pending = PendingCorrections(batch.rules, self._corrected, seed=0, samples=samples)

    def _agents(self, passes: Ints) -> Ints:
        """``(k, n)`` the agent in each seat of each pass."""
        return (np.arange(self.n)[np.newaxis, :] - self.rotations[passes, np.newaxis]) % self.n

    def _corrected(self, where: Where, values: Floats) -> None:
        assert self.corrected is not None  # only hands queued for AIVAT arrive here
        passes, agents = where
        np.add.at(self.corrected, (passes[:, np.newaxis], agents), values)

    @property
    def window_complete(self) -> bool:
        return self.booked == self.expected

    @property
    def done(self) -> bool:
        return self.closed

    def add(self, hands: FinishedHands, passes: Ints) -> None:
        agents = self._agents(passes)
        np.add.at(self.chips, (passes[:, np.newaxis], agents), hands.payoffs)
        if self.corrected is not None:
            if hands.played is None:
                raise RuntimeError("AIVAT was requested but the hands carry no record for it")
            self.pending.add((passes, agents), hands.payoffs, hands.played)
        self.hands[passes] += 1
        self.booked += len(passes)

    def close_window(self) -> None:
        self.pending.flush()
        self.closed = True


def play_seeded_passes(
    batch: HandBatch,
    agents: Sequence[BatchedAgent],
    seeds: npt.ArrayLike,
    deals: int,
    rotations: npt.ArrayLike,
    *,
    aivat: bool = False,
    samples: int = 32,
    progress: bool = False,
    on_hands: Callable[[int], None] | None = None,
) -> PassTotals:
    """Play ``deals`` deals in every pass (pass ``t`` at table ``t``) and total the chips.

    Args:
        batch: One idle table per pass.
        agents: Per role, a batched agent serving every table (e.g. per-table parameters:
            table ``t`` plays pass ``t``); ``envs.batched.adapter`` builds one for any agent.
        seeds: ``(passes,)`` the seed of each pass's cards and decisions.
        deals: Deals each pass plays.
        rotations: ``(passes,)`` each pass's seating.
        aivat: Also total the AIVAT-corrected chips.
        samples: Boards sampled by the AIVAT equity on the flop and pre-flop.
        progress: Show a progress bar of hands on stderr.
        on_hands: Called with the number of hands just finished (e.g. a worker's progress).

    Raises:
        ValueError: if the seeds, rotations, tables and agents do not match in number.
    """
    seed_of = np.asarray(seeds, dtype=np.uint64).reshape(-1)
    rotation = np.asarray(rotations, dtype=np.int64).reshape(-1)
    count, n = len(seed_of), batch.num_seats
    if rotation.shape != (count,):
        raise ValueError(f"{count} seeds but {rotation.size} rotations")
    if batch.num_tables != count:
        raise ValueError(f"{count} passes need {count} tables, the batch has {batch.num_tables}")
    if len(agents) != n:
        raise ValueError(f"{len(agents)} agents for {n} seats")
    passes = SeededPasses(seed_of, rotation, int(deals))
    totals = _Totals(batch, passes, aivat, samples)
    bar = tqdm(total=count * deals, unit="hand", file=sys.stderr, disable=not progress)

    def advanced(hands: int) -> None:
        bar.update(hands)
        if on_hands is not None:
            on_hands(hands)

    with bar:
        run_passes(batch, agents, passes, totals, progress=advanced)
    return PassTotals(totals.chips, totals.corrected, totals.hands)
