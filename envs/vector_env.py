"""Many tables at once: ``LimitHoldem-v0`` under Gymnasium's vector API, on the batched engine.

``LimitHoldemVectorEnv`` plays ``num_envs`` tables as one ``envs.batched.HandBatch``, the learner
in seat 0 at every table and each opponent seat played by one batched agent deciding for all
tables at once (``envs.learner_tables``), so a learner step costs a few array operations over
all tables, not Python per table. Its observations, rewards, terminations and infos are
exactly those of Gymnasium's ``SyncVectorEnv`` over ``LimitHoldemEnv`` tables with the same
seeds (``tests/envs/test_vector_env.py`` checks it): table ``i`` after ``reset(seed=s)`` plays
the hands of ``LimitHoldemEnv.reset(seed=s + i)``, deals and opponents' decisions included
(a list of seeds gives one per table; ``None`` continues a table's match). The deals, the
button and the opponents' random numbers follow the convention of all three envs
(``envs.holdem_env.MatchDeals``), so the PettingZoo env seeded ``s`` deals table 0's cards.

The default autoreset mode is ``SAME_STEP``, unlike Gymnasium's ``NEXT_STEP`` default: an
episode is one hand of one to a few learner decisions, so ``NEXT_STEP``'s extra reset step
would be a third or more of all steps. The last observation of a finished hand is then in
``info["final_obs"]`` and its info (``payoffs``...) in ``info["final_info"]``. ``NEXT_STEP``
and ``DISABLED`` (with ``options={"reset_mask": ...}``) are supported as in ``SyncVectorEnv``.
``step_batched`` is ``SAME_STEP``'s step with the ended hands batched, not in per-table infos.

A step is atomic: every table's action is checked before any table moves, and an error names
the table.

    import gymnasium as gym
    import envs

    vec = gym.make_vec("holdem_lab/LimitHoldem-v0", num_envs=1024, opponents=["bpp"])
    obs, info = vec.reset(seed=0)
    obs, reward, terminated, truncated, info = vec.step(info["action_mask"].argmax(axis=1))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envs.holdem_env import LEARNER_SEAT, RENDER_MODES, check_render_mode
from envs.learner_tables import LearnerTables, OpponentSpec, check_opponent_specs
from envs.observation import (
    DISCRETE_KEYS,
    encode_batch,
    observation_space,
    seat_batch,
    shown_cards,
)
from envs.render import render_view
from envs.rules import Action, Rules
from envs.validation import whole_number

__all__ = ["BatchedStep", "LimitHoldemVectorEnv", "OpponentSpec"]

Index = npt.NDArray[np.intp]


class BatchedStep(NamedTuple):
    """What ``LimitHoldemVectorEnv.step_batched`` returns: ``step``'s content, batched."""

    obs: dict[str, Any]
    """Every table's observation now (the next hand's where one ended), as ``step``'s."""
    rewards: npt.NDArray[np.float64]
    """The learner's reward per table (in big blinds; 0 where the hand goes on)."""
    terminated: npt.NDArray[np.bool_]
    """Tables whose hand ended."""
    ended: Index
    """Their rows, ascending."""
    final_obs: dict[str, Any] | None
    """The last observations of those hands, row ``k`` for table ``ended[k]`` (``step``'s
    ``info["final_obs"]`` stacked); ``None`` when no hand ended."""
    skipped: dict[int, list[float]]
    """Rewards of the hands dealt and finished without a learner decision, by table (``step``'s
    ``info["skipped_rewards"]``)."""


