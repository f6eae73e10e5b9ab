"""The 1,326 two-card holdings and the 169 starting-hand types, as index arrays.

Opponent weight tables, hand strength of every holding and the income-rate tables all index
holdings the same way: holding ``i`` is the card pair ``HOLDINGS[i] = (a, b)`` with ``a < b``,
in ``numpy.triu_indices(52, 1)`` order, and ``PAIR_INDEX[a, b] == PAIR_INDEX[b, a] == i``.

Starting-hand types follow Papp's income-rate tables (Papp 1998, Appendix A): a type is the cell
``(row, col)`` of a 13 x 13 matrix of ranks (0 = deuce .. 12 = ace); pairs sit on the diagonal,
**suited hands below it (row > col)** and off-suit hands above it (row < col). So ``(1, 0)`` is
3-2 suited and ``(0, 1)`` is 3-2 off-suit.

``board_ranks(board)`` ranks every holding with a board once (cached per board, so every agent
at a table shares the work), and the ``check_*`` helpers validate the arguments of the
hand-strength toolkit.

>>> from envs.cards import parse_cards
>>> a, b = parse_cards("3h2h")
>>> int(HOLDINGS[PAIR_INDEX[a, b]][0]) == b, type_cell_name(*type_cell(a, b))
(True, '32s')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from envs.cards import RANK_CHARS, check_distinct
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, rank_from_keys

__all__ = [
    "HOLDINGS",
    "HOLDING_FLUSH",
    "HOLDING_KEYS",
    "HOLDING_TYPE",
    "NUM_HOLDINGS",
    "PAIR_INDEX",
    "TYPE_COMBOS",
    "board_ranks",
    "check_board",
    "check_hand",
    "check_weights",
    "dead_holdings",
    "dead_mask",
    "live_holdings",
    "seen_cards",
    "type_cell",
    "type_cell_name",
    "type_cells",
    "unseen_cards",
]

NUM_HOLDINGS = 1326
"""Two-card holdings from a 52-card deck, C(52, 2)."""


def _holdings() -> npt.NDArray[np.int64]:
    first, second = np.triu_indices(52, k=1)
    pairs = np.stack([first, second], axis=1).astype(np.int64)
    pairs.flags.writeable = False
    return pairs


HOLDINGS: npt.NDArray[np.int64] = _holdings()
"""``(1326, 2)`` card pairs ``(a, b)``, ``a < b``, read-only."""


def _pair_index() -> npt.NDArray[np.int64]:
    index = np.full((52, 52), -1, dtype=np.int64)
    ids = np.arange(NUM_HOLDINGS)
    index[HOLDINGS[:, 0], HOLDINGS[:, 1]] = ids
    index[HOLDINGS[:, 1], HOLDINGS[:, 0]] = ids
    index.flags.writeable = False
    return index


PAIR_INDEX: npt.NDArray[np.int64] = _pair_index()
"""``(52, 52)`` holding index of a card pair (either order); -1 on the diagonal."""


def _holding_types() -> npt.NDArray[np.int64]:
    ranks = HOLDINGS >> 2
    suited = (HOLDINGS[:, 0] & 3) == (HOLDINGS[:, 1] & 3)
    high, low = ranks.max(axis=1), ranks.min(axis=1)
    row = np.where(suited, high, low)
    col = np.where(suited, low, high)
    types = np.stack([row, col], axis=1)
    types.flags.writeable = False
    return types


HOLDING_TYPE: npt.NDArray[np.int64] = _holding_types()
"""``(1326, 2)`` cell ``(row, col)`` of each holding's starting-hand type (Papp's layout)."""

TYPE_COMBOS: npt.NDArray[np.int64] = np.where(
    np.eye(13, dtype=bool), 6, np.where(np.tri(13, k=-1, dtype=bool), 4, 12)
)
"""``(13, 13)`` holdings per type: 6 per pair, 4 per suited type, 12 per off-suit type."""
TYPE_COMBOS.flags.writeable = False


def type_cell(a: int, b: int) -> tuple[int, int]:
    """The ``(row, col)`` type cell of the hole cards ``a`` and ``b``."""
    high, low = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    return (high, low) if (a & 3) == (b & 3) else (low, high)


def type_cell_name(row: int, col: int) -> str:
    """Conventional name of a type cell: ``"AA"``, ``"AKs"``, ``"72o"``."""
    if row == col:
        return RANK_CHARS[row] * 2
    high, low = max(row, col), min(row, col)
    return f"{RANK_CHARS[high]}{RANK_CHARS[low]}{'s' if row > col else 'o'}"


def type_cells() -> list[tuple[int, int]]:
    """The 169 type cells, row-major."""
    return [(row, col) for row in range(13) for col in range(13)]


def dead_mask(cards: Iterable[int]) -> npt.NDArray[np.bool_]:
    """``(1326,)`` mask of the holdings that contain any of ``cards``."""
    dead = np.zeros(52, dtype=bool)
    dead[list(cards)] = True
    mask: npt.NDArray[np.bool_] = dead[HOLDINGS[:, 0]] | dead[HOLDINGS[:, 1]]
    return mask


def seen_cards(cards: npt.ArrayLike, lengths: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """``(k, 52)``: row i marks the first ``lengths[i]`` cards of ``cards[i]`` (the rest of
    the row is not read); the batched form of the card set of ``dead_mask``."""
    table = np.asarray(cards, dtype=np.intp)
    used = np.arange(table.shape[1]) < np.asarray(lengths, dtype=np.intp)[:, np.newaxis]
    seen = np.zeros((len(table), 52), dtype=bool)
    seen[np.nonzero(used)[0], table[used]] = True
    return seen


def dead_holdings(seen: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """``(k, 1326)``: ``dead_mask`` of each row's cards (``seen_cards``)."""
    dead: npt.NDArray[np.bool_] = seen[:, HOLDINGS[:, 0]] | seen[:, HOLDINGS[:, 1]]
    return dead


