"""The Gymnasium environment: one learner seat against hosted agents (an adapter, no rules)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from envs.game import Hand
from envs.observation import ObservationEncoder, observation_space
from envs.protocols import SeatAgent
from envs.render import render_view
from envs.rules import Action, Rules
from envs.seating import build_agents, play_turns, tell_hand_end
from envs.view import PlayerView

__all__ = ["LEARNER_SEAT", "LegalActionSpace", "LimitHoldemEnv"]

LEARNER_SEAT = 0
"""The learner always sits in seat 0; the button moves round the table instead."""

ObsType = dict[str, Any]


class LegalActionSpace(spaces.Discrete):
    """``Discrete(3)`` whose ``sample()`` without a mask draws a legal action of the state.

    ``contains`` is unchanged (0, 1 and 2 are all valid members of the space); only the
    default of ``sample`` follows the env's current action mask, so that the standard random
    agent, ``env.action_space.sample()``, never hits the env's ``ValueError`` for illegal
    actions. An explicit ``mask=`` is honoured as given.
    """

    def __init__(self, env: LimitHoldemEnv) -> None:
        super().__init__(len(Action))
        self._env = env

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A uniform draw among the legal actions (or as ``mask`` / ``probability`` say)."""
        if mask is None and probability is None:
            mask = self._env.action_mask()
        return super().sample(mask=mask, probability=probability)


