"""Many tables at once: ``LimitHoldem-v0`` under Gymnasium's vector API, in one process.

``LimitHoldemVectorEnv`` steps ``num_envs`` independent ``LimitHoldemEnv`` tables (each with
its own opponents) and returns batched results. Its observations, rewards, terminations and
infos are exactly those of Gymnasium's ``SyncVectorEnv`` over the same tables with the same
seeds (``tests/test_vector_env.py`` checks it); it is faster because it encodes all the
tables' observations at once (one array per key, not one per key and table, then stacked) and
batches the infos once per key instead of merging one info dict per table
(``benchmarks/bench_vector_env.py`` measures it).

The default autoreset mode is ``SAME_STEP``, unlike Gymnasium's ``NEXT_STEP`` default: an
episode is one hand of one to a few learner decisions, so ``NEXT_STEP``'s extra reset step
would be a third or more of all steps. The last observation of a finished hand is then in
``info["final_obs"]`` and its info (``payoffs``...) in ``info["final_info"]``. ``NEXT_STEP``
and ``DISABLED`` (with ``options={"reset_mask": ...}``) are supported as in ``SyncVectorEnv``.

Seeding as in ``SyncVectorEnv``: ``reset(seed=s)`` seeds table ``i`` with ``s + i`` (a list
gives one seed per table), so table ``i`` replays ``LimitHoldemEnv.reset(seed=s + i)``.

    import gymnasium as gym
    import envs

    vec = gym.make_vec("holdem_lab/LimitHoldem-v0", num_envs=8, opponents=["call"])
    obs, info = vec.reset(seed=0)
    obs, reward, terminated, truncated, info = vec.step(info["action_mask"].argmax(axis=1))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envs.holdem_env import LimitHoldemEnv
from envs.observation import encode_batch
from envs.protocols import SeatAgent
from envs.rules import Rules
from envs.validation import whole_number

__all__ = ["LimitHoldemVectorEnv"]

OpponentSpec = str | Callable[[], SeatAgent]
"""A registry name, or a zero-argument factory (such as an agent class) building one agent."""


class LimitHoldemVectorEnv(VectorEnv):
    """``num_envs`` tables of ``LimitHoldem-v0`` stepped together (see the module docstring).

    Args:
        num_envs: Tables, at least 1.
        opponents: One registry name or zero-argument factory per opponent seat; every table
            builds its own agents from them (agent objects are refused: one object at several
            tables would share its memory and generator between them).
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
        if isinstance(opponents, str):
            raise TypeError(f"opponents must be a sequence, got the string {opponents!r}")
        for spec in opponents:
            factory = isinstance(spec, type) or not isinstance(spec, SeatAgent)
            if not isinstance(spec, str) and not (factory and callable(spec)):
                raise TypeError(
                    f"vector env opponents must be registry names or agent factories (e.g. an "
                    f"agent class), not agent objects, since every table needs its own: {spec!r}"
                )
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.envs = [
            LimitHoldemEnv(
                [s if isinstance(s, str) else s() for s in opponents],
                rules=rules,
                render_mode=render_mode,
            )
            for _ in range(num_envs)
        ]
        first = self.envs[0]
        self.num_envs = num_envs
        self.rules = first.rules
        self.render_mode = render_mode
        self.metadata = {**first.metadata, "autoreset_mode": self.autoreset_mode}
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=bool)

    # ------------------------------------------------------------------ API

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Reset every table (or those of ``options["reset_mask"]``); seeds as in the docstring."""
        seeds = self._seeds(seed)
        mask = _reset_mask((options or {}).get("reset_mask"), self.num_envs)
        first_seed = seeds[0] if isinstance(seed, int) else None
        super().reset(seed=first_seed)
        batch = _Batch(self.num_envs)
        for i, env in enumerate(self.envs):
            if mask is not None and not mask[i]:
                continue
            batch.add(i, env, env._start(seeds[i]))
        if mask is None:
            self._autoreset[:] = False
        else:
            self._autoreset[mask] = False
        return batch.observations(self.single_observation_space), batch.infos()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        dict[str, Any],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Apply one action per table; finished hands restart as ``autoreset_mode`` says."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got shape {actions.shape}")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        batch = _Batch(self.num_envs)
        mode = self.autoreset_mode
        for i, env in enumerate(self.envs):
            if self._autoreset[i]:
                if mode is AutoresetMode.DISABLED:
                    raise ValueError(
                        f"table {i} finished its hand: reset it with "
                        "options={'reset_mask': ...} before stepping it (DISABLED autoreset)"
                    )
                info = env._start(None)  # NEXT_STEP: this step only starts the next hand
            else:
                rewards[i], terminated[i], info = env._advance(actions[i])
                if terminated[i] and mode is AutoresetMode.SAME_STEP:
                    batch.add_final(i, env._observation(), info)
                    info = env._start(None)
            batch.add(i, env, info)
        # SAME_STEP has already started the next hands; the other modes start them later.
        self._autoreset = terminated.copy()
        if mode is AutoresetMode.SAME_STEP:
            self._autoreset[:] = False
        truncated = np.zeros(self.num_envs, dtype=bool)  # a hand is never truncated
        obs_batch = batch.observations(self.single_observation_space)
        return obs_batch, rewards, terminated, truncated, batch.infos()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(num_envs, 3)`` legal actions of every table now (sb3-contrib's convention)."""
        return np.stack([env.action_masks() for env in self.envs])

    def render(self) -> tuple[str, ...] | None:
        """Every table as text in ``"ansi"`` mode; ``None`` without a render mode."""
        frames = [env.render() for env in self.envs]
        if self.render_mode is None or any(frame is None for frame in frames):
            return None
        return tuple(frame for frame in frames if frame is not None)

    def close_extras(self, **kwargs: Any) -> None:
        """Close every table."""
        for env in self.envs:
            env.close()

    # ------------------------------------------------------------ internals

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int | np.integer):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} seeds (one per table), got {len(seeds)}")
        return seeds


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


