"""Hand evaluator: exhaustive 5-card counts, equality with treys, fast paths, checks, cache."""

from __future__ import annotations

import hashlib
import itertools
import logging
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from treys import Card, Evaluator

import envs.evaluator as ev
from envs import _evaluator_tables as tables_module
from envs.cards import format_card, parse_cards
from envs.evaluator import (
    CARD_KEYS,
    FLUSH_KEYS,
    KEY_INIT,
    NUM_RANKS,
    HandCategory,
    category,
    category_of,
    evaluate,
    evaluate_one,
    rank_from_keys,
)

# sha256 of the ranks of all 2,598,960 five-card hands, as little-endian uint16, with the hands
# in itertools.combinations(range(52), 5) order; computed once with
#   hashlib.sha256(evaluate(all_five).astype("<u2").tobytes()).hexdigest()
# test_all_five_card_hands_match_treys proves that these ranks are treys' ranks reversed.
GOLDEN_FIVE_CARD_SHA256 = "f726a3c1a70fe2965ba5d4a1fd254dc0de9de79c9beea030ffc21e09972370c1"

TREYS_CARDS = [Card.new(format_card(c)) for c in range(52)]
TREYS_CARD_ARRAY = np.array(TREYS_CARDS, dtype=np.int64)
ORACLE = Evaluator()


def random_hands(rng: np.random.Generator, n: int, size: int, deck: int = 52) -> np.ndarray:
    """``n`` hands of ``size`` distinct card ids drawn uniformly from ``0..deck-1`` (uint8)."""
    hands = rng.integers(0, deck, size=(n, size), dtype=np.uint8)
    while True:
        ordered = np.sort(hands, axis=1)
        bad = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not bad.size:
            return hands
        hands[bad] = rng.integers(0, deck, size=(bad.size, size), dtype=np.uint8)


def treys_ranks(hands: np.ndarray) -> npt.NDArray[np.int64]:
    """treys' ranks of our hands, converted to our scale (higher is stronger)."""
    evaluate_n = ORACLE.hand_size_map[hands.shape[1]]
    rows = TREYS_CARD_ARRAY[hands].tolist()
    return NUM_RANKS + 1 - np.array([evaluate_n(row) for row in rows], dtype=np.int64)


@pytest.fixture(scope="module")
def all_five() -> np.ndarray:
    flat = itertools.chain.from_iterable(itertools.combinations(range(52), 5))
    return np.fromiter(flat, dtype=np.uint8).reshape(-1, 5)


@pytest.fixture(scope="module")
def all_five_ranks(all_five: np.ndarray) -> npt.NDArray[np.int32]:
    return evaluate(all_five)


# --- exhaustive reference counts ------------------------------------------------------------


def test_category_counts_over_all_five_card_hands(all_five_ranks: np.ndarray) -> None:
    counts = np.bincount(category(all_five_ranks), minlength=9)
    expected = {
        HandCategory.STRAIGHT_FLUSH: 40,
        HandCategory.FOUR_OF_A_KIND: 624,
        HandCategory.FULL_HOUSE: 3_744,
        HandCategory.FLUSH: 5_108,
        HandCategory.STRAIGHT: 10_200,
        HandCategory.THREE_OF_A_KIND: 54_912,
        HandCategory.TWO_PAIR: 123_552,
        HandCategory.PAIR: 1_098_240,
        HandCategory.HIGH_CARD: 1_302_540,
    }
    assert {HandCategory(i): int(n) for i, n in enumerate(counts)} == expected
    assert counts.sum() == 2_598_960


def test_exactly_7462_distinct_ranks(all_five_ranks: np.ndarray) -> None:
    distinct = np.unique(all_five_ranks)
    assert distinct.size == NUM_RANKS == 7462
    assert distinct[0] == 1 and distinct[-1] == NUM_RANKS


