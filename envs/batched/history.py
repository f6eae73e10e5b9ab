"""One table of a batch as the scalar engine shows it: ``PlayerView``, events, ACPC ``STATE``.

Built from the arrays and the action log, for adapters, logs and checks (one table at a time,
in Python: not for the hot path). Each result equals what ``envs.game.Hand`` gives for the same
deck and actions at the same point.
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.batched.state import BatchState, Layout
from envs.cards import format_cards
from envs.events import (
    Acted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HoleDealt,
    PotAwarded,
    ShowedDown,
)
from envs.rules import Action, Street
from envs.showdown import award_pots
from envs.view import PlayerView

__all__ = ["acpc_line", "hand_events", "player_view", "public_actions"]

BOARD_LENGTHS = (0, 3, 4, 5)
"""Board cards dealt by the end of each street's dealing."""
_STREETS = tuple(Street)
_ACTIONS = tuple(Action)
_CHARS = "fcr"


def public_actions(state: BatchState, table: int) -> tuple[Acted, ...]:
    """The betting decisions of the table's hand so far, in order."""
    size = int(state.log_len[table])
    streets = state.log_street[table, :size].tolist()
    seats = state.log_seat[table, :size].tolist()
    actions = state.log_action[table, :size].tolist()
    amounts = state.log_amount[table, :size].tolist()
    return tuple(
        Acted(_STREETS[st], seat, _ACTIONS[action], amount)
        for st, seat, action, amount in zip(streets, seats, actions, amounts, strict=True)
    )


def _hole(state: BatchState, table: int, seat: int) -> tuple[int, int]:
    deck = state.deck[table]
    return int(deck[2 * seat]), int(deck[2 * seat + 1])


def _board(state: BatchState, table: int, length: int) -> tuple[int, ...]:
    n2 = 2 * state.rules.num_seats
    return tuple(state.deck[table, n2 : n2 + length].tolist())


def player_view(state: BatchState, table: int, seat: int, legal: tuple[Action, ...]) -> PlayerView:
    """What ``seat`` may know now (``legal``: its legal actions if it is to act)."""
    street = Street(int(state.street[table]))
    stacks = tuple(state.stacks[:, table].tolist())
    bets = tuple(state.bets[:, table].tolist())
    if state.over[table]:
        shown = tuple(
            _hole(state, table, s) if state.showed[s, table] else None
            for s in range(state.rules.num_seats)
        )
        to_call, terminal, payoffs = 0, True, tuple(state.payoffs[:, table].tolist())
    else:
        to_call = min(stacks[seat], int(state.max_bet[table]) - bets[seat])
        terminal, shown, payoffs = False, (), ()
    return PlayerView(
        state.rules,
        int(state.hand_id[table]),
        seat,
        int(state.button[table]),
        _hole(state, table, seat),
        _board(state, table, BOARD_LENGTHS[street]),
        street,
        public_actions(state, table),
        tuple(state.blinds[:, table].tolist()),
        bets,
        tuple(state.contributions[:, table].tolist()),
        stacks,
        tuple(state.folded[:, table].tolist()),
        int(state.num_bets[table]),
        to_call,
        legal,
        terminal,
        shown,
        payoffs,
    )


def hand_events(state: BatchState, layout: Layout, table: int) -> tuple[Event, ...]:
    """The event history of the table's hand, rebuilt from its deck, blinds and action log."""
    n = layout.num_seats
    button = int(state.button[table])
    blinds = state.blinds[:, table].tolist()
    events: list[Event] = [HoleDealt(s, _hole(state, table, s)) for s in range(n)]
    for seat in (int(layout.small_blind_seat[button]), int(layout.big_blind_seat[button])):
        if blinds[seat]:
            events.append(BlindPosted(seat, blinds[seat]))
    actions = public_actions(state, table)
    over = bool(state.over[table])
    # Rounds that were played (a post-flop round always has a decision; pre-flop may not).
    last = max((a.street for a in actions), default=Street.PREFLOP)
    if not over:
        last = Street(int(state.street[table]))
    bets = list(blinds)
    for street in Street:
        if street > last:
            break
        for acted in actions:
            if acted.street == street:
                events.append(acted)
                bets[acted.seat] += acted.amount
        if street == last and not over:
            break
        cutoff = sorted(bets)[-2]
        events.extend(BetReturned(s, b - cutoff) for s, b in enumerate(bets) if b > cutoff)
        bets = [0] * n
        if street < last:
            events.append(_dealt(state, table, Street(street + 1)))
    if not over:
        return tuple(events)
    folded = state.folded[:, table].tolist()
    contributions = state.contributions[:, table].tolist()
    awards: list[tuple[int, tuple[int, ...]]]
    if folded.count(False) == 1:
        awards = [(sum(contributions), (folded.index(False),))]
    else:
        for street in Street:
            if street > last:
                events.append(_dealt(state, table, street))
        order = [(button + 1 + p) % n for p in range(n)]
        contenders = [s for s in order if not folded[s]]
        ranks = state.ranks[:, table].tolist()
        events.extend(ShowedDown(s, _hole(state, table, s), ranks[s]) for s in contenders)
        awards = award_pots(contributions, contenders, ranks)
    for index, (amount, winners) in enumerate(awards):
        share, odd = divmod(amount, len(winners))
        events.extend(
            PotAwarded(index, seat, share + (odd if k == 0 else 0))
            for k, seat in enumerate(winners)
        )
    events.append(HandEnded(tuple(state.payoffs[:, table].tolist())))
    return tuple(events)


def _dealt(state: BatchState, table: int, street: Street) -> BoardDealt:
    lo, hi = BOARD_LENGTHS[street - 1], BOARD_LENGTHS[street]
    return BoardDealt(street, _board(state, table, hi)[lo:])


def acpc_line(state: BatchState, table: int, names: Sequence[str] | None = None) -> str:
    """The table's hand as an ACPC ``STATE`` line (positions start left of the button)."""
    n = state.rules.num_seats
    if names is not None and len(names) != n:
        raise ValueError(f"need {n} player names, got {len(names)}")
    button = int(state.button[table])
    order = [(button + 1 + p) % n for p in range(n)]
    length = BOARD_LENGTHS[int(state.street[table])]
    size = int(state.log_len[table])
    rounds = [""] * (1 + max(0, length - 2))
    for street, action in zip(
        state.log_street[table, :size].tolist(),
        state.log_action[table, :size].tolist(),
        strict=True,
    ):
        rounds[street] += _CHARS[action]
    betting = "/".join(rounds)
    cards = "|".join(format_cards(_hole(state, table, s)) for s in order)
    board = _board(state, table, length)
    for lo, hi in ((0, 3), (3, 4), (4, 5)):
        if length >= hi:
            cards += "/" + format_cards(board[lo:hi])
    payoffs = ""
    if state.over[table]:
        payoffs = "|".join(str(int(state.payoffs[s, table])) for s in order)
    players = "|".join(names[s] if names else f"p{s}" for s in order)
    return f"STATE:{int(state.hand_id[table])}:{betting}:{cards}:{payoffs}:{players}"
