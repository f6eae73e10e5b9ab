"""The deeper look-aheads of the local best response (``agents.lbr.lookahead``,
``agents.lbr.public_tree``): values on hand-made ranges and public spots against numbers
worked by hand, never below the check-down values, the exact best response's river decisions,
the ``lbr2-`` and ``lbr3-`` agents, and refusals. The batched twins are in
``test_lbr_batched.py``."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import agents.lbr as lbr
from agents.baselines import RandomAgent
from agents.best_response import BestResponseAgent
from agents.best_response.bots import CALL, FOLD, RANDOM, BotPolicy
from agents.best_response.public import LearnerSeat, Role
from agents.biased import PairRaiseAgent
from agents.lbr import CardIndependent, LBRParams, LocalBestResponse, Lookahead, VectorRule
from agents.lbr.batched_lbr import BatchedLBR
from agents.lbr.batched_ranges import BatchedCardIndependent
from agents.lbr.equity_cache import EquityCache
from agents.lbr.lookahead import call_values, continuation, continued_bets, raise_values
from agents.lbr.public_tree import PublicTree
from envs.batched.adapter import has_batched_form
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Action, Rules, Street

NAN = float("nan")
THIRDS = (1 / 3, 1 / 3, 1 / 3)

# pot, equity, answers (fold, call, raise), later bets, W_1 worked by hand
CONTINUATIONS = [
    # no later street: the showdown share
    (10.0, 0.3, THIRDS, (0, 0, 0), 3.0),
    # river bet of 4 with nothing: 1/3 x 10 won, 1/3 called (-4), 1/3 raised (we fold, -4)
    (10.0, 0.0, THIRDS, (4, 0, 0), 10 / 3 - 4 / 3 - 4 / 3),
    # the nuts against a caller, bets 2 then 4: each bet wins (2e - 1) b more
    (10.0, 1.0, (0.0, 1.0, 0.0), (2, 4, 0), 10.0 + 2.0 + 4.0),
    # even money against a caller: betting adds nothing
    (10.0, 0.5, (0.0, 1.0, 0.0), (2, 4, 4), 5.0),
    # it always folds: the first bet takes the pot
    (10.0, 0.0, (1.0, 0.0, 0.0), (2, 4, 4), 10.0),
    # it always raises: calling loses 0.25 x 26 - 8 = -1.5 < checking's 2.5
    (10.0, 0.25, (0.0, 0.0, 1.0), (4, 0, 0), 2.5),
]


@pytest.mark.parametrize(("pot", "equity", "answers", "later", "expected"), CONTINUATIONS)
def test_continuation_by_hand(
    pot: float,
    equity: float,
    answers: tuple[float, float, float],
    later: tuple[int, int, int],
    expected: float,
) -> None:
    one = np.ones((1, 1))  # one holding
    response = (one * answers[0], one * answers[1], one * answers[2])
    got = continuation(
        one, one * equity, response, np.array([pot]), np.array([later], dtype=float)
    )
    assert got[0] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("street", "expected"),
    [
        (Street.PREFLOP, (0, 0, 0)),  # FROM_STREET
        (Street.FLOP, (4, 4, 0)),
        (Street.TURN, (4, 0, 0)),
        (Street.RIVER, (0, 0, 0)),
    ],
)
def test_continued_bets_of_the_default_game(street: Street, expected: tuple[int, ...]) -> None:
    np.testing.assert_array_equal(continued_bets(Rules().bet_sizes, [street]), [expected])


def _columns(response: list[list[float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.array(response)[np.newaxis]
    return rows[..., 0], rows[..., 1], rows[..., 2]


# share, equity, response per holding, pot, to_call, bet, later, call value, raise value
SPOTS = [
    # On the turn: holding A (1/4, we beat it) calls our raise, B (3/4, beats us) folds.
    # Call, then bet the river: B folds (3/4 x 12), A calls (1/4 x (12 + 8 - 4)), minus the
    # 2 we call now. Raise: 3/4 x 10; called, A calls the river bet: 1/4 x (28 - 4 - 6).
    (
        [0.25, 0.75],
        [1.0, 0.0],
        [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
        (10, 2, 4),
        (4, 0, 0),
        0.75 * 12 + 0.25 * 16 - 2,
        7.5 + 0.25 * 18,
    ),
    # A re-raises our raise, B calls it, we hold 0.4 against both. A river bet is called by B
    # (0.4 x 8 - 4 < 0) and raised by A (0.4 x 16 - 8 < 0): never worth it. So the call is
    # the check-down; raise: B calls (3/4 x (0.4 x 20 - 6)), A re-raises and we call
    # (1/4 x (0.4 x 28 - 10) = 0.3 > folding's 1/4 x -6).
    (
        [0.25, 0.75],
        [0.4, 0.4],
        [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
        (10, 2, 4),
        (4, 0, 0),
        0.4 * 12 - 2,
        0.75 * (0.4 * 20 - 6) + 0.25 * (0.4 * 28 - 10),
    ),
    # The same on the river: the check-down values (0.25 x 12 - 2; 7.5 + 1/4 x (20 - 6)).
    (
        [0.25, 0.75],
        [1.0, 0.0],
        [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
        (10, 2, 4),
        (0, 0, 0),
        1.0,
        11.0,
    ),
    # River, it re-raises a beaten hand of ours: we fold the re-raise (-4), check-down's -8.
    ([1.0], [0.0], [[0.0, 0.0, 1.0]], (10, 0, 4), (0, 0, 0), 0.0, -4.0),
    # River, it re-raises with a hand we beat half the time: we call, 0.5 x 26 - 8 = 5.
    ([1.0], [0.5], [[0.0, 0.0, 1.0]], (10, 0, 4), (0, 0, 0), 5.0, 5.0),
]


@pytest.mark.parametrize(("share", "equity", "response", "spot", "later", "call", "raise_"), SPOTS)
def test_values_by_hand(
    share: list[float],
    equity: list[float],
    response: list[list[float]],
    spot: tuple[int, int, int],
    later: tuple[int, int, int],
    call: float,
    raise_: float,
) -> None:
    pot, to_call, bet = (np.array([float(x)]) for x in spot)
    args = (np.array([share]), np.array([equity]))
    rows = {"pot": pot, "to_call": to_call, "later": np.array([later], dtype=float)}
    got_call = call_values(*args, response=_columns(response), **rows)
    got_raise = raise_values(*args, bet=bet, response=_columns(response), **rows)
    assert got_call[0] == pytest.approx(call, abs=1e-12)
    assert got_raise[0] == pytest.approx(raise_, abs=1e-12)


def test_deeper_values_are_never_below_the_check_down_ones() -> None:
    """Against ``random`` at the LBR's decisions of played hands: the same fold and win
    probability, call and raise at least the check-down values, and often more."""
    small = LBRParams(preflop_samples=40, flop_samples=30)
    plain = LocalBestResponse(CardIndependent(RandomAgent()), params=small)
    deeper = LocalBestResponse(
        CardIndependent(RandomAgent()), params=replace(small, lookahead=Lookahead.LATER_BETS)
    )
    rng = np.random.default_rng(7)
    compared = higher = 0
    for deal in range(30):
        hand = Hand(Rules(), deal_deck(5, deal).tolist(), button=deal % 2, hand_id=deal)
        while not hand.is_over:
            view = hand.view(hand.actor)
            legal = [a for a in hand.legal_actions() if a != Action.FOLD]
            if hand.actor == 0:
                a, b = plain.values(view), deeper.values(view)
                assert b.win_probability == pytest.approx(a.win_probability, abs=1e-12)
                assert np.isnan(b.fold) == np.isnan(a.fold)
                assert b.call >= a.call - 1e-9
                if not np.isnan(a.raise_):
                    assert b.raise_ >= a.raise_ - 1e-9
                    assert b.fold_probability == pytest.approx(a.fold_probability)
                    higher += b.call > a.call + 1e-6
                compared += 1
            hand.act(legal[int(rng.integers(len(legal)))])
    assert compared >= 30
    assert higher >= compared // 4  # random folds to later bets: calling is worth more


def test_the_deeper_agents_are_registered() -> None:
    """The ``lbr2-`` and ``lbr3-`` entry points build the ``lbr-`` agent of the same opponent
    with the default settings but the look-ahead."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    entries = tomllib.loads(pyproject.read_text())["project"]["entry-points"]
    lookaheads = {"lbr2": Lookahead.LATER_BETS, "lbr3": Lookahead.PUBLIC_TREE}
    found = {prefix: 0 for prefix in lookaheads}
    for name, target in entries["holdem_lab.agents"].items():
        prefix, _, opponent = name.partition("-")
        if prefix not in lookaheads:
            continue
        factory = target.partition(":")[2]
        agent = getattr(lbr, factory)()
        plain = getattr(lbr, factory.replace(f"{prefix}_", "lbr_"))()
        assert agent.name == name
        assert agent.opponent.name == plain.opponent.name == opponent
        assert agent.params == replace(plain.params, lookahead=lookaheads[prefix])
        assert has_batched_form(agent) == has_batched_form(plain), name
        found[prefix] += 1
    assert found == {"lbr2": 7, "lbr3": 3}