def test_golden_digest_of_all_five_card_ranks(all_five_ranks: np.ndarray) -> None:
    digest = hashlib.sha256(all_five_ranks.astype("<u2").tobytes()).hexdigest()
    assert digest == GOLDEN_FIVE_CARD_SHA256


# --- equality with treys --------------------------------------------------------------------


def test_all_five_card_hands_match_treys(all_five_ranks: np.ndarray) -> None:
    # Same lexicographic order as all_five, without converting 13 million ids one by one.
    five = ORACLE.hand_size_map[5]
    theirs = np.fromiter(
        (five(hand) for hand in itertools.combinations(TREYS_CARDS, 5)),
        dtype=np.int64,
        count=all_five_ranks.size,
    )
    np.testing.assert_array_equal(all_five_ranks, NUM_RANKS + 1 - theirs)


@pytest.mark.parametrize(("size", "n"), [(7, 100_000), (6, 100_000)])
def test_random_hands_match_treys(size: int, n: int) -> None:
    hands = random_hands(np.random.default_rng(1000 + size), n, size)
    np.testing.assert_array_equal(evaluate(hands), treys_ranks(hands))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_flush_heavy_hands_match_treys(size: int) -> None:
    # Cards from two suits only (clubs and diamonds): flushes and straight flushes are common,
    # and the rest of the hand can still pair or make a straight. (With at most 7 cards a hand
    # cannot hold both a flush and quads or a full house.)
    rng = np.random.default_rng(2000 + size)
    hands = random_hands(rng, 20_000, size, deck=26)
    hands = 4 * (hands >> 1) + (hands & 1)
    ranks = evaluate(hands)
    counts = np.bincount(category(ranks), minlength=9)
    assert counts[HandCategory.FLUSH] > 500 and counts[HandCategory.STRAIGHT_FLUSH] > 5
    np.testing.assert_array_equal(ranks, treys_ranks(hands))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AsKsQsJsTs", NUM_RANKS),
        ("7c5d4h3s2c", 1),
        ("5h4h3h2hAh9c9d", 7453),  # steel wheel: the weakest straight flush
        ("AcAdAhAsKc", 7452),
        ("5c4d3h2sAc", 5854),  # the wheel is the weakest straight
        ("AhKhQhJh9h", 7140),
    ],
)
def test_known_hands(text: str, expected: int) -> None:
    cards = parse_cards(text)
    assert evaluate_one(cards) == expected == int(evaluate(cards))


# --- fast paths -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 6, 7])
def test_evaluate_one_equals_evaluate(size: int) -> None:
    hands = random_hands(np.random.default_rng(3000 + size), 20_000, size)
    ones = [evaluate_one(hand) for hand in hands.tolist()]
    np.testing.assert_array_equal(np.array(ones), evaluate(hands))
    assert all(type(r) is int for r in ones[:10])


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64])
def test_any_integer_dtype_and_layout(dtype: type[np.integer]) -> None:
    hands = random_hands(np.random.default_rng(4), 40_000, 7)
    expected = evaluate(hands)
    np.testing.assert_array_equal(evaluate(hands.astype(dtype)), expected)
    fortran = np.asfortranarray(hands.astype(dtype))
    np.testing.assert_array_equal(evaluate(fortran), expected)
    np.testing.assert_array_equal(evaluate(hands.astype(dtype)[::-1])[::-1], expected)


