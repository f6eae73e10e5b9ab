"""The batched BPPs against their scalar twins, decision by decision, learning included.

Many scalar ``Hand`` tables are played in lockstep. At every step each batched agent gets one
``DecisionBatch`` of the tables where its seat is to act, and the scalar twin of that table and
seat (one ``BPPAgent`` / ``BPPCurvesAgent`` per table and seat) gets the same views; the action
played is drawn from the scalar probabilities with the common random numbers of ``envs.crn``.
The probabilities (and P(win), the expected winnings, the pot odds) must agree to 1e-12 at
every decision, and after the hands each table's learned opponent model must equal the scalar
one's (counts exactly, likelihood tables to the last bit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pytest

from agents.bpp.agent import BPPAgent, bluffed
from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from agents.bpp.batched_decision import bpp_probabilities
from agents.bpp.batched_decision import curve_probabilities as batch_curves
from agents.bpp.batched_model import opponent_slots
from agents.bpp.batched_params import BPPParamArrays, CurvesParamArrays
from agents.bpp.batched_types import shown_types, street_types
from agents.bpp.curves import BPPCurvesAgent, curve_probabilities
from agents.bpp.decision import Strategy, action_probabilities, expected_winnings
from agents.bpp.hand_types import HandType, board_class, hand_type
from agents.bpp.params import BPPParams, CurvesParams
from envs.batched.views import DecisionBatch, decision_batch, hand_end_batch
from envs.crn import check_probabilities, decision_uniform, sample_action
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import ACPC_LIMIT_HEADS_UP, Action, Rules, Street

TOLERANCE = 1e-12

Scalar = BPPAgent | BPPCurvesAgent
Batched = BatchedBPP | BatchedBPPCurves


@dataclass
class Role:
    """One agent of the lockstep play: its scalar twin at each table and its batched form."""

    scalar: Callable[[int], Scalar]
    """The scalar agent of table ``i``."""
    batched: Callable[[int], Batched]
    """The batched agent of ``n`` tables."""


def bpp_params(rng: np.random.Generator) -> BPPParams:
    """Random decision-network parameters (one per table)."""
    return BPPParams(
        alpha=tuple(rng.uniform(0.0, 2.0, 4)),
        alpha_prime=tuple(rng.uniform(0.5, 2.5, 4)),
        fp=tuple(rng.uniform(0.5, 8.0, 4)),
        cp=tuple(rng.uniform(0.5, 8.0, 4)),
        bluff_rate=float(rng.choice([0.0, 0.05, 0.2])),
        prior_weight=float(rng.uniform(1.0, 20.0)),
    )


def curves_params(rng: np.random.Generator) -> CurvesParams:
    """Random betting-curve parameters (one per table)."""
    shifts = np.sort(rng.uniform(-0.3, 0.8, (3, 4)), axis=0)
    return CurvesParams(
        fold_shift=tuple(shifts[0]),
        call_shift=tuple(shifts[1]),
        bet_shift=tuple(shifts[2]),
        steepness=float(rng.uniform(3.0, 20.0)),
        bluff_rate=float(rng.choice([0.0, 0.05])),
        prior_weight=float(rng.uniform(1.0, 20.0)),
    )


def per_table_bpp(tables: int, seed: int, strategy: Strategy = Strategy.MIXED) -> Role:
    params = [bpp_params(np.random.default_rng([seed, i])) for i in range(tables)]
    return Role(
        lambda i: BPPAgent(params[i], strategy=strategy),
        lambda n: BatchedBPP(n, params, strategy=strategy),
    )


def per_table_curves(tables: int, seed: int) -> Role:
    params = [curves_params(np.random.default_rng([seed, i])) for i in range(tables)]
    return Role(lambda i: BPPCurvesAgent(params[i]), lambda n: BatchedBPPCurves(n, params))


BPP = Role(lambda i: BPPAgent(), lambda n: BatchedBPP(n))
BPP_DET = Role(
    lambda i: BPPAgent(strategy=Strategy.DETERMINISTIC),
    lambda n: BatchedBPP(n, strategy=Strategy.DETERMINISTIC),
)
CURVES = Role(lambda i: BPPCurvesAgent(), lambda n: BatchedBPPCurves(n))
BPP_NOLEARN = Role(lambda i: BPPAgent(learn=False), lambda n: BatchedBPP(n, learn=False))


def decision_gaps(twin: Any, decision: Any, row: int) -> list[float]:
    """|scalar - batched| of every quantity both decisions report at one row."""
    gaps = [float(np.abs(np.array(twin.probabilities) - decision.probabilities[row]).max())]
    for name in ("p_win", "ew_bet", "ew_pass", "threshold"):
        if hasattr(twin, name):
            gaps.append(abs(getattr(twin, name) - float(getattr(decision, name)[row])))
    return gaps


def play_lockstep(
    roles: Sequence[Role],
    *,
    tables: int,
    hands: int,
    seed: int,
    check_every: int = 0,
    rules: Rules | None = None,
) -> tuple[int, float]:
    """Play ``hands`` hands at each of ``tables`` tables of ``len(roles)`` seats in lockstep.

    Role ``j`` sits in seat ``(j + i) % S`` at table ``i``; the button moves every hand. Every
    decision is compared (module docstring), and the opponent models at the end (and every
    ``check_every`` hands). Returns (decisions compared, largest difference seen).
    """
    seats = len(roles)
    rules = rules if rules is not None else Rules(num_seats=seats)
    seat_of = np.array([[(j + i) % seats for j in range(seats)] for i in range(tables)])
    role_at = np.argsort(seat_of, axis=1)  # role_at[i, seat]
    twins = [[role.scalar(i) for i in range(tables)] for role in roles]
    batched = [role.batched(tables) for role in roles]
    for j, agent in enumerate(batched):
        agent.start_tables(np.arange(tables), seat_of[:, j])
    decisions, worst = 0, 0.0
    for h in range(hands):
        deals = [i * hands + h for i in range(tables)]
        games = [
            Hand(rules, deal_deck(seed, d).tolist(), button=h % seats, hand_id=h) for d in deals
        ]
        counts = np.zeros((tables, seats), dtype=int)
        live = list(range(tables))
        while live:
            acting = [int(role_at[i, games[i].actor]) for i in live]  # one actor per table
            for j in range(seats):
                rows = [i for i, r in zip(live, acting, strict=True) if r == j]
                if not rows:
                    continue
                views = [games[i].view(int(seat_of[i, j])) for i in rows]
                batch = decision_batch(views, rows)
                played = batched[j].probabilities(batch)
                check_probabilities(played, batch.legal, batched[j].name)
                decision = batched[j].decide(batch)  # a second look changes nothing
                worst = max(worst, float(np.abs(played - decision.probabilities).max()))
                for row, (i, view) in enumerate(zip(rows, views, strict=True)):
                    twin = twins[j][i].decide(view)
                    worst = max(worst, *decision_gaps(twin, decision, row))
                    assert_same_hand_state(twins[j][i], batched[j], i, view.seat)
                    seat = view.seat
                    u = decision_uniform(seed, deals[i], seat, int(counts[i, seat]))
                    counts[i, seat] += 1
                    games[i].act(sample_action(twin.probabilities, u))
                decisions += len(rows)
            live = [i for i in live if not games[i].is_over]
        for j in range(seats):
            views = [games[i].view(int(seat_of[i, j])) for i in range(tables)]
            batched[j].observe_ends(hand_end_batch(views, range(tables)))
            for i, view in enumerate(views):
                twins[j][i].observe(view)
        if h == hands - 1 or (check_every and (h + 1) % check_every == 0):
            assert_same_models(twins, batched, seat_of)
    return decisions, worst


def assert_same_hand_state(twin: Scalar, batched: Batched, table: int, me: int) -> None:
    """The batched belief at ``table`` holds the scalar one's: the opponents' likelihood
    products (to the last bit: the same factors multiplied in the same order) and, heads-up,
    the current round's ``u`` vectors (to rounding: BLAS may sum in another order)."""
    likelihood, u = batched.belief.state(table)
    seats = batched.num_seats
    opponents = [s for s in range(seats) if s != me]
    slots = opponent_slots(opponents, me, seats)
    scalar = twin.belief._likelihood[opponents]
    assert np.array_equal(likelihood[slots], scalar), (table, likelihood[slots], scalar)
    if seats == 2:
        gap = np.abs(u[0] - twin.belief._u).max() / np.abs(twin.belief._u).max()
        assert gap <= 1e-12, (table, u[0], twin.belief._u)


