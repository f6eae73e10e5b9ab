"""What one seat may see of a hand: the only input agents get."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TypeVar

from envs.events import Acted
from envs.rules import Action, Rules, Street

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["PlayerView", "position_of"]

Seats = TypeVar("Seats", int, "npt.NDArray[np.int64]")


def position_of(seat: Seats, button: Seats, num_seats: int) -> Seats:
    """The position of ``seat`` when the button is at ``button``: 0 for the first seat left of
    the button ... ``num_seats - 1`` for the button itself (ints, or int64 arrays elementwise).

    >>> [position_of(seat, 1, 3) for seat in range(3)]
    [1, 2, 0]
    """
    return (seat - button - 1) % num_seats


class PlayerView(NamedTuple):
    """Everything seat ``seat`` may know at one moment of a hand, and nothing else.

    Opponents' hole cards appear only in ``shown``, and only once they were shown down.
    Per-seat tuples are indexed by absolute seat number. Immutable; a ``NamedTuple`` rather
    than a frozen dataclass because the engine builds one per decision and a tuple is built
    several times faster.
    """

    rules: Rules
    hand_id: int
    """Number of the hand in its match or episode sequence."""
    seat: int
    button: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    """Board cards dealt so far (0, 3, 4 or 5)."""
    street: Street
    actions: tuple[Acted, ...]
    """The whole public betting history of the hand, in order (blinds excluded)."""
    blinds: tuple[int, ...]
    """Chips each seat posted as a blind."""
    bets: tuple[int, ...]
    """Chips each seat has put in during the current round (blinds count pre-flop)."""
    contributions: tuple[int, ...]
    """Chips each seat has put in during the whole hand."""
    stacks: tuple[int, ...]
    """Chips each seat has behind."""
    folded: tuple[bool, ...]
    num_bets: int
    """Bets made in the current round, the big blind counting as the first pre-flop."""
    to_call: int
    """Chips this seat must add to call (0 when it may check)."""
    legal_actions: tuple[Action, ...]
    """Empty unless this seat is to act."""
    is_terminal: bool = False
    shown: tuple[tuple[int, int] | None, ...] = ()
    """At the end of a hand: the hole cards each seat showed down (``None`` if not shown)."""
    payoffs: tuple[int, ...] = ()
    """At the end of a hand: each seat's net chips won (sums to zero)."""

    @property
    def num_seats(self) -> int:
        """Seats at the table."""
        return self.rules.num_seats

    @property
    def position(self) -> int:
        """0 for the first seat left of the button ... ``num_seats - 1`` for the button."""
        return position_of(self.seat, self.button, self.rules.num_seats)

    @property
    def pot(self) -> int:
        """All chips committed so far, current round included."""
        return sum(self.contributions)

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(s for s, f in enumerate(self.folded) if not f)

    @property
    def bet_size(self) -> int:
        """The fixed bet increment of the current round."""
        return self.rules.bet_size(self.street)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal for this seat now."""
        return action in self.legal_actions
