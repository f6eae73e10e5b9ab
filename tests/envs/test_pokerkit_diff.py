"""Differential test: our engine against PokerKit on random multiway hands with finite stacks.

PokerKit (Kim 2023, arXiv:2308.07327; a test-only dependency pinned in the dev extra) is a
reference-grade fixed-limit implementation. It is imported, not skipped: without the oracle the
suite fails.
Both engines get the same cards and the same random legal actions; the seat to act, the legal
actions and the final payoffs must agree. PokerKit does not count the blinds as a bet, so its
default cap of four bets/raises per round is our ``max_bets=(5, 4, 4, 4)``.
"""

from __future__ import annotations

import warnings

import numpy as np
import numpy.typing as npt
import pokerkit

from envs.cards import format_card
from envs.game import Hand
from envs.rules import Action, Rules

AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)
NUM_HANDS = 1500


def _pokerkit_state(rules: Rules, stacks: tuple[int, ...]) -> object:
    return pokerkit.FixedLimitTexasHoldem.create_state(
        AUTOMATIONS,
        True,
        0,
        (rules.small_blind, rules.big_blind),
        rules.small_bet,
        rules.big_bet,
        stacks,
        rules.num_seats,
    )


def _deal_pending(
    state: object, hand: Hand, deck: npt.NDArray[np.int64], seat_of: list[int]
) -> None:
    """Give PokerKit the cards our engine dealt, in whatever order PokerKit asks for them."""
    while True:
        if state.can_burn_card():  # type: ignore[attr-defined]
            state.burn_card("??")  # type: ignore[attr-defined]
        elif state.can_deal_hole():  # type: ignore[attr-defined]
            player = state.hole_dealee_index  # type: ignore[attr-defined]
            seat = seat_of[player]
            dealt = len(state.hole_cards[player])  # type: ignore[attr-defined]
            state.deal_hole(format_card(hand.hole(seat)[dealt]))  # type: ignore[attr-defined]
        elif state.can_deal_board():  # type: ignore[attr-defined]
            have = len(state.board_cards)  # type: ignore[attr-defined]
            want = {0: 3, 3: 1, 4: 1}[have]
            start = 2 * hand.num_seats + have  # the board is dealt from deck[2n:]
            cards = deck[start : start + want]
            state.deal_board("".join(format_card(c) for c in cards))  # type: ignore[attr-defined]
        else:
            return


def _play_one(rng: np.random.Generator) -> tuple[int, int]:
    n = int(rng.choice([2, 3, 4, 6, 10], p=[0.2, 0.2, 0.2, 0.2, 0.2]))
    stacks = tuple(int(s) for s in rng.integers(1, 48, size=n))
    rules = Rules(num_seats=n, max_bets=(5, 4, 4, 4), stacks=stacks)
    button = int(rng.integers(n))
    deck = rng.permutation(52)
    hand = Hand(rules, deck, button=button)
    # PokerKit's player 0 is the first seat left of the button; its last player is the button.
    seat_of = [(button + 1 + p) % n for p in range(n)]
    player_of = {seat: p for p, seat in enumerate(seat_of)}
    state = _pokerkit_state(rules, tuple(stacks[s] for s in seat_of))
    decisions = 0
    while True:
        _deal_pending(state, hand, deck, seat_of)
        if hand.is_over:
            break
        actor = hand.actor
        assert actor is not None
        assert state.actor_index == player_of[actor], hand.events  # type: ignore[attr-defined]
        legal = hand.legal_actions()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            pk_legal = [
                a
                for a, ok in (
                    (Action.FOLD, state.can_fold()),  # type: ignore[attr-defined]
                    (Action.CALL, state.can_check_or_call()),  # type: ignore[attr-defined]
                    (Action.RAISE, state.can_complete_bet_or_raise_to()),  # type: ignore[attr-defined]
                )
                if ok
            ]
        assert tuple(pk_legal) == legal, (hand.events, pk_legal, legal)
        action = legal[int(rng.integers(len(legal)))]
        hand.act(action)
        if action == Action.FOLD:
            state.fold()  # type: ignore[attr-defined]
        elif action == Action.CALL:
            state.check_or_call()  # type: ignore[attr-defined]
        else:
            state.complete_bet_or_raise_to()  # type: ignore[attr-defined]
        decisions += 1
    assert not state.status, "PokerKit still expects operations after our hand ended"  # type: ignore[attr-defined]
    expected = [0] * n
    for p, payoff in enumerate(state.payoffs):  # type: ignore[attr-defined]
        expected[seat_of[p]] = int(payoff)
    assert list(hand.payoffs) == expected, (hand.events, expected)
    return n, decisions


def test_identical_payoffs_on_random_multiway_hands_with_finite_stacks() -> None:
    rng = np.random.default_rng(20261122)
    sizes = [_play_one(rng)[0] for _ in range(NUM_HANDS)]
    assert sum(1 for n in sizes if n > 2) >= 1000
