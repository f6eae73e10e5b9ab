"""Rounds as flat arrays, for compiled backups: the same backward induction as ``backup``.

A compiled loop cannot walk ``Round`` objects, so the rounds of one street, for every seat,
are laid out as one table of nodes: per node its actor, whether it faces a bet, and per action
what follows (nothing, a node of the same round, a fixed number of chips, or a row of the next
street's values) with the bot's probability. ``agents.best_response.turn_kernels`` runs it
over blocks of holdings, doing what ``agents.best_response.backup.backup`` does per array.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.best_response.public import Role
from agents.best_response.tree import Outcome, Round
from envs.rules import Street

__all__ = ["CHIPS", "NEXT", "NODE", "NONE", "RoundProgram", "round_program"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

NONE, NODE, CHIPS, NEXT = 0, 1, 2, 3
"""What follows an action in ``RoundProgram.kind``."""


@dataclass(frozen=True, eq=False)
class RoundProgram:
    """The rounds of one street laid out flat (see the module)."""

    starts: IntArray
    """``(R + 1,)`` first node of each round; round ``k``'s nodes are ``starts[k]:starts[k+1]``,
    node 0 its root, children after their parents."""
    bot: npt.NDArray[np.bool_]
    """Per node: the bot acts (else the learner)."""
    facing: npt.NDArray[np.bool_]
    """Per node: the actor faces a bet (its call is counted)."""
    kind: IntArray
    """``(N, 3)`` per node and ``Action``: ``NONE``, ``NODE``, ``CHIPS`` or ``NEXT``."""
    ref: IntArray
    """``(N, 3)`` the child's node index within its round (``NODE``), the first of its
    ``quantities`` rows of next-street values (``NEXT``), or its entry of ``chips``
    (``CHIPS``)."""
    chips: Array
    """The learner's chips won (lost when negative) at the hand's ends, 0.0 first (the
    action counts of an end)."""
    probability: Array
    """``(N, 3)`` the bot's probabilities at its nodes."""


def round_program(
    rounds: Sequence[Round], next_rows: Sequence[int], quantities: int
) -> RoundProgram:
    """Lay out ``rounds``; ``next_rows[k]`` is the first next-street row of round ``k``'s seat
    (its next round ``j`` reads rows ``next_rows[k] + j * quantities`` onwards)."""
    starts = [0]
    bot, facing, kind, ref, probability = [], [], [], [], []
    chips: dict[float, int] = {0.0: 0}
    for round_, first_row in zip(rounds, next_rows, strict=True):
        if round_.street == Street.RIVER:
            raise ValueError("river rounds end in showdowns: they are tabulated, not run")
        for node in round_.nodes:
            bot.append(node.actor == Role.BOT)
            facing.append(node.to_call > 0)
            probability.append(node.probabilities or (0.0, 0.0, 0.0))
            kinds, refs = [NONE] * 3, [0] * 3
            for action, child in enumerate(node.children):
                if child is None:
                    continue
                outcome, number = child
                if outcome == Outcome.NODE:
                    kinds[action], refs[action] = NODE, number
                elif outcome == Outcome.NEXT_ROUND:
                    kinds[action], refs[action] = NEXT, first_row + number * quantities
                else:
                    won = outcome == Outcome.BOT_FOLDS
                    amount = float(number if won else -number)
                    kinds[action], refs[action] = CHIPS, chips.setdefault(amount, len(chips))
            kind.append(kinds)
            ref.append(refs)
        starts.append(starts[-1] + len(round_.nodes))
    return RoundProgram(
        starts=np.array(starts, dtype=np.int64),
        bot=np.array(bot, dtype=np.bool_),
        facing=np.array(facing, dtype=np.bool_),
        kind=np.array(kind, dtype=np.int64).reshape(-1, 3),
        ref=np.array(ref, dtype=np.int64).reshape(-1, 3),
        chips=np.array(list(chips), dtype=np.float64),
        probability=np.array(probability, dtype=np.float64).reshape(-1, 3),
    )


def source_rows(
    program: RoundProgram, quantities: int, following: int, row_of: IntArray | None = None
) -> tuple[IntArray, int]:
    """Where each child's values sit in one buffer of rows: the ``following`` next-street
    rows (next-street row ``i`` at ``row_of[i]`` if given: identical rows stored once), then
    one row per chip amount of ``program.chips``, a row of minus infinity (what an illegal
    action is worth to the learner), then the nodes of the round being backed up,
    ``quantities`` rows each.

    Returns:
        ``(N, 3, quantities)`` row of each node's child (per ``Action``) and quantity (the
        zero row where there is no child), and the first node row.
    """
    node_rows = following + len(program.chips) + 1
    q = np.arange(quantities)
    rows = np.full((len(program.bot), 3, quantities), following, dtype=np.int64)
    node, after = program.kind == NODE, program.kind == NEXT
    rows[node] = node_rows + program.ref[node][:, np.newaxis] * quantities + q
    rows[after] = program.ref[after][:, np.newaxis] + q
    if row_of is not None:
        rows[after] = row_of[rows[after]]
    ends = program.kind == CHIPS
    rows[ends, 0] = following + program.ref[ends]
    return rows, node_rows
