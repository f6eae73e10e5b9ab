"""The immutable record a hand leaves behind: one small value per thing that happened.

Each kind is its own frozen dataclass, so events of different kinds never compare equal while
events of one kind compare by value:

>>> BlindPosted(0, 1) == BetReturned(0, 1), BlindPosted(0, 1) == BlindPosted(0, 1)
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from envs.rules import Action, Street

_E = TypeVar("_E")


def _cheap_init(cls: type[_E]) -> type[_E]:
    """Give a frozen, slotted dataclass an ``__init__`` that writes its slots directly.

    A frozen dataclass's own ``__init__`` calls ``object.__setattr__`` once per field, which
    makes an event twice as slow to build as a ``NamedTuple``; the engine builds a dozen per
    hand. Writing through the slot descriptors costs what a ``NamedTuple`` does. The signature
    is the dataclass's own (positional or keyword fields, no defaults), so only the speed
    changes; assigning to a field afterwards still raises ``FrozenInstanceError``.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]  # a dataclass by contract
    namespace: dict[str, Any] = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
    body = "".join(f"\n    _set_{name}(self, {name})" for name in names)
    # The source is built from the dataclass's own field names, nothing from outside.
    exec(f"def __init__(self, {', '.join(names)}):{body}", namespace)
    namespace["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", namespace["__init__"])  # noqa: B010 - mypy forbids cls.__init__ =
    return cls


@_cheap_init
@dataclass(frozen=True, slots=True)
class HoleDealt:
    """Two private cards dealt to a seat."""

    seat: int
    cards: tuple[int, int]


@_cheap_init
@dataclass(frozen=True, slots=True)
class BlindPosted:
    """A forced bet (possibly all-in for less than the blind)."""

    seat: int
    amount: int


@_cheap_init
@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Community cards of a round (three on the flop, one on the turn and river)."""

    street: Street
    cards: tuple[int, ...]


@_cheap_init
@dataclass(frozen=True, slots=True)
class Acted:
    """A betting decision; ``amount`` is the chips the seat put in with it."""

    street: Street
    seat: int
    action: Action
    amount: int


@_cheap_init
@dataclass(frozen=True, slots=True)
class BetReturned:
    """The uncalled part of a bet, given back at the end of a round."""

    seat: int
    amount: int


@_cheap_init
@dataclass(frozen=True, slots=True)
class ShowedDown:
    """A seat showing its cards; ``rank`` is 1..7462, higher is stronger."""

    seat: int
    cards: tuple[int, int]
    rank: int


@_cheap_init
@dataclass(frozen=True, slots=True)
class PotAwarded:
    """Chips of pot ``pot`` (0 = main pot, then side pots) given to a winner."""

    pot: int
    seat: int
    amount: int


@_cheap_init
@dataclass(frozen=True, slots=True)
class HandEnded:
    """Net chips won by each seat; they sum to zero."""

    payoffs: tuple[int, ...]


Event = (
    HoleDealt
    | BlindPosted
    | BoardDealt
    | Acted
    | BetReturned
    | ShowedDown
    | PotAwarded
    | HandEnded
)
