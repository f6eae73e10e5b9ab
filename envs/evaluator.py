"""Poker hand evaluator for 5, 6 or 7 cards: vectorised NumPy batches and a pure-Python fast path.

Ranks run from 1 (7-5-4-3-2 off-suit) to 7462 (royal flush): **higher is stronger**, and the
order is exactly treys' order reversed (``rank = 7463 - treys_rank``). Equal ranks tie.

Technique (additive card keys after SKPokerEval and OMPEval, a perfect hash and a flush
table):

* Every card has a 64-bit key ``CARD_KEYS[c] = RANK_KEYS[rank] + 2**23 + 2**(32 + 4*suit)``
  and a hand's key is ``KEY_INIT + sum of its cards' keys``. The low 23 bits are a rank sum that
  is unique per rank multiset (SKPokerEval's constants), bits 23..25 count the cards so that
  5-, 6- and 7-card hands share one table, and bits 32..47 are four suit counters starting at 3,
  so bit 3 of a counter is set exactly when its suit has five cards or more (OMPEval's trick).
  Because keys add, callers can cache the sum of a board and add hole cards later.
* Without a flush, ``key = sum & (2**26 - 1)`` is looked up through a row-displacement perfect
  hash: ``LOOK[(key & 2047) + OFFS[key >> 11]]`` (73,775 valid keys, 384 KB ``uint16`` table).
* With seven cards at most one suit can have five, and a flush beats every non-flush reading,
  so its rank is ``FLUSH[13-bit rank mask of that suit]``. That mask cannot live in the same 64
  bits, so it comes from a second sum, of ``FLUSH_KEYS[c] = 1 << (16*suit + rank)``, computed
  only for the flush rows (see ``rank_from_keys``).

The tables are built from the rules of poker on first use (about a second, see
``envs._evaluator_tables``) and cached as a ``.npz`` in ``$HOLDEM_LAB_CACHE``, else
``$XDG_CACHE_HOME/holdem-lab``, else ``~/.cache/holdem-lab``; later processes load them in
milliseconds. Importing this module does not touch the tables.

>>> from envs.cards import parse_cards
>>> category_of(evaluate_one(parse_cards("AsKsQsJsTs2d3c")))
<HandCategory.STRAIGHT_FLUSH: 8>
>>> int(evaluate(parse_cards("7c5d4h3s2c")))
1
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Sequence
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from envs import _evaluator_tables as _t
from envs._evaluator_tables import KEY_INIT, NUM_RANKS, Tables

__all__ = [
    "CARD_KEYS",
    "FLUSH_KEYS",
    "KEY_INIT",
    "NUM_RANKS",
    "HandCategory",
    "category",
    "category_of",
    "evaluate",
    "evaluate_one",
    "lookup_tables",
    "rank_from_keys",
]


class HandCategory(IntEnum):
    """Category of the best five cards, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


CARD_KEYS: npt.NDArray[np.uint64] = _t.card_keys()
"""Additive key of each card id 0..51; a hand's key is ``KEY_INIT + CARD_KEYS[cards].sum()``."""
FLUSH_KEYS: npt.NDArray[np.uint64] = _t.flush_keys()
"""``1 << (16*suit + rank)`` per card id; their sum over a hand is its flush mask."""

CHUNK_ROWS = 16384
"""Hands per batch step: small enough that the temporaries stay in L2 (measured fastest)."""

_KEY_MASK = (1 << _t.KEY_BITS) - 1
_FLUSH_BITS = _t.FLUSH_NIBBLES << _t.FLUSH_SHIFT
_SIGNED_KEYS = CARD_KEYS.view(np.int64)  # sums stay below 2**48, and int64 indexes directly
# Keys of two cards at once (index 52*a + b): one gather instead of two is about 10% faster. The
# first pair also brings KEY_INIT along.
_PAIR_KEYS = (_SIGNED_KEYS[:, np.newaxis] + _SIGNED_KEYS).reshape(-1)
_FIRST_PAIR_KEYS = _PAIR_KEYS + KEY_INIT
_SIGNED_FLUSH_KEYS = FLUSH_KEYS.view(np.int64)  # bits 0..60 only: never negative
_CATEGORY_BY_RANK = np.repeat(np.arange(-1, 9, dtype=np.int8), (1, *_t.CLASS_COUNTS))
_CATEGORY_FLOORS = _t.CATEGORY_FLOORS

_lock = threading.Lock()
_tables: Tables | None = None
# Python-list copies for evaluate_one: list indexing is about 3x faster than array.array's.
_py: tuple[list[int], list[int], list[int]] | None = None
_PY_KEYS: list[int] = CARD_KEYS.tolist()
_PY_FLUSH_KEYS: list[int] = FLUSH_KEYS.tolist()


