"""The opponent's decisions of many heads-up hands, rebuilt from our views and the public logs.

``ShadowTables`` is ``agents.lbr.replay.Replay`` for all the tables of a batched agent: it
deals, in a ``HandBatch`` of its own (one table per table of ours), each hand with our cards
and placeholder cards elsewhere, and replays the public log there, so that at each of the
opponent's decisions the engine itself builds the view the opponent had (``decisions_at``),
its cards excepted (placeholders, replaced per holding by the range policy) and the board
given as we know it. It can then make our raise, to show the opponent's view when it
answers, and take it back.

The shadow keeps each table's hand between our decisions, so a decision costs engine steps
only for the log entries that are new since the last one. At a batch of ours every table
moves through its own entries to the opponent's next new decision, so the opponent's
decisions come in as many groups as the most new decisions of the opponent's at a table
(each group costs the opponent's policy a call), not as many as the most new entries. A
table whose hand the shadow does not follow (a new hand, or one its caller restarted) is dealt
again and replayed from the start, without yielding what its caller has seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import seen_cards, unseen_cards
from envs.batched.engine import HandBatch, SavedTables
from envs.batched.views import DecisionBatch, decisions_at
from envs.rules import Action, Rules

__all__ = ["OpponentDecisions", "ShadowTables"]

Intp = npt.NDArray[np.intp]
Bools = npt.NDArray[np.bool_]


class OpponentDecisions(NamedTuple):
    """The opponent's decisions at one step of the replay of several rows."""

    rows: Intp
    """Rows of our batch."""
    views: DecisionBatch
    """What the opponent saw there (``tables``: our batch's tables at ``rows``)."""
    actions: Intp
    """What it did (``Action`` values)."""