class LimitHoldemEnv(gym.Env[ObsType, np.int64]):
    """Fixed-limit Texas hold'em, one learner seat against hosted agents.

    ## Description

    One episode is one hand of fixed-limit hold'em (ACPC rules, ``envs.game.Hand``) at a table
    of 2 to 10 seats. The learner sits in seat 0; every other seat is played inside ``step()``
    by a hosted agent (``opponents``: agent objects or registry names such as ``"random"``,
    ``"call"``, ``"raise"``, ``"rule"``). The button moves one seat every hand, so the learner
    plays every position in turn; it is the button in the first hand after a seeded reset.
    Opponents keep their memory from hand to hand (they see every hand's end with the cards
    their seat saw), so learning opponents can model the learner.

    ## Action Space

    ``Discrete(3)``: 0 fold, 1 check/call, 2 bet/raise (``envs.Action``). Not every action is
    legal in every state: folding is illegal when checking is free (ACPC) and raising is
    illegal once the round is capped. The legal actions are given by ``info["action_mask"]``
    (``int8``, Gymnasium's convention: ``env.action_space.sample(mask=info["action_mask"])``)
    and by ``action_masks()`` (``bool``, sb3-contrib's ``MaskablePPO`` convention). Without a
    mask, ``env.action_space.sample()`` draws a legal action. An illegal action raises
    ``ValueError`` with the reason; it is never replaced by another.

    ## Observation Space

    A ``Dict`` of everything the learner's seat may know and nothing else, built from its
    ``PlayerView``: own cards, board, street, button and position, pot, amount to call, bets
    this round, contributions, stacks, folded seats, the whole public betting history and,
    at the end of a hand, the cards shown down. The key-by-key table is in
    ``envs.observation``.

    ## Starting State

    ``reset()`` deals a new hand from the env's generator (one permutation of the deck per
    hand), posts the blinds and lets the opponents act until the learner is to act. Hands in
    which the learner never gets a decision (everybody folds to its big blind, or it is
    all-in from a blind) are played out inside ``reset()``; their rewards are listed in
    ``info["skipped_rewards"]`` so that none is lost.

    ## Rewards

    0 on every step but the last; on the last, the learner's net chips won in the hand divided
    by the big blind (``Rules.big_blind``).

    ## Episode End

    The episode terminates when the hand ends (a fold leaves one seat, or the showdown).
    It is never truncated. ``info["payoffs"]`` then gives every seat's net chips.

    ## Seeding

    ``reset(seed=s)`` starts a new match: the deals and the button restart, and every opponent
    is reset (its memory cleared) with its own generator spawned from the env's. Same seed and
    same learner actions give the same episodes, opponents' decisions included. ``reset()``
    without a seed continues the match.

    ## Arguments

    ```python
    gymnasium.make("holdem_lab/LimitHoldem-v0", opponents=("rule",), rules=None,
                   render_mode=None)
    ```

    * ``opponents``: one agent or registry name per seat 1..n-1 (1 to 9 of them).
    * ``rules``: a ``Rules`` for ``len(opponents) + 1`` seats; default ``Rules(num_seats=...)``
      (blinds 1/2, bets 2/4, 4 bets per round, deep stacks).
    * ``render_mode``: ``None`` or ``"ansi"`` (``render()`` returns the table as text).

    ## References

    ACPC limit hold'em rules (``holdem.limit.2p.reverse_blinds.game``); Gymnasium's env card
    format (Blackjack-v1).

    ## Version History

    * v0: initial version.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        opponents: Sequence[SeatAgent | str] = ("rule",),
        *,
        rules: Rules | None = None,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(opponents, str):
            raise TypeError(
                f"opponents must be a sequence of agents, got the string {opponents!r}"
            )
        if not 1 <= len(opponents) <= 9:
            raise ValueError(
                f"the env needs 1 to 9 opponents (2 to 10 seats), got {len(opponents)}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.opponents: tuple[SeatAgent, ...] = tuple(build_agents(opponents))
        n = len(self.opponents) + 1
        if rules is None:
            rules = Rules(num_seats=n)
        elif rules.num_seats != n:
            raise ValueError(
                f"rules are for {rules.num_seats} seats but {len(self.opponents)} opponents "
                f"plus the learner make {n}"
            )
        self.rules = rules
        self.render_mode = render_mode
        self.observation_space = observation_space(rules)
        self.action_space = LegalActionSpace(self)
        self._table: list[SeatAgent | None] = [None, *self.opponents]
        self._names = ("learner", *(agent.name for agent in self.opponents))
        self._encoder = ObservationEncoder(rules)
        self._hand: Hand | None = None
        self._hand_id = 0
        self._opponents_seeded = False

    # ------------------------------------------------------------------ API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Deal the next hand and play until the learner is to act (see the env card)."""
        info = self._start(seed)
        return self._observation(), info

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then let the opponents act until its next turn."""
        reward, terminated, info = self._advance(action)
        return self._observation(), reward, terminated, False, info

    def render(self) -> str | None:
        """The table as text in ``"ansi"`` mode; ``None`` without a render mode."""
        if self.render_mode is None or self._hand is None:
            return None
        return render_view(self._hand.view(LEARNER_SEAT), self._names)

    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action of the learner now (all 0 between hands)."""
        legal: tuple[Action, ...] = ()
        if self._hand is not None and self._hand.actor == LEARNER_SEAT:
            legal = self._hand.legal_actions()
        return _mask_of(legal).copy()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the method sb3-contrib's ``MaskablePPO`` calls)."""
        return self.action_mask().astype(bool)

    # ------------------------------------------------------------ internals
    # ``_start`` and ``_advance`` are ``reset`` and ``step`` without the observation, which
    # ``LimitHoldemVectorEnv`` encodes for all its tables at once from ``_learner_view``.

    def _start(self, seed: int | None) -> dict[str, Any]:
        super().reset(seed=seed)
        if seed is not None or not self._opponents_seeded:
            self._hand_id = 0
            for agent, stream in zip(
                self.opponents, self.np_random.spawn(len(self.opponents)), strict=True
            ):
                agent.reset(stream)
            self._opponents_seeded = True
        skipped: list[float] = []
        while True:
            hand = self._deal()
            if play_turns(hand, self._table) is not None:
                break
            tell_hand_end(hand, self._table)
            skipped.append(self._reward(hand))
        self._hand = hand
        return {**self._info(), "skipped_rewards": tuple(skipped)}

    def _advance(self, action: int | np.integer[Any]) -> tuple[float, bool, dict[str, Any]]:
        hand = self._hand
        if hand is None or hand.is_over:
            raise ResetNeeded("the hand is over (or never started): call reset()")
        choice = _as_action(action)
        legal = hand.legal_actions()
        try:
            hand.act(choice)  # validates before it changes anything
        except ValueError as error:
            names = ", ".join(a.name for a in legal)
            raise ValueError(
                f"illegal action {choice.name} for the learner: {error}; legal: {names}"
            ) from None
        if play_turns(hand, self._table) is not None:
            return 0.0, False, self._info()
        tell_hand_end(hand, self._table)
        return self._reward(hand), True, {**self._info(), "payoffs": hand.payoffs}

    def _deal(self) -> Hand:
        hand_id = self._hand_id
        self._hand_id += 1
        deck = self.np_random.permutation(52)
        button = (LEARNER_SEAT + hand_id) % self.rules.num_seats
        return Hand(self.rules, deck, button=button, hand_id=hand_id)

    def _learner_view(self) -> PlayerView:
        assert self._hand is not None
        return self._hand.view(LEARNER_SEAT)

    def _observation(self) -> ObsType:
        return self._encoder.encode(self._learner_view())

    def _info(self) -> dict[str, Any]:
        assert self._hand is not None
        return {"action_mask": self.action_mask(), "hand_id": self._hand.hand_id}

    def _reward(self, hand: Hand) -> float:
        return hand.payoffs[LEARNER_SEAT] / self.rules.big_blind


@functools.cache
def _mask_of(legal: tuple[Action, ...]) -> npt.NDArray[np.int8]:
    """The mask of a set of legal actions (a handful exist: cached, copied by callers)."""
    mask = np.zeros(len(Action), dtype=np.int8)
    mask[list(legal)] = 1
    return mask


def _as_action(action: object) -> Action:
    if isinstance(action, bool) or not isinstance(action, int | np.integer) or not 0 <= action < 3:
        raise ValueError(
            f"action must be 0 (fold), 1 (check/call) or 2 (bet/raise), got {action!r}"
        )
    return Action(int(action))
