"""What a batched agent receives: the decisions and hand ends of k tables as arrays.

``DecisionBatch`` stacks, for the k tables where the agent's seat is to act, what each seat's
``PlayerView`` holds; ``HandEndBatch`` the same for the tables whose hand just ended (S seats,
L the longest action log, k rows). ``decisions_at`` and ``hand_ends_at`` build them from a
``HandBatch``'s arrays (the runners' hot path), ``decision_batch`` and ``hand_end_batch`` from
scalar views (differential tests and benchmarks). Either way a batch holds what the viewing
seat may see and nothing else: its own hole cards, the public state, and the cards shown down.

The action log is the view's public betting history (blinds excluded): entry ``j < log_len``
of a row is ``Acted(log_street[j], log_seat[j], log_action[j], log_amount[j])``; entries past
``log_len`` are undefined. Board cards past ``board_len`` are undefined. ``logs()`` gives the
same log without copying it (``ActionLogs``), for compiled loops that read a few entries of
each row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from envs.batched.engine import HandBatch
from envs.batched.rows import by_seat, holes, pot, table_field
from envs.rules import Action, Rules
from envs.view import PlayerView

__all__ = [
    "ActionLogs",
    "DecisionBatch",
    "HandEndBatch",
    "decision_batch",
    "decisions_at",
    "hand_end_batch",
    "hand_ends_at",
]

Int8 = npt.NDArray[np.int8]
Int16 = npt.NDArray[np.int16]
Int32 = npt.NDArray[np.int32]
Int64 = npt.NDArray[np.int64]
Intp = npt.NDArray[np.intp]
UInt8 = npt.NDArray[np.uint8]
Bool = npt.NDArray[np.bool_]
_B = TypeVar("_B", bound="_Batch")


class ActionLogs(NamedTuple):
    """A batch's action logs without copies: row ``i``'s log is row ``rows[i]`` of each array.

    Built from a ``HandBatch``, the arrays are the engine's own (all its tables, read-only)
    and ``rows`` the batch's tables; built from views, the batch's fields and ``0 .. k - 1``.
    For compiled loops, which read a few entries per row where a gather would copy them all.
    """

    rows: Intp
    length: Int16
    street: Int8
    seat: Int8
    action: Int8
    amount: Int32


class _Batch:
    """Read-only named arrays, given at once or computed on first use from a source.

    The runners build batches from a ``HandBatch`` lazily (``decisions_at``, ``hand_ends_at``):
    an agent pays only for the fields it reads. A batch is read at once, while the tables are
    where they were when it was built.
    """

    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        cls._fields = tuple(name for name in cls.__annotations__ if not name.startswith("_"))

    def __init__(self, source: Callable[[str], Any] | None = None, **fields: Any) -> None:
        unknown = sorted(set(fields) - set(self._fields))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no fields {unknown}")
        missing = [name for name in self._fields if name not in fields]
        if source is None and missing:
            raise TypeError(f"{type(self).__name__} needs the fields {missing}")
        object.__setattr__(self, "_source", source)
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        source = self.__dict__.get("_source")
        if source is None or name not in self._fields:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        value = source(name)
        object.__setattr__(self, name, value)
        return value

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def logs(self) -> ActionLogs:
        """The action log fields as ``ActionLogs`` (uncopied when built from a ``HandBatch``)."""
        logs: ActionLogs | None = self.__dict__.get("_logs")
        if logs is None:
            names = ("tables", "log_len", "log_street", "log_seat", "log_action", "log_amount")
            tables, *fields = (getattr(self, name) for name in names)
            logs = ActionLogs(np.arange(len(tables), dtype=np.intp), *fields)
        return logs

    def take(self: _B, rows: npt.ArrayLike, **fields: Any) -> _B:
        """The batch of this one's rows ``rows`` (in that order, repeats allowed), each field
        gathered when first read, the action logs shared uncopied; ``fields`` replace the
        gathered ones (``tables``, say, when the rows go to other tables).

        Raises:
            TypeError: if a field is not one of this batch's.
        """
        index = np.asarray(rows, dtype=np.intp)
        parent = self

        def gather(name: str) -> Any:
            value = getattr(parent, name)
            return value if name == "rules" else np.asarray(value)[index]

        taken = type(self)(gather, **fields)
        logs = self.logs()
        object.__setattr__(taken, "_logs", logs._replace(rows=logs.rows[index]))
        return taken

    def _share_logs(self, batch: HandBatch, rows: Intp) -> None:
        logs = ActionLogs(
            rows,
            batch.log_len,
            batch.log_street,
            batch.log_seat,
            batch.log_action,
            batch.log_amount,
        )
        object.__setattr__(self, "_logs", logs)


class DecisionBatch(_Batch):
    """The k tables where one agent's seat is to act (arrays read-only, k rows)."""

    rules: Rules
    tables: Intp
    """``(k,)``: which of the agent's tables (index into its per-table state)."""
    seat: Int8
    """``(k,)``: the acting seat, the agent's seat at those tables."""
    button: Int8
    hand_id: Int64
    """``(k,)``: unique per hand of a table's session."""
    hole: UInt8
    """``(k, 2)``: this seat's cards only."""
    board: UInt8
    """``(k, 5)``: cards past ``board_len`` undefined."""
    board_len: Int8
    """``(k,)``: 0, 3, 4 or 5."""
    street: Int8
    """``(k,)``: ``Street`` values."""
    pot: Int64
    to_call: Int64
    num_bets: Int8
    bets: Int64
    """``(k, S)``, as ``PlayerView.bets``."""
    contributions: Int64
    stacks: Int64
    blinds: Int64
    folded: Bool
    legal: Bool
    """``(k, 3)`` in ``Action`` order (FOLD, CALL, RAISE)."""
    log_len: Int16
    log_street: Int8
    """``(k, L)``; entries at positions ``>= log_len`` undefined, as in the other log arrays."""
    log_seat: Int8
    log_action: Int8
    log_amount: Int32


