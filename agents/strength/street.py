"""Loki's hand values of many (own hand, board) rows, one street each, in compiled loops.

At a post-flop decision Loki needs HS1 and PPOTc of every holding (to re-weight its opponents,
Papp 1998 section 7.2.3) and HSn and PPOT1 of its own hand against the field array (to bet,
Papp sections 5.2, 5.3 and 7.3). Only the last two depend on the opponents' weights, and only
through a weighted sum over the holdings of weight-independent counts. So the work splits in
two:

* ``street_tables`` ranks, per row, every 2-subset of the non-board cards (the holdings now)
  and, with a card to come, every 3-subset (a holding and the next card: C(49, 3) = 18,424 on
  the flop, 17,296 on the turn) once, and derives ``StreetTables`` from those ranks by
  counting (``street_kernels``: ranks and the own hand's counts; ``strength_all_kernels``:
  HS1; ``ppotc_kernels``: PPOTc);
* ``field_values`` turns the tables and a field weight table into (HSn, PPOT1) by one
  weighted pass over the holdings, with no ranking, at every decision of the street.

``field_potential2`` is PPOT2 (two cards to come on the flop), for Loki's ``lookahead=2``.
Both the scalar and the batched Loki call these (one row for the scalar), so they agree bit
for bit: every row is computed alone, in the same order whatever the batch. The NumPy
functions of ``agents.strength`` stay the references the tests compare to: HS1, HSn, PPOT1
and PPOT2 equal them to the last bit (the kernels add in their order), PPOTc to about 1e-16
(the reference's weighted sum is a BLAS product).

>>> from envs.cards import parse_cards
>>> hole, board = np.array([parse_cards("AdQc")]), np.array([parse_cards("3h4cJh")])
>>> tables = street_tables(hole, board, np.array([3]))
>>> hsn, ppot = field_values(tables, np.ones((1, NUM_HOLDINGS)), np.array([1]))
>>> round(float(hsn[0]), 3), round(float(ppot[0]), 3)  # Papp 1998 section 5.2; ours
(0.585, 0.108)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.strength.field_kernels import field_rows, potential2_rows
from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.ppotc_kernels import ppotc_rows
from agents.strength.street_checks import checked_field, checked_rows, checked_targets
from agents.strength.street_constants import kernel_constants
from agents.strength.street_kernels import MOST_PAIRS, MOST_TRIPLES, street_rows
from agents.strength.strength_all_kernels import strength_all_rows

__all__ = [
    "DEAD",
    "StreetTables",
    "field_potential2",
    "field_values",
    "showdown_counts",
    "street_tables",
]

DEAD = -128
"""``StreetTables.versus`` of a holding that meets the board or the own cards."""

_CHUNK = 8
"""Rows per pass of the three kernels, so that what they pass each other (a row's pair ranks
and the triples ranked a straight or better) is still in the cache when read."""

Ints = npt.NDArray[np.integer]
Int64s = npt.NDArray[np.int64]


@dataclass(frozen=True)
class StreetTables:
    """Weight-independent values of k (own hand, board) rows, one street each.

    Holdings are indexed as ``agents.strength.holdings.HOLDINGS``; 26 KB a row.
    """

    hs1: npt.NDArray[np.float64]
    """``(k, 1326)`` HS1 of every holding vs a uniform opponent as its owner sees the board
    (``agents.strength.hand_strength_all(board)``, Papp 1998 section 7.2.3); NaN where the
    holding meets the board."""
    ppotc: npt.NDArray[np.float64]
    """``(k, 1326)`` PPOTc of every holding (``agents.strength.ppot_c(board)``, Papp section
    7.2.3); 0 on the river; NaN where the holding meets the board."""
    versus: npt.NDArray[np.int8]
    """``(k, 1326)`` own hand now against holding h: +1 ahead, 0 tied, -1 behind (Papp
    section 5.2); ``DEAD`` where h meets the board or the own cards."""
    after: npt.NDArray[np.uint8]
    """``(k, 1326, 3)`` one card to come (flop, turn): over the next cards disjoint from the
    board, the own cards and h, how many leave the own hand ahead / tied / behind h (the
    ``HP`` counts of Papp section 5.3); zeros on the river and where ``versus`` is ``DEAD``."""

    def __post_init__(self) -> None:
        k = len(self.hs1)
        checks: list[tuple[str, npt.NDArray[Any], tuple[int, ...], type[np.generic]]] = [
            ("hs1", self.hs1, (k, NUM_HOLDINGS), np.float64),
            ("ppotc", self.ppotc, (k, NUM_HOLDINGS), np.float64),
            ("versus", self.versus, (k, NUM_HOLDINGS), np.int8),
            ("after", self.after, (k, NUM_HOLDINGS, 3), np.uint8),
        ]
        for name, array, shape, dtype in checks:
            if array.shape != shape or array.dtype != dtype:
                raise ValueError(
                    f"StreetTables.{name} must be {np.dtype(dtype)} of shape {shape}, "
                    f"got {array.dtype} of shape {array.shape}"
                )

    @property
    def rows(self) -> int:
        """k, the number of rows."""
        return len(self.hs1)

    def take(self, rows: Ints) -> StreetTables:
        """The tables of ``rows`` (indices into the k rows, in their order)."""
        index = np.asarray(rows)
        return StreetTables(
            hs1=self.hs1[index],
            ppotc=self.ppotc[index],
            versus=self.versus[index],
            after=self.after[index],
        )


def street_tables(
    holes: Ints,
    boards: Ints,
    board_len: Ints,
    *,
    out: StreetTables | None = None,
    at: Ints | None = None,
) -> StreetTables:
    """The ``StreetTables`` of k rows: row i holds ``holes[i]`` on ``boards[i, :board_len[i]]``.

    Args:
        holes: ``(k, 2)`` own card ids 0..51.
        boards: ``(k, w)`` card ids, ``w`` in 3..5; only the first ``board_len[i]`` cells of
            row i are read (the rest may hold anything).
        board_len: ``(k,)`` 3 (flop), 4 (turn) or 5 (river), at most ``w``.
        out: Tables to write into instead of new ones (e.g. a batch's memory of every table),
            row i into row ``at[i]``; ``out`` is returned.
        at: ``(k,)`` distinct rows of ``out`` (only with ``out``).

    Raises:
        ValueError: on other shapes or lengths, a card id outside 0..51, a card twice in a
            row (hole and board together), or ``at`` that does not fit ``out``.
    """
    hole_array, board_array, lengths = checked_rows(holes, boards, board_len)
    k = len(hole_array)
    if out is None:
        if at is not None:
            raise ValueError("at= needs out=")
        out = StreetTables(
            hs1=np.empty((k, NUM_HOLDINGS)),
            ppotc=np.empty((k, NUM_HOLDINGS)),
            versus=np.empty((k, NUM_HOLDINGS), dtype=np.int8),
            after=np.empty((k, NUM_HOLDINGS, 3), dtype=np.uint8),
        )
        target = np.arange(k, dtype=np.int64)
    else:
        target = checked_targets(at, k, out.rows)
    scratch = _Scratch.allocate(min(k, _CHUNK))
    for start in range(0, k, _CHUNK):
        rows = slice(start, start + _CHUNK)
        chunk = scratch.head(len(lengths[rows]))
        _rank_chunk(
            chunk,
            hole_array[rows],
            board_array[rows],
            lengths[rows],
            out.versus,
            out.after,
            target[rows],
        )
        _strength_chunk(chunk, board_array[rows], lengths[rows], out.hs1, target[rows])
        _ppotc_chunk(chunk, board_array[rows], lengths[rows], out.ppotc, target[rows])
    return out


def showdown_counts(
    holes: Ints, boards: Ints, board_len: Ints
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint8]]:
    """``StreetTables.versus`` and ``StreetTables.after`` of k rows (as ``street_tables``'
    arguments) without HS1 and PPOTc: the own hand against every holding, now and (flop,
    turn) after each next card. On the river a row ranks only its 1,081 pairs."""
    hole_array, board_array, lengths = checked_rows(holes, boards, board_len)
    k = len(hole_array)
    versus = np.empty((k, NUM_HOLDINGS), dtype=np.int8)
    after = np.empty((k, NUM_HOLDINGS, 3), dtype=np.uint8)
    target = np.arange(k, dtype=np.int64)
    scratch = _Scratch.allocate(min(k, _CHUNK))
    for start in range(0, k, _CHUNK):
        rows = slice(start, start + _CHUNK)
        chunk = scratch.head(len(lengths[rows]))
        _rank_chunk(
            chunk, hole_array[rows], board_array[rows], lengths[rows], versus, after, target[rows]
        )
    return versus, after


class _Scratch(NamedTuple):
    """What ``street_tables``' kernels pass each other, for a chunk of rows: the ranks of the
    slot pairs and the slot triples ranked a straight or better."""

    pairs: npt.NDArray[np.int16]
    rare: npt.NDArray[np.int32]
    rare_count: npt.NDArray[np.int64]

    @classmethod
    def allocate(cls, rows: int) -> _Scratch:
        """Buffers for ``rows`` rows."""
        return cls(
            pairs=np.empty((rows, MOST_PAIRS), dtype=np.int16),
            rare=np.empty((rows, MOST_TRIPLES), dtype=np.int32),
            rare_count=np.empty(rows, dtype=np.int64),
        )

    def head(self, rows: int) -> _Scratch:
        """The buffers of the first ``rows`` rows."""
        return _Scratch(self.pairs[:rows], self.rare[:rows], self.rare_count[:rows])


def _rank_chunk(
    scratch: _Scratch,
    holes: Int64s,
    boards: Int64s,
    lengths: Int64s,
    versus: npt.NDArray[np.int8],
    after: npt.NDArray[np.uint8],
    target: Int64s,
) -> None:
    """Rank the subsets of a chunk of rows into ``scratch``; fill ``versus`` and ``after`` at
    the ``target`` rows."""
    c = kernel_constants()
    street_rows(
        holes,
        boards,
        lengths,
        c.card_keys,
        c.flush_keys,
        c.rank_keys,
        c.pair_index,
        c.offs,
        c.look,
        c.flush,
        *scratch,
        versus,
        after,
        target,
    )


def _strength_chunk(
    scratch: _Scratch,
    boards: Int64s,
    lengths: Int64s,
    hs1: npt.NDArray[np.float64],
    target: Int64s,
) -> None:
    """HS1 of every holding of a chunk of rows, from the ranks in ``scratch``."""
    strength_all_rows(boards, lengths, scratch.pairs, kernel_constants().pair_index, hs1, target)


def _ppotc_chunk(
    scratch: _Scratch,
    boards: Int64s,
    lengths: Int64s,
    ppotc: npt.NDArray[np.float64],
    target: Int64s,
) -> None:
    """PPOTc of every holding of a chunk of rows, from the ranks in ``scratch``."""
    c = kernel_constants()
    ppotc_rows(
        boards,
        lengths,
        *scratch,
        c.pair_index,
        c.categories,
        c.next_floor,
        c.flop_weights,
        c.turn_weights,
        ppotc,
        target,
    )


def field_values(
    tables: StreetTables, field: npt.ArrayLike, opponents: Ints, rows: Ints | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(HSn, PPOT1) of each row's own hand against its field weights.

    Row by row, ``hand_strength(hole, board, field, opponents=n)`` and ``hand_potential(hole,
    board, field, lookahead=1)[0]`` (0 on the river), to the last bit.

    Args:
        tables: ``street_tables`` of the k rows.
        field: ``(k, 1326)`` non-negative weights (the field array, Papp 1998 section 7.3);
            entries of dead holdings are ignored.
        opponents: ``(k,)`` n >= 1 per row: HSn = HS1 ** n (Papp eq. 5.3).
        rows: ``(k,)`` the row of ``tables`` of each row (default: all of them, in order);
            saves copying the rows out of a batch's memory.

    Raises:
        ValueError: on other shapes, negative or non-finite weights, ``opponents < 1``, or a
            row whose live holdings all weigh 0 (as ``hand_strength``; HS is undefined).
    """
    if rows is None:
        index = np.arange(tables.rows, dtype=np.int64)
    else:
        index = np.asarray(rows)
        if index.ndim != 1 or (index.size and index.dtype.kind not in "iu"):
            raise ValueError(f"rows must be a 1-d integer array, got {index.dtype} {index.shape}")
        if index.size and (int(index.min()) < 0 or int(index.max()) >= tables.rows):
            raise ValueError(f"rows must lie in 0..{tables.rows - 1}")
    k = len(index)
    weights = checked_field(field, k)
    counts = np.asarray(opponents)
    if counts.shape != (k,) or (counts.size and counts.dtype.kind not in "iu"):
        raise ValueError(f"opponents must be ({k},) integers, got {counts.dtype} {counts.shape}")
    if counts.size and int(counts.min()) < 1:
        raise ValueError(f"opponents must be at least 1, got {int(counts.min())}")
    hs1, ppot, total = (np.empty(k) for _ in range(3))
    field_rows(
        readonly(tables.versus, np.int8),
        readonly(tables.after, np.uint8),
        weights,
        kernel_constants().colex,
        hs1,
        ppot,
        total,
        readonly(index, np.int64),
    )
    empty = np.flatnonzero(~(total > 0.0))
    if empty.size:
        raise ValueError(
            f"rows {empty[:10].tolist()}: the weights of the possible opponent holdings sum "
            "to zero"
        )
    hsn: npt.NDArray[np.float64] = np.power(hs1, counts.astype(np.float64))
    return hsn, ppot


def field_potential2(holes: Ints, boards: Ints, field: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """PPOT2 (two cards to come) of each row's own hand on its flop against its field weights.

    Row by row, ``hand_potential(hole, board, field, lookahead=2)[0]`` to the last bit:
    C(47, 4) = 178,365 ranks and 1,070,190 comparisons a row, for ``LokiParams.lookahead ==
    2``.

    Args:
        holes: ``(k, 2)`` own card ids.
        boards: ``(k, w)``, ``w`` in 3..5: the flop is the first three cells (the rest is not
            read).
        field: ``(k, 1326)`` non-negative weights.

    Raises:
        ValueError: on other shapes, bad or repeated cards, or bad weights.
    """
    hole_array, board_array, _ = checked_rows(holes, boards, np.full(len(np.asarray(holes)), 3))
    weights = checked_field(field, len(hole_array))
    ppot = np.empty(len(hole_array))
    c = kernel_constants()
    potential2_rows(
        hole_array,
        board_array,
        weights,
        c.card_keys,
        c.flush_keys,
        c.rank_keys,
        c.pair_index,
        c.offs,
        c.look,
        c.flush,
        ppot,
    )
    return ppot
