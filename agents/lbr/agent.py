"""The local best response agent (registry ``lbr-bpp``, ``lbr-bpp-det``, ``lbr-bpp-curves``,
``lbr-rule``; ``lbr-call``, ``lbr-raise``, ``lbr-random`` against the bots whose exact best
response is known; with deeper look-aheads: ``agents.lbr.deeper_agents``): a lower bound on
an opponent's exploitability, measured by playing it."""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from agents.base import Agent, legal_actions
from agents.baselines import CallAgent, RaiseAgent, RandomAgent, RuleAgent
from agents.best_response.bots import BotPolicy
from agents.bpp import BPPAgent, BPPCurvesAgent, deterministic_bpp
from agents.lbr.equity_cache import EquityCache, LBRParams
from agents.lbr.lookahead import Lookahead, call_values, continued_bets, raise_values
from agents.lbr.public_tree import (
    PublicTree,
    card_independent_policy,
    learner_seat,
    public_moves,
)
from agents.lbr.range_policy import CardIndependent, RangePolicy, ShadowBayesian, VectorRule
from agents.lbr.replay import Replay
from agents.lbr.values import ActionValues, action_values, best_action
from agents.strength.holdings import NUM_HOLDINGS, dead_mask
from envs.protocols import BatchedAgent, Probabilities
from envs.rules import Action, Rules
from envs.view import PlayerView

__all__ = [
    "LBRParams",
    "LocalBestResponse",
    "lbr_bpp",
    "lbr_bpp_curves",
    "lbr_bpp_det",
    "lbr_call",
    "lbr_raise",
    "lbr_random",
    "lbr_rule",
]

logger = logging.getLogger(__name__)

Floats = npt.NDArray[np.float64]
NAN = float("nan")


