"""Per-table parameters of the batched BPPs: one ``BPPParams`` or ``CurvesParams`` per table.

A batched agent plays a parameter set at each of its N tables (so that many tuning candidates
play in one batch); the sets are stored as arrays over the tables, per-round values as
``(N, 4)`` and scalars as ``(N,)``, and a decision reads its row's values by fancy indexing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from agents.bpp.params import BPPParams, CurvesParams

__all__ = ["BPPParamArrays", "CurvesParamArrays", "check_num_tables", "per_table"]

Array = npt.NDArray[np.float64]
P = TypeVar("P", BPPParams, CurvesParams)


def check_num_tables(num_tables: object) -> None:
    """``TypeError`` unless ``num_tables`` is an integer, ``ValueError`` unless positive."""
    if isinstance(num_tables, bool) or not isinstance(num_tables, int | np.integer):
        raise TypeError(f"num_tables must be an integer, got {num_tables!r}")
    if num_tables < 1:
        raise ValueError(f"num_tables must be positive, got {num_tables}")


def per_table(params: P | Sequence[P] | None, num_tables: int, kind: type[P]) -> list[P]:
    """The parameter set of each table: one set for all, or exactly one per table.

    Raises:
        TypeError: if a set is not a ``kind``.
        ValueError: if a sequence does not hold ``num_tables`` sets.
    """
    if params is None:
        return [kind()] * num_tables
    if isinstance(params, kind):
        return [params] * num_tables
    if not isinstance(params, Sequence) or isinstance(params, str | bytes):
        raise TypeError(
            f"params must be a {kind.__name__} or a sequence of them, got {type(params).__name__}"
        )
    sets = list(params)
    if len(sets) != num_tables:
        raise ValueError(
            f"params must hold one {kind.__name__} per table ({num_tables}), got {len(sets)}"
        )
    for table, p in enumerate(sets):
        if not isinstance(p, kind):
            raise TypeError(f"params[{table}] must be a {kind.__name__}, got {type(p).__name__}")
    return sets


def _column(sets: Sequence[object], name: str) -> Array:
    """One field of every set as an array: ``(N, 4)`` per round, ``(N,)`` for a scalar."""
    values = [getattr(p, name) for p in sets]
    if all(v is values[0] for v in values):  # one shared set: no per-table conversion
        first = np.asarray(values[0], dtype=np.float64)
        return np.broadcast_to(first, (len(sets), *first.shape)).copy()
    return np.array(values, dtype=np.float64)


@dataclass(frozen=True, eq=False)
class BPPParamArrays:
    """``BPPParams`` of N tables (see its fields), per-round fields ``(N, 4)``."""

    alpha: Array
    alpha_prime: Array
    fp: Array
    cp: Array
    bluff_rate: Array
    """``(N,)``."""
    prior_weight: Array
    """``(N,)``."""

    @classmethod
    def of(cls, params: BPPParams | Sequence[BPPParams] | None, num_tables: int) -> BPPParamArrays:
        """The arrays of ``per_table(params, num_tables)``."""
        sets = per_table(params, num_tables, BPPParams)
        names = ("alpha", "alpha_prime", "fp", "cp", "bluff_rate", "prior_weight")
        return cls(*(_column(sets, name) for name in names))

    @property
    def nbytes(self) -> int:
        """Bytes of all arrays."""
        arrays = (self.alpha, self.alpha_prime, self.fp, self.cp, self.bluff_rate)
        return sum(a.nbytes for a in arrays) + self.prior_weight.nbytes


@dataclass(frozen=True, eq=False)
class CurvesParamArrays:
    """``CurvesParams`` of N tables (see its fields), per-round fields ``(N, 4)``."""

    fold_shift: Array
    call_shift: Array
    bet_shift: Array
    steepness: Array
    """``(N,)``."""
    bluff_rate: Array
    """``(N,)``."""
    prior_weight: Array
    """``(N,)``."""

    @classmethod
    def of(
        cls, params: CurvesParams | Sequence[CurvesParams] | None, num_tables: int
    ) -> CurvesParamArrays:
        """The arrays of ``per_table(params, num_tables)``."""
        sets = per_table(params, num_tables, CurvesParams)
        names = ("fold_shift", "call_shift", "bet_shift", "steepness", "bluff_rate")
        return cls(*(_column(sets, name) for name in (*names, "prior_weight")))

    @property
    def nbytes(self) -> int:
        """Bytes of all arrays."""
        arrays = (self.fold_shift, self.call_shift, self.bet_shift, self.steepness)
        return sum(a.nbytes for a in arrays) + self.bluff_rate.nbytes + self.prior_weight.nbytes
