"""The batched engine of the match runner: every pass of the match side by side on a HandBatch.

A pass (one session in one rotation, ``MatchPlan``) plays its deals in order with fresh agents,
so passes are independent and each gets a table of its own; the agents are batched agents
(``envs.protocols.BatchedAgent``) deciding for all tables at once. When every agent is
stateless and states its policy, a pass's deals may be split over several tables too. Tables
never run past the accounts' current window of deals; when the window is complete it is
closed and the tables go on. Actions are drawn from the same common random numbers as in the
scalar engine, so both engines play the same hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from envs.aivat import PlayedHands
from envs.batched.adapter import ScalarTables
from envs.batched.engine import HandBatch
from envs.batched.views import decisions_at, hand_ends_at
from envs.crn import check_probabilities, decision_uniforms, sample_actions
from envs.deals import deal_decks
from envs.game import Hand
from envs.match.accounts import Accounts
from envs.match.hands import FinishedHands
from envs.match.plan import MatchPlan
from envs.protocols import BatchedAgent
from envs.rules import Action, Rules

__all__ = ["Pass", "play_batched", "replay"]

Ints = npt.NDArray[np.int64]
OnHand = Callable[[Hand, tuple[str, ...]], None]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Pass:
    """Deals ``first .. last - 1`` of one session in one rotation, with fresh agents."""

    session: int
    rotation: int
    first: int
    last: int


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
    """The work of every table: its queue of passes and the deal it plays."""

    def __init__(self, plan: MatchPlan, passes: Sequence[Pass], num_tables: int) -> None:
        self.plan = plan
        self.queues = [list(passes[t::num_tables]) for t in range(num_tables)]
        for queue in self.queues:
            queue.reverse()  # pop() takes them in order
        self.current: list[Pass | None] = [None] * num_tables
        self.next_deal = np.zeros(num_tables, dtype=np.int64)
        self.deal = np.zeros(num_tables, dtype=np.int64)
        self.rotation = np.zeros(num_tables, dtype=np.int64)

    def advance(self, table: int, window_end: int) -> tuple[int, Pass | None] | None:
        """The next deal of ``table`` inside the window, and the pass it opens (if new)."""
        work = self.current[table]
        opened = None
        if work is None or self.next_deal[table] >= work.last:
            if not self.queues[table]:
                self.current[table] = None
                return None
            work = self.queues[table][-1]
            if work.first >= window_end:
                return None
            self.queues[table].pop()
            self.current[table] = opened = work
            self.next_deal[table] = work.first
            self.rotation[table] = work.rotation
        deal = int(self.next_deal[table])
        if deal >= window_end:
            return None
        self.next_deal[table] += 1
        self.deal[table] = deal
        return deal, opened


def plan_passes(plan: MatchPlan, split: bool, num_tables: int) -> list[Pass]:
    """The passes of the match, in deal order; with ``split``, cut into about ``num_tables``
    pieces per rotation (allowed only when no agent remembers anything between hands)."""
    passes: list[Pass] = []
    for session in range(plan.sessions):
        first = session * plan.deals_per_session
        pieces = 1
        if split:
            per_rotation = max(1, num_tables // (plan.rotations * plan.sessions))
            pieces = min(per_rotation, plan.deals_per_session)
        bounds = np.linspace(first, first + plan.deals_per_session, pieces + 1).astype(int)
        for lo, hi in itertools.pairwise(bounds.tolist()):
            passes.extend(Pass(session, r, int(lo), int(hi)) for r in range(plan.rotations))
    passes.sort(key=lambda p: (p.first, p.rotation))
    return passes


def play_batched(
    plan: MatchPlan,
    rules: Rules,
    batch: HandBatch,
    agents: Sequence[BatchedAgent],
    passes: Sequence[Pass],
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
    n, tables = plan.num_agents, batch.num_tables
    work = _Tables(plan, passes, tables)
    cards = 2 * n + 5
    width = batch.log_action.shape[1]
    probabilities = np.zeros((tables, width, 3)) if accounts.aivat else None
    known = np.zeros((tables, width), dtype=bool) if accounts.aivat else None
    seat_labels = [tuple(labels[j] for j in plan.seating(r)) for r in range(plan.rotations)]
    logged: list[tuple[int, int, _Record]] = []  # hands for on_hand, emitted in deal order

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
            dealt, deals = [], []
            for table in rows.tolist():
                step = work.advance(table, accounts.window_end)
                if step is None:
                    continue
                deal_id, opened = step
                if opened is not None:
                    _open_pass(plan, agents, table, opened)
                dealt.append(table)
                deals.append(deal_id)
            if not dealt:
                return
            index = np.array(dealt, dtype=np.intp)
            deal_ids = np.array(deals, dtype=np.int64)
            batch.start(
                index,
                deal_decks(plan.seed, deal_ids, cards=cards),
                deal_ids % n,
                work.rotation[index] * plan.deals + deal_ids,
            )
            rows = np.flatnonzero(batch.finished)
            book(rows)

    def book(rows: npt.NDArray[np.intp]) -> None:
        """Book the hands that ended at ``rows`` and tell the agents."""
        if not rows.size:
            return
        rotations = work.rotation[rows]
        for j, agent in enumerate(agents):
            agent.observe_ends(hand_ends_at(batch, rows, (j + rotations) % n))
        played = None
        if probabilities is not None and known is not None:
            played = _played(batch, rows, work.deal[rows], probabilities, known)
        accounts.add(_finished(batch, rows, work.deal[rows], rotations, played))
        if on_hand is not None:
            for table in rows.tolist():
                logged.append(
                    (int(work.deal[table]), int(work.rotation[table]), _record(batch, table))
                )
        if progress is not None:
            progress(len(rows))

    deal(np.arange(tables))
    while not accounts.done:
        actor = batch.actor
        acting = np.flatnonzero(actor >= 0)
        if not acting.size:
            if not accounts.window_complete:
                raise RuntimeError("the batched runner stalled before the window was complete")
            emit()
            accounts.close_window()
            if not accounts.done:
                deal(np.flatnonzero(batch.over))
            continue
        seats = actor[acting].astype(np.int64)
        roles = (seats - work.rotation[acting]) % n
        index = batch.decision_index()[acting]
        actions = np.zeros(tables, dtype=np.int8)
        for j, agent in enumerate(agents):
            mine = roles == j
            if not mine.any():
                continue
            rows = acting[mine]
            decision = decisions_at(batch, rows)
            p = agent.probabilities(decision)
            check_probabilities(p, decision.legal, agent.name)
            u = decision_uniforms(plan.seed, work.deal[rows], seats[mine], index[mine])
            actions[rows] = sample_actions(p, u)
            if probabilities is not None and known is not None:
                position = batch.log_len[rows].astype(np.intp)
                probabilities[rows, position] = p
                known[rows, position] = agent.known_policy
        batch.step(actions)
        ended = np.flatnonzero(batch.finished)
        book(ended)
        deal(ended)


def _open_pass(plan: MatchPlan, agents: Sequence[BatchedAgent], table: int, work: Pass) -> None:
    """Fresh agents at ``table`` for a new pass (adapters reset their scalar agents)."""
    streams = plan.agent_streams(work.session, work.rotation)
    rows = np.array([table], dtype=np.intp)
    for j, agent in enumerate(agents):
        seat = np.array([plan.seat_of(j, work.rotation)], dtype=np.int8)
        agent.start_tables(rows, seat)
        if isinstance(agent, ScalarTables):
            agent.reset_table(table, np.random.default_rng(streams[j]))


def _finished(
    batch: HandBatch,
    rows: npt.NDArray[np.intp],
    deals: Ints,
    rotations: Ints,
    played: PlayedHands | None,
) -> FinishedHands:
    lengths = batch.log_len[rows].astype(np.int64)
    width = max(1, int(lengths.max()))
    return FinishedHands(
        deals=deals,
        rotations=rotations,
        payoffs=batch.payoffs[rows].astype(np.int64),
        log_len=lengths,
        log_street=batch.log_street[rows, :width].astype(np.int64),
        log_seat=batch.log_seat[rows, :width].astype(np.int64),
        log_action=batch.log_action[rows, :width].astype(np.int64),
        log_amount=batch.log_amount[rows, :width].astype(np.int64),
        showed=batch.showed[rows].copy(),
        flop_dealt=batch.board_len[rows] >= 3,
        played=played,
    )


def _played(
    batch: HandBatch,
    rows: npt.NDArray[np.intp],
    deals: Ints,
    probabilities: npt.NDArray[np.float64],
    known: npt.NDArray[np.bool_],
) -> PlayedHands:
    n = batch.num_seats
    lengths = batch.log_len[rows].astype(np.int64)
    width = max(1, int(lengths.max()))
    deck = batch.deck[rows]
    stacks = np.array(batch.rules.starting_stacks, dtype=np.int64)
    return PlayedHands(
        holes=deck[:, : 2 * n].reshape(len(rows), n, 2),
        board=deck[:, 2 * n : 2 * n + 5],
        blinds=batch.blinds[rows].astype(np.int64),
        stacks=np.tile(stacks, (len(rows), 1)),
        log_len=lengths,
        log_street=batch.log_street[rows, :width].astype(np.int64),
        log_seat=batch.log_seat[rows, :width].astype(np.int64),
        log_action=batch.log_action[rows, :width].astype(np.int64),
        log_amount=batch.log_amount[rows, :width].astype(np.int64),
        probabilities=probabilities[rows, :width].copy(),
        known=known[rows, :width].copy(),
        deals=deals,
    )
