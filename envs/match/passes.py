"""The batched runners' one loop: passes played side by side on a ``HandBatch``.

A **pass** is one table's life between two resets of its agents: fresh agents, seated by a
rotation, play a run of deals in order and keep their memory from hand to hand. A match plays
one pass per (session, rotation) (``envs.match.batched``); a tuning study plays one pass per
(candidate, block, seating) (``envs.match.seeded``). Both run ``run_passes``: a schedule says
what each pass plays (``PassSchedule``), books say where finished hands go (``Ledger``), and
the loop deals, decides and books until the books are done.

Passes are handed to tables in order: pass ``t + q * T`` is the ``q``-th pass of table ``t``
(of ``T``). So with at most ``T`` passes, pass ``t`` plays at table ``t``, which is what lets a
batched agent hold per-table parameters for its pass. Tables never deal past the books'
current window of deals; when no table can move, the window must be complete: the books close
it and the tables go on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from envs.batched.engine import HandBatch
from envs.match.driver import Driver
from envs.match.hands import FinishedHands
from envs.protocols import BatchedAgent

__all__ = ["Ledger", "PassSchedule", "run_passes"]

Ints = npt.NDArray[np.int64]
Seeds = npt.NDArray[np.uint64]
Rows = npt.NDArray[np.intp]
Progress = Callable[[int], None]


class PassSchedule(Protocol):
    """What every pass plays, computed from the pass indices (arrays of them)."""

    def __len__(self) -> int:
        """The number of passes."""
        ...

    def bounds(self, index: Ints) -> tuple[Ints, Ints]:
        """``(first, last)``: the deals of each pass, in play order (``last`` excluded)."""
        ...

    def rotation(self, index: Ints) -> Ints:
        """Each pass's seating: agent ``j`` sits in seat ``(j + rotation) % n``."""
        ...

    def card_seeds(self, index: Ints) -> Seeds:
        """The seed of each pass's cards (``envs.deals``)."""
        ...

    def decision_seeds(self, index: Ints) -> Seeds:
        """The seed of each pass's decision uniforms (``envs.crn``)."""
        ...

    def hand_ids(self, index: Ints, deals: Ints) -> Ints:
        """The hand number of each pass's deal ``deals``."""
        ...

    def generator(self, index: int, role: int) -> np.random.Generator:
        """The generator of agent ``role``'s scalar copy in pass ``index`` (adapted agents)."""
        ...


class Ledger(Protocol):
    """The books the finished hands go to."""

    aivat: bool
    """Whether the hands must carry what AIVAT needs."""

    @property
    def window_end(self) -> int:
        """Deals from this one on wait for the current window to close."""
        ...

    @property
    def window_complete(self) -> bool:
        """Whether every hand of the current window has been booked."""
        ...

    @property
    def done(self) -> bool:
        """Whether every hand has been booked and every window closed."""
        ...

    def add(self, hands: FinishedHands, passes: Ints) -> None:
        """Book finished hands, each played in pass ``passes[i]``."""

    def close_window(self) -> None:
        """Fold the complete window into the figures and open the next."""


class TableWork:
    """Which pass and deal each table is at (see the module docstring)."""

    def __init__(self, schedule: PassSchedule, num_tables: int) -> None:
        self.schedule = schedule
        self.num_tables = num_tables
        self.taken = np.zeros(num_tables, dtype=np.int64)
        """Passes each table has opened."""
        self.current = np.full(num_tables, -1, dtype=np.int64)
        """The pass each table plays (-1 before its first)."""
        self.next_deal = np.zeros(num_tables, dtype=np.int64)
        self.last = np.zeros(num_tables, dtype=np.int64)
        self.deal = np.zeros(num_tables, dtype=np.int64)
        """The deal each table's hand in progress belongs to."""
        self.rotation = np.zeros(num_tables, dtype=np.int64)

    def advance(self, rows: Rows, window_end: int) -> tuple[Rows, Rows]:
        """Move each idle table of ``rows`` to its next deal before ``window_end``.

        Returns:
            The tables dealt a new hand (their deal in ``deal``), and among them those that
            opened a new pass (their agents must start fresh).
        """
        schedule = self.schedule
        done = self.next_deal[rows] >= self.last[rows]
        candidates = rows[done]
        upcoming = candidates + self.taken[candidates] * self.num_tables
        exists = upcoming < len(schedule)
        candidates, upcoming = candidates[exists], upcoming[exists]
        first, last = schedule.bounds(upcoming)
        ready = first < window_end
        opened, upcoming = candidates[ready], upcoming[ready]
        self.taken[opened] += 1
        self.current[opened] = upcoming
        self.next_deal[opened] = first[ready]
        self.last[opened] = last[ready]
        self.rotation[opened] = schedule.rotation(upcoming)
        deal = self.next_deal[rows]
        dealt = rows[(deal < self.last[rows]) & (deal < window_end) & (self.current[rows] >= 0)]
        self.deal[dealt] = self.next_deal[dealt]
        self.next_deal[dealt] += 1
        return dealt, opened


def run_passes(
    batch: HandBatch,
    agents: Sequence[BatchedAgent],
    schedule: PassSchedule,
    ledger: Ledger,
    *,
    progress: Progress | None = None,
) -> None:
    """Play every pass of ``schedule`` on ``batch`` and book its hands in ``ledger``.

    Args:
        batch: The tables, all idle.
        agents: Agent ``j``'s batched form, serving every table.
        schedule: The passes.
        ledger: Where finished hands go.
        progress: Called with the number of hands just finished.

    Raises:
        RuntimeError: if no table can move while the current window is incomplete (a
            schedule and books that disagree).
    """
    work = TableWork(schedule, batch.num_tables)
    driver = Driver(batch, agents, aivat=ledger.aivat)

    def generator(table: int, role: int) -> np.random.Generator:
        return schedule.generator(int(work.current[table]), role)

    def book(rows: Rows) -> None:
        """Book the hands that ended at ``rows`` and tell the agents."""
        if not rows.size:
            return
        ledger.add(driver.ended(rows), work.current[rows])
        if progress is not None:
            progress(len(rows))

    def deal(rows: Rows) -> None:
        """Deal the next hand at each idle table of ``rows`` that has one in the window (and
        again wherever the hand ends at once, e.g. all-in blinds)."""
        while rows.size:
            dealt, opened = work.advance(rows, ledger.window_end)
            if opened.size:
                driver.open(opened, work.rotation[opened], generator)
            if not dealt.size:
                return
            index = work.current[dealt]
            deals = work.deal[dealt]
            driver.deal_hands(
                dealt,
                schedule.card_seeds(index),
                deals,
                schedule.hand_ids(index, deals),
                schedule.decision_seeds(index),
            )
            rows = np.flatnonzero(batch.finished)
            book(rows)

    deal(np.arange(batch.num_tables))
    while not ledger.done:
        if not driver.decide():
            if not ledger.window_complete:
                raise RuntimeError("the batched runner stalled before the window was complete")
            ledger.close_window()
            if not ledger.done:
                deal(np.flatnonzero(batch.over))
            continue
        ended = np.flatnonzero(batch.finished)
        book(ended)
        deal(ended)
