"""ACPC ``STATE`` lines of many tables at once, built from the action log as whole arrays.

Line ``i`` equals ``HandBatch.to_acpc(tables[i], names)``, and so ``Hand.to_acpc(names)`` for
the same deck and actions: ``STATE:<hand id>:<betting>:<cards>:<payoffs>:<players>``, seats
listed from the one left of the button, payoffs empty while the hand runs (the competition
dealers' log format, as ``envs.acpc`` writes it). Every field is built for all
tables at once (``envs.batched.text``); the cost per table is a small constant, against the
Python of one ``to_acpc`` call per table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from envs.batched.state import BatchState, Index
from envs.batched.text import Text, decode, join, literal, lookup, numbers, separated
from envs.cards import DECK_SIZE, format_card

__all__ = ["acpc_lines"]

_CARD_PAIRS = np.frombuffer("".join(map(format_card, range(DECK_SIZE))).encode(), np.uint16)
"""Each card's two characters as one ``uint16`` (so a card's text is one gather)."""
_ACTION_TEXT = np.frombuffer(b"fcr", dtype=np.uint8)
"""ACPC's letter of each ``Action`` value."""
_BOARD_TEXT = np.array([0, 7, 10, 13], dtype=np.intp)
"""Characters of ``/flop/turn/river`` dealt by the end of each street's dealing."""
_SLASH, _BAR = ord("/"), ord("|")


def acpc_lines(state: BatchState, tables: Index, names: Sequence[str] | None) -> list[str]:
    """The ACPC ``STATE`` line of each of ``tables`` (dealt tables), with player ``names``
    (default ``p0``, ``p1``, ...)."""
    n = state.rules.num_seats
    if names is not None and len(names) != n:
        raise ValueError(f"need {n} player names, got {len(names)}")
    k = len(tables)
    button = state.button[tables].astype(np.intp)
    street = state.street[tables].astype(np.intp)
    order = (button[:, np.newaxis] + 1 + np.arange(n)) % n  # (k, n): the seat at each place
    players = [
        "|".join(names[s] if names else f"p{s}" for s in [(b + 1 + p) % n for p in range(n)])
        for b in range(n)
    ]
    colon = literal(":", k)
    line = join(
        [
            literal("STATE:", k),
            numbers(state.hand_id[tables]),
            colon,
            _betting(state, tables, street),
            colon,
            _cards(state, tables, order, street),
            colon,
            _payoffs(state, tables, order),
            colon,
            lookup(players, button),
        ]
    )
    return decode(line)


def _betting(state: BatchState, tables: Index, street: Index) -> Text:
    """The decisions as ``f``/``c``/``r``, one ``/`` before each street after the first."""
    k = len(tables)
    size = state.log_len[tables].astype(np.intp)
    width = int(size.max()) if k else 0
    streets = state.log_street[:, :width][tables]
    actions = state.log_action[:, :width][tables]
    # Decision j of a row is preceded by one slash per street before its own (the log is in
    # street order), and a betting string holds nothing but decisions and slashes: write
    # every decision at its place over a row of slashes. Entries past a row's log go to a
    # spare last column (a masked choice as arithmetic: np.where costs several times more).
    line = width + 4
    spare = line - 1
    entry = np.arange(width, dtype=np.intp)
    place = spare + (entry < size[:, np.newaxis]) * (entry + streets - spare)
    place += np.arange(0, k * line, line, dtype=np.intp)[:, np.newaxis]
    chars = np.full((k, line), _SLASH, dtype=np.uint8)
    chars.reshape(-1)[place] = np.take(_ACTION_TEXT, actions)
    return Text(chars, size + street)


def _cards(state: BatchState, tables: Index, order: Index, street: Index) -> Text:
    """``hole|hole|.../flop/turn/river``: hole cards by place, the board dealt so far."""
    k, n = order.shape
    deck = state.deck[tables]
    seat_cards = (2 * order[:, :, np.newaxis] + np.arange(2)).reshape(k, 2 * n)
    holes = _CARD_PAIRS[np.take_along_axis(deck, seat_cards, axis=1)]  # (k, 2n) uint16
    text = np.full((k, 5 * n + 13), _SLASH, dtype=np.uint8)
    by_place = text[:, : 5 * n].reshape(k, n, 5)
    by_place[:, :, :4] = holes.view(np.uint8).reshape(k, n, 4)
    by_place[:, :-1, 4] = _BAR  # the last place's fifth byte is the board's first slash
    board = _CARD_PAIRS[deck[:, 2 * n : 2 * n + 5]].view(np.uint8)  # (k, 10)
    board_text = text[:, 5 * n - 1 :]  # "/" flop "/" turn "/" river
    board_text[:, 1:7] = board[:, :6]
    board_text[:, 8:10] = board[:, 6:8]
    board_text[:, 11:13] = board[:, 8:10]
    return Text(text, 5 * n - 1 + _BOARD_TEXT[street])


def _payoffs(state: BatchState, tables: Index, order: Index) -> Text:
    """Each place's net chips joined by ``|`` once the hand is over, else nothing."""
    num_tables = state.payoffs.shape[1]
    chips: npt.NDArray[np.int32] = np.take(state.payoffs, order * num_tables + tables[:, None])
    joined = separated(chips, "|")
    return Text(joined.chars, joined.length * state.over[tables])
