"""Input checks of the batched engine: every table at fault, each with its reason.

Checks run before any table changes, so a refused call leaves the whole batch as it was. A
malformed argument (wrong shape or type, a table number that does not exist or comes twice)
is the whole call's fault and raises a plain ``ValueError``; a mistake at some tables (an
illegal action, a bad deck, button or stack, a hand still in progress) raises ``TableError``
naming all of them. The checks are whole-array; reasons are worded only for tables at fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from envs.batched.betting import Decisions
from envs.batched.errors import TableError
from envs.batched.state import CHIP_LIMIT, CHIPS, BatchState, Bools, Chips, Index, Int8s
from envs.cards import DECK_SIZE, format_card
from envs.rules import Action, Street

__all__ = [
    "ActionCheck",
    "StartArgs",
    "StartCheck",
    "check_actions",
    "check_moving",
    "check_rows",
    "check_seats",
    "check_start",
    "inspect_actions",
    "inspect_start",
    "refusal",
]

StartArgs = tuple[Index, Bools, npt.NDArray[np.integer], Int8s, npt.NDArray[np.int64], Chips]
Integers = npt.NDArray[np.integer]


class _Fault(IntEnum):
    """What is wrong at a table being started, in the order the checks are made."""

    NONE = 0
    RUNNING = 1
    CARD_ID = 2
    REPEATED_CARD = 3
    BUTTON = 4
    STACK = 5
    CHIP_TOTAL = 6


def _integers(name: str, values: npt.ArrayLike, shape: tuple[int, ...]) -> Integers:
    """``values`` as an integer array of ``shape`` (broadcast, not copied)."""
    array = np.asarray(values)
    if array.dtype.kind not in "iu" and array.size:
        raise ValueError(f"{name} must be integers, got dtype {array.dtype}")
    if array.shape != shape:
        try:
            array = np.broadcast_to(array, shape)
        except ValueError:
            raise ValueError(f"{name} must have shape {shape}, got {array.shape}") from None
    return array


@dataclass(frozen=True, eq=False)
class StartCheck:
    """The arguments of ``HandBatch.start`` as arrays, and the first fault of each row."""

    state: BatchState
    index: Index
    """``(k,)``: the tables to start."""
    chosen: Bools
    """``(tables,)``: the same tables as a mask."""
    cards: Integers
    """``(k, 2S + 5)`` as given (not narrowed)."""
    button: Integers
    hand_id: npt.NDArray[np.int64]
    wide: npt.NDArray[np.int64] | None
    """``(S, k)`` stacks as given, seat-major; ``None`` for the rules' stacks."""
    faults: Int8s
    """``(k,)``: ``_Fault`` values, 0 where the row may start."""

    def args(self) -> StartArgs:
        """The arguments narrowed to the state's dtypes (only valid without faults)."""
        rules, k = self.state.rules, len(self.index)
        if self.wide is None:
            start = np.array(rules.starting_stacks, dtype=CHIPS)[:, np.newaxis]
            chips: Chips = np.broadcast_to(start, (rules.num_seats, k))
        else:
            chips = self.wide.astype(CHIPS)
        button = self.button.astype(np.int8)
        return self.index, self.chosen, self.cards, button, self.hand_id, chips

    def reasons(self) -> list[str | None]:
        """Per row, why it may not start (``None`` where it may)."""
        reasons: list[str | None] = [None] * len(self.index)
        for i in np.flatnonzero(self.faults).tolist():
            reasons[i] = self.reason(i)
        return reasons

    def reason(self, i: int) -> str:
        """Why row ``i`` (a row at fault) may not start."""
        fault, table = _Fault(int(self.faults[i])), int(self.index[i])
        if fault == _Fault.RUNNING:
            return f"table {table} has a hand in progress: play it to its end first"
        cards = self.cards[i]
        if fault == _Fault.CARD_ID:
            bad = cards[(cards < 0) | (cards >= DECK_SIZE)][0]
            return f"table {table}: card ids are 0..51, got {bad}"
        if fault == _Fault.REPEATED_CARD:
            ordered = np.sort(cards)
            twice = ordered[1:][ordered[1:] == ordered[:-1]][0]
            return f"table {table}: card {format_card(int(twice))} appears twice"
        if fault == _Fault.BUTTON:
            n = self.state.rules.num_seats
            return f"table {table}: button must be a seat 0..{n - 1}, got {self.button[i]}"
        assert self.wide is not None  # only given stacks can be at fault
        stacks = self.wide[:, i]
        if fault == _Fault.STACK:
            return f"table {table}: stacks must be positive, got {stacks.tolist()}"
        total = int(stacks.sum())
        return f"table {table}: at most {CHIP_LIMIT:,} chips per table, got {total:,}"