class LimitHoldemVectorEnv(VectorEnv):
    """``num_envs`` tables of ``LimitHoldem-v0`` stepped together (see the module docstring).

    Args:
        num_envs: Tables, at least 1.
        opponents: One registry name or zero-argument factory per opponent seat (1 to 9).
            Each builds one agent; an agent with a batched twin (``agent.batched(num_envs)``:
            the bots and BPPs) plays every table with it, any other through one copy per
            table (``envs.batched.adapter.ScalarTables``: correct, slower). Agent objects are
            refused: every table needs its own memory.
        rules: As for ``LimitHoldemEnv``.
        autoreset_mode: ``SAME_STEP`` (default), ``NEXT_STEP`` or ``DISABLED`` (or their
            string values).
        render_mode: ``None`` or ``"ansi"``; ``render()`` returns one text per table.
    """

    def __init__(
        self,
        num_envs: int = 1,
        opponents: Sequence[OpponentSpec] = ("rule",),
        *,
        rules: Rules | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        render_mode: str | None = None,
    ) -> None:
        num_envs = whole_number("num_envs", num_envs, minimum=1)
        check_opponent_specs(opponents)
        if not 1 <= len(opponents) <= 9:
            raise ValueError(
                f"the env needs 1 to 9 opponents (2 to 10 seats), got {len(opponents)}"
            )
        check_render_mode(render_mode)
        n = len(opponents) + 1
        if rules is None:
            rules = Rules(num_seats=n)
        elif rules.num_seats != n:
            raise ValueError(
                f"rules are for {rules.num_seats} seats but {len(opponents)} opponents plus "
                f"the learner make {n}"
            )
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.tables = LearnerTables(rules, num_envs, opponents)
        self.num_envs = num_envs
        self.rules = rules
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "render_fps": 1,
            "autoreset_mode": self.autoreset_mode,
        }
        self.single_observation_space = observation_space(rules)
        self.single_action_space = spaces.Discrete(len(Action))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._seeded = np.zeros(num_envs, dtype=bool)
        self._empty = np.empty(num_envs, dtype=object)  # one () per table
        self._empty.fill(())

    # ------------------------------------------------------------------ API

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Reset every table (or those of ``options["reset_mask"]``); seeds as in the docstring.

        A seeded table starts a new match (opponents' memory cleared); the others continue
        theirs with the next hand. A hand in progress is abandoned, untold. The observations
        of tables outside the mask are their latest ones, as in ``SyncVectorEnv``.
        """
        seeds = self._seeds(seed)
        mask = _reset_mask((options or {}).get("reset_mask"), self.num_envs)
        super().reset(seed=seeds[0] if isinstance(seed, int | np.integer) else None)
        rows = np.arange(self.num_envs) if mask is None else np.flatnonzero(mask)
        fresh = [r for r in rows.tolist() if seeds[r] is not None or not self._seeded[r]]
        if fresh:
            generators = [seeding.np_random(seeds[r])[0] for r in fresh]
            self.tables.new_matches(np.array(fresh, dtype=np.intp), generators)
            self._seeded[fresh] = True
        self.tables.abandon(rows)
        skipped = self.tables.deal(rows)
        self._autoreset[rows] = False
        info = self._info(rows)
        _add(info, "skipped_rewards", rows, _skipped(rows, skipped, self._empty), self.num_envs)
        # Tables not reset show their latest observation again, as in SyncVectorEnv (zeros
        # for tables never reset).
        obs = self._observations()
        if not self._seeded.all():
            for value in obs.values():
                value[~self._seeded] = 0
        return obs, info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        dict[str, Any],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Apply one action per table; finished hands restart as ``autoreset_mode`` says.

        Raises:
            ResetNeeded: if a table was never reset.
            ValueError: on actions of the wrong shape or type, or an illegal action, naming
                the table (no table moves then); in ``DISABLED`` mode, on a table whose hand
                is over and that was not reset.
        """
        chosen = self._check_actions(actions)
        mode = self.autoreset_mode
        pending = self._autoreset
        if mode is AutoresetMode.DISABLED and pending.any():
            raise ValueError(
                f"table {int(np.argmax(pending))} finished its hand: reset it with "
                "options={'reset_mask': ...} before stepping it (DISABLED autoreset)"
            )
        terminated, rewards, ended = self._learner_step(chosen, ~pending)
        final: dict[str, Any] = {}
        restarted = np.flatnonzero(pending)  # NEXT_STEP: these only start their next hand
        if mode is AutoresetMode.SAME_STEP:
            if ended.size:
                final = self._final(ended)
            restarted = ended
        skipped = self.tables.deal(restarted) if restarted.size else {}
        info = self._info(np.arange(self.num_envs))
        if mode is not AutoresetMode.SAME_STEP:
            _add(info, "payoffs", ended, self._payoffs(ended), self.num_envs)
            self._autoreset = terminated.copy()
        n = self.num_envs
        _add(info, "skipped_rewards", restarted, _skipped(restarted, skipped, self._empty), n)
        info.update(final)
        truncated = np.zeros(self.num_envs, dtype=bool)  # a hand is never truncated
        return self._observations(), rewards, terminated, truncated, info

    def step_batched(self, actions: npt.ArrayLike) -> BatchedStep:
        """``step`` (``SAME_STEP`` mode) without Gymnasium's per-table infos, for callers that
        batch everything (the SB3 adapter ``tuning.training.sb3_env``): the same tables move
        the same way, and the hands that ended come back as arrays (``BatchedStep``).

        Raises:
            ValueError: in another autoreset mode, and as ``step`` does.
        """
        if self.autoreset_mode is not AutoresetMode.SAME_STEP:
            raise ValueError(
                f"step_batched() restarts finished hands at once (SAME_STEP autoreset); this "
                f"env's mode is {self.autoreset_mode.value}: use step()"
            )
        chosen = self._check_actions(actions)
        terminated, rewards, ended = self._learner_step(chosen, ~self._autoreset)
        final_obs = self._observations(ended) if ended.size else None
        skipped = self.tables.deal(ended) if ended.size else {}
        return BatchedStep(self._observations(), rewards, terminated, ended, final_obs, skipped)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(num_envs, 3)`` legal actions of the learner at every table now (sb3-contrib's
        convention; all False at a table whose hand is over).

        Raises:
            ResetNeeded: if a table was never reset.
        """
        self._check_reset()
        return self.tables.learner_mask().astype(bool)

    def render(self) -> tuple[str, ...] | None:
        """Every table as text in ``"ansi"`` mode; ``None`` without a render mode or before
        the first reset."""
        if self.render_mode is None or not self._seeded.all():
            return None
        batch, names = self.tables.batch, self.tables.names
        return tuple(render_view(batch.view(t, LEARNER_SEAT), names) for t in range(self.num_envs))

    @property
    def bytes_per_table(self) -> float:
        """Bytes of per-table state (engine, match keys, opponents' memory where known)."""
        return self.tables.nbytes / self.num_envs

    # ------------------------------------------------------------ internals

    def _check_reset(self) -> None:
        if not self._seeded.all():
            table = int(np.argmax(~self._seeded))
            raise ResetNeeded(f"table {table} was never reset: call reset() first")

    def _check_actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.integer]:
        self._check_reset()
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got shape {chosen.shape}")
        if chosen.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers 0 (fold), 1 (check/call) or 2 (bet/raise), got "
                f"dtype {chosen.dtype}"
            )
        return chosen

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int | np.integer):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} seeds (one per table), got {len(seeds)}")
        return seeds

    def _learner_step(
        self, chosen: npt.NDArray[np.integer], moving: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], Index]:
        """The learner's actions at ``moving``, the opponents until the learner is to act
        again, and the ends told: every table's termination and reward, and the ended rows."""
        tables = self.tables
        terminated = tables.learner_acts(chosen, moving)
        ended = np.flatnonzero(terminated)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        rewards[ended] = tables.rewards(ended)
        if ended.size:
            tables.tell_ends(ended)
        return terminated, rewards, ended

    def _observations(self, rows: Index | None = None) -> dict[str, Any]:
        """The learner's observations at ``rows`` (default: every table), from the batch's
        arrays (``envs.observation.encode_batch``), at decisions and finished hands alike."""
        batch = self.tables.batch
        return encode_batch(seat_batch(batch, LEARNER_SEAT, rows), shown_cards(batch, rows))

    def _info(self, rows: Index) -> dict[str, Any]:
        """``action_mask`` and ``hand_id`` of ``rows``, Gymnasium's vector layout."""
        info: dict[str, Any] = {}
        mask = self.tables.learner_mask()
        hand_id = self.tables.batch.hand_id.astype(np.int64)
        if len(rows) < self.num_envs:
            mask[_outside(rows, self.num_envs)] = 0
            hand_id[_outside(rows, self.num_envs)] = 0
        _add(info, "action_mask", rows, mask, self.num_envs)
        _add(info, "hand_id", rows, hand_id, self.num_envs)
        return info

    def _payoffs(self, rows: Index) -> npt.NDArray[np.object_]:
        payoffs = np.full(self.num_envs, None, dtype=object)
        chips = self.tables.batch.payoffs[rows].tolist()
        for row, seats in zip(rows.tolist(), chips, strict=True):
            payoffs[row] = tuple(seats)
        return payoffs

    def _final(self, rows: Index) -> dict[str, Any]:
        """``final_obs`` and ``final_info`` of the hands that ended at ``rows`` (before the next
        hands overwrite them), as ``SyncVectorEnv`` gives them."""
        n = self.num_envs
        batched = self._observations(rows)
        # Per table: row views of the fresh batch arrays, and plain ints for Discrete keys.
        columns = [
            value.tolist() if key in DISCRETE_KEYS else list(value)
            for key, value in batched.items()
        ]
        final_obs = np.full(n, None, dtype=object)
        for row, values in zip(rows.tolist(), zip(*columns, strict=True), strict=True):
            final_obs[row] = dict(zip(batched, values, strict=True))
        hand_id = np.zeros(n, dtype=np.int64)
        hand_id[rows] = self.tables.batch.hand_id[rows]
        final_info: dict[str, Any] = {}
        _add(final_info, "action_mask", rows, np.zeros((n, len(Action)), dtype=np.int8), n)
        _add(final_info, "hand_id", rows, hand_id, n)
        _add(final_info, "payoffs", rows, self._payoffs(rows), n)
        flags = _flags(rows, n)
        return {
            "final_obs": final_obs,
            "_final_obs": flags,
            "final_info": final_info,
            "_final_info": flags.copy(),
        }