def unseen_cards(seen: npt.NDArray[np.bool_], count: int) -> npt.NDArray[np.intp]:
    """``(k, count)``: the ``count`` lowest cards of each row that ``seen`` does not mark,
    ascending (placeholders for cards nobody shows)."""
    lowest: npt.NDArray[np.intp] = np.argsort(seen, axis=1, kind="stable")[:, :count]
    return lowest


def live_holdings(cards: Iterable[int]) -> npt.NDArray[np.intp]:
    """Indices of the holdings disjoint from ``cards``, ascending."""
    return np.flatnonzero(~dead_mask(cards))


HOLDING_KEYS = CARD_KEYS.view(np.int64)[HOLDINGS].sum(axis=1)
"""Evaluator key sum of each holding's two cards."""
HOLDING_FLUSH = FLUSH_KEYS.view(np.int64)[HOLDINGS].sum(axis=1)
"""Flush-mask sum of each holding's two cards."""


def check_hand(
    hole: Sequence[int], board: Sequence[int]
) -> tuple[tuple[int, int], tuple[int, ...]]:
    """Validated ``(hole, board)`` for a post-flop computation; ``ValueError`` otherwise."""
    if len(hole) != 2:
        raise ValueError(f"need 2 hole cards, got {len(hole)}")
    check_board(board)
    check_distinct([*hole, *board])
    return (int(hole[0]), int(hole[1])), tuple(int(c) for c in board)


def check_board(board: Sequence[int]) -> None:
    """``ValueError`` unless ``board`` holds 3 to 5 distinct valid cards (post-flop)."""
    if not 3 <= len(board) <= 5:
        raise ValueError(f"need a board of 3 to 5 cards (post-flop), got {len(board)}")
    check_distinct(board)


def check_weights(weights: npt.ArrayLike | None) -> npt.NDArray[np.float64] | None:
    """``weights`` as a ``(1326,)`` float array; ``ValueError`` if malformed or negative."""
    if weights is None:
        return None
    array = np.asarray(weights, dtype=np.float64)
    if array.shape != (NUM_HOLDINGS,):
        raise ValueError(f"a weight table has shape ({NUM_HOLDINGS},), got {array.shape}")
    if not np.isfinite(array).all() or (array < 0).any():
        raise ValueError("weights must be finite and non-negative")
    return array


@lru_cache(maxsize=256)
def _board_ranks(board: tuple[int, ...]) -> npt.NDArray[np.int32]:
    dead = dead_mask(board)
    ranks = np.zeros(NUM_HOLDINGS, dtype=np.int32)
    keys = KEY_INIT + CARD_KEYS.view(np.int64)[list(board)].sum()
    flush = FLUSH_KEYS.view(np.int64)[list(board)].sum()
    ranks[~dead] = rank_from_keys(HOLDING_KEYS[~dead] + keys, HOLDING_FLUSH[~dead] + flush)
    ranks.flags.writeable = False
    return ranks


def board_ranks(board: Sequence[int]) -> npt.NDArray[np.int32]:
    """``(1326,)`` evaluator rank of every holding with ``board`` (0 where they conflict).

    Cached per board (read-only result): every agent at a table shares the work.
    """
    check_board(board)
    return _board_ranks(tuple(sorted(int(c) for c in board)))
