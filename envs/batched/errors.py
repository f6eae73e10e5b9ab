"""``TableError``: a batched call refused because of some tables, with each table's reason.

A ``HandBatch`` call covers many tables; when it refuses, the caller needs to know which tables
were at fault and why, not just the first one. The exception is a ``ValueError`` (what the
scalar ``Hand`` raises for the same mistakes), so ``except ValueError`` keeps working.

>>> error = TableError([4, 9], ["table 4: reason one", "table 9: reason two"])
>>> error.tables.tolist(), str(error)
([4, 9], '2 tables refused: table 4: reason one; table 9: reason two')
>>> isinstance(error, ValueError)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["TableError"]

_SHOWN = 3
"""Reasons spelled out in the message; the rest are counted (all are in ``reasons``)."""


class TableError(ValueError):
    """The tables ``tables`` were refused, table ``tables[i]`` for ``reasons[i]``.

    Each reason is a whole sentence naming its table: the message the call would have given
    had that table been the only one at fault. The message is that reason for one table, or
    the number of tables and the first few reasons. Nothing changed at any table.

    Attributes:
        tables: ``(k,)`` ``intp``, read-only: the refused tables, in the order of the call's
            arguments (ascending for ``step``).
        reasons: ``k`` strings, one per refused table.
    """

    tables: npt.NDArray[np.intp]
    reasons: tuple[str, ...]

    def __init__(self, tables: npt.ArrayLike, reasons: Sequence[str]) -> None:
        indices = np.array(tables, dtype=np.intp).reshape(-1)
        if len(indices) != len(reasons) or not len(indices):
            raise ValueError(f"one reason per table, got {len(indices)} and {len(reasons)}")
        indices.flags.writeable = False
        self.tables = indices
        self.reasons = tuple(reasons)
        super().__init__(_summary(self.reasons))

    def __reduce__(self) -> tuple[type[TableError], tuple[list[int], tuple[str, ...]]]:
        # The default rebuilds from the message alone; workers send exceptions by pickle.
        return type(self), (self.tables.tolist(), self.reasons)


def _summary(reasons: tuple[str, ...]) -> str:
    if len(reasons) == 1:
        return reasons[0]
    shown = "; ".join(reasons[:_SHOWN])
    more = len(reasons) - _SHOWN
    rest = f"; and {more:,} more (see .tables and .reasons)" if more > 0 else ""
    return f"{len(reasons):,} tables refused: {shown}{rest}"
