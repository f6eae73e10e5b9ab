"""Compiled turn street of one flop: river continuations and turn backups per holding.

For a turn card and a holding, each river round's continuation is the mean of its river table
over the 46 river cards; the tables are ``a + b * n`` on each bin of numerators
(``agents.best_response.flops``), so the mean is, per bin, ``a`` times how many rivers fall
in it plus ``b`` times the sum of their numerators. A holding's rivers fall in few of the bins
(about 3 of 22 against ``random``), so only those are added, for every river round of every
seat at once. The turn rounds are then backed up on those continuations (``RoundProgram``),
node by node over a block of holdings, doing what ``agents.best_response.backup.backup`` does
per array: the bot's average in ``Action`` order, the learner's preferred action among those
within ``tolerance`` of the best (check/call, then bet/raise, then fold), and the counts of
post-flop bets/raises and calls.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.best_response.flop_symmetry import FlopSymmetry
from agents.best_response.round_program import NONE, RoundProgram, source_rows
from agents.jit import kernel
from envs.rules import Action

__all__ = ["RiverLines", "back_up_rounds", "turn_values"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

_BLOCK = 128
"""Holdings backed up together: 64 columns of the ~100 continuation rows fit in 64 KiB."""
_CALL, _RAISE, _FOLD = int(Action.CALL), int(Action.RAISE), int(Action.FOLD)


@kernel
def _histograms(
    turn: int,
    numerators: npt.NDArray[np.int16],
    board_row: IntArray,
    board_map: IntArray,
    pair_maps: IntArray,
    pairs: IntArray,
    bin_of: IntArray,
    rivers: npt.NDArray[np.int32],
    sums: npt.NDArray[np.int32],
) -> None:
    """``rivers[p, b]`` and ``sums[p, b]``: how many rivers put holding ``p`` in numerator bin
    ``b`` after ``turn``, and the sum of their numerators (board by board: rows stay cached);
    the last bin counts the rivers that clash with the holding."""
    rivers[:] = 0
    sums[:] = 0
    for r in range(board_row.shape[0]):
        if r == turn:
            continue
        # Holdings that clash with the board read a numerator whose bin is the extra last one.
        row = numerators[board_row[turn, r]]
        if board_map[turn, r] == 0:  # the board is its own representative
            for p in range(pairs.shape[0]):
                n = np.int64(row[p])
                b = bin_of[n]
                rivers[p, b] += 1
                sums[p, b] += n
        else:
            images = pair_maps[board_map[turn, r]]
            for p in range(pairs.shape[0]):
                n = np.int64(row[images[p]])
                b = bin_of[n]
                rivers[p, b] += 1
                sums[p, b] += n


@kernel
def _continuations(
    rivers: npt.NDArray[np.int32],
    sums: npt.NDArray[np.int32],
    intercept: Array,
    slope: Array,
    lo: int,
    hi: int,
    column: Array,
    following: Array,
) -> None:
    """``following[j, p - lo]``: river row ``j``'s mean over the rivers of holding ``p`` in
    ``lo..hi-1``, from the bins it meets only. ``intercept`` and ``slope`` are ``(bins, rows)``
    and ``(bins, sloped)`` lines already divided by the number of rivers: only the first
    ``sloped`` rows rise within a bin (values; action counts are flat). ``column`` is scratch."""
    bins, rows = intercept.shape
    width, sloped = np.uint64(rows), np.uint64(slope.shape[1])
    for p in range(lo, hi):
        column[:] = 0.0
        for b in range(bins):
            if rivers[p, b]:
                count, total = float(rivers[p, b]), float(sums[p, b])
                flat, rising = intercept[b], slope[b]
                for j in range(width):
                    column[j] += flat[j] * count
                for j in range(sloped):
                    column[j] += rising[j] * total
        for j in range(rows):
            following[j, p - lo] = column[j]


@kernel
def _back_up(
    starts: IntArray,
    bot: npt.NDArray[np.bool_],
    facing: npt.NDArray[np.bool_],
    legal: npt.NDArray[np.bool_],
    source: IntArray,
    probability: Array,
    quantities: int,
    tolerance: float,
    node_rows: int,
    rows: Array,
    chosen: npt.NDArray[np.int8],
    entries: int,
    out: Array,
) -> None:
    """Back up every round for the first ``entries`` columns of ``rows``: ``out[k *
    quantities + q]`` is round ``k``'s root. ``rows`` holds the next street's values and the
    chip amounts, where ``source[node, action, q]`` reads them, and from row ``node_rows`` on
    the values of the current round's nodes (``quantities`` rows each)."""
    # Rows are taken as 1-d views and columns counted unsigned: no negative-index fix-up then
    # stops the loops from running in SIMD lanes.
    minus_infinity = node_rows - 1
    n = np.uint64(entries)
    for k in range(starts.shape[0] - 1):
        first = starts[k]
        for local in range(starts[k + 1] - first - 1, -1, -1):
            node = first + local
            base = node_rows + local * quantities
            if bot[node]:
                # The bot's average in ``Action`` order; an action it never takes adds
                # 0.0 times the zero row, which changes no sum.
                fold_p, call_p, raise_p = (
                    probability[node, 0],
                    probability[node, 1],
                    probability[node, 2],
                )
                for q in range(quantities):
                    target = rows[base + q]
                    fold = rows[source[node, _FOLD, q]]
                    call = rows[source[node, _CALL, q]]
                    raise_ = rows[source[node, _RAISE, q]]
                    for e in range(n):
                        target[e] = fold_p * fold[e] + call_p * call[e] + raise_p * raise_[e]
                continue
            # Check/call is always legal; an illegal raise or fold reads minus infinity, so
            # that the choice is a select.
            call = rows[source[node, _CALL, 0]]
            raise_ = rows[source[node, _RAISE, 0] if legal[node, _RAISE] else minus_infinity]
            fold = rows[source[node, _FOLD, 0] if legal[node, _FOLD] else minus_infinity]
            for e in range(n):
                c, r, f = call[e], raise_[e], fold[e]
                threshold = max(c, max(r, f)) - tolerance
                chosen[e] = _CALL if c >= threshold else (_RAISE if r >= threshold else _FOLD)
            for q in range(quantities):
                target = rows[base + q]
                call = rows[source[node, _CALL, q]]
                raise_ = rows[source[node, _RAISE, q]]
                fold = rows[source[node, _FOLD, q]]
                for e in range(n):
                    choice = chosen[e]
                    target[e] = (
                        call[e]
                        if choice == _CALL
                        else (raise_[e] if choice == _RAISE else fold[e])
                    )
            if quantities > 1:
                called = 1.0 if facing[node] else 0.0
                raises, calls = rows[base + 1], rows[base + 2]
                for e in range(n):
                    raises[e] += 1.0 if chosen[e] == _RAISE else 0.0
                    calls[e] += called if chosen[e] == _CALL else 0.0
        for q in range(quantities):
            out[k * quantities + q, :entries] = rows[node_rows + q, :entries]


