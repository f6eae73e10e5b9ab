"""One board's subsets ranked with no own hand to count, for the local best response's
all-holdings values of Loki (``board_subset_ranks``), built on
``agents.strength.street_kernels``' ranking blocks.

The kernel calls another module's kernels, so it is compiled without a disk cache
(``agents.jit.uncached_kernel``): a cached copy would keep running the blocks' old code after
an edit there.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import uncached_kernel
from agents.strength.street_kernels import rank_subsets, set_board

__all__ = ["board_subset_ranks"]


@uncached_kernel
def board_subset_ranks(
    board: npt.NDArray[np.int64],
    n: int,
    card_keys: npt.NDArray[np.int64],
    flush_keys: npt.NDArray[np.int64],
    rank_keys: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    slots_out: npt.NDArray[np.int64],
    pairs_out: npt.NDArray[np.int16],
    triples_out: npt.NDArray[np.int16],
    rare_out: npt.NDArray[np.int32],
) -> tuple[int, int]:
    """One board's slots (``slots_out[:m]``), the ranks of its slot pairs (``pairs_out``,
    colex) and, with a card to come (``n < 5``), of its slot triples (``triples_out``,
    colex) and those ranked a straight or better (``rare_out``, packed and ordered as
    ``street_rows`` lists them), ranked as ``street_rows`` ranks them but with no own hand;
    returns ``m`` and the number of those triples (0 on the river). For the all-holdings
    values of ``agents.lbr.loki_kernels`` and the board's HS1 and PPOTc
    (``agents.lbr.loki_boards.board_values``)."""
    on_board = np.empty(52, dtype=np.bool_)
    board_counts = np.empty(13, dtype=np.int64)
    keys = np.empty(52, dtype=np.int64)
    masks = np.empty(52, dtype=np.int64)
    card_rank = np.empty(52, dtype=np.int64)
    own = np.empty(52, dtype=np.bool_)
    table = np.empty(13 * 13 * 13, dtype=np.int16)
    no_hole = np.full(2, -1, dtype=np.int64)
    board_key, board_mask, m, _, _ = set_board(
        board,
        n,
        no_hole,
        card_keys,
        flush_keys,
        on_board,
        board_counts,
        slots_out,
        keys,
        masks,
        card_rank,
        own,
    )
    count = rank_subsets(
        board_key, board_mask, board_counts, n, m, keys, masks, card_rank, rank_keys, offs,
        look, flush, table, pairs_out, triples_out, rare_out,
    )  # fmt: skip
    return m, count
