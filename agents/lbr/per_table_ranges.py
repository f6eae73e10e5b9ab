"""A scalar range policy per table, as a batched one: the Loki family's batched form.

``PerTableRanges`` is a batched range policy (``agents.lbr.batched_ranges``) made of one scalar
``RangePolicy`` (``agents.lbr.range_policy``) per table, each asked on its row rebuilt as the
``PlayerView`` the opponent had there, so that the batched and the scalar local best responses
(Lisy and Bowling 2017, section "Local Best Response") read the very same numbers. It is the
batched form of ``agents.lbr.loki_range.ShadowLoki`` (``loki``, ``loki2``, ``loki-tight``,
``loki-moderate``, ``loki-som``): there nearly all the time of a decision is the compiled
all-holdings call (``agents.lbr.loki_kernels.holding_values``), which no batching shares,
since every table has its own board and field.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from agents.lbr.batched_ranges import RangeAnswer
from agents.lbr.range_policy import RangePolicy
from agents.strength.holdings import NUM_HOLDINGS
from envs.batched.views import DecisionBatch, HandEndBatch
from envs.events import Acted
from envs.rules import Action, Rules, Street
from envs.view import PlayerView

__all__ = ["EVERY_HOLDING", "PerTableRanges", "decision_views", "end_views"]

Index = npt.NDArray[np.intp]
EVERY_HOLDING: Index = np.arange(NUM_HOLDINGS, dtype=np.intp)
"""Every holding in order: a policy asked for it may answer with an array it keeps (read-only),
which this module only copies from."""
EVERY_HOLDING.flags.writeable = False
_STREETS, _ACTIONS = tuple(Street), tuple(Action)
_KNOWN: dict[tuple[int, int, int, int], Acted] = {}
"""Every log entry met, made once (a few dozen: rounds x seats x actions x amounts)."""


class PerTableRanges:
    """One scalar range policy per table of a batched local best response (see the module).

    Args:
        shadows: A fresh policy per table (e.g. ``ShadowLoki``), each following the
            opponent's settings; this object owns them.

    Raises:
        ValueError: without policies, or when they follow opponents of different names.
    """

    def __init__(self, shadows: Sequence[RangePolicy]) -> None:
        if not shadows or len({shadow.name for shadow in shadows}) != 1:
            raise ValueError("one range policy per table, all of the same opponent, is needed")
        self.shadows = list(shadows)
        self.name = shadows[0].name
        self.memoryless = all(shadow.memoryless for shadow in shadows)

    def start_tables(self, tables: Index, seats: Index) -> None:
        """A new match at ``tables``: their policies forget the opponent's learning."""
        for table in np.asarray(tables, dtype=np.intp).tolist():
            self.shadows[table].forget()

    def probabilities(self, batch: DecisionBatch, *, probe: bool) -> RangeAnswer:
        """Each table's policy on the opponent's view of its row, for every holding."""
        k = len(batch.tables)
        rows = np.empty((k, NUM_HOLDINGS, 3))
        for i, view in enumerate(decision_views(batch)):
            shadow = self.shadows[int(batch.tables[i])]
            rows[i] = shadow.probabilities(view, EVERY_HOLDING, probe=probe)
        return RangeAnswer(rows, np.broadcast_to(EVERY_HOLDING, (k, NUM_HOLDINGS)))

    def observe_ends(self, batch: HandEndBatch) -> None:
        """Tell each table's policy its hand's end as the opponent saw it."""
        for i, view in enumerate(end_views(batch)):
            self.shadows[int(batch.tables[i])].observe(view)


def _actions(batch: DecisionBatch | HandEndBatch) -> list[tuple[Acted, ...]]:
    """Each row's public betting history."""
    length = batch.log_len.tolist()
    street, seat = batch.log_street.tolist(), batch.log_seat.tolist()
    action, amount = batch.log_action.tolist(), batch.log_amount.tolist()
    return [
        tuple(_acted(street[i][j], seat[i][j], action[i][j], amount[i][j]) for j in range(n))
        for i, n in enumerate(length)
    ]


def _acted(street: int, seat: int, action: int, amount: int) -> Acted:
    """The log entry, from ``_KNOWN`` (a frozen dataclass is slow to make, many times)."""
    key = (street, seat, action, amount)
    known = _KNOWN.get(key)
    if known is None:
        known = _KNOWN[key] = Acted(_STREETS[street], seat, _ACTIONS[action], amount)
    return known


