"""Bad input to ``Hand`` is refused with a clear ``ValueError``; what it exposes is read-only."""

from __future__ import annotations

import numpy as np
import pytest

from envs.cards import parse_cards
from envs.game import Hand
from envs.rules import Action, Rules, Street

DECK = list(range(52))


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        # Floats crashed at the showdown (3 seats) or were truncated (0.5 dealt card 0).
        (np.arange(52, dtype=float), "integer card ids 0..51, got an array of dtype float64"),
        ([0.5, *range(1, 52)], r"integer card ids 0..51, got 0.5 \(float\) at position 0"),
        ([float(c) for c in DECK], r"got 0.0 \(float\) at position 0"),
        ([*range(51), True], r"got True \(bool\) at position 51"),
        (np.ones(52, dtype=bool), "dtype bool"),
        (np.arange(52).reshape(4, 13), r"shape \(4, 13\)"),
        # Strings: say what a deck is and where to turn strings into cards.
        (["As", "Ah", *DECK[:50]], r"got 'As' \(str\) at position 0.*parse_cards"),
        ("AsAhKdKc2c3d4h9sJd7c8c", "got the string.*parse_cards"),
        (np.array(["As"] * 52), "dtype <U2.*parse_cards"),
        (52, "sequence of integer card ids"),
        # The whole deck must be distinct valid cards, not only the cards dealt.
        ([*range(51), 3], "card 2s appears twice"),
        ([*range(51), 52], "card ids are 0..51, got 52"),
        (np.array([*range(51), -1]), "card ids are 0..51, got -1"),
        ([*range(10)], "at least 11 cards"),
    ],
)
def test_bad_decks_are_refused_with_the_reason(deck: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Hand(Rules(num_seats=3), deck)  # type: ignore[arg-type]


def test_a_float_deck_no_longer_reaches_the_showdown() -> None:
    """``np.arange(52, dtype=float)`` used to be accepted and crash at the showdown."""
    with pytest.raises(ValueError, match="dtype float64"):
        Hand(Rules(num_seats=3), np.arange(52, dtype=float))


@pytest.mark.parametrize(
    "deck",
    [
        np.arange(52, dtype=np.int8),
        np.arange(52, dtype=np.uint8),
        np.random.default_rng(0).permutation(52),
        [np.int64(c) for c in DECK],
        tuple(DECK[:11]),
        range(52),
    ],
)
def test_integer_decks_of_any_kind_are_accepted(deck: object) -> None:
    hand = Hand(Rules(num_seats=3), deck)  # type: ignore[arg-type]
    assert all(type(c) is int for c in hand.hole(0) + hand.hole(2))
    while hand.actor is not None:
        hand.act(Action.CALL)
    assert sum(hand.payoffs) == 0


@pytest.mark.parametrize(
    ("stacks", "message"),
    [
        ((10.5, 20), r"stacks\[0\] must be an integer number of chips >= 1, got 10.5"),
        ((True, 5), r"stacks\[0\] must be an integer number of chips >= 1, got True"),
        ((5, 0), r"stacks\[1\] must be an integer number of chips >= 1, got 0"),
        ((5, "20"), r"stacks\[1\] must be an integer number of chips"),
        ((5,), "stacks must be 2 positive chip counts"),
        (5, "stacks must be 2 positive chip counts"),
        ("55", "stacks must be 2 positive chip counts"),
    ],
)
def test_stack_overrides_are_checked_as_rules_stacks_are(stacks: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Hand(Rules(), DECK, stacks=stacks)  # type: ignore[arg-type]
    if isinstance(stacks, tuple) and len(stacks) == 2:
        with pytest.raises(ValueError, match=r"stacks\[\d\] must be"):
            Rules(stacks=stacks)  # type: ignore[arg-type]


def test_numpy_integer_stacks_button_and_hand_id_are_accepted() -> None:
    hand = Hand(Rules(), DECK, button=np.int64(1), hand_id=np.int32(4), stacks=np.array([7, 9]))
    assert (hand.button, hand.hand_id, hand.stacks) == (1, 4, (5, 8))
    assert all(type(x) is int for x in (hand.button, hand.hand_id, *hand.stacks))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"button": 2}, "button must be a seat 0..1, got 2"),
        ({"button": -1}, "button must be a seat 0..1, got -1"),
        ({"button": 0.5}, "button must be a seat, got 0.5"),
        ({"button": True}, "button must be a seat, got True"),
        ({"hand_id": -1}, "hand_id must be an integer >= 0, got -1"),
        ({"hand_id": 1.0}, "hand_id must be an integer >= 0, got 1.0"),
    ],
)
def test_bad_button_and_hand_id_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Hand(Rules(), DECK, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [True, False, 1, 2, np.int64(1), 1.0, "CALL", None])
def test_act_takes_action_members_only(action: object) -> None:
    """``hand.act(True)`` used to count as a call (``True == Action.CALL``)."""
    hand = Hand(Rules(), DECK)
    with pytest.raises(ValueError, match=r"unknown action.*Hand.act takes an envs.Action"):
        hand.act(action)  # type: ignore[arg-type]
    assert hand.actor == 0 and hand.events == Hand(Rules(), DECK).events  # nothing happened
    hand.act(Action(1))  # an index converts explicitly
    assert hand.actor == 1


def test_state_is_read_only() -> None:
    hand = Hand(Rules(num_seats=3), parse_cards("AsAh KdKc QsQh 2c3d4h 9s Jd"))
    assert hand.stacks == (48, 47, 46) and hand.bets == (0, 1, 2)
    assert hand.contributions == (0, 1, 2) and hand.folded == (False,) * 3
    for name in (
        "stacks",
        "bets",
        "contributions",
        "folded",
        "board",
        "street",
        "num_bets",
        "button",
        "hand_id",
        "rules",
        "num_seats",
        "pot",
    ):
        value = getattr(hand, name)
        assert not isinstance(value, list | dict | set | np.ndarray), name
        with pytest.raises(AttributeError):
            setattr(hand, name, value)
    hand.act(Action.RAISE)
    assert hand.stacks == (44, 47, 46) and hand.bets == (4, 1, 2) and hand.num_bets == 2
    assert hand.street == Street.PREFLOP and hand.pot == 7
