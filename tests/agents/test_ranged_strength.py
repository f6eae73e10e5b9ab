"""Hand strength against a generic range: HS1 when nobody acted, a plain re-computation of the
weights otherwise, and the direction actions move it; the memo of holdings' ranks by board it
reads: the evaluator's ranks and their places, whatever it forgot."""

from __future__ import annotations

import numpy as np
import pytest

from agents.strength.batched import hand_strengths
from agents.strength.board_memo import DEAD, BoardRanks, hand_strengths_on_boards
from agents.strength.holdings import HOLDINGS, PAIR_INDEX
from agents.strength.ranged import (
    action_counts,
    percentiles,
    ranged_and_hand_strengths,
    ranged_strengths,
)
from envs.evaluator import evaluate
from envs.observation import NO_CARD
from envs.rules import Action

WIDTH = (0, 3, 4, 5)
PREFLOP = percentiles(np.linspace(0.3, 0.85, len(HOLDINGS)) ** 2)  # any strength order


def deals(count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    cards = np.array([rng.permutation(52)[:7] for _ in range(count)])
    street = rng.integers(0, 4, count)
    board = cards[:, 2:].copy()
    board[np.arange(5)[None, :] >= np.array(WIDTH)[street][:, None]] = NO_CARD
    return cards[:, :2], board, street


def random_history(street: np.ndarray, seed: int) -> np.ndarray:
    """Per row, up to three actions per street so far by seats 0 and 1 (calls and raises)."""
    rng = np.random.default_rng(seed)
    history = -np.ones((len(street), 16, 4), dtype=np.int64)
    for row, now in enumerate(street):
        entry = 0
        for s in range(now + 1):
            for _ in range(rng.integers(0, 4)):
                action = Action.RAISE if rng.random() < 0.4 else Action.CALL
                history[row, entry] = (s, rng.integers(0, 2), action, 0)
                entry += 1
    return history


def reference(hole: np.ndarray, board: np.ndarray, now: int, history: np.ndarray) -> list[float]:
    """One row the slow way: weights from the table of ``agents.strength.ranged``."""
    known = {int(c) for c in hole} | {int(c) for c in board[: WIDTH[now]]}
    live = [h for h, (a, b) in enumerate(HOLDINGS) if a not in known and b not in known]
    weight = np.ones(len(live))
    ranks = {}
    for s in range(1, now + 1):
        cards = np.array([[*HOLDINGS[h], *board[: WIDTH[s]]] for h in live])
        ranks[s] = evaluate(cards).astype(np.int64)
    for s in range(now + 1):
        raised = 0
        for street, seat, action, _ in history:
            if street != s:
                continue
            if s == 0:
                q = PREFLOP[live]
            else:
                r = ranks[s]
                below = (r[None, :] < r[:, None]).sum(axis=1)
                tied = (r[None, :] == r[:, None]).sum(axis=1) - 1
                q = (below + 0.5 * tied) / (len(live) - 1)
            if action == Action.RAISE:
                raised += 1
                if seat != 0:
                    weight *= 0.05 + q**2
            elif seat != 0:
                weight *= 1.5 - q if (s > 0 and raised == 0) else 0.25 + q
    if now == 0:
        mine = PREFLOP[PAIR_INDEX[hole[0], hole[1]]]
        theirs = PREFLOP[live]
    else:
        mine = int(evaluate(np.array([[*hole, *board[: WIDTH[now]]]]))[0])
        theirs = ranks[now]
    score = (theirs < mine) + 0.5 * (theirs == mine)
    return [float((weight * score).sum() / weight.sum()), float(weight.sum() / len(live))]


def test_without_actions_it_is_hs1_and_the_range_is_whole() -> None:
    hole, board, street = deals(300, 1)
    silent = -np.ones((300, 8, 4), dtype=np.int64)
    got = ranged_strengths(hole, board, street, silent, PREFLOP)
    after = street > 0
    widths = np.array(WIDTH)[street[after]]
    np.testing.assert_array_equal(got[after, 0], hand_strengths(hole[after], board[after], widths))
    np.testing.assert_array_equal(got[:, 1], 1.0)


def test_weights_follow_the_rule_row_by_row() -> None:
    hole, board, street = deals(40, 2)
    history = random_history(street, 3)
    got = ranged_strengths(hole, board, street, history, PREFLOP)
    expected = [reference(hole[i], board[i], int(street[i]), history[i]) for i in range(40)]
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


def test_a_river_bet_makes_a_hand_weaker_than_a_check_and_narrows_the_range() -> None:
    rng = np.random.default_rng(4)
    cards = np.array([rng.permutation(52)[:7] for _ in range(200)])
    hole, board = cards[:, :2], cards[:, 2:]
    river = np.full(200, 3)
    history = -np.ones((200, 4, 4), dtype=np.int64)
    history[:, 0] = (3, 1, Action.CALL, 0)  # the opponent checks
    checked = ranged_strengths(hole, board, river, history, PREFLOP)
    history[:, 0] = (3, 1, Action.RAISE, 0)  # the opponent bets
    bet = ranged_strengths(hole, board, river, history, PREFLOP)
    assert (bet[:, 0] <= checked[:, 0] + 1e-12).all()
    assert (bet[:, 0] < checked[:, 0]).mean() > 0.9
    assert (bet[:, 1] < 0.5).all() and (checked[:, 1] > 0.9).all()
    history[:, 0] = (3, 0, Action.RAISE, 0)  # our own bet says nothing about their cards
    ours = ranged_strengths(hole, board, river, history, PREFLOP)
    np.testing.assert_array_equal(ours[:, 1], 1.0)


def test_bad_input_is_refused_with_the_reason() -> None:
    hole, board, street = deals(3, 5)
    history = -np.ones((3, 4, 4), dtype=np.int64)
    with pytest.raises(ValueError, match="board cards dealt"):
        ranged_strengths(hole, board, np.full(3, 3), history, PREFLOP)
    with pytest.raises(ValueError, match=r"need hole \(rows, 2\)"):
        ranged_strengths(hole[:, :1], board, street, history, PREFLOP)
    with pytest.raises(ValueError, match="preflop_pct"):
        ranged_strengths(hole, board, street, history, PREFLOP[:5])
    with pytest.raises(ValueError, match=r"street must be 0\.\.3"):
        ranged_strengths(hole, board, np.full(3, 4), history, PREFLOP)
    wrong = hole.copy()
    wrong[1, 0] = 52
    with pytest.raises(ValueError, match=r"card id 0\.\.51"):
        ranged_strengths(wrong, board, street, history, PREFLOP)
    with pytest.raises(ValueError, match="counts must have shape"):
        ranged_strengths(hole, board, street, history, PREFLOP, counts=np.zeros((3, 4)))


def test_counts_given_or_read_from_the_history_give_the_same_values() -> None:
    hole, board, street = deals(40, 9)
    history = -np.ones((40, 6, 4), dtype=np.int64)
    history[:, 0] = (0, 1, Action.RAISE, 0)
    history[:, 1] = (0, 0, Action.CALL, 0)
    read = ranged_strengths(hole, board, street, history, PREFLOP)
    given = ranged_strengths(hole, board, street, history, PREFLOP, counts=action_counts(history))
    np.testing.assert_array_equal(read, given)


def test_percentiles_count_ties_half() -> None:
    np.testing.assert_allclose(
        percentiles(np.array([3.0, 1.0, 3.0, 2.0])), [5 / 6, 0, 5 / 6, 1 / 3]
    )


def expected_ranks(board: np.ndarray) -> np.ndarray:
    ranks = np.full(len(HOLDINGS), DEAD)
    live = [h for h, (a, b) in enumerate(HOLDINGS) if a not in board and b not in board]
    cards = np.array([[*HOLDINGS[h], *board] for h in live])
    ranks[live] = evaluate(cards)
    return ranks


def test_slots_hold_the_evaluators_ranks_and_their_places_for_each_street() -> None:
    rng = np.random.default_rng(21)
    board = np.array([rng.permutation(52)[:5] for _ in range(20)])
    memo = BoardRanks(slots=100)
    for width in (3, 4, 5):
        slots = memo.slots(board, np.full(20, width))
        for row, slot in enumerate(slots):
            ranks = memo.ranks[slot]
            np.testing.assert_array_equal(ranks, expected_ranks(board[row, :width]))
            live = ranks != DEAD
            distinct = np.unique(ranks[live])
            assert memo.sizes[slot] == len(distinct)
            np.testing.assert_array_equal(memo.dense[slot][~live], DEAD)
            np.testing.assert_array_equal(distinct[memo.dense[slot][live]], ranks[live])


def test_a_flop_in_any_order_is_one_board_and_a_known_board_is_not_ranked_again() -> None:
    board = np.array([[5, 17, 30, NO_CARD, NO_CARD], [30, 5, 17, NO_CARD, NO_CARD]])
    memo = BoardRanks(slots=4)
    first = memo.slots(board, [3, 3])
    assert first[0] == first[1]
    memo.ranks[first[0], 0] = 12345  # a memo answers from what it holds
    again = memo.slots(board[:1], [3])
    assert again[0] == first[0] and memo.ranks[again[0], 0] == 12345
    turn = memo.slots(np.array([[5, 17, 30, 40, NO_CARD]]), [4])
    assert turn[0] != first[0]


def test_a_full_memo_forgets_and_still_answers_right() -> None:
    rng = np.random.default_rng(22)
    board = np.array([rng.permutation(52)[:5] for _ in range(12)])
    memo = BoardRanks(slots=3)
    for row in range(12):
        for width in (3, 4, 5):
            (slot,) = memo.slots(board[row : row + 1], [width])
            np.testing.assert_array_equal(memo.ranks[slot], expected_ranks(board[row, :width]))
    # Row 0's river, then three other boards: a memo of three slots forgets on the way, and a
    # slot it reuses must not answer for row 0.
    (first,) = memo.slots(board[:1], [5])
    memo.ranks[first, 0] = 12345
    for row in (1, 2, 3):
        memo.slots(board[row : row + 1], [5])
    (again,) = memo.slots(board[:1], [5])
    np.testing.assert_array_equal(memo.ranks[again], expected_ranks(board[0]))


def test_bad_boards_are_refused() -> None:
    with pytest.raises(ValueError, match="distinct card ids"):
        BoardRanks(slots=3).slots(np.array([[5, 5, 30, NO_CARD, NO_CARD]]), [3])
    with pytest.raises(ValueError, match="distinct card ids"):
        BoardRanks(slots=3).slots(np.array([[5, 6, 30, NO_CARD, NO_CARD]]), [4])
    with pytest.raises(ValueError, match="3 to 5"):
        BoardRanks(slots=3).slots(np.array([[5, 6, 30, 31, 32]]), [2])
    with pytest.raises(ValueError, match="slots"):
        BoardRanks(slots=0)


def test_range_strengths_do_not_depend_on_the_memo_size() -> None:
    hole, board, street = deals(60, 23)
    history = random_history(street, 24)
    shared = ranged_strengths(hole, board, street, history, PREFLOP)
    small = ranged_strengths(hole, board, street, history, PREFLOP, boards=BoardRanks(slots=5))
    np.testing.assert_array_equal(shared, small)


def test_a_batch_of_many_pre_flop_counts_equals_its_rows_one_by_one() -> None:
    # More distinct pre-flop counts than a call keeps factors for, some of them 8 and over
    # (many opponents' calls at a full table): each row as if it were alone, to the bit.
    hole, board, street = deals(120, 31)
    rng = np.random.default_rng(32)
    history = -np.ones((120, 40, 4), dtype=np.int64)
    for row in range(120):
        for entry in range(rng.integers(0, 20)):
            action = Action.RAISE if rng.random() < 0.3 else Action.CALL
            history[row, entry] = (0, rng.integers(1, 9), action, 0)
    counts = action_counts(history)[:, 0]
    assert len({tuple(c) for c in counts}) > 24 and (counts >= 8).any()
    batch = ranged_strengths(hole, board, street, history, PREFLOP)
    alone = [
        ranged_strengths(
            hole[i : i + 1], board[i : i + 1], street[i : i + 1], history[i : i + 1], PREFLOP
        )[0]
        for i in range(120)
    ]
    np.testing.assert_array_equal(batch, alone)
    expected = [
        reference(hole[i], board[i], int(street[i]), history[i]) for i in range(0, 120, 10)
    ]
    np.testing.assert_allclose(batch[::10], expected, rtol=1e-12, atol=0)


def test_its_hs1_is_hand_strengths_to_the_bit() -> None:
    hole, board, street = deals(400, 41)
    history = random_history(street, 42)
    _, hs1 = ranged_and_hand_strengths(hole, board, street, history, PREFLOP)
    expected = hand_strengths(hole, board, np.array(WIDTH)[street])
    np.testing.assert_array_equal(hs1, expected)
    assert (hs1[street == 0] == 0.0).all() and (hs1[street > 0] > 0.0).any()


def test_hs1_from_the_memo_is_hand_strengths_to_the_bit() -> None:
    hole, board, street = deals(400, 51)
    widths = np.array(WIDTH)[street]
    expected = hand_strengths(hole, board, widths)
    memo = BoardRanks(slots=7)  # forgets inside the call
    np.testing.assert_array_equal(hand_strengths_on_boards(hole, board, widths, memo), expected)
    np.testing.assert_array_equal(hand_strengths_on_boards(hole, board, widths), expected)


def test_hs1_from_the_memo_refuses_bad_rows() -> None:
    hole, board, street = deals(4, 52)
    widths = np.array(WIDTH)[street]
    with pytest.raises(ValueError, match="board lengths"):
        hand_strengths_on_boards(hole, board, np.array([0, 1, 3, 5]))
    with pytest.raises(ValueError, match="need hole"):
        hand_strengths_on_boards(hole[:, :1], board, widths)
    clash = board.copy()
    clash[:, 0] = hole[:, 0]
    with pytest.raises(ValueError, match="hole card is on the board"):
        hand_strengths_on_boards(hole, clash, np.full(4, 3))
    with pytest.raises(ValueError, match="3 to 5 distinct"):
        hand_strengths_on_boards(hole, np.full((4, 5), 52), np.full(4, 3))