class _Batch:
    """One step's per-table results gathered into batch arrays, ``SyncVectorEnv``'s layout.

    Infos follow Gymnasium's vector convention: ``info[key]`` holds one entry per table and
    ``info["_" + key]`` marks the tables that reported it; tuples become object arrays. The
    tables' results are gathered first and batched once per key, which is what makes this
    faster than merging them table by table as ``SyncVectorEnv`` does.
    """

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs
        self.tables: list[LimitHoldemEnv | None] = [None] * num_envs
        self.info: list[dict[str, Any] | None] = [None] * num_envs
        self.final: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}

    def add(self, i: int, env: LimitHoldemEnv, info: dict[str, Any]) -> None:
        """Table ``i``'s info now; its observation is encoded with the others'."""
        self.tables[i] = env
        self.info[i] = info

    def add_final(self, i: int, obs: dict[str, Any], info: dict[str, Any]) -> None:
        self.final[i] = (obs, info)

    def infos(self) -> dict[str, Any]:
        infos = _batch_infos(self.info, self.num_envs)
        if self.final:
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info: list[dict[str, Any] | None] = [None] * self.num_envs
            for i, (obs, info) in self.final.items():
                final_obs[i] = obs
                final_info[i] = info
            flags = np.zeros(self.num_envs, dtype=bool)
            flags[list(self.final)] = True
            infos["final_obs"], infos["_final_obs"] = final_obs, flags
            infos["final_info"] = _batch_infos(final_info, self.num_envs)
            infos["_final_info"] = flags.copy()
        return infos

    def observations(self, space: Any) -> dict[str, Any]:
        """Fresh batch arrays (safe to keep); tables not reset keep zeros, as in Gymnasium."""
        present = [i for i, env in enumerate(self.tables) if env is not None]
        tables = [env for env in self.tables if env is not None]
        batch = encode_batch(
            [env._encoder for env in tables], [env._learner_view() for env in tables]
        )
        if len(present) == self.num_envs:
            return batch
        out: dict[str, Any] = {}
        for key, sub in space.spaces.items():
            out[key] = np.zeros((self.num_envs, *sub.shape), dtype=sub.dtype)
            out[key][present] = batch[key]
        return out


def _batch_infos(infos: list[dict[str, Any] | None], num_envs: int) -> dict[str, Any]:
    """Batch the tables' infos by Gymnasium's ``_add_info`` rules (dtype of the first value)."""
    keys: dict[str, None] = {}
    for info in infos:
        if info is not None:
            keys.update(dict.fromkeys(info))
    batched: dict[str, Any] = {}
    for key in keys:
        present = [i for i, info in enumerate(infos) if info is not None and key in info]
        values = [infos[i][key] for i in present]  # type: ignore[index]  # present: not None
        first = values[0]
        array: npt.NDArray[Any]
        if type(first) in (int, float, bool) or isinstance(first, np.number):
            array = np.zeros(num_envs, dtype=type(first))
            array[present] = values
        elif isinstance(first, np.ndarray):
            array = np.zeros((num_envs, *first.shape), dtype=first.dtype)
            array[present] = values
        else:  # tuples and other objects, one per table
            array = np.full(num_envs, None, dtype=object)
            for i, value in zip(present, values, strict=True):
                array[i] = value
        flags = np.zeros(num_envs, dtype=bool)
        flags[present] = True
        batched[key], batched["_" + key] = array, flags
    return batched
