"""Loki and Loki-2 at every one of their holdings at once, for the local best response.

``ShadowLoki`` is the ``RangePolicy`` (``agents.lbr.range_policy``) of the Loki family
(``loki``, ``loki-tight``, ``loki-moderate``, ``loki-som``, ``loki2``): Loki (Billings, Papp,
Schaeffer and Szafron, "Opponent modeling in poker", AAAI 1998; Papp 1998, chapters 5-7) and
Loki-2 (Billings, Pena, Schaeffer and Szafron, "Using probabilistic knowledge and simulation to
play poker", AAAI 1999; Pena 1999, chapter 4), white-box, for the local best response of Lisy
and Bowling 2017 ("Equilibrium approximation quality of current no-limit poker bots",
section "Local Best Response").

What of Loki's state depends on its cards, and what does not:

* its weight table of the opponent (the LBR seat) does not: it starts uniform each hand and is
  re-weighted at the opponent's actions from public values only (IR7 pre-flop; HS1 and PPOTc
  of every holding as its owner sees the board, which the scalar agent computes with its own
  hand but which do not depend on it; Loki's own cards are removed only when the table is
  used, in HS and PPOT). Its action frequencies (``loki-som``) count public actions. So the
  shadow replays the opponent's actions into a copy of the models as they were at the hand's
  start (one field per public history, cached), and tells the models every hand end;
* its pre-flop strategy (chosen at its first pre-flop decision from its hand's income rate),
  its semi-bluff (a bet with EHS' below make1 continues in later rounds) and Loki-2's draw do:
  they are kept per holding. Loki-2 plays one uniform per hand (``hand_uniform``), so at a
  decision its probabilities are its triple *conditioned on its earlier actions of the hand*
  (``agents.loki.draw``): with each holding the draw's interval is narrowed by that
  holding's own earlier triples and the actions taken. These conditional probabilities are
  what the local best response needs: their product over Loki's actions is the probability of
  its whole line with the holding, so Bayes' rule over the LBR's range stays exact.

After the flop HS1 and PPOT1 of all 1,326 holdings against the field come from one compiled
call (``agents.lbr.loki_kernels.holding_values``); the rules are Loki's own compiled
``agents.loki.triples.decide_holdings``, every holding at one spot. The policy expects to be
asked at each of Loki's decisions of a hand in order (``LocalBestResponse`` does), since a
holding's state at a decision depends on its probabilities at the earlier ones. Within a hand
it keeps each history's answer (a raise the LBR probed is not recomputed when made) and the
models replayed through each history (a longer one extends them); a board's arrays for the
compiled call and its re-weighting values are built once (``agents.lbr.loki_board_memo``), for
all the tables of the batched form, which is one shadow per table
(``agents.lbr.per_table_ranges``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.base import certain
from agents.jit import readonly
from agents.lbr.agent import LocalBestResponse
from agents.lbr.loki_board_memo import BoardMemo
from agents.lbr.loki_kernels import holding_values
from agents.lbr.per_table_ranges import EVERY_HOLDING, PerTableRanges
from agents.loki.action_contexts import replay
from agents.loki.agent import Loki, Loki2, loki_moderate, loki_som, loki_tight
from agents.loki.draw import narrow_all
from agents.loki.opponents import OpponentModels, later_bets
from agents.loki.params import Betting
from agents.loki.preflop import (
    Group,
    PreflopStrategy,
    group_of,
    preflop_action,
    preflop_situation,
    small_blind_seat,
)
from agents.loki.triples import decide_holdings
from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.income_rate import load_income_rates
from envs.events import Acted
from envs.rules import Action, Street
from envs.view import PlayerView

__all__ = [
    "ShadowLoki",
    "lbr_loki",
    "lbr_loki2",
    "lbr_loki_moderate",
    "lbr_loki_som",
    "lbr_loki_tight",
]

Floats = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
History = tuple[Acted, ...]
_NO_SEMI = readonly(np.full(NUM_HOLDINGS, -1), np.int64)
"""No semi-bluff going on (the street of each holding's, -1: none)."""
_NO_DRAW = np.tile([0.0, 1.0], (NUM_HOLDINGS, 1))
"""A Loki-2 draw anywhere in ``[0, 1)``: never written (kept writeable, as the arrays
``decide`` is compiled for)."""
_Situation = tuple[int, Group, bool]
"""Loki's pre-flop situation: position, group, whether it is the small blind."""
_KEPT_BOARDS = 9
"""Boards kept per table: two hands' and the current hand's (a duplicate match deals each
board twice)."""


@dataclass(frozen=True)
class _Decided:
    """Loki's post-flop decision with every holding: the triple's regions, the semi-bluff."""

    bounds: Floats
    """``(1326, 2)``: the regions' bounds ``(C0, C1)`` of each holding's triple."""
    semi_bluff: npt.NDArray[np.bool_]
    """A bet here is a semi-bluff (nothing to call, EHS' below make1)."""
    street: int
    """The decision's round (``Street`` value)."""
    semi: npt.NDArray[np.int64]
    """The street of each holding's semi-bluff going on at the decision (-1: none)."""
    draw: Floats
    """``(1326, 2)``: where each holding's Loki-2 draw lies at the decision, ``[lo, hi)``."""


class ShadowLoki:
    """A Loki or Loki-2 followed hand by hand (see the module).

    Args:
        agent: A fresh agent with the opponent's settings (a ``Loki``; ``Loki2`` or any
            parameters); this object owns it and reads its settings and pre-flop table (its
            own models are not needed: the shadow keeps the opponent's).
        boards: Where the board arrays and values are kept (a batched form's shadows share
            one); by default its own, of ``_KEPT_BOARDS`` boards.
    """

    def __init__(self, agent: Loki, boards: BoardMemo | None = None) -> None:
        if not isinstance(agent, Loki):
            raise ValueError(f"ShadowLoki follows a Loki, got {type(agent).__name__}")
        self.agent = agent
        self.name = agent.name
        self.memoryless = agent.memoryless
        self._thresholds = agent.thresholds()
        t = self._thresholds
        self._switches = np.array([t.semi_bluff, t.pot_odds, t.showdown_odds])
        self._selected: dict[_Situation, tuple[npt.NDArray[np.int64], tuple[int, ...]]] = {}
        self._preflop_rows: dict[tuple[_Situation, tuple[Action, ...]], Floats] = {}
        self._models = OpponentModels(agent.params, self._thresholds)
        self._street_board: tuple[int, ...] = ()
        self._memo = boards if boards is not None else BoardMemo(_KEPT_BOARDS)
        self._new_hand(None)

    # ------------------------------------------------------------------ RangePolicy

    def batched(self, num_tables: int) -> PerTableRanges:
        """``PerTableRanges`` of a fresh shadow of a fresh copy of the agent per table, all
        keeping their boards in one memo (a board dealt at two tables is counted once)."""
        memo = BoardMemo(_KEPT_BOARDS * num_tables)
        return PerTableRanges([ShadowLoki(self.agent.spawn(), memo) for _ in range(num_tables)])

    def table_bytes(self, num_seats: int) -> int:
        """A shadow's boards at most (``_KEPT_BOARDS``, the memo's share per table): 360 KB each
        (300 KB measured), mostly the card-removal counts and the cube (``board_arrays``); and a
        hand's histories, about 20, each with its answer, field and models (45 KB)."""
        return _KEPT_BOARDS * 360_000 + 20 * 45_000

    def probabilities(self, view: PlayerView, holdings: Index, *, probe: bool = False) -> Floats:
        """``(len(holdings), 3)``: Loki's probabilities at ``view`` with each holding, given
        its own earlier actions of the hand with that holding (the kept answer itself,
        read-only, when ``holdings`` is ``EVERY_HOLDING``)."""
        key = (view.hand_id, view.button, view.seat)
        if key != self._hand:
            self._new_hand(key)
        history = tuple(view.actions)
        result = self._answers.get(history)
        if result is None:  # a probed raise is asked again when it is made
            preflop = view.street == Street.PREFLOP
            result = self._preflop(view) if preflop else self._postflop(view)
            self._answers[history] = result
        if holdings is EVERY_HOLDING:
            return result
        taken: Floats = np.take(result, holdings, axis=0)  # a copy, as result[holdings]
        return taken

    def observe(self, view: PlayerView) -> None:
        """The opponent's end of the hand: the models count its actions (``loki-som``)."""
        self._street_board = view.board
        for decision in replay(view):
            if decision.seat != view.seat:
                self._models.learn(decision, self._values, view.rules, reweight=False)
        self._new_hand(None)

    def forget(self) -> None:
        """A new match: the models forget the opponent, as Loki does at ``reset``."""
        # The copy never acts, so its generator is never drawn from.
        self.agent.reset(np.random.default_rng(0))
        self._models = OpponentModels(self.agent.params, self._thresholds)
        self._new_hand(None)

    # ------------------------------------------------------------------ the hand

    def _new_hand(self, key: tuple[int, int, int] | None) -> None:
        self._hand = key
        self._models.start_hand()
        self._fields: dict[History, Floats] = {}
        self._replayed: dict[History, OpponentModels] = {(): self._models}
        self._answers: dict[History, Floats] = {}
        self._decided: dict[History, _Decided] = {}
        self._strategies: dict[History, _Situation] = {}

    def _values(self, street: Street) -> tuple[Floats, Floats]:
        return self._memo.values(self._street_board[: {1: 3, 2: 4, 3: 5}[int(street)]])

    def _field(self, view: PlayerView) -> Floats:
        """Loki's field array at ``view``: its models replayed through the hand's actions
        (from the models of the longest history already replayed that this one extends)."""
        history = tuple(view.actions)
        field = self._fields.get(history)
        if field is None:
            start = len(history)
            while history[:start] not in self._replayed:
                start -= 1
            models = self._replayed[history[:start]].copy()
            self._street_board = view.board
            for decision in replay(view, start):
                if decision.seat != view.seat:
                    models.learn(decision, self._values, view.rules)
            self._replayed[history] = models
            opponents = [s for s in view.active_seats if s != view.seat]
            field = self._fields[history] = models.field(opponents)  # never written
        return field

    # ------------------------------------------------------------------ betting

    def _preflop(self, view: PlayerView) -> Floats:
        """Certain actions: each holding's strategy (chosen at Loki's first pre-flop
        decision of this history) played at ``view``."""
        first = next(
            (i for i, a in enumerate(view.actions) if a.seat == view.seat), len(view.actions)
        )
        history = tuple(view.actions[:first])
        situation = self._strategies.get(history)
        if situation is None:
            situation = self._strategies[history] = self._select(view)
        strategies, present = self._selected[situation]
        actions = tuple(preflop_action(PreflopStrategy(s), view) for s in present)
        # The answer depends on the situation and its strategies' actions only, which recur
        # hand after hand: kept (read-only) with them.
        result = self._preflop_rows.get((situation, actions))
        if result is None:
            rows = np.zeros((len(PreflopStrategy), 3))  # each strategy's certain action here
            for strategy, action in zip(present, actions, strict=True):
                rows[strategy] = certain(action)
            result = np.take(rows, strategies, axis=0)
            result.flags.writeable = False
            self._preflop_rows[situation, actions] = result
        return result

    def _select(self, view: PlayerView) -> _Situation:
        """``agents.loki.preflop.select_strategy`` for every holding at once (income rates
        against the same thresholds; the checks against brute force are in the tests), kept
        in ``_selected`` under the situation returned with the strategies present."""
        p, table = self.agent.params, self.agent.preflop_table
        position, inpot, guaranteed = preflop_situation(view)
        group = group_of(guaranteed + p.probability_play * (inpot - guaranteed))
        small_blind = view.seat == small_blind_seat(view)
        situation = (position, group, small_blind)
        if situation in self._selected:  # a few situations recur hand after hand
            return situation
        ir = load_income_rates().of_holdings(group.players)
        call1, call2 = table.small_blind[p.tightness, group]

        def reaches(strategy: PreflopStrategy) -> npt.NDArray[np.bool_]:
            reached: npt.NDArray[np.bool_] = ir >= table.threshold(
                p.tightness, group, strategy, position
            )
            return reached

        no = np.zeros(NUM_HOLDINGS, dtype=bool)
        rules = [
            (reaches(PreflopStrategy.MAKE4), PreflopStrategy.MAKE4),
            (reaches(PreflopStrategy.MAKE2), PreflopStrategy.MAKE2),
            ((ir >= call2) if small_blind else no, PreflopStrategy.CALL2),
            (reaches(PreflopStrategy.MAKE1), PreflopStrategy.MAKE1),
            ((ir >= call1) if small_blind else no, PreflopStrategy.CALL1),
        ]
        chosen = np.full(NUM_HOLDINGS, int(PreflopStrategy.MAKE0), dtype=np.int64)
        for mask, strategy in reversed(rules):  # the most aggressive reached wins
            chosen[mask] = int(strategy)
        chosen.flags.writeable = False
        self._selected[situation] = (chosen, tuple(np.unique(chosen).tolist()))
        return situation

    def _postflop(self, view: PlayerView) -> Floats:
        p = self.agent.params
        triples = p.betting == Betting.TRIPLES
        semi, draw = _NO_SEMI, _NO_DRAW
        last = next(
            (
                i
                for i in range(len(view.actions) - 1, -1, -1)
                if view.actions[i].seat == view.seat and view.actions[i].street != Street.PREFLOP
            ),
            None,
        )
        if last is not None:  # Loki's last post-flop decision, which followed the earlier ones
            done = self._decided.get(view.actions[:last])
            if done is None:
                raise ValueError(
                    f"{self.name}: not asked at Loki's decision at log position "
                    f"{last} of hand {view.hand_id}; ask at each decision in order"
                )
            action = view.actions[last].action
            semi = done.semi
            if action == Action.RAISE:
                semi = np.where(done.semi_bluff, done.street, semi)
            draw = narrow_all(done.draw, done.bounds, int(action)) if triples else done.draw
        if view.to_call > 0:
            semi = _NO_SEMI
        # The field and the board are valid here (``loki_holding_values`` would check them).
        board = self._memo.arrays(view.board)
        hs1, ppot = np.empty(NUM_HOLDINGS), np.empty(NUM_HOLDINGS)
        holding_values(board.m, *board.arrays, self._field(view), hs1, ppot)
        if view.street == Street.FLOP and p.lookahead == 2:
            raise ValueError(f"{self.name}: PPOT2 (lookahead 2) is not supported")
        invested = any(
            a.street == view.street and a.seat == view.seat and a.amount > 0 for a in view.actions
        )
        t = self._thresholds
        out = np.empty((NUM_HOLDINGS, 3))
        bounds, ehs = np.empty((NUM_HOLDINGS, 2)), np.empty(NUM_HOLDINGS)
        decide_holdings(
            hs1, ppot, max(1, len(view.active_seats) - 1), int(view.street), view.to_call,
            view.pot, view.bet_size, view.num_bets, Action.RAISE in view.legal_actions,
            invested, later_bets(view.rules, view.street), semi, t.make1, t.make2,
            self._switches, p.triple_width, triples, draw, out, bounds, ehs,
        )  # fmt: skip
        semi_bluff = (view.to_call == 0) & (ehs < p.make1)
        self._decided[view.actions] = _Decided(bounds, semi_bluff, int(view.street), semi, draw)
        out.flags.writeable = False  # kept, and handed out as it is
        return out


def lbr_loki() -> LocalBestResponse:
    """Registry factory: the local best response to ``loki``."""
    return LocalBestResponse(ShadowLoki(Loki()), name="lbr-loki")


def lbr_loki2() -> LocalBestResponse:
    """Registry factory: the local best response to ``loki2``."""
    return LocalBestResponse(ShadowLoki(Loki2()), name="lbr-loki2")


def lbr_loki_tight() -> LocalBestResponse:
    """Registry factory: the local best response to ``loki-tight``."""
    return LocalBestResponse(ShadowLoki(loki_tight()), name="lbr-loki-tight")


def lbr_loki_moderate() -> LocalBestResponse:
    """Registry factory: the local best response to ``loki-moderate``."""
    return LocalBestResponse(ShadowLoki(loki_moderate()), name="lbr-loki-moderate")


def lbr_loki_som() -> LocalBestResponse:
    """Registry factory: the local best response to ``loki-som`` (the shadow learns the
    frequencies the real one learns, from the hand ends it is told)."""
    return LocalBestResponse(ShadowLoki(loki_som()), name="lbr-loki-som")
