"""Events: each kind has its own identity, and one kind compares by value."""

from __future__ import annotations

import dataclasses
import itertools
import typing

import pytest

from envs.events import (
    Acted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HoleDealt,
    PotAwarded,
    ShowedDown,
)
from envs.game import Hand
from envs.rules import Action, Rules, Street

# One event of every kind, built from small ints wherever the fields allow, so that kinds
# with the same field shapes (BlindPosted and BetReturned; PotAwarded with ints) hold the very
# same values.
SAMPLES: tuple[Event, ...] = (
    HoleDealt(0, (1, 2)),
    BlindPosted(0, 1),
    BetReturned(0, 1),
    BoardDealt(Street.FLOP, (1, 2, 3)),
    Acted(Street.FLOP, 0, Action.CALL, 1),
    ShowedDown(0, (1, 2), 1),
    PotAwarded(0, 0, 1),
    HandEnded((1, -1)),
)


def test_the_samples_cover_every_kind() -> None:
    assert {type(e) for e in SAMPLES} == set(typing.get_args(Event))


def test_kinds_with_the_same_values_are_not_equal() -> None:
    assert BlindPosted(0, 1) != BetReturned(0, 1)
    assert not BlindPosted(0, 1) == BetReturned(0, 1)  # noqa: SIM201 - __eq__ itself


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(SAMPLES, 2)))
def test_different_kinds_never_compare_equal(a: Event, b: Event) -> None:
    assert a != b and b != a
    assert not (a == b or b == a)


@pytest.mark.parametrize("event", SAMPLES)
def test_the_same_kind_compares_and_hashes_by_value(event: Event) -> None:
    values = [getattr(event, f.name) for f in dataclasses.fields(event)]
    twin = type(event)(*values)
    assert twin == event and hash(twin) == hash(event)
    by_keyword = type(event)(**{f.name: getattr(event, f.name) for f in dataclasses.fields(event)})
    assert by_keyword == event
    # Not a tuple any more: never equal to its field values.
    assert event != tuple(values)
    changed = dataclasses.replace(event, **{dataclasses.fields(event)[0].name: 9})
    assert changed != event


@pytest.mark.parametrize("event", SAMPLES)
def test_events_are_immutable_and_build_like_their_dataclass(event: Event) -> None:
    first = dataclasses.fields(event)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(event, first, 5)
    with pytest.raises(TypeError):
        type(event)()  # every field is required
    assert not hasattr(event, "__dict__")  # slotted
    assert repr(event).startswith(f"{type(event).__name__}({first}=")


def test_a_played_hand_records_distinct_blind_and_returned_bet_events() -> None:
    # Seat 0 raises, seat 1 (short-stacked, 1 chip behind after its blind) calls all-in:
    # the uncalled part of seat 0's raise comes back as BetReturned, never as a blind.
    hand = Hand(Rules(), list(range(9)), button=0, stacks=(20, 3))
    hand.act(Action.RAISE)
    hand.act(Action.CALL)
    returned = [e for e in hand.events if type(e) is BetReturned]
    blinds = [e for e in hand.events if type(e) is BlindPosted]
    assert returned == [BetReturned(0, 1)]
    assert blinds == [BlindPosted(0, 1), BlindPosted(1, 2)]
    assert BetReturned(0, 1) not in blinds
