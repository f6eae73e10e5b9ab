"""Argument checks of ``agents.strength.street``: rows of cards, field weights, target rows.

Everything is validated with whole-array operations before a kernel runs, and refused with a
``ValueError`` that names the argument (a compiled loop would read past an array or give a
meaningless number instead).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.strength.holdings import NUM_HOLDINGS

__all__ = ["checked_field", "checked_rows", "checked_targets"]

Ints = npt.NDArray[np.integer]


def checked_rows(
    holes: Ints, boards: Ints, board_len: Ints
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Validated ``(holes, boards, board_len)`` as read-only int64 arrays (unread board cells
    zeroed); ``ValueError`` otherwise."""
    hole_array, board_array, lengths = (np.asarray(a) for a in (holes, boards, board_len))
    for name, array in (("holes", hole_array), ("boards", board_array), ("board_len", lengths)):
        if array.dtype.kind not in "iu":
            raise ValueError(f"{name} must be integers, got dtype {array.dtype}")
    if hole_array.ndim != 2 or hole_array.shape[1] != 2:
        raise ValueError(f"holes must have shape (k, 2), got {hole_array.shape}")
    k = len(hole_array)
    if board_array.ndim != 2 or board_array.shape[0] != k or not 3 <= board_array.shape[1] <= 5:
        raise ValueError(f"boards must have shape ({k}, 3..5), got {board_array.shape}")
    if lengths.shape != (k,):
        raise ValueError(f"board_len must have shape ({k},), got {lengths.shape}")
    width = board_array.shape[1]
    if k and (int(lengths.min()) < 3 or int(lengths.max()) > width):
        raise ValueError(f"board lengths must lie in 3..{width}, got {np.unique(lengths)}")
    used = np.arange(width) < lengths[:, np.newaxis]
    cards = np.concatenate([hole_array, np.where(used, board_array, 0)], axis=1)
    if k and (int(cards.min()) < 0 or int(cards.max()) > 51):
        raise ValueError("card ids must lie in 0..51")
    # Unread board cells become distinct ids above 51, so that they never repeat.
    read = np.concatenate([np.ones((k, 2), dtype=bool), used], axis=1)
    known = np.sort(np.where(read, cards, 52 + np.arange(width + 2)), axis=1)
    repeated = np.flatnonzero((known[:, 1:] == known[:, :-1]).any(axis=1))
    if repeated.size:
        raise ValueError(f"rows {repeated[:10].tolist()} hold a card twice")
    return (
        readonly(cards[:, :2], np.int64),
        readonly(cards[:, 2:], np.int64),
        readonly(lengths, np.int64),
    )


def checked_field(field: npt.ArrayLike, k: int) -> npt.NDArray[np.float64]:
    """``field`` as a read-only ``(k, 1326)`` float array; ``ValueError`` if malformed."""
    weights = np.asarray(field, dtype=np.float64)
    if weights.shape != (k, NUM_HOLDINGS):
        raise ValueError(f"field must have shape ({k}, {NUM_HOLDINGS}), got {weights.shape}")
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise ValueError("field weights must be finite and non-negative")
    return readonly(weights, np.float64)


def checked_targets(at: Ints | None, k: int, rows: int) -> npt.NDArray[np.int64]:
    """``at`` as int64 rows of an ``out`` of ``rows`` rows; ``ValueError`` if they do not fit."""
    if at is None:
        raise ValueError("out= needs at=, the row of out of each row")
    target = np.asarray(at)
    if target.shape != (k,) or (k and target.dtype.kind not in "iu"):
        raise ValueError(f"at must be ({k},) integers, got {target.dtype} {target.shape}")
    if k and (int(target.min()) < 0 or int(target.max()) >= rows):
        raise ValueError(f"at must lie in 0..{rows - 1}")
    if len(np.unique(target)) != k:
        raise ValueError("at repeats a row")
    return readonly(target, np.int64)
