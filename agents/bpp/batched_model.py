"""BPP's opponent model for many tables at once: showdown counts per table and opponent.

The same model as ``agents.bpp.opponent.OpponentModel`` (Carlton's specific opponent modelling:
every action of an opponent that shows down is counted under its round and its current type in
that round), kept for N tables in one array. An opponent is addressed by its *slot*, its seat
offset from the agent's seat at that table: slot ``o`` is seat ``(seat + 1 + o) % S``, so a
heads-up table has one slot and a table of S seats ``S - 1``.

Only the counts are stored, ``(table, slot, round, action class, type)`` as ``uint32`` (1,728
bytes per heads-up table); the likelihood rows ``P(action | round, type)`` that the belief reads
are derived from them when an action is absorbed, with the same arithmetic as the scalar model,
``(n_a + m p0_a) / ((n_a + n_partner) + m)``, so that they agree to the last bit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_types import street_types
from agents.bpp.hand_types import NUM_CURRENT_TYPES
from agents.bpp.opponent import PARTNER, OppAction
from envs.batched.views import HandEndBatch
from envs.rules import Action, Rules

__all__ = ["BOARD_WIDTH", "BatchedOpponentModel", "action_classes", "opponent_slots"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]

BOARD_WIDTH = np.array([0, 3, 4, 5], dtype=np.intp)
"""Board cards seen in each round."""
_PARTNER = np.array([int(p) for p in PARTNER], dtype=np.intp)
_ACTIONS = len(OppAction)
_TYPES = NUM_CURRENT_TYPES
# Enum members as plain ints: an enum attribute lookup costs more than a small array op.
_CALL, _RAISE = int(Action.CALL), int(Action.RAISE)
_PASS_CLASS, _BET_CLASS = int(OppAction.PASS), int(OppAction.BET)
_CALL_CLASS, _RAISE_CLASS = int(OppAction.CALL), int(OppAction.RAISE)


def action_classes(
    action: npt.NDArray[np.int8],
    amount: npt.NDArray[np.int32],
    street: npt.NDArray[np.intp],
    rules: Rules,
) -> npt.NDArray[np.intp]:
    """``agents.bpp.opponent.classify`` of log entries (any shape): the class, -1 for a fold."""
    sizes = np.asarray(rules.bet_sizes, dtype=np.int64)[street]
    calls = np.where(amount > 0, _CALL_CLASS, _PASS_CLASS)
    raises = np.where(amount > sizes, _RAISE_CLASS, _BET_CLASS)
    classes: npt.NDArray[np.intp] = np.where(
        action == _CALL, calls, np.where(action == _RAISE, raises, -1)
    ).astype(np.intp)
    return classes


def opponent_slots(
    seats: npt.ArrayLike, mine: npt.ArrayLike, num_seats: int
) -> npt.NDArray[np.intp]:
    """The slot of the opponent in seat ``seats`` at a table where the agent sits in ``mine``."""
    slots: npt.NDArray[np.intp] = (
        np.asarray(seats, dtype=np.intp) - np.asarray(mine, dtype=np.intp) - 1
    ) % num_seats
    return slots


class BatchedOpponentModel:
    """Counts of each table's opponents' shown-down actions by round and type, with a prior.

    Args:
        prior: The generic prior, ``(4, 27, 4)`` as ``agents.bpp.opponent.generic_prior``.
        prior_weight: Pseudo-observations of the prior at each table, ``(N,)``, all > 0.
        learn: Count showdowns; ``False`` keeps every opponent at the generic prior (and
            stores no counts).
    """

    def __init__(self, prior: Array, prior_weight: Array, *, learn: bool = True) -> None:
        if prior.shape != (4, _TYPES, _ACTIONS):
            raise ValueError(f"prior must have shape (4, 27, 4), got {prior.shape}")
        weights = np.asarray(prior_weight, dtype=np.float64)
        if weights.ndim != 1 or not (np.isfinite(weights).all() and (weights > 0).all()):
            raise ValueError("prior_weight must be one positive finite number per table")
        self.learn = learn
        self.num_tables = len(weights)
        self.prior_weight = weights
        # (round, action, type), flattened over (round, action): rows read by an action.
        self._prior_rows = np.ascontiguousarray(np.moveaxis(prior, 2, 1)).reshape(-1, _TYPES)
        self.num_slots = 0
        self._counts: npt.NDArray[np.uint32] = np.zeros((0, 4, _ACTIONS, _TYPES), np.uint32)

    def allocate(self, num_seats: int) -> None:
        """Make room for ``num_seats - 1`` opponents per table (all counts zero)."""
        self.num_slots = num_seats - 1
        shape = (self.num_tables, self.num_slots, 4, _ACTIONS, _TYPES) if self.learn else (0,)
        self._counts = np.zeros(shape, dtype=np.uint32).reshape(-1, 4, _ACTIONS, _TYPES)

    @property
    def nbytes(self) -> int:
        """Bytes of per-table state (the counts and the prior weights)."""
        return int(self._counts.nbytes + self.prior_weight.nbytes)

    def forget(self, tables: Index) -> None:
        """Drop what was learned at ``tables`` (new sessions there)."""
        if self.learn and self.num_slots:
            self._counts.reshape(self.num_tables, -1)[tables] = 0

    def counts(self, table: int, slot: int) -> npt.NDArray[np.int64]:
        """The counts of one opponent as ``OpponentModel.counts``: ``(round, type, action)``."""
        if not self.learn:
            return np.zeros((4, _TYPES, _ACTIONS), dtype=np.int64)
        cells = self._counts[table * self.num_slots + slot]
        result: npt.NDArray[np.int64] = np.moveaxis(cells, 1, 2).astype(np.int64)
        return result

    def likelihoods(self, table: int, slot: int) -> Array:
        """``P(action | type)`` of one opponent as ``OpponentModel.likelihoods``."""
        rounds = np.repeat(np.arange(4), _ACTIONS)
        classes = np.tile(np.arange(_ACTIONS), 4)
        rows = self.rows(np.full(16, table), np.full(16, slot), rounds, classes)
        return rows.reshape(4, _ACTIONS, _TYPES)

    def rows(self, tables: Index, slots: Index, rounds: Index, classes: Index) -> Array:
        """``P(class | round, type)`` over the 27 types, one row per observed action, ``(E, 27)``.

        The arithmetic is the scalar model's (module docstring); an opponent never seen at a
        showdown gets the generic table ``(m p0) / m`` exactly as the scalar one does.
        """
        prior = self._prior_rows
        m = self.prior_weight[tables][:, np.newaxis]
        if not self.learn:
            generic: Array = (m * prior[rounds * _ACTIONS + classes]) / m
            return generic
        cells = self._counts.reshape(-1, _TYPES)
        base = ((tables * self.num_slots + slots) * 4 + rounds) * _ACTIONS
        own = cells[base + classes].astype(np.float64)
        # In place, and in an order that rounds exactly as (own + m p0) / ((own + other) + m).
        numerator: Array = prior[rounds * _ACTIONS + classes]
        numerator *= m
        numerator += own
        denominator = cells[base + _PARTNER[classes]].astype(np.float64)
        denominator += own
        denominator += m
        numerator /= denominator
        return numerator

    def observe(self, batch: HandEndBatch, num_seats: int) -> int:
        """Count the actions of every opponent that showed down at the batch's tables.

        Returns the number of actions counted (``OpponentModel.observe_hand`` summed).
        """
        if not self.learn:
            return 0
        seats = np.arange(num_seats)
        mine = batch.seat.astype(np.intp)[:, np.newaxis]
        showed = (batch.shown[:, :, 0] >= 0) & (seats != mine)
        rows_shown = showed.any(axis=1).nonzero()[0]
        if len(rows_shown) == 0:
            return 0
        width = batch.log_seat.shape[1]
        log_seat = batch.log_seat[rows_shown].astype(np.intp)
        in_log = np.arange(width) < batch.log_len[rows_shown, np.newaxis]
        log_seat = np.where(in_log, log_seat, mine[rows_shown])  # past the log: own seat
        log_street = np.where(in_log, batch.log_street[rows_shown], 0).astype(np.intp)
        classes = action_classes(
            batch.log_action[rows_shown], batch.log_amount[rows_shown], log_street, batch.rules
        )
        counted = np.take_along_axis(showed[rows_shown], log_seat, axis=1) & (classes >= 0)
        hits, positions = np.nonzero(counted)
        if len(hits) == 0:
            return 0
        rows = rows_shown[hits]
        seat = log_seat[hits, positions]
        street = log_street[hits, positions]
        action = classes[hits, positions]
        holes = batch.shown[rows, seat].astype(np.uint8)
        types = street_types(holes, batch.board[rows], BOARD_WIDTH[street])[0]
        slot = opponent_slots(seat, batch.seat[rows], num_seats)
        table = batch.tables[rows].astype(np.intp)
        cell = (((table * self.num_slots + slot) * 4 + street) * _ACTIONS + action) * _TYPES
        np.add.at(self._counts.reshape(-1), cell + types, 1)
        return len(rows)
