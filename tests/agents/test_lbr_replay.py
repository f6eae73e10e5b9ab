"""``agents.lbr.batched_replay.ShadowTables``: the opponent's views rebuilt from our decisions,
the hands kept between them, a probed raise taken back, logs that do not replay refused."""

from __future__ import annotations

import numpy as np
import pytest

from agents.lbr.batched_replay import ShadowTables
from envs.batched.views import DecisionBatch, decision_batch
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Action, Rules

FIELDS = ("seat", "hand_id", "street", "pot", "to_call", "num_bets", "bets", "legal", "log_len")


def _views(shadow: ShadowTables, batch: DecisionBatch, seen: np.ndarray) -> list[tuple]:
    """Every yielded opponent decision as (table, fields..., action)."""
    found = []
    for rows, views, actions in shadow.opponent_decisions(batch, seen):
        board = views.board
        for q, row in enumerate(rows):
            shown = tuple(board[q, : int(views.board_len[q])].tolist())
            fields = tuple(np.asarray(getattr(views, f))[q].tolist() for f in FIELDS)
            found.append((int(batch.tables[row]), *fields, shown, int(actions[q])))
    return sorted(found)


def test_kept_hands_show_the_opponent_what_a_full_replay_shows() -> None:
    """Hands played with random actions; at each decision of seat 0 the kept shadow yields
    the opponent's new decisions, as a fresh shadow replaying each log from the start does;
    when the caller has seen less than the shadow replayed, the shadow deals again."""
    rng = np.random.default_rng(3)
    tables, rules = 6, Rules()
    kept = ShadowTables(rules, tables)
    seen = np.zeros(tables, dtype=np.intp)
    compared = 0
    for h in range(20):
        games = [
            Hand(rules, deal_deck(h, t).tolist(), button=t % 2, hand_id=h) for t in range(tables)
        ]
        seen[:] = 0
        while any(not g.is_over for g in games):
            mine = [t for t, g in enumerate(games) if not g.is_over and g.actor == 0]
            if mine:
                batch = decision_batch([games[t].view(0) for t in mine], mine)
                at = seen[mine]
                if len(mine) % 3 == 0:  # the caller restarted these hands: all is new again
                    at = np.zeros_like(at)
                fresh = ShadowTables(rules, tables)
                expected = _views(fresh, batch, at)
                assert _views(kept, batch, at) == expected
                compared += len(expected)
                seen[mine] = batch.log_len
            for g in games:
                if not g.is_over:
                    g.act(Action(rng.choice([int(a) for a in g.legal_actions()])))
    assert compared > 100


def test_a_probed_raise_is_taken_back_and_a_bad_log_refused() -> None:
    rules = Rules()
    hands = [Hand(rules, deal_deck(1, t).tolist(), button=1, hand_id=0) for t in range(3)]
    for hand in hands:  # the big blind (seat 0) faces the small blind's call
        hand.act(Action.CALL)
    batch = decision_batch([h.view(0) for h in hands], [0, 1, 2])
    shadow = ShadowTables(rules, 3)
    list(shadow.opponent_decisions(batch, np.zeros(3, dtype=np.intp)))
    before = shadow.shadow.save([0, 1, 2])
    answering, views = shadow.after_our_raise(np.array([0, 2]))
    assert answering.tolist() == [0, 2] and views is not None
    assert views.to_call.tolist() == [2, 2] and views.seat.tolist() == [1, 1]
    shadow.take_back_raise()
    after = shadow.shadow.save([0, 1, 2])
    for name, array in before.arrays.items():
        np.testing.assert_array_equal(after.arrays[name], array, err_msg=name)
    with pytest.raises(ValueError, match="heads-up only"):
        ShadowTables(Rules(num_seats=3), 2)
    other = ShadowTables(rules, 3)
    lying = batch.take([0], log_seat=np.array([[0] + [0] * (batch.log_seat.shape[1] - 1)]))
    with pytest.raises(ValueError, match="does not replay"):
        list(other.opponent_decisions(lying, np.zeros(1, dtype=np.intp)))


def test_the_opponents_decisions_come_grouped_by_their_order_among_its_own() -> None:
    """Table 0: the opponent (small blind) called, nothing of ours in between; table 1: we
    called, it raised; table 2: we called, it checked, then it checked the flop. Its first
    new decisions at the three tables are one group (one call of its policy), though they
    lie at log positions 0, 1 and 1; its second (table 2's flop check) is the next."""
    rules = Rules()
    plays = [(1, [Action.CALL]), (0, [Action.CALL, Action.RAISE]), (0, [Action.CALL] * 3)]
    hands = []
    for t, (button, actions) in enumerate(plays):
        hand = Hand(rules, deal_deck(2, t).tolist(), button=button, hand_id=0)
        for action in actions:
            hand.act(action)
        assert hand.actor == 0
        hands.append(hand)
    batch = decision_batch([h.view(0) for h in hands], [0, 1, 2])
    shadow = ShadowTables(rules, 3)
    groups = [
        (rows.tolist(), actions.tolist(), views.street.tolist())
        for rows, views, actions in shadow.opponent_decisions(batch, np.zeros(3, np.intp))
    ]
    call, check, raise_ = int(Action.CALL), int(Action.CALL), int(Action.RAISE)
    assert groups == [([0, 1, 2], [call, raise_, check], [0, 0, 0]), ([2], [check], [1])]
