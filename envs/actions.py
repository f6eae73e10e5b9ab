"""Actions at the boundary of the environments: what a caller may pass, and masks of them.

>>> parse_action(np.array(2)), parse_action(np.int32(0))
(<Action.RAISE: 2>, <Action.FOLD: 0>)
>>> parse_action(True)
Traceback (most recent call last):
  ...
ValueError: action must be 0 (fold), 1 (check/call) or 2 (bet/raise), got True
>>> action_mask((Action.CALL, Action.RAISE))
array([0, 1, 1], dtype=int8)
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from envs.rules import Action

if TYPE_CHECKING:
    from envs.game import Hand

__all__ = ["act_on", "action_mask", "parse_action"]


def parse_action(action: object) -> Action:
    """``action`` as an ``Action``, or ``ValueError``.

    Python and NumPy integers and 0-d integer arrays (what ``model.predict`` returns for a
    ``Discrete`` space) are actions; booleans, floats and anything else are refused.
    """
    value = action
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value < 3:
        raise ValueError(
            f"action must be 0 (fold), 1 (check/call) or 2 (bet/raise), got {action!r}"
        )
    return Action(int(value))


def act_on(hand: Hand, action: object, actor: str) -> Action:
    """Play ``action`` (as ``parse_action`` reads it) at ``hand`` and return it.

    Raises:
        ValueError: if it is not an action, or is illegal there: the message names ``actor``,
            the reason and the legal actions, and the hand has not changed.
    """
    choice = parse_action(action)
    legal = hand.legal_actions()
    try:
        hand.act(choice)  # validates before it changes anything
    except ValueError as error:
        names = ", ".join(a.name for a in legal)
        raise ValueError(
            f"illegal action {choice.name} for {actor}: {error}; legal: {names}"
        ) from None
    return choice


def action_mask(legal: tuple[Action, ...]) -> npt.NDArray[np.int8]:
    """1 for each legal action, indexed by ``Action`` (a fresh array)."""
    return _mask_of(legal).copy()


@functools.cache
def _mask_of(legal: tuple[Action, ...]) -> npt.NDArray[np.int8]:
    # A handful of sets of legal actions exist: build each mask once.
    mask = np.zeros(len(Action), dtype=np.int8)
    mask[list(legal)] = 1
    return mask
