"""The local best response's look-ahead over the whole public betting tree, for an opponent
whose actions ignore its cards (``call``, ``raise``, ``random``, ``mix:...``).

Against such an opponent the range never changes after the deal and the board (its actions
carry no information), and its probability of each action is known at every public state
(``agents.best_response.bots``). So the rest of the hand, seen with our equity ``e`` against
the range held fixed (its expectation over the cards to come), is a one-player game on the
public tree of ``agents.best_response.tree``: at its own nodes the opponent draws from its
known probabilities, at ours we take the action of largest value, a fold by either player
ends the hand, and a river showdown with ``c`` chips each is worth ``(2e - 1) c``. Its value
is exact for the best continuation that does not look at later cards (ours, in the spirit of
Lisy and Bowling 2017's one-step look-ahead, Algorithm 1, carried to the end of the hand):
every plan of that kind is playable, and the local best response re-decides at each decision
with its new cards, so it does at least as well as such a plan. ``Lookahead.PUBLIC_TREE``.

The shared rounds of the tree (288 nodes in the default game, per seat) are valued bottom-up
for a whole vector of equities at once, so the scalar agent (one row) and its batched twin
compute the same numbers with the same code.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from agents.best_response.bots import BotPolicy, parse_policy
from agents.best_response.public import LearnerSeat, Role
from agents.best_response.tree import Child, Outcome, PublicGame, build_game
from agents.lbr.range_policy import CardIndependent, RangePolicy
from envs.rules import Action, Rules, Street

__all__ = ["PublicTree", "card_independent_policy", "learner_seat", "public_moves"]

Floats = npt.NDArray[np.float64]
Moves = Sequence[tuple[Role, Action]]


def card_independent_policy(opponent: RangePolicy) -> BotPolicy:
    """The public-state policy of a ``CardIndependent`` opponent, found by its name (``call``,
    ``raise``, ``random``, ``mix:...``); ``ValueError`` for any other opponent."""
    if not isinstance(opponent, CardIndependent):
        raise ValueError(
            f"the public-tree look-ahead needs an opponent whose actions ignore its cards "
            f"(call, raise, random, mix:...); {opponent.name!r} is not one"
        )
    try:
        return parse_policy(opponent.name)
    except ValueError as error:
        raise ValueError(f"the public-tree look-ahead: no public policy for it: {error}") from None


def learner_seat(seat: int, button: int) -> LearnerSeat:
    """Our seat in the tree's terms: the button or the big blind (heads-up)."""
    return LearnerSeat.BUTTON if seat == button else LearnerSeat.BIG_BLIND


def public_moves(
    seats: Sequence[int], actions: Sequence[int], ours: int
) -> list[tuple[Role, Action]]:
    """A public log (the actor and the action of each move) in the tree's terms."""
    return [
        (Role.LEARNER if seat == ours else Role.BOT, Action(action))
        for seat, action in zip(seats, actions, strict=True)
    ]


class PublicTree:
    """The public betting trees of one card-independent policy in one game, both seats.

    Args:
        policy: The opponent's policy (``agents.best_response.bots``).
        rules: The game (heads-up, stacks that never bind).

    Raises:
        ValueError: if the rules are not heads-up or stacks may bind.
    """

    def __init__(self, policy: BotPolicy, rules: Rules) -> None:
        self.policy = policy
        self.rules = rules
        self.games = {seat: build_game(policy, rules, seat) for seat in LearnerSeat}

    def values(
        self,
        seats: Sequence[LearnerSeat],
        moves: Sequence[Moves],
        equity: Floats,
        contributions: Floats,
    ) -> Floats:
        """``(k, 3)`` each action's value relative to folding now (NaN where illegal; a fold's
        is 0) at the decision of row i: we sit in ``seats[i]``, the hand's public ``moves[i]``
        were made, our equity against the range is ``equity[i]``, and we have put
        ``contributions[i]`` chips in the pot."""
        k = len(seats)
        result = np.full((k, 3), np.nan)
        for seat, game in self.games.items():
            rows = [i for i in range(k) if seats[i] is seat]
            if not rows:
                continue
            index = np.asarray(rows, dtype=np.intp)
            nodes = _node_values(game, equity[index])
            for column, row in enumerate(rows):
                street, round_id, node_index = game.locate(moves[row])
                node = game.rounds[street][round_id].nodes[node_index]
                if node.actor != Role.LEARNER:
                    raise ValueError(f"the public moves leave the opponent to act: {moves[row]}")
                for action, child in enumerate(node.children):
                    if child is not None:
                        value = _child(nodes, street, round_id, child, equity[index])[column]
                        result[row, action] = value + contributions[row]
        return result


NodeValues = list[list[Floats]]
"""``values[street][round id]``: ``(nodes, k)`` the learner's net chips over the whole hand."""


def _node_values(game: PublicGame, equity: Floats) -> NodeValues:
    """Every node's value at each equity (module docstring), rounds valued river first."""
    values: NodeValues = [[] for _ in Street]
    for street in reversed(Street):
        for round_id, played in enumerate(game.rounds[street]):
            table = np.empty((len(played.nodes), len(equity)))
            values[street].append(table)
            for index in reversed(range(len(played.nodes))):  # children come after parents
                node = played.nodes[index]
                kids = [
                    (action, _child(values, street, round_id, child, equity))
                    for action, child in enumerate(node.children)
                    if child is not None
                ]
                if node.probabilities is None:
                    table[index] = np.max([value for _, value in kids], axis=0)
                else:
                    chances = node.probabilities
                    table[index] = np.sum([chances[a] * value for a, value in kids], axis=0)
    return values


def _child(values: NodeValues, street: Street, round_id: int, child: Child, e: Floats) -> Floats:
    """The learner's net chips after an action leading to ``child``."""
    outcome, number = child
    if outcome == Outcome.NODE:
        here: Floats = values[street][round_id][number]
        return here
    if outcome == Outcome.NEXT_ROUND:
        start: Floats = values[street + 1][number][0]
        return start
    chips = np.full(len(e), float(number))
    if outcome == Outcome.LEARNER_FOLDS:
        return -chips
    if outcome == Outcome.BOT_FOLDS:
        return chips
    showdown: Floats = (2.0 * e - 1.0) * chips
    return showdown
