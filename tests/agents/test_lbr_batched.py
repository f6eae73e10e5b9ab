"""The batched local best response against its scalar twin, and the parts it is made of.

Twins: at every table a scalar ``LocalBestResponse`` and the batched one (``batched``) are
asked at each of the LBR seat's decisions of the same hands (the opponent, a scalar agent per
table, draws its actions from the common random numbers); their values must agree to 1e-9
chips and their actions exactly, and the opponent's copies learn the same hand ends. ``make
test`` plays a few hundred hands per opponent; ``HOLDEM_LAB_FULL_TWINS=1`` plays 5,000.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from itertools import combinations_with_replacement

import numpy as np
import pytest

from agents.baselines import CallAgent, RandomAgent, RuleAgent
from agents.bpp import BPPAgent, BPPCurvesAgent, deterministic_bpp
from agents.lbr import LBRParams, LocalBestResponse, Lookahead, ShadowBayesian, ShadowLoki
from agents.lbr.batched_lbr import BatchedLBR
from agents.lbr.equity_cache import EquityCache, preflop_equities
from agents.lbr.holding_equity import (
    completion_sample,
    equity_rows,
    equity_rows_into,
    holding_equities,
)
from agents.lbr.probe_memo import ProbeMemo
from agents.lbr.range_policy import CardIndependent, RangePolicy, VectorRule
from agents.loki import Loki, Loki2, loki_moderate, loki_som, loki_tight
from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS, PAIR_INDEX, dead_mask
from agents.strength.multiset_memo import MULTISETS, multiset_index
from envs.batched.adapter import has_batched_form
from envs.batched.views import DecisionBatch, decision_batch, hand_end_batch
from envs.cards import parse_cards
from envs.crn import decision_uniform, sample_action
from envs.evaluator import evaluate as evaluate_all
from envs.evaluator import evaluate_one as evaluate
from envs.game import Hand
from envs.match import deal_deck, play_match
from envs.rules import Action, Rules

FULL = os.environ.get("HOLDEM_LAB_FULL_TWINS") == "1"
PARAMS = LBRParams(preflop_samples=40, flop_samples=30)
"""Small samples keep the roll-outs cheap; twins share them whatever their size."""

OPPONENTS: dict[str, tuple[Callable[[], RangePolicy], Callable[[], object]]] = {
    "call": (lambda: CardIndependent(CallAgent()), CallAgent),
    "random": (lambda: CardIndependent(RandomAgent()), RandomAgent),
    "rule": (lambda: VectorRule(RuleAgent()), RuleAgent),
    "bpp": (lambda: ShadowBayesian(BPPAgent()), BPPAgent),
    "bpp-det": (lambda: ShadowBayesian(deterministic_bpp()), deterministic_bpp),
    "bpp-curves": (lambda: ShadowBayesian(BPPCurvesAgent()), BPPCurvesAgent),
    "loki": (lambda: ShadowLoki(Loki()), Loki),
    "loki2": (lambda: ShadowLoki(Loki2()), Loki2),
    "loki-som": (lambda: ShadowLoki(loki_som()), loki_som),
    "loki-tight": (lambda: ShadowLoki(loki_tight()), loki_tight),
    "loki-moderate": (lambda: ShadowLoki(loki_moderate()), loki_moderate),
}


def play_twins(
    case: str, *, tables: int, hands: int, seed: int, params: LBRParams = PARAMS
) -> tuple[int, float]:
    """Play ``hands`` hands at ``tables`` heads-up tables; compare every LBR decision.
    Returns (decisions compared, largest value difference)."""
    policy, opponent = OPPONENTS[case]
    twins = [LocalBestResponse(policy(), params=params) for _ in range(tables)]
    opponents = [opponent() for _ in range(tables)]
    for i, agent in enumerate(opponents):
        agent.reset(np.random.default_rng(i))  # type: ignore[attr-defined]
    batched = LocalBestResponse(policy(), params=params).batched(tables)
    assert isinstance(batched, BatchedLBR)
    me = np.arange(tables) % 2
    batched.start_tables(np.arange(tables), me)
    decisions, worst = 0, 0.0
    for h in range(hands):
        deals = [i * hands + h for i in range(tables)]
        games = [
            Hand(Rules(), deal_deck(seed, d).tolist(), button=h % 2, hand_id=h) for d in deals
        ]
        counts = np.zeros((tables, 2), dtype=int)
        live = list(range(tables))
        while live:
            mine = [i for i in live if games[i].actor == me[i]]
            if mine:
                views = [games[i].view(int(me[i])) for i in mine]
                batch = decision_batch(views, mine)
                values = batched.values(batch)
                played = batched.probabilities(batch)
                for row, (i, view) in enumerate(zip(mine, views, strict=True)):
                    twin = twins[i].values(view)
                    expected = np.array([twin.fold, twin.call, twin.raise_])
                    assert (np.isnan(expected) == np.isnan(values[row])).all()
                    gap = np.abs(expected - values[row])
                    worst = max(worst, float(np.nanmax(gap, initial=0.0)))
                    action = twins[i].act(view)
                    assert played[row, int(action)] == 1.0, (case, h, i, expected, values[row])
                    games[i].act(action)
                decisions += len(mine)
            for i in live:
                if games[i].is_over or games[i].actor == me[i]:
                    continue
                view = games[i].view(1 - int(me[i]))
                u = decision_uniform(seed, deals[i], view.seat, int(counts[i, view.seat]))
                counts[i, view.seat] += 1
                games[i].act(sample_action(opponents[i].action_probabilities(view), u))  # type: ignore[attr-defined]
            live = [i for i in live if not games[i].is_over]
        views = [games[i].view(int(me[i])) for i in range(tables)]
        batched.observe_ends(hand_end_batch(views, range(tables)))
        for i in range(tables):
            twins[i].observe(views[i])
            opponents[i].observe(games[i].view(1 - int(me[i])))  # type: ignore[attr-defined]
    return decisions, worst


@pytest.mark.parametrize("case", list(OPPONENTS))
def test_batched_lbr_plays_as_its_scalar_twin(case: str) -> None:
    tables, hands = (50, 100) if FULL else (6, 12)
    decisions, worst = play_twins(case, tables=tables, hands=hands, seed=11)
    assert decisions >= tables * hands // 2  # the rule bot folds many hands before LBR acts
    assert worst < 1e-9


@pytest.mark.parametrize(
    ("case", "lookahead"),
    [
        ("random", Lookahead.LATER_BETS),
        ("rule", Lookahead.LATER_BETS),
        ("bpp", Lookahead.LATER_BETS),
        ("random", Lookahead.PUBLIC_TREE),
        ("call", Lookahead.PUBLIC_TREE),
    ],
)
def test_the_deeper_lookaheads_play_as_their_scalar_twins(case: str, lookahead: Lookahead) -> None:
    """``agents.lbr.lookahead``, ``agents.lbr.public_tree``: the same decisions and values."""
    deeper = LBRParams(preflop_samples=40, flop_samples=30, lookahead=lookahead)
    tables, hands = (50, 100) if FULL else (6, 12)
    decisions, worst = play_twins(case, tables=tables, hands=hands, seed=13, params=deeper)
    assert decisions >= tables * hands // 2
    assert worst < 1e-9


def test_the_registry_lbr_agents_have_batched_forms() -> None:
    from envs.registry import make_agent

    names = ("lbr-bpp", "lbr-bpp-det", "lbr-bpp-curves", "lbr-rule", "lbr-call", "lbr-loki")
    for name in (*names, "lbr-loki2", "lbr-loki-tight", "lbr-loki-moderate", "lbr-loki-som"):
        assert has_batched_form(make_agent(name)), name


def test_a_probed_raise_is_not_kept_by_the_bpp_copy() -> None:
    """After asking the copy about our raise that did not happen, its next real answers
    equal those of a fresh copy (the hypothetical raise was dropped)."""
    compared = 0
    for deal in range(12):
        hand = Hand(Rules(), deal_deck(3, deal).tolist(), button=deal % 2, hand_id=deal)
        lbr = LocalBestResponse(ShadowBayesian(BPPAgent(learn=False)), params=PARAMS)
        while not hand.is_over:
            view = hand.view(hand.actor)
            if hand.actor == 0:  # the LBR's seat
                lbr.values(view)  # asks the copy about our raise
                hand.act(Action.CALL)
                continue
            live = np.flatnonzero(~dead_mask(view.board))
            asked = lbr.opponent.probabilities(view, live)
            fresh = ShadowBayesian(BPPAgent(learn=False)).probabilities(view, live)
            np.testing.assert_allclose(asked, fresh, rtol=0, atol=1e-12)
            compared += 1
            hand.act(Action.CALL)
    assert compared >= 24


def test_equities_do_not_depend_on_the_batch() -> None:
    rng = np.random.default_rng(5)
    cards = np.argsort(rng.random((12, 52)), axis=1)[:, :7]
    lengths = np.array([0, 3, 4, 5] * 3)
    together = equity_rows(cards[:, :2], cards[:, 2:], lengths, samples=25, seed=3)
    for i in range(12):
        alone = holding_equities(
            (int(cards[i, 0]), int(cards[i, 1])),
            tuple(int(c) for c in cards[i, 2 : 2 + lengths[i]]),
            samples=25,
            seed=3,
        )
        np.testing.assert_array_equal(together[i], alone)
    again = equity_rows(cards[:, :2], cards[:, 2:], lengths, samples=25, seed=4)
    sampled = lengths < 4
    assert not np.array_equal(together[sampled], again[sampled])  # another fixed sample
    np.testing.assert_array_equal(together[~sampled], again[~sampled])  # exact


def test_equities_written_in_place_are_the_rows_and_touch_nothing_else() -> None:
    """``EquityCache.fill`` (pre-flop rows from the table of every holding, the others rolled
    out straight into ``out``) writes exactly ``rows`` at the targets; bad targets or
    buffers are refused."""
    rng = np.random.default_rng(8)
    cards = np.argsort(rng.random((10, 52)), axis=1)[:, :7]
    lengths = np.array([0, 3, 4, 5, 0, 3, 4, 5, 3, 0])
    cache = EquityCache(LBRParams(preflop_samples=30, flop_samples=25, sample_seed=2))
    expected = cache.rows(cards[:, :2], cards[:, 2:], lengths)
    out = np.full((16, NUM_HOLDINGS), -1.0)
    targets = rng.permutation(16)[:10]
    cache.fill(out, targets, cards[:, :2], cards[:, 2:], lengths)
    np.testing.assert_array_equal(out[targets], expected)
    untouched = np.setdiff1d(np.arange(16), targets)
    assert (out[untouched] == -1.0).all()
    for i in (0, 1, 2, 3):  # and each row as the one-row roll-out gives it
        board = tuple(int(c) for c in cards[i, 2 : 2 + lengths[i]])
        alone = cache.one((int(cards[i, 0]), int(cards[i, 1])), board)
        np.testing.assert_array_equal(expected[i], alone)
    hole, board, length = cards[1:2, :2], cards[1:2, 2:], lengths[1:2]
    with pytest.raises(ValueError, match="targets must be 1 rows of out"):
        equity_rows_into(out, [16], hole, board, length, samples=5)
    with pytest.raises(ValueError, match="out must be"):
        equity_rows_into(out[:, :-1], [0], hole, board, length, samples=5)
    with pytest.raises(ValueError, match="C-contiguous"):
        equity_rows_into(np.asfortranarray(out), [0], hole, board, length, samples=5)
    with pytest.raises(ValueError, match="targets must be 1 rows of out"):
        cache.fill(out, [0, 1], hole, board, length)
    with pytest.raises(ValueError, match="out must be"):  # pre-flop rows alone
        cache.fill(out.astype(np.float32), [0], hole, board, [0])


def test_turn_equities_equal_evaluation_over_every_river() -> None:
    hole, board = parse_cards("AhKh"), parse_cards("2h7hJc9s")
    equity = holding_equities((hole[0], hole[1]), tuple(board), samples=1)
    for other in ("QhTh", "7c7d", "AsKs", "3c4d"):
        theirs = parse_cards(other)
        score = count = 0.0
        for river in range(52):
            if river in (*hole, *board, *theirs):
                continue
            ours = evaluate([*hole, *board, river])
            them = evaluate([*theirs, *board, river])
            score += 1.0 if ours > them else 0.5 if ours == them else 0.0
            count += 1
        assert equity[PAIR_INDEX[theirs[0], theirs[1]]] == pytest.approx(score / count, abs=1e-12)
    assert equity[PAIR_INDEX[hole[0], board[0]]] == 0.0  # a clashing holding


def test_flop_equities_are_exact_with_enough_samples() -> None:
    hole, board = parse_cards("9c9d"), parse_cards("2h7hJc")
    theirs = parse_cards("AhQh")
    equity = holding_equities((hole[0], hole[1]), tuple(board), samples=1081)
    score = count = 0.0
    rest = [c for c in range(52) if c not in (*hole, *board, *theirs)]
    for i, turn in enumerate(rest):
        for river in rest[i + 1 :]:
            ours = evaluate([*hole, *board, turn, river])
            them = evaluate([*theirs, *board, turn, river])
            score += 1.0 if ours > them else 0.5 if ours == them else 0.0
            count += 1
    assert equity[PAIR_INDEX[theirs[0], theirs[1]]] == pytest.approx(score / count, abs=1e-12)
    assert len(completion_sample(47, 2, 1081, 0)) == 1081


@pytest.mark.parametrize(
    ("hole", "board"),
    [
        ("AhKd", "9s5s2s"),  # every completion three spades or more: the flush corrections
        ("Ts3s", "9s5s2sJs"),  # four spades on the turn
        ("7c7d", "7h2c2d"),  # full houses and quads
        ("AsKs", "9s5s2d"),  # our flush from three spades on, four and five on the board
        ("6s5s", "9s8s2s"),  # straight flushes, and flushes above and below ours
        ("AhKd", "9s5s2sJs3s"),  # the board's own flush on the river
        ("QhJh", "Tc9h3d"),  # straights
    ],
)
def test_sampled_equities_equal_ranking_every_holding_on_every_completion(
    hole: str, board: str
) -> None:
    ours, cards = parse_cards(hole), parse_cards(board)
    unseen = np.array([c for c in range(52) if c not in (*ours, *cards)])
    sample = unseen[completion_sample(len(unseen), 5 - len(cards), 40, 2)]
    score, count = np.zeros(NUM_HOLDINGS), np.zeros(NUM_HOLDINGS)
    for drawn in sample:
        full = [*cards, *drawn.tolist()]
        mine = evaluate([*ours, *full])
        live = np.flatnonzero(~np.isin(HOLDINGS, [*ours, *full]).any(axis=1))
        hands = np.concatenate([HOLDINGS[live], np.tile(full, (len(live), 1))], axis=1)
        theirs = evaluate_all(hands)
        score[live] += np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))
        count[live] += 1
    expected = np.divide(score, count, out=np.zeros(NUM_HOLDINGS), where=count > 0)
    got = equity_rows([ours], [[*cards, 0, 0][:5]], [len(cards)], samples=40, seed=2)[0]
    np.testing.assert_array_equal(got, expected)


def test_the_roll_outs_memo_indexes_every_board_rank_multiset_once() -> None:
    indices = set()
    for ranks in combinations_with_replacement(range(13), 5):
        counts = np.bincount(ranks, minlength=13).astype(np.int64)
        indices.add(multiset_index(counts))
    assert indices == set(range(MULTISETS))


def test_preflop_equities_are_kept_and_sensible() -> None:
    aces = int(PAIR_INDEX[parse_cards("As")[0], parse_cards("Ad")[0]])
    row = preflop_equities(aces, 200, 0)
    assert preflop_equities(aces, 200, 0) is row
    assert 0.82 < float(row[row > 0].mean()) < 0.88  # AA against a random hand: about 85%
    assert not row.flags.writeable
    assert row[PAIR_INDEX[HOLDINGS[aces][0], 5]] == 0.0


def test_bad_parameters_and_batches_are_refused(caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(ValueError, match="flop_samples must be a positive integer"):
        LBRParams(flop_samples=0)
    with pytest.raises(ValueError, match="sample_seed"):
        LBRParams(sample_seed=-1)
    with pytest.raises(ValueError, match="board lengths must be 0, 3, 4 or 5"):
        equity_rows([[0, 1]], [[2, 3, 4, 5, 6]], [2], samples=5)
    agent = LocalBestResponse(CardIndependent(CallAgent()), params=PARAMS).batched(4)
    assert isinstance(agent, BatchedLBR)
    agent.start_tables(np.arange(4), np.zeros(4, dtype=np.int8))
    hand = Hand(Rules(), deal_deck(1, 1).tolist(), button=0, hand_id=0)
    view = hand.view(hand.actor)
    if view.seat != 0:
        with pytest.raises(ValueError, match="this agent sits in seat 0"):
            agent.probabilities(decision_batch([view], [0]))
    with pytest.raises(ValueError, match=r"tables must lie in 0\.\.3"):
        agent.probabilities(decision_batch([view], [9]))
    with pytest.raises(ValueError, match="appears twice"):
        agent.probabilities(decision_batch([view, view], [1, 1]))
    three = Hand(Rules(num_seats=3), deal_deck(1, 2).tolist(), button=0, hand_id=0)
    wide = LocalBestResponse(CardIndependent(CallAgent()), params=PARAMS).batched(1)
    assert wide is not None
    wide.start_tables([0], [three.actor])
    with caplog.at_level(logging.WARNING):
        played = wide.probabilities(decision_batch([three.view(three.actor)], [0]))
    np.testing.assert_array_equal(played, [[0.0, 1.0, 0.0]])
    assert "heads-up" in caplog.text


@pytest.mark.parametrize("opponent", ["bpp", "rule"])
def test_probed_raises_answer_the_opponents_next_decisions(
    monkeypatch: pytest.MonkeyPatch, opponent: str
) -> None:
    hits: list[int] = []
    kept = ProbeMemo.kept

    def counted(memo: ProbeMemo, tables: np.ndarray, views: DecisionBatch) -> np.ndarray:
        found = kept(memo, tables, views)
        hits.append(int(found.sum()))
        return found

    agents = [f"lbr-{opponent}", opponent]
    monkeypatch.setattr(ProbeMemo, "kept", counted)
    kept_answers = play_match(agents, hands=240, seed=5, sessions=4, engine="batched")
    monkeypatch.setattr(
        ProbeMemo, "kept", lambda memo, tables, views: np.zeros(len(tables), dtype=bool)
    )
    asked_again = play_match(agents, hands=240, seed=5, sessions=4, engine="batched")
    assert sum(hits) > 60  # most of the opponent's decisions follow a raise of ours
    assert kept_answers.results == asked_again.results