def assert_same_models(
    twins: Sequence[Sequence[Scalar]], batched: Sequence[Batched], seat_of: np.ndarray
) -> None:
    """Every table's opponent model equals its scalar twin's (counts and likelihoods)."""
    seats = len(batched)
    for j, agent in enumerate(batched):
        for i, twin in enumerate(twins[j]):
            me = int(seat_of[i, j])
            for seat in range(seats):
                if seat == me:
                    continue
                slot = int(opponent_slots(seat, me, seats))
                model = twin.belief.model
                np.testing.assert_array_equal(agent.model.counts(i, slot), model.counts(seat))
                np.testing.assert_array_equal(
                    agent.model.likelihoods(i, slot), model.likelihoods(seat)
                )


def test_heads_up_bpp_and_curves_with_parameters_per_table() -> None:
    """Each table plays its own parameter sets and still matches its scalar twins."""
    decisions, worst = play_lockstep(
        [per_table_bpp(60, seed=1), per_table_curves(60, seed=2)],
        tables=60,
        hands=12,
        seed=3,
        check_every=4,
    )
    assert decisions > 4 * 60 * 12
    assert worst <= TOLERANCE


def test_heads_up_deterministic_bpp_against_a_bpp_that_does_not_learn() -> None:
    decisions, worst = play_lockstep([BPP_DET, BPP_NOLEARN], tables=40, hands=10, seed=4)
    assert decisions > 4 * 40 * 10
    assert worst <= TOLERANCE


