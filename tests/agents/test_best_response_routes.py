"""Full-deck best-response values against closed forms that skip the backward induction
(issue 15): the side wagers against ``call``, and the river against ``raise``."""

from __future__ import annotations

import numpy as np
import pytest

from agents.best_response import CALL, FULL_DECK, RAISE, LearnerSeat
from agents.best_response.flops import FlopValues, river_tables
from agents.best_response.river_numerators import flop_layout, river_numerators
from agents.best_response.tree import Outcome, build_game
from envs.rules import Rules, Street


@pytest.mark.parametrize("flop", [(0, 21, 46), (44, 48, 49)], ids=["rainbow", "two-tone"])
def test_flop_values_against_call_are_side_wagers(flop: tuple[int, int, int]) -> None:
    """Against the calling station, from the flop with c chips each in the pot, a holding is
    worth c (2 e - 1) plus, per street, the bet times max(0, 2 e_street - 1), where e_street
    is its equity given the cards it sees then (river: exact against all 990 holdings)."""
    rules = Rules()
    games = [build_game(CALL, rules, seat) for seat in LearnerSeat]
    remaining, by_seat = FlopValues(games, FULL_DECK, quantities=1).compute(flop)
    _, numerators = river_numerators(FULL_DECK, flop)
    layout = flop_layout(len(remaining))
    m, count = len(remaining), len(layout.pairs)
    river = np.full((m, m, count), np.nan)
    turn, card = layout.pairs[:, 0], layout.pairs[:, 1]
    equity = numerators / (2 * FULL_DECK.river_opponents)
    for first, second in ((turn, card), (card, turn)):
        river[first[:, None], second[:, None], layout.live] = equity
    # (turn card, holding): mean over the 46 rivers; NaN where the turn card is in the holding
    rivers = (~np.isnan(river)).sum(axis=1)
    on_turn = np.where(rivers > 0, np.nansum(river, axis=1) / np.maximum(rivers, 1), np.nan)
    on_flop = np.nanmean(on_turn, axis=0)
    wagers = (
        rules.small_bet * np.maximum(0.0, 2 * on_flop - 1)
        + rules.big_bet * np.nanmean(np.maximum(0.0, 2 * on_turn - 1), axis=0)
        + rules.big_bet * np.nanmean(np.maximum(0.0, 2 * river - 1), axis=(0, 1))
    )
    for game, values in zip(games, by_seat, strict=True):
        for history, round_id in game.preflop_exits:
            chips = rules.big_blind * (1 + history.count("r"))
            expected = chips * (2 * on_flop - 1) + wagers
            assert values[round_id][0] == pytest.approx(expected, abs=1e-9), history


def test_river_against_raise_in_closed_form() -> None:
    """Against the maniac the learner only picks how many bets go in: all four when its
    equity is at least 1/2, else one (check-call or call) or none (fold, losing the pot's c)."""
    rules = Rules()
    bet, cap = rules.big_bet, rules.max_bets[Street.RIVER]
    grid = 2 * FULL_DECK.river_opponents
    e = np.arange(grid + 1) / grid
    for seat in LearnerSeat:
        game = build_game(RAISE, rules, seat)
        tables, _ = river_tables(game, FULL_DECK, 1)
        for round_, table in zip(game.rounds[Street.RIVER], tables, strict=True):
            folds = [
                child.value
                for node in round_.nodes
                for child in node.children
                if child is not None and child.outcome == Outcome.LEARNER_FOLDS
            ]
            chips = min(folds)
            ahead = (chips + cap * bet) * (2 * e - 1)
            behind = np.maximum(-chips, (chips + bet) * (2 * e - 1))
            assert table[0] == pytest.approx(np.where(e >= 0.5, ahead, behind), abs=1e-9)