class HandEndBatch(_Batch):
    """The k tables whose hand just ended, as the agent's seat saw them (arrays read-only)."""

    rules: Rules
    tables: Intp
    seat: Int8
    button: Int8
    hand_id: Int64
    hole: UInt8
    board: UInt8
    """``(k, 5)``: the whole board (cards past ``board_len`` undefined)."""
    board_len: Int8
    log_len: Int16
    log_street: Int8
    log_seat: Int8
    log_action: Int8
    log_amount: Int32
    payoffs: Int64
    """``(k, S)``: each seat's net chips."""
    shown: Int16
    """``(k, S, 2)``: the hole cards each seat showed down, -1 where not shown."""


T = TypeVar("T", bound=np.generic)


def _frozen(values: object, dtype: type[T]) -> npt.NDArray[T]:
    array: npt.NDArray[T] = np.array(values, dtype=dtype)
    array.flags.writeable = False
    return array


class _Shared(NamedTuple):
    """The fields both batches share, in contract order."""

    rules: Rules
    tables: Intp
    seat: Int8
    button: Int8
    hand_id: Int64
    hole: UInt8
    board: UInt8
    board_len: Int8
    log_len: Int16
    log_street: Int8
    log_seat: Int8
    log_action: Int8
    log_amount: Int32


def _common(
    views: Sequence[PlayerView], tables: Sequence[int] | npt.ArrayLike, *, terminal: bool
) -> _Shared:
    """The fields both batches share, after checking the views fit together."""
    if not views:
        raise ValueError("a batch needs at least one view")
    rules = views[0].rules
    if any(v.rules != rules for v in views):
        raise ValueError("all views of a batch must share one Rules")
    table_ids = np.asarray(tables)
    if table_ids.shape != (len(views),) or table_ids.dtype.kind not in "iu":
        raise ValueError(f"tables must be {len(views)} integers (one per view), got {tables!r}")
    for v in views:
        if v.is_terminal != terminal:
            state = "a finished hand" if v.is_terminal else "a hand in progress"
            raise ValueError(f"view of seat {v.seat} in hand {v.hand_id} is of {state}")
    width = max(1, max(len(v.actions) for v in views))
    logs = np.zeros((4, len(views), width), dtype=np.int64)
    for row, v in enumerate(views):
        for j, acted in enumerate(v.actions):
            logs[:, row, j] = (acted.street, acted.seat, acted.action, acted.amount)
    boards = [(*v.board, *(0,) * (5 - len(v.board))) for v in views]
    return _Shared(
        rules,
        _frozen(table_ids, np.intp),
        _frozen([v.seat for v in views], np.int8),
        _frozen([v.button for v in views], np.int8),
        _frozen([v.hand_id for v in views], np.int64),
        _frozen([v.hole for v in views], np.uint8),
        _frozen(boards, np.uint8),
        _frozen([len(v.board) for v in views], np.int8),
        _frozen([len(v.actions) for v in views], np.int16),
        _frozen(logs[0], np.int8),
        _frozen(logs[1], np.int8),
        _frozen(logs[2], np.int8),
        _frozen(logs[3], np.int32),
    )