class ShadowTables:
    """The hands in progress at N heads-up tables of ours, replayed (see the module).

    Args:
        rules: The tables' rules (heads-up).
        num_tables: N.

    Raises:
        ValueError: if the rules are not heads-up.
    """

    def __init__(self, rules: Rules, num_tables: int) -> None:
        if rules.num_seats != 2:
            raise ValueError(f"a replay is heads-up only; the tables have {rules.num_seats} seats")
        self.rules = rules
        self.shadow = HandBatch(rules, num_tables)
        self._replayed = np.zeros(num_tables, dtype=np.intp)
        self._hand_id = np.zeros(num_tables, dtype=np.int64)
        self._hole = np.zeros((num_tables, 2), dtype=np.int16)
        self._following = np.zeros(num_tables, dtype=bool)
        self._batch: DecisionBatch | None = None
        self._saved: SavedTables | None = None

    @property
    def nbytes(self) -> int:
        """Bytes of the shadow engine and the per-table bookkeeping."""
        arrays = (self._replayed, self._hand_id, self._hole, self._following)
        return self.shadow.nbytes + sum(a.nbytes for a in arrays)

    def forget(self, tables: Intp) -> None:
        """Stop following the hands at ``tables`` (a new session there)."""
        self._following[tables] = False

    def opponent_decisions(self, batch: DecisionBatch, seen: Intp) -> Iterator[OpponentDecisions]:
        """Replay each row's log to its end; yield the opponent's decisions at log positions
        ``seen[i]`` and later of row i (read each group before the next): the first new
        decision of every row, then the second, and so on, each row's in log order.

        Raises:
            ValueError: if a log does not replay, or leaves the opponent to act.
        """
        self._batch = batch
        tables = batch.tables.astype(np.intp)
        start = np.asarray(seen, dtype=np.intp)
        length = batch.log_len.astype(np.intp)
        self._deal(batch, tables, start)
        behind = start - self._replayed[tables]  # dealt again: entries seen but not replayed
        for d in range(int(behind.max(initial=0))):
            self._step(tables, self._replayed[tables] + d, d < behind)
        me = batch.seat.astype(np.intp)
        position = start.copy()
        while True:
            # Every row through our own entries to its next decision of the opponent's (or
            # its log's end): the opponent's k-th new decisions of all rows then come as one
            # group, whatever entries of ours lie between.
            while True:
                left = position < length
                actor = self.shadow.actor[tables]
                ours = left & (actor == me)
                stuck = left & (actor != me) & (actor != 1 - me)
                if stuck.any():  # nobody to act: the log does not replay (``_step`` says why)
                    self._step(tables, position, stuck)
                if not ours.any():
                    break
                self._step(tables, position, ours)
                position += ours
            theirs = np.flatnonzero(left)
            if theirs.size == 0:
                break
            actions = batch.log_action[theirs, position[theirs]].astype(np.intp)
            yield OpponentDecisions(theirs, self.views(theirs), actions)
            self._step(tables, position, left)
            position += left
        self._replayed[tables] = length
        ours = self.shadow.actor[tables] != me
        if ours.any():
            row = int(np.flatnonzero(ours)[0])
            raise ValueError(
                f"the replayed log of table {int(tables[row])} leaves seat "
                f"{int(self.shadow.actor[tables[row]])} to act, not ours"
            )

    def after_our_raise(self, rows: Intp) -> tuple[Intp, DecisionBatch | None]:
        """Make our raise at ``rows`` of the last batch (after ``opponent_decisions``); the
        rows where the opponent then acts and its views there (None if at none: it is
        all-in). ``take_back_raise`` undoes it, once the views are read."""
        batch = self._batch
        assert batch is not None, "after_our_raise follows opponent_decisions"
        tables = batch.tables.astype(np.intp)[rows]
        self._saved = self.shadow.save(tables)
        self._move(tables, np.full(len(tables), int(Action.RAISE)))
        answering = rows[self.shadow.actor[tables] == 1 - batch.seat[rows].astype(np.intp)]
        if answering.size == 0:
            return answering, None
        return answering, self.views(answering)

    def take_back_raise(self) -> None:
        """Undo ``after_our_raise`` (nothing if it was not made)."""
        if self._saved is not None:
            self.shadow.restore(self._saved)
            self._saved = None

    def _deal(self, batch: DecisionBatch, tables: Intp, seen: Intp) -> None:
        """Deal again the rows' hands the shadow does not follow to the point ``seen``."""
        hole = batch.hole.astype(np.int16)
        again = np.flatnonzero(
            ~self._following[tables]
            | (self._hand_id[tables] != batch.hand_id)
            | (self._hole[tables] != hole).any(axis=1)
            | (self._replayed[tables] != seen)
        )
        if again.size == 0:
            return
        at = tables[again]
        self.shadow.abandon(at)
        me = batch.seat[again].astype(np.intp)
        mine = hole[again].astype(np.intp)
        board_len = batch.board_len[again].astype(np.intp)
        board = batch.board[again].astype(np.intp)
        known = seen_cards(np.concatenate([mine, board], axis=1), 2 + board_len)
        filler = unseen_cards(known, 7)
        rows = np.arange(len(again))
        deck = np.empty((len(again), 9), dtype=np.intp)
        deck[rows, 2 * me] = mine[:, 0]
        deck[rows, 2 * me + 1] = mine[:, 1]
        deck[rows, 2 * (1 - me)] = filler[:, 0]
        deck[rows, 2 * (1 - me) + 1] = filler[:, 1]
        deck[:, 4:] = np.where(np.arange(5) < board_len[:, np.newaxis], board, filler[:, 2:])
        stacks = (batch.stacks[again] + batch.contributions[again]).astype(np.int64)
        self.shadow.start(at, deck, batch.button[again], batch.hand_id[again], stacks)
        self._replayed[at] = 0
        self._hand_id[at] = batch.hand_id[again]
        self._hole[at] = hole[again]
        self._following[at] = True

    def _step(self, tables: Intp, position: Intp, moving: Bools) -> None:
        """Make the ``moving`` rows' log entries at ``position``, after checking that the
        replay has the logged seat to act there."""
        batch = self._batch
        assert batch is not None
        rows = np.flatnonzero(moving)
        at = position[rows]
        logged = batch.log_seat[rows, at]
        wrong = rows[self.shadow.actor[tables[rows]] != logged]
        if wrong.size:
            row, j = int(wrong[0]), int(position[wrong[0]])
            raise ValueError(
                f"the public log of table {int(tables[row])} does not replay: seat "
                f"{int(batch.log_seat[row, j])} acted at position {j}, the replay has seat "
                f"{int(self.shadow.actor[tables[row]])} to act"
            )
        self._move(tables[rows], batch.log_action[rows, at])

    def _move(self, tables: Intp, actions: npt.ArrayLike) -> None:
        """Step the shadow's ``tables`` by ``actions``, the other tables staying put."""
        column = np.zeros(self.shadow.num_tables, dtype=np.intp)
        where = np.zeros(self.shadow.num_tables, dtype=bool)
        column[tables] = actions
        where[tables] = True
        self.shadow.step(column, where=where)

    def views(self, rows: Intp) -> DecisionBatch:
        """The opponent's views at ``rows`` of the last batch now (where the replay stands:
        at a yielded group, at our raise), with the board we know."""
        batch = self._batch
        assert batch is not None
        return decisions_at(
            self.shadow, batch.tables.astype(np.intp)[rows], board=batch.board[rows]
        )