@pytest.mark.parametrize("seats", [3, 4])
def test_multi_way_tables(seats: int) -> None:
    """3 and 4 seats: the field as one opponent, one model per opponent seat."""
    roles = [BPP, CURVES, BPP_DET, per_table_bpp(20, seed=5)][:seats]
    decisions, worst = play_lockstep(roles, tables=20, hands=10, seed=6)
    assert decisions > 150 * seats
    assert worst <= TOLERANCE


@pytest.mark.parametrize(
    "rules",
    [
        ACPC_LIMIT_HEADS_UP,
        Rules(num_seats=2, stacks=(9, 23)),
        Rules(num_seats=3, stacks=(14, 30, 7)),
    ],
    ids=["acpc-5-10", "short-stacks-2", "short-stacks-3"],
)
def test_other_blinds_and_short_uneven_stacks(rules: Rules) -> None:
    """Other bet sizes, and all-ins for less (which the opponent model classifies alike)."""
    roles = [per_table_bpp(20, seed=9), CURVES, BPP_DET][: rules.num_seats]
    decisions, worst = play_lockstep(roles, tables=20, hands=10, seed=10, rules=rules)
    assert decisions > 2 * 20 * 10
    assert worst <= TOLERANCE


SLOW_CASES = {
    # name: (roles, tables, hands); 20,000 hands in all
    "heads-up bpp vs bpp-curves": (lambda: [BPP, CURVES], 200, 50),
    "heads-up bpp-det vs per-table bpp-curves": (
        lambda: [BPP_DET, per_table_curves(100, seed=7)],
        100,
        40,
    ),
    "3 seats, per-table bpp": (lambda: [per_table_bpp(100, seed=8), CURVES, BPP_DET], 100, 30),
    "4 seats": (lambda: [BPP, CURVES, BPP_DET, BPP_NOLEARN], 100, 30),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(SLOW_CASES))
