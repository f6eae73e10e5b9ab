"""The read side of ``HandBatch``: its state as read-only arrays, and queries that change nothing.

``BatchReadout`` allocates a batch's state and publishes every array as a read-only view
(updated in place), and answers questions about it: the pending decisions (``legal_mask``,
``legal_actions``, ``to_call``, ``decision_index``), one table as the scalar engine shows it
(``view``, ``events``, ``to_acpc``) and many tables' ACPC lines at once (``to_acpc_lines``).
``envs.batched.engine.HandBatch`` adds the moves (``start``, ``step``) and documents it all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from envs.batched import history
from envs.batched.acpc import acpc_lines
from envs.batched.betting import Decisions, pending_decisions
from envs.batched.errors import TableError
from envs.batched.state import CHIP_LIMIT, BatchState, Layout
from envs.events import Event
from envs.rules import Action, Rules
from envs.validation import whole_number
from envs.view import PlayerView

__all__ = ["BatchReadout"]

_LEGAL = tuple(tuple(a for a in Action if bits >> a & 1) for bits in range(8))
"""The legal actions, in ``Action`` order, of a mask row packed as bits (FOLD = bit 0)."""

_Item = TypeVar("_Item", bound=np.generic)


def _read_only(array: npt.NDArray[_Item]) -> npt.NDArray[_Item]:
    view = array.view()
    view.flags.writeable = False
    return view


class BatchReadout:
    """A batch's state and every query on it (see ``HandBatch``, which plays it)."""

    def __init__(self, rules: Rules, num_tables: int) -> None:
        whole_number("num_tables", num_tables, minimum=1)
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be an envs.Rules, got {rules!r}")
        self.rules = rules
        self.num_tables = int(num_tables)
        self.num_seats = rules.num_seats
        if sum(rules.starting_stacks) > CHIP_LIMIT:
            raise ValueError(f"the starting stacks exceed {CHIP_LIMIT:,} chips per table")
        self._state = s = BatchState.allocate(rules, self.num_tables)
        self._layout = Layout.of(rules, self.num_tables)
        self._decisions: Decisions | None = None
        self._board_lengths = np.array(history.BOARD_LENGTHS, dtype=np.int8)
        self.deck = _read_only(s.deck)
        self.button = _read_only(s.button)
        self.hand_id = _read_only(s.hand_id)
        self.street = _read_only(s.street)
        self.stacks = _read_only(s.stacks.T)
        self.bets = _read_only(s.bets.T)
        self.contributions = _read_only(s.contributions.T)
        self.blinds = _read_only(s.blinds.T)
        self.folded = _read_only(s.folded.T)
        self.num_bets = _read_only(s.num_bets)
        self.max_bet = _read_only(s.max_bet)
        self.actor = _read_only(s.actor)
        self.over = _read_only(s.over)
        self.finished = _read_only(s.finished)
        self.payoffs = _read_only(s.payoffs.T)
        self.showed = _read_only(s.showed.T)
        self.ranks = _read_only(s.ranks.T)
        self.decisions = _read_only(s.decisions.T)
        self.log_street = _read_only(s.log_street)
        self.log_seat = _read_only(s.log_seat)
        self.log_action = _read_only(s.log_action)
        self.log_amount = _read_only(s.log_amount)
        self.log_len = _read_only(s.log_len)

    # ------------------------------------------------------- pending decisions

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(tables, 3)`` read-only: the actor's legal actions, one column per ``Action``
        value: column 0 FOLD, 1 CALL, 2 RAISE (all False where nobody is to act)."""
        return self._pending().legal.T

    def legal_actions(self, table: int) -> tuple[Action, ...]:
        """The legal actions of the table's actor in ``Action`` order, as
        ``Hand.legal_actions()`` (empty where nobody is to act): row ``table`` of
        ``legal_mask()`` as actions."""
        self._check_table(table, dealt=False)
        legal = self._pending().legal[:, table]
        return _LEGAL[int(legal[0]) | int(legal[1]) << 1 | int(legal[2]) << 2]

    def to_call(self) -> npt.NDArray[np.int32]:
        """``(tables,)`` read-only: chips each table's actor puts in by calling (0 where
        checking is free or nobody is to act)."""
        return self._pending().to_call

    def decision_index(self) -> npt.NDArray[np.int16]:
        """``(tables,)``: the index of the actor's decision in its hand (0 where nobody acts)."""
        d = self._pending()
        index: npt.NDArray[np.int16] = np.take(self._state.decisions, d.flat) * d.acting
        return index

    def _pending(self) -> Decisions:
        if self._decisions is None:
            self._decisions = pending_decisions(self._state, self._layout)
        return self._decisions

    # -------------------------------------------------------------- inspection

    @property
    def board_len(self) -> npt.NDArray[np.int8]:
        """``(tables,)``: board cards dealt so far (0, 3, 4 or 5)."""
        lengths: npt.NDArray[np.int8] = self._board_lengths[self._state.street]
        return lengths

    @property
    def nbytes(self) -> int:
        """Bytes held by the state arrays of all tables."""
        return self._state.nbytes

    @property
    def bytes_per_table(self) -> float:
        """Bytes of state per table (temporaries of a step come on top, see the benchmark)."""
        return self._state.nbytes / self.num_tables

    def view(self, table: int, seat: int) -> PlayerView:
        """What ``seat`` may know at ``table`` now: equal to ``Hand.view(seat)`` at the same
        point (after the hand, with the cards shown down)."""
        self._check_table(table)
        if not 0 <= seat < self.num_seats:
            raise ValueError(f"seat must be 0..{self.num_seats - 1}, got {seat}")
        legal: tuple[Action, ...] = ()
        if int(self._state.actor[table]) == seat:
            legal = self.legal_actions(table)
        return history.player_view(self._state, table, seat, legal)

    def events(self, table: int) -> tuple[Event, ...]:
        """The history of the table's hand so far: equal to ``Hand.events``."""
        self._check_table(table)
        return history.hand_events(self._state, self._layout, table)

    def to_acpc(self, table: int, names: Sequence[str] | None = None) -> str:
        """The table's hand as an ACPC ``STATE`` line: equal to ``Hand.to_acpc(names)``
        (for many tables, ``to_acpc_lines`` is far cheaper)."""
        self._check_table(table)
        return history.acpc_line(self._state, table, names)

    def to_acpc_lines(
        self, tables: npt.ArrayLike | None = None, names: Sequence[str] | None = None
    ) -> list[str]:
        """The ACPC ``STATE`` line of each of ``tables`` (default: every table), built for
        all of them at once: line ``i`` equals ``to_acpc(tables[i], names)``.

        Raises:
            ValueError: if ``tables`` is not a 1-D array of table numbers or ``names`` does
                not name every seat; ``TableError`` naming the tables never dealt a hand.
        """
        rows = self._layout.tables if tables is None else np.asarray(tables)
        if rows.ndim != 1 or (rows.dtype.kind not in "iu" and rows.size):
            raise ValueError(f"tables must be a 1-D array of table numbers, got {tables!r}")
        rows = rows.astype(np.intp, copy=False)
        outside = (rows < 0) | (rows >= self.num_tables)
        if outside.any():
            raise ValueError(f"table must be 0..{self.num_tables - 1}, got {rows[outside][0]}")
        undealt = np.flatnonzero(~self._state.dealt[rows])
        if len(undealt):
            reasons = [f"table {rows[i]} has not been dealt a hand yet" for i in undealt]
            raise TableError(rows[undealt], reasons)
        return acpc_lines(self._state, rows, names)

    def _check_table(self, table: int, *, dealt: bool = True) -> None:
        if not 0 <= table < self.num_tables:
            raise ValueError(f"table must be 0..{self.num_tables - 1}, got {table}")
        if dealt and not self._state.dealt[table]:
            raise ValueError(f"table {table} has not been dealt a hand yet")
