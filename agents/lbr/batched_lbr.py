"""The local best response at thousands of tables at once: ``LocalBestResponse``'s twin.

``BatchedLBR`` keeps, per table, the opponent's range over the 1,326 holdings and our equity
against each holding for the current round. At a batch of our decisions it replays the new
part of every public log (``agents.lbr.batched_replay``), re-weights the ranges by Bayes' rule
with the opponent's probabilities for every holding (``agents.lbr.batched_ranges``), asks the
opponent's answer to our raise, and values the three actions with the one-round look-ahead of
``agents.lbr.values`` (Lisy and Bowling 2017, Algorithm 1) or the deeper one of
``agents.lbr.lookahead`` (the equities' ``LBRParams.lookahead``), all tables at once. It
plays, on the same deals, the actions of its scalar twin, with values equal to rounding.
"""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from agents.best_response.bots import BotPolicy
from agents.lbr.batched_ranges import BatchedRangePolicy, RangeAnswer
from agents.lbr.batched_replay import ShadowTables
from agents.lbr.equity_cache import EquityCache
from agents.lbr.lookahead import Lookahead, call_values, continued_bets, raise_values
from agents.lbr.probe_memo import ProbeMemo
from agents.lbr.public_tree import PublicTree, learner_seat, public_moves
from agents.lbr.range_kernels import absorb_actions, check_down_values, clear_cards
from agents.lbr.values import TIE
from agents.strength.holdings import (
    NUM_HOLDINGS,
    PAIR_INDEX,
    seen_cards,
    unseen_cards,
)
from envs.batched.checks import check_batch_tables, check_seats
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.rules import Action, Rules

__all__ = ["BatchedLBR"]

logger = logging.getLogger(__name__)

Floats = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
_FOLD, _CALL, _RAISE = int(Action.FOLD), int(Action.CALL), int(Action.RAISE)
_CALLED = np.array([0.0, 1.0, 0.0])
_NO_GROUP = np.zeros((0, 0), dtype=np.int8)
"""A ``RangeAnswer`` without per-holding rows, as the kernels take it."""
_NO_ANSWER = RangeAnswer(np.zeros((0, 1, 3)), None)
"""Where the opponent answers none of our raises."""


def _group(answer: RangeAnswer) -> npt.NDArray[np.integer]:
    """``answer``'s row per holding as the range kernels take it (no rows: one for all)."""
    return _NO_GROUP if answer.group is None else answer.group


def _columns(
    answer: RangeAnswer, answered: npt.NDArray[np.bool_], answer_row: Index
) -> tuple[Floats, Floats, Floats]:
    """The answers to our raise as fold, call and raise columns, ``(r, 1326)`` each (a call
    where the opponent does not answer: it is all-in)."""
    columns = [np.zeros((len(answered), NUM_HOLDINGS)) for _ in range(3)]
    columns[_CALL][:] = 1.0
    where = np.flatnonzero(answered)
    if where.size:
        for action, column in enumerate(columns):
            actions = np.full(where.size, action)
            column[where] = answer.column(actions)[answer_row[where]]
    return columns[0], columns[1], columns[2]


def _hole_and_board(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    board_len: npt.NDArray[np.integer],
) -> npt.NDArray[np.bool_]:
    """``(k, 52)``: each row's hole cards and the board dealt so far."""
    return seen_cards(np.concatenate([hole, board], axis=1), 2 + board_len.astype(np.intp))


