"""PHH hand histories: the text of scripted hands, and seeded matches replayed in PokerKit.

PokerKit (the dev extra) is the oracle: it loads the written ``.phhs`` sets, replays every
hand from its actions alone, and must end each one with our payoffs and final stacks.
"""

from __future__ import annotations

import io
import tomllib
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
from pokerkit import HandHistory, State

from envs.cards import parse_cards
from envs.game import Hand
from envs.match import play_match
from envs.phh import PHHWriter, check_phh_rules, format_phh
from envs.rules import Action, Rules

AA_VS_KK = "AsAh KdKc 2c3d4h 9s Jd"


@dataclass(frozen=True)
class Played:
    """What our engine says about one hand, in PHH's player order."""

    hand_id: int
    payoffs: list[int]
    finishing: list[int]
    names: list[str]


def _record(hand: Hand, names: tuple[str, ...]) -> Played:
    n = hand.rules.num_seats
    order = [(hand.button + 1 + p) % n for p in range(n)]
    view = hand.view(0)
    return Played(
        view.hand_id,
        [hand.payoffs[s] for s in order],
        [view.stacks[s] for s in order],
        [names[s] for s in order],
    )


def _replay(hh: HandHistory) -> State:
    """Replay ``hh`` in PokerKit from its actions; warnings are errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        *_, last = hh  # the hand history iterates over the states after each action
    return last


def _play_scripted(deck: str, actions: list[Action], rules: Rules, button: int = 0) -> Hand:
    hand = Hand(rules, parse_cards(deck), button=button)
    for action in actions:
        hand.act(action)
    return hand


def test_scripted_heads_up_showdown_as_text() -> None:
    hand = _play_scripted(AA_VS_KK, [Action.RAISE] + [Action.CALL] * 7, Rules())
    text = format_phh(hand, ("alice", "bob"))
    fields = tomllib.loads(text)
    assert fields["variant"] == "FT"
    # Heads-up the big blind (seat 1, left of the button) is p1; PHH reverses the blinds.
    assert fields["players"] == ["bob", "alice"]
    assert fields["seats"] == [2, 1]
    assert fields["blinds_or_straddles"] == [1, 2]
    assert fields["starting_stacks"] == [48, 48]  # deep stacks: the engine's max commitment
    assert fields["actions"][:4] == ["d dh p1 KdKc", "d dh p2 AsAh", "p2 cbr 4", "p1 cc"]
    assert fields["actions"][-2:] == ["p1 sm KdKc", "p2 sm AsAh"]
    assert fields["finishing_stacks"] == [44, 52]
    assert fields["winnings"] == [0, 8]
    state = _replay(HandHistory.loads(text))
    assert list(state.payoffs) == [-4, 4]
    assert not state.status


def test_all_in_shows_cards_before_the_run_out() -> None:
    rules = Rules(stacks=(3, 40))
    # Seat 0 (button, small blind) raises all-in for 3 and the big blind calls.
    hand = _play_scripted("7c2d AhAd KsQsJd 4c 9h", [Action.RAISE, Action.CALL], rules)
    actions = tomllib.loads(format_phh(hand))["actions"]
    assert actions == [
        "d dh p1 AhAd",
        "d dh p2 7c2d",
        "p2 cbr 3",
        "p1 cc",
        "p1 sm AhAd",
        "p2 sm 7c2d",
        "d db KsQsJd",
        "d db 4c",
        "d db 9h",
    ]
    state = _replay(HandHistory.loads(format_phh(hand)))
    assert list(state.payoffs) == [3, -3]


def test_fold_ends_without_showdown_and_the_uncalled_bet_is_no_winning() -> None:
    hand = _play_scripted(AA_VS_KK, [Action.RAISE, Action.FOLD], Rules(num_seats=2))
    fields = tomllib.loads(format_phh(hand))
    assert fields["actions"][2:] == ["p2 cbr 4", "p1 f"]
    assert fields["finishing_stacks"] == [46, 50]
    assert fields["winnings"] == [0, 4]  # the pot; the uncalled 2 chips went back
    assert list(_replay(HandHistory.loads(format_phh(hand))).payoffs) == [-2, 2]


MATCHES = [
    # (agents, rules, hands): folds, showdowns and all-ins with finite stacks at 2, 3, 6 seats.
    (["random", "raise"], Rules(num_seats=2, stacks=(15, 40)), 1200),
    (["random", "call", "raise"], Rules(num_seats=3, stacks=(30, 12, 50)), 600),
    (
        ["random", "call", "raise", "rule", "random", "call"],
        Rules(num_seats=6, stacks=(20, 48, 9, 36, 60, 14)),
        500,
    ),
    (["random", "rule"], Rules(num_seats=2), 600),  # deep stacks
]


def _write_and_replay(
    path: Path, agents: list[str], rules: Rules, hands: int
) -> list[HandHistory]:
    """Write a seeded match to ``path``, load it in PokerKit and check every hand's ending."""
    played: list[Played] = []
    with PHHWriter(path) as history:

        def on_hand(hand: Hand, names: tuple[str, ...]) -> None:
            history.write(hand, names)
            played.append(_record(hand, names))

        result = play_match(agents, hands=hands, seed=11, rules=rules, on_hand=on_hand)
    assert history.hands == result.hands == len(played)
    with path.open("rb") as file, warnings.catch_warnings():
        warnings.simplefilter("error")
        histories = list(HandHistory.load_all(file))
    assert len(histories) == len(played)
    for hh, ours in zip(histories, played, strict=True):
        state = _replay(hh)
        assert not state.status, f"PokerKit expects more of hand {ours.hand_id}"
        assert list(state.payoffs) == ours.payoffs, hh.dumps()
        assert list(state.stacks) == ours.finishing == hh.finishing_stacks, hh.dumps()
        assert hh.players == ours.names
        assert hh.hand == ours.hand_id
    return histories


