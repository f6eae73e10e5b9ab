"""The match runner: seeding, duplicate rotation, common random numbers, statistics, errors."""

from __future__ import annotations

import json
import math
from statistics import NormalDist

import numpy as np
import pytest

from agents.base import Agent
from agents.baselines import CallAgent, RaiseAgent, RandomAgent
from envs.crn import decision_uniform
from envs.deals import DECK_STREAM, deal_decks
from envs.match import deal_deck, play_match
from envs.rules import Action, Rules
from envs.stats import mean_estimate, t_quantile
from envs.view import PlayerView


class Recorder(CallAgent):
    """Always calls, and records what it was dealt and shown at the end of every hand.

    Its copies (every pass but the first plays a fresh copy, ``envs.match.fresh_copy``) write
    to the same lists, so one recorder sees every hand its agent played in the match.
    """

    name = "recorder"

    def __init__(self, hands: list[PlayerView] | None = None, resets: list[int] | None = None):
        super().__init__()
        self.hands: list[PlayerView] = [] if hands is None else hands
        self._resets: list[int] = [] if resets is None else resets

    @property
    def resets(self) -> int:
        return len(self._resets)

    def spawn(self) -> Recorder:
        return Recorder(self.hands, self._resets)

    def _forget(self) -> None:
        self._resets.append(1)

    def observe(self, view: PlayerView) -> None:
        assert view.is_terminal
        self.hands.append(view)


class Folder(Agent):
    """Returns FOLD whatever happens: illegal when checking is free."""

    name = "folder"

    def act(self, view: PlayerView) -> Action:
        return Action.FOLD


# ----------------------------------------------------------------------- t quantile

# Student t quantiles from standard tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2).
T_TABLE = [
    (0.975, 1, 12.706205),
    (0.975, 2, 4.302653),
    (0.975, 3, 3.182446),
    (0.975, 4, 2.776445),
    (0.975, 5, 2.570582),
    (0.975, 9, 2.262157),
    (0.975, 10, 2.228139),
    (0.975, 20, 2.085963),
    (0.975, 30, 2.042272),
    (0.975, 60, 2.000298),
    (0.975, 100, 1.983972),
    (0.975, 120, 1.979930),
    (0.975, 1000, 1.962339),
    (0.95, 10, 1.812461),
    (0.90, 3, 1.637744),
    (0.995, 5, 4.032143),
    (0.999, 4, 7.173182),
]


@pytest.mark.parametrize(("p", "df", "expected"), T_TABLE)
def test_t_quantile_known_values(p: float, df: int, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=2e-6)
    assert t_quantile(1 - p, df) == pytest.approx(-expected, abs=2e-6)


@pytest.mark.parametrize("df", [3, 7, 50, 299, 300, 2000])
def test_t_quantile_inverts_the_density(df: int) -> None:
    """Integrate the t density from 0 to t(0.975) (Simpson): it must give 0.475."""
    t = t_quantile(0.975, df)
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    steps = 2000
    h = t / steps
    xs = np.linspace(0.0, t, steps + 1)
    ys = np.exp(log_c - (df + 1) / 2 * np.log1p(xs * xs / df))
    area = h / 3 * (ys[0] + ys[-1] + 4 * ys[1:-1:2].sum() + 2 * ys[2:-1:2].sum())
    assert area == pytest.approx(0.475, abs=1e-9)


def test_t_quantile_limits_and_errors() -> None:
    assert t_quantile(0.5, 4) == 0.0
    assert t_quantile(0.975, 10**9) == pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-8)
    for p, df in [(0.0, 3), (1.0, 3), (0.9, 0), (0.9, 2.5)]:
        with pytest.raises(ValueError):
            t_quantile(p, df)  # type: ignore[arg-type]


