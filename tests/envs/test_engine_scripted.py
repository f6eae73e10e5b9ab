"""Table-driven scripted hands: explicit deck, actions, expected pot, legal actions and payoffs.

Default rules: blinds 1/2, bets 2/4, four bets a round (the big blind counts as the first).
Decks list seat 0's cards, seat 1's, ..., then the five board cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from envs.cards import parse_card, parse_cards
from envs.events import Acted, BoardDealt
from envs.game import Hand
from envs.rules import Action, Rules, Street

F, C, R = Action.FOLD, Action.CALL, Action.RAISE


@dataclass(frozen=True)
class Script:
    name: str
    deck: str
    actions: str  # one letter per decision: f, c, r
    payoffs: tuple[int, ...]
    pot: int
    rules: Rules = field(default_factory=Rules)
    button: int = 0
    actors: str | None = None  # seat of each decision, as digits


SCRIPTS = [
    Script(
        "heads-up fold pre-flop: the button posts the small blind and acts first",
        "AsAh KdKc 2c3d4h 9s Jd",
        "f",
        payoffs=(-1, 1),
        pot=2,
        actors="0",  # 1 uncalled returned
    ),
    Script(
        "heads-up check-through: the big blind acts first after the flop",
        "AsAh KdKc 2c3d4h 9s Jd",
        "cccccccc",
        payoffs=(2, -2),
        pot=4,
        actors="01101010",
    ),
    Script(
        "heads-up with the button on seat 1",
        "AsAh KdKc 2c3d4h 9s Jd",
        "cccccccc",
        payoffs=(2, -2),
        pot=4,
        button=1,
        actors="10010101",
    ),
    Script(
        "pre-flop cap: the blind and three raises, then only fold or call",
        "AsAh KdKc 2c3d4h 9s Jd",
        "rrrc" + "cc" * 3,
        payoffs=(8, -8),
        pot=16,
        actors="0101101010",
    ),
    Script(
        "split pot: the board plays (royal flush)",
        "2c3d 4h5h AsKs QsJs Ts",
        "rccrcrcrc",
        payoffs=(0, 0),
        pot=2 * (4 + 2 + 4 + 4),
    ),
    Script(
        "three-handed odd chip goes to the first winner left of the button",
        "AcKd 7h2d AdKc QsJs 9c 4h 3d",
        "cfc" + "cc" * 3,
        payoffs=(0, -1, 1),
        pot=5,
        rules=Rules(num_seats=3),
        actors="012" + "20" * 3,
    ),
    Script(
        "side pots with a short stack: the all-in seat wins the main pot only",
        "AsAh KdKc QsQh 2c3d7h 9s Jd",
        "rrc" + "rc" + "rc" + "cc",
        payoffs=(8, 4, -12),
        pot=28,
        rules=Rules(num_seats=3, stacks=(4, 30, 30)),
        actors="012" + "12" * 3,
    ),
    Script(
        "multiway: folded seats do not extend the round",
        "AsAh KdKc QsQh JsJh 2c3d7h 9s Td",
        "crffc" + "cc" * 3,
        payoffs=(7, -1, -2, -4),
        pot=11,
        rules=Rules(num_seats=4),
        actors="30123" + "30" * 3,
    ),
]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
def test_scripted_hand(script: Script) -> None:
    hand = Hand(script.rules, parse_cards(script.deck), button=script.button)
    actors = []
    for letter in script.actions:
        assert not hand.is_over, f"the hand ended before action {letter!r}"
        actors.append(str(hand.actor))
        hand.act({"f": F, "c": C, "r": R}[letter])
    assert hand.is_over
    assert hand.payoffs == script.payoffs
    assert hand.pot == script.pot
    assert sum(hand.payoffs) == 0
    if script.actors is not None:
        assert "".join(actors) == script.actors


def test_fold_is_not_offered_when_checking_is_free() -> None:
    hand = Hand(Rules(), parse_cards("AsAh KdKc 2c3d4h 9s Jd"))
    hand.check_or_call()  # the small blind completes
    assert hand.legal_actions() == (C, R)
    assert not hand.can_fold()
    with pytest.raises(ValueError, match="checking is free"):
        hand.fold()


def test_cap_refuses_a_raise_with_the_reason() -> None:
    hand = Hand(Rules(), parse_cards("AsAh KdKc 2c3d4h 9s Jd"))
    for _ in range(3):
        hand.bet_or_raise()
    assert hand.num_bets == 4
    assert hand.legal_actions() == (F, C)
    with pytest.raises(ValueError, match="cap of 4 bets on the preflop"):
        hand.bet_or_raise()


def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    rules = Rules(num_seats=3, stacks=(50, 5, 50))
    hand = Hand(rules, parse_cards("AsAh KdKc QsQh 2c3d7h 9s Jd"))
    for action in (C, C, C):  # seat 0 limps, the small blind completes, the big blind checks
        hand.act(action)
    assert hand.street == Street.FLOP and hand.actor == 1
    hand.act(C)  # seat 1 checks
    hand.act(R)  # seat 2 bets 2
    hand.act(C)  # seat 0 calls
    hand.act(R)  # seat 1 raises all-in for 3: one chip short of a full raise
    assert hand.stacks[1] == 0
    assert hand.actor == 2
    assert hand.legal_actions() == (F, C)
    with pytest.raises(ValueError, match="short all-in"):
        hand.bet_or_raise()


def test_blinds_and_board_events() -> None:
    hand = Hand(Rules(num_seats=3), parse_cards("AsAh KdKc QsQh 2c3d7h 9s Jd"), button=1)
    assert hand.bets == (2, 0, 1)  # small blind seat 2, big blind seat 0
    while not hand.is_over:
        hand.check_or_call()
    boards = [e for e in hand.events if isinstance(e, BoardDealt)]
    assert [b.street for b in boards] == [Street.FLOP, Street.TURN, Street.RIVER]
    first_post_flop = next(e for e in hand.events if isinstance(e, Acted) and e.street)
    assert first_post_flop.seat == 2  # first active seat left of the button


def test_acpc_state_line() -> None:
    hand = Hand(Rules(), parse_cards("AsAh KdKc 2c3d4h 9s Jd"), button=0, hand_id=7)
    for action in (R, C, C, R, C, C, C, C, C):
        hand.act(action)
    # ACPC position 0 is the big blind heads-up (reverse blinds): seat 1 here.
    assert hand.to_acpc(["alice", "bob"]) == (
        "STATE:7:rc/crc/cc/cc:KdKc|AsAh/2c3d4h/9s/Jd:-6|6:bob|alice"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_seats": 11}, "num_seats must be between 2 and 10"),
        ({"num_seats": 1}, "num_seats must be between 2 and 10"),
        ({"small_blind": -1}, "small_blind must not be negative"),
        ({"big_blind": 0}, "big_blind must be positive"),
        ({"small_blind": 3, "big_blind": 2}, "must not exceed big_blind"),
        ({"big_bet": 1}, "must not be below small_bet"),
        ({"max_bets": (4, 4, 4)}, "one cap per round"),
        ({"max_bets": (0, 4, 4, 4)}, "at least 1"),
        ({"stacks": (10,)}, "one value per seat"),
        ({"stacks": (10, 0)}, "must be positive"),
        ({"small_bet": 2.5}, "must be an integer"),
        ({"small_bet": 2.5}, "small_bet must be an integer number of chips, got 2.5"),
        ({"num_seats": 2.5}, "num_seats must be an integer, got 2.5"),
        ({"num_seats": True}, "num_seats must be an integer, got True"),
        ({"max_bets": (4, 4.0, 4, 4)}, r"max_bets\[FLOP\] must be an integer, got 4.0"),
        ({"stacks": (True, 5)}, r"stacks\[0\] must be an integer number of chips, got True"),
    ],
)
def test_rules_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_rules_take_numpy_integers_and_store_python_ints() -> None:
    rules = Rules(
        num_seats=np.int64(3),
        big_bet=np.int32(4),
        max_bets=tuple(np.array([4, 4, 4, 4])),
        stacks=tuple(np.array([10, 20, 30])),
    )
    assert rules == Rules(num_seats=3, stacks=(10, 20, 30))
    values = (rules.num_seats, rules.big_bet, *rules.max_bets, *(rules.stacks or ()))
    assert all(type(v) is int for v in values)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("As Ah Kd Kc 2c 3d 4h 9s", "at least 9 cards"),
        ("As Ah Kd Kc 2c 3d 4h 9s As", "appears twice"),
    ],
)
def test_bad_decks_are_refused(deck: str, message: str) -> None:
    cards = [parse_card(text) for text in deck.split()]
    with pytest.raises(ValueError, match=message):
        Hand(Rules(), cards)


def test_acting_after_the_end_raises() -> None:
    hand = Hand(Rules(), parse_cards("AsAh KdKc 2c3d4h 9s Jd"))
    hand.fold()
    assert hand.legal_actions() == ()
    with pytest.raises(ValueError, match="the hand is over"):
        hand.check_or_call()
    with pytest.raises(ValueError, match="unknown action"):
        Hand(Rules(), parse_cards("AsAh KdKc 2c3d4h 9s Jd")).act(7)  # type: ignore[arg-type]
