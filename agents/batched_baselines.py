"""The baseline bots at thousands of tables at once (``envs.protocols.BatchedAgent``).

``BatchedRandom``, ``BatchedCall``, ``BatchedRaise``, ``BatchedRule`` and ``BatchedPairRaise``
return, for every row of a ``DecisionBatch``, exactly the probabilities their scalar twins in
``agents.baselines`` and ``agents.biased`` state for the same view; each scalar bot's
``batched(num_tables)`` builds its twin (this module imports none of theirs). None of them
remembers anything between hands, so ``start_tables`` and ``observe_ends`` only check their
arguments.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.rule_policy import RuleParams, preflop_class
from agents.strength.batched import hand_strengths
from agents.strength.holdings import HOLDINGS
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.rules import Action, Street
from envs.validation import whole_number

__all__ = [
    "BatchedCall",
    "BatchedPairRaise",
    "BatchedRaise",
    "BatchedRandom",
    "BatchedRule",
]

Floats = npt.NDArray[np.float64]
_FOLD, _CALL, _RAISE = int(Action.FOLD), int(Action.CALL), int(Action.RAISE)


class _Memoryless:
    """What the memoryless bots share: a name, the table count and the contract's no-ops."""

    name = "agent"
    known_policy = True
    hand_uniform = False
    memoryless = True

    def __init__(self, num_tables: int) -> None:
        self.num_tables = whole_number("num_tables", num_tables, minimum=1)

    def start_tables(self, tables: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """Nothing to forget; checks that ``tables`` exist."""
        index = np.asarray(tables).reshape(-1)
        if index.size and (int(index.min()) < 0 or int(index.max()) >= self.num_tables):
            raise ValueError(f"tables must be 0..{self.num_tables - 1}, got {index.tolist()}")

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Nothing to learn."""

    def probabilities(self, batch: DecisionBatch) -> Floats:
        """Certain actions, one per row (``choose``)."""
        probabilities = np.zeros((len(batch.tables), 3))
        probabilities[np.arange(len(batch.tables)), self.choose(batch)] = 1.0
        return probabilities

    def choose(self, batch: DecisionBatch) -> npt.NDArray[np.intp]:
        """The action of each row."""
        raise NotImplementedError


class BatchedRandom(_Memoryless):
    """``random``: equal probabilities on the legal actions."""

    name = "random"

    def probabilities(self, batch: DecisionBatch) -> Floats:
        """Each legal action with probability 1 / (number of legal actions)."""
        legal = batch.legal.astype(np.float64)
        result: Floats = legal / legal.sum(axis=1, keepdims=True)
        return result


class BatchedCall(_Memoryless):
    """``call``: always checks or calls."""

    name = "call"

    def choose(self, batch: DecisionBatch) -> npt.NDArray[np.intp]:
        """Check or call everywhere."""
        return np.full(len(batch.tables), _CALL, dtype=np.intp)


class BatchedRaise(_Memoryless):
    """``raise``: bets or raises when it may, else checks or calls."""

    name = "raise"

    def choose(self, batch: DecisionBatch) -> npt.NDArray[np.intp]:
        """Raise where legal, call elsewhere."""
        return np.where(batch.legal[:, _RAISE], _RAISE, _CALL).astype(np.intp)


def _pair_table() -> npt.NDArray[np.int8]:
    table = np.full((52, 52), -1, dtype=np.int8)
    for a, b in HOLDINGS.tolist():
        table[a, b] = table[b, a] = int(preflop_class((a, b)))
    return table


_PREFLOP = _pair_table()
_BOARD_WIDTH = (0, 3, 4, 5)


class BatchedRule(_Memoryless):
    """``rule``: the pre-flop classes, then hand-strength thresholds (``RuleAgent``).

    Args:
        num_tables: Tables served.
        params: The post-flop thresholds, one for all tables (``RuleParams()`` by default).
    """

    name = "rule"

    def __init__(self, num_tables: int, params: RuleParams | None = None) -> None:
        super().__init__(num_tables)
        self.params = params if params is not None else RuleParams()
        # HS of each table's hand on its street, kept while the hand and street last: the
        # board does not change within a street, and the bot may act several times on it.
        self._hs = np.zeros(self.num_tables)
        self._hand = np.full(self.num_tables, -1, dtype=np.int64)
        self._street = np.full(self.num_tables, -1, dtype=np.int8)

    def _strengths(self, batch: DecisionBatch, on: npt.NDArray[np.intp], width: int) -> Floats:
        tables = batch.tables[on]
        hand, street = batch.hand_id[on], batch.street[on]
        stale = (self._hand[tables] != hand) | (self._street[tables] != street)
        if stale.any():
            rows = on[stale]
            fresh = tables[stale]
            self._hs[fresh] = hand_strengths(batch.hole[rows], batch.board[rows, :width])
            self._hand[fresh] = hand[stale]
            self._street[fresh] = street[stale]
        result: Floats = self._hs[tables]
        return result

    def choose(self, batch: DecisionBatch) -> npt.NDArray[np.intp]:
        """The rule's action at each row, then check/call where it is not legal."""
        hole = batch.hole.astype(np.intp)
        choice = _PREFLOP[hole[:, 0], hole[:, 1]].astype(np.intp)
        for street in (Street.FLOP, Street.TURN, Street.RIVER):
            on = np.flatnonzero(batch.street == street)
            if not on.size:
                continue
            width = _BOARD_WIDTH[street]
            hs = self._strengths(batch, on, width)
            to_call = batch.to_call[on].astype(np.float64)
            pot = batch.pot[on].astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                odds = np.where(to_call > 0, to_call / (pot + to_call), 0.0)
            action = np.where(
                hs >= self.params.raise_threshold,
                _RAISE,
                np.where((hs >= self.params.call_threshold) | (hs >= odds), _CALL, _FOLD),
            )
            choice[on] = action
        legal = batch.legal[np.arange(len(choice)), choice]
        return np.where(legal, choice, _CALL).astype(np.intp)


class BatchedPairRaise(_Memoryless):
    """``pair-raise``: raises with a pair or better (``has_pair``), else checks or calls."""

    name = "pair-raise"

    def choose(self, batch: DecisionBatch) -> npt.NDArray[np.intp]:
        """Raise where legal with a pocket pair or a hole card paired on the board."""
        ranks = batch.hole.astype(np.int16) >> 2
        board = np.where(
            np.arange(5) < batch.board_len[:, np.newaxis],
            batch.board.astype(np.int16) >> 2,
            np.int16(-1),
        )
        paired = (ranks[:, 0] == ranks[:, 1]) | (
            (ranks[:, :, np.newaxis] == board[:, np.newaxis, :]).any(axis=(1, 2))
        )
        return np.where(paired & batch.legal[:, _RAISE], _RAISE, _CALL).astype(np.intp)
