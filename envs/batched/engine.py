"""``HandBatch``: many independent hands of fixed-limit hold'em played as whole arrays.

Each of ``num_tables`` tables plays exactly the game of ``envs.game.Hand`` (same rules, order of
play, all-in and side-pot rules, odd chips, ACPC export) for the same deck and actions; the
tables only share ``Rules``. ``start`` deals hands at some tables, ``legal_mask`` tells what
each table's actor may do, ``step`` applies one action per table with a decision, everywhere at
once, and carries every table on to its next decision or to the end of its hand (dealing,
all-in run-outs, one evaluator call for all showdowns). Finished tables are restarted in place.

>>> import numpy as np
>>> from envs.cards import parse_cards
>>> batch = HandBatch(Rules(), num_tables=2)
>>> deck = parse_cards("AsAh KdKc 2c3d4h 9s Jd")
>>> batch.start([0, 1], [deck, deck], buttons=[0, 1], hand_ids=[7, 8])
>>> batch.actor.tolist(), batch.legal_mask().astype(int).tolist()
([0, 1], [[1, 1, 1], [1, 1, 1]])
>>> batch.step(np.array([Action.RAISE, Action.FOLD]))
>>> batch.finished.tolist(), batch.payoffs[1].tolist()
([False, True], [1, -1])
>>> for action in (Action.CALL,) * 7:
...     batch.step(np.array([action, action]))
>>> batch.to_acpc(0)
'STATE:7:rc/cc/cc/cc:KdKc|AsAh/2c3d4h/9s/Jd:-4|4:p1|p0'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from envs.batched import history
from envs.batched.betting import Decisions, apply_actions, pending_decisions
from envs.batched.checks import check_actions, check_moving, check_start
from envs.batched.pots import showdown
from envs.batched.rounds import begin_preflop, end_rounds, post_blinds
from envs.batched.state import CHIP_LIMIT, BatchState, Layout
from envs.events import Event
from envs.rules import Action, Rules
from envs.validation import whole_number
from envs.view import PlayerView

__all__ = ["HandBatch"]

_ACTIONS = tuple(Action)


_Item = TypeVar("_Item", bound=np.generic)


def _read_only(array: npt.NDArray[_Item]) -> npt.NDArray[_Item]:
    view = array.view()
    view.flags.writeable = False
    return view


class HandBatch:
    """``num_tables`` hands of the same ``Rules``, one per table, as arrays (see the module).

    State (read-only NumPy views, updated in place; ``T`` tables, ``S`` seats; per-seat
    arrays are indexed by absolute seat number):

    * ``deck`` ``(T, 2S + 5)`` ``uint8``: the cards of the current hand; seat ``s`` holds
      ``deck[:, 2s:2s + 2]``, the board is ``deck[:, 2S:]`` (dealt up to ``board_len``).
    * ``button``, ``hand_id``, ``street`` (``Street`` values), ``board_len`` ``(T,)``.
    * ``stacks``, ``bets`` (this round, blinds included pre-flop), ``contributions`` (whole
      hand), ``blinds`` (chips posted as blinds) ``(T, S)`` ``int32``.
    * ``folded`` ``(T, S)`` bool; ``num_bets`` ``(T,)``: bets this round, the big blind counting;
      ``max_bet`` ``(T,)``: the largest bet of the round (while a hand runs).
    * ``actor`` ``(T,)`` ``int8``: the seat to act, -1 when no decision is pending (hand over
      or never dealt).
    * ``over`` ``(T,)``: no hand in progress (never dealt, or ended: payoffs valid);
      ``finished`` ``(T,)``: the hands that ended during the latest ``start`` or ``step``.
    * ``payoffs`` ``(T, S)``: net chips won, once the hand is over (0 before).
    * ``showed`` ``(T, S)``: seats that showed down; ``ranks`` ``(T, S)``: their hand ranks
      (1..7462, higher is stronger; 0 for seats that did not show).
    * ``decisions`` ``(T, S)``: decisions each seat has taken in the current hand, so the
      actor's next decision has index ``decisions[t, actor[t]]`` (the common-random-numbers
      decision index of ``envs.crn``).
    * The public action log, decision by decision: ``log_street``, ``log_seat``, ``log_action``
      (``Action`` values) and ``log_amount`` (chips put in) ``(T, max_decisions + 1)``, valid
      up to ``log_len`` ``(T,)``; with the deck, blinds and button it rebuilds every history.

    Per-seat arrays are transposed views of seat-major storage, so reductions over the seats
    of every table (``stacks.sum(axis=1)``) are cheap. A typical loop::

        batch.start(rows, decks, buttons, hand_ids)
        while playing:
            batch.step(policy(batch.legal_mask(), ...))  # one action per table
            done = np.flatnonzero(batch.over)  # read their payoffs, showdowns, logs
            batch.start(done, ...)  # hands with no decision (all-in blinds) end here
            # ... and ``batch.finished`` now names them

    Tables are independent: a table never waits for another, and an action is needed from
    every table whose ``actor`` is set.
    """

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

    # ------------------------------------------------------------------ playing

    def start(
        self,
        rows: npt.ArrayLike,
        decks: npt.ArrayLike,
        buttons: npt.ArrayLike,
        hand_ids: npt.ArrayLike,
        stacks: npt.ArrayLike | None = None,
    ) -> None:
        """Deal new hands at the tables ``rows`` (none may have a hand in progress).

        Blinds are posted and the first actor set; a hand with no decision at all (all-in
        blinds) ends at once, with its showdown.

        Args:
            rows: Distinct table numbers, shape ``(k,)``.
            decks: ``(k, D)`` card ids, ``D >= 2S + 5`` (only the first ``2S + 5`` are used,
                as by ``Hand``): seat ``s`` gets cards ``2s, 2s + 1``, then the board.
            buttons: The button seat of each new hand, ``(k,)`` (or one for all).
            hand_ids: The number of each new hand, ``(k,)`` (or one for all).
            stacks: Chips of each seat at the start, ``(k, S)`` or ``(S,)``; default
                ``rules.starting_stacks``.

        Raises:
            ValueError: on a bad table number, a table with a hand in progress, a deck too
                short or with a repeated or unknown card, a bad button or stack; nothing
                changes then.
        """
        table, tables, deck, button, hand_id, chips = check_start(
            self._state, rows, decks, buttons, hand_ids, stacks
        )
        s, layout = self._state, self._layout
        self._decisions = None
        s.finished[:] = False
        s.deck[table] = deck
        s.button[table] = button
        s.hand_id[table] = hand_id
        keep = ~tables
        for array in (s.street, s.log_len, s.decisions, s.ranks, s.payoffs):
            array *= keep
        s.folded &= keep
        s.showed &= keep
        s.num_active += tables * (self.num_seats - s.num_active)
        s.over &= keep
        s.dealt |= tables
        opener = np.zeros(self.num_tables, dtype=np.int8)
        opener[table] = post_blinds(
            s, layout, table, layout.seat_offset[:, np.newaxis] + table, chips
        )
        self._carry_on(begin_preflop(s, layout, tables, opener))

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(tables, 3)`` read-only: the actor's legal actions in ``Action`` order (all False
        where nobody is to act)."""
        return self._pending().legal.T

    def to_call(self) -> npt.NDArray[np.int32]:
        """``(tables,)`` read-only: chips each table's actor puts in by calling (0 where
        checking is free or nobody is to act)."""
        return self._pending().to_call

    def decision_index(self) -> npt.NDArray[np.int16]:
        """``(tables,)``: the index of the actor's decision in its hand (0 where nobody acts)."""
        d = self._pending()
        index: npt.NDArray[np.int16] = np.take(self._state.decisions, d.flat) * d.acting
        return index

    def step(self, actions: npt.ArrayLike, where: npt.ArrayLike | None = None) -> None:
        """Apply one action at every table with a decision pending (within ``where``), all
        at once.

        Moved tables then carry on to their next decision or to the end of their hand
        (dealing, all-in run-outs and showdowns included); ``finished`` tells which hands
        ended. Tables outside ``where`` keep their pending decision untouched (for example
        the tables where a learner is to act while hosted opponents play elsewhere).

        Args:
            actions: ``(tables,)`` integers, ``Action`` values; the entries of tables that
                do not move (nobody to act, or outside ``where``) are ignored.
            where: Optional ``(tables,)`` boolean mask of the tables allowed to move.

        Raises:
            ValueError: naming the first table (its seat, action and the reason) whose action
                is illegal; no table moves then. Illegal actions are never remapped.
        """
        d = self._pending()
        moving = check_moving(d, where)
        chosen = check_actions(d, self._state, actions, moving)
        self._decisions = None
        self._state.finished[:] = False
        self._carry_on(apply_actions(self._state, self._layout, d, chosen, moving))

    def _carry_on(self, round_ended: npt.NDArray[np.bool_]) -> None:
        if round_ended.any():
            s, layout = self._state, self._layout
            at_showdown = end_rounds(s, layout, round_ended)
            if at_showdown.any():
                showdown(s, layout, at_showdown)

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
            mask = self._pending().legal[:, table]
            legal = tuple(a for a in _ACTIONS if mask[a])
        return history.player_view(self._state, table, seat, legal)

    def events(self, table: int) -> tuple[Event, ...]:
        """The history of the table's hand so far: equal to ``Hand.events``."""
        self._check_table(table)
        return history.hand_events(self._state, self._layout, table)

    def to_acpc(self, table: int, names: Sequence[str] | None = None) -> str:
        """The table's hand as an ACPC ``STATE`` line: equal to ``Hand.to_acpc(names)``."""
        self._check_table(table)
        return history.acpc_line(self._state, table, names)

    def _check_table(self, table: int) -> None:
        if not 0 <= table < self.num_tables:
            raise ValueError(f"table must be 0..{self.num_tables - 1}, got {table}")
        if not self._state.dealt[table]:
            raise ValueError(f"table {table} has not been dealt a hand yet")
