"""The public betting tree of heads-up fixed-limit hold'em, cut into rounds and shared.

For one learner seat, one ``Rules`` and one bot policy, the tree holds every public betting
sequence. It is stored round by round: a ``Round`` is the betting of one street from its first
action to its end, with the bot's probabilities at its nodes, and its leaves are folds,
showdowns (river) or the start of the next street's round. Two rounds that are identical
(same chips at every leaf, same bot probabilities, same continuations) are stored once: against
a bot whose policy only looks at the current street, the 567 river sequences of the default
game collapse into 16 rounds per seat, one per pot size. This sharing is what makes the
best-response computation cheap, and it is automatic: the tree compares rounds, it does not
ask the policy what it depends on.

Order of play as in ``envs.game``: the button posts the small blind, acts first pre-flop and
last after the flop; the big blind counts as the first pre-flop bet; a round ends when a
player checks or calls after the other has acted in the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import NamedTuple

from agents.best_response.bots import BotPolicy, check_triple
from agents.best_response.public import ACTION_LETTERS, LearnerSeat, PublicState, Role
from envs.rules import Action, Rules, Street

__all__ = [
    "Child",
    "Outcome",
    "PublicGame",
    "Round",
    "RoundNode",
    "build_game",
    "check_heads_up",
]


class Outcome(IntEnum):
    """What follows an action."""

    NODE = 0
    """Another decision of the same round; ``Child.value`` is its node index."""
    LEARNER_FOLDS = 1
    """The hand ends; ``Child.value`` is the learner's chips in the pot, which it loses."""
    BOT_FOLDS = 2
    """The hand ends; ``Child.value`` is the bot's chips in the pot, which the learner wins."""
    SHOWDOWN = 3
    """River showdown; ``Child.value`` is each player's chips in the pot."""
    NEXT_ROUND = 4
    """The next street is dealt; ``Child.value`` is the id of its round."""


class Child(NamedTuple):
    """The result of an action: an outcome and its number (see ``Outcome``)."""

    outcome: Outcome
    value: int


class RoundNode(NamedTuple):
    """One decision of a round."""

    actor: Role
    to_call: int
    """Chips the actor must add to call; 0 means the call is a check."""
    children: tuple[Child | None, Child | None, Child | None]
    """What each action (indexed by ``Action``) leads to; ``None`` if it is illegal."""
    probabilities: tuple[float, float, float] | None
    """The bot's (fold, call, raise) probabilities at its nodes; ``None`` at the learner's."""

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """The actions with a child, in ``Action`` order."""
        return tuple(a for a in Action if self.children[a] is not None)


@dataclass(frozen=True)
class Round:
    """The betting of one street, node 0 first and every child after its parent."""

    street: Street
    nodes: tuple[RoundNode, ...]


@dataclass(frozen=True)
class PublicGame:
    """The shared rounds of the whole tree for one seat, rules and bot policy."""

    seat: LearnerSeat
    rules: Rules
    policy_name: str
    rounds: tuple[tuple[Round, ...], ...]
    """``rounds[street][id]``; pre-flop has exactly one round, the root."""
    preflop_exits: tuple[tuple[str, int], ...]
    """Every pre-flop betting sequence that reaches the flop (ACPC letters) and its flop round."""

    def locate(self, moves: Sequence[tuple[Role, Action]]) -> tuple[Street, int, int]:
        """Follow public moves from the start of the hand: ``(street, round id, node index)``.

        Raises:
            ValueError: if a move is made by the wrong player, is illegal, or follows the end of
                the hand in this tree.
        """
        street, round_id, index = Street.PREFLOP, 0, 0
        for number, (role, action) in enumerate(moves):
            node = self.rounds[street][round_id].nodes[index]
            child = node.children[action]
            if node.actor != role or child is None:
                raise ValueError(
                    f"move {number} ({role.name.lower()} {action.name.lower()}) does not fit "
                    f"the {self.rules} tree at {street.name.lower()} for seat {self.seat.label}"
                )
            if child.outcome == Outcome.NODE:
                index = child.value
            elif child.outcome == Outcome.NEXT_ROUND:
                street, round_id, index = Street(street + 1), child.value, 0
            else:
                raise ValueError(f"the hand is over after move {number}; more moves were given")
        return street, round_id, index


def check_heads_up(rules: Rules) -> None:
    """``ValueError`` unless ``rules`` are heads-up with stacks that never bind."""
    if rules.num_seats != 2:
        raise ValueError(f"best responses are heads-up: rules have {rules.num_seats} seats, not 2")
    if rules.stacks is not None and min(rules.stacks) < rules.max_commitment:
        raise ValueError(
            f"best responses assume stacks that never bind (at least {rules.max_commitment} "
            f"chips each), got {rules.stacks}"
        )


