"""AIVAT: every correction term has mean zero (exact enumeration where the game is small
enough, seeded sampling otherwise), corrections sum to zero, and they cut the variance."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np
import pytest

from envs.aivat import PlayedHands, aivat_corrections
from envs.aivat.estimator import DECISIONS, aivat_terms
from envs.aivat.showdown_shares import live_cards, pot_shares, street_ranks
from envs.crn import decision_uniform, sample_action
from envs.evaluator import evaluate
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Action, Rules, Street
from envs.view import PlayerView

Policy = Callable[[PlayerView], tuple[float, float, float]]


def card_aware(view: PlayerView) -> tuple[float, float, float]:
    """A stochastic policy that depends on the cards, so the estimator has work to do."""
    pair = view.hole[0] >> 2 == view.hole[1] >> 2
    strength = (max(view.hole) >> 2) / 12.0 + (0.3 if pair else 0.0)
    weights = np.array([1.2 - strength, 1.0, 0.2 + strength])
    legal = np.zeros(3, dtype=bool)
    legal[list(view.legal_actions)] = True
    weights = np.where(legal, np.clip(weights, 0.05, None), 0.0)
    p = weights / weights.sum()
    return (float(p[0]), float(p[1]), float(p[2]))


def checker(view: PlayerView) -> tuple[float, float, float]:
    return (0.0, 1.0, 0.0)


def play(
    rules: Rules,
    deck: Sequence[int],
    policies: Sequence[Policy],
    *,
    seed: int,
    deal: int,
    script: Sequence[Action] = (),
    known: Sequence[bool] | None = None,
) -> tuple[Hand, list[tuple[float, float, float]], list[bool]]:
    """Play one hand: scripted actions first, then each seat's policy with CRN uniforms."""
    hand = Hand(rules, np.asarray(deck), button=deal % rules.num_seats, hand_id=deal)
    n2 = 2 * rules.num_seats
    RIVER_BOARDS[id(hand)] = tuple(int(c) for c in deck[n2 : n2 + 5])
    probabilities: list[tuple[float, float, float]] = []
    known_flags: list[bool] = []
    decisions = [0] * rules.num_seats
    while (seat := hand.actor) is not None:
        view = hand.view(seat)
        p = policies[seat](view)
        step = len(probabilities)
        action = (
            script[step]
            if step < len(script)
            else sample_action(p, decision_uniform(seed, deal, seat, decisions[seat]))
        )
        decisions[seat] += 1
        probabilities.append(p)
        known_flags.append(True if known is None else known[seat])
        hand.act(action)
    return hand, probabilities, known_flags


def record(
    rules: Rules, played: Sequence[tuple[Hand, list[tuple[float, float, float]], list[bool]]]
) -> PlayedHands:
    m, seats = len(played), rules.num_seats
    width = max(1, max(len(p) for _, p, _ in played))
    log = np.zeros((4, m, width), dtype=np.int64)
    probabilities = np.zeros((m, width, 3))
    known = np.zeros((m, width), dtype=bool)
    holes = np.zeros((m, seats, 2), dtype=np.uint8)
    board = np.zeros((m, 5), dtype=np.uint8)
    blinds = np.zeros((m, seats), dtype=np.int64)
    for i, (hand, probs, flags) in enumerate(played):
        view = hand.view(0)
        for j, acted in enumerate(view.actions):
            log[:, i, j] = (acted.street, acted.seat, acted.action, acted.amount)
        probabilities[i, : len(probs)] = probs
        known[i, : len(flags)] = flags
        holes[i] = [hand.hole(s) for s in range(seats)]
        board[i] = RIVER_BOARDS[id(hand)]
        blinds[i] = view.blinds
    return PlayedHands(
        holes=holes,
        board=board,
        blinds=blinds,
        stacks=np.tile(np.array(rules.starting_stacks, dtype=np.int64), (m, 1)),
        log_len=np.array([len(p) for _, p, _ in played], dtype=np.int64),
        log_street=log[0],
        log_seat=log[1],
        log_action=log[2],
        log_amount=log[3],
        probabilities=probabilities,
        known=known,
        deals=np.array([hand.hand_id for hand, _, _ in played], dtype=np.int64),
    )


