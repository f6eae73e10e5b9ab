"""BPP's opponent model for many tables at once: showdown counts per table and opponent.

The same model as ``agents.bpp.opponent.OpponentModel`` (Carlton's specific opponent modelling:
every action of an opponent that shows down is counted under its round and its current type in
that round), kept for N tables in one array. An opponent is addressed by its *slot*, its seat
offset from the agent's seat at that table: slot ``o`` is seat ``(seat + 1 + o) % S``, so a
heads-up table has one slot and a table of S seats ``S - 1``.

Only the counts are stored, ``(table, slot, round, action class, type)`` as ``uint32`` (1,728
bytes per heads-up table); the likelihood rows ``P(action | round, type)`` that the belief reads
are derived from them when an action is absorbed (``agents.bpp.batched_kernels``), with the
same arithmetic as the scalar model, ``(n_a + m p0_a) / ((n_a + n_partner) + m)``, so that they
agree to the last bit. Showdowns are counted by the compiled loop ``count_showdowns``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_kernels import count_showdowns
from agents.bpp.batched_types import shown_types
from agents.bpp.hand_types import NUM_CURRENT_TYPES
from agents.bpp.opponent import PARTNER, OppAction
from agents.jit import readonly
from envs.batched.views import ActionLogs, HandEndBatch
from envs.rules import Rules

__all__ = ["BatchedOpponentModel", "log_arrays", "opponent_slots"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
_Log = npt.NDArray[Any]
LogArrays = tuple[_Log, _Log, _Log, _Log, _Log, _Log]

_PARTNER = np.array([int(p) for p in PARTNER], dtype=np.intp)
_ACTIONS = len(OppAction)
_TYPES = NUM_CURRENT_TYPES


def opponent_slots(
    seats: npt.ArrayLike, mine: npt.ArrayLike, num_seats: int
) -> npt.NDArray[np.intp]:
    """The slot of the opponent in seat ``seats`` at a table where the agent sits in ``mine``."""
    slots: npt.NDArray[np.intp] = (
        np.asarray(seats, dtype=np.intp) - np.asarray(mine, dtype=np.intp) - 1
    ) % num_seats
    return slots


def log_arrays(logs: ActionLogs) -> LogArrays:
    """A batch's ``ActionLogs`` as the kernels read them (one dtype each: one compilation)."""
    rows, length, street, seat, action, amount = logs
    return (
        readonly(rows, np.intp),
        readonly(length, np.int16),
        readonly(street, np.int8),
        readonly(seat, np.int8),
        readonly(action, np.int8),
        readonly(amount, np.int32),
    )


class BatchedOpponentModel:
    """Counts of each table's opponents' shown-down actions by round and type, with a prior.

    Args:
        prior: The generic prior, ``(4, 27, 4)`` as ``agents.bpp.opponent.generic_prior``.
        prior_weight: Pseudo-observations of the prior at each table, ``(N,)``, all > 0.
        learn: Count showdowns; ``False`` keeps every opponent at the generic prior (and
            stores one table of zero counts for all).
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
        self._weights = readonly(weights, np.float64)  # the kernels' view
        # (round, action, type), flattened over (round, action): rows read by an action.
        self.prior_rows = readonly(np.moveaxis(prior, 2, 1).reshape(-1, _TYPES), np.float64)
        """The generic prior ``P(class | round, type)``, row ``round * 4 + class``."""
        self.num_slots = 0
        self._counts: npt.NDArray[np.uint32] = np.zeros((0, 0, 4, _ACTIONS, _TYPES), np.uint32)
        self._bet_sizes: dict[tuple[int, ...], npt.NDArray[np.int64]] = {}

    def allocate(self, num_seats: int) -> None:
        """Make room for ``num_seats - 1`` opponents per table (all counts zero)."""
        self.num_slots = num_seats - 1
        tables = self.num_tables if self.learn else 1  # not learning: one table of zeros
        self._counts = np.zeros((tables, self.num_slots, 4, _ACTIONS, _TYPES), dtype=np.uint32)

    @property
    def table_counts(self) -> npt.NDArray[np.uint32]:
        """The counts ``(table, slot, round, class, type)`` the kernels read and write (one
        table of zeros when not learning)."""
        return self._counts

    @property
    def kernel_weights(self) -> Array:
        """``prior_weight`` as the kernels read it (read-only)."""
        return self._weights

    def bet_sizes(self, rules: Rules) -> npt.NDArray[np.int64]:
        """The rules' bet size per round, as the kernels read them."""
        key = rules.bet_sizes
        sizes = self._bet_sizes.get(key)
        if sizes is None:
            sizes = self._bet_sizes[key] = readonly(key, np.int64)
        return sizes

    @property
    def nbytes(self) -> int:
        """Bytes of per-table state (the counts and the prior weights)."""
        return int(self._counts.nbytes + self.prior_weight.nbytes)

    def forget(self, tables: Index) -> None:
        """Drop what was learned at ``tables`` (new sessions there)."""
        if self.learn and self.num_slots:
            self._counts[tables] = 0

    def counts(self, table: int, slot: int) -> npt.NDArray[np.int64]:
        """The counts of one opponent as ``OpponentModel.counts``: ``(round, type, action)``."""
        if not self.learn:
            return np.zeros((4, _TYPES, _ACTIONS), dtype=np.int64)
        cells = self._counts[table, slot]
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
        prior = self.prior_rows
        m = self.prior_weight[tables][:, np.newaxis]
        if not self.learn:
            generic: Array = (m * prior[rounds * _ACTIONS + classes]) / m
            return generic
        cells = self._counts.reshape(-1, _TYPES)
        base = ((tables * self.num_slots + slots) * 4 + rounds) * _ACTIONS
        own = cells[base + classes].astype(np.float64)
        # In place, and in an order that rounds exactly as (own + m p0) / ((own + other) + m).
        numerator: Array = prior[rounds * _ACTIONS + classes]  # a copy
        numerator *= m
        numerator += own
        denominator = cells[base + _PARTNER[classes]].astype(np.float64)
        denominator += own
        denominator += m
        numerator /= denominator
        return numerator

    def observe(self, batch: HandEndBatch) -> int:
        """Count the actions of every opponent that showed down at the batch's tables.

        Returns the number of actions counted (``OpponentModel.observe_hand`` summed).
        """
        if not self.learn or len(batch.tables) == 0:
            return 0
        shown = readonly(batch.shown, np.int16)
        seat = readonly(batch.seat, np.int8)
        rows = np.flatnonzero((shown[:, :, 0] >= 0).any(axis=1))
        if len(rows) == 0:
            return 0
        counted: int = count_showdowns(
            rows,
            readonly(batch.tables, np.intp),
            seat,
            *log_arrays(batch.logs()),
            self.bet_sizes(batch.rules),
            shown_types(shown, batch.board, seat, rows),
            self._counts,
        )
        return counted
