"""The tables of the vector env: one ``HandBatch``, the learner in seat 0, batched opponents.

``LearnerTables`` is the engine side of ``envs.vector_env``. Each opponent seat is one batched
agent deciding for every table at once (``envs.protocols.BatchedAgent``: the agent's batched
twin, or ``ScalarTables``, one scalar copy per table, for an agent without one). Between two
learner decisions the opponents of all tables act together, one ``HandBatch.step`` per round
of decisions, the learner's tables waiting (``step(..., where=)``).

Each table plays one match exactly as ``LimitHoldemEnv`` does after ``reset(seed=s)``: the
match key is drawn from the same generator (``envs.holdem_env.match_key``), hand ``h`` is dealt
``envs.deals.deal_deck(key, h)`` with the button at seat ``h % n``, the opponents' actions are
drawn from the common random numbers ``(key, h, seat, decision index)`` of ``envs.crn``, and
adapted agents get the generators the plain env would give them. So a table replays the plain
env's hands for the same seed and learner actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from envs.batched.adapter import ScalarTables, batched_form
from envs.batched.engine import HandBatch
from envs.batched.views import decisions_at, hand_ends_at
from envs.crn import check_probabilities, decision_uniforms, residuals, sample_actions
from envs.deals import deal_decks
from envs.holdem_env import LEARNER_SEAT, match_key
from envs.protocols import BatchedAgent, SeatAgent
from envs.registry import make_agent
from envs.rules import Action, Rules
from envs.seating import build_agents

__all__ = ["LearnerTables", "OpponentSpec", "check_opponent_specs"]

OpponentSpec = str | Callable[[], SeatAgent]
"""A registry name, or a zero-argument factory (such as an agent class) building one agent."""

Bools = npt.NDArray[np.bool_]
Index = npt.NDArray[np.intp]

_FOLD, _CALL = int(Action.FOLD), int(Action.CALL)


def check_opponent_specs(opponents: Sequence[OpponentSpec]) -> None:
    """``TypeError`` unless every opponent is a registry name or an agent factory.

    Agent objects are refused: one object at several tables would share its memory and
    generator between them.
    """
    if isinstance(opponents, str):
        raise TypeError(f"opponents must be a sequence, got the string {opponents!r}")
    for spec in opponents:
        factory = isinstance(spec, type) or not isinstance(spec, SeatAgent)
        if not isinstance(spec, str) and not (factory and callable(spec)):
            raise TypeError(
                f"vector env opponents must be registry names or agent factories (e.g. an "
                f"agent class), not agent objects, since every table needs its own: {spec!r}"
            )


def _build(spec: OpponentSpec) -> SeatAgent:
    return make_agent(spec) if isinstance(spec, str) else build_agents([spec()])[0]


def batched_opponent(spec: OpponentSpec, batch: HandBatch) -> tuple[BatchedAgent, str]:
    """The batched form of ``spec`` at every table of ``batch`` (``batched_form``), and the
    agent's name."""
    template = _build(spec)
    return batched_form(template, batch, lambda: _build(spec)), template.name


