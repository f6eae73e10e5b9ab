"""Hand strength of many hands at once, each on its own board, in one compiled loop.

``hand_strengths(hole, board)`` gives, row by row, the same number as
``agents.strength.hand_strength``: HS1 = (ahead + tied / 2) / total over the opponent
holdings disjoint from the known cards (Billings, Papp, Schaeffer and Szafron 1998, section
3.1). The rows may all have different boards, on different streets too (``board_len``),
which is what a batch of tables asks: the ``rule`` bot's post-flop decisions and the features
of learners. The opponents' seven-card
ranks are looked up in the evaluator's tables (``envs.evaluator``) inside the loop, so a row
costs 1,081 table reads and no temporary arrays.

``sampled_equities(hole, board, candidates)`` estimates equity against one random holding the
same way, in one compiled loop: each sample's opponent holding and board completion are the
first unseen cards of a given deck order (the learners' equity feature,
``tuning.training.sampled_equity``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel, readonly
from agents.strength.street_constants import kernel_constants
from envs import _evaluator_tables as _t
from envs.evaluator import KEY_INIT

__all__ = ["hand_strengths", "sampled_equities"]

_KEY_MASK = (1 << _t.KEY_BITS) - 1
_FLUSH_BITS = _t.FLUSH_NIBBLES << _t.FLUSH_SHIFT
_ROW_SHIFT = _t.ROW_SHIFT
_COL_MASK = _t.COL_MASK
_FLUSH_SHIFT = _t.FLUSH_SHIFT
_FLUSH_NIBBLES = _t.FLUSH_NIBBLES


@kernel
def _rank(sums: int, masks: int, offs: np.ndarray, look: np.ndarray, flush: np.ndarray) -> int:
    # The lookup of envs.evaluator.rank_from_keys for one hand: that one works on whole
    # arrays in NumPy, which a compiled loop cannot call per holding without losing the gain.
    if sums & _FLUSH_BITS:
        nibble = (sums >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
        shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
        return int(flush[(masks >> shift) & 0x1FFF])
    keys = sums & _KEY_MASK
    return int(look[(keys & _COL_MASK) + offs[keys >> _ROW_SHIFT]])


@kernel
def _mark_known(
    cards: np.ndarray, dead: np.ndarray, card_keys: np.ndarray, flush_keys: np.ndarray
) -> tuple[int, int, int]:
    # One row's known cards: marks them dead and sums their evaluator keys; ids of 52 and
    # more are cards still to come (counted, not marked).
    sums = KEY_INIT
    masks = 0
    missing = 0
    for card in cards:
        if card >= 52:
            missing += 1
            continue
        dead[card] = True
        sums += card_keys[card]
        masks += flush_keys[card]
    return sums, masks, missing


@kernel
def _strength_rows(
    known: np.ndarray,
    card_keys: np.ndarray,
    flush_keys: np.ndarray,
    holdings: np.ndarray,
    holding_keys: np.ndarray,
    holding_flush: np.ndarray,
    offs: np.ndarray,
    look: np.ndarray,
    flush: np.ndarray,
    out: np.ndarray,
) -> None:
    rows = known.shape[0]
    dead = np.zeros(52, dtype=np.bool_)
    for row in range(rows):
        dead[:] = False
        board_sums, board_masks, _ = _mark_known(known[row, 2:], dead, card_keys, flush_keys)
        first, second = known[row, 0], known[row, 1]
        dead[first] = True
        dead[second] = True
        mine = _rank(
            board_sums + card_keys[first] + card_keys[second],
            board_masks + flush_keys[first] + flush_keys[second],
            offs,
            look,
            flush,
        )
        ahead = 0
        tied = 0
        total = 0
        for h in range(holdings.shape[0]):
            if dead[holdings[h, 0]] or dead[holdings[h, 1]]:
                continue
            total += 1
            theirs = _rank(
                board_sums + holding_keys[h], board_masks + holding_flush[h], offs, look, flush
            )
            if theirs < mine:
                ahead += 1
            elif theirs == mine:
                tied += 1
        out[row] = (ahead + 0.5 * tied) / total


@kernel
def _equity_rows(
    hole: np.ndarray,
    board: np.ndarray,
    candidates: np.ndarray,
    card_keys: np.ndarray,
    flush_keys: np.ndarray,
    offs: np.ndarray,
    look: np.ndarray,
    flush: np.ndarray,
    out: np.ndarray,
) -> None:
    rows = board.shape[0]
    samples, scanned = candidates.shape
    dead = np.zeros(53, dtype=np.bool_)
    drawn = np.zeros(7, dtype=np.int64)
    for row in range(rows):
        dead[:] = False
        board_sums, board_masks, missing = _mark_known(board[row], dead, card_keys, flush_keys)
        first, second = hole[row, 0], hole[row, 1]
        dead[first] = True
        dead[second] = True
        hole_sums = card_keys[first] + card_keys[second]
        hole_masks = flush_keys[first] + flush_keys[second]
        wins = 0
        ties = 0
        for k in range(samples):
            found = 0
            for j in range(scanned):
                card = candidates[k, j]
                if not dead[card]:
                    drawn[found] = card
                    found += 1
                    if found == 7:
                        break
            sums = board_sums
            masks = board_masks
            for j in range(2, 2 + missing):
                sums += card_keys[drawn[j]]
                masks += flush_keys[drawn[j]]
            mine = _rank(sums + hole_sums, masks + hole_masks, offs, look, flush)
            theirs = _rank(
                sums + card_keys[drawn[0]] + card_keys[drawn[1]],
                masks + flush_keys[drawn[0]] + flush_keys[drawn[1]],
                offs,
                look,
                flush,
            )
            if mine > theirs:
                wins += 1
            elif mine == theirs:
                ties += 1
        out[row] = (wins + 0.5 * ties) / samples


def hand_strengths(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    board_len: npt.NDArray[np.integer] | None = None,
) -> npt.NDArray[np.float64]:
    """HS1 of each row's two ``hole`` cards on its ``board``.

    Args:
        hole: ``(rows, 2)`` card ids 0..51.
        board: ``(rows, k)`` card ids, ``k`` in 3..5 (one width for all rows), disjoint from
            the row's hole cards (not checked: a repeated card gives a meaningless number).
        board_len: ``(rows,)`` the cards of each row's board dealt so far, for rows on
            different streets: row ``i``'s board is ``board[i, :board_len[i]]`` (3, 4 or 5
            cards; the rest of the row is not read), or none before the flop, where HS is
            not defined and the row gets 0.0 (the learners' feature). Rows are grouped by
            length, one compiled call per group.

    Returns:
        ``(rows,)`` strengths in [0, 1], equal to ``agents.strength.hand_strength`` row by row.

    Raises:
        ValueError: on other shapes, board lengths or card ids outside 0..51.
    """
    if board_len is not None:
        return _strengths_by_length(np.asarray(hole), np.asarray(board), np.asarray(board_len))
    hole_array, board_array = np.asarray(hole), np.asarray(board)
    if hole_array.ndim != 2 or hole_array.shape[1] != 2:
        raise ValueError(f"hole must have shape (rows, 2), got {hole_array.shape}")
    if board_array.ndim != 2 or board_array.shape[1] not in (3, 4, 5):
        raise ValueError(f"board must have shape (rows, 3..5), got {board_array.shape}")
    if board_array.shape[0] != hole_array.shape[0]:
        raise ValueError(f"{hole_array.shape[0]} hole rows but {board_array.shape[0]} boards")
    known = np.concatenate([hole_array, board_array], axis=1)
    if known.size and (int(known.min()) < 0 or int(known.max()) > 51):
        raise ValueError("card ids must lie in 0..51")
    return _known_strengths(known)


def _known_strengths(known: npt.NDArray[np.integer]) -> npt.NDArray[np.float64]:
    """HS1 of rows of (two hole cards, board cards, 52 for cards to come)."""
    out = np.empty(len(known), dtype=np.float64)
    _strength_rows(readonly(known, np.int64), *kernel_constants().holding_ranking(), out)
    return out


def _strengths_by_length(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    board_len: npt.NDArray[np.integer],
) -> npt.NDArray[np.float64]:
    # One compiled call for every street: the kernel skips card ids of 52 and more, so the
    # cards past a row's length are masked as still to come.
    hole_array = np.asarray(hole, dtype=np.int64)
    board_array = np.asarray(board, dtype=np.int64)
    rows = len(hole_array)
    if board_len.shape != (rows,):
        raise ValueError(f"board_len must have shape ({rows},), got {board_len.shape}")
    if not ((board_len == 0) | ((board_len >= 3) & (board_len <= 5))).all():
        raise ValueError(f"board lengths must be 0, 3, 4 or 5, got {np.unique(board_len)}")
    if hole_array.shape != (rows, 2) or board_array.ndim != 2 or len(board_array) != rows:
        shapes = f"{hole_array.shape}, {board_array.shape}"
        raise ValueError(f"need hole (rows, 2) and board (rows, k): {shapes}")
    strength = np.zeros(rows)
    later = np.flatnonzero(board_len > 0)
    if not later.size:
        return strength
    if board_array.shape[1] < int(board_len.max()):
        raise ValueError(f"board has {board_array.shape[1]} columns, fewer than a board length")
    dealt = np.arange(board_array.shape[1]) < board_len[later, np.newaxis]
    known = np.concatenate([hole_array[later], np.where(dealt, board_array[later], 52)], axis=1)
    if int(known.min()) < 0 or (known[:, :2] > 51).any() or (known[:, 2:][dealt] > 51).any():
        raise ValueError("card ids must lie in 0..51")
    strength[later] = _known_strengths(known)
    return strength


def sampled_equities(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    candidates: npt.NDArray[np.integer],
) -> npt.NDArray[np.float64]:
    """Each row's equity against one random holding (ties count half), by Monte Carlo over
    the deck orders ``candidates``: per sample, the first seven cards of its order that the
    row does not hold or see are the opponent's two and the board's completion, in order.

    Args:
        hole: ``(rows, 2)`` card ids 0..51.
        board: ``(rows, 5)`` the dealt board cards first, then 52 ("no card") in the slots to
            complete.
        candidates: ``(samples, k)`` the leading cards of each sample's deck order, ``k >= 14``
            (at most seven cards are known, so fourteen hold seven unknown ones).

    Returns:
        ``(rows,)`` (wins + ties / 2) / samples, exactly what the same samples give in NumPy
        (``tuning.training.sampled_equity``).
    """
    out = np.empty(len(hole), dtype=np.float64)
    if not len(out):
        return out
    e = kernel_constants()
    _equity_rows(
        readonly(hole, np.int64),
        readonly(board, np.int64),
        readonly(candidates, np.int64),
        e.card_keys,
        e.flush_keys,
        e.wide_offs,
        e.wide_look,
        e.wide_flush,
        out,
    )
    return out
