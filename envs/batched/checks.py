"""Input checks of the batched engine: one clear ``ValueError`` per mistake, naming the table.

Checks run before any table changes, so a refused call leaves the whole batch as it was.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from envs.batched.betting import Decisions
from envs.batched.state import CHIP_LIMIT, CHIPS, BatchState, Bools, Chips, Index, Int8s
from envs.cards import DECK_SIZE, format_card
from envs.rules import Action, Street

__all__ = ["StartArgs", "check_actions", "check_moving", "check_start", "refusal"]

StartArgs = tuple[Index, Bools, npt.NDArray[np.integer], Int8s, npt.NDArray[np.int64], Chips]


def _integers(name: str, values: npt.ArrayLike, shape: tuple[int, ...]) -> npt.NDArray[np.integer]:
    """``values`` as an integer array of ``shape`` (broadcast, not copied)."""
    array = np.asarray(values)
    if array.dtype.kind not in "iu" and array.size:
        raise ValueError(f"{name} must be integers, got dtype {array.dtype}")
    if array.shape != shape:
        try:
            array = np.broadcast_to(array, shape)
        except ValueError:
            raise ValueError(f"{name} must have shape {shape}, got {array.shape}") from None
    return array


def check_start(
    state: BatchState,
    rows: npt.ArrayLike,
    decks: npt.ArrayLike,
    buttons: npt.ArrayLike,
    hand_ids: npt.ArrayLike,
    stacks: npt.ArrayLike | None,
) -> StartArgs:
    """The arguments of ``HandBatch.start`` as arrays (with the rows as a mask too, stacks
    seat-major), or ``ValueError`` naming the problem. Values are range-checked before they
    are narrowed."""
    rules = state.rules
    n, tables = rules.num_seats, len(state.over)
    table = np.asarray(rows)
    if table.ndim != 1:
        raise ValueError(f"rows must be a 1-D array of table numbers, got shape {table.shape}")
    k = len(table)
    table = _integers("rows", table, (k,))
    if k and (table.min() < 0 or table.max() >= tables):
        bad = table[(table < 0) | (table >= tables)][0]
        raise ValueError(f"table {bad} does not exist: the batch has tables 0..{tables - 1}")
    index = table.astype(np.intp, copy=False)
    chosen = np.zeros(tables, dtype=np.bool_)
    chosen[index] = True
    if np.count_nonzero(chosen) != k:
        twice = int(np.argmax(np.bincount(index, minlength=tables) > 1))
        raise ValueError(f"table {twice} appears twice in rows")
    running = ~state.over[index]
    if running.any():
        raise ValueError(
            f"table {index[running][0]} has a hand in progress: play it to its end first"
        )
    needed = 2 * n + 5
    deck = np.asarray(decks)
    if k == 0 and deck.size == 0:
        deck = np.zeros((0, needed), dtype=np.uint8)
    if deck.ndim != 2 or deck.shape[0] != k or deck.shape[1] < needed:
        raise ValueError(
            f"decks must have shape ({k}, at least {needed}) for {k} {n}-seat tables, "
            f"got {deck.shape}"
        )
    cards = _integers("decks", deck[:, :needed], (k, needed))
    if k and (cards.min() < 0 or cards.max() >= DECK_SIZE):
        i, j = np.argwhere((cards < 0) | (cards >= DECK_SIZE))[0]
        raise ValueError(f"table {index[i]}: card ids are 0..51, got {cards[i, j]}")
    # Distinct cards: the bits 1 << card of a deck sum to their union. (Card-major copy:
    # reductions over the short card axis are far cheaper along the first axis.)
    bits = np.left_shift(np.uint64(1), cards.T.astype(np.uint64, order="C"))
    repeated = np.bitwise_or.reduce(bits, axis=0) != bits.sum(axis=0)
    if repeated.any():
        i = int(np.argmax(repeated))
        ordered = np.sort(cards[i])
        twice = ordered[1:][ordered[1:] == ordered[:-1]][0]
        raise ValueError(f"table {index[i]}: card {format_card(int(twice))} appears twice")
    button = _integers("buttons", buttons, (k,))
    if k and (button.min() < 0 or button.max() >= n):
        i = int(np.argmax((button < 0) | (button >= n)))
        raise ValueError(f"table {index[i]}: button must be a seat 0..{n - 1}, got {button[i]}")
    hand_id = _integers("hand_ids", hand_ids, (k,)).astype(np.int64, copy=False)
    if stacks is None:
        chips = np.broadcast_to(
            np.array(rules.starting_stacks, dtype=CHIPS)[:, np.newaxis], (n, k)
        )
    else:
        wide = _integers("stacks", stacks, (k, n)).T.astype(np.int64, order="C")  # seat-major
        if k and wide.min() <= 0:
            i = int(np.argmax((wide <= 0).any(axis=0)))
            raise ValueError(
                f"table {index[i]}: stacks must be positive, got {wide[:, i].tolist()}"
            )
        totals = wide.sum(axis=0)
        if k and totals.max() > CHIP_LIMIT:
            i = int(np.argmax(totals))
            raise ValueError(
                f"table {index[i]}: at most {CHIP_LIMIT:,} chips per table, got {totals[i]:,}"
            )
        chips = wide.astype(CHIPS)
    return index, chosen, cards, button.astype(np.int8), hand_id, chips


def check_moving(d: Decisions, where: npt.ArrayLike | None) -> Bools:
    """The tables that act in a step: those with a decision, within ``where`` if given."""
    if where is None:
        return d.acting
    mask = np.asarray(where)
    if mask.dtype != np.bool_ or mask.shape != d.acting.shape:
        raise ValueError(
            f"where must be a boolean mask of shape {d.acting.shape}, got {mask.dtype} "
            f"{mask.shape}"
        )
    moving: Bools = d.acting & mask
    return moving


def check_actions(
    d: Decisions, state: BatchState, actions: npt.ArrayLike, moving: Bools
) -> npt.NDArray[np.int8]:
    """The actions as ``int8`` (0 where a table does not move), or ``ValueError`` naming the
    first moving table whose action is illegal (other entries are ignored)."""
    array = np.asarray(actions)
    tables = len(d.acting)
    if array.shape != (tables,):
        raise ValueError(f"actions must have shape ({tables},), one per table, got {array.shape}")
    if array.dtype.kind not in "iu":
        raise ValueError(f"actions must be integers (envs.Action values), got {array.dtype}")
    valid = (array >= 0) & (array <= 2)
    chosen = (array * valid).astype(np.intp)
    legal = np.take(d.legal, chosen * tables + np.arange(tables))
    wrong = moving & ~(valid & legal)
    if wrong.any():
        table = int(np.argmax(wrong))
        raise ValueError(refusal(state, table, int(array[table])))
    return (chosen * moving).astype(np.int8)


def refusal(state: BatchState, table: int, action: int) -> str:
    """Why ``action`` is illegal at ``table`` (the message of the engine's ``ValueError``)."""
    seat = int(state.actor[table])
    if seat < 0:
        why = "no hand was dealt" if not state.dealt[table] else "the hand is over"
        return f"table {table}: nobody is to act ({why})"
    if action not in (Action.FOLD, Action.CALL, Action.RAISE):
        return f"table {table}, seat {seat}: unknown action {action}; use envs.Action values"
    name = Action(action).name
    bets, stacks = state.bets[:, table], state.stacks[:, table]
    owed = int(state.max_bet[table]) - int(bets[seat])
    if action == Action.FOLD:
        return f"table {table}: seat {seat} may not fold ({name}): checking is free (ACPC)"
    street = Street(int(state.street[table]))
    num_bets = int(state.num_bets[table])
    verb = "raise" if num_bets else "bet"
    cap = state.rules.max_bets[street]
    full_raise = int(state.full_raise[table])
    short = int(state.short_all_in[table])
    if num_bets >= cap:
        why = f"the cap of {cap} bets on the {street.name.lower()} is reached"
    elif int(stacks[seat]) <= owed:
        why = "its stack only covers a call"
    elif owed < full_raise:
        why = "it faces a short all-in it cannot raise"
    elif short and short < full_raise and int(state.acted[table]) >> seat & 1:
        why = "a short all-in does not reopen the betting for a seat that already acted"
    else:
        why = "every other seat is all-in or folded"
    return f"table {table}: seat {seat} may not {verb} ({name}): {why}"