@kernel
def _turn(
    turn: int,
    numerators: npt.NDArray[np.int16],
    board_row: IntArray,
    board_map: IntArray,
    pair_maps: IntArray,
    pairs: IntArray,
    bin_of: IntArray,
    intercept: Array,
    slope: Array,
    chips: Array,
    starts: IntArray,
    bot: npt.NDArray[np.bool_],
    facing: npt.NDArray[np.bool_],
    legal: npt.NDArray[np.bool_],
    source: IntArray,
    probability: Array,
    quantities: int,
    tolerance: float,
    node_rows: int,
    rows: Array,
    weight: float,
    out: Array,
) -> None:
    """``out[:, p]`` += ``weight`` times every turn round's root values for holding ``p``
    after ``turn``, nothing for the holdings holding it. Holdings go in blocks of
    ``rows.shape[1]`` (``rows`` being scratch laid out as ``source_rows`` says), so that a
    block's continuations and node values stay cached."""
    count = pairs.shape[0]
    bins, following = intercept.shape
    block = rows.shape[1]
    rivers = np.empty((count, bins + 1), dtype=np.int32)
    sums = np.empty((count, bins + 1), dtype=np.int32)
    _histograms(turn, numerators, board_row, board_map, pair_maps, pairs, bin_of, rivers, sums)
    for c in range(chips.shape[0]):
        rows[following + c, :] = chips[c]
    rows[node_rows - 1, :] = -np.inf
    column = np.empty(following)
    chosen = np.empty(block, dtype=np.int8)
    result = np.empty((out.shape[0], block))
    for lo in range(0, count, block):
        hi = min(count, lo + block)
        _continuations(rivers, sums, intercept, slope, lo, hi, column, rows)
        _back_up(
            starts,
            bot,
            facing,
            legal,
            source,
            probability,
            quantities,
            tolerance,
            node_rows,
            rows,
            chosen,
            hi - lo,
            result,
        )
        for p in range(lo, hi):
            if pairs[p, 0] != turn and pairs[p, 1] != turn:
                for j in range(out.shape[0]):
                    out[j, p] += weight * result[j, p - lo]


