"""Checks of user input shared by every package: one message for one mistake.

>>> whole_number("hands", 3, minimum=1)
3
>>> whole_number("hands", 2.5, minimum=1)
Traceback (most recent call last):
  ...
ValueError: hands must be an integer >= 1, got 2.5
>>> whole_number("small_blind", True, what="an integer number of chips")
Traceback (most recent call last):
  ...
ValueError: small_blind must be an integer number of chips, got True
"""

from __future__ import annotations

import numbers

__all__ = ["whole_number"]


def whole_number(
    name: str, value: object, *, minimum: int | None = None, what: str = "an integer"
) -> int:
    """``value`` as a Python ``int``; ``ValueError`` naming ``name`` otherwise.

    Python and NumPy integers are accepted; booleans, floats (even ``2.0``), strings and
    anything else are refused, as is a value below ``minimum``.

    Args:
        name: How the caller's user knows the value (an argument or field name).
        value: The value to check.
        minimum: The smallest value allowed, or ``None`` for no bound.
        what: What the value must be, as the message says it (``"an integer number of
            chips"``); the bound is appended to it.
    """
    bound = f" >= {minimum}" if minimum is not None else ""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or (minimum is not None and value < minimum)
    ):
        raise ValueError(f"{name} must be {what}{bound}, got {value!r}")
    return int(value)
