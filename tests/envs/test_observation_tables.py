"""``encode_batch`` of a ``HandBatch``'s tables (``seat_batch`` for any seat, ``decisions_at``
for the seats to act) equals ``ObservationEncoder`` on each table's ``PlayerView``, at every
decision and at the end of every hand."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from envs.batched import HandBatch
from envs.batched.views import decisions_at
from envs.observation import (
    ObservationEncoder,
    encode_batch,
    observation_space,
    seat_batch,
    shown_cards,
)
from envs.rules import Rules


def encode_tables(
    batch: HandBatch, seat: int = 0, rows: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """What the vector env encodes: ``seat`` at the tables ``rows`` (default: all)."""
    return encode_batch(seat_batch(batch, seat, rows), shown_cards(batch, rows))


def assert_rows_equal(batched: dict[str, np.ndarray], single: dict[str, object], row: int) -> None:
    for key, value in single.items():
        expected = np.asarray(value)
        got = batched[key][row]
        assert got.shape == expected.shape and got.dtype == expected.dtype, key
        if not np.array_equal(got, expected):  # (the quick check first: thousands of rows)
            np.testing.assert_array_equal(got, expected, err_msg=f"{key} at row {row}")


@pytest.mark.parametrize(
    ("num_seats", "stacks"),
    [(2, None), (2, (9, 30)), (3, (12, 40, 25)), (6, None), (10, tuple(range(8, 48, 4)))],
    ids=["heads-up", "heads-up short", "3 seats short", "6 seats", "10 seats short"],
)
def test_encoding_tables_equals_the_encoder_table_by_table(
    num_seats: int, stacks: tuple[int, ...] | None
) -> None:
    rules = Rules(num_seats=num_seats, stacks=stacks)
    tables = 12
    batch = HandBatch(rules, tables)
    space = observation_space(rules)
    rng = np.random.default_rng(num_seats)
    hand = np.zeros(tables, dtype=np.int64)
    seats = [0, num_seats - 1]
    checked = {"decisions": 0, "ends": 0, "showdowns": 0}
    for _ in range(150):
        idle = np.flatnonzero(batch.over)
        if idle.size:
            decks = np.array([rng.permutation(52) for _ in idle])
            batch.start(idle, decks, hand[idle] % num_seats, hand[idle])
            hand[idle] += 1
        for seat in seats:
            batched = encode_tables(batch, seat=seat)
            rows = rng.choice(tables, size=4, replace=False)
            subset = encode_tables(batch, seat=seat, rows=rows)
            for t in range(tables):
                single = ObservationEncoder(rules).encode(batch.view(t, seat))
                assert space.contains(single)
                assert_rows_equal(batched, single, t)
            for i, t in enumerate(rows):
                assert_rows_equal(subset, ObservationEncoder(rules).encode(batch.view(t, seat)), i)
        acting = np.flatnonzero(batch.actor >= 0)
        decisions = encode_batch(decisions_at(batch, acting))
        for i, t in enumerate(acting):
            view = batch.view(t, int(batch.actor[t]))
            assert_rows_equal(decisions, ObservationEncoder(rules).encode(view), i)
        checked["decisions"] += len(acting)
        # Random legal actions, folds rare so that many hands reach the showdown.
        weights = batch.legal_mask() * np.array([0.15, 1.0, 1.0])
        actions = (rng.random((tables, 3)) * weights).argmax(axis=1)
        batch.step(actions)
        ended = np.flatnonzero(batch.finished)
        checked["ends"] += len(ended)
        checked["showdowns"] += int((batch.showed[ended].sum(axis=1) > 1).sum())
        for seat in seats:  # terminal views, before the next hands overwrite them
            batched = encode_tables(batch, seat=seat, rows=ended)
            for i, t in enumerate(ended):
                single = ObservationEncoder(rules).encode(batch.view(t, seat))
                assert_rows_equal(batched, single, i)
    assert min(checked.values()) > 30, checked


@pytest.mark.parametrize("num_seats", [2, 5])
def test_encoding_tables_equals_gymnasiums_concatenation(num_seats: int) -> None:
    """Same keys, dtypes and values as Gymnasium's batching of the single observations."""
    rules = Rules(num_seats=num_seats)
    space = observation_space(rules)
    batch = HandBatch(rules, 4)
    rng = np.random.default_rng(num_seats)
    batch.start(np.arange(4), [rng.permutation(52) for _ in range(4)], [0, 1, 0, 1], 0)
    for _ in range(12):
        singles = [ObservationEncoder(rules).encode(batch.view(t, 0)) for t in range(4)]
        expected = concatenate(space, singles, create_empty_array(space, 4))
        got = encode_tables(batch)
        assert got.keys() == expected.keys()
        for key in expected:
            assert got[key].dtype == expected[key].dtype, key
            np.testing.assert_array_equal(got[key], expected[key], err_msg=key)
        assert batch_space(space, 4).contains(got)
        if batch.over.all():
            break
        batch.step((rng.random((4, 3)) * batch.legal_mask()).argmax(axis=1))
