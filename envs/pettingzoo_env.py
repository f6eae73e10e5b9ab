"""The PettingZoo AEC environment: the same fixed-limit hold'em, every seat a learner or hosted.

``env(...)`` returns the environment wrapped as PettingZoo's classic environments are, and
``raw_env(...)`` the bare ``LimitHoldemAECEnv``; the env card is the class docstring. Needs
the ``pettingzoo`` extra (``pip install 'holdem-lab[pettingzoo]'``).

Self-play, every seat a learner choosing a random legal action from its action mask:

```python
import numpy as np
from envs.pettingzoo_env import env as limit_holdem

env = limit_holdem(num_seats=3, hands_per_episode=100)
env.reset(seed=0)
rng = np.random.default_rng(0)
won = dict.fromkeys(env.agents, 0.0)
for agent in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    won[agent] += reward  # big blinds, paid at the end of every hand
    if terminated or truncated:
        action = None  # PettingZoo's convention for an agent that is done
    else:
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
    env.step(action)
print(won)  # big blinds won by each seat over the 100 hands
```
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from envs.actions import act_on, action_mask
from envs.game import Hand
from envs.holdem_env import MatchDeals
from envs.observation import DISCRETE_KEYS, ObservationEncoder, observation_space
from envs.protocols import SeatAgent
from envs.render import render_view
from envs.rules import Action, Rules
from envs.seating import HandDraws, build_agents, play_turns, tell_hand_end
from envs.validation import whole_number

__all__ = ["MAX_HANDS_WITHOUT_DECISION", "LimitHoldemAECEnv", "env", "raw_env"]

ObsType = dict[str, Any]
ActionType = int | np.integer[Any] | npt.NDArray[np.integer[Any]] | None

MAX_HANDS_WITHOUT_DECISION = 1000
"""Hands in a row without a learner decision after which the rules are declared unplayable."""


def raw_env(
    num_seats: int = 2,
    *,
    rules: Rules | None = None,
    hosted: Mapping[int, SeatAgent | str] | None = None,
    hands_per_episode: int = 1,
    render_mode: str | None = None,
) -> LimitHoldemAECEnv:
    """The environment without wrappers (see ``LimitHoldemAECEnv`` for the arguments)."""
    return LimitHoldemAECEnv(
        num_seats,
        rules=rules,
        hosted=hosted,
        hands_per_episode=hands_per_episode,
        render_mode=render_mode,
    )


def env(
    num_seats: int = 2,
    *,
    rules: Rules | None = None,
    hosted: Mapping[int, SeatAgent | str] | None = None,
    hands_per_episode: int = 1,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> AECEnv:
    """The environment in PettingZoo's ``OrderEnforcingWrapper``, as classic envs come.

    An illegal action raises ``ValueError`` with the reason (holdem-lab's rule: never hidden
    from the learner). With ``illegal_reward`` set, PettingZoo's convention applies instead:
    ``TerminateIllegalWrapper`` ends the episode with ``illegal_reward`` for the offending
    agent and 0 for the others, and ``AssertOutOfBoundsWrapper`` checks the action space, as
    in the classic envs' ``env()``.
    """
    aec: AECEnv = raw_env(
        num_seats,
        rules=rules,
        hosted=hosted,
        hands_per_episode=hands_per_episode,
        render_mode=render_mode,
    )
    if illegal_reward is not None:
        aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=illegal_reward)
        aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


class LimitHoldemAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Fixed-limit Texas hold'em as a PettingZoo AEC game: learners and hosted agents.

    ## Description

    The game of ``envs.game.Hand`` (ACPC fixed-limit rules, 2 to 10 seats, finite stacks when
    ``rules.stacks`` says so). Every seat is a PettingZoo agent named ``player_<seat>``,
    except the seats in ``hosted``, which hosted agents (registry names such as ``"rule"``
    or agent objects) play inside ``reset()`` and ``step()``. The button moves one seat per
    hand (seat ``k % n`` in hand ``k`` of a match). Unlike PettingZoo's ``texas_holdem_v4``
    (RLCard's engine), the big blind acts first after the flop heads-up, a round ends once
    every live seat has acted and matched the bet, and folding is illegal when checking is
    free.

    | | |
    |---|---|
    | Agents | ``player_<seat>`` for every seat not hosted (1 to 10 of them) |
    | Action space | ``Discrete(3)``: 0 fold, 1 check/call, 2 bet/raise (``envs.Action``) |
    | Observation space | ``Dict(observation=..., action_mask=Box(0, 1, (3,), int8))`` |
    | Rewards | net chips won in a hand / big blind, at the end of every hand |
    | Infos | ``{"hand_id": k}``: the hand in play is hand ``k`` of the match |

    ## Observation Space

    ``observation`` is the encoding of the agent's ``PlayerView`` (``envs.observation``:
    own cards, board, street, button and position, pot, amount to call, bets, contributions
    and stacks per seat, folded seats, the public betting history, cards shown down), so it
    holds what the seat may know and nothing else; ``Discrete`` entries are NumPy ``int64``
    scalars. ``action_mask`` is 1 for the legal actions of the agent to act and all 0 for
    the others (PettingZoo's convention).

    ## Action Space

    An illegal action raises ``ValueError`` with the reason and changes nothing (an
    ``illegal_reward`` given to ``env()`` selects PettingZoo's termination instead). Python
    and NumPy integers and 0-d integer arrays are accepted; booleans and floats are not.
    ``None`` is the only action of an agent that is done. Sample with the mask, as
    PettingZoo's own tests do: ``env.action_space(agent).sample(observation["action_mask"])``.

    ## Rewards

    At the end of every hand each agent receives its net chips won divided by the big blind
    (0 on other steps). A hand in which no agent has a decision (the hosted seats fold to a
    learner's big blind, or a learner is all-in from its blind) is played out where it falls;
    its rewards come with the step that dealt it or, before the first decision of an episode,
    with the first step. No reward is dropped.

    ## Episode End

    An episode lasts ``hands_per_episode`` hands (default 1) in which some agent has a
    decision; hands without one do not count. Then every agent is terminated, never
    truncated. Every hand starts from ``rules.starting_stacks``: stacks do not carry over.
    Rules under which the agents' seats never act (stacks all-in from the blinds) are a
    ``ValueError`` after ``MAX_HANDS_WITHOUT_DECISION`` hands without a decision.

    ## Seeding

    ``reset(seed=s)`` starts a match dealt as in ``LimitHoldemEnv`` and the vector env
    (``envs.holdem_env.MatchDeals``): a key ``k`` drawn from ``seeding.np_random(s)``, hand
    ``h`` dealt ``envs.deals.deal_deck(k, h)`` with the button at seat ``h % n``, hosted
    agents that state their policy (``envs.protocols.KnownPolicy``) drawing their actions
    from the common random numbers ``(k, h, seat, decision index)`` of ``envs.crn``, and the
    hosted agents (in seat order) reset with generators spawned after the key. So a seed
    deals the same cards in the three envs, and with ``LimitHoldemEnv``'s opponents hosted in
    seats 1..n-1, ``player_0`` plays the Gymnasium learner's hands. ``reset()`` without a seed
    starts the next episode of the same match: deals, button and hosted agents' memories go
    on. Same seed and same actions give the same episodes.

    ## Arguments

    ```python
    envs.pettingzoo_env.env(num_seats=2, rules=None, hosted=None, hands_per_episode=1,
                            render_mode=None, illegal_reward=None)
    ```

    * ``num_seats``: seats at the table, 2 to 10.
    * ``rules``: a ``Rules`` for ``num_seats`` seats (default ``Rules(num_seats=...)``:
      blinds 1/2, bets 2/4, 4 bets per round, deep stacks).
    * ``hosted``: seat -> registry agent name or agent object, for the seats hosted agents
      play; at least one seat must be left to the PettingZoo agents.
    * ``hands_per_episode``: hands per episode, at least 1.
    * ``render_mode``: ``None`` or ``"ansi"`` (``render()`` returns the table as the agent to
      act sees it).

    ## Version History

    * v1: deals from ``MatchDeals``, the Gymnasium envs' cards and common random numbers (the
      same seed gives the same cards as ``LimitHoldemEnv`` and the vector env).
    * v0: initial version: the seed generator's ``permutation(52)``, every hosted agent
      drawing its actions from its own generator.
    """

    agent_selection: str
    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's API
        "render_modes": ["ansi"],
        "name": "limit_holdem_v1",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_seats: int = 2,
        *,
        rules: Rules | None = None,
        hosted: Mapping[int, SeatAgent | str] | None = None,
        hands_per_episode: int = 1,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        n = whole_number("num_seats", num_seats, minimum=2)
        if rules is None:
            rules = Rules(num_seats=n)
        elif not isinstance(rules, Rules):
            raise TypeError(f"rules must be an envs.Rules, got {rules!r}")
        elif rules.num_seats != n:
            raise ValueError(f"rules are for {rules.num_seats} seats but num_seats is {n}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.hands_per_episode = whole_number("hands_per_episode", hands_per_episode, minimum=1)
        self._table = _seat_hosted(n, hosted or {})
        self.hosted: tuple[SeatAgent, ...] = tuple(a for a in self._table if a is not None)
        self.possible_agents = [f"player_{s}" for s, a in enumerate(self._table) if a is None]
        self._seat_of = {agent: int(agent.split("_")[1]) for agent in self.possible_agents}
        self._agent_at = {seat: agent for agent, seat in self._seat_of.items()}
        self._names = [
            a.name if a is not None else f"player_{s}" for s, a in enumerate(self._table)
        ]
        mask_space = spaces.Box(low=0, high=1, shape=(len(Action),), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict(
                {"observation": observation_space(rules), "action_mask": mask_space}
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(len(Action)) for agent in self.possible_agents
        }
        self._encoders = {agent: ObservationEncoder(rules) for agent in self.possible_agents}
        self.agents: list[str] = []
        self._np_random: np.random.Generator | None = None
        self._deals = MatchDeals(rules)
        self._hand: Hand | None = None
        self._draws: HandDraws | None = None
        self._counted = 0  # hands of this episode in which some agent had a decision
        self._decided = False  # whether an agent had a decision in the current hand
        self._pending = dict.fromkeys(self.possible_agents, 0.0)

    # ------------------------------------------------------------------ API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode (a new match if seeded) and play until an agent is to act.

        ``options`` is accepted for PettingZoo's API and unused.
        """
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
            self._deals.start(self._np_random)
            for agent, stream in zip(
                self.hosted, self._np_random.spawn(len(self.hosted)), strict=True
            ):
                agent.reset(stream)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._counted = 0
        self._deal()
        reached = self._play_to_decision()
        assert reached  # hands without a decision do not count, so one is always reached
        # PettingZoo starts every episode at zero reward: hands played out before the first
        # decision pay with the first step.
        self._pending = self.rewards
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._update_infos()

    def step(self, action: ActionType) -> None:
        """Apply the action of ``agent_selection``, then play until the next decision."""
        agent = self.agent_selection if self.agents else None
        if agent is not None and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            return
        hand = self._hand
        if hand is None or agent is None:
            raise ResetNeeded("the episode is over (or never started): call reset()")
        act_on(hand, action, agent)
        self._decided = True
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self._pending
        self._pending = dict.fromkeys(self.possible_agents, 0.0)
        if not self._play_to_decision():
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()
        self._update_infos()

    def observe(self, agent: str) -> ObsType:
        """The observation of ``agent``: its view of the current hand and its action mask."""
        if self._hand is None:
            raise ResetNeeded("call reset() before observe()")
        view = self._hand.view(self._seat_of[agent])
        observation = self._encoders[agent].encode(view)
        for key in DISCRETE_KEYS:  # NumPy int64 scalars (see the env card)
            observation[key] = np.int64(observation[key])
        return {"observation": observation, "action_mask": action_mask(view.legal_actions)}

    def render(self) -> str | None:
        """The table as the agent to act sees it in ``"ansi"`` mode; ``None`` otherwise."""
        if self.render_mode is None or self._hand is None:
            return None
        return render_view(self._hand.view(self._seat_of[self.agent_selection]), self._names)

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------ internals

    def _deal(self) -> None:
        self._hand, self._draws = self._deals.deal()
        self._decided = False

    def _play_to_decision(self) -> bool:
        """Let hosted seats act until an agent is to act (``True``) or the episode ends.

        Rewards of the hands that end on the way are added to ``self.rewards``.
        """
        skipped = 0
        while True:
            assert self._hand is not None
            seat = play_turns(self._hand, self._table, self._draws)
            if seat is not None:
                self.agent_selection = self._agent_at[seat]
                return True
            hand = self._hand
            tell_hand_end(hand, self._table)
            for agent in self.agents:
                self.rewards[agent] += hand.payoffs[self._seat_of[agent]] / self.rules.big_blind
            if self._decided:
                self._counted += 1
                if self._counted >= self.hands_per_episode:
                    return False
            else:
                skipped += 1
                if skipped >= MAX_HANDS_WITHOUT_DECISION:
                    raise ValueError(
                        f"no agent had a decision in {skipped} hands in a row: with stacks "
                        f"{self.rules.starting_stacks} and blinds {self.rules.small_blind}/"
                        f"{self.rules.big_blind} the agents' seats never get to act"
                    )
            self._deal()

    def _update_infos(self) -> None:
        hand_id = self._deals.next_hand - 1  # the hand dealt last
        self.infos = {agent: {"hand_id": hand_id} for agent in self.agents}


def _seat_hosted(n: int, hosted: Mapping[int, SeatAgent | str]) -> list[SeatAgent | None]:
    """One entry per seat: the hosted agent, or ``None`` for a PettingZoo agent's seat."""
    if not isinstance(hosted, Mapping):
        raise TypeError(f"hosted must map seats to agents, got {hosted!r}")
    seats = [whole_number("a hosted seat", seat, minimum=0) for seat in hosted]
    for seat in seats:
        if seat >= n:
            raise ValueError(f"hosted seat {seat} does not exist at a table of {n} seats")
    if len(set(seats)) == n:
        raise ValueError(f"every seat is hosted: leave at least one of the {n} to the agents")
    built = build_agents(list(hosted.values()))
    table: list[SeatAgent | None] = [None] * n
    for seat, agent in zip(seats, built, strict=True):
        table[seat] = agent
    return table
