"""One line of text per table, built as rows of bytes with whole-array operations.

A ``Text`` is a ``(k, width)`` array of UTF-8 bytes with a length per row; the pieces of a
line (literals, numbers, strings looked up by index) are joined side by side in one pass per
piece, whatever ``k``. Only ``decode`` touches rows one by one, to hand back Python strings.

>>> import numpy as np
>>> line = join([literal("id ", 2), numbers(np.array([7, -120])), lookup(["!", ""], [0, 1])])
>>> decode(line)
['id 7!', 'id -120']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Text", "decode", "join", "literal", "lookup", "numbers", "separated"]

UInt8s = npt.NDArray[np.uint8]
Index = npt.NDArray[np.intp]

_POWERS = np.uint64(10) ** np.arange(20, dtype=np.uint64)
"""``10 ** e`` for every exponent of a ``uint64``."""


@dataclass(frozen=True, eq=False)
class Text:
    """``k`` rows of text: row ``i`` is ``chars[i, :length[i]]`` (bytes past it are
    undefined, so pieces may be written in full and overwritten by the next piece)."""

    chars: UInt8s
    """``(k, width)`` UTF-8 bytes; ``width`` is the longest a row may be."""
    length: Index
    """``(k,)`` bytes in each row."""


def literal(text: str, rows: int) -> Text:
    """The same ``text`` in each of ``rows`` rows."""
    encoded = np.frombuffer(text.encode(), dtype=np.uint8)
    chars = np.broadcast_to(encoded, (rows, len(encoded)))
    return Text(chars, np.full(rows, len(encoded), dtype=np.intp))


def lookup(strings: Sequence[str], index: npt.ArrayLike) -> Text:
    """``strings[index[i]]`` in row ``i`` (for a few distinct strings and many rows)."""
    encoded = [s.encode() for s in strings]
    width = max(map(len, encoded), default=0)
    table = np.zeros((len(encoded), width), dtype=np.uint8)
    for row, data in enumerate(encoded):
        table[row, : len(data)] = np.frombuffer(data, dtype=np.uint8)
    lengths = np.array([len(data) for data in encoded], dtype=np.intp)
    rows = np.asarray(index, dtype=np.intp)
    return Text(table[rows], lengths[rows])


def numbers(values: npt.NDArray[np.integer]) -> Text:
    """Each integer in decimal, as ``str`` writes it (a minus sign, no leading zeros)."""
    signed = values.astype(np.int64)
    negative = signed < 0
    # abs() of the most negative int64 wraps to itself, which as uint64 is its magnitude.
    magnitude = np.abs(signed).astype(np.uint64)
    places = len(str(int(magnitude.max()))) if len(signed) else 1
    count = np.ones(len(signed), dtype=np.intp)
    for exponent in range(1, places):
        count += magnitude >= _POWERS[exponent]
    # Column by column (a few), each for all rows: a digit goes one column right after a sign.
    chars = np.empty((len(signed), places + 1), dtype=np.uint8)
    previous = np.full(len(signed), ord("-"), dtype=np.uint8)
    for column in range(places):
        power = _POWERS[np.maximum(count - 1 - column, 0)]
        digit = (magnitude // power % np.uint64(10)).astype(np.uint8) + np.uint8(ord("0"))
        chars[:, column] = np.where(negative, previous, digit)
        previous = digit
    chars[:, places] = previous
    return Text(chars, count + negative)


def separated(values: npt.NDArray[np.integer], separator: str) -> Text:
    """Each row of ``(k, m)`` integers in decimal, joined by a one-byte ``separator``."""
    k, m = values.shape
    text = numbers(values.reshape(-1))
    width = text.chars.shape[1] + 1
    # Each number with the separator after it in a slot of its own, then the slots of a row
    # packed side by side (bytes past a slot's use go to a spare last column).
    slots = np.empty((k * m, width), dtype=np.uint8)
    slots[:, :-1] = text.chars
    slots.reshape(-1)[np.arange(0, k * m * width, width) + text.length] = ord(separator)
    used = (text.length + 1).reshape(k, m)
    start = np.cumsum(used, axis=1) - used
    line = m * width + 1
    column = np.arange(width)
    place = (line - 1) + (column < used[:, :, np.newaxis]) * (
        start[:, :, np.newaxis] + column - (line - 1)
    )
    place += np.arange(0, k * line, line)[:, np.newaxis, np.newaxis]
    chars = np.empty((k, line), dtype=np.uint8)
    chars.reshape(-1)[place.reshape(k * m, width)] = slots
    return Text(chars, used.sum(axis=1) - 1)


def join(pieces: Sequence[Text]) -> Text:
    """The pieces side by side in each row (all with the same rows)."""
    rows = len(pieces[0].length)
    width = sum(piece.chars.shape[1] for piece in pieces)
    chars = np.zeros((rows, width), dtype=np.uint8)
    flat = chars.reshape(-1)
    end = np.arange(rows, dtype=np.intp) * width  # where the next piece starts, raveled
    for piece in pieces:
        # A piece is written in full; the bytes past its length are overwritten by the next.
        columns = np.arange(piece.chars.shape[1], dtype=np.intp)
        flat[end[:, np.newaxis] + columns] = piece.chars
        end += piece.length
    return Text(chars, end - np.arange(rows, dtype=np.intp) * width)


def decode(text: Text) -> list[str]:
    """The rows as Python strings."""
    data = text.chars.tobytes()
    width = text.chars.shape[1]
    starts = range(0, len(text.length) * width, width)
    lengths = text.length.tolist()
    return [data[start : start + n].decode() for start, n in zip(starts, lengths, strict=True)]
