"""The opponents' known policies at every holding of many tables at once.

The batched twins of ``agents.lbr.range_policy``: given the opponent's decisions at k tables
(a ``DecisionBatch`` whose hole cards are placeholders, ``agents.lbr.batched_replay``), the
probabilities of fold, check/call and bet/raise with each of the 1,326 holdings, as a
``RangeAnswer``: a few rows of probabilities per decision and, per holding, which row is its
(holdings that play alike share a row: 32 KB per decision would otherwise be written and read
for a handful of distinct rows). ``probe=True`` marks
a view that did not happen (after a raise we only consider): a policy with memory of the
hand in progress must not keep it.

* ``BatchedCardIndependent``: a card-independent bot's batched form, asked once per row.
* ``BatchedVectorRule``: ``rule``, its pre-flop class table and HS1 of every holding.
* ``BatchedShadowBayesian``: a batched BPP over ``C`` virtual tables per table, one per
  current hand type (BPP's probabilities depend on the cards only through that type,
  ``agents.bpp.hand_types``): table ``t``'s type ``c`` is virtual table ``t C + c``, dealt a
  holding of that type, and every virtual table of a table is told the hand ends the opponent
  sees, so each learns what the opponent learns.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from agents.bpp.batched_types import BOARD_WIDTH, holding_types
from agents.bpp.hand_types import NUM_CURRENT_TYPES
from agents.jit import kernel
from agents.rule_policy import RuleParams, holding_classes
from agents.strength import hand_strength_all
from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.protocols import BatchedAgent
from envs.rules import Action, Street

__all__ = [
    "BatchedCardIndependent",
    "BatchedRangePolicy",
    "BatchedShadowBayesian",
    "BatchedVectorRule",
    "RangeAnswer",
]

Floats = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
_C = NUM_CURRENT_TYPES
_FOLD, _CALL, _RAISE = int(Action.FOLD), int(Action.CALL), int(Action.RAISE)
_HOLDINGS = HOLDINGS.astype(np.uint8)


class RangeAnswer(NamedTuple):
    """The opponent's probabilities with every holding at k decisions."""

    rows: Floats
    """``(k, G, 3)``: the distinct rows of probabilities of each decision."""
    group: npt.NDArray[np.integer] | None
    """``(k, 1326)``: the row of each holding (None: row 0 for every holding)."""

    def column(self, actions: Index) -> Floats:
        """``(k, 1326)`` (or ``(k, 1)``): each holding's probability of ``actions[i]``."""
        k = len(actions)
        if self.group is None:
            column: Floats = self.rows[np.arange(k), 0, actions][:, np.newaxis]
            return column
        result = np.empty((k, NUM_HOLDINGS))
        _gather(self.rows, self.group, np.asarray(actions, dtype=np.intp), result)
        return result

    def full(self) -> Floats:
        """``(k, 1326, 3)`` (or ``(k, 1, 3)``)."""
        if self.group is None:
            return self.rows[:, :1]
        result: Floats = self.rows[np.arange(len(self.rows))[:, np.newaxis], self.group]
        return result


@kernel
def _gather(rows: Floats, group: npt.NDArray[np.integer], actions: Index, out: Floats) -> None:
    # out[i, h] = rows[i, group[i, h], actions[i]], without NumPy's index temporaries.
    for i in range(group.shape[0]):
        action = actions[i]
        for h in range(group.shape[1]):
            out[i, h] = rows[i, group[i, h], action]