@dataclass(frozen=True, eq=False)
class RiverLines:
    """The river tables as lines on each numerator bin, identical rows stored once."""

    bin_of: IntArray
    """``(grid + 2,)`` bin of each numerator (the last entry unused)."""
    intercept: Array
    """``(rows, bins)`` per stored row, the table's value at numerator 0 of each bin's line."""
    slope: Array
    """``(sloped, bins)``: the slopes of the first ``sloped`` stored rows (the others are flat
    on every bin: the action counts, and values that never depend on the equity)."""
    row_of: IntArray
    """The stored row of each river row (as ``RoundProgram.ref`` numbers them)."""


def turn_values(
    symmetry: FlopSymmetry,
    numerators: npt.NDArray[np.int16],
    pairs: IntArray,
    lines: RiverLines,
    program: RoundProgram,
    quantities: int,
    tolerance: float,
) -> Array:
    """``(rounds * quantities, P)``: each turn round's values at its root for every holding,
    summed over the representative turn cards of ``symmetry`` with their weights (holdings
    holding a turn card get nothing from it).

    ``numerators`` holds the rows of ``symmetry.boards``.
    """
    following = len(lines.intercept)
    source, node_rows = source_rows(program, quantities, following, lines.row_of)
    most = int(np.diff(program.starts).max())
    rows = np.empty((node_rows + most * quantities, _BLOCK))
    rivers = len(symmetry.board_row) - 3
    a = np.ascontiguousarray(lines.intercept.T) / rivers
    b = np.ascontiguousarray(lines.slope.T) / rivers
    out = np.zeros(((len(program.starts) - 1) * quantities, len(pairs)))
    for turn, weight in zip(symmetry.turns, symmetry.turn_weights, strict=True):
        _turn(
            int(turn),
            numerators,
            symmetry.board_row,
            symmetry.board_map,
            symmetry.pair_maps,
            pairs,
            lines.bin_of,
            a,
            b,
            program.chips,
            program.starts,
            program.bot,
            program.facing,
            program.kind != NONE,
            source,
            program.probability,
            quantities,
            tolerance,
            node_rows,
            rows,
            float(weight),
            out,
        )
    return out


def back_up_rounds(
    program: RoundProgram, quantities: int, tolerance: float, following: Array
) -> Array:
    """``(rounds * quantities, entries)``: every round of ``program`` backed up at once over
    the entries of ``following`` (the next street's values, rows as ``program.ref``)."""
    source, node_rows = source_rows(program, quantities, len(following))
    most = int(np.diff(program.starts).max())
    entries = following.shape[1]
    rows = np.empty((node_rows + most * quantities, entries))
    rows[: len(following)] = following
    rows[len(following) : node_rows - 1] = program.chips[:, np.newaxis]
    rows[node_rows - 1] = -np.inf
    out = np.empty(((len(program.starts) - 1) * quantities, entries))
    _back_up(
        program.starts,
        program.bot,
        program.facing,
        program.kind != NONE,
        source,
        program.probability,
        quantities,
        tolerance,
        node_rows,
        rows,
        np.empty(entries, dtype=np.int8),
        entries,
        out,
    )
    return out
