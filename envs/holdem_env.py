"""The Gymnasium environment: one learner seat against hosted agents (an adapter, no rules).

``MatchDeals`` is the dealing convention of the three envs of holdem-lab: this one and the
PettingZoo env deal with it, and ``envs.learner_tables`` follows it in arrays for the vector
env. The same seed deals the same cards, moves the button the same way and gives hosted agents
the same random numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded, UnsupportedMode

from envs.actions import act_on, action_mask
from envs.deals import deal_decks
from envs.game import Hand
from envs.observation import ObservationEncoder, observation_space
from envs.protocols import SeatAgent
from envs.render import render_view
from envs.rules import Action, Rules
from envs.seating import HandDraws, build_agents, play_turns, tell_hand_end
from envs.view import PlayerView

__all__ = [
    "LEARNER_SEAT",
    "RENDER_MODES",
    "LegalActionSpace",
    "LimitHoldemEnv",
    "MatchDeals",
    "UnsupportedRenderMode",
    "check_render_mode",
    "match_key",
]

LEARNER_SEAT = 0
"""The learner always sits in seat 0; the button moves round the table instead."""

DEAL_BLOCK = 64
"""Hands dealt together (``envs.deals.deal_decks``): a deal is a function of the match key and
the hand number alone, so dealing ahead changes nothing but the cost."""

RENDER_MODES = ("ansi",)
"""The render modes of the envs (Gymnasium's ``metadata["render_modes"]``)."""

ObsType = dict[str, Any]


class UnsupportedRenderMode(UnsupportedMode, TypeError):
    """A render mode the env does not have.

    Gymnasium's ``UnsupportedMode``, and a ``TypeError`` as an env without a ``render_mode``
    argument would raise: Stable-Baselines3's ``make_vec_env`` asks for ``"rgb_array"`` first
    and retries without a render mode on ``TypeError``.
    """


def check_render_mode(render_mode: str | None) -> None:
    """``UnsupportedRenderMode`` unless ``render_mode`` is ``None`` or one of ``RENDER_MODES``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(repr(mode) for mode in RENDER_MODES)
        raise UnsupportedRenderMode(
            f"render_mode must be None or one of {modes}, got {render_mode!r}"
        )


def match_key(rng: np.random.Generator) -> int:
    """The key of a match seeded with ``rng``: its deals and common random numbers."""
    return int(rng.integers(2**63))


class MatchDeals:
    """The hands of an env's match, one after the other: cards, button and random numbers.

    ``start(rng)`` begins a match with key ``k = match_key(rng)`` (one draw from ``rng``); hand
    ``h`` of the match is then dealt ``envs.deals.deal_deck(k, h)``, with the button at seat
    ``h % n``, and comes with its ``HandDraws``: the common random numbers
    ``(k, h, seat, decision index)`` of ``envs.crn`` from which hosted agents that state their
    policy have their actions drawn, as the match runner does.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.key = 0
        """The match key (see ``match_key``)."""
        self.next_hand = 0
        """The number of the next hand ``deal()`` gives."""
        self._decks = np.zeros((0, 2 * rules.num_seats + 5), dtype=np.uint8)
        self._first_dealt = 0  # the hand number of ``_decks[0]``

    def start(self, rng: np.random.Generator) -> None:
        """Begin a new match, its key drawn from ``rng``."""
        self.key = match_key(rng)
        self.next_hand = 0
        self._decks = self._decks[:0]

    def deal(self) -> tuple[Hand, HandDraws]:
        """The match's next hand, blinds posted, and its common random numbers."""
        hand_id = self.next_hand
        self.next_hand += 1
        n = self.rules.num_seats
        offset = hand_id - self._first_dealt
        if not 0 <= offset < len(self._decks):
            hands = np.arange(hand_id, hand_id + DEAL_BLOCK)
            self._decks = deal_decks(self.key, hands, cards=2 * n + 5)
            self._first_dealt, offset = hand_id, 0
        hand = Hand(self.rules, self._decks[offset], button=hand_id % n, hand_id=hand_id)
        return hand, HandDraws(self.key, hand_id, n)


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
        if mask is None and probability is None and self._env._hand is not None:
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
    mask, ``env.action_space.sample()`` draws a legal action. An action is a Python or NumPy
    integer or a 0-d integer array (what SB3's ``model.predict`` returns); booleans and floats
    are refused. An illegal action raises ``ValueError`` with the reason; it is never replaced
    by another.

    ## Observation Space

    A ``Dict`` of everything the learner's seat may know and nothing else, built from its
    ``PlayerView``: own cards, board, street, button and position, pot, amount to call, bets
    this round, contributions, stacks, folded seats, the whole public betting history and,
    at the end of a hand, the cards shown down. The key-by-key table is in
    ``envs.observation``.

    ## Starting State

    ``reset()`` deals a new hand (see Seeding), posts the blinds and lets the opponents act
    until the learner is to act. Hands in
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
    is reset (its memory cleared). The match draws one key ``k`` from the env's generator
    (``MatchDeals``); hand ``h`` of the match is dealt ``envs.deals.deal_deck(k, h)`` with the
    button at seat ``h % n``, and an opponent that states its policy
    (``envs.protocols.KnownPolicy``: every bot and BPP) has its action drawn by inverse CDF
    from the common random number ``(k, h, seat, decision index)`` of ``envs.crn``, as the
    match runner does; the other opponents draw from their own generators, spawned from the
    env's after the key is drawn, one per opponent in seat order. The other envs share this
    convention: ``gymnasium.make_vec`` (``envs.vector_env``), whose opponents decide for all
    its tables at once, plays at table ``i`` exactly the hands of ``reset(seed=s + i)``, and
    the PettingZoo env (``envs.pettingzoo_env``) seeded ``s`` deals the same cards, with the
    same button, and hosts the same agents in seats 1..n-1 with the same random numbers. Same
    seed and same learner actions give the same episodes, opponents' decisions included.
    ``reset()`` without a seed continues the match (a hand in progress is abandoned: nobody is
    told of it).

    ## Arguments

    ```python
    gymnasium.make("holdem_lab/LimitHoldem-v0", opponents=("rule",), rules=None,
                   render_mode=None)
    ```

    * ``opponents``: one agent or registry name per seat 1..n-1 (1 to 9 of them).
    * ``rules``: a ``Rules`` for ``len(opponents) + 1`` seats; default ``Rules(num_seats=...)``
      (blinds 1/2, bets 2/4, 4 bets per round, deep stacks).
    * ``render_mode``: ``None`` or ``"ansi"`` (``render()`` returns the table as text); any
      other mode raises ``UnsupportedRenderMode`` (Gymnasium's ``UnsupportedMode``, a
      ``TypeError`` too, on which SB3's ``make_vec_env`` retries without a render mode).

    ## References

    ACPC limit hold'em rules (``holdem.limit.2p.reverse_blinds.game``); Gymnasium's env card
    format (Blackjack-v1).

    ## Version History

    * v0: initial version; deals and the stated-policy opponents' draws from the match key's
      common random numbers (so that the vector env and the PettingZoo env play the same
      hands). Opponents whose decisions share one uniform per hand (``hand_uniform``, e.g.
      ``loki2`` since it states its probabilities) draw them from its residuals.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 - Gymnasium

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
        check_render_mode(render_mode)
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
        self._deals = MatchDeals(rules)
        self._hand: Hand | None = None
        self._draws: HandDraws | None = None
        self._opponents_seeded = False

    # ------------------------------------------------------------------ API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Deal the next hand and play until the learner is to act (see the env card)."""
        info = self._start(seed)
        return self._observation(), info

    def step(
        self, action: int | np.integer[Any] | npt.NDArray[np.integer[Any]]
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
        """1 for each legal action of the learner now (all 0 between hands).

        Raises:
            ResetNeeded: before the first ``reset()``.
        """
        if self._hand is None:
            raise ResetNeeded("no hand was dealt yet: call reset() first")
        legal: tuple[Action, ...] = ()
        if self._hand.actor == LEARNER_SEAT:
            legal = self._hand.legal_actions()
        return action_mask(legal)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the method sb3-contrib's ``MaskablePPO`` calls).

        Raises:
            ResetNeeded: before the first ``reset()``.
        """
        return self.action_mask().astype(bool)

    # ------------------------------------------------------------ internals
    # ``_start`` and ``_advance`` are ``reset`` and ``step`` without the observation.

    def _start(self, seed: int | None) -> dict[str, Any]:
        super().reset(seed=seed)
        if seed is not None or not self._opponents_seeded:
            self._deals.start(self.np_random)
            for agent, stream in zip(
                self.opponents, self.np_random.spawn(len(self.opponents)), strict=True
            ):
                agent.reset(stream)
            self._opponents_seeded = True
        skipped: list[float] = []
        while True:
            hand, draws = self._deals.deal()
            if play_turns(hand, self._table, draws) is not None:
                break
            tell_hand_end(hand, self._table)
            skipped.append(self._reward(hand))
        self._hand = hand
        self._draws = draws
        return {**self._info(), "skipped_rewards": tuple(skipped)}

    def _advance(self, action: object) -> tuple[float, bool, dict[str, Any]]:
        hand, draws = self._hand, self._draws
        if hand is None or draws is None or hand.is_over:
            raise ResetNeeded("the hand is over (or never started): call reset()")
        act_on(hand, action, "the learner")
        if play_turns(hand, self._table, draws) is not None:
            return 0.0, False, self._info()
        tell_hand_end(hand, self._table)
        return self._reward(hand), True, {**self._info(), "payoffs": hand.payoffs}

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
