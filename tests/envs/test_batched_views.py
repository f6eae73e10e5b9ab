"""The batches the runners read from a ``HandBatch`` (``decisions_at``, ``hand_ends_at``) hold
what the seats' ``PlayerView``s hold, field by field, and ``logs()`` gives the same action log
without copying it."""

from __future__ import annotations

import numpy as np
import pytest

from envs.batched import HandBatch
from envs.batched.views import (
    DecisionBatch,
    HandEndBatch,
    decision_batch,
    decisions_at,
    hand_end_batch,
    hand_ends_at,
)
from envs.deals import deal_decks
from envs.rules import Rules

LOGS = ("log_street", "log_seat", "log_action", "log_amount")


def _assert_same(
    got: DecisionBatch | HandEndBatch, expected: DecisionBatch | HandEndBatch
) -> None:
    for name in type(expected)._fields:
        if name == "rules":
            assert got.rules == expected.rules
            continue
        a, b = np.asarray(getattr(got, name)), np.asarray(getattr(expected, name))
        if name == "board":  # cards past board_len are undefined
            for i, size in enumerate(np.asarray(expected.board_len).tolist()):
                assert a[i, :size].tolist() == b[i, :size].tolist(), (name, i)
        elif name in LOGS:  # entries past log_len are undefined
            for i, size in enumerate(np.asarray(expected.log_len).tolist()):
                assert a[i, :size].tolist() == b[i, :size].tolist(), (name, i)
        else:
            assert a.dtype == b.dtype, (name, a.dtype, b.dtype)
            assert np.array_equal(a, b), name
    logs = got.logs()
    for i, size in enumerate(np.asarray(expected.log_len).tolist()):
        assert int(logs.length[logs.rows[i]]) == size
        for name, array in zip(LOGS, logs[2:], strict=True):
            row = np.asarray(getattr(expected, name))[i, :size].tolist()
            assert array[logs.rows[i], :size].tolist() == row, (name, i)


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_batches_read_from_the_engine_hold_what_the_views_hold(seats: int) -> None:
    rules = Rules(num_seats=seats, stacks=(60,) * seats)  # short: all-ins, side pots
    tables = 40
    batch = HandBatch(rules, tables)
    rng = np.random.default_rng(seats)
    deals = np.arange(tables)
    batch.start(deals, deal_decks(7, deals, cards=2 * seats + 5), deals % seats, deals)
    checked = ends = 0
    for _ in range(60):
        acting = np.flatnonzero(batch.actor >= 0)
        if not acting.size:
            break
        rows = acting[rng.random(acting.size) < 0.7]  # a subset, as one agent's seat sees it
        if rows.size:
            views = [batch.view(int(t), int(batch.actor[t])) for t in rows]
            _assert_same(decisions_at(batch, rows), decision_batch(views, rows))
            checked += rows.size
        legal = batch.legal_mask()
        choice = rng.random((tables, 3)) * legal
        batch.step(choice.argmax(axis=1))
        done = np.flatnonzero(batch.finished)
        for seat in range(seats):
            seat_of = np.full(done.size, seat)
            views = [batch.view(int(t), seat) for t in done]
            if views:
                _assert_same(hand_ends_at(batch, done, seat_of), hand_end_batch(views, done))
                ends += done.size
    assert checked > 100 and ends > 0


def test_a_taken_batch_holds_the_rows_it_took_and_shares_their_logs() -> None:
    rules = Rules(num_seats=3)
    batch = HandBatch(rules, 12)
    deals = np.arange(12)
    batch.start(deals, deal_decks(3, deals, cards=11), deals % 3, deals)
    rng = np.random.default_rng(0)
    for _ in range(4):  # some history in the logs
        batch.step((rng.random((12, 3)) * batch.legal_mask()).argmax(axis=1))
    rows = np.flatnonzero(batch.actor >= 0)
    assert rows.size >= 4
    lazy = decisions_at(batch, rows)
    eager = decision_batch([batch.view(int(t), int(batch.actor[t])) for t in rows], rows)
    pick = np.array([2, 0, 2, 1, 3, 3])  # repeated and out of order
    moved = 100 + np.arange(pick.size)  # as if the rows were other tables
    expected = decision_batch([batch.view(int(t), int(batch.actor[t])) for t in rows[pick]], moved)
    for source in (lazy, eager):
        taken = source.take(pick, tables=moved)
        _assert_same(taken, expected)
        assert taken.logs().length is source.logs().length  # shared, not copied
        again = taken.take([1])  # a batch taken from a taken batch
        assert int(again.tables[0]) == 101 and int(again.seat[0]) == int(source.seat[0])
    with pytest.raises(TypeError, match="has no fields"):
        lazy.take(pick, colour=1)