class BatchedRangePolicy(Protocol):
    """An opponent's action probabilities for every holding at many tables (the module)."""

    name: str
    memoryless: bool

    def start_tables(self, tables: Index, seats: Index) -> None:
        """Fresh memory at ``tables``; the opponent sits in ``seats[i]`` at ``tables[i]``."""

    def probabilities(self, batch: DecisionBatch, *, probe: bool) -> RangeAnswer:
        """The probabilities at the opponent's decisions ``batch``."""
        ...

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Hands ended as the opponent saw them (its hole cards there are placeholders
        unless shown)."""


class BatchedCardIndependent:
    """A bot whose probabilities ignore its cards, batched (``call``, ``raise``, ``random``).

    Args:
        bot: The bot's batched form at the LBR's tables.
        name: The bot's registry name.
    """

    memoryless = True

    def __init__(self, bot: BatchedAgent, name: str) -> None:
        self.bot = bot
        self.name = name

    def start_tables(self, tables: Index, seats: Index) -> None:
        """Start the bot's tables."""
        self.bot.start_tables(tables, seats)

    def probabilities(self, batch: DecisionBatch, *, probe: bool) -> RangeAnswer:
        """The bot's row at each decision, for every holding alike."""
        return RangeAnswer(np.asarray(self.bot.probabilities(batch))[:, np.newaxis, :], None)

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Nothing to learn."""


class BatchedVectorRule:
    """``rule`` at every holding of many tables (``agents.lbr.range_policy.VectorRule``).

    Args:
        params: The rule bot's thresholds.
    """

    memoryless = True
    name = "rule"

    def __init__(self, params: RuleParams) -> None:
        self.params = params

    def start_tables(self, tables: Index, seats: Index) -> None:
        """Nothing to forget."""

    def probabilities(self, batch: DecisionBatch, *, probe: bool) -> RangeAnswer:
        """One-hot: the rule's action with each holding (rows: fold, call, raise)."""
        k = len(batch.tables)
        choice = np.empty((k, NUM_HOLDINGS), dtype=np.intp)
        street = batch.street
        preflop = street == int(Street.PREFLOP)
        choice[preflop] = holding_classes()
        params = self.params
        strengths: dict[tuple[int, ...], Floats] = {}
        for i in np.flatnonzero(~preflop):
            board = tuple(int(c) for c in batch.board[i, : int(batch.board_len[i])])
            hs = strengths.get(board)
            if hs is None:
                hs = strengths[board] = hand_strength_all(board)
            to_call, pot = int(batch.to_call[i]), int(batch.pot[i])
            pot_odds = to_call / (pot + to_call) if to_call else 0.0
            choice[i] = np.where(
                hs >= params.raise_threshold,
                _RAISE,
                np.where((hs >= params.call_threshold) | (hs >= pot_odds), _CALL, _FOLD),
            )
        legal = batch.legal
        for action in (_FOLD, _RAISE):
            banned = ~legal[:, action]
            choice[banned] = np.where(choice[banned] == action, _CALL, choice[banned])
        return RangeAnswer(np.broadcast_to(np.eye(3), (k, 3, 3)), choice)

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Nothing to learn."""


class BatchedShadowBayesian:
    """A batched BPP followed hand by hand at every type of every table (see the module).

    Args:
        bpp: A fresh batched BPP (``BatchedBPP`` or ``BatchedBPPCurves``) with ``C N``
            tables for the LBR's ``N``, each set as the opponent is; this object owns it.
        name: The opponent's registry name.
        memoryless: Whether the opponent never learns.
    """

    def __init__(self, bpp: BatchedBPP | BatchedBPPCurves, name: str, *, memoryless: bool) -> None:
        if bpp.num_tables % _C:
            raise ValueError(f"the batched BPP needs {_C} virtual tables per table")
        self.bpp = bpp
        self.name = name
        self.memoryless = memoryless
        tables = bpp.num_tables // _C
        self._board = np.full((tables, 5), -1, dtype=np.int16)
        self._type_of = np.zeros((tables, NUM_HOLDINGS), dtype=np.int8)
        self._first = np.zeros((tables, _C + 1), dtype=np.intp)

    def start_tables(self, tables: Index, seats: Index) -> None:
        """Start every virtual table of ``tables``."""
        virtual = _every_type(tables)
        self.bpp.start_tables(virtual, np.repeat(np.asarray(seats), _C))

    def probabilities(self, batch: DecisionBatch, *, probe: bool) -> RangeAnswer:
        """BPP's probabilities with each holding: once per type present at each row."""
        k = len(batch.tables)
        tables = batch.tables.astype(np.intp)
        types, first = self._types(tables, batch.board, batch.street)
        row, kind = np.nonzero(first[:, :_C] >= 0)
        virtual = tables[row] * _C + kind
        views = batch.take(row, tables=virtual, hole=_HOLDINGS[first[row, kind]])
        rows = np.zeros((k, _C + 1, 3))
        rows[:, _C, _CALL] = 1.0
        rows[row, kind] = self.bpp.probabilities(views)
        if probe:  # a hand that did not happen: the belief must not keep it
            self.bpp.belief.end_hands(virtual)
        return RangeAnswer(rows, types)

    def _types(
        self, tables: Index, board: npt.NDArray[np.uint8], street: npt.NDArray[np.int8]
    ) -> tuple[npt.NDArray[np.int8], Index]:
        """BPP's type of every holding on each row's board (``C`` where it meets the board),
        and the first holding of each type (-1: none), ``(k, 1326)`` and ``(k, C + 1)``;
        kept per table for the board they were computed on."""
        width = BOARD_WIDTH[street.astype(np.intp)]
        board = np.where(np.arange(5) < width[:, np.newaxis], board, 52).astype(np.int16)
        stale = np.flatnonzero((self._board[tables] != board).any(axis=1))
        if stale.size:
            at = tables[stale]
            # Holdings through the board get a row of their own, never asked.
            types = holding_types(_HOLDINGS, np.minimum(board[stale], 51), width[stale], _C)
            self._type_of[at] = types
            self._first[at] = _first_of_each(types, _C + 1)
            self._board[at] = board[stale]
        return self._type_of[tables], self._first[tables]

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Tell every virtual table of each row the hand's end."""
        rows = np.repeat(np.arange(len(batch.tables)), _C)
        fields: dict[str, Any] = {
            name: np.asarray(getattr(batch, name))[rows]
            for name in HandEndBatch._fields
            if name not in ("rules", "tables")
        }
        virtual = _every_type(batch.tables)
        self.bpp.observe_ends(HandEndBatch(rules=batch.rules, tables=virtual, **fields))


@kernel
def _first_of_each(types: npt.NDArray[np.int8], kinds: int) -> Index:
    """``(k, kinds)``: the lowest holding of each type in each row of ``types`` (-1: none)."""
    first = np.full((types.shape[0], kinds), -1, dtype=np.intp)
    for i in range(types.shape[0]):
        for h in range(types.shape[1] - 1, -1, -1):
            first[i, types[i, h]] = h
    return first


def _every_type(tables: npt.ArrayLike) -> Index:
    """The virtual tables of ``tables``, ``C`` each in type order, table by table."""
    index: Index = (np.asarray(tables, dtype=np.intp)[:, np.newaxis] * _C + np.arange(_C)).ravel()
    return index