class LearnerTables:
    """``num_tables`` tables of ``rules``: the learner in seat 0, ``opponents[j]`` in seat
    ``j + 1`` (see the module docstring).

    Args:
        rules: The game, ``len(opponents) + 1`` seats.
        num_tables: Tables, at least 1.
        opponents: One registry name or agent factory per opponent seat.
    """

    def __init__(self, rules: Rules, num_tables: int, opponents: Sequence[OpponentSpec]) -> None:
        self.rules = rules
        self.batch = HandBatch(rules, num_tables)
        self.num_tables = num_tables
        built = [batched_opponent(spec, self.batch) for spec in opponents]
        self.opponents = [agent for agent, _ in built]
        """The batched agent of each opponent seat (seat ``j + 1`` at index ``j``)."""
        self.names = ("learner", *(name for _, name in built))
        self.keys = np.zeros(num_tables, dtype=np.int64)
        """Each table's match key (deals and common random numbers)."""
        self.next_hand = np.zeros(num_tables, dtype=np.int64)
        """The number of each table's next hand in its match."""
        self.left = np.zeros((num_tables, rules.num_seats))
        """Each opponent seat's residual uniform in the hand (agents with ``hand_uniform``)."""
        self._cards = 2 * rules.num_seats + 5
        self._all = np.arange(num_tables)

    @property
    def nbytes(self) -> int:
        """Bytes of per-table state: the engine's arrays, the keys and counters, and the
        batched opponents' memory where they report it (``nbytes``)."""
        agents = sum(int(getattr(agent, "nbytes", 0)) for agent in self.opponents)
        own = self.keys.nbytes + self.next_hand.nbytes + self.left.nbytes
        return self.batch.nbytes + own + agents

    # ---------------------------------------------------------------- matches

    def new_matches(self, rows: Index, generators: Sequence[np.random.Generator]) -> None:
        """New matches at ``rows``, each from the generator a ``LimitHoldemEnv`` has after
        ``reset(seed=...)``: the key drawn from it, opponents' memory cleared, adapted agents
        reset with the generators spawned from it."""
        self.keys[rows] = [match_key(rng) for rng in generators]
        self.next_hand[rows] = 0
        adapted = [(j, a) for j, a in enumerate(self.opponents) if isinstance(a, ScalarTables)]
        if adapted:
            for row, rng in zip(rows.tolist(), generators, strict=True):
                streams = rng.spawn(len(self.opponents))
                for j, adapter in adapted:
                    adapter.reset_table(row, streams[j])
        for seat, agent in enumerate(self.opponents, start=1):
            agent.start_tables(rows, np.full(len(rows), seat, dtype=np.int8))

    def abandon(self, rows: Index) -> None:
        """End the hands in progress at ``rows`` untold (as a plain env's ``reset`` drops its
        hand): every seat checks or folds until the hand is over; no agent hears of it."""
        batch = self.batch
        chosen = np.zeros(self.num_tables, dtype=bool)
        chosen[rows] = True
        while (playing := chosen & (batch.actor >= 0)).any():
            actions = np.where(batch.legal_mask()[:, _FOLD], _FOLD, _CALL).astype(np.int8)
            batch.step(actions, where=playing)

    def deal(self, rows: Index) -> dict[int, list[float]]:
        """Deal each table of ``rows`` its next hand and let the opponents act until the
        learner is to act; hands that end first (no learner decision) are told to the
        opponents and the next ones dealt.

        Returns:
            The learner's rewards of those skipped hands, in order, by table.
        """
        skipped: dict[int, list[float]] = {}
        n = self.rules.num_seats
        while rows.size:
            hands = self.next_hand[rows]
            self.next_hand[rows] += 1
            decks = deal_decks(self.keys[rows], hands, cards=self._cards)
            self.batch.start(rows, decks, hands % n, hands)
            ended = self.batch.finished.copy()  # a view the next steps overwrite
            ended |= self.play_opponents()
            rows = rows[ended[rows]]
            if rows.size:
                self.tell_ends(rows)
                for row, reward in zip(rows.tolist(), self.rewards(rows).tolist(), strict=True):
                    skipped.setdefault(row, []).append(reward)
        return skipped

    # ---------------------------------------------------------------- playing

    def learner_acts(self, actions: npt.NDArray[np.integer], moving: Bools) -> Bools:
        """The learner's ``actions`` at the tables ``moving`` (where it is to act), then the
        opponents until the learner is to act again or the hand is over.

        Returns:
            The tables whose hand ended.

        Raises:
            ValueError: naming the first table whose action is not a legal action of the
                learner there; then no table has moved.
        """
        batch = self.batch
        valid = (actions >= 0) & (actions <= 2)
        if not valid[moving].all():
            table = int(np.argmax(moving & ~valid))
            raise ValueError(
                f"table {table}: action must be 0 (fold), 1 (check/call) or 2 (bet/raise), "
                f"got {int(actions[table])}"
            )
        if (batch.actor[moving] != LEARNER_SEAT).any():
            raise RuntimeError("the learner is not to act at every table it acts at")
        legal = batch.legal_mask()
        try:
            batch.step(actions, where=moving)  # checks every table before any moves
        except ValueError as error:
            chosen = legal[self._all, np.where(valid, actions, 0)]
            table = int(np.argmax(moving & ~chosen))
            names = ", ".join(a.name for a in Action if legal[table, a])
            raise ValueError(
                f"illegal action {Action(int(actions[table])).name} for the learner: {error}; "
                f"legal at table {table}: {names}"
            ) from None
        ended = batch.finished.copy()  # a view the next steps overwrite
        ended |= self.play_opponents()
        return ended

    def play_opponents(self) -> Bools:
        """Let the opponents act at every table where one is to act, all tables at once, until
        everywhere the learner is to act or the hand is over.

        Returns:
            The tables whose hand ended meanwhile.

        Raises:
            ValueError: when an agent's probabilities are not a distribution over its legal
                actions.
        """
        batch = self.batch
        ended = np.zeros(self.num_tables, dtype=bool)
        while True:
            actor = batch.actor
            waiting = actor > LEARNER_SEAT
            acting = np.flatnonzero(waiting)
            if not acting.size:
                return ended
            seats = actor[acting]
            index = batch.decision_index()[acting]
            actions = np.zeros(self.num_tables, dtype=np.int8)
            for seat, agent in enumerate(self.opponents, start=1):
                mine = seats == seat
                rows = acting[mine]
                if not rows.size:
                    continue
                decision = decisions_at(batch, rows)
                probabilities = agent.probabilities(decision)
                check_probabilities(probabilities, decision.legal, agent.name)
                u = decision_uniforms(self.keys[rows], batch.hand_id[rows], seat, index[mine])
                if agent.hand_uniform:  # later decisions of the hand: the residual (envs.crn)
                    u = np.where(index[mine] > 0, self.left[rows, seat], u)
                chosen = sample_actions(probabilities, u)
                actions[rows] = chosen
                if agent.hand_uniform:
                    self.left[rows, seat] = residuals(probabilities, u, chosen)
            batch.step(actions, where=waiting)
            ended |= batch.finished

    def tell_ends(self, rows: Index) -> None:
        """Show every opponent the end of the hands at ``rows`` (what its seat saw)."""
        for seat, agent in enumerate(self.opponents, start=1):
            agent.observe_ends(
                hand_ends_at(self.batch, rows, np.full(len(rows), seat, dtype=np.int8))
            )

    # ------------------------------------------------------------- reading

    def rewards(self, rows: Index) -> npt.NDArray[np.float64]:
        """The learner's chips won in the finished hands at ``rows``, in big blinds."""
        chips = self.batch.payoffs[rows, LEARNER_SEAT]
        won: npt.NDArray[np.float64] = chips / self.rules.big_blind
        return won

    def learner_mask(self) -> npt.NDArray[np.int8]:
        """``(tables, 3)``: 1 for each legal action of the learner (all 0 where it is not to
        act)."""
        learner = (self.batch.actor == LEARNER_SEAT)[:, np.newaxis]
        mask: npt.NDArray[np.int8] = (self.batch.legal_mask() & learner).astype(np.int8)
        return mask