def _load() -> Tables:
    """The tables, loaded or built on first use."""
    global _tables
    with _lock:
        if _tables is None:
            _tables = _t.load_or_build()
        return _tables


def lookup_tables() -> Tables:
    """The evaluator's three tables (loaded or built on first use), for compiled callers that
    rank hands from key sums in their own loops the way ``rank_from_keys`` does."""
    return _load()


def _load_lists() -> tuple[list[int], list[int], list[int]]:
    """The tables as Python lists for ``evaluate_one`` (a few ms, on its first call)."""
    global _py
    tables = _load()
    ints = list(range(NUM_RANKS + 1))  # shared int objects keep the lists small
    _py = (
        tables.offs.tolist(),
        [ints[r] for r in tables.look.tolist()],
        [ints[r] for r in tables.flush.tolist()],
    )
    return _py


def _flush_ranks(
    tables: Tables, sums: npt.NDArray[np.int64], masks: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint16]:
    """Ranks of flush hands from their key sums and flush masks (1-D, same length)."""
    nibble = (sums >> _t.FLUSH_SHIFT) & _t.FLUSH_NIBBLES
    shift = np.where(nibble >= 0x100, 32, 0) + np.where(nibble & 0x1010, 16, 0)
    ranks: npt.NDArray[np.uint16] = tables.flush[(masks >> shift) & 0x1FFF]
    return ranks


def _as_int64(values: npt.ArrayLike) -> npt.NDArray[np.int64]:
    array = np.asarray(values)
    if array.dtype == np.uint64:
        return array.view(np.int64)  # sums of keys stay below 2**63: no copy needed
    if array.dtype.kind not in "iu":
        raise ValueError(f"key sums and flush masks must be integers, got dtype {array.dtype}")
    return array.astype(np.int64, copy=False)


def rank_from_keys(
    key_sums: npt.ArrayLike, flush_masks: npt.ArrayLike | None = None
) -> npt.NDArray[np.int32]:
    """Ranks of hands given as key sums, for callers that cache partial sums.

    Args:
        key_sums: ``KEY_INIT`` plus the sum of ``CARD_KEYS`` over each hand's 5..7 distinct
            cards, any shape, ``uint64`` (or ``int64``).
        flush_masks: the sum (or bitwise or) of ``FLUSH_KEYS`` over the same cards, same shape.
            It may be None when no hand can hold five cards of one suit (for example when the
            board has at most two of each suit and hands add two cards); the flush rows are
            found from ``key_sums`` alone, and only they read ``flush_masks``.

    Returns:
        ``int32`` ranks 1..7462 of the same shape.

    Raises:
        ValueError: if the shapes differ, if some hand has a flush but ``flush_masks`` is None,
            or if a key sum falls on no hand (a sum of other than 5..7 cards, or with a card
            twice, usually does; such input is not guaranteed to be caught).
    """
    tables = _load()
    sums = _as_int64(key_sums)
    counts = (sums >> _t.COUNT_SHIFT) & 0x1FF
    if counts.size and (int(counts.min()) < 5 or int(counts.max()) > 7):
        raise ValueError("key sums must come from 5..7 cards")
    keys = sums & _KEY_MASK
    # Clipped, a sum with a repeated card cannot index out of bounds; it then reads some rank
    # or an empty slot (0, reported below).
    slots = (keys & _t.COL_MASK) + np.take(tables.offs, keys >> _t.ROW_SHIFT, mode="clip")
    ranks: npt.NDArray[np.int32] = np.take(tables.look, slots, mode="clip").astype(np.int32)
    flat = ranks.reshape(-1)
    rows = np.flatnonzero((sums & _FLUSH_BITS) != 0)
    if rows.size:
        if flush_masks is None:
            raise ValueError("some hands hold a flush: flush_masks are needed")
        masks = _as_int64(flush_masks)
        if masks.shape != sums.shape:
            raise ValueError(f"flush_masks shape {masks.shape} differs from {sums.shape}")
        flat[rows] = _flush_ranks(tables, sums.reshape(-1)[rows], masks.reshape(-1)[rows])
    if flat.size and int(flat.min()) == 0:
        raise ValueError("some key sums are not sums of 5..7 distinct cards")
    return ranks


