"""Playable best responses (``br-call``, ``br-raise``, ``br-random``) and policy bots.

``BestResponseAgent`` plays the heads-up best response to a card-independent bot, so that the
computed value can be checked by the match runner. ``PolicyBot`` plays a ``BotPolicy`` itself
(for ``mix:`` opponents, which have no registered agent).
"""

from __future__ import annotations

import logging
import sys

import numpy as np

from agents.base import Agent, legal_actions
from agents.best_response.bots import CALL, RAISE, RANDOM, BotPolicy, parse_policy
from agents.best_response.flop_reach import FlopReachValues, cache_path, game_key, shipped_path
from agents.best_response.public import LearnerSeat, PublicState, Role
from agents.best_response.solve import compute_best_response
from agents.best_response.strategy import SeatStrategy
from agents.best_response.tree import check_heads_up
from envs.rules import Action, Rules
from envs.view import PlayerView

__all__ = ["BestResponseAgent", "PolicyBot", "br_call", "br_raise", "br_random", "load_table"]

logger = logging.getLogger(__name__)


def load_table(policy: BotPolicy, rules: Rules, *, compute: bool = True) -> FlopReachValues:
    """The flop-reach values (the pre-flop table) of ``policy`` in ``rules``: shipped, cached,
    or computed and cached.

    Computing takes the whole exact computation (about a CPU-minute; a progress bar shows on
    stderr); ``compute=False`` raises ``LookupError`` instead.
    """
    check_heads_up(rules)
    shipped, cached = shipped_path(policy.name), cache_path(policy.name, rules)
    for path in (shipped, cached):
        if path is None or not path.exists():
            continue
        try:
            table = FlopReachValues.load(path)
        except (OSError, ValueError) as error:
            if path == shipped:
                raise  # a broken shipped table is a bug, not something to paper over
            logger.warning("ignoring the unusable cached table %s: %s", path, error)
            continue
        if table.policy == policy.name and game_key(table.rules) == game_key(rules):
            return table
    if not compute:
        raise LookupError(f"no pre-flop table for {policy.name!r} in {rules}")
    logger.warning(
        "computing the best response to %r in %s once (about a CPU-minute), then caching it",
        policy.name,
        rules,
    )
    result = compute_best_response(policy, rules, progress=sys.stderr.isatty())
    table = FlopReachValues.from_result(result)
    target = cache_path(policy.name, rules)
    if target is None:
        logger.warning("no cache directory: the best-response table is kept in memory only")
    else:
        try:
            table.save(target)
        except OSError as error:
            logger.warning("cannot cache the best-response table at %s: %s", target, error)
    return table