RIVER_BOARDS: dict[int, tuple[int, ...]] = {}
"""Boards of hands that ended before the river (by id), filled by ``play``."""

RAISE, CALL, FOLD = Action.RAISE, Action.CALL, Action.FOLD
# Pre-flop raise-call, flop bet-call, turn check-check: the river opens with seat 1 to act.
TO_RIVER = (RAISE, CALL, RAISE, CALL, CALL, CALL)


@pytest.mark.parametrize("deal", [0, 1, 2, 3])
def test_a_river_decision_term_has_mean_zero_over_the_actions(deal: int) -> None:
    rules = Rules()
    deck = deal_deck(11, deal)
    sigma = (0.0, 0.35, 0.65)  # the river opener may check or bet

    def opener(view: PlayerView) -> tuple[float, float, float]:
        return sigma if view.street == Street.RIVER else card_aware(view)

    policies = [opener, opener]
    base = list(TO_RIVER)
    outcomes = {}
    for action in (CALL, RAISE):
        # After the opener's action the other seat calls (known, deterministic: no term).
        played = [play(rules, deck, policies, seed=1, deal=0, script=[*base, action, CALL])]
        outcomes[action] = aivat_terms(rules, record(rules, played), seed=1)[0, DECISIONS]
    unknown_river = play(rules, deck, policies, seed=1, deal=0, script=[*base, CALL, CALL])
    unknown_river[2][len(base)] = False
    reference = aivat_terms(rules, record(rules, [unknown_river]), seed=1)[0, DECISIONS]
    weighted = sigma[1] * outcomes[CALL] + sigma[2] * outcomes[RAISE]
    assert np.allclose(weighted, reference, atol=1e-9)
    # The term itself is not zero unless the opener surely wins (then betting costs nothing).
    assert not np.allclose(outcomes[CALL], outcomes[RAISE]) or outcomes[CALL][1] >= 0


def test_a_facing_bet_decision_term_including_the_fold_has_mean_zero() -> None:
    rules = Rules(num_seats=3)
    deck = deal_deck(5, 3)
    sigma = (0.25, 0.45, 0.30)
    prefix = (CALL, CALL, CALL, RAISE)  # pre-flop limps, flop bet: the next seat faces a bet

    def responder(view: PlayerView) -> tuple[float, float, float]:
        return sigma if view.to_call and view.street == Street.FLOP else checker(view)

    # Button 0: seat 1 bets the flop and seat 2, the only stochastic seat, faces it.
    policies = [checker, checker, responder]
    results = {}
    for action in (FOLD, CALL, RAISE):
        played = play(rules, deck, policies, seed=2, deal=3, script=[*prefix, action])
        results[action] = aivat_terms(rules, record(rules, [played]), seed=2)[0, DECISIONS]
    hand, probs, flags = play(rules, deck, policies, seed=2, deal=3, script=[*prefix, CALL])
    flags[len(prefix)] = False
    reference = aivat_terms(rules, record(rules, [(hand, probs, flags)]), seed=2)[0, DECISIONS]
    weighted = sum(sigma[a] * results[a] for a in (FOLD, CALL, RAISE))
    assert np.allclose(weighted, reference, atol=1e-9)


def test_the_river_card_term_has_mean_zero_over_every_river() -> None:
    rules = Rules()
    policies = [checker, checker]
    river_at = 2 * rules.num_seats + 4
    largest = 0.0
    for deal in range(4, 8):
        deck = deal_deck(21, deal)
        live = live_cards(
            np.array(deck[:4], dtype=np.uint8).reshape(1, 2, 2),
            np.array(deck[river_at - 4 : river_at], dtype=np.uint8).reshape(1, 4),
        )[0]
        assert len(live) == 44
        terms = []
        for river in live:
            cards = list(deck)
            j = cards.index(int(river))
            cards[j], cards[river_at] = cards[river_at], cards[j]
            played = play(rules, cards, policies, seed=3, deal=deal, script=TO_RIVER)
            terms.append(aivat_terms(rules, record(rules, [played]), seed=3)[0, 3])
        terms_array = np.array(terms)
        assert np.allclose(terms_array.mean(axis=0), 0.0, atol=1e-12)
        largest = max(largest, float(np.abs(terms_array).max()))
    assert largest > 1.0  # some river moved the equity: the check above was not vacuous