def check_rows(rows: npt.ArrayLike, tables: int) -> Index:
    """``rows`` as distinct table numbers of a batch of ``tables`` tables.

    Raises:
        ValueError: if ``rows`` is not a 1-D array of integers, names a table that does not
            exist or one twice.
    """
    table = np.asarray(rows)
    if table.ndim != 1:
        raise ValueError(f"rows must be a 1-D array of table numbers, got shape {table.shape}")
    k = len(table)
    table = _integers("rows", table, (k,))
    if k and (table.min() < 0 or table.max() >= tables):
        bad = table[(table < 0) | (table >= tables)][0]
        raise ValueError(f"table {bad} does not exist: the batch has tables 0..{tables - 1}")
    index: Index = table.astype(np.intp, copy=False)
    counts = np.bincount(index, minlength=tables)
    if k and counts.max() > 1:
        raise ValueError(f"table {int(np.argmax(counts > 1))} appears twice in rows")
    return index


def inspect_start(
    state: BatchState,
    rows: npt.ArrayLike,
    decks: npt.ArrayLike,
    buttons: npt.ArrayLike,
    hand_ids: npt.ArrayLike,
    stacks: npt.ArrayLike | None,
) -> StartCheck:
    """The arguments of ``HandBatch.start`` checked: ``ValueError`` for a malformed argument,
    else each row's first fault. Values are range-checked before they are narrowed."""
    n, tables = state.rules.num_seats, len(state.over)
    index = check_rows(rows, tables)
    k = len(index)
    chosen = np.zeros(tables, dtype=np.bool_)
    chosen[index] = True
    needed = 2 * n + 5
    deck = np.asarray(decks)
    if k == 0 and deck.size == 0:
        deck = np.zeros((0, needed), dtype=np.uint8)
    if deck.ndim != 2 or deck.shape[0] != k or deck.shape[1] < needed:
        raise ValueError(
            f"decks must have shape ({k}, at least {needed}) for {k} {n}-seat tables, "
            f"got {deck.shape}"
        )
    cards = _integers("decks", deck[:, :needed], (k, needed))
    button = _integers("buttons", buttons, (k,))
    hand_id = _integers("hand_ids", hand_ids, (k,)).astype(np.int64, copy=False)
    wide = None
    if stacks is not None:
        wide = _integers("stacks", stacks, (k, n)).T.astype(np.int64, order="C")  # seat-major
    faults = np.zeros(k, dtype=np.int8)
    if k:
        # Later checks first, so that each row keeps the first fault it has.
        for fault, at_fault in reversed(_start_faults(cards, button, wide, n)):
            faults[at_fault] = fault
        faults[~state.over[index]] = _Fault.RUNNING
    return StartCheck(state, index, chosen, cards, button, hand_id, wide, faults)


def _start_faults(
    cards: Integers, button: Integers, wide: npt.NDArray[np.int64] | None, n: int
) -> list[tuple[_Fault, Bools]]:
    """The rows failing each check after the first (each check whole-array, run only when a
    cheap reduction says some row fails it: a start is on the match runner's hot path)."""
    faults: list[tuple[_Fault, Bools]] = []
    if cards.min() < 0 or cards.max() >= DECK_SIZE:
        bad_id = np.asarray(((cards < 0) | (cards >= DECK_SIZE)).any(axis=1))
        faults.append((_Fault.CARD_ID, bad_id))
        cards = np.clip(cards, 0, DECK_SIZE - 1)  # those rows keep their first fault
    # Distinct cards: the bits 1 << card of a deck sum to their union. (Card-major copy:
    # reductions over the short card axis are far cheaper along the first axis.)
    bits = np.left_shift(np.uint64(1), cards.T.astype(np.uint64, order="C"))
    repeated = np.bitwise_or.reduce(bits, axis=0) != bits.sum(axis=0)
    if repeated.any():
        faults.append((_Fault.REPEATED_CARD, repeated))
    if button.min() < 0 or button.max() >= n:
        faults.append((_Fault.BUTTON, (button < 0) | (button >= n)))
    if wide is not None:
        if wide.min() <= 0:
            no_chips = np.asarray((wide <= 0).any(axis=0))
            faults.append((_Fault.STACK, no_chips))
        totals = wide.sum(axis=0)
        if totals.max() > CHIP_LIMIT:
            faults.append((_Fault.CHIP_TOTAL, totals > CHIP_LIMIT))
    return faults


