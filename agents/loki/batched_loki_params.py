"""Per-table parameters of the batched Loki: one ``LokiParams`` per table, as arrays.

A batched Loki plays a parameter set at each of its N tables (so that many tuning candidates
play in one batch, as ``agents.bpp.batched_params`` does for BPP). The pre-flop thresholds are
stored already resolved: each table's tightness row of Table B.1, shifted by its
``preflop_shift`` (``PreflopTable.shifted``), as ``(N, group, strategy)`` bases and increments
and ``(N, group, 2)`` small-blind Call1 / Call2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
import numpy.typing as npt

from agents.loki.params import Betting, LokiParams, Modelling, Reweighting, Tightness
from agents.loki.preflop import Group, PreflopStrategy, PreflopTable

__all__ = ["LokiParamArrays", "check_num_tables", "per_table"]

Array = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]

GROUPS = tuple(Group)
"""Group order of the pre-flop arrays: "2", "3-4", "5+"."""
STRATEGIES = (PreflopStrategy.MAKE1, PreflopStrategy.MAKE2, PreflopStrategy.MAKE4)
"""Strategy order of the pre-flop threshold arrays."""


def check_num_tables(num_tables: object) -> None:
    """``TypeError`` unless ``num_tables`` is an integer, ``ValueError`` unless positive."""
    if isinstance(num_tables, bool) or not isinstance(num_tables, int | np.integer):
        raise TypeError(f"num_tables must be an integer, got {num_tables!r}")
    if num_tables < 1:
        raise ValueError(f"num_tables must be positive, got {num_tables}")


def per_table(
    params: LokiParams | Sequence[LokiParams] | None, num_tables: int
) -> list[LokiParams]:
    """The parameter set of each table: one set for all, or exactly one per table.

    Raises:
        TypeError: if a set is not a ``LokiParams``.
        ValueError: if a sequence does not hold ``num_tables`` sets, or a set's field is
            invalid (the message names the table and the field).
    """
    check_num_tables(num_tables)
    if params is None:
        return [LokiParams()] * num_tables
    if isinstance(params, LokiParams):
        sets = [params] * num_tables
    elif not isinstance(params, Sequence):
        raise TypeError(
            f"params must be a LokiParams or a sequence of them, got {type(params).__name__}"
        )
    else:
        sets = list(params)
        if len(sets) != num_tables:
            raise ValueError(
                f"params must hold one LokiParams per table ({num_tables}), got {len(sets)}"
            )
    checked: dict[int, None] = {}
    for table, p in enumerate(sets):
        if not isinstance(p, LokiParams):
            raise TypeError(f"params[{table}] must be a LokiParams, got {type(p).__name__}")
        if id(p) not in checked:
            _recheck(p, table)
            checked[id(p)] = None
    return sets


def _recheck(params: LokiParams, table: int) -> None:
    """``LokiParams``' own checks again (a frozen set may have been altered since)."""
    try:
        LokiParams(**{f.name: getattr(params, f.name) for f in fields(LokiParams)})
    except ValueError as error:
        raise ValueError(f"params[{table}]: {error}") from None


def _floats(sets: Sequence[LokiParams], name: str) -> Array:
    return np.array([getattr(p, name) for p in sets], dtype=np.float64)


def _ints(sets: Sequence[LokiParams], name: str) -> Ints:
    return np.array([getattr(p, name) for p in sets], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class LokiParamArrays:
    """``LokiParams`` of N tables (see its fields), each field an array over the tables."""

    probability_play: Array
    preflop_base: Array
    """``(N, 3, 3)``: the Make1 / Make2 / Make4 bases of each group, shifted."""
    preflop_increment: Array
    """``(N, 3, 3)``: their increments per position."""
    small_blind: Array
    """``(N, 3, 2)``: the small blind's Call1 and Call2 of each group, shifted."""
    make1: Array
    make2: Array
    lookahead: Ints
    switches: Bools
    """``(N, 3)``: semi-bluff, pot odds, showdown odds."""
    models: Bools
    """Modelling is not ``NONE``."""
    specific: Bools
    """Modelling is ``SPECIFIC``."""
    triple_betting: Bools
    triple_reweighting: Bools
    triple_width: Array
    min_observations: Ints
    default_frequencies: Array
    """``(N, 3, 3)``: Table B.2 rows by bets to call."""
    preflop_sigma: Array
    preflop_skip_percentile: Array
    sigma_slope: Array
    low_weight: Array

    @classmethod
    def of(
        cls,
        params: LokiParams | Sequence[LokiParams] | None,
        num_tables: int,
        preflop_table: PreflopTable,
    ) -> LokiParamArrays:
        """The arrays of ``per_table(params, num_tables)`` with ``preflop_table`` (Table B.1)."""
        sets = per_table(params, num_tables)
        # Tables usually share a few sets (one agent's, or a study batch's candidates): build
        # each distinct set's row once and spread the rows over the tables.
        rows: dict[int, int] = {}
        distinct: list[LokiParams] = []
        index = np.empty(num_tables, dtype=np.intp)
        for t, p in enumerate(sets):
            row = rows.get(id(p))
            if row is None:
                row = rows[id(p)] = len(distinct)
                distinct.append(p)
            index[t] = row
        once = cls._rows(distinct, preflop_table)
        return cls(**{f.name: getattr(once, f.name)[index] for f in fields(cls)})

    @classmethod
    def _rows(cls, sets: Sequence[LokiParams], preflop_table: PreflopTable) -> LokiParamArrays:
        """One row per set of ``sets``."""
        shifted: dict[tuple[Tightness, float], PreflopTable] = {}
        base = np.empty((len(sets), 3, 3))
        increment = np.empty((len(sets), 3, 3))
        small_blind = np.empty((len(sets), 3, 2))
        for t, p in enumerate(sets):
            key = (p.tightness, float(p.preflop_shift))
            if key not in shifted:
                shifted[key] = preflop_table.shifted(p.tightness, p.preflop_shift)
            table = shifted[key]
            for g, group in enumerate(GROUPS):
                for s, strategy in enumerate(STRATEGIES):
                    base[t, g, s], increment[t, g, s] = table.lines[p.tightness, group, strategy]
                small_blind[t, g] = table.small_blind[p.tightness, group]

        return cls(
            probability_play=_floats(sets, "probability_play"),
            preflop_base=base,
            preflop_increment=increment,
            small_blind=small_blind,
            make1=_floats(sets, "make1"),
            make2=_floats(sets, "make2"),
            lookahead=_ints(sets, "lookahead"),
            switches=np.array([[p.semi_bluff, p.pot_odds, p.showdown_odds] for p in sets]),
            models=np.array([p.modelling != Modelling.NONE for p in sets]),
            specific=np.array([p.modelling == Modelling.SPECIFIC for p in sets]),
            triple_betting=np.array([p.betting == Betting.TRIPLES for p in sets]),
            triple_reweighting=np.array([p.reweighting == Reweighting.TRIPLES for p in sets]),
            triple_width=_floats(sets, "triple_width"),
            min_observations=_ints(sets, "min_observations"),
            default_frequencies=np.array([p.default_frequencies for p in sets], dtype=np.float64),
            preflop_sigma=_floats(sets, "preflop_sigma"),
            preflop_skip_percentile=_floats(sets, "preflop_skip_percentile"),
            sigma_slope=_floats(sets, "sigma_slope"),
            low_weight=_floats(sets, "low_weight"),
        )

    @property
    def nbytes(self) -> int:
        """Bytes of all arrays."""
        return sum(getattr(self, f.name).nbytes for f in fields(self))