def test_turn_shares_are_exact_averages_and_flop_samples_are_unbiased() -> None:
    holes = np.array([[[48, 45], [20, 21]]], dtype=np.uint8)  # Ac Kd vs 7c 7d
    board = np.array([[0, 17, 30, 40, 50]], dtype=np.uint8)
    contenders = np.ones((1, 2), dtype=bool)
    deals = np.array([0])
    turn = pot_shares(street_ranks(holes, board, 2, seed=0, deals=deals, samples=8), contenders)
    rivers = live_cards(holes, board[:, :4])[0]
    river_shares = []
    for river in rivers:
        b = board.copy()
        b[0, 4] = river
        ranks = street_ranks(holes, b, 3, seed=0, deals=deals, samples=8)
        river_shares.append(pot_shares(ranks, contenders)[0])
    assert np.allclose(turn[0], np.mean(river_shares, axis=0), atol=1e-12)
    # Exact flop share by enumerating every turn-river pair.
    left = live_cards(holes, board[:, :3])[0]
    pairs = np.array(list(combinations(left.tolist(), 2)), dtype=np.uint8)
    hands = np.empty((len(pairs), 2, 7), dtype=np.uint8)
    hands[:, :, :2] = holes[0]
    hands[:, :, 2:5] = board[0, :3]
    hands[:, :, 5:] = pairs[:, np.newaxis, :]
    ranks = evaluate(hands.reshape(-1, 7)).reshape(len(pairs), 2)
    exact = pot_shares(ranks[np.newaxis], contenders)[0]
    estimates = np.array(
        [
            pot_shares(
                street_ranks(holes, board, 1, seed=0, deals=np.array([d]), samples=32), contenders
            )[0]
            for d in range(600)
        ]
    )
    error = estimates[:, 0].std(ddof=1) / np.sqrt(len(estimates))
    assert abs(estimates[:, 0].mean() - exact[0]) < 4 * error


def test_hand_corrections_sum_to_zero_and_average_zero_while_cutting_the_variance() -> None:
    rules = Rules()
    policies = [card_aware, card_aware]
    played = [play(rules, deal_deck(7, d), policies, seed=7, deal=d) for d in range(3000)]
    hands = record(rules, played)
    corrections = aivat_corrections(rules, hands, seed=7)
    assert np.allclose(corrections.sum(axis=1), 0.0, atol=1e-9)
    raw = np.array([hand.payoffs[0] for hand, _, _ in played], dtype=float)
    corrected = raw + corrections[:, 0]
    # Unbiased: the correction's mean is zero within its noise.
    error = corrections[:, 0].std(ddof=1) / np.sqrt(len(raw))
    assert abs(corrections[:, 0].mean()) < 4 * error
    assert corrected.var() < 0.5 * raw.var()


def test_three_seat_hands_keep_corrections_zero_sum() -> None:
    rules = Rules(num_seats=3, stacks=(30, 12, 50))
    policies = [card_aware] * 3
    played = [play(rules, deal_deck(9, d), policies, seed=9, deal=d) for d in range(400)]
    corrections = aivat_corrections(rules, record(rules, played), seed=9)
    assert np.allclose(corrections.sum(axis=1), 0.0, atol=1e-9)


@pytest.mark.parametrize("samples", [1, 8])
def test_deterministic_policies_get_no_decision_terms(samples: int) -> None:
    rules = Rules()
    played = [play(rules, deal_deck(4, d), [checker, checker], seed=4, deal=d) for d in range(50)]
    terms = aivat_terms(rules, record(rules, played), seed=4, samples=samples)
    assert np.allclose(terms[:, DECISIONS], 0.0)