class BestResponseAgent(Agent):
    """Agent card: the heads-up best response to a card-independent bot, deterministic.

    It maximises its expected chips against ``policy`` assuming the opponent plays it: against
    a bot whose actions ignore its cards the opponent's holding is uniform over the holdings
    consistent with the visible cards, so the best response is an expectimax
    (``agents.best_response.solve``). Pre-flop it reads each holding's value of reaching the
    flop from a table (shipped for ``call``, ``raise`` and ``random`` in the default game and
    in ACPC's, which is the same game times five; computed once and cached otherwise); after
    the flop it computes its decision exactly for its own cards (about 10 ms at the first flop
    decision of a hand, about 1 ms later). It plays every public state of the tree, including
    those the bot would never reach.

    Heads-up only: at a table of three or more seats there is no such best response, and it
    checks or calls (logging a warning once). Stacks must never bind (``ValueError``).

    Args:
        policy: The bot's policy (``agents.best_response.bots``).
        name: Registry name.
        table: The pre-flop table to play from (default: ``load_table``, on first use).
        rng: Unused (the agent is deterministic); accepted for the common contract.
    """

    name = "best-response"

    def __init__(
        self,
        policy: BotPolicy,
        *,
        name: str | None = None,
        table: FlopReachValues | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng=rng)
        if table is not None and table.policy != policy.name:
            raise ValueError(f"the table is for {table.policy!r}, not {policy.name!r}")
        self.policy = policy
        self.table = table
        self.name = name if name is not None else f"br-{policy.name}"
        self._strategies: dict[tuple[Rules, LearnerSeat], SeatStrategy] = {}
        self._warned = False

    def act(self, view: PlayerView) -> Action:
        """The best response's action (heads-up); check/call at larger tables."""
        legal_actions(view)
        if view.num_seats != 2:
            if not self._warned:
                logger.warning(
                    "%s is a heads-up best response; at %d seats it only checks and calls",
                    self.name,
                    view.num_seats,
                )
                self._warned = True
            return Action.CALL
        seat = LearnerSeat.BUTTON if view.seat == view.button else LearnerSeat.BIG_BLIND
        moves = [
            (Role.LEARNER if a.seat == view.seat else Role.BOT, a.action) for a in view.actions
        ]
        action = self._strategy(view.rules, seat).action(view.hole, view.board, moves)
        if action not in view.legal_actions:
            raise ValueError(
                f"{self.name}: the tree's action {action.name} is not legal here "
                f"({view.legal_actions}); do the stacks bind?"
            )
        return action

    def action_probabilities(self, view: PlayerView) -> tuple[float, float, float]:
        """(fold, call, raise) probabilities of ``act``: one-hot, the policy is deterministic."""
        chosen = self.act(view)
        fold, call, raise_ = (1.0 if a == chosen else 0.0 for a in Action)
        return (fold, call, raise_)

    def _strategy(self, rules: Rules, seat: LearnerSeat) -> SeatStrategy:
        strategy = self._strategies.get((rules, seat))
        if strategy is None:
            table = self.table
            if table is None or game_key(table.rules) != game_key(rules):
                table = load_table(self.policy, rules)
            if not table.exact:
                logger.warning(
                    "%s plays from a sampled pre-flop table: %s", self.name, table.method
                )
            preflop = table.scaled_for(rules)[seat]
            strategy = SeatStrategy(self.policy, rules, seat, preflop)
            self._strategies[(rules, seat)] = strategy
        return strategy


class PolicyBot(Agent):
    """Agent card: plays a card-independent ``BotPolicy`` (e.g. a ``mix:``), drawing from its
    generator; heads-up only (``ValueError`` otherwise).

    Args:
        policy: The policy, or its name for ``parse_policy``.
        rng: The generator (or ``reset(rng)`` later).
    """

    name = "policy-bot"

    def __init__(self, policy: BotPolicy | str, *, rng: np.random.Generator | None = None) -> None:
        super().__init__(rng=rng)
        self.policy = parse_policy(policy) if isinstance(policy, str) else policy
        self.name = self.policy.name

    def act(self, view: PlayerView) -> Action:
        """Draw an action from the policy's probabilities at the view's public state."""
        legal = legal_actions(view)
        if view.num_seats != 2:
            raise ValueError(
                f"{self.name} is a heads-up policy; the table has {view.num_seats} seats"
            )
        street_actions = ["" for _ in range(view.street + 1)]
        for acted in view.actions:
            street_actions[acted.street] += "fcr"[acted.action]
        state = PublicState(
            street=view.street,
            actor=Role.BOT,
            bot_is_button=view.seat == view.button,
            rounds=tuple(street_actions),
            contributions=(view.contributions[1 - view.seat], view.contributions[view.seat]),
            num_bets=view.num_bets,
            to_call=view.to_call,
            legal_actions=legal,
        )
        probabilities = np.asarray(self.policy.probabilities(state))
        return Action(int(self.rng.choice(3, p=probabilities / probabilities.sum())))


def br_call() -> BestResponseAgent:
    """Registry factory: the best response to ``call``."""
    return BestResponseAgent(CALL, name="br-call")


def br_raise() -> BestResponseAgent:
    """Registry factory: the best response to ``raise``."""
    return BestResponseAgent(RAISE, name="br-raise")


def br_random() -> BestResponseAgent:
    """Registry factory: the best response to ``random``."""
    return BestResponseAgent(RANDOM, name="br-random")