def evaluate(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Rank hands of 5, 6 or 7 cards, best five cards of each.

    Args:
        cards: integer card ids 0..51 of shape ``(n, k)`` with ``k`` in 5..7, or one hand of
            shape ``(k,)``. ``uint8`` input is fastest. Cards within a hand must be distinct;
            that is not checked (a repeated card gives an arbitrary result, possibly 0).

    Returns:
        ``int32`` ranks 1..7462 (higher is stronger), shape ``(n,)``; a 0-d array for one hand.

    Raises:
        ValueError: on another shape, a non-integer dtype, or a card id outside 0..51.
    """
    hands = np.asarray(cards)
    if hands.ndim == 1:
        return evaluate(hands[np.newaxis]).reshape(())
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise ValueError(f"cards must have shape (n, 5..7) or (5..7,), got {hands.shape}")
    if hands.dtype.kind not in "iu":
        raise ValueError(f"card ids must be integers, got dtype {hands.dtype}")
    # Viewed as unsigned, negative ids become huge, so one max() checks both bounds.
    unsigned = hands.view(hands.dtype.str.replace("i", "u"))
    tables = _load()
    ranks = np.empty(hands.shape[0], dtype=np.int32)
    flush_rows: list[npt.NDArray[np.intp]] = []
    flush_sums: list[npt.NDArray[np.int64]] = []
    for start in range(0, hands.shape[0], CHUNK_ROWS):
        chunk = unsigned[start : start + CHUNK_ROWS]
        if chunk.size and int(chunk.max()) > 51:
            raise ValueError("card ids must be in 0..51")
        if chunk.dtype.itemsize > 1:
            # Gathering with one-byte indices is cheaper than with strided wide ones.
            chunk = chunk.astype(np.uint8)
        sums = _key_sums(chunk)
        key = sums & _KEY_MASK
        ranks[start : start + CHUNK_ROWS] = np.take(
            tables.look, (key & _t.COL_MASK) + np.take(tables.offs, key >> _t.ROW_SHIFT)
        )
        # A boolean nonzero is three times cheaper than flatnonzero on int64.
        rows = np.nonzero((sums & _FLUSH_BITS) != 0)[0]
        if rows.size:
            flush_rows.append(rows + start)
            flush_sums.append(sums[rows])
    if flush_rows:
        # One pass over all flush rows: per chunk the small arrays would cost more in overhead.
        rows = np.concatenate(flush_rows)
        masks = np.bitwise_or.reduce(_SIGNED_FLUSH_KEYS[hands[rows]], axis=1)
        ranks[rows] = _flush_ranks(tables, np.concatenate(flush_sums), masks)
    return ranks


def _key_sums(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """``KEY_INIT`` plus the card keys of each row, summed two cards per gather."""
    width = hands.shape[1]
    sums = np.take(_FIRST_PAIR_KEYS, hands[:, 0].astype(np.int16) * 52 + hands[:, 1])
    for j in range(2, width - 1, 2):
        sums += np.take(_PAIR_KEYS, hands[:, j].astype(np.int16) * 52 + hands[:, j + 1])
    if width % 2:
        sums += np.take(_SIGNED_KEYS, hands[:, -1])
    return sums


def evaluate_one(cards: Sequence[int]) -> int:
    """Rank one hand of 5..7 distinct card ids in pure Python (about 0.4 µs for 7 cards).

    Same result as ``evaluate``. Nothing is validated: an id above 51 raises IndexError, while a
    negative or repeated id gives a meaningless rank.
    """
    py = _py
    if py is None:
        py = _load_lists()
    keys = _PY_KEYS
    total = KEY_INIT
    for card in cards:
        total += keys[card]
    nibble = total >> _t.FLUSH_SHIFT & _t.FLUSH_NIBBLES
    if nibble:
        suit = (nibble.bit_length() - 1) >> 2
        flush_keys = _PY_FLUSH_KEYS
        mask = 0
        for card in cards:
            mask |= flush_keys[card]
        return py[2][mask >> 16 * suit & 0x1FFF]
    key = total & _KEY_MASK
    return py[1][(key & _t.COL_MASK) + py[0][key >> _t.ROW_SHIFT]]


def category(ranks: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """``HandCategory`` values (``int8``) of ranks 1..7462, any shape.

    Raises:
        ValueError: if a rank is outside 1..7462.
    """
    values = np.asarray(ranks)
    if values.size and (int(values.min()) < 1 or int(values.max()) > NUM_RANKS):
        raise ValueError(f"ranks must be in 1..{NUM_RANKS}")
    categories: npt.NDArray[np.int8] = _CATEGORY_BY_RANK[values]
    return categories


def category_of(rank: int) -> HandCategory:
    """``HandCategory`` of one rank 1..7462.

    Raises:
        ValueError: if the rank is outside 1..7462.
    """
    if not 1 <= rank <= NUM_RANKS:
        raise ValueError(f"ranks must be in 1..{NUM_RANKS}, got {rank}")
    return HandCategory(bisect.bisect_right(_CATEGORY_FLOORS, rank) - 1)
