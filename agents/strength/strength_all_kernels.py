"""The compiled loop of HS1 of every holding on many boards (``StreetTables.hs1``).

Row by row, the same numbers as ``agents.strength.hand_strength_all(board)`` (uniform
weights): each holding ``h`` is rated as its owner sees the board, HS1 = (below + tied / 2) /
total over the holdings disjoint from ``h`` and the board (Papp 1998 section 7.2.3). The input
is the ranks of the slot pairs (the non-board cards, ascending; pair ``{i < j}`` at ``C(j, 2) +
i``) that ``agents.strength.street_kernels.street_rows`` computes.

The card-removal correction of the reference is exact counting:

    2 below + tied  =  over all pairs  -  over the pairs through card a  -  through b  + 1

(an integer, halved at the end; the pair itself counts once in each term). Over all pairs it
is ``below(r) + below_or_tied(r)`` of a cumulative histogram of the ranks; over the pairs
through card ``a`` it comes from row ``a`` of the symmetric matrix of pair ranks, compared in
SIMD lanes (rows padded to 64 with a rank above every rank).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs import _evaluator_tables as _t

__all__ = ["strength_all_rows"]

_WIDTH = 64
_ABOVE = 0x7FFF  # above every rank: never below nor tied


@kernel
def strength_all_rows(
    boards: npt.NDArray[np.int64],
    board_len: npt.NDArray[np.int64],
    pair_ranks: npt.NDArray[np.int16],
    pair_index: npt.NDArray[np.int64],
    hs1_out: npt.NDArray[np.float64],
    out_rows: npt.NDArray[np.int64],
) -> None:
    """``hs1_out[out_rows[row]]`` of every holding on ``boards[row, :board_len[row]]`` from
    the ranks of its slot pairs ``pair_ranks[row]``; NaN where the holding meets the board."""
    u = np.uint64
    width = u(_WIDTH)
    slots = np.empty(52, dtype=np.int64)
    on_board = np.empty(52, dtype=np.bool_)
    histogram = np.empty(_t.NUM_RANKS + 1, dtype=np.int16)
    matrix = np.empty(_WIDTH * _WIDTH, dtype=np.int16)
    scores = np.empty(_WIDTH * _WIDTH, dtype=np.int16)
    for row in range(boards.shape[0]):
        on_board[:] = False
        for b in range(board_len[row]):
            on_board[boards[row, b]] = True
        m = 0
        for card in range(52):
            if not on_board[card]:
                slots[m] = card
                m += 1
        ranks = pair_ranks[row]
        pairs = m * (m - 1) // 2
        histogram[:] = 0
        for p in range(pairs):
            histogram[ranks[p]] += 1
        running = 0
        for r in range(histogram.shape[0]):  # now 2 below(r) + tied(r)
            count = histogram[r]
            histogram[r] = 2 * running + count
            running += count
        matrix[:] = _ABOVE
        p = 0
        for j in range(u(1), u(m)):
            for i in range(j):
                matrix[i * width + j] = ranks[p]
                matrix[j * width + i] = ranks[p]
                p += 1
        for a in range(u(m)):
            row_a = a * width
            for x in range(u(m)):
                value = matrix[row_a + x]
                score = np.int16(0)
                for y in range(width):
                    below = matrix[row_a + y]
                    score += np.int16(below < value) + np.int16(below <= value)
                scores[row_a + x] = score
        hs1 = hs1_out[out_rows[row]]
        hs1[:] = np.nan
        total = pairs - 2 * (m - 1) + 1
        p = 0
        for j in range(u(1), u(m)):
            holdings = pair_index[slots[j]]
            for i in range(j):
                score = histogram[ranks[p]] - scores[i * width + j] - scores[j * width + i] + 1
                # (below + tied / 2) / total, as the reference computes it (exact halves)
                hs1[holdings[slots[i]]] = (np.float64(score) * 0.5) / total
                p += 1
