"""Lookup tables of the hand evaluator: built from first principles and cached on disk.

See ``envs.evaluator`` for the technique. This module holds the key layout, the table builder
and the cache; it does not depend on treys (the tests compare against it instead).

Tables (ranks are 1..7462, higher is stronger, the order of treys reversed):

* ``offs`` (``uint32``, one entry per hash row): the row displacement of the perfect hash.
* ``look`` (``uint16``): rank of a non-flush hand at ``(key & 2047) + offs[key >> 11]``; 0 marks
  a slot that no valid key reaches.
* ``flush`` (``uint16``, 8192 entries): rank of a flush given the 13-bit rank mask of its suit.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
"""Bump whenever the key layout or the table contents change: it is part of the file name."""

# SKPokerEval's 13 rank keys (Apache-2.0): every multiset of at most 7 ranks, each at most 4 times,
# has a distinct sum, and the largest sum, 7,825,759, stays below 2**23.
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
COUNT_SHIFT = 23
"""Each card adds ``1 << COUNT_SHIFT`` so that 5-, 6- and 7-card keys never collide."""
SUIT_SHIFT = 32
"""Four 4-bit suit counters start at bit 32; each starts at 3 so that a 5th card sets bit 3."""
KEY_INIT = 0x3333 << SUIT_SHIFT
KEY_BITS = 26
"""Bits of the non-flush key: 23 of rank sum and 3 of card count."""
ROW_SHIFT = 11
COL_MASK = (1 << ROW_SHIFT) - 1
NUM_ROWS = ((7 << COUNT_SHIFT) + 4 * RANK_KEYS[12] + 3 * RANK_KEYS[11] >> ROW_SHIFT) + 1
"""Rows of the hash: the largest key is four aces and three kings."""
FLUSH_SHIFT = SUIT_SHIFT + 3
FLUSH_NIBBLES = 0x1111

NUM_RANKS = 7462
# Number of distinct 5-card classes per category, weakest category first; the first rank of each
# category follows from them.
CLASS_COUNTS = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
CATEGORY_FLOORS = tuple(itertools.accumulate(CLASS_COUNTS[:-1], initial=1))

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

_WHEEL = 0b1_0000_0000_1111


class Tables(NamedTuple):
    """The three evaluator tables (see the module docstring)."""

    offs: npt.NDArray[np.uint32]
    look: npt.NDArray[np.uint16]
    flush: npt.NDArray[np.uint16]


def card_keys() -> npt.NDArray[np.uint64]:
    """Return ``K[c] = RANK_KEYS[rank] + 2**23 + 2**(32 + 4*suit)`` for the 52 cards."""
    keys = [
        RANK_KEYS[c >> 2] + (1 << COUNT_SHIFT) + (1 << (SUIT_SHIFT + 4 * (c & 3)))
        for c in range(52)
    ]
    return np.array(keys, dtype=np.uint64)


def flush_keys() -> npt.NDArray[np.uint64]:
    """Return ``FM[c] = 1 << (16*suit + rank)`` for the 52 cards."""
    return np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.uint64)


# ---------------------------------------------------------------------------------------------
# Comparable values of the best five cards. A value packs the category and up to five deciding
# ranks (4 bits each), so comparing values compares hands.


def _pack(category: int, ranks: list[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_top(mask: int) -> int:
    """Highest rank topping a straight in a 13-bit rank mask, or -1 (the wheel tops at 3)."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    return 3 if mask & _WHEEL == _WHEEL else -1


def _flush_value(mask: int) -> int:
    top = _straight_top(mask)
    if top >= 0:
        return _pack(STRAIGHT_FLUSH, [top])
    return _pack(FLUSH, [r for r in range(12, -1, -1) if mask >> r & 1][:5])


