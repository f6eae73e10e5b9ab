"""Best responses in games small enough to solve by brute force (issue 15).

The game is heads-up limit hold'em with all four betting rounds, dealt from a ten-card deck
(T J Q K A in clubs and diamonds: straights and flushes still happen, and swapping the two suits
is a symmetry, so the suit-isomorphism path runs) with two bets per round. The brute force below
shares nothing with ``agents.best_response`` but the hand evaluator: it re-implements the
betting, the bots and the chance averaging, naively, as an expectimax over explicit deals.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from agents.best_response import FOLD as FOLD_POLICY
from agents.best_response import Deck, compute_best_response, parse_policy
from envs.evaluator import evaluate_one
from envs.rules import ACPC_LIMIT_HEADS_UP, Rules

SMALL_DECK = tuple(4 * rank + suit for rank in (8, 9, 10, 11, 12) for suit in (0, 1))
SMALL_RULES = Rules(max_bets=(2, 2, 2, 2))

FOLD, CALL, RAISE = 0, 1, 2


def bot_probabilities(bot: str, street: int, can_fold: bool, can_raise: bool) -> tuple[float, ...]:
    """The bots as their agent cards describe them."""
    legal = [FOLD] * can_fold + [CALL] + [RAISE] * can_raise
    if bot == "random":
        return tuple(1.0 / len(legal) if a in legal else 0.0 for a in (FOLD, CALL, RAISE))
    if bot == "call":
        mix = (0.0, 1.0, 0.0)
    elif bot == "raise":
        mix = (0.0, 0.0, 1.0)
    elif bot == "fold":
        mix = (1.0, 0.0, 0.0)
    else:  # "mix:f,c,r" on every street
        mix = tuple(float(p) for p in bot[4:].split(","))
    fold, call, raise_ = mix
    if not can_fold:
        call, fold = call + fold, 0.0
    if not can_raise:
        call, raise_ = call + raise_, 0.0
    return (fold, call, raise_)


def brute_force(bot: str, rules: Rules, deck: tuple[int, ...], learner_button: bool) -> float:
    """Best-response chips per hand of the learner in one seat, averaged over its holdings."""
    bet = (rules.small_bet, rules.small_bet, rules.big_bet, rules.big_bet)

    @cache
    def showdown(hole: tuple[int, int], board: frozenset[int], chips: int) -> float:
        unseen = [c for c in deck if c not in hole and c not in board]
        mine = evaluate_one([*hole, *board])
        total = 0.0
        opponents = list(itertools.combinations(unseen, 2))
        for opp in opponents:
            theirs = evaluate_one([*opp, *board])
            total += chips if mine > theirs else -chips if mine < theirs else 0.0
        return total / len(opponents)

    @cache
    def decide(
        hole: tuple[int, int],
        board: frozenset[int],
        street: int,
        learner_acts: bool,
        chips: tuple[int, int],
        bets: int,
        other_acted: bool,
    ) -> float:
        me, other = (0, 1) if learner_acts else (1, 0)
        to_call = chips[other] - chips[me]
        can_raise = bets < rules.max_bets[street]
        results = {}
        if to_call > 0:
            results[FOLD] = -chips[0] if learner_acts else chips[1]
        called = list(chips)
        called[me] += to_call
        if other_acted:
            results[CALL] = next_street(hole, board, street, (called[0], called[1]))
        else:
            results[CALL] = decide(
                hole, board, street, not learner_acts, (called[0], called[1]), bets, True
            )
        if can_raise:
            raised = list(called)
            raised[me] += bet[street]
            results[RAISE] = decide(
                hole, board, street, not learner_acts, (raised[0], raised[1]), bets + 1, True
            )
        if learner_acts:
            return max(results.values())
        p = bot_probabilities(bot, street, to_call > 0, can_raise)
        return sum(p[a] * v for a, v in results.items())

    def next_street(
        hole: tuple[int, int], board: frozenset[int], street: int, chips: tuple[int, int]
    ) -> float:
        if street == 3:
            return showdown(hole, board, chips[0])
        unseen = [c for c in deck if c not in hole and c not in board]
        new_cards = list(itertools.combinations(unseen, 3 if street == 0 else 1))
        learner_first = not learner_button  # the big blind acts first after the flop
        total = sum(
            decide(hole, board | frozenset(cards), street + 1, learner_first, chips, 0, False)
            for cards in new_cards
        )
        return total / len(new_cards)

    blinds = (
        (rules.small_blind, rules.big_blind)
        if learner_button
        else (rules.big_blind, rules.small_blind)
    )
    holes = list(itertools.combinations(deck, 2))
    return sum(decide(h, frozenset(), 0, learner_button, blinds, 1, False) for h in holes) / len(
        holes
    )


@pytest.mark.parametrize("bot", ["call", "raise", "random", "mix:0.2,0.5,0.3"])
def test_matches_an_independent_brute_force(bot: str) -> None:
    result = compute_best_response(parse_policy(bot), SMALL_RULES, deck=Deck(SMALL_DECK))
    assert result.exact and result.ci is None
    for seat, learner_button in zip(result.seats, (True, False), strict=True):
        expected = brute_force(bot, SMALL_RULES, SMALL_DECK, learner_button)
        assert seat.chips == pytest.approx(expected, abs=1e-9)
        assert seat.sb_per_hand == pytest.approx(expected / SMALL_RULES.small_bet, abs=1e-9)


@pytest.mark.parametrize("rules", [Rules(), ACPC_LIMIT_HEADS_UP], ids=["default", "acpc"])
def test_always_fold_is_exploited_by_750_mbb_per_hand(rules: Rules) -> None:
    """Johanson et al. (IJCAI 2011) list always-fold at 750 mbb/g: the button folds its small
    blind (500 mbb) and the big blind folds to a raise (1,000 mbb)."""
    result = compute_best_response(FOLD_POLICY, rules, deck=Deck(SMALL_DECK))
    button, big_blind = result.seats
    assert button.mbb_per_hand == pytest.approx(1000.0)
    assert big_blind.mbb_per_hand == pytest.approx(500.0)
    assert result.mbb_per_hand == pytest.approx(750.0)


def test_side_wager_formula_against_call() -> None:
    """Against the calling station every bet is a side wager settled at showdown, so the value
    is the sum over streets of bet x E[max(0, 2 e - 1)], e the equity the learner sees then,
    plus the blinds' showdown value (zero on average, neither player folds pre-flop)."""
    deck = SMALL_DECK
    bets = (SMALL_RULES.small_bet, SMALL_RULES.small_bet, SMALL_RULES.big_bet, SMALL_RULES.big_bet)

    @cache
    def equity(hole: tuple[int, int], board: frozenset[int]) -> float:
        unseen = [c for c in deck if c not in hole and c not in board]
        if len(board) == 5:
            mine = evaluate_one([*hole, *board])
            outcomes = [
                np.sign(mine - evaluate_one([*opp, *board]))
                for opp in itertools.combinations(unseen, 2)
            ]
            return float(np.mean(outcomes)) / 2.0 + 0.5
        step = 3 if not board else 1
        return float(
            np.mean([equity(hole, board | set(c)) for c in itertools.combinations(unseen, step)])
        )

    def wager(hole: tuple[int, int], board: frozenset[int], street: int) -> float:
        value = bets[street] * max(0.0, 2.0 * equity(hole, board) - 1.0)
        if street == 3:
            return value
        unseen = [c for c in deck if c not in hole and c not in board]
        step = 3 if street == 0 else 1
        later = [
            wager(hole, board | set(c), street + 1) for c in itertools.combinations(unseen, step)
        ]
        return value + float(np.mean(later))

    holes = list(itertools.combinations(deck, 2))
    blinds = np.mean([2.0 * SMALL_RULES.big_blind * (equity(h, frozenset()) - 0.5) for h in holes])
    expected = blinds + np.mean([wager(h, frozenset(), 0) for h in holes])
    result = compute_best_response(parse_policy("call"), SMALL_RULES, deck=Deck(deck))
    for seat in result.seats:
        assert seat.chips == pytest.approx(expected, abs=1e-9)
        assert seat.calls == 0.0  # the caller never bets, so there is nothing to call
