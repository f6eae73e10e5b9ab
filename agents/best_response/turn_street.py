"""The turn street of one flop: every turn round's values for every holding, and the flop's.

Drives the compiled kernels of ``agents.best_response.turn_kernels``: per representative turn
card of the flop's suit symmetry (``agents.best_response.flop_symmetry``), the river
continuations of one holding per class and the turn rounds backed up on them, added up with
the turn's weight; then the flop rounds backed up on the mean over the turn cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.best_response.flop_symmetry import FlopSymmetry
from agents.best_response.round_program import NONE, RoundProgram, source_rows
from agents.best_response.turn_kernels import add_turn_values, back_up_columns

__all__ = ["RiverLines", "back_up_rounds", "turn_values"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

_BLOCK = 128
"""Holdings backed up together, so that their continuation and node rows stay cached."""


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
    out = np.zeros((len(pairs), (len(program.starts) - 1) * quantities))
    for turn, weight in zip(symmetry.turns, symmetry.turn_weights, strict=True):
        add_turn_values(
            int(turn),
            symmetry.flop_suits,
            symmetry.card_rank,
            symmetry.card_suit,
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
    return np.ascontiguousarray(out.T)


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
    back_up_columns(
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
