"""The deeper look-ahead of the local best response (``agents.lbr.lookahead``): its values on
hand-made ranges against numbers worked by hand, never below the check-down values, the
``lbr2-`` agents, and refusals. The batched twin is in ``test_lbr_batched.py``."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

import agents.lbr as lbr
from agents.baselines import RandomAgent
from agents.lbr import CardIndependent, LBRParams, LocalBestResponse, Lookahead
from agents.lbr.lookahead import call_values, continuation, later_bets, raise_values
from envs.batched.adapter import has_batched_form
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Action, Rules, Street

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
    got = continuation(
        np.array([pot]), np.array([equity]), np.array([answers]), np.array([later], dtype=float)
    )
    assert got[0] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("street", "expected"),
    [
        (Street.PREFLOP, (2, 4, 4)),
        (Street.FLOP, (4, 4, 0)),
        (Street.TURN, (4, 0, 0)),
        (Street.RIVER, (0, 0, 0)),
    ],
)
def test_later_bets_of_the_default_game(street: Street, expected: tuple[int, ...]) -> None:
    np.testing.assert_array_equal(later_bets(Rules().bet_sizes, [street]), [expected])


def _columns(response: list[list[float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.array(response)[np.newaxis]
    return rows[..., 0], rows[..., 1], rows[..., 2]


# share, equity, response per holding, pot, to_call, bet, later, call value, raise value
SPOTS = [
    # On the turn: holding A (1/4, we beat it) calls our raise, B (3/4, beats us) folds.
    # Call: the whole range then folds 3/4 to the river bet of 4: 3/4 x 12 + 1/4 x (0.25 x 20
    # - 4) - 2 = 7.25. Raise: 3/4 x 10; called, A calls the river bet: 1/4 x (28 - 4 - 6).
    (
        [0.25, 0.75],
        [1.0, 0.0],
        [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
        (10, 2, 4),
        (4, 0, 0),
        7.25,
        7.5 + 0.25 * 18,
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
    small = {"preflop_samples": 40, "flop_samples": 30}
    plain = LocalBestResponse(CardIndependent(RandomAgent()), params=LBRParams(**small))
    deeper = LocalBestResponse(
        CardIndependent(RandomAgent()),
        params=LBRParams(lookahead=Lookahead.LATER_BETS, **small),
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


def test_the_lbr2_agents_look_deeper_and_are_registered() -> None:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    entries = tomllib.loads(pyproject.read_text())["project"]["entry-points"]
    registered = {
        name: target
        for name, target in entries["holdem_lab.agents"].items()
        if name.startswith("lbr2-")
    }
    assert len(registered) == 7
    for name, target in registered.items():
        agent = getattr(lbr, target.partition(":")[2])()
        assert agent.name == name
        assert agent.params.lookahead is Lookahead.LATER_BETS
        plain = getattr(lbr, target.partition(":")[2].replace("lbr2_", "lbr_"))()
        assert plain.params.lookahead is Lookahead.CHECK_DOWN
        assert agent.params.preflop_samples == plain.params.preflop_samples
        if name != "lbr2-raise":  # the scalar raise bot has no batched form
            assert has_batched_form(agent), name


@pytest.mark.parametrize("value", ["later-bets", None, 1])
def test_a_lookahead_that_is_not_a_member_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match=r"lookahead must be one of Lookahead\.CHECK_DOWN"):
        LBRParams(lookahead=value)  # type: ignore[arg-type]