@pytest.mark.parametrize(("agents", "rules", "hands"), MATCHES)
def test_seeded_matches_replay_in_pokerkit_hand_by_hand(
    tmp_path: Path, agents: list[str], rules: Rules, hands: int
) -> None:
    histories = _write_and_replay(tmp_path / "match.phhs", agents, rules, hands)
    folds = sum(any(a.endswith(" f") for a in hh.actions) for hh in histories)
    showdowns = sum(any(" sm " in a for a in hh.actions) for hh in histories)
    assert folds > hands // 20 and showdowns > hands // 20
    if rules.stacks is None:
        assert {tuple(hh.starting_stacks) for hh in histories} == {rules.starting_stacks}
    else:  # someone put their whole stack in: their winnings are their final stack
        all_ins = sum(
            any(f == w for f, w in zip(hh.finishing_stacks, hh.winnings, strict=True))
            for hh in histories
        )
        assert all_ins > hands // 50


def test_pokerkit_cap_of_four_raises_besides_the_blind(tmp_path: Path) -> None:
    rules = Rules(max_bets=(5, 4, 4, 4))
    for hh in _write_and_replay(tmp_path / "cap.phhs", ["raise", "raise"], rules, 4):
        preflop = hh.actions[: next(i for i, a in enumerate(hh.actions) if " db " in a)]
        assert [a.split()[-1] for a in preflop if " cbr " in a] == ["4", "6", "8", "10"]


def test_sections_are_numbered_and_names_escaped(tmp_path: Path) -> None:
    names = ('say "hi"', "back\\slash", "ünïcødé\x7f")
    hands = [
        _play_scripted(AA_VS_KK, [Action.CALL, Action.CALL, Action.RAISE, Action.FOLD], Rules())
        for _ in range(3)
    ]
    path = tmp_path / "three.phhs"
    with PHHWriter(path) as history:
        for hand in hands:
            history.write(hand, names[:2])
    assert path.read_text(encoding="utf-8").count("\n[") == 2
    tables = tomllib.loads(path.read_text(encoding="utf-8"))
    assert list(tables) == ["1", "2", "3"]
    assert tables["1"]["players"] == [names[1], names[0]]
    with path.open("rb") as file:
        assert [hh.players for hh in HandHistory.load_all(file)] == [[names[1], names[0]]] * 3
    assert tomllib.loads(format_phh(hands[0], names[1:]))["players"] == [names[2], names[1]]


def test_stream_target_is_flushed_not_closed() -> None:
    stream = io.StringIO()
    writer = PHHWriter(stream)
    writer.write(_play_scripted(AA_VS_KK, [Action.RAISE, Action.FOLD], Rules()))
    writer.close()
    writer.close()  # idempotent
    assert not stream.closed
    assert "players" not in stream.getvalue()  # no names given: the field is omitted
    with pytest.raises(ValueError, match="closed"):
        writer.write(_play_scripted(AA_VS_KK, [Action.RAISE, Action.FOLD], Rules()))


def test_clear_errors() -> None:
    running = Hand(Rules(), parse_cards(AA_VS_KK), button=0)
    with pytest.raises(ValueError, match=r"not over.*seat 0 is to act"):
        format_phh(running)
    stream = io.StringIO()
    with pytest.raises(ValueError, match="not over"):
        PHHWriter(stream).write(running)
    assert stream.getvalue() == ""  # nothing half-written
    done = _play_scripted(AA_VS_KK, [Action.RAISE, Action.FOLD], Rules())
    with pytest.raises(ValueError, match="one name per seat"):
        format_phh(done, ("only one",))
    with pytest.raises(ValueError, match="one name per seat"):
        format_phh(done, "ab")
    too_many_bets = Rules(max_bets=(6, 4, 4, 4))
    with pytest.raises(ValueError, match=r"at most \(5, 4, 4, 4\).*max_bets=\(6, 4, 4, 4\)"):
        check_phh_rules(too_many_bets)
    hand = _play_scripted(AA_VS_KK, [Action.RAISE, Action.FOLD], too_many_bets)
    with pytest.raises(ValueError, match="cannot be written as PHH"):
        format_phh(hand)
    check_phh_rules(Rules(max_bets=(5, 4, 4, 4)))  # PokerKit's own cap is fine