def check_start(
    state: BatchState,
    rows: npt.ArrayLike,
    decks: npt.ArrayLike,
    buttons: npt.ArrayLike,
    hand_ids: npt.ArrayLike,
    stacks: npt.ArrayLike | None,
) -> StartArgs:
    """The arguments of ``HandBatch.start`` as arrays (with the rows as a mask too, stacks
    seat-major), or ``ValueError`` / ``TableError`` naming every problem."""
    check = inspect_start(state, rows, decks, buttons, hand_ids, stacks)
    if check.faults.any():
        at_fault = np.flatnonzero(check.faults)
        raise TableError(check.index[at_fault], [check.reason(i) for i in at_fault.tolist()])
    return check.args()


def check_seats(
    tables: npt.ArrayLike, seats: npt.ArrayLike, num_tables: int, num_seats: int
) -> tuple[Index, npt.NDArray[np.integer]]:
    """A batched agent's ``start_tables`` arguments as flat arrays, checked.

    Args:
        num_tables: The agent's tables.
        num_seats: Seats per table once known (0 before: then any seat below 10).

    Raises:
        ValueError: on a table outside ``0..num_tables-1`` or a negative seat, a seat outside
            the table, or arrays of different lengths.
    """
    index = np.asarray(tables, dtype=np.intp).reshape(-1)
    seat = np.asarray(seats).reshape(-1)
    if index.shape != seat.shape:
        raise ValueError(f"tables and seats differ in length: {len(index)} != {len(seat)}")
    if len(index) and (index.min() < 0 or index.max() >= num_tables):
        raise ValueError(f"tables must lie in 0..{num_tables - 1}")
    limit = num_seats or 10
    if len(seat) and (seat.min() < 0 or seat.max() >= limit):
        raise ValueError(f"seats must lie in 0..{limit - 1}, got {seat.tolist()}")
    return index, seat


def check_batch_tables(
    name: str,
    tables: Index,
    seat: npt.NDArray[np.integer],
    seats: npt.NDArray[np.integer],
    row_of: Index | None = None,
) -> None:
    """A batched agent's decision or hand-end batch, checked against the tables it serves:
    ``tables`` in ``0..len(seats)-1``, none twice, and ``seat[i]`` the agent's seat
    ``seats[tables[i]]`` (set by ``start_tables``). ``row_of`` (one entry per table) is
    scratch for the duplicate test, which then needs no sort.

    Raises:
        ValueError: naming the agent and the first fault.
    """
    if len(tables) and (tables.min() < 0 or tables.max() >= len(seats)):
        raise ValueError(f"{name}: tables must lie in 0..{len(seats) - 1}")
    if row_of is not None:
        rows = np.arange(len(tables))
        row_of[tables] = rows
        twice = bool((row_of[tables] != rows).any())
    else:
        ordered = np.sort(tables)
        twice = bool((ordered[1:] == ordered[:-1]).any())
    if twice:
        raise ValueError(f"{name}: a table appears twice in one batch")
    wrong = np.flatnonzero(seats[tables] != seat)
    if len(wrong):
        table = int(tables[wrong[0]])
        raise ValueError(
            f"{name}: at table {table} the batch's seat is {int(seat[wrong[0]])} but this "
            f"agent sits in seat {int(seats[table])} (start_tables first)"
        )