@pytest.mark.parametrize("value", ["later-bets", None, 1])
def test_a_lookahead_that_is_not_a_member_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match=r"lookahead must be one of Lookahead\.CHECK_DOWN"):
        LBRParams(lookahead=value)  # type: ignore[arg-type]


LIMPED_TO_THE_RIVER = [(Role.BOT, Action.CALL), (Role.LEARNER, Action.CALL)] + [
    (Role.LEARNER, Action.CALL),
    (Role.BOT, Action.CALL),
] * 2
"""Big blind: the button limps, we check; flop and turn checked through; our river turn."""

# policy, our seat, moves, equity, our chips in, (fold, call, raise) worked by hand
TREE_SPOTS = [
    # Against call, on the flop first to act after a limped pot of 2 each: it never bets or
    # raises, so we bet each later street iff e > 1/2: (2e - 1) x final chips + 2.
    (CALL, LearnerSeat.BIG_BLIND, LIMPED_TO_THE_RIVER[:2], 0.75, 2, (NAN, 7.0, 8.0)),
    (CALL, LearnerSeat.BIG_BLIND, LIMPED_TO_THE_RIVER[:2], 0.25, 2, (NAN, 1.0, 0.0)),
    # Against fold, first to act pre-flop: its chips (2) are ours whether we raise now or
    # limp and bet the flop.
    (FOLD, LearnerSeat.BUTTON, [], 0.0, 1, (0.0, 3.0, 3.0)),
    # Against random on the river, 2 chips each. With nothing: checking loses the 2 (its
    # bet is folded to or raised, worth the same), betting loses 2 + 4/3 on average.
    (RANDOM, LearnerSeat.BIG_BLIND, LIMPED_TO_THE_RIVER, 0.0, 2, (NAN, 0.0, -4 / 3)),
    # With the nuts: check (it checks: +2, or bets into our raises: +32/3) or bet (+22/3).
    (RANDOM, LearnerSeat.BIG_BLIND, LIMPED_TO_THE_RIVER, 1.0, 2, (NAN, 25 / 3, 28 / 3)),
]


