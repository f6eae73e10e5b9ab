"""The arrays of a batch of hands (struct of arrays) and the index arithmetic over them.

Per-seat arrays are stored seat-major, ``(seats, tables)``: a reduction over the seats of every
table is then a few passes over contiguous rows (a reduction over a short last axis costs
NumPy a hundred times more), and ``HandBatch`` publishes them transposed, ``(tables, seats)``.
Who is still to act and who has acted this round are bit sets of seats, one ``uint16`` per
table, so that finding the next seat to act is one table lookup. Every array is allocated once
and then written in place, so the published read-only views always show the current state.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import numpy.typing as npt

from envs.rules import Rules, Street

__all__ = ["CHIPS", "CHIP_LIMIT", "BatchState", "Layout", "max_decisions"]

CHIPS = np.int32
"""Chip counts (stacks, bets, pots); ``start`` refuses tables whose chips would not fit."""
CHIP_LIMIT = int(np.iinfo(CHIPS).max)

Bools = npt.NDArray[np.bool_]
Int8s = npt.NDArray[np.int8]
Int16s = npt.NDArray[np.int16]
Chips = npt.NDArray[np.int32]
SeatSets = npt.NDArray[np.uint16]
Index = npt.NDArray[np.intp]


PER_SEAT = frozenset(
    [
        "stacks",
        "bets",
        "contributions",
        "blinds",
        "payoffs",
        "folded",
        "showed",
        "ranks",
        "decisions",
    ]
)
"""The arrays stored ``(seats, tables)``."""


def max_decisions(rules: Rules) -> int:
    """Most decisions one hand can take: the length of the per-table action log.

    A round starts with at most ``n`` seats to act and every raise puts at most ``n - 1`` back,
    so a round with ``r`` raises has at most ``n + r (n - 1)`` decisions (the big blind is the
    first pre-flop bet, so one raise fewer there).
    """
    n = rules.num_seats
    raises = [
        cap - (street == Street.PREFLOP)
        for street, cap in zip(Street, rules.max_bets, strict=True)
    ]
    return sum(n + r * (n - 1) for r in raises)


@dataclass(slots=True, eq=False)
class BatchState:
    """The state of the hands at every table; see ``HandBatch`` for the meanings.

    Per-seat arrays are ``(seats, tables)``; ``queue`` and ``acted`` are seat bit sets.
    """

    rules: Rules
    deck: npt.NDArray[np.uint8]
    button: Int8s
    hand_id: npt.NDArray[np.int64]
    street: Int8s
    stacks: Chips
    bets: Chips
    contributions: Chips
    blinds: Chips
    payoffs: Chips
    folded: Bools
    showed: Bools
    ranks: Int16s
    decisions: Int16s
    queue: SeatSets
    """Seats still to act this round (bit ``s`` for seat ``s``)."""
    acted: SeatSets
    """Seats that acted this round since the last full raise."""
    able: SeatSets
    """Seats that have not folded and have chips behind (could still act)."""
    num_bets: Int16s
    num_active: Int8s
    max_bet: Chips
    full_raise: Chips
    """The largest raise increment of the round (a short all-in raise is smaller)."""
    short_all_in: Chips
    """Increments of consecutive short all-in raises not yet adding up to a full raise."""
    actor: Int8s
    over: Bools
    finished: Bools
    dealt: Bools
    log_street: Int8s
    log_seat: Int8s
    log_action: Int8s
    log_amount: Chips
    log_len: Int16s

    @classmethod
    def allocate(cls, rules: Rules, num_tables: int) -> BatchState:
        """Arrays for ``num_tables`` tables with no hand dealt yet."""
        n, s = num_tables, rules.num_seats
        per_seat = (s, n)
        # One spare log column: tables with no decision write their (ignored) entry there.
        per_entry = (n, max_decisions(rules) + 1)
        return cls(
            rules=rules,
            deck=np.zeros((n, 2 * s + 5), dtype=np.uint8),
            button=np.zeros(n, dtype=np.int8),
            hand_id=np.zeros(n, dtype=np.int64),
            street=np.zeros(n, dtype=np.int8),
            stacks=np.zeros(per_seat, dtype=CHIPS),
            bets=np.zeros(per_seat, dtype=CHIPS),
            contributions=np.zeros(per_seat, dtype=CHIPS),
            blinds=np.zeros(per_seat, dtype=CHIPS),
            payoffs=np.zeros(per_seat, dtype=CHIPS),
            folded=np.zeros(per_seat, dtype=np.bool_),
            showed=np.zeros(per_seat, dtype=np.bool_),
            ranks=np.zeros(per_seat, dtype=np.int16),
            decisions=np.zeros(per_seat, dtype=np.int16),
            queue=np.zeros(n, dtype=np.uint16),
            acted=np.zeros(n, dtype=np.uint16),
            able=np.zeros(n, dtype=np.uint16),
            num_bets=np.zeros(n, dtype=np.int16),
            num_active=np.zeros(n, dtype=np.int8),
            max_bet=np.zeros(n, dtype=CHIPS),
            full_raise=np.zeros(n, dtype=CHIPS),
            short_all_in=np.zeros(n, dtype=CHIPS),
            actor=np.full(n, -1, dtype=np.int8),
            over=np.ones(n, dtype=np.bool_),
            finished=np.zeros(n, dtype=np.bool_),
            dealt=np.zeros(n, dtype=np.bool_),
            log_street=np.zeros(per_entry, dtype=np.int8),
            log_seat=np.zeros(per_entry, dtype=np.int8),
            log_action=np.zeros(per_entry, dtype=np.int8),
            log_amount=np.zeros(per_entry, dtype=CHIPS),
            log_len=np.zeros(n, dtype=np.int16),
        )

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """Every state array by field name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "rules"}

    def take_tables(self, rows: Index) -> dict[str, npt.NDArray[np.generic]]:
        """Copies of every array's entries of the tables ``rows``."""
        return {
            name: array[:, rows] if name in PER_SEAT else array[rows]
            for name, array in self.arrays().items()
        }

    def put_tables(self, rows: Index, saved: dict[str, npt.NDArray[np.generic]]) -> None:
        """Write ``saved`` (from ``take_tables(rows)``) back into the tables ``rows``."""
        for name, array in self.arrays().items():
            if name in PER_SEAT:
                array[:, rows] = saved[name]
            else:
                array[rows] = saved[name]

    @property
    def nbytes(self) -> int:
        """Bytes held by the state arrays."""
        return sum(a.nbytes for a in self.arrays().values())


