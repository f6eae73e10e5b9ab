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
* ``BatchedShadowBayesian``: a batched BPP at the same tables, told the hand ends the opponent
  sees (so it learns what the opponent learns) and asked for its probabilities with each of
  its 27 current hand types at once (BPP's probabilities depend on its cards only through
  that type, ``agents.bpp.hand_types``; ``BatchedBayesianPlayer.type_probabilities``).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

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
    """A batched BPP followed hand by hand at every table, asked for every type (the module).

    Args:
        bpp: A fresh batched BPP (``BatchedBPP`` or ``BatchedBPPCurves``) with the LBR's N
            tables, each set as the opponent is; this object owns it.
        name: The opponent's registry name.
        memoryless: Whether the opponent never learns.
    """

    def __init__(self, bpp: BatchedBPP | BatchedBPPCurves, name: str, *, memoryless: bool) -> None:
        self.bpp = bpp
        self.name = name
        self.memoryless = memoryless
        tables = bpp.num_tables
        self._board = np.full((tables, 5), -1, dtype=np.int16)
        self._type_of = np.zeros((tables, NUM_HOLDINGS), dtype=np.int8)

    def start_tables(self, tables: Index, seats: Index) -> None:
        """Start the BPP's ``tables``."""
        self.bpp.start_tables(tables, seats)

    def probabilities(self, batch: DecisionBatch, *, probe: bool) -> RangeAnswer:
        """BPP's probabilities with each of its types at each row; each holding's type."""
        k = len(batch.tables)
        tables = batch.tables.astype(np.intp)
        types = self._types(tables, batch.board, batch.street)
        rows = np.zeros((k, _C + 1, 3))
        rows[:, _C, _CALL] = 1.0
        # A probe shows a hand that did not happen: the belief goes back to where it was.
        rows[:, :_C] = self.bpp.type_probabilities(batch, hypothetical=probe)
        return RangeAnswer(rows, types)

    def _types(
        self, tables: Index, board: npt.NDArray[np.uint8], street: npt.NDArray[np.int8]
    ) -> npt.NDArray[np.int8]:
        """BPP's type of every holding on each row's board (``C`` where it meets the board),
        ``(k, 1326)``, kept per table for the board it was computed on."""
        width = BOARD_WIDTH[street.astype(np.intp)]
        board = np.where(np.arange(5) < width[:, np.newaxis], board, 52).astype(np.int16)
        stale = np.flatnonzero((self._board[tables] != board).any(axis=1))
        if stale.size:
            at = tables[stale]
            # Holdings through the board get a row of their own, never asked.
            types = holding_types(_HOLDINGS, np.minimum(board[stale], 51), width[stale], _C)
            self._type_of[at] = types
            self._board[at] = board[stale]
        return self._type_of[tables]

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Tell the BPP the hands' ends."""
        self.bpp.observe_ends(batch)
