"""Every holding's showdown rank on a board, and its place among the board's distinct ranks,
remembered by board.

Strength against a range (``agents.strength.ranged``) needs the rank of all 1,326 holdings on
the board of each street the hand has seen. A table asks for the same boards again at each of
its later decisions in the hand, and on a river decision for the flop's and the turn's boards
too, so ranking them once per board and keeping the result removes most of that work. The
dense places (at most 1,326 distinct ranks on a board instead of 7,462 in all) let a caller
count, for each live holding, the live ones ranked below it with a histogram of that size.

``BoardRanks`` keeps them in ``(slots, 1326)`` arrays and finds a board's slot with an
open-addressing hash table, all inside compiled code (``board_slot``), so that a call of a few
rows costs no Python work per board. When every slot is taken it forgets everything and starts
again (a memo forgets, it never answers wrongly); a caller uses a slot before asking for the
next one, so forgetting between two requests is safe.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from agents.jit import readonly, uncached_kernel
from agents.strength.batched import _rank
from agents.strength.holdings import HOLDINGS
from agents.strength.street_constants import kernel_constants
from envs import _evaluator_tables as _t
from envs.evaluator import KEY_INIT
from envs.validation import whole_number

__all__ = ["DEAD", "BoardRanks", "board_slot", "hand_strengths_on_boards", "shared_board_ranks"]

DEAD = -1
"""The rank (and place) of a holding that shares a card with the board (it cannot be held)."""

_EMPTY = -1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing's multiplier (2**64 over the golden ratio): spreads nearby keys."""


@uncached_kernel
def _fill(cards: np.ndarray, slot: int, memo: tuple[Any, ...], constants: tuple[Any, ...]) -> None:
    _, _, _, ranks, dense, sizes, present, index = memo
    card_keys, flush_keys, holdings, holding_keys, holding_flush, offs, look, flush = constants
    on_board = np.zeros(52, dtype=np.bool_)
    sums = KEY_INIT
    masks = 0
    for card in cards:
        on_board[card] = True
        sums += card_keys[card]
        masks += flush_keys[card]
    present[:] = False
    for h in range(holdings.shape[0]):
        if on_board[holdings[h, 0]] or on_board[holdings[h, 1]]:
            ranks[slot, h] = DEAD
        else:
            rank = _rank(sums + holding_keys[h], masks + holding_flush[h], offs, look, flush)
            ranks[slot, h] = rank
            present[rank] = True
    distinct = 0
    for rank in range(present.shape[0]):
        index[rank] = distinct
        distinct += present[rank]
    for h in range(holdings.shape[0]):
        dense[slot, h] = DEAD if ranks[slot, h] == DEAD else index[ranks[slot, h]]
    sizes[slot] = distinct


@uncached_kernel
def _bits(size: int) -> int:
    bits = 0
    while (1 << bits) < size:
        bits += 1
    return bits


@uncached_kernel
def board_slot(cards: np.ndarray, memo: tuple[Any, ...], constants: tuple[Any, ...]) -> int:
    """The slot of the board ``cards`` (3 to 5 distinct ids 0..51, any order) in ``memo``
    (``BoardRanks.arrays``), ranking it first if the memo does not hold it; ``constants`` are
    ``BoardRanks.constants()``."""
    table, slot_of, used, ranks, _, _, _, _ = memo
    if not 3 <= cards.shape[0] <= 5:
        raise ValueError("a board must hold 3 to 5 distinct card ids 0..51")
    key = np.int64(0)  # the set of cards: the flop's in any order is one board
    for card in cards:
        if not 0 <= card < 52 or key & (np.int64(1) << card):
            raise ValueError("a board must hold 3 to 5 distinct card ids 0..51")
        key |= np.int64(1) << card
    mask = table.shape[0] - 1
    start = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - _bits(table.shape[0])))
    probe = start
    while table[probe] != key and table[probe] != _EMPTY:
        probe = (probe + 1) & mask
    if table[probe] == key:
        return int(slot_of[probe])
    if used[0] == ranks.shape[0]:
        table[:] = _EMPTY
        used[0] = 0
        probe = start
    slot = used[0]
    used[0] += 1
    table[probe] = key
    slot_of[probe] = slot
    _fill(cards, slot, memo, constants)
    return int(slot)


