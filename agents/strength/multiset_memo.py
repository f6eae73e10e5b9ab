"""The roll-outs' memo of five-card boards by rank multiset (``rank_multiset_tables``) and its
index (``multiset_index``): a completed board that makes no flush ranks every two-card hand by
its ranks alone, so the table of one rank multiset serves every board of those ranks."""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from agents.jit import kernel

__all__ = ["MULTISETS", "multiset_index", "rank_multiset_tables"]

MULTISETS = 6188
"""Multisets of five ranks, C(17, 5): the boards' rank multisets."""


@cache
def rank_multiset_tables() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.bool_]]:
    """The per-process memo of the roll-outs: per five-card rank multiset (indexed as
    ``multiset_index`` ranks them) its table of ``multiset_ranks``, and whether it is filled
    yet (2 MB; a table depends on the ranks alone, so it never goes stale)."""
    return np.zeros((MULTISETS, 169), dtype=np.int16), np.zeros(MULTISETS, dtype=np.bool_)


def _rank_runs() -> npt.NDArray[np.int64]:
    """Per rank ``r``, place ``i`` among the sorted five and count ``c``, the colex terms of a
    run of ``c`` copies of ``r`` from place ``i``: the sum over ``j < c`` of
    C(r + i + j, i + j + 1)."""
    runs = np.zeros((13, 6, 6), dtype=np.int64)
    for rank in range(13):
        for place in range(6):
            for count in range(1, 6 - place):
                runs[rank, place, count] = sum(
                    comb(rank + place + j, place + j + 1) for j in range(count)
                )
    return runs


_RUNS = _rank_runs()
"""``multiset_index``'s terms by rank, place and count: one read per rank (a loop per copy of
a rank mispredicts its branches, and cost the roll-outs a fifth of their time)."""


@kernel
def multiset_index(counts: npt.NDArray[np.int64]) -> int:
    """The colex rank of the five ranks counted in ``counts`` among the 6,188 multisets: the
    sum over the ranks ascending, ``r_0 <= ... <= r_4``, of C(r_i + i, i + 1)."""
    index = 0
    place = 0
    for rank in range(13):
        count = counts[rank]
        index += _RUNS[rank, place, count]
        place += count
    return index