def test_twenty_thousand_hands_against_the_scalar_twins(case: str) -> None:
    roles, tables, hands = SLOW_CASES[case]
    decisions, worst = play_lockstep(roles(), tables=tables, hands=hands, seed=11, check_every=10)
    assert decisions > 4 * tables * hands
    assert worst <= TOLERANCE


def test_slow_cases_cover_twenty_thousand_hands() -> None:
    assert sum(tables * hands for _, tables, hands in SLOW_CASES.values()) >= 20_000


# ------------------------------------------------------------------ views and contract


def _finished_hand(seed: int = 2) -> Hand:
    """A heads-up hand played to a showdown by two calling stations."""
    hand = Hand(Rules(), deal_deck(seed, 0).tolist(), button=1, hand_id=5)
    while hand.actor is not None:
        hand.act(Action.CALL)
    return hand


def test_decision_batch_holds_what_the_views_hold() -> None:
    hand = Hand(Rules(), deal_deck(1, 0).tolist(), button=0, hand_id=9)
    for action in (Action.RAISE, Action.CALL, Action.CALL, Action.RAISE):
        hand.act(action)
    view = hand.view(hand.actor)
    batch = decision_batch([view, view], [3, 7])
    assert batch.tables.tolist() == [3, 7] and batch.tables.dtype == np.intp
    assert batch.street.tolist() == [Street.FLOP] * 2 and batch.board_len.tolist() == [3, 3]
    assert tuple(batch.board[0, :3]) == view.board and tuple(batch.hole[1]) == view.hole
    assert batch.pot[0] == view.pot and batch.to_call[0] == view.to_call
    assert batch.legal[0].tolist() == [Action(a) in view.legal_actions for a in range(3)]
    assert int(batch.log_len[0]) == len(view.actions) == 4
    log = zip(
        batch.log_street[0],
        batch.log_seat[0],
        batch.log_action[0],
        batch.log_amount[0],
        strict=True,
    )
    assert [tuple(map(int, e)) for e in log] == [
        (a.street, a.seat, a.action, a.amount) for a in view.actions
    ]
    assert not batch.pot.flags.writeable
    with pytest.raises(ValueError, match="one per view"):
        decision_batch([view], [0, 1])
    with pytest.raises(ValueError, match="not to act"):
        decision_batch([hand.view(1 - view.seat)], [0])


def test_hand_end_batch_shows_the_cards_shown_down() -> None:
    hand = _finished_hand()
    end = hand_end_batch([hand.view(0)], [0])
    assert end.shown.shape == (1, 2, 2) and (end.shown >= 0).all()
    assert tuple(end.shown[0, 1]) == hand.hole(1) and end.payoffs[0].sum() == 0
    folded = Hand(Rules(), deal_deck(1, 1).tolist())
    folded.act(Action.FOLD)
    assert (hand_end_batch([folded.view(0)], [0]).shown == -1).all()
    with pytest.raises(ValueError, match="in progress"):
        hand_end_batch([Hand(Rules(), deal_deck(1, 2).tolist()).view(0)], [0])


def _first_decision(table: int = 0, seat: int = 0) -> DecisionBatch:
    hand = Hand(Rules(), deal_deck(1, 3).tolist(), button=seat)
    return decision_batch([hand.view(seat)], [table])


def test_contract_attributes_and_parameter_checks() -> None:
    agent = BatchedBPP(3, [BPPParams(), BPPParams(fp=2), BPPParams(alpha=0.5)])
    assert agent.known_policy and agent.name == "bpp"
    assert agent.params.fp[:, 0].tolist() == [4.0, 2.0, 4.0]
    assert BatchedBPP(2, strategy=Strategy.DETERMINISTIC, learn=False).name == "bpp-det-nolearn"
    assert BatchedBPPCurves(2).name == "bpp-curves"
    with pytest.raises(ValueError, match="one BPPParams per table"):
        BatchedBPP(3, [BPPParams()])
    with pytest.raises(TypeError, match="params\\[1\\] must be a CurvesParams"):
        BatchedBPPCurves(2, [CurvesParams(), BPPParams()])
    with pytest.raises(TypeError, match="must be a BPPParams"):
        BatchedBPP(2, CurvesParams())
    with pytest.raises(TypeError, match="Strategy"):
        BatchedBPP(2, strategy="mixed")
    with pytest.raises(ValueError, match="positive"):
        BatchedBPP(0)