def test_mean_estimate() -> None:
    estimate = mean_estimate([1.0, 2.0, 3.0, 4.0])
    assert estimate.mean == 2.5
    assert estimate.std_error == pytest.approx(math.sqrt(5 / 3 / 4))
    half = t_quantile(0.975, 3) * math.sqrt(5 / 3 / 4)
    assert estimate.ci == pytest.approx((2.5 - half, 2.5 + half))
    single = mean_estimate([2.0])
    assert single.std_error is None and single.ci is None
    with pytest.raises(ValueError, match="no observations"):
        mean_estimate([])


# ----------------------------------------------------------------------- seeding, CRN


def test_deal_deck_is_the_documented_stream() -> None:
    """Card by card: draw t takes the floor(u * (52 - t))-th card left (in card order)."""
    left, expected = list(range(52)), []
    for t in range(52):
        u = decision_uniform(5, 17, 0, t, DECK_STREAM)
        expected.append(left.pop(int(u * (52 - t))))
    assert deal_deck(5, 17).tolist() == expected
    assert deal_decks(5, [17], cards=52)[0].tolist() == expected
    assert sorted(expected) == list(range(52))


def test_same_seed_same_result_different_seed_different() -> None:
    first = play_match(["random", "rule", "raise"], hands=90, seed=4)
    second = play_match(["random", "rule", "raise"], hands=90, seed=4)
    assert first == second
    assert np.array_equal(first.deal_chips, second.deal_chips)
    other = play_match(["random", "rule", "raise"], hands=90, seed=5)
    assert not np.array_equal(first.deal_chips, other.deal_chips)


@pytest.mark.parametrize("num_seats", [2, 3, 6])
def test_duplicate_rotation_gives_each_agent_each_seat(num_seats: int) -> None:
    """Every agent holds every seat's cards, in that seat, once per deal; the button stays."""
    recorders = [Recorder() for _ in range(num_seats)]
    deals = 4
    result = play_match(recorders, hands=deals * num_seats, seed=9)
    assert result.deals == deals and result.hands == deals * num_seats
    for j, recorder in enumerate(recorders):
        assert recorder.resets == num_seats  # ACPC: fresh memories for every seating's pass
        assert len(recorder.hands) == result.hands
        by_hand = sorted(recorder.hands, key=lambda v: v.hand_id)
        for deal in range(deals):
            deck = deal_deck(9, deal).tolist()
            views = by_hand[deal::deals]  # rotation r plays deal d as hand r * deals + d
            assert [v.seat for v in views] == [(j + r) % num_seats for r in range(num_seats)]
            for view in views:
                assert view.button == deal % num_seats
                assert view.hole == tuple(deck[2 * view.seat : 2 * view.seat + 2])
                assert view.board == tuple(deck[2 * num_seats : 2 * num_seats + 5])


def test_deals_do_not_depend_on_the_agents() -> None:
    """Common random numbers: the cards of a deal are the same whoever plays it."""
    seen = []
    for opponent in ("random", "raise", "rule"):
        recorder = Recorder()
        play_match([recorder, opponent], hands=40, seed=2)
        seen.append([(v.hand_id, v.seat, v.hole) for v in recorder.hands])
        for view in recorder.hands:  # the board, as far as it was dealt, is the deal's too
            deck = deal_deck(2, view.hand_id % 20).tolist()  # 20 deals, one pass per seating
            assert view.board == tuple(deck[4 : 4 + len(view.board)])
    assert seen[0] == seen[1] == seen[2]


def test_non_duplicate_plays_exact_hands_with_fixed_seats() -> None:
    recorder = Recorder()
    result = play_match([recorder, "random"], hands=7, seed=1, duplicate=False)
    assert (result.hands, result.deals, result.deal_chips.shape) == (7, 7, (7, 2))
    assert [v.seat for v in recorder.hands] == [0] * 7
    assert [v.button for v in recorder.hands] == [d % 2 for d in range(7)]
    for deal, view in enumerate(recorder.hands):
        assert view.hole == tuple(deal_deck(1, deal).tolist()[:2])