@uncached_kernel
def _slots_of(
    boards: np.ndarray, widths: np.ndarray, memo: tuple[Any, ...], constants: tuple[Any, ...]
) -> np.ndarray:
    slots = np.empty(boards.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        slots[i] = board_slot(boards[i, : widths[i]], memo, constants)
    return slots


class BoardRanks:
    """Holdings' ranks and places by board (see the module docstring).

    Args:
        slots: Boards remembered at most (about 5 kB each).
    """

    def __init__(self, slots: int = 1 << 14) -> None:
        self.capacity = whole_number("slots", slots, minimum=1)
        self.ranks = np.empty((self.capacity, len(HOLDINGS)), dtype=np.int16)
        """``(slots, 1326)``: each holding's rank on the slot's board (``DEAD`` on it)."""
        self.dense = np.empty((self.capacity, len(HOLDINGS)), dtype=np.int16)
        """``(slots, 1326)``: each holding's place among the distinct ranks of the board's
        holdings, 0 for the lowest (``DEAD`` on the board)."""
        self.sizes = np.zeros(self.capacity, dtype=np.int64)
        """``(slots,)``: how many distinct ranks the slot's holdings have."""
        size = 1 << int(2 * self.capacity - 1).bit_length()  # at most half full
        self.arrays = (
            np.full(size, _EMPTY, dtype=np.int64),  # the boards' keys
            np.zeros(size, dtype=np.int64),  # their slots
            np.zeros(1, dtype=np.int64),  # slots taken
            self.ranks,
            self.dense,
            self.sizes,
            np.zeros(_t.NUM_RANKS + 1, dtype=np.bool_),  # scratch: ranks present (1..7462)
            np.zeros(_t.NUM_RANKS + 1, dtype=np.int64),  # scratch: their places
        )
        """What compiled code takes as the memo (``board_slot``)."""

    @staticmethod
    def constants() -> tuple[Any, ...]:
        """The evaluator's tables ``board_slot`` takes."""
        return kernel_constants().holding_ranking()

    def slots(
        self, boards: npt.NDArray[np.integer], widths: npt.ArrayLike
    ) -> npt.NDArray[np.int64]:
        """The slot of each row's board: its first ``widths`` (3 to 5) cards of ``boards``
        ``(rows, 5)``. A slot holds its board until the memo next forgets, which a call of
        more boards than slots does on the way.

        Raises:
            ValueError: on a board without 3 to 5 distinct card ids 0..51.
        """
        cards = readonly(boards, np.int64)
        lengths = readonly(widths, np.int64)
        if cards.ndim != 2 or cards.shape[1] != 5 or lengths.shape != (len(cards),):
            raise ValueError(f"need boards (rows, 5) and widths (rows,): {cards.shape}")
        if ((lengths < 3) | (lengths > 5)).any():
            raise ValueError("a board must hold 3 to 5 distinct card ids 0..51")
        result: npt.NDArray[np.int64] = _slots_of(cards, lengths, self.arrays, self.constants())
        return result


@uncached_kernel
def _strengths_from_slots(
    hole: np.ndarray,
    boards: np.ndarray,
    widths: np.ndarray,
    pair_index: np.ndarray,
    memo: tuple[Any, ...],
    constants: tuple[Any, ...],
    out: np.ndarray,
) -> None:
    # agents.strength.batched's HS1 counts, from the memo's ranks: every holding off the
    # board in one branch-free pass, then the 2 x (52 - width - 2) + 1 through a hole card
    # taken off. The same counts, so the same float.
    board_ranks = memo[3]
    on_board = np.zeros(52, dtype=np.bool_)
    for row in range(hole.shape[0]):
        width = widths[row]
        if width == 0:
            out[row] = 0.0
            continue
        slot = board_slot(boards[row, :width], memo, constants)
        on_board[:] = False
        for j in range(width):
            on_board[boards[row, j]] = True
        first, second = hole[row, 0], hole[row, 1]
        if on_board[first] or on_board[second]:
            raise ValueError("a hole card is on the board")
        ranks = board_ranks[slot]
        mine = ranks[pair_index[first, second]]
        ahead = 0
        tied = 0
        total = 0
        for h in range(ranks.shape[0]):
            theirs = ranks[h]
            total += theirs != DEAD
            ahead += (theirs != DEAD) & (theirs < mine)
            tied += theirs == mine
        for card in range(52):
            if on_board[card]:
                continue
            for held in (first, second):
                if card == held or (held == second and card == first):
                    continue  # the hole itself is taken off once, with first
                theirs = ranks[pair_index[held, card]]
                total -= 1
                ahead -= theirs < mine
                tied -= theirs == mine
        out[row] = (ahead + 0.5 * tied) / total


def hand_strengths_on_boards(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    board_len: npt.NDArray[np.integer],
    boards: BoardRanks | None = None,
) -> npt.NDArray[np.float64]:
    """``agents.strength.batched.hand_strengths`` with ``board_len`` (HS1 on each row's first
    ``board_len`` board cards, 0.0 for 0), to the bit, from the memo's ranks: cheaper when
    the memo holds the boards already (another encoder of the same tables ranked them).

    Raises:
        ValueError: on other shapes, board lengths other than 0, 3, 4 and 5, a card id
            outside 0..51 or a hole card on the board.
    """
    hole_array = readonly(hole, np.int64)
    board_array = readonly(board, np.int64)
    widths = readonly(board_len, np.int64)
    rows = len(hole_array)
    if hole_array.shape != (rows, 2) or board_array.shape != (rows, 5) or widths.shape != (rows,):
        raise ValueError(
            "need hole (rows, 2), board (rows, 5) and board_len (rows,): "
            f"{hole_array.shape}, {board_array.shape}, {widths.shape}"
        )
    if not np.isin(widths, (0, 3, 4, 5)).all():
        raise ValueError(f"board lengths must be 0, 3, 4 or 5, got {np.unique(widths)}")
    if ((hole_array < 0) | (hole_array > 51)).any():
        raise ValueError("card ids must lie in 0..51")
    memo = shared_board_ranks() if boards is None else boards
    out = np.empty(rows)
    _strengths_from_slots(
        hole_array,
        board_array,
        widths,
        kernel_constants().pair_index,
        memo.arrays,
        memo.constants(),
        out,
    )
    return out


@cache
def shared_board_ranks() -> BoardRanks:
    """The process's memo: every encoder and evaluation of a process shares its boards."""
    return BoardRanks()