def test_batches_the_agent_cannot_serve_are_refused() -> None:
    agent = BatchedBPP(4)
    with pytest.raises(ValueError, match="start_tables first"):
        agent.probabilities(_first_decision())
    with pytest.raises(ValueError, match=r"lie in 0\.\.3"):
        agent.start_tables([4], [0])
    agent.start_tables([0, 1, 2, 3], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="sits in seat 1"):
        agent.probabilities(_first_decision(table=1, seat=0))
    one = _first_decision()
    twice = decision_batch([Hand(Rules(), deal_deck(1, 3).tolist()).view(0)] * 2, [0, 0])
    with pytest.raises(ValueError, match="twice"):
        agent.probabilities(twice)
    assert agent.probabilities(one).shape == (1, 3)
    three = Hand(Rules(num_seats=3), deal_deck(1, 4).tolist(), button=2)
    with pytest.raises(ValueError, match="2-seat tables"):
        agent.probabilities(decision_batch([three.view(three.actor)], [0]))


def test_start_tables_forgets_what_a_table_learned() -> None:
    agent = BatchedBPP(2)
    agent.start_tables([0, 1], [0, 0])
    hand = _finished_hand()
    agent.observe_ends(hand_end_batch([hand.view(0), hand.view(0)], [0, 1]))
    assert agent.model.counts(0, 0).sum() > 0
    agent.start_tables([0], [0])
    assert agent.model.counts(0, 0).sum() == 0
    twin = BPPAgent()
    twin.observe(hand.view(0))
    np.testing.assert_array_equal(agent.model.counts(1, 0), twin.belief.model.counts(1))


def test_street_types_equal_the_scalar_hand_type_and_board_class() -> None:
    """Rows of every round in one call, as the belief makes it."""
    rng = np.random.default_rng(1)
    cards = np.array([rng.permutation(52)[:7] for _ in range(8000)], dtype=np.uint8)
    width = rng.choice([0, 3, 4, 5], size=len(cards))
    hole, board = cards[:, :2], cards[:, 2:]
    types, classes = street_types(hole, board, width)
    seen = [tuple(b[:w]) for b, w in zip(board.tolist(), width, strict=True)]
    expected = [hand_type((*h, *b)) for h, b in zip(hole.tolist(), seen, strict=True)]
    assert types.tolist() == expected
    assert classes.tolist() == [board_class(b) for b in seen]
    # the draws and the flush textures are exercised
    assert {HandType.FLUSH_DRAW, HandType.STRAIGHT_DRAW} <= set(expected)
    assert set(classes[width > 0] % 4) == {0, 1, 2, 3}


def test_batched_twin_of_a_scalar_agent_plays_its_settings() -> None:
    scalar = BPPAgent(BPPParams(fp=2.5), strategy=Strategy.DETERMINISTIC, learn=False)
    twin = scalar.batched(3)
    assert isinstance(twin, BatchedBPP) and twin.name == scalar.name == "bpp-det-nolearn"
    assert twin.params.fp.tolist() == [[2.5] * 4] * 3 and twin.network is scalar.belief.network
    curves = BPPCurvesAgent(CurvesParams(steepness=7)).batched(2)
    assert isinstance(curves, BatchedBPPCurves) and curves.params.steepness.tolist() == [7, 7]

    class Tweaked(BPPAgent):  # a subclass may play or remember differently: no twin
        pass

    class TweakedCurves(BPPCurvesAgent):
        pass

    assert Tweaked().batched(2) is None and BPPAgent().batched(2) is not None
    assert TweakedCurves().batched(2) is None


# ------------------------------------------------------------------ compiled kernels


