"""Fixed-limit hold'em rules as one frozen value, validated at construction."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

from envs.validation import whole_number

MIN_SEATS = 2
MAX_SEATS = 10
_CHIPS = "an integer number of chips"


class Street(IntEnum):
    """Betting round."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


class Action(IntEnum):
    """The three fixed-limit decisions; also the index of ``Discrete(3)``.

    The value is the column of every legal-action mask (``HandBatch.legal_mask()``,
    ``DecisionBatch.legal``, the envs' ``action_mask``): column 0 FOLD, 1 CALL, 2 RAISE.
    """

    FOLD = 0
    CALL = 1
    """Check when nothing is owed, call otherwise."""
    RAISE = 2
    """Bet when nothing is owed, raise otherwise."""


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The constants of a fixed-limit hold'em game (ACPC ``holdem.limit`` by default).

    >>> Rules().max_bets
    (4, 4, 4, 4)
    >>> Rules(num_seats=11)
    Traceback (most recent call last):
      ...
    ValueError: num_seats must be between 2 and 10, got 11
    """

    num_seats: int = 2
    """Players at the table, 2 to 10."""
    small_blind: int = 1
    """Posted by the first seat left of the button (by the button heads-up)."""
    big_blind: int = 2
    """Posted by the next seat; it counts as the first bet of the pre-flop round."""
    small_bet: int = 2
    """Bet and raise size pre-flop and on the flop."""
    big_bet: int = 4
    """Bet and raise size on the turn and river."""
    max_bets: tuple[int, int, int, int] = (4, 4, 4, 4)
    """Most bets per round, counting the big blind pre-flop (ACPC ``maxRaises 3 4 4 4``)."""
    stacks: tuple[int, ...] | None = None
    """Chips per seat at the start of every hand; ``None`` means deep enough never to bind."""

    def __post_init__(self) -> None:
        # NumPy integers are accepted and stored as Python ints (hashing, JSON, speed).
        object.__setattr__(self, "num_seats", whole_number("num_seats", self.num_seats))
        for name in ("small_blind", "big_blind", "small_bet", "big_bet"):
            object.__setattr__(self, name, whole_number(name, getattr(self, name), what=_CHIPS))
        if not MIN_SEATS <= self.num_seats <= MAX_SEATS:
            raise ValueError(
                f"num_seats must be between {MIN_SEATS} and {MAX_SEATS}, got {self.num_seats}"
            )
        if self.small_blind < 0:
            raise ValueError(f"small_blind must not be negative, got {self.small_blind}")
        if self.big_blind <= 0:
            raise ValueError(f"big_blind must be positive, got {self.big_blind}")
        if self.small_blind > self.big_blind:
            raise ValueError(
                f"small_blind ({self.small_blind}) must not exceed big_blind ({self.big_blind})"
            )
        if self.small_bet <= 0:
            raise ValueError(f"small_bet must be positive, got {self.small_bet}")
        if self.big_bet < self.small_bet:
            raise ValueError(
                f"big_bet ({self.big_bet}) must not be below small_bet ({self.small_bet})"
            )
        if not isinstance(self.max_bets, tuple) or len(self.max_bets) != 4:
            raise ValueError(f"max_bets needs one cap per round (4 values), got {self.max_bets!r}")
        caps = tuple(
            whole_number(f"max_bets[{street.name}]", cap)
            for street, cap in zip(Street, self.max_bets, strict=True)
        )
        for street, cap in zip(Street, caps, strict=True):
            if cap < 1:
                raise ValueError(f"max_bets[{street.name}] must be at least 1, got {cap}")
        object.__setattr__(self, "max_bets", caps)
        if self.stacks is not None:
            if not isinstance(self.stacks, tuple) or len(self.stacks) != self.num_seats:
                raise ValueError(
                    f"stacks needs one value per seat ({self.num_seats}), got {self.stacks!r}"
                )
            stacks = tuple(
                whole_number(f"stacks[{seat}]", stack, what=_CHIPS)
                for seat, stack in enumerate(self.stacks)
            )
            for seat, stack in enumerate(stacks):
                if stack <= 0:
                    raise ValueError(f"stacks[{seat}] must be positive, got {stack}")
            object.__setattr__(self, "stacks", stacks)

    def bet_size(self, street: Street) -> int:
        """The fixed bet and raise increment of a round."""
        return self.small_bet if street <= Street.FLOP else self.big_bet

    @cached_property
    def bet_sizes(self) -> tuple[int, int, int, int]:
        """The fixed bet increment of each round, indexed by ``Street``."""
        return (self.small_bet, self.small_bet, self.big_bet, self.big_bet)

    @cached_property
    def max_commitment(self) -> int:
        """Most chips one seat can put in over a hand when stacks never bind."""
        return max(
            self.big_blind,
            sum(
                cap * self.bet_size(street)
                for street, cap in zip(Street, self.max_bets, strict=True)
            ),
        )

    @cached_property
    def starting_stacks(self) -> tuple[int, ...]:
        """Chips of each seat at the start of a hand (deep stacks never bind)."""
        if self.stacks is None:
            return (self.max_commitment,) * self.num_seats
        return self.stacks


ACPC_LIMIT_HEADS_UP = Rules(num_seats=2, small_blind=5, big_blind=10, small_bet=10, big_bet=20)
"""ACPC ``holdem.limit.2p.reverse_blinds``: blinds 5/10, bets 10/20, ``maxRaises 3 4 4 4``."""
