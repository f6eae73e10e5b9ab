"""The opponent's answers to the raise we probed, kept until we make it.

At each of its decisions where it may raise, the local best response asks how the opponent
would answer its raise (Lisy and Bowling 2017, Algorithm 1: fp and the range that calls).
When it then does raise, the opponent's next decision is at that very view: the same hand,
the same public log, our raise last. Its answer there is a function of that view and of what
its policy learned in earlier hands (nothing is learned within a hand), so the probe's answer
is the one Bayes' rule needs, and ``ProbeMemo`` keeps it per table instead of asking again
(half or more of the opponent's decisions follow a raise of the local best response).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.lbr.batched_ranges import RangeAnswer
from agents.strength.holdings import NUM_HOLDINGS
from envs.batched.views import DecisionBatch
from envs.rules import Action

__all__ = ["ProbeMemo"]

Index = npt.NDArray[np.intp]
_RAISE = int(Action.RAISE)


class ProbeMemo:
    """Per table, the answer to our last probed raise and the view it was asked at.

    Answers without per-holding rows (a card-independent opponent's) are not kept: asking
    for them again costs nothing.

    Args:
        num_tables: The local best response's tables.
    """

    def __init__(self, num_tables: int) -> None:
        self._hand = np.zeros(num_tables, dtype=np.int64)
        self._length = np.full(num_tables, -1, dtype=np.int64)  # -1: nothing kept
        self._rows = np.zeros((num_tables, 0, 3))
        self._group: npt.NDArray[np.integer] = np.zeros((num_tables, NUM_HOLDINGS), dtype=np.int8)

    @property
    def nbytes(self) -> int:
        """Bytes kept (all tables)."""
        return sum(a.nbytes for a in (self._hand, self._length, self._rows, self._group))

    def forget(self, tables: Index) -> None:
        """Drop what ``tables`` keep (a new session may deal hand ids again)."""
        self._length[tables] = -1

    def keep(self, tables: Index, views: DecisionBatch, answer: RangeAnswer) -> None:
        """The opponent's ``answer`` at ``views`` (after our probed raise) at ``tables``."""
        if answer.group is None:
            return
        group = answer.group
        # The policy's rows and row numbers, sized and typed once (copied as they come).
        if self._rows.shape[1] != answer.rows.shape[1] or self._group.dtype != group.dtype:
            self._rows = np.zeros((len(self._length), answer.rows.shape[1], 3))
            self._group = np.zeros((len(self._length), NUM_HOLDINGS), dtype=group.dtype)
            self._length[:] = -1
        self._rows[tables] = answer.rows
        self._group[tables] = group
        self._hand[tables] = views.hand_id
        self._length[tables] = views.log_len

    def kept(self, tables: Index, views: DecisionBatch) -> npt.NDArray[np.bool_]:
        """``(k,)``: where the opponent's decision ``views[i]`` at ``tables[i]`` is the one
        we probed: the same hand and log length, our raise last."""
        length = views.log_len.astype(np.int64)
        same: npt.NDArray[np.bool_] = (self._length[tables] == length) & (
            self._hand[tables] == views.hand_id
        )
        if not same.any():
            return same
        logs = views.logs()
        last = np.maximum(length - 1, 0)
        ours = logs.seat[logs.rows, last] != views.seat
        raised = logs.action[logs.rows, last] == _RAISE
        result: npt.NDArray[np.bool_] = same & ours & raised  # kept lengths are 1 or more
        return result

    def answer(self, tables: Index) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.integer]]:
        """What ``tables`` keep: the rows of probabilities and each holding's row, as
        ``RangeAnswer``'s fields (``(k, G, 3)`` and ``(k, 1326)``)."""
        return self._rows[tables], self._group[tables]