@dataclass(frozen=True, eq=False)
class Layout:
    """Index arithmetic and rule constants shared by every operation on one batch."""

    num_tables: int
    num_seats: int
    log_width: int
    """Columns of the action log: the longest hand's decisions plus one spare column."""
    tables: Index
    """``0 .. num_tables - 1``."""
    seats: Int8s
    """``0 .. num_seats - 1``."""
    place: Int8s
    """``place[button, seat]``: 0 for the seat left of the button ... ``n - 1`` for it."""
    seat_offset: Index
    """``seat * num_tables``: plus a table, the index in a raveled per-seat array."""
    log_base: Index
    """``table * log_width``: plus an entry number, the index in a raveled log array."""
    bit: SeatSets
    """``1 << seat``."""
    first_from: Int8s
    """``first_from[start << num_seats | queue]``: the first seat of ``queue`` at or after
    ``start`` clockwise, -1 for an empty queue."""
    after: Index
    """``after[seat]``: the index of ``first_from`` for the seat on its left, empty queue."""
    next_seat: Int8s
    """``next_seat[seat]``: the seat on its left."""
    small_blind_seat: Int8s
    """Seat posting the small blind, by button (the button itself heads-up)."""
    big_blind_seat: Int8s
    """Seat posting the big blind, by button."""
    blinds: Chips
    """``blinds[button, seat]``: the blind each seat owes."""
    bet_sizes: Chips
    """Fixed bet increment by street."""
    caps: Int16s
    """Most bets by street, the big blind counting pre-flop."""

    @classmethod
    def of(cls, rules: Rules, num_tables: int) -> Layout:
        """The layout of ``num_tables`` tables of ``rules``."""
        n = rules.num_seats
        seats = np.arange(n)
        width = max_decisions(rules) + 1
        heads_up = n == 2
        # first_from[start, queue]: rotate the queue so that ``start`` is bit 0, take the
        # lowest set bit.
        queues = np.arange(1 << n)
        first_from = np.full((n, 1 << n), -1, dtype=np.int8)
        for start in range(n):
            for offset in reversed(range(n)):
                seat = (start + offset) % n
                first_from[start, (queues >> seat) & 1 == 1] = seat
        next_seat = (seats + 1) % n
        small = seats if heads_up else (seats + 1) % n
        big = (seats + 1) % n if heads_up else (seats + 2) % n
        blinds = np.zeros((n, n), dtype=CHIPS)
        blinds[seats, small] = rules.small_blind
        blinds[seats, big] = rules.big_blind
        return cls(
            num_tables=num_tables,
            num_seats=n,
            log_width=width,
            tables=np.arange(num_tables, dtype=np.intp),
            seats=seats.astype(np.int8),
            place=((seats[np.newaxis, :] - seats[:, np.newaxis] - 1) % n).astype(np.int8),
            seat_offset=seats.astype(np.intp) * num_tables,
            log_base=np.arange(num_tables, dtype=np.intp) * width,
            bit=(1 << seats).astype(np.uint16),
            first_from=first_from.reshape(-1),
            after=(next_seat << n).astype(np.intp),
            next_seat=next_seat.astype(np.int8),
            small_blind_seat=small.astype(np.int8),
            big_blind_seat=big.astype(np.int8),
            blinds=blinds,
            bet_sizes=np.array(rules.bet_sizes, dtype=CHIPS),
            caps=np.array(rules.max_bets, dtype=np.int16),
        )
