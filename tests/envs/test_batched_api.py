"""The batched engine's contract: atomic errors with clear messages, restarts in place, tables
at different streets in one step, read-only state, decision indices, memory and doctests."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import envs.batched.decks
import envs.batched.engine
from envs.batched import HandBatch, max_decisions, random_decks
from envs.cards import parse_cards
from envs.game import Hand
from envs.rules import Action, Rules, Street

F, C, R = Action.FOLD, Action.CALL, Action.RAISE
DECK = parse_cards("AsAh KdKc QsQh JsJh 2c3d7h 9s Td")


def _snapshot(batch: HandBatch) -> dict[str, np.ndarray]:
    return {name: array.copy() for name, array in batch._state.arrays().items()}


def _assert_unchanged(batch: HandBatch, before: dict[str, np.ndarray]) -> None:
    for name, array in batch._state.arrays().items():
        assert np.array_equal(array, before[name]), f"{name} changed"


def _table_state(batch: HandBatch, table: int) -> dict[str, list[int]]:
    """Everything the batch holds about one table (the action log up to its length)."""
    state, tables = {}, batch.num_tables
    size = int(batch.log_len[table])
    for name, array in batch._state.arrays().items():
        if name == "finished":
            continue
        if array.shape[-1] == tables:  # per table, or seat-major per seat
            state[name] = np.asarray(array[..., table]).tolist()
        else:  # the deck and the log, one row per table
            state[name] = array[table, : size if name.startswith("log") else None].tolist()
    return state


def _batch(num_seats: int = 2, tables: int = 3) -> HandBatch:
    batch = HandBatch(Rules(num_seats=num_seats), tables)
    deck = DECK[: 2 * num_seats + 5]
    batch.start(np.arange(tables), [deck] * tables, 0, np.arange(tables))
    return batch


@pytest.mark.parametrize(
    ("prelude", "actions", "message"),
    [
        # table 1: after the small blind completes, the big blind may check: no fold
        ([[C, C, C]], [C, F, C], r"table 1: seat 1 may not fold \(FOLD\): checking is free"),
        (
            [[R, R, R]] * 1 + [[R, R, R]] * 1 + [[R, R, R]],
            [C, C, R],
            r"table 2: seat 1 may not raise \(RAISE\): the cap of 4 bets on the preflop",
        ),
        ([], [C, 3, C], r"table 1, seat 0: unknown action 3"),
        ([], [C, -1, C], r"table 1, seat 0: unknown action -1"),
    ],
)
def test_an_illegal_action_raises_before_any_table_moves(
    prelude: list[list[Action]], actions: list[int], message: str
) -> None:
    batch = _batch()
    for step in prelude:
        batch.step(np.array(step))
    before = _snapshot(batch)
    with pytest.raises(ValueError, match=message):
        batch.step(np.array(actions))
    _assert_unchanged(batch, before)


def test_a_short_all_in_raise_error_names_the_reason() -> None:
    rules = Rules(num_seats=3, stacks=(50, 5, 50))
    batch = HandBatch(rules, 1)
    batch.start([0], [parse_cards("AsAh KdKc QsQh 2c3d7h 9s Jd")], [0], [0])
    for action in (C, C, C, C, R, C, R):
        batch.step(np.array([action]))
    with pytest.raises(ValueError, match=r"table 0: seat 2 may not raise .*short all-in"):
        batch.step(np.array([R]))


def test_bad_action_arrays_are_refused() -> None:
    batch = _batch()
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        batch.step(np.array([C, C]))
    with pytest.raises(ValueError, match="must be integers"):
        batch.step(np.array([1.0, 1.0, 1.0]))


def test_tables_without_a_decision_ignore_their_entry_and_report_no_decision() -> None:
    batch = _batch()
    batch.step(np.array([F, C, C]))  # table 0's hand ends
    assert batch.finished.tolist() == [True, False, False]
    assert batch.legal_mask()[0].tolist() == [False, False, False]
    assert batch.to_call()[0] == 0
    batch.step(np.array([9, C, C]))  # anything goes where nobody is to act
    assert batch.finished.tolist() == [False, False, False]
    assert batch.over.tolist() == [True, False, False]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rows": [0, 0]}, "table 0 appears twice"),
        ({"rows": [3]}, "table 3 does not exist"),
        ({"rows": [[0]]}, "1-D array"),
        ({"decks": [DECK[:8]]}, r"decks must have shape \(1, at least 9\)"),
        ({"decks": [(*DECK[:8], DECK[0])]}, "table 1: card As appears twice"),
        ({"decks": [(*DECK[:8], 52)]}, "table 1: card ids are 0..51"),
        ({"buttons": [2]}, "table 1: button must be a seat 0..1"),
        ({"stacks": [[5, 0]]}, r"table 1: stacks must be positive, got \[5, 0\]"),
        ({"stacks": [[2**31 - 2, 5]]}, "table 1: at most 2,147,483,647 chips"),
        ({"stacks": [[5, 5, 5]]}, "stacks must have shape"),
        ({"hand_ids": [1.5]}, "hand_ids must be integers"),
    ],
)
def test_bad_start_arguments_raise_before_any_table_changes(
    change: dict[str, object], message: str
) -> None:
    batch = HandBatch(Rules(), 3)
    batch.start([0], [DECK[:9]], [0], [0])
    before = _snapshot(batch)
    args: dict[str, object] = {
        "rows": [1],
        "decks": [DECK[:9]],
        "buttons": [0],
        "hand_ids": [1],
        "stacks": None,
    }
    args.update(change)
    with pytest.raises(ValueError, match=message):
        batch.start(**args)  # type: ignore[arg-type]
    _assert_unchanged(batch, before)


def test_starting_no_table_changes_nothing_but_the_finished_flags() -> None:
    batch = _batch()
    batch.step(np.array([F, C, C]))
    before = _snapshot(batch)
    batch.start([], [], [], [])
    after = _snapshot(batch)
    assert before.pop("finished").tolist() == [True, False, False]
    assert not after.pop("finished").any()
    assert all(np.array_equal(after[name], before[name]) for name in before)


def test_a_table_with_a_hand_in_progress_cannot_be_restarted() -> None:
    batch = _batch()
    with pytest.raises(ValueError, match="table 1 has a hand in progress"):
        batch.start([1], [DECK[:9]], [0], [5])


def test_finished_tables_restart_in_place_like_a_fresh_batch() -> None:
    rng = np.random.default_rng(3)
    rules = Rules(num_seats=3)
    batch = HandBatch(rules, 2)
    decks = random_decks(rng, 2, 11)
    batch.start([0, 1], decks, [0, 1], [0, 1], [[7, 30, 3], [40, 40, 40]])
    while not batch.over.all():
        legal = batch.legal_mask()
        batch.step(legal.argmax(axis=1) + legal[:, 2])  # raise when allowed, else call
    new_deck = random_decks(rng, 1, 11)
    batch.start([1], new_deck, [2], [9], [[11, 12, 13]])
    fresh = HandBatch(rules, 1)
    fresh.start([0], new_deck, [2], [9], [[11, 12, 13]])
    assert batch.view(1, 0) == fresh.view(0, 0)
    assert batch.events(1) == fresh.events(0)
    assert batch.decisions[1].tolist() == [0, 0, 0] and batch.log_len[1] == 0
    assert batch.over.tolist() == [True, False]


def test_tables_at_different_streets_move_together_in_one_step() -> None:
    rules = Rules(num_seats=3)
    deck = DECK[:11]
    batch = HandBatch(rules, 4)
    batch.start(np.arange(4), [deck] * 4, 0, np.arange(4))
    hands = [Hand(rules, deck, button=0, hand_id=i) for i in range(4)]
    # Columns are tables; 9 where a table has nobody to act.
    prelude = [[C, C, F, F], [R, C, C, F], [R, C, C, 9], [R, C, C, 9], [C, C, C, 9]]
    moves = [[C, R, C, 9], [C, C, R, 9], [C, C, C, 9], [R, C, C, 9]]
    for step, actions in enumerate(prelude + moves):
        if step == len(prelude):  # pre-flop, flop, turn and over, side by side
            assert batch.street.tolist() == [0, 1, 2, 0]
            assert batch.over.tolist() == [False, False, False, True]
        batch.step(np.array(actions))
        for hand, action in zip(hands, actions, strict=True):
            if not hand.is_over:
                hand.act(Action(action))
        for table, hand in enumerate(hands):
            assert batch.to_acpc(table) == hand.to_acpc()
            assert batch.actor[table] == (-1 if hand.actor is None else hand.actor)
            for seat in range(3):
                assert batch.view(table, seat) == hand.view(seat)
    assert batch.street.tolist() == [Street.FLOP, Street.TURN, Street.RIVER, Street.PREFLOP]


def test_tables_outside_where_keep_their_decision_and_the_rest_play_the_scalar_game() -> None:
    rng = np.random.default_rng(11)
    rules = Rules(num_seats=3)
    batch = HandBatch(rules, 8)
    hands: list[Hand] = []
    played = 0

    def deal(rows: np.ndarray) -> None:
        decks = random_decks(rng, len(rows), 11)
        stacks = rng.integers(1, 30, size=(len(rows), 3))
        batch.start(rows, decks, rows % 3, rows, stacks)
        for i, table in enumerate(rows.tolist()):
            hand = Hand(rules, decks[i], button=table % 3, hand_id=table, stacks=stacks[i])
            if table < len(hands):
                hands[table] = hand
            else:
                hands.append(hand)

    deal(np.arange(8))
    while played < 1500:
        legal = batch.legal_mask()
        actions = (rng.random(8) * legal.sum(axis=1)).astype(int)
        actions = np.take_along_axis(
            np.argsort(~legal, axis=1, kind="stable"), actions[:, None], 1
        )
        where = rng.random(8) < 0.5
        waiting = np.flatnonzero(~where & (batch.actor >= 0)).tolist()
        before = [_table_state(batch, table) for table in waiting]
        batch.step(actions[:, 0], where=where)
        assert [_table_state(batch, table) for table in waiting] == before
        for table, hand in enumerate(hands):
            if where[table] and not hand.is_over:
                hand.act(Action(int(actions[table, 0])))
            assert batch.actor[table] == (-1 if hand.actor is None else hand.actor)
            if hand.is_over:
                assert batch.to_acpc(table) == hand.to_acpc()
        over = np.flatnonzero(batch.over)
        played += len(over)
        deal(over)
    with pytest.raises(ValueError, match="where must be a boolean mask of shape"):
        batch.step(np.ones(8, dtype=int), where=np.ones(8, dtype=int))


def test_state_arrays_are_read_only_views_of_the_current_state() -> None:
    batch = _batch()
    with pytest.raises(ValueError, match="read-only"):
        batch.stacks[0, 0] = 5
    with pytest.raises(ValueError, match="read-only"):
        batch.legal_mask()[0, 0] = False
    stacks = batch.stacks
    batch.step(np.array([R, R, R]))
    assert stacks[0].tolist() == [Rules().max_commitment - 4, Rules().max_commitment - 2]
    assert batch.stacks.shape == (3, 2) and batch.payoffs.shape == (3, 2)


def test_decision_index_counts_each_seats_decisions_in_the_hand() -> None:
    batch = _batch()
    indices = []
    while not batch.over[0]:
        indices.append((int(batch.actor[0]), int(batch.decision_index()[0])))
        batch.step(np.array([C, C, C]))
    # Heads-up check-down: the button acts first pre-flop and last after the flop.
    assert indices == [(0, 0), (1, 0), (1, 1), (0, 1), (1, 2), (0, 2), (1, 3), (0, 3)]
    assert batch.decision_index()[0] == 0


def test_view_and_history_arguments_are_checked() -> None:
    batch = HandBatch(Rules(), 2)
    with pytest.raises(ValueError, match="table 1 has not been dealt"):
        batch.events(1)
    with pytest.raises(ValueError, match=r"table must be 0\.\.1"):
        batch.to_acpc(2)
    batch.start([0], [DECK[:9]], [0], [0])
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        batch.view(0, 2)
    with pytest.raises(ValueError, match="need 2 player names"):
        batch.to_acpc(0, ["a"])
    with pytest.raises(ValueError, match="num_tables"):
        HandBatch(Rules(), 0)
    with pytest.raises(ValueError, match="starting stacks exceed"):
        HandBatch(Rules(stacks=(2**31 - 1, 1)), 1)


def test_ten_thousand_heads_up_tables_fit_easily_in_200_mb() -> None:
    batch = HandBatch(Rules(), 10_000)
    assert batch.nbytes == 10_000 * batch.bytes_per_table
    assert batch.nbytes < 20 * 2**20  # a tenth of the budget, temporaries of a step aside
    assert max_decisions(Rules()) == 23  # 5 pre-flop + 6 per later round heads-up


def test_random_decks_deal_distinct_cards_uniformly() -> None:
    decks = random_decks(np.random.default_rng(1), count=60_000, cards=9)
    assert decks.dtype == np.uint8 and decks.shape == (60_000, 9)
    ordered = np.sort(decks, axis=1)
    assert (ordered[:, 1:] > ordered[:, :-1]).all()
    for position in (0, 8):
        counts = np.bincount(decks[:, position], minlength=52)
        chi2 = float(((counts - 60_000 / 52) ** 2 / (60_000 / 52)).sum())
        assert chi2 < 90.0  # 99.9% quantile of chi-square with 51 degrees of freedom: 87.0
    with pytest.raises(ValueError, match="cannot deal 53"):
        random_decks(np.random.default_rng(1), 1, 53)


@pytest.mark.parametrize("module", [envs.batched.engine, envs.batched.decks])
def test_docstring_examples_run(module: object) -> None:
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert tried and not failures


def test_save_and_restore_put_tables_back_and_leave_the_others_moved() -> None:
    batch = _batch(num_seats=3, tables=4)
    batch.step(np.array([R, C, R, C]))
    saved = batch.save([1, 3])
    before = {t: _table_state(batch, t) for t in range(4)}
    batch.step(np.array([R, R, C, F]))
    batch.step(np.array([C, C, C, C]))
    moved = {t: _table_state(batch, t) for t in (0, 2)}
    batch.restore(saved)
    for table in (1, 3):
        assert _table_state(batch, table) == before[table]
    for table in (0, 2):
        assert _table_state(batch, table) == moved[table]
    batch.step(np.array([C, R, C, C]))  # the restored tables play on from where they were
    assert batch.log_len[1] == before[1]["log_len"] + 1


def test_an_abandoned_hand_is_dealt_again_as_on_a_fresh_table() -> None:
    batch = _batch(tables=2)
    batch.step(np.array([R, R]))
    batch.abandon([0])
    assert batch.over.tolist() == [True, False] and batch.actor[0] == -1
    assert batch.payoffs[0].tolist() == [0, 0]
    deck = parse_cards("2s2h 7d8c AsKsQs Js Ts")
    fresh = HandBatch(Rules(), 1)
    for engine, table in ((batch, 0), (fresh, 0)):
        engine.start([table], [deck], 1, 9)
        for action in (C, R, C, C, C):
            actions = np.full(engine.num_tables, C)
            actions[table] = action
            engine.step(actions, where=np.arange(engine.num_tables) == table)
    assert _table_state(batch, 0) == _table_state(fresh, 0)


@pytest.mark.parametrize("rows", [[5], [0, 0], [[0]]])
def test_save_and_abandon_refuse_malformed_rows(rows: list[int]) -> None:
    batch = _batch(tables=3)
    before = _snapshot(batch)
    for method in (batch.save, batch.abandon):
        with pytest.raises(ValueError, match=r"table|rows"):
            method(rows)
    _assert_unchanged(batch, before)
