"""The opponent's decisions of many heads-up hands, rebuilt from our views and the public logs.

``ShadowTables`` is ``agents.lbr.replay.Replay`` for a whole ``DecisionBatch``: it deals, in a
``HandBatch`` of its own, every row's hand with our cards, the board we know and placeholder
cards elsewhere, and replays the public log there, so that at each of the opponent's past
decisions the engine itself builds the view the opponent had (``decisions_at``), its cards
excepted: those are placeholders, replaced per holding by the range policy. After the log it
can make our raise, to show the opponent's view when it answers.

All tables move together, one log position per engine step, so a batch of k rows costs about
as many engine steps as its longest log.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import seen_cards, unseen_cards
from envs.batched.engine import HandBatch
from envs.batched.views import DecisionBatch, decisions_at
from envs.rules import Action

__all__ = ["OpponentDecisions", "ShadowTables"]

Intp = npt.NDArray[np.intp]


class OpponentDecisions(NamedTuple):
    """The opponent's decisions at one log position of several rows."""

    rows: Intp
    """Rows of our batch."""
    views: DecisionBatch
    """What the opponent saw there (``tables``: our batch's tables at ``rows``)."""
    actions: Intp
    """What it did (``Action`` values)."""


class ShadowTables:
    """The hands of a heads-up ``DecisionBatch`` of ours, replayed (see the module).

    Args:
        batch: Our decisions; every table heads-up.

    Raises:
        ValueError: if the tables are not heads-up or a log does not replay.
    """

    def __init__(self, batch: DecisionBatch) -> None:
        rules = batch.rules
        if rules.num_seats != 2:
            raise ValueError(f"a replay is heads-up only; the tables have {rules.num_seats} seats")
        k = len(batch.tables)
        me = batch.seat.astype(np.intp)
        other = 1 - me
        hole = batch.hole.astype(np.intp)
        board_len = batch.board_len.astype(np.intp)
        rows = np.arange(k)
        shown = np.arange(5) < board_len[:, np.newaxis]
        board = batch.board.astype(np.intp)
        known = seen_cards(np.concatenate([hole, board], axis=1), 2 + board_len)
        filler = unseen_cards(known, 7)
        deck = np.empty((k, 9), dtype=np.intp)
        deck[rows, 2 * me] = hole[:, 0]
        deck[rows, 2 * me + 1] = hole[:, 1]
        deck[rows, 2 * other] = filler[:, 0]
        deck[rows, 2 * other + 1] = filler[:, 1]
        placeholders = filler[:, 2:]
        deck[:, 4:] = np.where(shown, board, placeholders)
        self.batch = batch
        self.me = me
        self.shadow = HandBatch(rules, k)
        stacks = (batch.stacks + batch.contributions).astype(np.int64)
        self.shadow.start(rows, deck, batch.button, batch.hand_id, stacks)

    def opponent_decisions(self, seen: npt.ArrayLike) -> Iterator[OpponentDecisions]:
        """Replay every log to its end; yield, position by position, the opponent's decisions
        at log positions ``seen[i]`` and later of row i (read each before the next)."""
        batch, shadow = self.batch, self.shadow
        start = np.asarray(seen, dtype=np.intp)
        length = batch.log_len.astype(np.intp)
        seats = batch.log_seat
        actions = batch.log_action.astype(np.intp)
        k = len(length)
        for j in range(int(length.max(initial=0))):
            moving = length > j
            actor = shadow.actor
            wrong = np.flatnonzero(moving & (actor != seats[:, j]))
            if wrong.size:
                row = int(wrong[0])
                raise ValueError(
                    f"the public log of table {int(batch.tables[row])} does not replay: seat "
                    f"{int(seats[row, j])} acted at position {j}, the replay has seat "
                    f"{int(actor[row])} to act"
                )
            theirs = np.flatnonzero(moving & (actor != self.me) & (j >= start))
            column = np.zeros(k, dtype=np.intp)
            column[moving] = actions[moving, j]
            if theirs.size:
                yield OpponentDecisions(theirs, self._views(theirs), column[theirs])
            shadow.step(column, where=moving)
        ours = shadow.actor != self.me
        if ours.any():
            row = int(np.flatnonzero(ours)[0])
            raise ValueError(
                f"the replayed log of table {int(batch.tables[row])} leaves seat "
                f"{int(shadow.actor[row])} to act, not ours"
            )

    def after_our_raise(self, rows: Intp) -> tuple[Intp, DecisionBatch | None]:
        """Make our raise at ``rows`` (after ``opponent_decisions``); the rows where the
        opponent then acts and its views there (None if at none: it is all-in)."""
        where = np.zeros(len(self.me), dtype=bool)
        where[rows] = True
        self.shadow.step(np.full(len(self.me), int(Action.RAISE)), where=where)
        answering = np.flatnonzero(where & (self.shadow.actor == 1 - self.me))
        if answering.size == 0:
            return answering, None
        return answering, self._views(answering)

    def _views(self, rows: Intp) -> DecisionBatch:
        """The opponent's views at ``rows`` now, under our batch's table numbers."""
        inner = decisions_at(self.shadow, rows)
        return inner.take(np.arange(len(rows)), tables=self.batch.tables[rows], seat=inner.seat)
