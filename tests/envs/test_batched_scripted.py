"""Table-driven corner cases for the batched engine, with payoffs worked out by hand.

Each script is played at two tables of one batch (a third table is never dealt, so it must be
ignored), and by the scalar ``Hand``: seat to act, legal actions, payoffs, STATE line and
events must agree with the script and with each other. Default rules: blinds 1/2, bets 2/4,
four bets a round (the big blind counts as the first); decks list seat 0's cards, seat 1's,
..., then the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from envs.batched import HandBatch
from envs.cards import parse_cards
from envs.events import BetReturned
from envs.game import Hand
from envs.rules import Action, Rules

LETTERS = {"f": Action.FOLD, "c": Action.CALL, "r": Action.RAISE}


@dataclass(frozen=True)
class Script:
    name: str
    deck: str
    actions: str  # one letter per decision: f, c, r
    payoffs: tuple[int, ...]
    rules: Rules = field(default_factory=Rules)
    stacks: tuple[int, ...] | None = None
    button: int = 0
    actors: str = ""  # seat of each decision, as digits
    legal: str = ""  # legal actions before each decision, e.g. "fcr cr fc"
    state: str = ""  # the ACPC STATE line at the end


SCRIPTS = [
    Script(
        "short all-in raise does not reopen the betting (three-handed)",
        "AsAh KdKc QsQh 2c3d7h 9s Jd",
        "ccc" + "crcrcc" + "cc" + "cc",
        payoffs=(10, -5, -5),
        rules=Rules(num_seats=3),
        stacks=(50, 5, 50),
        actors="012" + "120120" + "20" + "20",
        legal="fcr fcr cr " + "cr cr fcr fcr fc fc " + "cr cr " + "cr cr",
    ),
    Script(
        "both blinds all-in: no decision, the hand ends when dealt, uncalled chip returned",
        "AsAh KdKc 2c3d4h 9s Jd",
        "",
        payoffs=(1, -1),
        stacks=(1, 3),
        state="STATE:0:///:KdKc|AsAh/2c3d4h/9s/Jd:-1|1:p1|p0",
    ),
    Script(
        "big blind all-in for less: the raise goes to its bet plus a bet; side pot",
        "2c7d 3h8s AsAh KdQc9h 5s 4d",
        "rc" + "cc" + "cc" + "cc",
        payoffs=(-3, 1, 2),
        rules=Rules(num_seats=3),
        stacks=(20, 20, 1),
        actors="01" + "10" + "10" + "10",
        legal="fcr fcr " + "cr cr " + "cr cr " + "cr cr",
    ),
    Script(
        "everyone all-in pre-flop: no raise without a caller, board run out",
        "AsAh KsKh QsQh 2c3d7h 9d Jc",
        "rrc",
        payoffs=(8, -2, -6),
        rules=Rules(num_seats=3),
        stacks=(4, 6, 8),
        actors="012",
        legal="fcr fcr fc",
        state="STATE:0:rrc///:KsKh|QsQh|AsAh/2c3d7h/9d/Jc:-2|-6|8:p1|p2|p0",
    ),
    Script(
        "odd chip of a split pot goes to the first winner left of the button",
        "AcKd 7h2d AdKc QsJs9c 4h 3d",
        "cfc" + "cc" * 3,
        payoffs=(0, -1, 1),
        rules=Rules(num_seats=3),
        actors="012" + "20" * 3,
    ),
    Script(
        "multiway side pots: main pot, split side pot with an odd chip, short all-in raise",
        "AsAc QdJh QcJs 7c3d AhKd8c 5s 2h",
        "rccc" + "rrcrcc" + "cc" + "cc",
        payoffs=(6, 2, 1, -9),
        rules=Rules(num_seats=4),
        stacks=(2, 9, 20, 20),
        button=3,
        actors="2301" + "123123" + "23" + "23",
        legal="fcr fcr fc fcr " + "cr fcr fcr fcr fc fc " + "cr cr " + "cr cr",
    ),
    Script(
        "pre-flop cap: the big blind and three raises, then only fold or call",
        "AsAh KdKc 2c3d4h 9s Jd",
        "rrrc" + "cc" * 3,
        payoffs=(8, -8),
        actors="0101" + "10" * 3,
        legal="fcr fcr fcr fc " + "cr cr " * 2 + "cr cr",
    ),
    Script(
        "flop cap: four bets, then only fold or call",
        "AsAh KdKc 2c3d4h 9s Jd",
        "cc" + "rrrrc" + "cc" + "cc",
        payoffs=(10, -10),
        actors="01" + "10101" + "10" + "10",
        legal="fcr cr " + "cr fcr fcr fcr fc " + "cr cr " + "cr cr",
    ),
    Script(
        "a cap of one bet pre-flop: nobody may raise the big blind, not even the big blind",
        "AsAh KdKc 2c3d4h 9s Jd",
        "cc" + "cc" * 3,
        payoffs=(2, -2),
        rules=Rules(max_bets=(1, 4, 4, 4)),
        legal="fc c " + "cr cr cr cr cr cr",
    ),
    Script(
        "an all-in call for less: the uncalled part of the raise goes back",
        "AsAh KdKc 2c3d4h 9s Jd",
        "rc",
        payoffs=(3, -3),
        stacks=(20, 3),
        actors="01",
        legal="fcr fc",
        state="STATE:0:rc///:KdKc|AsAh/2c3d4h/9s/Jd:-3|3:p1|p0",
    ),
]


def _legal_letters(actions: tuple[Action, ...]) -> str:
    return "".join("fcr"[a] for a in actions)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
def test_scripted_hand(script: Script) -> None:
    rules = script.rules
    deck = parse_cards(script.deck)
    hand = Hand(rules, deck, button=script.button, stacks=script.stacks)
    batch = HandBatch(rules, num_tables=3)
    played = [0, 2]
    stacks = rules.starting_stacks if script.stacks is None else script.stacks
    batch.start(played, [deck, deck], [script.button] * 2, [0, 0], [stacks, stacks])
    actors, legal = [], []
    for letter in script.actions:
        assert not hand.is_over and not batch.over[played].any(), "the hand ended too soon"
        actors.append(str(hand.actor))
        legal.append(_legal_letters(hand.legal_actions()))
        assert batch.actor[played].tolist() == [hand.actor] * 2
        assert batch.actor[1] == -1
        for table in played:
            assert batch.legal_mask()[table].tolist() == [
                a in hand.legal_actions() for a in Action
            ]
        action = LETTERS[letter]
        hand.act(action)
        batch.step(np.array([action, 7, action]))  # table 1 has no hand: its entry is ignored
    assert hand.is_over and batch.over[played].all() and batch.finished[played].all()
    assert hand.payoffs == script.payoffs
    if script.actors:
        assert "".join(actors) == script.actors
    if script.legal:
        assert " ".join(legal) == script.legal
    if script.state:
        assert hand.to_acpc() == script.state
    for table in played:
        assert tuple(batch.payoffs[table].tolist()) == script.payoffs
        assert batch.to_acpc(table) == hand.to_acpc()
        assert batch.events(table) == hand.events
        for seat in range(rules.num_seats):
            assert batch.view(table, seat) == hand.view(seat)
    assert batch.actor[1] == -1 and not batch.payoffs[1].any()
    with pytest.raises(ValueError, match="table 1 has not been dealt a hand yet"):
        batch.view(1, 0)


def test_uncalled_chips_are_returned_in_the_events() -> None:
    script = SCRIPTS[-1]
    batch = HandBatch(Rules(), num_tables=1)
    batch.start([0], [parse_cards(script.deck)], [0], [0], [script.stacks])
    batch.step(np.array([Action.RAISE]))
    batch.step(np.array([Action.CALL]))
    assert BetReturned(0, 1) in batch.events(0)
    assert batch.contributions[0].tolist() == [3, 3]