def test_shown_types_equal_the_scalar_hand_type_in_every_round() -> None:
    """The types the opponent model counts under: each opponent's shown cards, every round."""
    rng = np.random.default_rng(2)
    rows, seats = 300, 3
    cards = np.array([rng.permutation(52)[: 2 * seats + 5] for _ in range(rows)], dtype=np.uint8)
    shown = cards[:, : 2 * seats].reshape(rows, seats, 2).astype(np.int16)
    shown[rng.random((rows, seats)) < 0.3] = -1  # seats that showed nothing
    board = cards[:, 2 * seats :]
    seat = rng.integers(0, seats, rows).astype(np.int8)
    picked = np.sort(rng.choice(rows, 200, replace=False)).astype(np.intp)
    types = shown_types(shown, board, seat, picked)
    assert types.shape == (200, seats, 4)
    for q, i in enumerate(picked):
        for s in range(seats):
            for r, width in enumerate((0, 3, 4, 5)):
                hidden = s == seat[i] or shown[i, s, 0] < 0
                cards_seen = (*shown[i, s].tolist(), *board[i, :width].tolist())
                expected = -1 if hidden else hand_type(cards_seen)
                assert types[q, s, r] == expected, (i, s, r)


def _decision_rows(rng: np.random.Generator, rows: int, seats: int) -> dict[str, np.ndarray]:
    """Random decision rows: the acting seat never folded, calling always legal, some rows
    with nothing to call (no fold) and some at the raise cap (no raise)."""
    seat = rng.integers(0, seats, rows).astype(np.int8)
    folded = rng.random((rows, seats)) < 0.3
    folded[np.arange(rows), seat] = False
    bets = rng.integers(0, 12, (rows, seats)).astype(np.int64)
    to_call = (bets.max(axis=1) - bets[np.arange(rows), seat]).astype(np.int64)
    legal = np.ones((rows, 3), dtype=bool)
    legal[:, Action.FOLD] = to_call > 0
    legal[:, Action.RAISE] = rng.random(rows) < 0.8
    return {
        "p_win": np.concatenate([[0.0, 1.0], rng.random(rows - 2)]),
        "tables": rng.permutation(rows).astype(np.intp),
        "seat": seat,
        "street": rng.integers(0, 4, rows).astype(np.int8),
        "pot": (bets.sum(axis=1) + rng.integers(0, 40, rows)).astype(np.int64),
        "to_call": to_call,
        "bets": bets,
        "folded": folded,
        "legal": legal,
    }


@pytest.mark.parametrize("strategy", list(Strategy))
def test_decision_network_kernel_equals_the_scalar_formulas(strategy: Strategy) -> None:
    rng = np.random.default_rng(3)
    rows, seats, rules = 400, 4, Rules(num_seats=4)
    batch = _decision_rows(rng, rows, seats)
    params = [bpp_params(np.random.default_rng([3, i])) for i in range(rows)]
    arrays = BPPParamArrays.of(params, rows)
    ew_bet, ew_pass, out = np.empty(rows), np.empty(rows), np.empty((rows, 3))
    p_win, *fields = batch.values()
    bpp_probabilities(
        p_win,
        1,
        *fields,
        np.asarray(rules.bet_sizes, dtype=np.int64),
        arrays.alpha,
        arrays.alpha_prime,
        arrays.fp,
        arrays.cp,
        arrays.bluff_rate,
        strategy is Strategy.DETERMINISTIC,
        ew_bet,
        ew_pass,
        out,
    )
    sizes = rules.bet_sizes
    for i in range(rows):
        table, me, r = int(batch["tables"][i]), int(batch["seat"][i]), int(batch["street"][i])
        p, bets, folded = params[table], batch["bets"][i].tolist(), batch["folded"][i]
        others = [s for s in range(seats) if s != me and not folded[s]]
        expected = expected_winnings(
            float(batch["p_win"][i]),
            pot=int(batch["pot"][i]),
            to_call=int(batch["to_call"][i]),
            bet=sizes[r],
            remaining=sum(sizes[r + 1 :]),
            alpha=p.alpha[r],
            alpha_prime=p.alpha_prime[r],
            opponents=len(others),
            owed=sum(max(bets) - bets[s] for s in others),
        )
        assert (ew_bet[i], ew_pass[i]) == expected
        can_fold, can_raise = bool(batch["legal"][i, 0]), bool(batch["legal"][i, 2])
        probabilities = action_probabilities(
            strategy,
            *expected,
            bet=sizes[r],
            fp=p.fp[r],
            cp=p.cp[r],
            can_fold=can_fold,
            can_raise=can_raise,
        )
        if r == Street.RIVER and can_raise and p.bluff_rate > 0:
            probabilities = bluffed(probabilities, p.bluff_rate)
        np.testing.assert_allclose(out[i], probabilities, rtol=0, atol=1e-15)


