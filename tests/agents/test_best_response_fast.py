"""The compiled flop route (class numerators, suit isomorphism on the turn and river, turn
values per holding class) against the plain route it replaced: every holding, every turn and
river card, river tables read at each exact numerator, rounds backed up with ``backup``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from agents.best_response import FULL_DECK, LearnerSeat, parse_policy
from agents.best_response.backup import QUANTITIES, backup
from agents.best_response.board_numerators import board_numerators
from agents.best_response.flop_symmetry import flop_symmetry
from agents.best_response.flops import FlopValues, river_tables
from agents.best_response.river_numerators import flop_layout, river_numerators
from agents.best_response.tree import build_game
from envs.rules import Rules, Street

FLOPS = {
    "monotone": (0, 4, 8),
    "two-tone paired": (0, 1, 20),
    "rainbow": (0, 21, 46),
    "trips": (48, 49, 50),
}


@pytest.mark.parametrize("flop", list(FLOPS.values()), ids=list(FLOPS))
def test_board_numerators_equal_the_vectorised_route(flop: tuple[int, int, int]) -> None:
    remaining, expected = river_numerators(FULL_DECK, flop)
    layout = flop_layout(len(remaining))
    got = board_numerators(flop, remaining, layout.pairs, clash=-1)
    boards = np.arange(len(layout.pairs))[:, np.newaxis]
    assert np.array_equal(got[boards, layout.live], expected)
    clashing = np.ones(got.shape, dtype=bool)
    clashing[boards, layout.live] = False
    assert (got[clashing] == -1).all()


def test_flop_symmetry_covers_every_turn_and_board() -> None:
    """Orbit weights add up to the 49 turn cards; every board of a representative turn reads
    a representative board holding the same numerators."""
    flop = FLOPS["monotone"]
    symmetry = flop_symmetry(FULL_DECK, flop)
    m = 49
    orbit = len(symmetry.pair_maps) * symmetry.turn_weights
    assert orbit.sum() == pytest.approx(m)
    remaining, _ = river_numerators(FULL_DECK, flop)
    layout = flop_layout(m)
    every = board_numerators(flop, remaining, layout.pairs, clash=-1)
    stored = board_numerators(flop, remaining, symmetry.boards, clash=-1)
    for turn in symmetry.turns:
        for river in range(m):
            if river == turn:
                continue
            row = stored[symmetry.board_row[turn, river]]
            images = symmetry.pair_maps[symmetry.board_map[turn, river], :-1]
            assert np.array_equal(row[images], every[layout.pair_index[turn, river]])


def _plain_flop_values(
    bot: str, flop: tuple[int, int, int]
) -> list[list[npt.NDArray[np.float64]]]:
    """Flop-round values of every holding, per seat, by the plain route (see the module)."""
    rules, q, tolerance = Rules(), QUANTITIES, 1e-9 * Rules().big_bet
    remaining, numerators = river_numerators(FULL_DECK, flop)
    layout = flop_layout(len(remaining))
    m, count = len(remaining), len(layout.pairs)
    grid = 2 * FULL_DECK.river_opponents
    # cube[t, r, h]: numerator of holding h on turn t and river r, or grid + 1 (a zero column
    # of the padded tables) where the cards clash.
    cube = np.full((m, m, count), grid + 1, dtype=np.int64)
    turn, river = layout.pairs[:, 0], layout.pairs[:, 1]
    for first, second in ((turn, river), (river, turn)):
        cube[first[:, None], second[:, None], layout.live] = numerators
    values = []
    for seat in LearnerSeat:
        game = build_game(parse_policy(bot), rules, seat)
        tables, _ = river_tables(game, FULL_DECK, q, tolerance)
        padded = np.concatenate([tables, np.zeros((*tables.shape[:2], 1))], axis=2)
        rivers = [
            np.stack([padded[j, k][cube].sum(axis=1) / (m - 3) for k in range(q)])
            for j in range(len(tables))
        ]
        turns = [
            np.where(
                layout.turn_ok,
                backup(
                    round_,
                    next_round=rivers.__getitem__,
                    quantities=q,
                    ndim=2,
                    tolerance=tolerance,
                ).root,
                0.0,
            ).sum(axis=1)
            / (m - 2)
            for round_ in game.rounds[Street.TURN]
        ]
        values.append(
            [
                backup(
                    round_, next_round=turns.__getitem__, quantities=q, tolerance=tolerance
                ).root
                for round_ in game.rounds[Street.FLOP]
            ]
        )
    return values


@pytest.mark.parametrize(
    ("bot", "flop"),
    [
        ("random", FLOPS["monotone"]),
        ("mix:0.2,0.5,0.3", FLOPS["two-tone paired"]),
        ("call", FLOPS["rainbow"]),
    ],
)
def test_flop_values_equal_the_plain_route(bot: str, flop: tuple[int, int, int]) -> None:
    games = [build_game(parse_policy(bot), Rules(), seat) for seat in LearnerSeat]
    _, got = FlopValues(games, FULL_DECK, QUANTITIES, 1e-9 * Rules().big_bet).compute(flop)
    expected = _plain_flop_values(bot, flop)
    for seat_got, seat_expected in zip(got, expected, strict=True):
        for round_got, round_expected in zip(seat_got, seat_expected, strict=True):
            np.testing.assert_allclose(round_got, round_expected, rtol=0.0, atol=1e-9)