class BatchedLBR:
    """``LocalBestResponse`` at N tables (``envs.protocols.BatchedAgent``; the module).

    Deterministic: its probabilities are one-hot, the action of largest value (ties: check/
    call, then bet/raise, then fold). Heads-up only: at larger tables it checks or calls.

    Args:
        num_tables: N.
        opponent: The opponent's policy over holdings at the N tables (owned from now on).
        equities: Our equities against every holding (its settings are the scalar twin's,
            the look-ahead included).
        name: Registry name.
        policy: The opponent's public-state policy, needed by ``Lookahead.PUBLIC_TREE`` only.

    Raises:
        ValueError: if the look-ahead is ``PUBLIC_TREE`` and no policy is given.
    """

    known_policy = True
    hand_uniform = False

    def __init__(
        self,
        num_tables: int,
        opponent: BatchedRangePolicy,
        equities: EquityCache,
        name: str,
        *,
        policy: BotPolicy | None = None,
    ) -> None:
        if equities.params.lookahead is Lookahead.PUBLIC_TREE and policy is None:
            raise ValueError("the public-tree look-ahead needs the opponent's public policy")
        self.policy = policy if equities.params.lookahead is Lookahead.PUBLIC_TREE else None
        self._trees: dict[Rules, PublicTree] = {}
        self.num_tables = num_tables
        self.opponent = opponent
        self.equities = equities
        self.name = name
        self.memoryless = opponent.memoryless
        self.seats = np.full(num_tables, -1, dtype=np.int8)
        self._weights = np.ones((num_tables, NUM_HOLDINGS))
        self._equity = np.zeros((num_tables, NUM_HOLDINGS))
        self._equity_street = np.full(num_tables, -1, dtype=np.int8)
        self._seen = np.zeros(num_tables, dtype=np.intp)
        self._hand_id = np.zeros(num_tables, dtype=np.int64)
        self._hole = np.zeros((num_tables, 2), dtype=np.int16)
        self._in_hand = np.zeros(num_tables, dtype=bool)
        self._probes = ProbeMemo(num_tables)
        self._shadow: ShadowTables | None = None  # made at the first batch, for its rules
        self._warned: set[str] = set()

    @property
    def nbytes(self) -> int:
        """Bytes of per-table state (the opponent's policy's excluded; the shadow engine's
        once the first batch made it)."""
        arrays = (self._weights, self._equity, self._equity_street, self._seen, self._hand_id)
        own = sum(a.nbytes for a in (*arrays, self._hole, self._in_hand, self.seats))
        shadow = 0 if self._shadow is None else self._shadow.nbytes
        return own + self._probes.nbytes + shadow

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Fresh memory at ``tables``, this agent in ``seats[i]`` (the opponent elsewhere)."""
        index, seat = check_seats(tables, seats, self.num_tables, 0)
        self.seats[index] = seat
        self._in_hand[index] = False
        self._probes.forget(index)
        if self._shadow is not None:
            self._shadow.forget(index)
        self.opponent.start_tables(index, (1 - seat.astype(np.intp)) % 2)

    def probabilities(self, batch: DecisionBatch) -> Floats:
        """``(k, 3)`` one-hot: the action of largest value at each row."""
        k = len(batch.tables)
        if batch.rules.num_seats != 2:
            self._warn_once(
                "seats",
                f"{self.name} is a heads-up local best response; at {batch.rules.num_seats} "
                "seats it checks and calls",
            )
            return np.tile(_CALLED, (k, 1))
        values = self.values(batch)
        best = np.full(k, _CALL, dtype=np.intp)
        top = values[:, _CALL].copy()
        raising = ~np.isnan(values[:, _RAISE]) & (values[:, _RAISE] > top + TIE)
        best[raising] = _RAISE
        top[raising] = values[raising, _RAISE]
        folding = ~np.isnan(values[:, _FOLD]) & (values[:, _FOLD] > top + TIE)
        best[folding] = _FOLD
        result = np.zeros((k, 3))
        result[np.arange(k), best] = 1.0
        return result

    def values(self, batch: DecisionBatch) -> Floats:
        """``(k, 3)`` chips each action is worth relative to folding now (NaN if illegal),
        as ``LocalBestResponse.values`` at each row; heads-up tables only."""
        tables = batch.tables.astype(np.intp)
        self._check(batch, tables)
        if self._shadow is None or self._shadow.rules != batch.rules:
            self._shadow = ShadowTables(batch.rules, self.num_tables)
        shadow = self._shadow
        self._absorb(shadow, batch, tables)
        self._refresh_equities(batch, tables)
        pot = batch.pot.astype(np.float64)
        to_call = batch.to_call.astype(np.float64)
        legal = batch.legal
        values = np.full((len(tables), 3), np.nan)
        values[legal[:, _FOLD], _FOLD] = 0.0
        if self.equities.params.lookahead is not Lookahead.CHECK_DOWN:
            clear_cards(self._weights, tables, batch.board, batch.board_len, PAIR_INDEX)
            return self._deeper_values(batch, shadow, tables, values)
        raising = np.flatnonzero(legal[:, _RAISE])
        answer, answered, answer_row = self._responses(shadow, raising)
        bet = np.asarray(batch.rules.bet_sizes, dtype=np.float64)[batch.street[raising]]
        wp, raised = np.empty(len(tables)), np.empty(len(raising))
        check_down_values(
            self._weights,
            self._equity,
            tables,
            pot,
            to_call,
            raising,
            bet,
            answered,
            answer_row,
            answer.rows,
            _group(answer),
            batch.board,
            batch.board_len,
            PAIR_INDEX,
            wp,
            raised,
        )
        values[:, _CALL] = wp * (pot + to_call) - to_call
        values[raising, _RAISE] = raised
        return values

    def _deeper_values(
        self, batch: DecisionBatch, shadow: ShadowTables, tables: Index, values: Floats
    ) -> Floats:
        """``values`` completed by the deeper look-aheads (``Lookahead.LATER_BETS``,
        ``Lookahead.PUBLIC_TREE``), in NumPy over the whole rows."""
        weights = self._weights[tables]
        share = weights / weights.sum(axis=1, keepdims=True)
        equity = self._equity[tables]
        pot = batch.pot.astype(np.float64)
        to_call = batch.to_call.astype(np.float64)
        wp = np.einsum("ij,ij->i", share, equity)
        values[:, _CALL] = wp * (pot + to_call) - to_call
        if self.policy is not None:
            return self._tree_values(batch, wp)
        raising = np.flatnonzero(batch.legal[:, _RAISE])
        if raising.size == 0:
            return values
        answer, answered, answer_row = self._responses(shadow, raising)
        response = _columns(answer, answered, answer_row)
        bet = np.asarray(batch.rules.bet_sizes, dtype=np.float64)[batch.street[raising]]
        later = continued_bets(batch.rules.bet_sizes, batch.street[raising])
        later[~answered] = 0.0  # the opponent is all-in: no later bets
        ours = (share[raising], equity[raising])
        p, c = pot[raising], to_call[raising]
        values[raising, _CALL] = call_values(
            *ours, pot=p, to_call=c, later=later, response=response
        )
        values[raising, _RAISE] = raise_values(
            *ours, pot=p, to_call=c, bet=bet, later=later, response=response
        )
        return values

    def _tree_values(self, batch: DecisionBatch, wp: Floats) -> Floats:
        """``Lookahead.PUBLIC_TREE``' values (``agents.lbr.public_tree``) at every row."""
        assert self.policy is not None
        tree = self._trees.get(batch.rules)
        if tree is None:
            tree = self._trees[batch.rules] = PublicTree(self.policy, batch.rules)
        rows = range(len(batch.tables))
        seat, length = batch.seat.astype(np.intp), batch.log_len.astype(np.intp)
        moves = [
            public_moves(
                batch.log_seat[i, : length[i]].tolist(),
                batch.log_action[i, : length[i]].tolist(),
                int(seat[i]),
            )
            for i in rows
        ]
        seats = [learner_seat(int(seat[i]), int(batch.button[i])) for i in rows]
        ours = batch.contributions[np.arange(len(seat)), seat].astype(np.float64)
        return tree.values(seats, moves, wp, ours)

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Tell the opponent's policy each hand's end as the opponent saw it (unless it is
        memoryless: it learns nothing from one)."""
        tables = batch.tables.astype(np.intp)
        self._in_hand[tables] = False
        if batch.rules.num_seats != 2 or self.memoryless:
            return
        seat = batch.seat.astype(np.intp)
        other = 1 - seat
        rows = np.arange(len(tables))
        shown = batch.shown[rows, other].astype(np.intp)
        filler = unseen_cards(_hole_and_board(batch.hole, batch.board, batch.board_len), 2)
        hole = np.where(shown[:, :1] >= 0, shown, filler).astype(np.uint8)
        fields = {
            name: getattr(batch, name)
            for name in HandEndBatch._fields
            if name not in ("seat", "hole")
        }
        self.opponent.observe_ends(HandEndBatch(seat=other.astype(np.int8), hole=hole, **fields))

    def _check(self, batch: DecisionBatch, tables: Index) -> None:
        check_batch_tables(self.name, tables, batch.seat, self.seats)
        hole = batch.hole.astype(np.int16)
        fresh = (
            ~self._in_hand[tables]
            | (self._hand_id[tables] != batch.hand_id)
            | (self._hole[tables] != hole).any(axis=1)
            | (batch.log_len.astype(np.intp) < self._seen[tables])
        )
        new = tables[fresh]
        self._in_hand[new] = True
        self._hand_id[new] = batch.hand_id[fresh]
        self._hole[new] = hole[fresh]
        self._seen[new] = 0
        self._equity_street[new] = -1
        self._weights[new] = 1.0  # then nobody holds our cards
        clear_cards(self._weights, new, batch.hole[fresh], np.full(len(new), 2), PAIR_INDEX)

    def _absorb(self, shadow: ShadowTables, batch: DecisionBatch, tables: Index) -> None:
        """Bayes' rule at each new opponent decision, in log order."""
        for rows, views, actions in shadow.opponent_decisions(batch, self._seen[tables]):
            at = tables[rows]
            board, board_len = views.board, views.board_len
            kept = self._probes.kept(at, views)
            hit, ask = np.flatnonzero(kept), np.flatnonzero(~kept)
            possible = np.ones(len(at), dtype=bool)
            if hit.size:  # the decisions after our raise: answered when we probed it
                rows_kept, group_kept = self._probes.answer(at[hit])
                possible[hit] = absorb_actions(
                    self._weights,
                    at[hit],
                    rows_kept,
                    group_kept,
                    actions[hit],
                    board[hit],
                    board_len[hit],
                    PAIR_INDEX,
                )
                views = shadow.views(rows[ask])
            if ask.size:
                answer = self.opponent.probabilities(views, probe=False)
                possible[ask] = absorb_actions(
                    self._weights,
                    at[ask],
                    answer.rows,
                    _group(answer),
                    actions[ask],
                    board[ask],
                    board_len[ask],
                    PAIR_INDEX,
                )
            if not possible.all():
                self._warn_once(
                    "impossible",
                    f"{self.name}: an opponent action has probability zero with every holding "
                    f"under {self.opponent.name!r}'s known policy, which it therefore does not "
                    "play; the range ignores such actions",
                )
        self._seen[tables] = batch.log_len

    def _responses(
        self, shadow: ShadowTables, raising: Index
    ) -> tuple[RangeAnswer, npt.NDArray[np.bool_], Index]:
        """The opponent's answers to our raise at the rows ``raising``: its probabilities
        where it answers, whether it answers there (``(r,)``: it is not all-in) and the row of
        the answer that is each raising row's (``(r,)``, 0 where it does not answer)."""
        answered = np.zeros(len(raising), dtype=bool)
        answer_row = np.zeros(len(raising), dtype=np.intp)
        if raising.size == 0:
            return _NO_ANSWER, answered, answer_row
        answering, views = shadow.after_our_raise(raising)
        try:
            if views is None:
                return _NO_ANSWER, answered, answer_row
            position = np.searchsorted(raising, answering)
            answered[position] = True
            answer_row[position] = np.arange(len(answering))
            answer = self.opponent.probabilities(views, probe=True)
            self._probes.keep(views.tables.astype(np.intp), views, answer)
            return answer, answered, answer_row
        finally:  # the views are read: the raise we only considered is taken back
            shadow.take_back_raise()

    def _refresh_equities(self, batch: DecisionBatch, tables: Index) -> None:
        """Our equities at the rows whose round changed since they were computed."""
        street = batch.street.astype(np.int8)
        stale = np.flatnonzero(self._equity_street[tables] != street)
        if stale.size:
            at = tables[stale]
            self.equities.fill(
                self._equity, at, batch.hole[stale], batch.board[stale], batch.board_len[stale]
            )
            self._equity_street[at] = street[stale]

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            logger.warning("%s", message)
            self._warned.add(key)
