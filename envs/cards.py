"""Cards as integers 0..51, with strings only at the boundary.

A card is ``4 * rank + suit`` with rank 0..12 for 2..A and suit 0..3 for clubs, diamonds,
hearts, spades (the encoding of phevaluator and OMPEval, so that ``card // 4`` is the rank).

>>> parse_cards("AsKd")
(51, 45)
>>> format_cards((51, 45))
'AsKd'
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

DECK_SIZE = 52
_ALL_CARDS = frozenset(range(DECK_SIZE))
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"


class Rank(IntEnum):
    """Card rank, 2 (lowest) to ace (highest)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12


class Suit(IntEnum):
    """Card suit."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


def parse_card(text: str) -> int:
    """Parse one card such as ``"As"`` or ``"td"`` (rank case-insensitive, suit lower or upper).

    >>> parse_card("2c"), parse_card("Ah")
    (0, 50)
    """
    if len(text) != 2:
        raise ValueError(f"a card is two characters (rank, suit), got {text!r}")
    rank = RANK_CHARS.find(text[0].upper())
    suit = SUIT_CHARS.find(text[1].lower())
    if rank < 0:
        raise ValueError(f"unknown rank {text[0]!r} in {text!r}; ranks are {RANK_CHARS}")
    if suit < 0:
        raise ValueError(f"unknown suit {text[1]!r} in {text!r}; suits are {SUIT_CHARS}")
    return 4 * rank + suit


def parse_cards(text: str) -> tuple[int, ...]:
    """Parse cards written together or separated by spaces or commas: ``"AsKd"``, ``"As Kd"``.

    Raises ``ValueError`` on a malformed string or a repeated card.

    >>> parse_cards("Qh 7d, 2h")
    (42, 21, 2)
    """
    compact = "".join(text.replace(",", " ").split())
    if len(compact) % 2:
        raise ValueError(f"cards are two characters each, got {text!r}")
    cards = tuple(parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2))
    check_distinct(cards)
    return cards


def format_card(card: int) -> str:
    """Format one card id as two characters.

    >>> format_card(0)
    '2c'
    """
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"card ids are 0..51, got {card}")
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


def format_cards(cards: Iterable[int], sep: str = "") -> str:
    """Format card ids as a string such as ``"AsKd"``."""
    return sep.join(format_card(int(c)) for c in cards)


def check_distinct(cards: Iterable[int]) -> None:
    """Raise ``ValueError`` if a card id is out of range or repeated."""
    seen: set[int] = set()
    for card in cards:
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"card ids are 0..51, got {card}")
        if card in seen:
            raise ValueError(f"card {format_card(card)} appears twice")
        seen.add(card)


def deck_cards(deck: Sequence[int] | npt.NDArray[Any], needed: int) -> tuple[int, ...]:
    """The first ``needed`` cards of ``deck`` as Python ints, once the whole deck is checked.

    A deck is a flat sequence (or NumPy array) of integer card ids. Every card given must be
    valid and distinct, including those beyond the ``needed`` that are dealt.

    >>> deck_cards(range(52), 9)
    (0, 1, 2, 3, 4, 5, 6, 7, 8)
    >>> deck_cards([0.5, 1, 2, 3, 4, 5, 6, 7, 8], 9)
    Traceback (most recent call last):
      ...
    ValueError: a deck holds integer card ids 0..51, got 0.5 (float) at position 0

    Raises:
        ValueError: if the deck is not a flat sequence of integers (floats, booleans and
            strings are refused, not converted), has fewer than ``needed`` cards, or holds a
            card outside 0..51 or the same card twice.
    """
    given: object = deck  # anything may come in; the annotation is what should
    if isinstance(deck, np.ndarray):
        if deck.ndim != 1 or deck.dtype.kind not in "iu":
            hint = (
                ": parse card strings with envs.cards.parse_cards"
                if deck.dtype.kind in "SU"
                else ""
            )
            raise ValueError(
                f"a deck holds integer card ids 0..51, got an array of dtype {deck.dtype} "
                f"and shape {deck.shape}{hint}"
            )
        cards: list[int] = deck.tolist()
    elif isinstance(given, str):
        raise ValueError(
            f"a deck holds integer card ids 0..51, got the string {deck!r}: parse it with "
            "envs.cards.parse_cards"
        )
    elif isinstance(given, Iterable):
        cards = list(deck)
        if set(map(type, cards)) != {int}:  # one C-level pass; the loop only on a mistake
            cards = [_card_id(card, position) for position, card in enumerate(cards)]
    else:
        raise ValueError(f"a deck is a sequence of integer card ids 0..51, got {deck!r}")
    if len(cards) < needed:
        raise ValueError(f"the deck needs at least {needed} cards here, got {len(cards)}")
    # Distinct and within 0..51 at once: only ids 0..51 are kept by the intersection.
    if len(_ALL_CARDS.intersection(cards)) != len(cards):
        check_distinct(cards)
    return tuple(cards[:needed])


def _card_id(card: object, position: int) -> int:
    if isinstance(card, bool) or not isinstance(card, numbers.Integral):
        hint = ": parse card strings with envs.cards.parse_cards" if isinstance(card, str) else ""
        raise ValueError(
            f"a deck holds integer card ids 0..51, got {card!r} ({type(card).__name__}) "
            f"at position {position}{hint}"
        )
    return int(card)