class LocalBestResponse(Agent):
    """Agent card: the local best response (LBR) to an opponent whose policy is known.

    At each of its decisions it keeps the opponent's range, a weight per holding (zero for the
    holdings that clash with the cards it sees), multiplied at every opponent action by the
    opponent's probability of that action with each holding (Bayes' rule), asked of the
    opponent's own policy (``agents.lbr.range_policy``, white-box: for a learning opponent a
    copy told every hand end the opponent sees, so its memory is the opponent's). It then
    values folding, checking/calling and betting/raising against that range with one round of
    look-ahead (``agents.lbr.values``; deeper with ``LBRParams.lookahead``:
    ``agents.lbr.lookahead``, ``agents.lbr.public_tree``) and plays the best. Paper: Lisy and
    Bowling, "Equilibrium approximation quality of current no-limit poker bots", 2017, section
    "Local Best Response" and Algorithm 1; our fixed-limit adaptation is in
    ``agents.lbr.values``.

    Whatever it plays is a strategy, so its expected winnings against the opponent are a lower
    bound on the opponent's exploitability (measured with the match runner, with a CI).

    It sees only its own view and the public betting. Heads-up only: at larger tables it
    checks or calls (logging a warning once). It is deterministic: its roll-outs are fixed
    samples (``LBRParams``), and it states its one-hot policy (``action_probabilities``). Its
    batched twin (``batched``, ``agents.lbr.batched_lbr``) plays the same actions.

    Args:
        opponent: The opponent's policy over holdings; this agent owns it (it forgets it at
            ``reset`` and tells it every hand end).
        name: Registry name (default ``lbr-`` and the opponent's name).
        params: Roll-out sizes and the look-ahead.
        rng: As for ``Agent``.
    """

    name = "lbr"

    def __init__(
        self,
        opponent: RangePolicy,
        *,
        name: str | None = None,
        params: LBRParams | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng=rng)
        self.opponent = opponent
        self.params = params if params is not None else LBRParams()
        self.name = name if name is not None else f"lbr-{opponent.name}"
        self._hand: tuple[int, tuple[int, int], int] | None = None
        self._seen = 0
        self._weights: Floats = np.ones(NUM_HOLDINGS)
        self.equities = EquityCache(self.params)
        self._equity: dict[tuple[int, ...], Floats] = {}
        self._warned = False
        self._warned_impossible = False
        self._trees: dict[Rules, PublicTree] = {}
        self._policy: BotPolicy | None = None
        if self.params.lookahead is Lookahead.PUBLIC_TREE:
            self._policy = card_independent_policy(opponent)

    @property
    def memoryless(self) -> bool:  # type: ignore[override]
        """Memoryless between hands exactly when the opponent is."""
        return self.opponent.memoryless

    def _forget(self) -> None:
        self.opponent.forget()
        self._hand = None
        self._equity.clear()

    def act(self, view: PlayerView) -> Action:
        """The action of largest local value (``values``); check/call beyond heads-up."""
        legal_actions(view)
        if view.num_seats != 2:
            if not self._warned:
                logger.warning(
                    "%s is a heads-up local best response; at %d seats it checks and calls",
                    self.name,
                    view.num_seats,
                )
                self._warned = True
            return Action.CALL
        return best_action(self.values(view))

    def values(self, view: PlayerView) -> ActionValues:
        """Each action's value against the opponent's range at our decision ``view``."""
        legal = legal_actions(view)
        weights = self.opponent_range(view)
        live = np.flatnonzero(weights > 0.0)
        equity = self._equities(view)[live]
        if self._policy is not None:
            return self._tree_values(view, weights[live], equity)
        response = None
        answered = False
        if Action.RAISE in legal:
            after = Replay(view).after_our_raise()
            if after is None:  # the opponent cannot answer (all-in): our raise is a call
                response = np.tile([0.0, 1.0, 0.0], (len(live), 1))
            else:
                response = self.opponent.probabilities(after, live, probe=True)
                answered = True
        if self.params.lookahead is Lookahead.LATER_BETS:
            return _later_bets_values(view, weights[live], equity, response, answered=answered)
        return action_values(
            weights[live],
            equity,
            pot=view.pot,
            to_call=view.to_call,
            bet=view.bet_size,
            can_fold=Action.FOLD in legal,
            response=response,
        )

    def _tree_values(self, view: PlayerView, weights: Floats, equity: Floats) -> ActionValues:
        """``Lookahead.PUBLIC_TREE``' values (``agents.lbr.public_tree``) at ``view``."""
        assert self._policy is not None
        share = weights / weights.sum()
        wp = float(share @ equity)
        tree = self._trees.get(view.rules)
        if tree is None:
            tree = self._trees[view.rules] = PublicTree(self._policy, view.rules)
        seats, actions = [a.seat for a in view.actions], [a.action for a in view.actions]
        fold, call, raise_ = tree.values(
            [learner_seat(view.seat, view.button)],
            [public_moves(seats, actions, view.seat)],
            np.array([wp]),
            np.array([float(view.contributions[view.seat])]),
        )[0]
        after = Replay(view).after_our_raise() if Action.RAISE in view.legal_actions else None
        fp = NAN
        if after is not None:
            holdings = np.arange(len(weights))  # its answers are the same with every holding
            fp = float(share @ self.opponent.probabilities(after, holdings, probe=True)[:, 0])
        return ActionValues(float(fold), float(call), float(raise_), wp, fp)

    def opponent_range(self, view: PlayerView) -> Floats:
        """The opponent's range at ``view`` (heads-up): ``(1326,)`` weights summing to one,
        zero on the holdings that clash with our cards or the board.

        An opponent action that its known policy gives probability zero with every holding
        left (the opponent does not play that policy) leaves the range as it was, with a
        warning logged once.
        """
        key = (view.hand_id, view.hole, view.button)
        if key != self._hand or len(view.actions) < self._seen:
            self._hand, self._seen = key, 0
            self._weights = (~dead_mask(view.hole)).astype(np.float64)
            self._equity.clear()
        weights = self._weights
        for decision in Replay(view).decisions(self._seen):
            weights[dead_mask(decision.view.board)] = 0.0
            live = np.flatnonzero(weights > 0.0)
            chance = self.opponent.probabilities(decision.view, live)[:, decision.action]
            total = float(weights[live] @ chance)
            if not total > 0.0:
                self._impossible(decision.action, decision.position)
                continue
            weights[live] *= chance / total
        self._seen = len(view.actions)
        weights[dead_mask(view.board)] = 0.0
        result: Floats = weights / weights.sum()
        return result

    def _impossible(self, action: Action, position: int) -> None:
        if not self._warned_impossible:
            logger.warning(
                "%s: the opponent's %s at log position %d has probability zero with every "
                "holding under %r's known policy, which it therefore does not play; the range "
                "ignores such actions",
                self.name,
                action.name,
                position,
                self.opponent.name,
            )
            self._warned_impossible = True

    def observe(self, view: PlayerView) -> None:
        """Tell the opponent's copy the hand's end as the opponent saw it (its memory)."""
        if view.num_seats == 2:
            other = 1 - view.seat
            shown = view.shown[other] if view.shown else None
            known = {*view.hole, *view.board}
            hole = shown if shown is not None else tuple(c for c in range(52) if c not in known)
            self.opponent.observe(view._replace(seat=other, hole=(hole[0], hole[1])))
        self._hand = None

    def _equities(self, view: PlayerView) -> Floats:
        key = (*view.hole, *view.board)
        equity = self._equity.get(key)
        if equity is None:
            equity = self._equity[key] = self.equities.one(view.hole, view.board)
        return equity

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """One-hot: the action ``act`` plays (the agent is deterministic)."""
        action = self.act(view)
        return (
            float(action == Action.FOLD),
            float(action == Action.CALL),
            float(action == Action.RAISE),
        )

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedLBR`` with these settings at ``num_tables`` tables (fresh memory), when
        the opponent's policy has a batched form; else ``None``."""
        if type(self) is not LocalBestResponse:
            return None
        opponent = self.opponent.batched(num_tables)
        if opponent is None:
            return None
        from agents.lbr.batched_lbr import BatchedLBR  # numba loads on demand

        equities = EquityCache(self.params)
        return BatchedLBR(num_tables, opponent, equities, self.name, policy=self._policy)

    def table_bytes(self, num_seats: int) -> int:
        """Bytes the batched form needs per table: its ranges and equities, about six more
        rows of 1,326 floats while it decides or keeps the answer to a probed raise
        (``agents.lbr.probe_memo``), and the opponent's copy; so that the runner batches a
        memoryless match into ~1 GB."""
        return 8 * NUM_HOLDINGS * 8 + self.opponent.table_bytes(num_seats)


