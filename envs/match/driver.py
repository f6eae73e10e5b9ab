"""Batched agents playing on a ``HandBatch``: who sits where, dealing, deciding, hand ends.

``Driver`` is the hands-on half of the batched runners' one loop (``envs.match.passes``, used
for matches and for a study's seeded passes). Each table has a seed (of its cards and of
its decisions' common random numbers), the deal it plays and a rotation: agent ``j`` sits in
seat ``(j + rotation) % n``. Every decision of a known-policy agent is drawn by inverse CDF
from the uniform of ``(seed, deal, seat, decision index)``, exactly as the scalar engine draws
it, and the probabilities played are kept for the AIVAT estimator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from envs.aivat import PlayedHands
from envs.batched.adapter import ScalarTables
from envs.batched.engine import HandBatch
from envs.batched.rows import by_seat
from envs.batched.views import decisions_at, hand_ends_at
from envs.crn import check_probabilities, hand_keys, residuals, sample_actions, uniforms_at
from envs.deals import deal_decks
from envs.match.hands import FinishedHands
from envs.protocols import BatchedAgent

__all__ = ["Driver"]

Ints = npt.NDArray[np.int64]
Rows = npt.NDArray[np.intp]
GeneratorOf = Callable[[int, int], np.random.Generator]
"""``(table, agent)`` -> the generator of an adapter's scalar agent for a new pass."""


class Driver:
    """Agents ``agents[j]`` (each serving every table) playing on ``batch``.

    Args:
        batch: The tables.
        agents: One batched agent per role ``j``.
        aivat: Keep the probabilities played, for the AIVAT estimator.
    """

    def __init__(self, batch: HandBatch, agents: Sequence[BatchedAgent], *, aivat: bool) -> None:
        self.batch = batch
        self.agents = list(agents)
        self.n = batch.num_seats
        tables = batch.num_tables
        self.seed = np.zeros(tables, dtype=np.uint64)
        self.decision_seed = np.zeros(tables, dtype=np.uint64)
        self.deal = np.zeros(tables, dtype=np.int64)
        self.hand_key = np.zeros(tables, dtype=np.uint64)
        """The decisions' hash key of each table's hand (``envs.crn.hand_keys``)."""
        self.rotation = np.zeros(tables, dtype=np.int64)
        self.left = np.zeros((tables, batch.num_seats))
        """Each seat's residual uniform in the hand (agents with ``hand_uniform``)."""
        width = batch.log_action.shape[1]
        self.probabilities = np.zeros((tables, width, 3)) if aivat else None
        self.known = np.zeros((tables, width), dtype=bool) if aivat else None

    def open(self, tables: Rows, rotations: Ints, generators: GeneratorOf | None = None) -> None:
        """New passes at ``tables``: fresh agents there, seated by ``rotations``."""
        self.rotation[tables] = rotations
        for j, agent in enumerate(self.agents):
            agent.start_tables(tables, ((j + rotations) % self.n).astype(np.int8))
            if isinstance(agent, ScalarTables):
                if generators is None:
                    raise ValueError("an agent without a batched form needs generators")
                for table in tables.tolist():
                    agent.reset_table(table, generators(table, j))

    def deal_hands(
        self,
        rows: Rows,
        seeds: npt.ArrayLike,
        deals: Ints,
        hand_ids: Ints,
        decision_seeds: npt.ArrayLike | None = None,
    ) -> None:
        """Deal ``deals`` (of ``seeds``) at the idle tables ``rows``; the button of deal ``d``
        is seat ``d % n``. The decisions' uniforms are keyed by ``decision_seeds`` (default:
        the same seeds)."""
        self.seed[rows] = seeds
        self.decision_seed[rows] = seeds if decision_seeds is None else decision_seeds
        self.deal[rows] = deals
        self.hand_key[rows] = hand_keys(self.decision_seed[rows], deals)
        cards = 2 * self.n + 5
        self.batch.start(
            rows, deal_decks(self.seed[rows], deals, cards=cards), deals % self.n, hand_ids
        )

    def decide(self) -> bool:
        """One decision at every table with a seat to act; ``False`` if there was none."""
        batch = self.batch
        actor = batch.actor
        acting = np.flatnonzero(actor >= 0)
        if not acting.size:
            return False
        seats = actor[acting].astype(np.int64)
        roles = (seats - self.rotation[acting]) % self.n
        index = batch.decision_index()[acting]
        actions = np.zeros(batch.num_tables, dtype=np.int8)
        for j, agent in enumerate(self.agents):
            mine = roles == j
            if not mine.any():
                continue
            rows = acting[mine]
            decision = decisions_at(batch, rows)
            p = agent.probabilities(decision)
            check_probabilities(p, decision.legal, agent.name)
            seat = seats[mine]
            u = uniforms_at(self.hand_key[rows], seat, index[mine])
            if agent.hand_uniform:  # later decisions of the hand: the residual (envs.crn)
                u = np.where(index[mine] > 0, self.left[rows, seat], u)
            chosen = sample_actions(p, u)
            actions[rows] = chosen
            if agent.hand_uniform:
                self.left[rows, seat] = residuals(p, u, chosen)
            if self.probabilities is not None and self.known is not None:
                position = batch.log_len[rows].astype(np.intp)
                self.probabilities[rows, position] = p
                self.known[rows, position] = agent.known_policy
        batch.step(actions)
        return True

    def ended(self, rows: Rows) -> FinishedHands:
        """Tell the agents the hands at ``rows`` ended, and return those hands."""
        batch = self.batch
        rotations = self.rotation[rows]
        shared: dict[str, object] = {}
        for j, agent in enumerate(self.agents):
            agent.observe_ends(hand_ends_at(batch, rows, (j + rotations) % self.n, shared))
        lengths = batch.log_len[rows]
        width = max(1, int(lengths.max()))
        log = [
            getattr(batch, f"log_{name}")[rows, :width]
            for name in ("street", "seat", "action", "amount")
        ]
        played = None
        if self.probabilities is not None and self.known is not None:
            wide = [entry.astype(np.int64) for entry in log]
            deck = batch.deck[rows]
            starting = np.array(batch.rules.starting_stacks, dtype=np.int64)
            played = PlayedHands(
                holes=deck[:, : 2 * self.n].reshape(len(rows), self.n, 2),
                board=deck[:, 2 * self.n : 2 * self.n + 5],
                blinds=by_seat(batch.blinds, rows, np.int64),
                stacks=np.tile(starting, (len(rows), 1)),
                log_len=lengths.astype(np.int64),
                log_street=wide[0],
                log_seat=wide[1],
                log_action=wide[2],
                log_amount=wide[3],
                probabilities=self.probabilities[rows, :width].copy(),
                known=self.known[rows, :width].copy(),
                deals=self.deal[rows].copy(),
                seeds=self.seed[rows].copy(),
            )
        return FinishedHands(
            deals=self.deal[rows].copy(),
            rotations=rotations,
            payoffs=by_seat(batch.payoffs, rows, np.int64),
            log_len=lengths,
            log_street=log[0],
            log_seat=log[1],
            log_action=log[2],
            log_amount=log[3],
            showed=by_seat(batch.showed, rows),
            flop_dealt=batch.board_len[rows] >= 3,
            played=played,
        )
