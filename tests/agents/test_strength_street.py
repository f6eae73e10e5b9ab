"""The compiled street tables against the NumPy references of agents.strength.

HS1, HSn, PPOT1 and PPOT2 equal the references to the last bit (the kernels add in the
references' order, NumPy's pairwise sums included), so that Loki's figures do not move when
it calls the kernels; PPOTc to 1e-12 (the reference's dot product is BLAS's).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from agents.strength import (
    board_ranks,
    hand_potential,
    hand_strength,
    hand_strength_all,
    ppot_c,
)
from agents.strength.holdings import NUM_HOLDINGS, dead_mask
from agents.strength.street import (
    DEAD,
    StreetTables,
    field_potential2,
    field_values,
    street_tables,
)
from envs.cards import parse_cards
from envs.evaluator import evaluate_one

ATOL = 1e-12


def random_rows(rng: np.random.Generator, count: int) -> np.ndarray:
    """``(count, 7)`` deals: two own cards, then five board cards."""
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7]


def random_field(rng: np.random.Generator, kind: str) -> np.ndarray:
    if kind == "uniform":
        return np.ones(NUM_HOLDINGS)
    field = rng.random(NUM_HOLDINGS)
    if kind == "zeros":
        field[rng.random(NUM_HOLDINGS) < 0.5] = 0.0
    return field


def expected_after(hole: tuple[int, ...], board: tuple[int, ...]) -> np.ndarray:
    """``(1326, 3)`` ahead / tied / behind counts over the next cards, by brute force."""
    counts = np.zeros((NUM_HOLDINGS, 3), dtype=np.int64)
    live = ~dead_mask((*hole, *board))
    for card in range(52):
        if card in hole or card in board:
            continue
        final = (*board, card)
        mine = evaluate_one((*hole, *final))
        theirs = board_ranks(final)
        ok = live & ~dead_mask([card])
        counts[ok, 0] += theirs[ok] < mine
        counts[ok, 1] += theirs[ok] == mine
        counts[ok, 2] += theirs[ok] > mine
    return counts


# ------------------------------------------------------------------ the tables


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_tables_equal_the_references(board_size: int) -> None:
    rng = np.random.default_rng([22, board_size])
    deals = random_rows(rng, 8)
    tables = street_tables(deals[:, :2], deals[:, 2:], np.full(len(deals), board_size))
    for row, deal in enumerate(deals.tolist()):
        hole, board = tuple(deal[:2]), tuple(deal[2 : 2 + board_size])
        on_board = dead_mask(board)
        np.testing.assert_array_equal(tables.hs1[row], hand_strength_all(board))
        ppotc = ppot_c(board) if board_size < 5 else np.where(on_board, np.nan, 0.0)
        np.testing.assert_allclose(tables.ppotc[row], ppotc, rtol=0, atol=ATOL)
        dead = dead_mask((*hole, *board))
        mine, theirs = evaluate_one((*hole, *board)), board_ranks(board).astype(np.int64)
        versus = np.where(dead, DEAD, np.sign(mine - theirs))
        np.testing.assert_array_equal(tables.versus[row], versus)
        after = expected_after(hole, board) if board_size < 5 else 0
        np.testing.assert_array_equal(tables.after[row], np.zeros((NUM_HOLDINGS, 3)) + after)


# Boards that reach the rarer kinds of PPOTc outs: monotone flops (four-suited flush cards),
# four-flush turns (the board's own flush), straight-heavy, paired, trips and quads boards.
SPECIAL = [
    ("2h7hKh", "Ah3c"),
    ("2h7hKh", "Qh3h"),
    ("2h7hKh9h", "5c5d"),
    ("2h7hKh9h", "Th4d"),
    ("5c6c7d", "8s9s"),
    ("5c6c7d8s", "AhKh"),
    ("9s9d4c", "4h4d"),
    ("AsAdAh", "KsKd"),
    ("QcQdQhQs", "2c3d"),
    ("Tc9c8cJs", "QcKd"),
    ("2c3c4c5cKd", "6c7d"),
]


@pytest.mark.parametrize(("board", "hole"), SPECIAL)
def test_special_boards_equal_the_references(board: str, hole: str) -> None:
    board_cards, hole_cards = parse_cards(board), parse_cards(hole)
    boards = np.full((1, 5), -1)
    boards[0, : len(board_cards)] = board_cards
    tables = street_tables(np.array([hole_cards]), boards, np.array([len(board_cards)]))
    np.testing.assert_array_equal(tables.hs1[0], hand_strength_all(board_cards))
    if len(board_cards) < 5:
        np.testing.assert_allclose(tables.ppotc[0], ppot_c(board_cards), rtol=0, atol=ATOL)
        expected = expected_after(tuple(hole_cards), tuple(board_cards))
        np.testing.assert_array_equal(tables.after[0], expected)
    field = np.random.default_rng(5).random((1, NUM_HOLDINGS))
    hsn, ppot = field_values(tables, field, np.array([2]))
    assert hsn[0] == hand_strength(hole_cards, board_cards, field[0], opponents=2)
    if len(board_cards) < 5:
        assert ppot[0] == hand_potential(hole_cards, board_cards, field[0], lookahead=1)[0]


# ------------------------------------------------------------------ field values


@pytest.mark.parametrize("board_size", [3, 4, 5])
@pytest.mark.parametrize("kind", ["uniform", "positive", "zeros"])
def test_field_values_equal_the_references(board_size: int, kind: str) -> None:
    rng = np.random.default_rng([7, board_size, len(kind)])
    deals = random_rows(rng, 6)
    tables = street_tables(deals[:, :2], deals[:, 2:], np.full(len(deals), board_size))
    field = np.stack([random_field(rng, kind) for _ in deals])
    opponents = rng.integers(1, 5, len(deals))
    hsn, ppot = field_values(tables, field, opponents)
    for row, deal in enumerate(deals.tolist()):
        hole, board = deal[:2], deal[2 : 2 + board_size]
        # HSn = HS1 ** n: NumPy's vectorised power (AVX-512 machines) and Python's ** may
        # differ in the last bit.
        expected = hand_strength(hole, board, field[row], opponents=int(opponents[row]))
        assert hsn[row] == pytest.approx(expected, rel=1e-15, abs=0)
        potential = hand_potential(hole, board, field[row])[0] if board_size < 5 else 0.0
        assert ppot[row] == potential


def test_papp_and_pena_worked_numbers() -> None:
    """Papp 1998 sections 5.2-5.3 and Table 5.1, Pena 1999 section 3.2 (uniform opponent)."""
    cases = [  # hole, board, opponents, HSn, PPOT1 rounded
        ("AdQc", "3h4cJh", 1, (628 + 9 / 2) / 1081, 0.108),
        ("Ah8h", "9h8c2c", 1, (903 + 6 / 2) / 1081, None),
        ("Ah8h", "9h8c2c", 3, ((903 + 6 / 2) / 1081) ** 3, None),
        ("8d7d", "9d6c2d", 1, None, None),
    ]
    holes = np.array([parse_cards(hole) for hole, *_ in cases])
    boards = np.array([parse_cards(board) for _, board, *_ in cases])
    tables = street_tables(holes, boards, np.full(len(cases), 3))
    uniform = np.ones((len(cases), NUM_HOLDINGS))
    hsn, ppot = field_values(tables, uniform, np.array([case[2] for case in cases]))
    assert hsn[0] == pytest.approx(cases[0][3], abs=ATOL) and round(hsn[0], 3) == 0.585
    assert round(ppot[0], 3) == 0.108
    assert hsn[1] == pytest.approx(cases[1][3], abs=ATOL) and round(hsn[1], 2) == 0.84
    assert hsn[2] == pytest.approx(cases[2][3], abs=ATOL) and round(hsn[2], 2) == 0.59
    assert round(hsn[3], 3) == 0.115
    # Two cards to come: PPOT2 0.208 (Papp Table 5.1, "tied/2" denominators).
    assert round(field_potential2(holes[:1], boards[:1], uniform[:1])[0], 3) == 0.208


@pytest.mark.parametrize("kind", ["uniform", "zeros"])
def test_two_card_potential_equals_the_reference(kind: str) -> None:
    rng = np.random.default_rng([2, len(kind)])
    deals = random_rows(rng, 2)
    field = np.stack([random_field(rng, kind) for _ in deals])
    got = field_potential2(deals[:, :2], deals[:, 2:], field)
    for row, deal in enumerate(deals.tolist()):
        assert got[row] == hand_potential(deal[:2], deal[2:5], field[row], lookahead=2)[0]


# ------------------------------------------------------------------ dead cards, edge cases


def test_dead_holdings_and_zero_weights() -> None:
    hole, board = parse_cards("AdQc"), parse_cards("3h4cJh")
    tables = street_tables(np.array([hole]), np.array([board]), np.array([3]))
    on_board = dead_mask(board)
    meets_own = dead_mask(hole) & ~on_board
    assert np.isnan(tables.hs1[0, on_board]).all() and np.isnan(tables.ppotc[0, on_board]).all()
    assert not np.isnan(tables.hs1[0, meets_own]).any()  # the holding's owner sees our cards
    assert (tables.versus[0, on_board | meets_own] == DEAD).all()
    assert (tables.after[0, on_board | meets_own] == 0).all()
    live = ~(on_board | meets_own)
    assert live.sum() == 1081 and (tables.after[0, live].sum(axis=1) == 45).all()
    # Weight only on dead holdings: HS is undefined, as in hand_strength.
    field = np.where(live, 0.0, 1.0)[np.newaxis]
    with pytest.raises(ValueError, match=r"rows \[0\]: the weights .* sum to zero"):
        field_values(tables, field, np.array([1]))
    with pytest.raises(ValueError, match="sum to zero"):
        hand_strength(hole, board, field[0])
    # Weight on one live holding: exactly that holding's comparison.
    h = int(np.flatnonzero(live)[0])
    hsn, _ = field_values(tables, np.where(np.arange(NUM_HOLDINGS) == h, 3.0, 0.0)[None], [1])
    assert hsn[0] == {1: 1.0, 0: 0.5, -1: 0.0}[int(tables.versus[0, h])]


def test_unread_board_cells_and_row_independence() -> None:
    """Rows do not depend on their batch (the scalar and batched Loki agree bit for bit),
    across the kernels' chunks of rows, and cells past ``board_len`` are not read."""
    rng = np.random.default_rng(99)
    deals = random_rows(rng, 41)
    lengths = rng.integers(3, 6, len(deals))
    # Past the board: a hole card again, or no card at all; neither is read.
    garbage = np.where(np.arange(len(deals))[:, None] % 2, deals[:, :1], -1)
    boards = np.where(np.arange(5) >= lengths[:, None], garbage, deals[:, 2:])
    batch = street_tables(deals[:, :2], boards, lengths)
    for row in (0, 31, 32, 40):
        alone = street_tables(
            deals[row : row + 1, :2], deals[row : row + 1, 2:], lengths[row:][:1]
        )
        for name in ("hs1", "ppotc", "versus", "after"):
            np.testing.assert_array_equal(getattr(batch, name)[row], getattr(alone, name)[0])
    field = rng.random((len(deals), NUM_HOLDINGS))
    values = field_values(batch, field, np.ones(len(deals), dtype=np.int64))
    part = field_values(batch.take([40, 3]), field[[40, 3]], np.array([1, 1]))
    np.testing.assert_array_equal(np.stack(values)[:, [40, 3]], np.stack(part))


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    ("holes", "boards", "lengths", "message"),
    [
        (np.zeros((2, 3)), np.zeros((2, 5)), [3, 3], "must be integers"),
        ([[0, 1, 2]], [[3, 4, 5]], [3], r"holes must have shape \(k, 2\)"),
        ([[0, 1]], [[3, 4]], [3], r"boards must have shape \(1, 3..5\)"),
        ([[0, 1]], [[3, 4, 5], [6, 7, 8]], [3], r"boards must have shape \(1, 3..5\)"),
        ([[0, 1]], [[3, 4, 5]], [3, 3], r"board_len must have shape \(1,\)"),
        ([[0, 1]], [[3, 4, 5, 6, 7]], [2], "board lengths must lie in 3..5"),
        ([[0, 1]], [[3, 4, 5, 6]], [5], "board lengths must lie in 3..4"),
        ([[0, 52]], [[3, 4, 5]], [3], "card ids must lie in 0..51"),
        ([[-1, 2]], [[3, 4, 5]], [3], "card ids must lie in 0..51"),
        ([[0, 1]], [[3, 4, 60, 6]], [4], "card ids must lie in 0..51"),
        ([[0, 0]], [[3, 4, 5]], [3], r"rows \[0\] hold a card twice"),
        ([[0, 1], [0, 1]], [[3, 4, 5], [3, 1, 5]], [3, 3], r"rows \[1\] hold a card twice"),
        ([[0, 1]], [[3, 4, 3]], [3], "hold a card twice"),
    ],
)
def test_bad_rows_raise(holes: object, boards: object, lengths: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        street_tables(np.asarray(holes), np.asarray(boards), np.asarray(lengths))


def test_bad_fields_raise() -> None:
    tables = street_tables(np.array([[0, 1]]), np.array([[2, 3, 4]]), np.array([3]))
    ones = np.ones((1, NUM_HOLDINGS))
    cases = [
        (np.ones((2, NUM_HOLDINGS)), [1], r"field must have shape \(1, 1326\)"),
        (-ones, [1], "finite and non-negative"),
        (ones * np.nan, [1], "finite and non-negative"),
        (ones, [0], "at least 1"),
        (ones, [1, 1], r"opponents must be \(1,\) integers"),
        (ones, [1.0], r"opponents must be \(1,\) integers"),
    ]
    for field, opponents, message in cases:
        with pytest.raises(ValueError, match=message):
            field_values(tables, field, np.asarray(opponents))
    with pytest.raises(ValueError, match="hold a card twice"):
        field_potential2(np.array([[0, 1]]), np.array([[1, 3, 4]]), ones)
    with pytest.raises(ValueError, match=r"StreetTables\.versus must be int8"):
        StreetTables(
            hs1=tables.hs1,
            ppotc=tables.ppotc,
            versus=tables.versus.astype(int),
            after=tables.after,
        )


def test_kernels_call_only_kernels_of_their_own_module() -> None:
    """numba's disk cache of a kernel sees only its own module's source (agents.jit)."""
    import agents.strength.field_kernels
    import agents.strength.ppotc_kernels
    import agents.strength.street_kernels
    import agents.strength.strength_all_kernels

    modules = [
        agents.strength.field_kernels,
        agents.strength.ppotc_kernels,
        agents.strength.strength_all_kernels,
        agents.strength.street_kernels,
    ]
    kernels = 0
    for module in modules:
        for value in vars(module).values():
            if not isinstance(value, numba.core.registry.CPUDispatcher):
                continue
            kernels += 1
            assert value.py_func.__module__ == module.__name__
            for name in value.py_func.__code__.co_names:
                callee = getattr(module, name, None)
                if isinstance(callee, numba.core.registry.CPUDispatcher):
                    assert callee.py_func.__module__ == module.__name__, (value, name)
    assert kernels >= 10


# ------------------------------------------------------------------ into memory, by row


def test_tables_written_into_memory_and_field_values_by_row_equal_fresh_ones() -> None:
    rng = np.random.default_rng(17)
    deals = random_rows(rng, 12)
    lengths = np.array([3, 4, 5] * 4)
    fresh = street_tables(deals[:, :2], deals[:, 2:], lengths)
    memory = street_tables(deals[:, :2], deals[:, 2:], np.full(12, 5))  # other values first
    at = rng.permutation(12)
    street_tables(deals[:, :2], deals[:, 2:], lengths, out=memory, at=at)
    for name in ("hs1", "ppotc", "versus", "after"):
        np.testing.assert_array_equal(getattr(memory, name)[at], getattr(fresh, name))
    field = rng.random((12, NUM_HOLDINGS))
    opponents = rng.integers(1, 4, 12)
    expected = field_values(fresh, field, opponents)
    by_row = field_values(memory, field, opponents, rows=at)
    for got, want in zip(by_row, expected, strict=True):
        np.testing.assert_array_equal(got, want)
    some = field_values(memory, field[:5], opponents[:5], rows=at[:5])
    np.testing.assert_array_equal(some[0], expected[0][:5])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"at": np.arange(2)}, "at= needs out="),
        ({"out": "memory"}, "out= needs at="),
        ({"out": "memory", "at": np.array([0, 0])}, "at repeats a row"),
        ({"out": "memory", "at": np.array([0, 9])}, r"at must lie in 0\.\.3"),
        ({"out": "memory", "at": np.array([0])}, r"at must be \(2,\) integers"),
    ],
)
def test_bad_targets_are_refused(kwargs: dict[str, object], message: str) -> None:
    deals = random_rows(np.random.default_rng(3), 4)
    memory = street_tables(deals[:, :2], deals[:, 2:], np.full(4, 3))
    if kwargs.get("out") == "memory":
        kwargs = {**kwargs, "out": memory}
    with pytest.raises(ValueError, match=message):
        street_tables(deals[:2, :2], deals[:2, 2:], np.full(2, 3), **kwargs)  # type: ignore[arg-type]


def test_bad_field_rows_are_refused() -> None:
    deals = random_rows(np.random.default_rng(4), 3)
    tables = street_tables(deals[:, :2], deals[:, 2:], np.full(3, 4))
    field = np.ones((2, NUM_HOLDINGS))
    with pytest.raises(ValueError, match=r"rows must lie in 0\.\.2"):
        field_values(tables, field, np.ones(2, dtype=np.int64), rows=np.array([0, 3]))
    with pytest.raises(ValueError, match="rows must be a 1-d integer array"):
        field_values(tables, field, np.ones(2, dtype=np.int64), rows=np.array([0.0, 1.0]))
