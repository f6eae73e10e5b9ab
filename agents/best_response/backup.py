"""Backward induction over one round, for many information sets at once.

Against a card-independent bot, the value of a round for the learner is a backward induction
on its nodes: the learner takes the best child, the bot averages its children with its
probabilities. Everything the learner knows about the cards sits in the leaf values (the
showdown equity, the continuation values of the next street), so one pass over the round's
few nodes handles arrays of any shape at once: all 1,981 river equities, all
(turn card, holding) pairs of a flop, all 1,326 holdings pre-flop.

Quantities are stacked on a first axis of length 1 (the value in chips) or 3 (the value, then
the expected numbers of post-flop bets/raises and of post-flop calls of a positive amount by
the learner, which give its aggression factor).

Ties: when actions are worth the same within ``tolerance`` chips the learner prefers
check/call, then bet/raise, then fold, so that the policy is the same whichever way the values
were summed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.best_response.public import Role
from agents.best_response.tree import Child, Outcome, Round, RoundNode
from envs.rules import Action, Street

__all__ = ["QUANTITIES", "Backup", "backup", "constant"]

Array = npt.NDArray[np.float64]
Choices = npt.NDArray[np.int8]

QUANTITIES = 3
"""Value, post-flop bets and raises, post-flop calls (see the module docstring)."""
_RAISES, _CALLS = 1, 2
_PREFERENCE = (Action.CALL, Action.RAISE, Action.FOLD)


class Backup(NamedTuple):
    """The result of ``backup``: the round's value at its root and the learner's choices."""

    root: Array
    """``(quantities, *shape)`` at node 0."""
    choices: dict[int, Choices]
    """The learner's action (``Action`` values, ``int8``) at each of its nodes, per entry."""


@lru_cache(maxsize=1024)
def constant(value: float, quantities: int, ndim: int) -> Array:
    """A leaf worth ``value`` chips with no further actions, broadcastable to any shape.

    Cached and read-only: the same folds recur in every round.
    """
    leaf = np.zeros((quantities,) + (1,) * ndim)
    leaf[0] = value
    leaf.flags.writeable = False
    return leaf


def backup(
    round_: Round,
    *,
    next_round: Callable[[int], Array] | None = None,
    showdown: Callable[[int], Array] | None = None,
    quantities: int = 1,
    ndim: int = 1,
    fixed: Mapping[int, Choices] | None = None,
    tolerance: float = 1e-9,
) -> Backup:
    """Values of every entry at the root of ``round_``, and the learner's choices.

    Args:
        round_: The round.
        next_round: Values ``(quantities, *shape)`` at the start of a next-street round id.
        showdown: Values ``(quantities, *shape)`` of a river showdown with this many chips each.
        quantities: 1 (value only) or ``QUANTITIES`` (with the action counts).
        ndim: Number of entry axes of the arrays (for constant leaves).
        fixed: Learner choices to follow instead of maximising (evaluating a given policy), by
            node index; nodes not listed are maximised.
        tolerance: Chips within which actions count as equally good.
    """
    counted = round_.street != Street.PREFLOP and quantities > 1
    values: list[Array | None] = [None] * len(round_.nodes)
    choices: dict[int, Choices] = {}
    for index in range(len(round_.nodes) - 1, -1, -1):
        node = round_.nodes[index]
        kids = [
            None
            if child is None
            else _leaf(child, values, next_round, showdown, (quantities, ndim))
            for child in node.children
        ]
        if node.actor == Role.BOT:
            values[index] = _average(node, kids)
            continue
        chosen = fixed.get(index) if fixed is not None else None
        if chosen is None:
            chosen = _best(kids, tolerance)
        choices[index] = chosen
        values[index] = _select(node, kids, chosen, counted)
    root = values[0]
    assert root is not None
    return Backup(root, choices)


def _leaf(
    child: Child,
    values: list[Array | None],
    next_round: Callable[[int], Array] | None,
    showdown: Callable[[int], Array] | None,
    layout: tuple[int, int],
) -> Array:
    outcome, number = child
    if outcome == Outcome.NODE:
        value = values[number]
        assert value is not None, "children come after their parents"
        return value
    if outcome == Outcome.LEARNER_FOLDS:
        return constant(-number, *layout)
    if outcome == Outcome.BOT_FOLDS:
        return constant(number, *layout)
    if outcome == Outcome.SHOWDOWN:
        if showdown is None:
            raise ValueError("this round ends in showdowns: pass showdown=")
        return showdown(number)
    if next_round is None:
        raise ValueError("this round continues on the next street: pass next_round=")
    return next_round(number)


def _average(node: RoundNode, kids: list[Array | None]) -> Array:
    assert node.probabilities is not None
    total: Array | None = None
    for probability, kid in zip(node.probabilities, kids, strict=True):
        if probability > 0.0:
            assert kid is not None
            term = probability * kid
            total = term if total is None else total + term
    assert total is not None
    return total


def _best(kids: list[Array | None], tolerance: float) -> Choices:
    """The preferred action among those within ``tolerance`` of the best value."""
    legal = [a for a in _PREFERENCE if kids[a] is not None]
    values = [kid[0] for kid in (kids[a] for a in legal) if kid is not None]
    top = values[0]
    for value in values[1:]:
        top = np.maximum(top, value)
    threshold = top - tolerance
    chosen = np.full(np.shape(top), legal[-1], dtype=np.int8)
    for action, value in zip(legal[-2::-1], values[-2::-1], strict=True):
        chosen = np.where(value >= threshold, np.int8(action), chosen)
    return chosen


def _select(node: RoundNode, kids: list[Array | None], chosen: Choices, counted: bool) -> Array:
    legal = node.legal_actions
    first = kids[legal[0]]
    assert first is not None
    out = np.broadcast_to(first, np.broadcast_shapes(first.shape, (1, *chosen.shape))).copy()
    for action in legal[1:]:
        kid = kids[action]
        assert kid is not None
        np.copyto(out, kid, where=(chosen == action)[np.newaxis])
    if counted:
        out[_RAISES] += chosen == Action.RAISE
        if node.to_call > 0:
            out[_CALLS] += chosen == Action.CALL
    return out
