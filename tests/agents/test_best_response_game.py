"""The pieces of the best-response computation: bots as data, the public tree, the deck, the
backup and the two routes to exact showdown equities (issue 15)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest

from agents.baselines import CallAgent, RaiseAgent, RandomAgent
from agents.best_response import (
    CALL,
    FULL_DECK,
    RAISE,
    RANDOM,
    Deck,
    LearnerSeat,
    PublicState,
    Role,
    StreetMix,
    parse_policy,
)
from agents.best_response.backup import backup
from agents.best_response.flops import FlopValues
from agents.best_response.river_numerators import flop_layout, less_and_equal, river_numerators
from agents.best_response.single import completion_numerators
from agents.best_response.tree import Child, Outcome, Round, RoundNode, build_game
from envs.evaluator import evaluate
from envs.game import Hand
from envs.rules import Action, Rules, Street
from envs.view import PlayerView


def heads_up_views(hands: int, seed: int) -> list[PlayerView]:
    """Decision views of seeded heads-up hands played with random legal actions."""
    rng = np.random.default_rng(seed)
    views = []
    for hand_id in range(hands):
        hand = Hand(Rules(), rng.permutation(52), button=hand_id % 2, hand_id=hand_id)
        while (seat := hand.actor) is not None:
            views.append(hand.view(seat))
            legal = hand.legal_actions()
            weights = np.array([0.1 if a == Action.FOLD else 1.0 for a in legal])
            hand.act(legal[int(rng.choice(len(legal), p=weights / weights.sum()))])
    return views


def state_of(view: PlayerView) -> PublicState:
    rounds = ["" for _ in range(view.street + 1)]
    for acted in view.actions:
        rounds[acted.street] += "fcr"[acted.action]
    return PublicState(
        street=view.street,
        actor=Role.BOT,
        bot_is_button=view.seat == view.button,
        rounds=tuple(rounds),
        contributions=(view.contributions[1 - view.seat], view.contributions[view.seat]),
        num_bets=view.num_bets,
        to_call=view.to_call,
        legal_actions=view.legal_actions,
    )


def test_policies_describe_the_baseline_bots() -> None:
    for view in heads_up_views(60, seed=1):
        state = state_of(view)
        for policy, agent in ((CALL, CallAgent()), (RAISE, RaiseAgent())):
            probabilities = policy.probabilities(state)
            assert probabilities[agent.act(view)] == 1.0
        uniform = RANDOM.probabilities(state)
        assert [p > 0 for p in uniform] == [a in view.legal_actions for a in Action]
        assert sum(uniform) == pytest.approx(1.0)
        assert len(set(p for p in uniform if p > 0)) == 1
        agent = RandomAgent(rng=np.random.default_rng(0))
        assert agent.act(view) in view.legal_actions


def test_a_mix_moves_illegal_mass_to_check_or_call() -> None:
    mix = parse_policy("mix:0.2,0.5,0.3")
    base = dict(
        street=Street.FLOP,
        actor=Role.BOT,
        bot_is_button=True,
        rounds=("cc", ""),
        contributions=(2, 2),
        num_bets=0,
        to_call=0,
    )
    assert mix.probabilities(PublicState(**base, legal_actions=(Action.CALL, Action.RAISE))) == (
        0.0,
        0.7,
        0.3,
    )
    capped = dict(base, num_bets=4, to_call=2)
    assert mix.probabilities(PublicState(**capped, legal_actions=(Action.FOLD, Action.CALL))) == (
        0.2,
        0.8,
        0.0,
    )
    assert parse_policy("mix:0,0,1").probabilities(
        PublicState(**capped, legal_actions=(Action.FOLD, Action.CALL))
    ) == RAISE.probabilities(PublicState(**capped, legal_actions=(Action.FOLD, Action.CALL)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("maniac", "unknown bot"),
        ("mix:0.5,0.5", "three comma-separated"),
        ("mix:a,b,c", "three numbers"),
        ("mix:0.5,0.6,0.1", "sum to 1"),
        ("mix:-0.5,1.0,0.5", "non-negative"),
        ("mix:0,1,0/0,1,0", "four triples"),
    ],
)
def test_parse_policy_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_policy(text)


def test_policy_names_read_back() -> None:
    for text in (
        "call",
        "raise",
        "random",
        "fold",
        "mix:0.1,0.6,0.3",
        "mix:0,0.5,0.5/0.1,0.6,0.3/0.1,0.6,0.3/0.2,0.8,0",
    ):
        assert parse_policy(parse_policy(text).name) == parse_policy(text)
    assert parse_policy("mix:0,1,0").name == "mix:0,1,0"


@pytest.mark.parametrize("policy", [CALL, RANDOM], ids=["call", "random"])
def test_tree_follows_the_engine(policy: StreetMix) -> None:
    """Every engine decision maps to a tree node with the same actor, price and actions."""
    games = {seat: build_game(policy, Rules(), seat) for seat in LearnerSeat}
    for view in heads_up_views(150, seed=2):
        for learner in (view.seat, 1 - view.seat):
            seat = LearnerSeat.BUTTON if learner == view.button else LearnerSeat.BIG_BLIND
            moves = [
                (Role.LEARNER if a.seat == learner else Role.BOT, a.action) for a in view.actions
            ]
            street, round_id, index = games[seat].locate(moves)
            node = games[seat].rounds[street][round_id].nodes[index]
            assert street == view.street
            assert node.actor == (Role.LEARNER if view.seat == learner else Role.BOT)
            assert node.to_call == view.to_call
            assert node.legal_actions == view.legal_actions


def test_identical_rounds_are_shared_only_when_identical() -> None:
    game = build_game(RANDOM, Rules(), LearnerSeat.BUTTON)
    assert [len(rounds) for rounds in game.rounds] == [1, 4, 8, 16]
    assert [h for h, _ in game.preflop_exits] == [
        "cc",
        "crc",
        "crrc",
        "crrrc",
        "rc",
        "rrc",
        "rrrc",
    ]

    @dataclass(frozen=True)
    class Remembers:
        """Raises on the river only if it raised pre-flop: the history matters."""

        @property
        def name(self) -> str:
            return "remembers"

        def probabilities(self, state: PublicState) -> tuple[float, float, float]:
            keen = state.street == Street.RIVER and "r" in state.rounds[0]
            legal = state.legal_actions
            if keen and Action.RAISE in legal:
                return (0.0, 0.0, 1.0)
            return (0.0, 1.0, 0.0)

    remembering = build_game(Remembers(), Rules(), LearnerSeat.BUTTON)
    assert len(remembering.rounds[Street.RIVER]) > 16


def test_bad_rules_and_policies_are_refused() -> None:
    with pytest.raises(ValueError, match="heads-up"):
        build_game(CALL, Rules(num_seats=3), LearnerSeat.BUTTON)
    with pytest.raises(ValueError, match="never bind"):
        build_game(CALL, Rules(stacks=(20, 20)), LearnerSeat.BUTTON)

    @dataclass(frozen=True)
    class Cheater:
        @property
        def name(self) -> str:
            return "cheater"

        def probabilities(self, state: PublicState) -> tuple[float, float, float]:
            return (1.0, 0.0, 0.0)  # folds even when checking is free

    with pytest.raises(ValueError, match="illegal FOLD"):
        build_game(Cheater(), Rules(), LearnerSeat.BUTTON)


def test_canonical_flops_and_symmetries() -> None:
    flops, orbits = FULL_DECK.canonical_flops()
    assert (len(flops), int(orbits.sum()), len(FULL_DECK.symmetries)) == (1755, 22100, 24)
    assert FULL_DECK.canonical_flop((51, 47, 43)) == (40, 44, 48)  # QsKsAs -> QcKcAc
    small = Deck(tuple(4 * r + s for r in (8, 9, 10, 11, 12) for s in (0, 1)))
    assert len(small.symmetries) == 2
    with pytest.raises(ValueError, match="9 cards"):
        Deck((0, 1, 2, 3))


def test_ties_prefer_check_or_call_then_raise() -> None:
    node = RoundNode(
        Role.LEARNER,
        2,
        (Child(Outcome.LEARNER_FOLDS, 1), Child(Outcome.SHOWDOWN, 3), Child(Outcome.SHOWDOWN, 5)),
        None,
    )

    def showdown(chips: int) -> np.ndarray:
        return np.array([[chips * e for e in (-1 / 3, -0.2, 0.0, 0.5)]])

    result = backup(Round(Street.RIVER, (node,)), showdown=showdown)
    # e = -1/3 of the pot: folding (-1) and calling (-1) tie, call preferred; -0.2: call;
    # 0: call and raise tie at 0, call preferred; 0.5: raise.
    assert result.choices[0].tolist() == [Action.CALL, Action.CALL, Action.CALL, Action.RAISE]
    assert result.root[0] == pytest.approx([-1.0, -0.6, 0.0, 2.5])


def test_less_and_equal_counts() -> None:
    rng = np.random.default_rng(3)
    values = rng.integers(0, 6, size=(5, 7, 9)).astype(np.int16)
    less, equal = less_and_equal(values, bits=4)
    assert (less == (values[..., None, :] < values[..., :, None]).sum(-1)).all()
    assert (equal == (values[..., None, :] == values[..., :, None]).sum(-1)).all()


def test_river_numerators_against_direct_enumeration() -> None:
    rng = np.random.default_rng(4)
    for _ in range(3):
        cards = rng.permutation(52)
        flop = tuple(sorted(int(c) for c in cards[:3]))
        remaining, numerators = river_numerators(FULL_DECK, flop)
        layout = flop_layout(len(remaining))
        board_id, column = int(rng.integers(len(layout.pairs))), int(rng.integers(1081))
        board = [*flop, *remaining[layout.pairs[board_id]]]
        hole = list(remaining[layout.pairs[layout.live[board_id, column]]])
        unseen = [c for c in range(52) if c not in board and c not in hole]
        opponents = np.array([[*board, a, b] for a, b in itertools.combinations(unseen, 2)])
        mine = evaluate(np.array([*board, *hole]))
        theirs = evaluate(opponents)
        expected = 2 * np.count_nonzero(theirs < mine) + np.count_nonzero(theirs == mine)
        assert numerators[board_id, column] == expected


def test_one_holding_route_equals_the_all_holdings_route() -> None:
    flop = (6, 27, 49)
    remaining, numerators = river_numerators(FULL_DECK, flop)
    layout = flop_layout(len(remaining))
    for holding in (0, 611, 1175):
        hole = tuple(int(c) for c in remaining[layout.pairs[holding]])
        coming, single = completion_numerators(FULL_DECK, (hole[0], hole[1]), flop)
        labels = np.searchsorted(remaining, coming)
        boards = layout.pair_index[labels[:, 0], labels[:, 1]]
        columns = np.argmax(layout.live[boards] == holding, axis=1)
        assert (numerators[boards, columns] == single).all()
        turn = (*flop, int(coming[0, 0]))
        rivers, by_river = completion_numerators(FULL_DECK, (hole[0], hole[1]), turn)
        assert len(by_river) == 46
        first = int(np.flatnonzero((coming[:, 0] == turn[3]) & (coming[:, 1] == rivers[0, 0]))[0])
        assert by_river[0] == single[first]


def test_flop_values_respect_suit_isomorphism() -> None:
    """A holding on a flop is worth what the suit-relabelled holding is on the relabelled flop."""
    games = [build_game(RANDOM, Rules(), seat) for seat in LearnerSeat]
    values = FlopValues(games, FULL_DECK, quantities=1)
    flop = (0, 21, 46)  # 2c 7d Qh
    swap = FULL_DECK.symmetries[7]
    image = tuple(sorted(int(swap[c]) for c in flop))
    remaining, first = values.compute(flop)
    remaining_image, second = values.compute((image[0], image[1], image[2]))
    pairs = remaining[flop_layout(49).pairs]
    ids = FULL_DECK.holding_index[swap[pairs[:, 0]], swap[pairs[:, 1]]]
    image_pairs = remaining_image[flop_layout(49).pairs]
    position = {
        int(h): i
        for i, h in enumerate(FULL_DECK.holding_index[image_pairs[:, 0], image_pairs[:, 1]])
    }
    order = [position[int(h)] for h in ids]
    for seat in range(2):
        for a, b in zip(first[seat], second[seat], strict=True):
            assert np.allclose(a, b[:, order], atol=1e-12)