def test_one_hand_gives_a_0d_array() -> None:
    result = evaluate([51, 47, 43, 39, 35])
    assert result.shape == () and result.dtype == np.int32 and int(result) == NUM_RANKS
    assert evaluate(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_rank_from_keys_equals_evaluate(size: int) -> None:
    hands = random_hands(np.random.default_rng(5000 + size), 20_000, size)
    sums = KEY_INIT + CARD_KEYS[hands].sum(axis=1)
    masks = np.bitwise_or.reduce(FLUSH_KEYS[hands], axis=1)
    assert sums.dtype == masks.dtype == np.uint64
    np.testing.assert_array_equal(rank_from_keys(sums, masks), evaluate(hands))
    # Partial sums add up: a cached board sum plus hole-card keys gives the same ranks.
    board = KEY_INIT + CARD_KEYS[hands[:, 2:]].sum(axis=1)
    holes = CARD_KEYS[hands[:, 0]] + CARD_KEYS[hands[:, 1]]
    np.testing.assert_array_equal(rank_from_keys(board + holes, masks), evaluate(hands))
    grid = rank_from_keys(sums.reshape(100, -1), masks.reshape(100, -1))
    assert grid.shape == (100, hands.shape[0] // 100)


def test_rank_from_keys_needs_flush_masks_only_for_flushes() -> None:
    no_flush = np.array(parse_cards("AsKsQs2d3d4h5c"))
    flush = np.array(parse_cards("AsKsQs2s3s4h5c"))
    assert rank_from_keys(KEY_INIT + CARD_KEYS[no_flush].sum()) == evaluate(no_flush)
    with pytest.raises(ValueError, match="flush_masks"):
        rank_from_keys(KEY_INIT + CARD_KEYS[flush].sum())
    with pytest.raises(ValueError, match=r"5\.\.7"):
        rank_from_keys(KEY_INIT + CARD_KEYS[no_flush[:4]].sum())
    with pytest.raises(ValueError, match="integers"):
        rank_from_keys(np.array([1.5]))


# --- categories -----------------------------------------------------------------------------


def test_category_vectorised_equals_scalar() -> None:
    ranks = np.arange(1, NUM_RANKS + 1)
    categories = category(ranks)
    assert categories.dtype == np.int8
    assert [category_of(int(r)) for r in ranks] == [HandCategory(c) for c in categories]
    assert np.all(np.diff(categories) >= 0)
    assert category_of(1) is HandCategory.HIGH_CARD
    assert category_of(NUM_RANKS) is HandCategory.STRAIGHT_FLUSH


@pytest.mark.parametrize("rank", [0, NUM_RANKS + 1, -3])
def test_category_rejects_invalid_ranks(rank: int) -> None:
    with pytest.raises(ValueError):
        category_of(rank)
    with pytest.raises(ValueError):
        category(np.array([5, rank]))


# --- input validation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "match"),
    [
        (np.zeros((3, 4), dtype=np.uint8), "shape"),
        (np.zeros((3, 8), dtype=np.uint8), "shape"),
        (np.zeros((2, 3, 7), dtype=np.uint8), "shape"),
        (np.zeros(4, dtype=np.uint8), "shape"),
        (np.array(7), "shape"),
        (np.array([[0, 1, 2, 3, 52]]), "card ids must be in"),
        (np.array([[0, 1, 2, 3, -1]]), "card ids must be in"),
        (np.array([[0, 1, 2, 3, 300]], dtype=np.int16), "card ids must be in"),
        (np.zeros((2, 5)), "integers"),
        (np.array([["As", "Kd", "Qh", "Jc", "Ts"]]), "integers"),
    ],
)
def test_evaluate_rejects_bad_input(cards: np.ndarray, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        evaluate(cards)


def test_bad_card_in_a_late_chunk_is_caught() -> None:
    hands = random_hands(np.random.default_rng(6), 3 * ev.CHUNK_ROWS, 7).astype(np.int64)
    hands[-1, 3] = 52
    with pytest.raises(ValueError, match=r"0\.\.51"):
        evaluate(hands)


# --- table build and cache ------------------------------------------------------------------


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("HOLDEM_LAB_CACHE", str(directory))
    return directory


@pytest.fixture(scope="module")
def reference() -> tables_module.Tables:
    """The tables in use, loaded before any test points the cache elsewhere."""
    return ev._load()


@pytest.fixture
def counted_builds(
    monkeypatch: pytest.MonkeyPatch, reference: tables_module.Tables
) -> Iterator[list[int]]:
    """Replace the (one second) build by a copy of the loaded tables, counting the calls."""
    calls: list[int] = []

    def build() -> tables_module.Tables:
        calls.append(1)
        return tables_module.Tables(*(a.copy() for a in reference))

    monkeypatch.setattr(tables_module, "build_tables", build)
    yield calls


def assert_same(a: tables_module.Tables, b: tables_module.Tables) -> None:
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype
        np.testing.assert_array_equal(x, y)


def test_fresh_build_writes_and_reloads_the_cache(
    cache_dir: Path, reference: tables_module.Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tables_module.cache_file()
    assert path is not None and path.parent == cache_dir and not path.exists()
    assert_same(tables_module.load_or_build(), reference)
    assert path.exists()
    assert f"v{tables_module.FORMAT_VERSION}" in path.name
    assert [p.name for p in cache_dir.iterdir()] == [path.name]  # no temporary file left

    def no_build() -> tables_module.Tables:
        raise AssertionError("the cache should have been used")

    monkeypatch.setattr(tables_module, "build_tables", no_build)
    assert_same(tables_module.load_or_build(), reference)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong table", "wrong dtype"])
def test_corrupt_cache_is_rebuilt(
    cache_dir: Path,
    counted_builds: list[int],
    reference: tables_module.Tables,
    damage: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tables_module.load_or_build()
    path = tables_module.cache_file()
    assert path is not None and counted_builds == [1]
    if damage == "garbage":
        path.write_bytes(b"not a table" * 100)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100_000])
    else:
        with np.load(path) as data:
            arrays = dict(data)
        if damage == "wrong table":
            arrays["look"][1000] ^= 1
        else:
            arrays["flush"] = arrays["flush"].astype(np.int32)
        np.savez(path, **arrays)
    with caplog.at_level(logging.WARNING, logger=tables_module.__name__):
        assert_same(tables_module.load_or_build(), reference)
    assert counted_builds == [1, 1]
    assert "rebuilding" in caplog.text
    loaded = tables_module._load(path)
    assert loaded is not None
    assert_same(loaded, reference)


def test_unwritable_cache_keeps_tables_in_memory(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    counted_builds: list[int],
    reference: tables_module.Tables,
    caplog: pytest.LogCaptureFixture,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("HOLDEM_LAB_CACHE", str(blocker / "cache"))
    with caplog.at_level(logging.WARNING, logger=tables_module.__name__):
        assert_same(tables_module.load_or_build(), reference)
    assert "keeping them in memory" in caplog.text
    assert list(tmp_path.iterdir()) == [blocker]


def package_files() -> set[Path]:
    package = Path(tables_module.__file__).parent
    return {p for p in package.rglob("*") if "__pycache__" not in p.parts}


def test_tables_are_never_written_in_the_package(
    monkeypatch: pytest.MonkeyPatch,
    counted_builds: list[int],
    caplog: pytest.LogCaptureFixture,
) -> None:
    before = package_files()
    package = Path(tables_module.__file__).parent
    monkeypatch.setenv("HOLDEM_LAB_CACHE", str(package))
    with caplog.at_level(logging.WARNING, logger=tables_module.__name__):
        tables_module.load_or_build()
    assert "inside the package" in caplog.text
    assert package_files() == before


def test_cache_directory_fallbacks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOLDEM_LAB_CACHE", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tables_module.cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("HOLDEM_LAB_CACHE")
    assert tables_module.cache_dir() == tmp_path / "xdg" / "holdem-lab"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tables_module.cache_dir() == tmp_path / "home" / ".cache" / "holdem-lab"


def test_card_keys_layout() -> None:
    assert CARD_KEYS.dtype == FLUSH_KEYS.dtype == np.uint64 and CARD_KEYS.shape == (52,)
    ace_of_spades = 51
    assert int(CARD_KEYS[ace_of_spades]) == 1479181 + (1 << 23) + (1 << (32 + 12))
    assert int(FLUSH_KEYS[ace_of_spades]) == 1 << (16 * 3 + 12)
    assert KEY_INIT == 0x3333 << 32
