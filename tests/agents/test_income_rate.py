"""Income-rate tables: Papp's published values within Monte-Carlo error, roll-out correctness."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from treys import Card, Evaluator

from agents.strength.holdings import HOLDING_TYPE, TYPE_COMBOS, type_cell, type_cells
from agents.strength.income_rate import (
    IncomeRateTables,
    hero_pot_shares,
    income_rate_tables,
    load_income_rates,
    representative,
    rollout_income_rates,
)
from envs.cards import format_card, parse_cards
from tuning.cli import main

TABLES = load_income_rates()


def cell(name: str) -> tuple[int, int]:
    """Type cell of a hand written as cards, e.g. "3c2c" (suited) or "3c2d"."""
    a, b = parse_cards(name)
    return type_cell(a, b)


# (hand, table size, Papp's value) -- Papp (1998) section 6.1 and Appendix A
# and Pena (1999) section 3.1.
ANCHORS = [
    ("AcAd", 7, 2043),
    ("3c2c", 2, -279),
    ("3c2d", 2, -351),
    ("AcTc", 4, 491),
    ("Ac8c", 4, 338),
    ("7c2d", 7, -495),
]


@pytest.mark.parametrize(("hand", "players", "papp"), ANCHORS)
def test_papp_anchor_values_within_monte_carlo_error(hand: str, players: int, papp: int) -> None:
    """Papp's tables came from 10^6 deals per type as ours did, so both carry about the same
    standard error; the difference must stay within 4 combined standard errors (plus Papp's
    rounding to whole numbers)."""
    row, col = cell(hand)
    ours = TABLES.table(players)[row, col]
    se = TABLES.std_error[players][row, col]
    assert abs(ours - papp) <= 4 * math.sqrt(2) * se + 0.5, (ours, se)


def test_extremes_of_the_tables() -> None:
    """Papp Appendix A: A-A is the highest entry of every table; 7-2 off-suit the lowest of IR7."""
    aa = cell("AcAd")
    for players in range(2, 11):
        table = TABLES.table(players)
        assert np.unravel_index(np.argmax(table), table.shape) == aa
    ir7 = TABLES.table(7)
    assert np.unravel_index(np.argmin(ir7), ir7.shape) == cell("7c2d")


def test_ir7_percentiles() -> None:
    """Papp 7.2.2: the 70th percentile of the 1,326 holdings by IR7 is about +118 and the 5th
    -433. Our cumulative fraction of holdings below those values must be 0.70 and 0.05 within
    one percentage point (adjacent hand types are 4-12 holdings, 0.3-0.9 points, apart)."""
    ir7 = TABLES.of_holdings(7)
    assert np.mean(ir7 < 118) == pytest.approx(0.70, abs=0.01)
    assert np.mean(ir7 < -433) == pytest.approx(0.05, abs=0.01)


def test_shipped_file_records_its_provenance() -> None:
    assert set(TABLES.ir) == set(range(2, 11))
    for players in (2, 4, 7):
        assert TABLES.deals[players] == 1_000_000
    assert isinstance(TABLES.seed, int)
    assert TYPE_COMBOS.sum() == 1326
    # The holdings' values are their type's entry.
    assert (TABLES.of_holdings(4) == TABLES.table(4)[HOLDING_TYPE[:, 0], HOLDING_TYPE[:, 1]]).all()


def test_table_regenerates_from_its_seed() -> None:
    """Type k is rolled out with SeedSequence([seed, k]): re-running one entry reproduces it."""
    k = type_cells().index(cell("3c2d"))
    rng = np.random.default_rng(np.random.SeedSequence([TABLES.seed, k]))
    ir, se = rollout_income_rates(
        representative(*cell("3c2d")), deals=TABLES.deals[2], rng=rng, max_players=10
    )
    row, col = cell("3c2d")
    for players in range(2, 11):
        assert ir[players - 2] == pytest.approx(TABLES.table(players)[row, col], abs=0.05)
        assert se[players - 2] == pytest.approx(TABLES.std_error[players][row, col], abs=0.005)


def test_pot_shares_match_treys_on_random_deals() -> None:
    """The vectorised showdown agrees with a treys loop, ties split, for 1..4 opponents."""
    rng = np.random.default_rng(41)
    evaluator = Evaluator()
    a, b = parse_cards("9h9d")
    rest = np.array([c for c in range(52) if c not in (a, b)])
    cards = np.stack([rng.permutation(rest)[:13] for _ in range(300)], axis=1)
    shares = hero_pot_shares(a, b, cards)
    for deal in range(cards.shape[1]):
        board = [Card.new(format_card(int(c))) for c in cards[:5, deal]]
        mine = evaluator.evaluate(board, [Card.new(format_card(c)) for c in (a, b)])
        theirs = [
            evaluator.evaluate(
                board, [Card.new(format_card(int(c))) for c in cards[i : i + 2, deal]]
            )
            for i in range(5, 13, 2)
        ]
        for k in range(4):
            field = theirs[: k + 1]
            expected = 0.0 if min(field) < mine else 1.0 / (1 + field.count(mine))
            assert shares[k, deal] == expected


def test_rollout_is_seeded_and_validated() -> None:
    first = rollout_income_rates((0, 5), deals=500, rng=np.random.default_rng(3), max_players=4)
    again = rollout_income_rates((0, 5), deals=500, rng=np.random.default_rng(3), max_players=4)
    assert first[0].shape == (3,) and (first[0] == again[0]).all()
    with pytest.raises(ValueError, match="distinct"):
        rollout_income_rates((3, 3), deals=10, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="deals"):
        rollout_income_rates((3, 4), deals=1, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="max_players"):
        rollout_income_rates((3, 4), deals=10, rng=np.random.default_rng(0), max_players=11)
    with pytest.raises(ValueError, match=r"deals must be an integer, got 10\.5"):
        rollout_income_rates((3, 4), deals=10.5, rng=np.random.default_rng(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"max_players must be an integer, got 4\.0"):
        rollout_income_rates((3, 4), deals=10, rng=np.random.default_rng(0), max_players=4.0)  # type: ignore[arg-type]


def test_small_generation_round_trips_through_json(tmp_path: object) -> None:
    tables = income_rate_tables(deals=20, seed=5, max_players=3)
    parsed = IncomeRateTables.from_json(json.loads(tables.dumps()))
    assert parsed.seed == 5 and parsed.deals == {2: 20, 3: 20}
    assert np.allclose(parsed.table(3), np.round(tables.table(3), 1))
    with pytest.raises(ValueError, match="no IR table"):
        parsed.table(7)
    with pytest.raises(ValueError, match="malformed"):
        IncomeRateTables.from_json({"tables": {}})


def test_cli_writes_tables(tmp_path: pytest.TempPathFactory) -> None:
    out = tmp_path / "ir.json"  # type: ignore[operator]
    status = main(
        [
            "ir-tables",
            "--deals",
            "10",
            "--seed",
            "3",
            "--max-players",
            "3",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert status == 0
    document = json.loads(out.read_text())
    assert document["seed"] == 3 and document["deals"] == {"2": 10, "3": 10}
    assert len(document["tables"]["3"]) == 13
    assert (
        main(
            [
                "ir-tables",
                "--deals",
                "10",
                "--seed",
                "3",
                "--max-players",
                "12",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 2
    )
