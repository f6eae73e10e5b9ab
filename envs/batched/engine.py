"""``HandBatch``: many independent hands of fixed-limit hold'em played as whole arrays.

Each of ``num_tables`` tables plays exactly the game of ``envs.game.Hand`` (same rules, order of
play, all-in and side-pot rules, odd chips, ACPC export) for the same deck and actions; the
tables only share ``Rules``. ``start`` deals hands at some tables, ``legal_mask`` tells what
each table's actor may do, ``step`` applies one action per table with a decision, everywhere at
once, and carries every table on to its next decision or to the end of its hand (dealing,
all-in run-outs, one evaluator call for all showdowns). Finished tables are restarted in place.
The queries (masks, views, histories, ACPC export) are ``envs.batched.readout``'s.

>>> import numpy as np
>>> from envs.batched import TableError
>>> from envs.cards import parse_cards
>>> from envs.rules import Action, Rules
>>> batch = HandBatch(Rules(), num_tables=2)
>>> deck = parse_cards("AsAh KdKc 2c3d4h 9s Jd")
>>> batch.start([0, 1], [deck, deck], buttons=[0, 1], hand_ids=[7, 8])
>>> batch.actor.tolist(), batch.legal_mask().astype(int).tolist(), batch.legal_actions(0)
([0, 1], [[1, 1, 1], [1, 1, 1]], (<Action.FOLD: 0>, <Action.CALL: 1>, <Action.RAISE: 2>))
>>> batch.step(np.array([Action.RAISE, Action.FOLD]))
>>> batch.finished.tolist(), batch.payoffs[1].tolist()
([False, True], [1, -1])
>>> batch.step(np.array([Action.CALL, Action.CALL]))  # on to the flop at table 0
>>> batch.can_step(np.array([Action.FOLD, Action.FOLD])).tolist()  # checking is free
[False, True]
>>> try:
...     batch.step(np.array([Action.FOLD, Action.FOLD]))
... except TableError as error:
...     error.tables.tolist(), error.reasons
([0], ('table 0: seat 1 may not fold (FOLD): checking is free (ACPC)',))
>>> for action in (Action.CALL,) * 6:
...     batch.step(np.array([action, action]))
>>> batch.to_acpc(0)
'STATE:7:rc/cc/cc/cc:KdKc|AsAh/2c3d4h/9s/Jd:-4|4:p1|p0'
>>> batch.to_acpc_lines(names=["ann", "bob"])
['STATE:7:rc/cc/cc/cc:KdKc|AsAh/2c3d4h/9s/Jd:-4|4:bob|ann', 'STATE:8:f:AsAh|KdKc:1|-1:ann|bob']
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from envs.batched.betting import apply_actions
from envs.batched.checks import (
    check_actions,
    check_moving,
    check_rows,
    check_start,
    inspect_actions,
    inspect_start,
)
from envs.batched.pots import showdown
from envs.batched.readout import BatchReadout
from envs.batched.rounds import begin_preflop, end_rounds, post_blinds

__all__ = ["HandBatch", "SavedTables"]


class SavedTables(NamedTuple):
    """The state of some tables of a ``HandBatch`` (``HandBatch.save``)."""

    rows: npt.NDArray[np.intp]
    arrays: dict[str, npt.NDArray[np.generic]]


class HandBatch(BatchReadout):
    """``num_tables`` independent hands of fixed-limit hold'em under one ``Rules``, as arrays.

    **Tables.** A table is one row of every state array: one hand at a time, with its own
    deck, button, hand number and stacks. Tables share only ``rules`` and never wait for each
    other. ``T`` is the number of tables, ``S`` of seats (``rules.num_seats``).

    **Life of a table.** ``start(rows, decks, buttons, hand_ids, stacks=None)`` deals new
    hands at the tables ``rows`` (blinds posted, first actor set; a hand with no decision at
    all, for all-in blinds, ends at once). Then ``step(actions)`` takes one action per table,
    as often as needed: each table whose ``actor`` is set moves on to its next decision or to
    the end of its hand. ``finished`` names the hands that ended during the latest call,
    ``over`` every table with no hand running (payoffs ready). An over table is started again
    in place; starting a table whose hand is running is refused.

    **Stacks.** Each hand starts from the ``stacks`` given to ``start``, ``(k, S)`` (a row per
    started table) or ``(S,)`` (the same for all); by default every seat gets
    ``rules.starting_stacks`` (``Rules.stacks``, or ``max_commitment`` chips, which never
    bind, when that is ``None``). Nothing is carried over from a table's previous hand (its
    final stacks stay readable in ``stacks`` until the table is started again).

    **Actions and masks.** An action is an ``Action`` value. ``legal_mask()`` is ``(T, 3)``:
    column ``a`` tells whether ``Action(a)`` (FOLD, CALL, RAISE) is legal for the table's
    actor, all False where nobody is to act; ``legal_actions(table)`` gives the same as a
    tuple. ``step(actions, where=mask)`` moves only the tables in ``mask`` (the others keep
    their decision). Illegal input is never remapped: ``step`` and ``start`` raise
    ``TableError`` (a ``ValueError``) naming every table at fault (``.tables``) with its
    reason (``.reasons``), and change nothing. ``can_step`` / ``step_refusals`` and
    ``can_start`` / ``start_refusals`` make the same checks without raising (PokerKit's
    ``can_x`` / ``x`` pairs). A malformed argument (a wrong shape or dtype, a table number
    that does not exist or comes twice) is no table's fault: all of them raise a plain
    ``ValueError`` for it.

    **Reading and exporting.** The state arrays below; ``view(table, seat)`` and
    ``events(table)``, equal to ``Hand.view`` and ``Hand.events``; ``to_acpc(table)`` for one
    ACPC ``STATE`` line and ``to_acpc_lines(tables)`` for many at once.

    State (read-only NumPy views, updated in place; per-seat arrays are indexed by absolute
    seat number):

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

    Args:
        rules: The game every table plays.
        num_tables: How many tables (at least one).
    """

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
            TableError: naming every table of ``rows`` with a hand in progress, a deck with
                a repeated or unknown card, a bad button or bad stacks, each with its reason.
            ValueError: on a malformed argument (shape, dtype, a table number that does not
                exist or comes twice). Nothing changes then.
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
        opener = post_blinds(s, layout, table, chips)
        self._carry_on(begin_preflop(s, layout, tables, opener))

    def can_start(
        self,
        rows: npt.ArrayLike,
        decks: npt.ArrayLike,
        buttons: npt.ArrayLike,
        hand_ids: npt.ArrayLike,
        stacks: npt.ArrayLike | None = None,
    ) -> npt.NDArray[np.bool_]:
        """``(k,)``: whether ``start`` would accept each of ``rows`` (the same check; see
        ``start_refusals`` for the reasons). ``ValueError`` on a malformed argument."""
        check = inspect_start(self._state, rows, decks, buttons, hand_ids, stacks)
        ok: npt.NDArray[np.bool_] = check.faults == 0
        return ok

    def start_refusals(
        self,
        rows: npt.ArrayLike,
        decks: npt.ArrayLike,
        buttons: npt.ArrayLike,
        hand_ids: npt.ArrayLike,
        stacks: npt.ArrayLike | None = None,
    ) -> list[str | None]:
        """Per row, why ``start`` would refuse it (``None`` for a row it would accept)."""
        return inspect_start(self._state, rows, decks, buttons, hand_ids, stacks).reasons()

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
            TableError: naming every moving table whose action is illegal (``.tables``),
                each with its seat, action and reason (``.reasons``); no table moves then.
                Illegal actions are never remapped.
            ValueError: on actions or ``where`` of the wrong shape or dtype.
        """
        d = self._pending()
        moving = check_moving(d, where)
        chosen = check_actions(d, self._state, actions, moving)
        self._decisions = None
        self._state.finished[:] = False
        self._carry_on(apply_actions(self._state, self._layout, d, chosen, moving))

    def can_step(
        self, actions: npt.ArrayLike, where: npt.ArrayLike | None = None
    ) -> npt.NDArray[np.bool_]:
        """``(tables,)``: whether ``step`` would accept each table's action (the same check;
        True where the table does not move). ``step`` succeeds exactly when all are True;
        ``step_refusals`` gives the reasons. ``ValueError`` on a malformed argument."""
        d = self._pending()
        ok: npt.NDArray[np.bool_] = ~inspect_actions(d, actions, check_moving(d, where)).illegal
        return ok

    def step_refusals(
        self, actions: npt.ArrayLike, where: npt.ArrayLike | None = None
    ) -> list[str | None]:
        """Per table, why ``step`` would refuse its action (``None`` where it would not)."""
        d = self._pending()
        return inspect_actions(d, actions, check_moving(d, where)).reasons(self._state)

    def save(self, rows: npt.ArrayLike) -> SavedTables:
        """A copy of the tables ``rows``' state, to put back with ``restore`` (after trying
        actions there that did not happen, as a search or a replay does).

        Raises:
            ValueError: on a malformed ``rows`` (a table that does not exist or comes twice).
        """
        index = check_rows(rows, self.num_tables)
        return SavedTables(index, self._state.take_tables(index))

    def restore(self, saved: SavedTables) -> None:
        """Put the tables of ``saved`` back in the state it holds (``finished`` included)."""
        self._decisions = None
        self._state.put_tables(saved.rows, saved.arrays)

    def abandon(self, rows: npt.ArrayLike) -> None:
        """Stop the hands at the tables ``rows`` where they are, unsettled: no showdown, the
        payoffs left at 0; the tables may be started again (a replay that follows a hand
        only so far drops it so). Tables with no hand running are left as they are.

        Raises:
            ValueError: on a malformed ``rows``.
        """
        index = check_rows(rows, self.num_tables)
        s = self._state
        self._decisions = None
        s.actor[index] = -1
        s.over[index] = True

    def _carry_on(self, round_ended: npt.NDArray[np.bool_]) -> None:
        if round_ended.any():
            s, layout = self._state, self._layout
            at_showdown = end_rounds(s, layout, round_ended)
            if at_showdown.any():
                showdown(s, layout, at_showdown)
