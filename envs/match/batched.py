"""The batched engine of the match runner: every pass of the match side by side on a HandBatch.

A pass (one session in one rotation, ``MatchPlan``) plays its deals in order with fresh agents,
so passes are independent and each gets a table of its own; the agents are batched agents
(``envs.protocols.BatchedAgent``) deciding for all tables at once. When every agent is
memoryless and states its policy, a pass's deals may be split over several tables too. Tables
never run past the accounts' current window of deals; when the window is complete it is
closed and the tables go on. Actions are drawn from the same common random numbers as in the
scalar engine, so both engines play the same hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from envs.batched.engine import HandBatch
from envs.game import Hand
from envs.match.accounts import Accounts
from envs.match.driver import Driver
from envs.match.plan import MatchPlan
from envs.protocols import BatchedAgent
from envs.rules import Action, Rules

__all__ = ["Passes", "plan_passes", "play_batched", "replay"]

Ints = npt.NDArray[np.int64]
OnHand = Callable[[Hand, tuple[str, ...]], None]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Passes:
    """The passes of a match, in deal order, computed from their index (no arrays held).

    A pass plays deals ``first .. last - 1`` of one session in one rotation with fresh agents.
    Unsplit, pass ``i`` is session ``i // R`` in rotation ``i % R`` (``R`` rotations). Split
    (only when no agent remembers anything between hands), each window of ``window`` deals is
    cut into ``pieces`` runs of deals, and pass ``i`` is run ``(i // R) % pieces`` of window
    ``i // (R * pieces)`` in rotation ``i % R``.
    """

    plan: MatchPlan
    pieces: int = 0
    """Runs per window when split; 0 when not split."""
    window: int = 0

    def __len__(self) -> int:
        plan = self.plan
        if not self.pieces:
            return plan.sessions * plan.rotations
        windows = -(-plan.deals // self.window)
        return windows * self.pieces * plan.rotations

    def rotation(self, index: Ints) -> Ints:
        """The rotation of each pass."""
        return index % self.plan.rotations

    def bounds(self, index: Ints) -> tuple[Ints, Ints]:
        """``(first, last)``: the deals of each pass (``last`` excluded)."""
        plan = self.plan
        group = index // plan.rotations
        if not self.pieces:
            first = group * plan.deals_per_session
            return first, first + plan.deals_per_session
        window, piece = group // self.pieces, group % self.pieces
        start = window * self.window
        size = np.minimum(self.window, plan.deals - start)
        return start + piece * size // self.pieces, start + (piece + 1) * size // self.pieces

    def session(self, index: Ints) -> Ints:
        """The session of each pass (of its first deal when split)."""
        return self.bounds(index)[0] // self.plan.deals_per_session


def replay(batch: HandBatch, table: int) -> Hand:
    """The table's finished hand as a scalar ``Hand`` (for logs: ACPC, hand histories)."""
    return _replayed(batch.rules, _record(batch, table))


_Record = tuple[npt.NDArray[np.uint8], int, int, list[int]]


def _record(batch: HandBatch, table: int) -> _Record:
    actions = batch.log_action[table, : int(batch.log_len[table])].tolist()
    return batch.deck[table].copy(), int(batch.button[table]), int(batch.hand_id[table]), actions


def _replayed(rules: Rules, record: _Record) -> Hand:
    deck, button, hand_id, actions = record
    hand = Hand(rules, deck, button=button, hand_id=hand_id)
    for action in actions:
        hand.act(Action(action))
    return hand


class _Tables:
    """The work of every table: pass ``t + q * T`` is the ``q``-th pass of table ``t`` (of
    ``T``), taken in order; arrays over tables say which pass and deal each one is at."""

    def __init__(self, passes: Passes, num_tables: int) -> None:
        self.passes = passes
        self.num_tables = num_tables
        self.taken = np.zeros(num_tables, dtype=np.int64)
        self.current = np.full(num_tables, -1, dtype=np.int64)
        self.next_deal = np.zeros(num_tables, dtype=np.int64)
        self.last = np.zeros(num_tables, dtype=np.int64)
        self.deal = np.zeros(num_tables, dtype=np.int64)
        self.rotation = np.zeros(num_tables, dtype=np.int64)
        self.session = np.zeros(num_tables, dtype=np.int64)

    def advance(
        self, rows: npt.NDArray[np.intp], window_end: int
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """Move each idle table of ``rows`` to its next deal inside the window.

        Returns:
            The tables dealt a new hand (their deal in ``deal``), and among them those that
            opened a new pass (their agents must start fresh).
        """
        passes = self.passes
        done = self.next_deal[rows] >= self.last[rows]
        candidates = rows[done]
        upcoming = candidates + self.taken[candidates] * self.num_tables
        exists = upcoming < len(passes)
        candidates, upcoming = candidates[exists], upcoming[exists]
        first, last = passes.bounds(upcoming)
        ready = first < window_end
        opened, upcoming = candidates[ready], upcoming[ready]
        self.taken[opened] += 1
        self.current[opened] = upcoming
        self.next_deal[opened] = first[ready]
        self.last[opened] = last[ready]
        self.rotation[opened] = passes.rotation(upcoming)
        self.session[opened] = passes.session(upcoming)
        deal = self.next_deal[rows]
        dealt = rows[(deal < self.last[rows]) & (deal < window_end) & (self.current[rows] >= 0)]
        self.deal[dealt] = self.next_deal[dealt]
        self.next_deal[dealt] += 1
        return dealt, opened


def plan_passes(plan: MatchPlan, split: bool, num_tables: int, window: int) -> Passes:
    """The passes of the match; with ``split``, each window of deals is cut into about
    ``num_tables / rotations`` runs per rotation, so every table has work in every window."""
    if not split:
        return Passes(plan)
    pieces = max(1, min(num_tables // plan.rotations, window))
    return Passes(plan, pieces, window)


def play_batched(
    plan: MatchPlan,
    rules: Rules,
    batch: HandBatch,
    agents: Sequence[BatchedAgent],
    passes: Passes,
    accounts: Accounts,
    labels: Sequence[str],
    *,
    on_hand: OnHand | None = None,
    progress: Progress | None = None,
) -> None:
    """Play every hand of ``passes`` on ``batch`` and book it in ``accounts``.

    Args:
        plan: The match structure.
        rules: The game (``batch.rules``).
        batch: The tables, all idle.
        agents: Agent ``j``'s batched form, serving every table.
        passes: The work (``plan_passes``), each pass given to one table.
        accounts: Where finished hands go.
        labels: The agents' names (for ``on_hand``).
        on_hand: Called with every finished hand (rebuilt as a ``Hand``) and the names per
            seat, in the scalar engine's order (deal by deal, rotation by rotation).
        progress: Called with the number of hands just finished.
    """
    work = _Tables(passes, batch.num_tables)
    driver = Driver(batch, agents, aivat=accounts.aivat)
    seat_labels = [tuple(labels[j] for j in plan.seating(r)) for r in range(plan.rotations)]
    logged: list[tuple[int, int, _Record]] = []  # hands for on_hand, emitted in deal order

    def generator(table: int, agent: int) -> np.random.Generator:
        streams = plan.agent_streams(int(work.session[table]), int(work.rotation[table]))
        return np.random.default_rng(streams[agent])

    def emit() -> None:
        if on_hand is None:
            return
        logged.sort(key=lambda item: (item[0], item[1]))
        for _, rotation, record in logged:
            on_hand(_replayed(rules, record), seat_labels[rotation])
        logged.clear()

    def deal(rows: npt.NDArray[np.intp]) -> None:
        """Deal the next hand at each idle table of ``rows`` that has one in the window (and
        again wherever the hand ends at once, e.g. all-in blinds)."""
        while rows.size:
            dealt, opened = work.advance(rows, accounts.window_end)
            if opened.size:
                driver.open(opened, work.rotation[opened], generator)
            if not dealt.size:
                return
            deals = work.deal[dealt]
            hand_ids = work.rotation[dealt] * plan.deals + deals
            driver.deal_hands(dealt, plan.seed, deals, hand_ids, plan.decisions)
            rows = np.flatnonzero(batch.finished)
            book(rows)

    def book(rows: npt.NDArray[np.intp]) -> None:
        """Book the hands that ended at ``rows`` and tell the agents."""
        if not rows.size:
            return
        accounts.add(driver.ended(rows))
        if on_hand is not None:
            for table in rows.tolist():
                logged.append(
                    (int(work.deal[table]), int(work.rotation[table]), _record(batch, table))
                )
        if progress is not None:
            progress(len(rows))

    deal(np.arange(batch.num_tables))
    while not accounts.done:
        if not driver.decide():
            if not accounts.window_complete:
                raise RuntimeError("the batched runner stalled before the window was complete")
            emit()
            accounts.close_window()
            if not accounts.done:
                deal(np.flatnonzero(batch.over))
            continue
        ended = np.flatnonzero(batch.finished)
        book(ended)
        deal(ended)
    emit()
