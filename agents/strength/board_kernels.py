"""Compiled ranking of whole boards with no own hand to count: the local best response's
roll-outs (``rollout_rows``) and one board's subsets for its all-holdings values of Loki
(``board_subset_ranks``), built on ``agents.strength.street_kernels``' ranking blocks.

These kernels call another module's kernels, so they are compiled without a disk cache
(``agents.jit.uncached_kernel``): a cached copy would keep running the blocks' old code after
an edit there. They compile once per process, in about a second.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import uncached_kernel
from agents.strength.street_kernels import (
    MOST_PAIRS,
    MOST_TRIPLES,
    multiset_ranks,
    rank_block,
    set_board,
)

__all__ = ["board_subset_ranks", "rollout_rows"]


@uncached_kernel
def rollout_rows(
    holes: npt.NDArray[np.int64],
    boards: npt.NDArray[np.int64],
    board_len: npt.NDArray[np.int64],
    sample: npt.NDArray[np.int64],
    card_keys: npt.NDArray[np.int64],
    flush_keys: npt.NDArray[np.int64],
    rank_keys: npt.NDArray[np.int64],
    pair_index: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    score_out: npt.NDArray[np.float64],
    count_out: npt.NDArray[np.int32],
) -> None:
    """Per row, the own hand's showdown score (1 ahead, 1/2 tied) against every holding summed
    over the completions of its board by ``sample`` (positions among the cards it does not
    see, ascending), and how many completions each holding meets none of; the ranking of
    ``street_rows`` on each completed board, summed without writing it out."""
    known = np.empty(52, dtype=np.bool_)
    unseen = np.empty(52, dtype=np.int64)
    on_board = np.empty(52, dtype=np.bool_)
    slots = np.empty(52, dtype=np.int64)
    keys = np.empty(52, dtype=np.int64)
    masks = np.empty(52, dtype=np.int64)
    card_rank = np.empty(52, dtype=np.int64)
    own = np.empty(52, dtype=np.bool_)
    board_counts = np.empty(13, dtype=np.int64)
    table = np.empty(13 * 13 * 13, dtype=np.int16)
    ranks = np.empty(MOST_PAIRS, dtype=np.int16)
    rare = np.empty(MOST_PAIRS, dtype=np.int32)
    full = np.empty(5, dtype=np.int64)
    for row in range(holes.shape[0]):
        n = board_len[row]
        known[:] = False
        known[holes[row, 0]] = True
        known[holes[row, 1]] = True
        for b in range(n):
            known[boards[row, b]] = True
            full[b] = boards[row, b]
        u = 0
        for card in range(52):
            if not known[card]:
                unseen[u] = card
                u += 1
        score, count = score_out[row], count_out[row]
        score[:] = 0.0
        count[:] = 0
        for s in range(sample.shape[0]):
            for b in range(n, 5):
                full[b] = unseen[sample[s, b - n]]
            board_key, board_mask, m, low, high = set_board(
                full,
                5,
                holes[row],
                card_keys,
                flush_keys,
                on_board,
                board_counts,
                slots,
                keys,
                masks,
                card_rank,
                own,
            )
            multiset_ranks(board_key, board_counts, 2, rank_keys, offs, look, table)
            rank_block(
                board_key, board_mask, 0, m, keys, masks, card_rank, table, flush, ranks, rare, 0
            )
            mine = ranks[high * (high - 1) // 2 + low]
            for j in range(1, m):
                if own[j]:
                    continue
                holdings = pair_index[slots[j]]
                base = j * (j - 1) // 2
                for i in range(j):
                    if own[i]:
                        continue
                    h = holdings[slots[i]]
                    rank = ranks[base + i]
                    score[h] += 1.0 if mine > rank else (0.5 if mine == rank else 0.0)
                    count[h] += 1


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
) -> int:
    """One board's slots (``slots_out[:m]``), the ranks of its slot pairs (``pairs_out``,
    colex) and, with a card to come (``n < 5``), of its slot triples (``triples_out``,
    colex), ranked as ``street_rows`` ranks them but with no own hand; returns ``m``. For the
    all-holdings values of ``agents.lbr.loki_kernels``."""
    on_board = np.empty(52, dtype=np.bool_)
    board_counts = np.empty(13, dtype=np.int64)
    keys = np.empty(52, dtype=np.int64)
    masks = np.empty(52, dtype=np.int64)
    card_rank = np.empty(52, dtype=np.int64)
    own = np.empty(52, dtype=np.bool_)
    table = np.empty(13 * 13 * 13, dtype=np.int16)
    rare = np.empty(MOST_TRIPLES, dtype=np.int32)  # not needed here; rank_block writes it
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
    multiset_ranks(board_key, board_counts, 2, rank_keys, offs, look, table)
    rank_block(
        board_key, board_mask, 0, m, keys, masks, card_rank, table, flush, pairs_out, rare, 0
    )
    if n < 5:
        multiset_ranks(board_key, board_counts, 3, rank_keys, offs, look, table)
        for k in range(2, m):
            rank_block(
                board_key + keys[k],
                board_mask + masks[k],
                169 * card_rank[k],
                k,
                keys,
                masks,
                card_rank,
                table,
                flush,
                triples_out[k * (k - 1) * (k - 2) // 6 :],
                rare,
                0,
            )
    return m