def _later_bets_values(
    view: PlayerView,
    weights: Floats,
    equity: Floats,
    response: Floats | None,
    *,
    answered: bool,
) -> ActionValues:
    """``Lookahead.LATER_BETS``' values (``agents.lbr.lookahead``) at ``view``, one row of its
    functions; later streets only where the opponent answers our raise (it is not all-in)."""
    share = (weights / weights.sum())[np.newaxis]
    wp = float(share[0] @ equity)
    fold = 0.0 if Action.FOLD in view.legal_actions else NAN
    if response is None:  # no answers known: the check-down value
        return ActionValues(fold, wp * (view.pot + view.to_call) - view.to_call, NAN, wp, NAN)
    pot, to_call = np.array([float(view.pot)]), np.array([float(view.to_call)])
    later = continued_bets(view.rules.bet_sizes, [view.street]) * answered
    columns = (response[np.newaxis, :, 0], response[np.newaxis, :, 1], response[np.newaxis, :, 2])
    ours = equity[np.newaxis]
    call = call_values(share, ours, pot=pot, to_call=to_call, later=later, response=columns)
    raise_ = raise_values(
        share,
        ours,
        pot=pot,
        to_call=to_call,
        bet=np.array([float(view.bet_size)]),
        later=later,
        response=columns,
    )
    fp = float(share[0] @ response[:, 0])
    return ActionValues(fold, float(call[0]), float(raise_[0]), wp, fp)


def lbr_bpp() -> LocalBestResponse:
    """Registry factory: the local best response to ``bpp``."""
    return LocalBestResponse(ShadowBayesian(BPPAgent()), name="lbr-bpp")


def lbr_bpp_det() -> LocalBestResponse:
    """Registry factory: the local best response to ``bpp-det``."""
    return LocalBestResponse(ShadowBayesian(deterministic_bpp()), name="lbr-bpp-det")


def lbr_bpp_curves() -> LocalBestResponse:
    """Registry factory: the local best response to ``bpp-curves``."""
    return LocalBestResponse(ShadowBayesian(BPPCurvesAgent()), name="lbr-bpp-curves")


def lbr_rule() -> LocalBestResponse:
    """Registry factory: the local best response to ``rule``."""
    return LocalBestResponse(VectorRule(RuleAgent()), name="lbr-rule")


def lbr_call() -> LocalBestResponse:
    """Registry factory: the local best response to ``call`` (exact best response known)."""
    return LocalBestResponse(CardIndependent(CallAgent()), name="lbr-call")


def lbr_raise() -> LocalBestResponse:
    """Registry factory: the local best response to ``raise`` (exact best response known)."""
    return LocalBestResponse(CardIndependent(RaiseAgent()), name="lbr-raise")


def lbr_random() -> LocalBestResponse:
    """Registry factory: the local best response to ``random`` (exact best response known)."""
    return LocalBestResponse(CardIndependent(RandomAgent()), name="lbr-random")