@lru_cache(maxsize=64)
def build_game(policy: BotPolicy, rules: Rules, seat: LearnerSeat) -> PublicGame:
    """Build (and cache) the shared rounds of the tree; ``ValueError`` on bad rules/policy."""
    check_heads_up(rules)
    builder = _Builder(policy, rules, seat)
    blinds = [0, 0]
    button, big_blind = (
        (Role.LEARNER, Role.BOT) if seat is LearnerSeat.BUTTON else (Role.BOT, Role.LEARNER)
    )
    blinds[button], blinds[big_blind] = rules.small_blind, rules.big_blind
    root = builder.round(Street.PREFLOP, (blinds[0], blinds[1]), ())
    assert root == 0
    return PublicGame(
        seat=seat,
        rules=rules,
        policy_name=policy.name,
        rounds=tuple(tuple(rounds) for rounds in builder.rounds),
        preflop_exits=tuple(builder.preflop_exits),
    )


class _Builder:
    """Walks every public sequence once, interning identical rounds."""

    def __init__(self, policy: BotPolicy, rules: Rules, seat: LearnerSeat) -> None:
        self.policy = policy
        self.rules = rules
        self.bot_is_button = seat is LearnerSeat.BIG_BLIND
        self.rounds: list[list[Round]] = [[] for _ in Street]
        self.ids: list[dict[Round, int]] = [{} for _ in Street]
        self.preflop_exits: list[tuple[str, int]] = []

    def first_actor(self, street: Street) -> Role:
        button_first = street == Street.PREFLOP
        return Role.BOT if self.bot_is_button == button_first else Role.LEARNER

    def round(self, street: Street, chips: tuple[int, int], history: tuple[str, ...]) -> int:
        """The id of the round starting with ``chips`` in the pot, built if new."""
        nodes: list[RoundNode | None] = []
        opening_bets = 1 if street == Street.PREFLOP else 0
        self._visit(
            nodes, street, self.first_actor(street), chips, opening_bets, False, "", history
        )
        built = Round(street, tuple(node for node in nodes if node is not None))
        assert len(built.nodes) == len(nodes)
        known = self.ids[street]
        if built not in known:
            known[built] = len(self.rounds[street])
            self.rounds[street].append(built)
        return known[built]

    def _visit(
        self,
        nodes: list[RoundNode | None],
        street: Street,
        actor: Role,
        chips: tuple[int, int],
        num_bets: int,
        other_acted: bool,
        actions: str,
        history: tuple[str, ...],
    ) -> Child:
        index = len(nodes)
        nodes.append(None)
        other = Role(1 - actor)
        to_call = chips[other] - chips[actor]
        can_raise = num_bets < self.rules.max_bets[street]
        legal = tuple(
            a
            for a in Action
            if (a != Action.FOLD or to_call > 0) and (a != Action.RAISE or can_raise)
        )
        children: list[Child | None] = [None, None, None]
        for action in legal:
            sequence = actions + ACTION_LETTERS[action]
            if action == Action.FOLD:
                folder = Outcome.LEARNER_FOLDS if actor == Role.LEARNER else Outcome.BOT_FOLDS
                children[action] = Child(folder, chips[actor])
                continue
            added = to_call + (self.rules.bet_size(street) if action == Action.RAISE else 0)
            after = (chips[0] + added, chips[1]) if actor == 0 else (chips[0], chips[1] + added)
            if action == Action.CALL and other_acted:
                children[action] = self._round_end(street, after, (*history, sequence))
            else:
                bets = num_bets + (action == Action.RAISE)
                children[action] = self._visit(
                    nodes, street, other, after, bets, True, sequence, history
                )
        probabilities = None
        if actor == Role.BOT:
            state = PublicState(
                street=street,
                actor=actor,
                bot_is_button=self.bot_is_button,
                rounds=(*history, actions),
                contributions=chips,
                num_bets=num_bets,
                to_call=to_call,
                legal_actions=legal,
            )
            probabilities = self.policy.probabilities(state)
            self._check(probabilities, legal, state)
        nodes[index] = RoundNode(
            actor, to_call, (children[0], children[1], children[2]), probabilities
        )
        return Child(Outcome.NODE, index)

    def _round_end(
        self, street: Street, chips: tuple[int, int], history: tuple[str, ...]
    ) -> Child:
        assert chips[0] == chips[1]
        if street == Street.RIVER:
            return Child(Outcome.SHOWDOWN, chips[0])
        next_id = self.round(Street(street + 1), chips, history)
        if street == Street.PREFLOP:
            self.preflop_exits.append((history[0], next_id))
        return Child(Outcome.NEXT_ROUND, next_id)

    def _check(
        self, probabilities: tuple[float, ...], legal: tuple[Action, ...], state: PublicState
    ) -> None:
        where = f"policy {self.policy.name!r} at {'/'.join(state.rounds)!r}"
        check_triple(probabilities, where)
        for action in Action:
            if action not in legal and probabilities[action] > 0.0:
                raise ValueError(f"{where}: gives probability to the illegal {action.name}")