def _boards(batch: DecisionBatch | HandEndBatch) -> list[tuple[int, ...]]:
    board = batch.board.tolist()
    return [tuple(board[i][:n]) for i, n in enumerate(batch.board_len.tolist())]


def decision_views(batch: DecisionBatch) -> list[PlayerView]:
    """The ``PlayerView`` of each row (equal to the engine's view of that seat there)."""
    legal = batch.legal.tolist()
    return [
        PlayerView(
            rules=batch.rules,
            hand_id=hand_id,
            seat=seat,
            button=button,
            hole=(hole[0], hole[1]),
            board=board,
            street=_STREETS[street],
            actions=actions,
            blinds=tuple(blinds),
            bets=tuple(bets),
            contributions=tuple(contributions),
            stacks=tuple(stacks),
            folded=tuple(folded),
            num_bets=num_bets,
            to_call=to_call,
            legal_actions=tuple(a for a in Action if legal[i][a]),
        )
        for i, (
            hand_id, seat, button, hole, board, street, actions, blinds, bets, contributions,
            stacks, folded, num_bets, to_call,
        ) in enumerate(
            zip(
                batch.hand_id.tolist(), batch.seat.tolist(), batch.button.tolist(),
                batch.hole.tolist(), _boards(batch), batch.street.tolist(), _actions(batch),
                batch.blinds.tolist(), batch.bets.tolist(), batch.contributions.tolist(),
                batch.stacks.tolist(), batch.folded.tolist(), batch.num_bets.tolist(),
                batch.to_call.tolist(), strict=True,
            )
        )
    ]  # fmt: skip


def _blinds(rules: Rules, button: int) -> list[int]:
    """The blinds each seat posted (all-in for less from a short starting stack)."""
    n = rules.num_seats
    small = button if n == 2 else (button + 1) % n
    big = (small + 1) % n
    blinds = [0] * n
    blinds[small] = min(rules.small_blind, rules.starting_stacks[small])
    blinds[big] = min(rules.big_blind, rules.starting_stacks[big])
    return blinds


def end_views(batch: HandEndBatch) -> list[PlayerView]:
    """The terminal ``PlayerView`` of each row, rebuilt from its log: what the seat saw at
    the hand's end: the uncalled part of the last bet returned, the pot paid out (stacks
    counted from the rules' starting stacks)."""
    rules = batch.rules
    n = rules.num_seats
    views = []
    shown = batch.shown.tolist()
    payoffs = batch.payoffs.tolist()
    for i, (hand_id, seat, button, hole, board, actions) in enumerate(
        zip(
            batch.hand_id.tolist(), batch.seat.tolist(), batch.button.tolist(),
            batch.hole.tolist(), _boards(batch), _actions(batch), strict=True,
        )
    ):  # fmt: skip
        blinds = _blinds(rules, button)
        contributions, bets = list(blinds), list(blinds)
        folded = [False] * n
        street, num_bets = Street.PREFLOP, 1
        for acted in actions:
            if acted.street != street:
                street, bets, num_bets = acted.street, [0] * n, 0
            contributions[acted.seat] += acted.amount
            bets[acted.seat] += acted.amount
            folded[acted.seat] |= acted.action == Action.FOLD
            num_bets += acted.action == Action.RAISE
        top = max(range(n), key=contributions.__getitem__)
        contributions[top] = max(c for s, c in enumerate(contributions) if s != top)
        views.append(
            PlayerView(
                rules=rules,
                hand_id=hand_id,
                seat=seat,
                button=button,
                hole=(hole[0], hole[1]),
                board=board,
                street=street,
                actions=actions,
                blinds=tuple(blinds),
                bets=(0,) * n,
                contributions=tuple(contributions),
                stacks=tuple(
                    s + won for s, won in zip(rules.starting_stacks, payoffs[i], strict=True)
                ),
                folded=tuple(folded),
                num_bets=num_bets,
                to_call=0,
                legal_actions=(),
                is_terminal=True,
                shown=tuple(None if c[0] < 0 else (c[0], c[1]) for c in shown[i]),
                payoffs=tuple(payoffs[i]),
            )
        )
    return views