def decision_batch(
    views: Sequence[PlayerView], tables: Sequence[int] | npt.ArrayLike
) -> DecisionBatch:
    """Stack the views of k tables where the viewing seat is to act (``tables[i]`` of row i).

    Raises:
        ValueError: if there are no views, they mix rules, one is not its seat's turn, or
            ``tables`` does not give one integer per view.
    """
    shared = _common(views, tables, terminal=False)
    for v in views:
        if not v.legal_actions:
            raise ValueError(f"seat {v.seat} is not to act in hand {v.hand_id}")
    legal = [[a in v.legal_actions for a in Action] for v in views]
    return DecisionBatch(
        rules=shared.rules,
        tables=shared.tables,
        seat=shared.seat,
        button=shared.button,
        hand_id=shared.hand_id,
        hole=shared.hole,
        board=shared.board,
        board_len=shared.board_len,
        street=_frozen([v.street for v in views], np.int8),
        pot=_frozen([v.pot for v in views], np.int64),
        to_call=_frozen([v.to_call for v in views], np.int64),
        num_bets=_frozen([v.num_bets for v in views], np.int8),
        bets=_frozen([v.bets for v in views], np.int64),
        contributions=_frozen([v.contributions for v in views], np.int64),
        stacks=_frozen([v.stacks for v in views], np.int64),
        blinds=_frozen([v.blinds for v in views], np.int64),
        folded=_frozen([v.folded for v in views], np.bool_),
        legal=_frozen(legal, np.bool_),
        log_len=shared.log_len,
        log_street=shared.log_street,
        log_seat=shared.log_seat,
        log_action=shared.log_action,
        log_amount=shared.log_amount,
    )


def hand_end_batch(
    views: Sequence[PlayerView], tables: Sequence[int] | npt.ArrayLike
) -> HandEndBatch:
    """Stack the terminal views of k tables (what each viewing seat saw at the hand's end).

    Raises:
        ValueError: as ``decision_batch``, for views of hands that have not ended.
    """
    shared = _common(views, tables, terminal=True)
    shown = [[cards if cards is not None else (-1, -1) for cards in v.shown] for v in views]
    return HandEndBatch(
        **shared._asdict(),
        payoffs=_frozen([v.payoffs for v in views], np.int64),
        shown=_frozen(shown, np.int16),
    )


def decisions_at(batch: HandBatch, rows: Intp, **fields: Any) -> DecisionBatch:
    """What the seat to act at each table of ``rows`` sees there (``tables`` are the rows),
    each field computed when first read; ``fields`` given replace the engine's (the board as
    a replay knows it, say)."""
    seat = batch.actor[rows]
    if seat.size and int(seat.min()) < 0:
        raise ValueError("a decision batch needs a seat to act at every table of rows")

    def field(name: str) -> Any:
        if name == "pot":
            return pot(batch, rows)
        if name == "to_call":
            return batch.to_call()[rows].astype(np.int64)
        if name == "legal":
            return batch.legal_mask()[rows]
        return table_field(batch, rows, seat, name)

    decisions = DecisionBatch(
        field, **{"rules": batch.rules, "tables": rows, "seat": seat, **fields}
    )
    decisions._share_logs(batch, rows)
    return decisions


def hand_ends_at(
    batch: HandBatch,
    rows: Intp,
    seats: npt.NDArray[np.integer],
    shared: dict[str, Any] | None = None,
) -> HandEndBatch:
    """What seat ``seats[i]`` saw of the finished hand at table ``rows[i]``, each field
    computed when first read. Batches of the same rows for other seats may pass one
    ``shared`` dict: the fields every seat sees alike (the board, the log, the payoffs, the
    cards shown) are then computed once for all of them."""
    n = batch.num_seats
    common: dict[str, Any] = {} if shared is None else shared

    def public(name: str) -> Any:
        if name == "shown":
            cards = batch.deck[rows, : 2 * n].reshape(len(rows), n, 2).astype(np.int16)
            showed = by_seat(batch.showed, rows)
            return np.where(showed[:, :, np.newaxis], cards, np.int16(-1))
        return table_field(batch, rows, seats, name)

    def field(name: str) -> Any:
        if name == "hole":
            return holes(batch, rows, seats)
        if name not in common:
            common[name] = public(name)
        return common[name]

    ends = HandEndBatch(field, rules=batch.rules, tables=rows, seat=seats.astype(np.int8))
    ends._share_logs(batch, rows)
    return ends