def test_betting_curve_kernel_equals_the_scalar_curves() -> None:
    rng = np.random.default_rng(4)
    rows = 400
    batch = _decision_rows(rng, rows, 2)
    params = [curves_params(np.random.default_rng([4, i])) for i in range(rows)]
    arrays = CurvesParamArrays.of(params, rows)
    theta, out = np.empty(rows), np.empty((rows, 3))
    batch_curves(
        batch["p_win"],
        1,
        batch["tables"],
        batch["street"],
        batch["pot"],
        batch["to_call"],
        batch["legal"],
        arrays.fold_shift,
        arrays.call_shift,
        arrays.bet_shift,
        arrays.steepness,
        arrays.bluff_rate,
        theta,
        out,
    )
    for i in range(rows):
        p, r = params[int(batch["tables"][i])], int(batch["street"][i])
        to_call, pot = int(batch["to_call"][i]), int(batch["pot"][i])
        expected_theta = to_call / (pot + to_call) if to_call else 0.0
        assert theta[i] == expected_theta
        can_fold, can_raise = bool(batch["legal"][i, 0]), bool(batch["legal"][i, 2])
        probabilities = curve_probabilities(
            float(batch["p_win"][i]) - expected_theta,
            fold_shift=p.fold_shift[r],
            call_shift=p.call_shift[r],
            bet_shift=p.bet_shift[r],
            steepness=p.steepness,
            can_fold=can_fold,
            can_raise=can_raise,
        )
        if r == Street.RIVER and can_raise and p.bluff_rate > 0:
            probabilities = bluffed(probabilities, p.bluff_rate)
        np.testing.assert_allclose(out[i], probabilities, rtol=0, atol=1e-15)


def test_kernels_call_only_kernels_of_their_own_module() -> None:
    """numba's disk cache of a kernel is invalidated by its own module's source alone: a
    kernel calling a kernel of another module would keep running the old code of that one
    after an edit. So no cached kernel may call another module's kernel (an uncached one,
    ``agents.jit.uncached_kernel``, compiles afresh in every process)."""
    import agents.bpp.batched_agent
    import agents.bpp.batched_decision
    import agents.bpp.batched_kernels
    import agents.bpp.batched_types
    import agents.bpp.type_kernels
    import agents.strength.batched

    modules = [
        agents.strength.batched,
        agents.bpp.batched_agent,
        agents.bpp.batched_decision,
        agents.bpp.batched_kernels,
        agents.bpp.batched_types,
        agents.bpp.type_kernels,
    ]
    kernels = 0
    for module in modules:
        for value in vars(module).values():
            if not isinstance(value, numba.core.registry.CPUDispatcher):
                continue
            if value.py_func.__module__ != module.__name__:
                continue  # imported, checked in its own module
            kernels += 1
            if isinstance(value._cache, numba.core.caching.NullCache):
                continue  # compiled in each process: it may call any module's kernels
            called = [
                name
                for name in value.py_func.__code__.co_names
                if isinstance(getattr(module, name, None), numba.core.registry.CPUDispatcher)
            ]
            for name in called:
                callee = getattr(module, name)
                assert callee.py_func.__module__ == module.__name__, (value, name)
    assert kernels >= 10