def _plain_value(counts: list[int]) -> int:
    """Value of the best hand from the rank counts of 5..7 cards, ignoring flushes."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] == 4]
    trips = [r for r in present if counts[r] == 3]
    pairs = [r for r in present if counts[r] == 2]
    if quads:
        return _pack(QUADS, [quads[0], next(r for r in present if r != quads[0])])
    if trips and len(trips) + len(pairs) >= 2:
        return _pack(FULL_HOUSE, [trips[0], max(trips[1:] + pairs)])
    top = _straight_top(sum(1 << r for r in present))
    if top >= 0:
        return _pack(STRAIGHT, [top])
    if trips:
        return _pack(TRIPS, [trips[0], *[r for r in present if r != trips[0]][:2]])
    if len(pairs) >= 2:
        kicker = next(r for r in present if r not in pairs[:2])
        return _pack(TWO_PAIR, [*pairs[:2], kicker])
    if pairs:
        return _pack(PAIR, [pairs[0], *[r for r in present if r != pairs[0]][:3]])
    return _pack(HIGH_CARD, present[:5])


def _rank_multisets(size: int) -> list[list[int]]:
    """Rank counts of every multiset of ``size`` ranks with each rank at most 4 times."""
    result = []
    for combo in itertools.combinations_with_replacement(range(13), size):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            result.append(counts)
    return result


def _perfect_hash(keys: list[int]) -> tuple[list[int], list[int]]:
    """Row-displacement hash of ``keys``: per-row offsets and each key's slot.

    Rows (``key >> 11``) are placed fullest first, each at the lowest offset where all its
    columns land on free slots. Occupancy is one big-int bitset: ``forbidden`` has bit ``o`` set
    when offset ``o`` collides with some column, so the lowest clear bit is the offset.
    """
    rows: dict[int, list[int]] = {}
    for key in keys:
        rows.setdefault(key >> ROW_SHIFT, []).append(key & COL_MASK)
    offs = [0] * ((max(keys) >> ROW_SHIFT) + 1)
    occupied = 0
    for row in sorted(rows, key=lambda r: (-len(rows[r]), r)):
        forbidden = 0
        for col in rows[row]:
            forbidden |= occupied >> col
        offset = (~forbidden & (forbidden + 1)).bit_length() - 1
        offs[row] = offset
        for col in rows[row]:
            occupied |= 1 << (offset + col)
    return offs, [(key & COL_MASK) + offs[key >> ROW_SHIFT] for key in keys]


def build_tables() -> Tables:
    """Build the tables from the rules of poker (about a second)."""
    multisets = {size: _rank_multisets(size) for size in (5, 6, 7)}
    flush_masks = [m for m in range(1 << 13) if m.bit_count() >= 5]
    five_values = {_plain_value(c) for c in multisets[5]}
    five_values |= {_flush_value(m) for m in flush_masks if m.bit_count() == 5}
    ordered = sorted(five_values)
    if len(ordered) != NUM_RANKS:
        raise AssertionError(f"expected {NUM_RANKS} hand classes, found {len(ordered)}")
    if [v >> 20 for v in ordered] != [c for c, n in enumerate(CLASS_COUNTS) for _ in range(n)]:
        raise AssertionError("the hand classes do not match CLASS_COUNTS")
    rank_of_value = {v: i + 1 for i, v in enumerate(ordered)}

    keys: list[int] = []
    ranks: list[int] = []
    for size, counts_list in multisets.items():
        for counts in counts_list:
            rank_sum = sum(RANK_KEYS[r] * n for r, n in enumerate(counts))
            keys.append((size << COUNT_SHIFT) + rank_sum)
            ranks.append(rank_of_value[_plain_value(counts)])
    if len(set(keys)) != len(keys) or max(keys) >> KEY_BITS:
        raise AssertionError("rank keys are not unique per multiset")
    offs, slots = _perfect_hash(keys)
    look = np.zeros(max(slots) + 1, dtype=np.uint16)
    look[slots] = ranks
    flush = np.zeros(1 << 13, dtype=np.uint16)
    flush[flush_masks] = [rank_of_value[_flush_value(m)] for m in flush_masks]
    return Tables(np.array(offs, dtype=np.uint32), look, flush)


# ---------------------------------------------------------------------------------------------
# Cache


def cache_dir() -> Path | None:
    """Directory of the table cache, or None if no home directory can be found.

    ``$HOLDEM_LAB_CACHE`` if set, else ``$XDG_CACHE_HOME/holdem-lab``, else
    ``~/.cache/holdem-lab``.
    """
    if explicit := os.environ.get("HOLDEM_LAB_CACHE"):
        return Path(explicit)
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return Path(xdg) / "holdem-lab"
    try:
        return Path.home() / ".cache" / "holdem-lab"
    except RuntimeError:
        return None


def cache_file() -> Path | None:
    """Path of the cached tables (the name carries ``FORMAT_VERSION``), or None."""
    directory = cache_dir()
    return None if directory is None else directory / f"evaluator-tables-v{FORMAT_VERSION}.npz"


def _checksum(tables: Tables) -> bytes:
    digest = hashlib.sha256()
    for array in tables:
        # Fixed byte order, so a cache copied between machines checks out or is rebuilt.
        digest.update(array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
    return digest.digest()


def _load(path: Path) -> Tables | None:
    """Read and validate a cache file; None if it is missing, unreadable or corrupt."""
    try:
        with np.load(path, allow_pickle=False) as data:
            tables = Tables(data["offs"], data["look"], data["flush"])
            stored = data["checksum"].tobytes()
    except FileNotFoundError:
        return None
    except Exception as exc:  # a damaged file can fail in many ways (zip, header, missing key)
        logger.warning("evaluator cache %s is unreadable (%s); rebuilding it", path, exc)
        return None
    shapes_ok = (
        tables.offs.dtype == np.uint32
        and tables.look.dtype == np.uint16
        and tables.flush.dtype == np.uint16
        and tables.offs.ndim == tables.look.ndim == 1
        and tables.flush.shape == (1 << 13,)
        and tables.offs.shape == (NUM_ROWS,)
    )
    if not shapes_ok or stored != _checksum(tables):
        logger.warning("evaluator cache %s is corrupt; rebuilding it", path)
        return None
    return tables


def _within(path: Path, directory: Path) -> bool:
    return path.resolve().is_relative_to(directory.resolve())


def _save(tables: Tables, path: Path) -> None:
    """Write atomically (temporary file, then rename); warn instead of failing."""
    if _within(path, Path(__file__).parent):
        logger.warning("not caching evaluator tables inside the package (%s)", path)
        return
    import tempfile  # only needed on the rare cache write; it costs milliseconds to import

    tmp_name = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            dir=path.parent, prefix=path.stem, suffix=".tmp", delete=False
        ) as tmp:
            tmp_name = tmp.name
            np.savez(
                tmp,
                offs=tables.offs,
                look=tables.look,
                flush=tables.flush,
                checksum=np.frombuffer(_checksum(tables), dtype=np.uint8),
            )
        os.replace(tmp_name, path)
    except OSError as exc:
        logger.warning(
            "cannot cache evaluator tables at %s (%s); keeping them in memory", path, exc
        )
        if tmp_name is not None:
            Path(tmp_name).unlink(missing_ok=True)


def load_or_build() -> Tables:
    """Load the cached tables, or build them and try to cache them."""
    path = cache_file()
    tables = None if path is None else _load(path)
    if tables is None:
        logger.info("building the hand-evaluator tables (about a second, once per machine)")
        tables = build_tables()
        if path is None:
            logger.warning("no cache directory for the evaluator tables; keeping them in memory")
        else:
            _save(tables, path)
    return tables