def _flags(rows: Index, num_envs: int) -> npt.NDArray[np.bool_]:
    flags = np.zeros(num_envs, dtype=bool)
    flags[rows] = True
    return flags


def _outside(rows: Index, num_envs: int) -> npt.NDArray[np.bool_]:
    return ~_flags(rows, num_envs)


def _add(
    info: dict[str, Any], key: str, rows: Index, values: npt.NDArray[Any], num_envs: int
) -> None:
    """``info[key] = values`` with its ``"_" + key`` flags marking ``rows`` (Gymnasium's vector
    info convention); nothing when no table reports the key."""
    if len(rows):
        info[key], info["_" + key] = values, _flags(rows, num_envs)


def _skipped(
    rows: Index, values: dict[int, list[float]], empty: npt.NDArray[np.object_]
) -> npt.NDArray[np.object_]:
    """The ``skipped_rewards`` info: a tuple per table of ``rows`` (``empty``'s ``()`` where
    ``values`` has none, copied as references, without Python per table), ``None`` elsewhere."""
    array = np.full(len(empty), None, dtype=object)
    array[rows] = empty[rows]
    for row, listed in values.items():
        array[row] = tuple(listed)
    return array


def _reset_mask(mask: object, num_envs: int) -> npt.NDArray[np.bool_] | None:
    """Validate ``options["reset_mask"]`` as Gymnasium's ``SyncVectorEnv`` does."""
    if mask is None:
        return None
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
        raise TypeError(f"options['reset_mask'] must be a numpy bool array, got {mask!r}")
    if mask.shape != (num_envs,):
        raise ValueError(f"options['reset_mask'] must have shape ({num_envs},), got {mask.shape}")
    if not mask.any():
        raise ValueError("options['reset_mask'] must select at least one table")
    return mask