def test_duplicate_rounds_hands_up_to_whole_deals() -> None:
    result = play_match(["call", "random", "raise"], hands=7, seed=1)
    assert (result.hands, result.deals) == (9, 3)
    assert all(r.hands == 9 for r in result.results)


# ----------------------------------------------------------------------- results


def test_payoffs_sum_to_zero_per_hand_and_deal() -> None:
    recorders = [Recorder(), Recorder()]
    result = play_match([*recorders, "random", "rule"], hands=40, seed=3)
    for view in recorders[0].hands:
        assert sum(view.payoffs) == 0
    assert not result.deal_chips.sum(axis=1).any()
    assert sum(r.chips for r in result.results) == 0


@pytest.mark.parametrize("agents", [["call", "call"], ["raise", "raise"], ["rule"] * 3])
def test_identical_deterministic_agents_break_even_on_every_deal(agents: list[str]) -> None:
    """Duplicate cancels card luck exactly when the strategies coincide."""
    result = play_match(agents, hands=60, seed=8)
    assert not result.deal_chips.any()
    assert all(r.sb_per_hand == 0.0 and r.std_error == 0.0 for r in result.results)


def test_winnings_are_in_small_bets_per_hand() -> None:
    rules = Rules(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    result = play_match(["rule", "random"], hands=200, seed=6, rules=rules)
    for j, res in enumerate(result.results):
        assert res.chips == int(result.deal_chips[:, j].sum())
        assert res.sb_per_hand == pytest.approx(res.chips / res.hands / 10)
        assert res.mbb_per_hand == pytest.approx(1000 * res.sb_per_hand)
        per_deal = result.deal_chips[:, j] / (2 * 10)
        assert res.std_error == pytest.approx(per_deal.std(ddof=1) / math.sqrt(result.deals))


def test_confidence_interval_contains_the_mean_and_shrinks() -> None:
    small = play_match(["call", "random"], hands=400, seed=1).results[0]
    large = play_match(["call", "random"], hands=4000, seed=1).results[0]
    for res in (small, large):
        assert res.ci is not None and res.ci[0] < res.sb_per_hand < res.ci[1]
    assert small.ci is not None and large.ci is not None
    ratio = (large.ci[1] - large.ci[0]) / (small.ci[1] - small.ci[0])
    assert 0.2 < ratio < 0.5  # about 1 / sqrt(10)


def test_single_deal_has_no_interval() -> None:
    res = play_match(["call", "random"], hands=2, seed=1).results[0]
    assert res.std_error is None and res.ci is None
    assert json.loads(json.dumps(play_match(["call", "random"], hands=1, seed=1).to_dict()))


@pytest.mark.parametrize(
    ("agents", "expected"),
    [
        # Heads-up the button completes the small blind (voluntary), the big blind checks.
        (["call", "call"], [(0.5, 0.0, None, 1.0)] * 2),
        # Button, small blind put chips in; the big blind checks for free: 2 of 3 hands.
        (["call"] * 3, [(2 / 3, 0.0, None, 1.0)] * 3),
        # Post-flop per street: first to act bets, raises, calls; the other raises twice.
        (["raise", "raise"], [(1.0, 1.0, 4.0, 1.0)] * 2),
        (["call", "raise"], [(1.0, 0.0, 0.0, 1.0), (1.0, 1.0, None, 1.0)]),
    ],
)
def test_player_statistics_exact(
    agents: list[str], expected: list[tuple[float, float, float | None, float]]
) -> None:
    result = play_match(agents, hands=60, seed=12)
    assert [(r.vpip, r.pfr, r.af, r.wtsd) for r in result.results] == expected


def test_random_folds_show_in_vpip_and_wtsd() -> None:
    result = play_match(["random", "raise"], hands=400, seed=2)
    rnd = result.result("random")
    assert 0.0 < rnd.vpip < 1.0 and 0.0 < rnd.pfr < rnd.vpip
    assert rnd.wtsd is not None and 0.0 < rnd.wtsd < 1.0
    with pytest.raises(KeyError, match="no agent named"):
        result.result("nobody")


def test_to_dict_and_table() -> None:
    result = play_match(["call", "random", "rule"], hands=30, seed=1)
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["hands"] == 30 and data["deals"] == 10 and data["duplicate"] is True
    assert data["rules"]["num_seats"] == 3
    assert [r["name"] for r in data["results"]] == ["call", "random", "rule"]
    assert set(data["results"][0]) >= {"sb_per_hand", "ci", "vpip", "pfr", "af", "wtsd"}
    table = result.format_table()
    assert "sb/hand" in table and "rule" in table and "seed 1" in table


def test_names_default_to_agent_names_made_unique() -> None:
    assert play_match(["call", "call"], hands=2, seed=0).agents == ("call#1", "call#2")
    named = play_match(["call", "call"], hands=2, seed=0, names=["a", "b"])
    assert named.agents == ("a", "b")
    with pytest.raises(ValueError, match="distinct"):
        play_match(["call", "call"], hands=2, seed=0, names=["a", "a"])


def test_agents_get_their_own_seeded_generators() -> None:
    """The objects given play the first pass of the scalar engine, reset with its streams."""
    agents = [RandomAgent(), RandomAgent()]
    play_match(agents, hands=2, seed=3, engine="scalar")
    draws = [a.rng.integers(1 << 30) for a in agents]
    assert draws[0] != draws[1]
    again = [RandomAgent(), RandomAgent()]
    play_match(again, hands=2, seed=3, engine="scalar")
    assert [a.rng.integers(1 << 30) for a in again] == draws


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    play_match(["call", "random"], hands=20, seed=1, progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and "20/20" in captured.err


# ----------------------------------------------------------------------- errors


def test_illegal_action_names_agent_action_and_legal_actions() -> None:
    # The folder is the button heads-up: it may fold pre-flop; as big blind checking is free.
    with pytest.raises(ValueError, match=r"'folder'.*FOLD.*legal actions: CALL, RAISE"):
        play_match([Folder(), "call"], hands=4, seed=1)


def test_non_action_return_is_an_error() -> None:
    class Sloppy(Agent):
        name = "sloppy"

        def act(self, view: PlayerView) -> Action:
            return 1  # type: ignore[return-value]

    with pytest.raises(ValueError, match="illegal action 1"):
        play_match([Sloppy(), "call"], hands=2, seed=1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agents": ["call"]}, "2 to 10 agents"),
        ({"agents": ["call"] * 11}, "2 to 10 agents"),
        ({"hands": 0}, "hands must be an integer >= 1, got 0"),
        ({"hands": 2.5}, "hands must be an integer >= 1, got 2.5"),
        ({"hands": True}, "hands must be an integer >= 1, got True"),
        ({"seed": -1}, "seed must be an integer >= 0, got -1"),
        ({"rules": Rules(num_seats=3)}, "rules are for 3 seats but 2 agents"),
        ({"agents": ["call", "nobody"]}, "unknown agent 'nobody'"),
        ({"names": ["one"]}, "1 names given for 2 agents"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"agents": ["call", "random"], "hands": 10, "seed": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        play_match(**args)  # type: ignore[arg-type]


def test_numpy_integers_are_accepted() -> None:
    result = play_match(
        ["call", "random"],
        hands=np.int64(6),  # type: ignore[arg-type]
        seed=np.uint32(3),  # type: ignore[arg-type]
    )
    assert (result.hands, result.seed) == (6, 3) and type(result.seed) is int
    assert result == play_match(["call", "random"], hands=6, seed=3)


def test_same_agent_object_twice_is_an_error() -> None:
    agent = RaiseAgent()
    with pytest.raises(ValueError, match="same agent object"):
        play_match([agent, "call", agent], hands=3, seed=1)


def test_non_agent_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="not an agent"):
        play_match([object(), "call"], hands=3, seed=1)  # type: ignore[list-item]
