"""Refusals of the batched engine: ``TableError`` names every table at fault with its reason,
``can_step`` / ``step_refusals`` and ``can_start`` / ``start_refusals`` answer exactly as
``step`` and ``start`` decide, nothing moves when a call is refused, and ``legal_actions`` is
the legal mask read as actions."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from envs.batched import HandBatch, TableError, random_decks
from envs.cards import parse_cards
from envs.rules import Action, Rules

F, C, R = Action.FOLD, Action.CALL, Action.RAISE
DECK3 = parse_cards("AsAh KdKc QsQh 2c3d7h 9s Td")  # three seats: 6 hole cards + board


def _snapshot(batch: HandBatch) -> dict[str, np.ndarray]:
    return {name: array.copy() for name, array in batch._state.arrays().items()}


def _assert_unchanged(batch: HandBatch, before: dict[str, np.ndarray]) -> None:
    for name, array in batch._state.arrays().items():
        assert np.array_equal(array, before[name]), f"{name} changed"


def _random_actions(batch: HandBatch, rng: np.random.Generator, illegal: float) -> np.ndarray:
    """A legal action at every table, replaced at random by any of -1..3 (often illegal)."""
    legal = batch.legal_mask()
    tables = batch.num_tables
    pick = (rng.random(tables) * legal.sum(axis=1)).astype(int)
    actions = np.argsort(~legal, axis=1, kind="stable")[np.arange(tables), pick]
    wild = rng.random(tables) < illegal
    return np.where(wild, rng.integers(-1, 4, size=tables), actions)


# ------------------------------------------------------------------- start

# One row per case, started together with good rows; each bad row gets its first fault.
START_CASES = [
    ("hand in progress", 1, {}, "table 1 has a hand in progress: play it to its end first"),
    (
        "in progress beats a bad deck",
        2,
        {"deck": (*DECK3[:10], 60)},
        "table 2 has a hand in progress: play it to its end first",
    ),
    ("card id", 6, {"deck": (*DECK3[:10], 52)}, "table 6: card ids are 0..51, got 52"),
    ("negative card", 7, {"deck": (-1, *DECK3[1:11])}, "table 7: card ids are 0..51, got -1"),
    (
        "repeated card",
        8,
        {"deck": (*DECK3[:10], DECK3[3])},
        "table 8: card Kc appears twice",
    ),
    ("button", 9, {"button": 3}, "table 9: button must be a seat 0..2, got 3"),
    (
        "card id beats the button",
        10,
        {"deck": (*DECK3[:10], 99), "button": -1},
        "table 10: card ids are 0..51, got 99",
    ),
    ("empty stack", 11, {"stacks": (5, 0, 5)}, "table 11: stacks must be positive, got [5, 0, 5]"),
    (
        "chip total",
        12,
        {"stacks": (2**30, 2**30, 2**30)},
        "table 12: at most 2,147,483,647 chips per table, got 3,221,225,472",
    ),
]
GOOD_ROWS = (5, 13, 4)  # never dealt, never dealt, finished


def _start_batch() -> HandBatch:
    batch = HandBatch(Rules(num_seats=3), 14)
    batch.start([1, 2, 3, 4], [DECK3] * 4, 0, [1, 2, 3, 4])
    table_4 = np.arange(14) == 4
    batch.step(np.full(14, F), where=table_4)  # the button folds, then the small blind:
    batch.step(np.full(14, F), where=table_4)  # the hand at table 4 is over
    assert batch.over[4] and not batch.over[1:4].any()
    return batch


def _start_arguments(cases: list[tuple[str, int, dict[str, object], str]]) -> dict[str, object]:
    rows, decks, buttons, stacks = [], [], [], []
    for position, (_, table, change, _) in enumerate(cases):
        rows.append(table)
        decks.append(change.get("deck", DECK3))
        buttons.append(change.get("button", position % 3))
        stacks.append(change.get("stacks", (20, 30, 40)))
    for table in GOOD_ROWS:
        rows.insert(len(rows) // 2, table)
        decks.insert(len(decks) // 2, DECK3)
        buttons.insert(len(buttons) // 2, 1)
        stacks.insert(len(stacks) // 2, (7, 8, 9))
    return {"rows": rows, "decks": decks, "buttons": buttons, "hand_ids": 0, "stacks": stacks}


@pytest.mark.parametrize("count", [1, 2, len(START_CASES)])
def test_start_names_every_bad_table_with_its_reason_and_changes_nothing(count: int) -> None:
    batch = _start_batch()
    cases = START_CASES[:count]
    args = _start_arguments(cases)
    before = _snapshot(batch)
    with pytest.raises(TableError) as refused:
        batch.start(**args)  # type: ignore[arg-type]
    _assert_unchanged(batch, before)
    error = refused.value
    assert error.tables.tolist() == [table for _, table, _, _ in cases]
    assert error.reasons == tuple(reason for _, _, _, reason in cases)
    if count == 1:
        assert str(error) == cases[0][3]
    else:
        assert str(error).startswith(f"{count} tables refused: {cases[0][3]}; {cases[1][3]}")
    good = np.isin(args["rows"], GOOD_ROWS)  # type: ignore[arg-type]
    assert batch.can_start(**args).tolist() == good.tolist()  # type: ignore[arg-type]
    refusals = batch.start_refusals(**args)  # type: ignore[arg-type]
    assert [r for r in refusals if r is not None] == list(error.reasons)
    assert [r is None for r in refusals] == good.tolist()
    _assert_unchanged(batch, before)
    # The rows it accepts start as a call of their own would start them.
    keep = np.flatnonzero(good)
    picked = {name: np.asarray(value)[keep] for name, value in args.items() if name != "hand_ids"}
    batch.start(**picked, hand_ids=0)  # type: ignore[arg-type]
    assert not batch.over[list(GOOD_ROWS)].any()


def test_a_malformed_start_is_no_tables_fault() -> None:
    batch = _start_batch()
    for args in (
        {"rows": [5, 5], "decks": [DECK3] * 2, "buttons": 0, "hand_ids": 0},
        {"rows": [5], "decks": [DECK3[:10]], "buttons": 0, "hand_ids": 0},
        {"rows": [5], "decks": [DECK3], "buttons": 0, "hand_ids": [0.5]},
    ):
        for call in (batch.start, batch.can_start, batch.start_refusals):
            with pytest.raises(ValueError) as refused:
                call(**args)  # type: ignore[arg-type]
            assert not isinstance(refused.value, TableError)


# -------------------------------------------------------------------- step

# Heads-up tables and how each is played before the step under test (button 0 everywhere).
STEP_PRELUDES = {
    "pre-flop, facing the big blind": [],
    "big blind may check": [C],
    "pre-flop cap reached": [R, R, R],
    "flop, checking is free": [C, C],
    "hand over": [F],
}
# (prelude, action, refused reason or None)
STEP_CASES = [
    ("pre-flop, facing the big blind", F, None),
    ("pre-flop, facing the big blind", R, None),
    ("big blind may check", F, "seat 1 may not fold (FOLD): checking is free (ACPC)"),
    ("big blind may check", R, None),
    ("pre-flop cap reached", R, "seat 1 may not raise (RAISE): the cap of 4 bets on the preflop"),
    ("pre-flop cap reached", C, None),
    ("flop, checking is free", F, "seat 1 may not fold (FOLD): checking is free (ACPC)"),
    ("flop, checking is free", 3, "seat 1: unknown action 3; use envs.Action values"),
    ("pre-flop, facing the big blind", -1, "seat 0: unknown action -1; use envs.Action values"),
    ("hand over", 7, None),  # nobody to act: the entry is ignored
]


def _step_batch(preludes: list[str]) -> HandBatch:
    """Heads-up tables, each played through its prelude (the others wait outside ``where``)."""
    tables = len(preludes)
    batch = HandBatch(Rules(), tables)
    batch.start(np.arange(tables), [DECK3[:9]] * tables, 0, np.arange(tables))
    plays = [STEP_PRELUDES[name] for name in preludes]
    for move in range(max(map(len, plays))):
        where = np.array([move < len(p) for p in plays])
        batch.step(np.array([p[move] if move < len(p) else 9 for p in plays]), where=where)
    return batch


def test_step_names_every_illegal_action_and_no_table_moves() -> None:
    batch = _step_batch([prelude for prelude, _, _ in STEP_CASES])
    actions = np.array([action for _, action, _ in STEP_CASES])
    refused = [t for t, (_, _, why) in enumerate(STEP_CASES) if why]
    expected = [why for _, _, why in STEP_CASES if why]
    before = _snapshot(batch)
    with pytest.raises(TableError) as error:
        batch.step(actions)
    _assert_unchanged(batch, before)
    assert error.value.tables.tolist() == refused
    for table, reason, wanted in zip(refused, error.value.reasons, expected, strict=True):
        assert reason.startswith(f"table {table}") and wanted in reason
    assert batch.can_step(actions).tolist() == [why is None for _, _, why in STEP_CASES]
    assert batch.step_refusals(actions) == [
        error.value.reasons[refused.index(t)] if t in refused else None
        for t in range(len(STEP_CASES))
    ]
    # Outside ``where`` an illegal entry is ignored; the legal tables then move alone.
    legal = np.array([why is None for _, _, why in STEP_CASES])
    assert batch.can_step(actions, where=legal).all()
    batch.step(actions, where=legal)
    for table in refused:
        assert batch._state.log_len[table] == before["log_len"][table]
    moved = [t for t in range(len(STEP_CASES)) if legal[t] and not before["over"][t]]
    assert all(batch._state.log_len[t] == before["log_len"][t] + 1 for t in moved)


def test_a_refusal_of_thousands_of_tables_keeps_a_short_message() -> None:
    batch = HandBatch(Rules(), 5_000)
    batch.start(np.arange(5_000), random_decks(np.random.default_rng(0), 5_000, 9), 0, 0)
    actions = np.full(5_000, C)
    actions[::2] = 5
    with pytest.raises(TableError) as error:
        batch.step(actions)
    assert error.value.tables.tolist() == list(range(0, 5_000, 2))
    assert len(error.value.reasons) == 2_500
    message = str(error.value)
    assert message.startswith("2,500 tables refused: table 0, seat 0: unknown action 5")
    assert message.endswith("; and 2,497 more (see .tables and .reasons)")
    assert len(message) < 400
    copy = pickle.loads(pickle.dumps(error.value))  # workers send exceptions by pickle
    assert copy.tables.tolist() == error.value.tables.tolist()
    assert copy.reasons == error.value.reasons and str(copy) == message


def test_a_malformed_step_is_no_tables_fault() -> None:
    batch = _step_batch(["big blind may check"] * 3)
    for actions, where in (
        (np.array([C, C]), None),
        (np.array([1.0, 1.0, 1.0]), None),
        (np.array([F, F, F]), np.array([1, 1, 1])),
    ):
        for call in (batch.step, batch.can_step, batch.step_refusals):
            with pytest.raises(ValueError) as refused:
                call(actions, where=where)
            assert not isinstance(refused.value, TableError)


def test_table_error_needs_one_reason_per_table() -> None:
    with pytest.raises(ValueError, match="one reason per table"):
        TableError([1, 2], ["table 1: no"])
    with pytest.raises(ValueError, match="one reason per table"):
        TableError([], [])
    error = TableError(np.array([3]), ["table 3: no"])
    with pytest.raises(ValueError, match="read-only"):
        error.tables[0] = 4


@pytest.mark.parametrize("num_seats", [2, 3, 6, 10])
def test_can_step_agrees_with_step_on_random_actions(num_seats: int) -> None:
    rng = np.random.default_rng([21, num_seats])
    rules = Rules(num_seats=num_seats)
    tables = 300
    batch = HandBatch(rules, tables)
    refusals = accepted = 0
    for _ in range(60):
        over = np.flatnonzero(batch.over)
        short = rng.integers(1, 6 * rules.big_bet, size=(len(over), num_seats))
        decks = random_decks(rng, len(over), 2 * num_seats + 5)
        batch.start(over, decks, rng.integers(0, num_seats, len(over)), 0, short)
        actions = _random_actions(batch, rng, illegal=rng.choice([0.0, 0.003, 0.02]))
        where = rng.random(tables) < 0.8 if rng.random() < 0.5 else None
        ok = batch.can_step(actions, where)
        reasons = batch.step_refusals(actions, where)
        moving = (batch.actor >= 0) & (True if where is None else where)
        legal = [not moving[t] or int(actions[t]) in batch.legal_actions(t) for t in range(tables)]
        assert ok.tolist() == legal
        assert [r is None for r in reasons] == ok.tolist()
        before = _snapshot(batch)
        if ok.all():
            batch.step(actions, where)
            accepted += 1
            continue
        with pytest.raises(TableError) as error:
            batch.step(actions, where)
        _assert_unchanged(batch, before)
        assert error.value.tables.tolist() == np.flatnonzero(~ok).tolist()
        assert list(error.value.reasons) == [r for r in reasons if r is not None]
        refusals += 1
        batch.step(np.where(ok, actions, batch.legal_mask().argmax(axis=1)), where)
    assert refusals > 10 and accepted > 10  # both branches were exercised


# ----------------------------------------------------------- legal actions


@pytest.mark.parametrize("num_seats", [2, 3, 6, 10])
def test_legal_actions_read_the_mask_in_action_order(num_seats: int) -> None:
    rng = np.random.default_rng([5, num_seats])
    rules = Rules(num_seats=num_seats)
    batch = HandBatch(rules, 64)
    assert batch.legal_actions(0) == ()  # never dealt: nobody is to act
    seen: set[tuple[Action, ...]] = set()
    for _ in range(200):
        over = np.flatnonzero(batch.over)
        stacks = rng.integers(1, 6 * rules.big_bet, size=(len(over), num_seats))
        batch.start(over, random_decks(rng, len(over), 2 * num_seats + 5), 0, 0, stacks)
        mask = batch.legal_mask()
        for table in range(64):
            actions = batch.legal_actions(table)
            assert actions == tuple(a for a in Action if mask[table, a])
            assert all(type(a) is Action for a in actions)
            if batch.actor[table] >= 0:
                assert actions == batch.view(table, int(batch.actor[table])).legal_actions
            seen.add(actions)
        batch.step(_random_actions(batch, rng, illegal=0.0))
    assert {(F, C, R), (C, R), (F, C)} <= seen
    with pytest.raises(ValueError, match=r"table must be 0\.\.63"):
        batch.legal_actions(64)