def check_moving(d: Decisions, where: npt.ArrayLike | None) -> Bools:
    """The tables that act in a step: those with a decision, within ``where`` if given."""
    if where is None:
        return d.acting
    mask = np.asarray(where)
    if mask.dtype != np.bool_ or mask.shape != d.acting.shape:
        raise ValueError(
            f"where must be a boolean mask of shape {d.acting.shape}, got {mask.dtype} "
            f"{mask.shape}"
        )
    moving: Bools = d.acting & mask
    return moving


@dataclass(frozen=True, eq=False)
class ActionCheck:
    """One action per table checked against the pending decisions."""

    actions: Integers
    """``(tables,)`` as given."""
    chosen: npt.NDArray[np.int8]
    """The actions as ``int8``, 0 where a table does not move."""
    illegal: Bools
    """``(tables,)``: moving tables whose action is illegal (or not an ``Action`` value)."""

    def reasons(self, state: BatchState) -> list[str | None]:
        """Per table, why its action is refused (``None`` where it is not)."""
        reasons: list[str | None] = [None] * len(self.illegal)
        for table in np.flatnonzero(self.illegal).tolist():
            reasons[table] = self.reason(state, table)
        return reasons

    def reason(self, state: BatchState, table: int) -> str:
        """Why the action at ``table`` (a table at fault) is refused."""
        return refusal(state, table, int(self.actions[table]))


def inspect_actions(d: Decisions, actions: npt.ArrayLike, moving: Bools) -> ActionCheck:
    """``actions`` checked at the ``moving`` tables: ``ValueError`` for a malformed array,
    else which tables' actions are illegal (other entries are ignored)."""
    array = np.asarray(actions)
    tables = len(d.acting)
    if array.shape != (tables,):
        raise ValueError(f"actions must have shape ({tables},), one per table, got {array.shape}")
    if array.dtype.kind not in "iu":
        raise ValueError(f"actions must be integers (envs.Action values), got {array.dtype}")
    valid = (array >= 0) & (array <= 2)
    chosen = (array * valid).astype(np.intp)
    legal = np.take(d.legal, chosen * tables + np.arange(tables))
    illegal: Bools = moving & ~(valid & legal)
    return ActionCheck(array, (chosen * moving).astype(np.int8), illegal)


def check_actions(
    d: Decisions, state: BatchState, actions: npt.ArrayLike, moving: Bools
) -> npt.NDArray[np.int8]:
    """The actions as ``int8`` (0 where a table does not move), or ``TableError`` naming
    every moving table whose action is illegal (``ValueError`` for a malformed array)."""
    check = inspect_actions(d, actions, moving)
    if check.illegal.any():
        refused = np.flatnonzero(check.illegal)
        raise TableError(refused, [check.reason(state, t) for t in refused.tolist()])
    return check.chosen


def refusal(state: BatchState, table: int, action: int) -> str:
    """Why ``action`` is illegal at ``table`` (the reason ``TableError`` gives for it)."""
    seat = int(state.actor[table])
    if seat < 0:
        why = "no hand was dealt" if not state.dealt[table] else "the hand is over"
        return f"table {table}: nobody is to act ({why})"
    if action not in (Action.FOLD, Action.CALL, Action.RAISE):
        return f"table {table}, seat {seat}: unknown action {action}; use envs.Action values"
    name = Action(action).name
    bets, stacks = state.bets[:, table], state.stacks[:, table]
    owed = int(state.max_bet[table]) - int(bets[seat])
    if action == Action.FOLD:
        return f"table {table}: seat {seat} may not fold ({name}): checking is free (ACPC)"
    street = Street(int(state.street[table]))
    num_bets = int(state.num_bets[table])
    verb = "raise" if num_bets else "bet"
    cap = state.rules.max_bets[street]
    full_raise = int(state.full_raise[table])
    short = int(state.short_all_in[table])
    if num_bets >= cap:
        why = f"the cap of {cap} bets on the {street.name.lower()} is reached"
    elif int(stacks[seat]) <= owed:
        why = "its stack only covers a call"
    elif owed < full_raise:
        why = "it faces a short all-in it cannot raise"
    elif short and short < full_raise and int(state.acted[table]) >> seat & 1:
        why = "a short all-in does not reopen the betting for a seat that already acted"
    else:
        why = "every other seat is all-in or folded"
    return f"table {table}: seat {seat} may not {verb} ({name}): {why}"