@pytest.mark.parametrize(("policy", "seat", "moves", "equity", "chips", "expected"), TREE_SPOTS)
def test_public_tree_values_by_hand(
    policy: BotPolicy,
    seat: LearnerSeat,
    moves: list[tuple[Role, Action]],
    equity: float,
    chips: int,
    expected: tuple[float, float, float],
) -> None:
    got = PublicTree(policy, Rules()).values(
        [seat], [moves], np.array([equity]), np.array([float(chips)])
    )
    np.testing.assert_allclose(got[0], expected, rtol=0, atol=1e-12)


def test_on_the_river_it_plays_the_exact_best_response_to_random() -> None:
    """On the river no card is to come, so the public-tree look-ahead with exact equities is
    the exact best response: the same decisions where the best two values differ."""
    lbr = LocalBestResponse(
        CardIndependent(RandomAgent()), params=LBRParams(lookahead=Lookahead.PUBLIC_TREE)
    )
    best = BestResponseAgent(RANDOM)
    opponent = RandomAgent(rng=np.random.default_rng(2))
    rng = np.random.default_rng(9)
    compared = 0
    while compared < 12:
        hand = Hand(Rules(), rng.permutation(52)[:9], button=int(rng.integers(2)))
        while hand.actor is not None:
            view = hand.view(hand.actor)
            if hand.actor == 1:
                hand.act(opponent.act(view))
                continue
            if view.street != Street.RIVER:  # get there: check or call
                hand.act(Action.CALL)
                continue
            values = lbr.values(view)
            top = sorted(v for v in (values.fold, values.call, values.raise_) if v == v)
            action = lbr.act(view)
            if len(top) < 2 or top[-1] - top[-2] > 1e-6:
                assert action == best.act(view), (view, values)
                compared += 1
            hand.act(action)


def test_the_public_tree_needs_a_card_independent_opponent() -> None:
    public = LBRParams(lookahead=Lookahead.PUBLIC_TREE)
    with pytest.raises(ValueError, match="ignore its cards"):
        LocalBestResponse(VectorRule(), params=public)
    with pytest.raises(ValueError, match="no public policy"):
        LocalBestResponse(CardIndependent(PairRaiseAgent()), params=public)
    equities = EquityCache(public)
    ranges = BatchedCardIndependent(RandomAgent().batched(2), "random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs the opponent's public policy"):
        BatchedLBR(2, ranges, equities, "lbr3-random")
