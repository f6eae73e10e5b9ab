"""Stable-Baselines3's ``VecEnv`` over ``envs.vector_env``: batched tables, flat features, masks.

SB3 does not accept Gymnasium vector envs, so this adapter presents ``LimitHoldemVectorEnv``
(``SAME_STEP`` autoreset, which is SB3's own convention: the final observation of an episode
is in ``infos[i]["terminal_observation"]``) with its observations encoded in one batched call
of ``FeatureEncoder``, the final ones in another (``LimitHoldemVectorEnv.step_batched`` gives
them batched). ``env_method("action_masks")`` returns every table's legal actions,
which is how sb3-contrib's ``MaskablePPO`` finds them.

It also counts the hands the learner's tables played (``hands``, skipped hands included) and
keeps the recent rewards per hand (``recent_rewards``, in big blinds) for the progress bar.
The rewards it returns are the env's times ``reward_scale``.

With ``privileged_critic``, each row is the learner's features followed by every opponent's
own (``tuning.training.privileged``: the value network reads them, the policy network does
not; ``public_size`` is where the learner's end).

With ``terminal_observations=False``, an ended hand's info says ``"TimeLimit.truncated":
False`` and carries no ``"terminal_observation"``: SB3's PPO reads that observation only to
bootstrap the value of a truncated episode, and a hand always ends by its rules, so encoding
it is wasted (a quarter of the rows encoded against ``call``, and the dearest: most are river
rows with a whole hand's betting). The trainer turns it off; the default keeps SB3's contract.

With ``session_hands``, a table starts a new match (fresh opponents: BPP and Loki forget what
they learned of the learner) once it has played that many hands since its last start, as the
evaluation sessions and the LBR bounds' matches do; the hand dealt after the last one of a
session is dropped untold.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from envs.rules import Rules
from envs.vector_env import LimitHoldemVectorEnv, OpponentSpec
from tuning.training.observation_features import FeatureEncoder
from tuning.training.privileged import critic_features

__all__ = ["HoldemVecEnv"]

_MASKS = "action_masks"


class HoldemVecEnv(VecEnv):
    """``num_envs`` tables against ``opponents`` as an SB3 ``VecEnv`` with flat observations."""

    def __init__(
        self,
        num_envs: int,
        opponents: Sequence[OpponentSpec],
        *,
        rules: Rules | None = None,
        reward_scale: float = 1.0,
        session_hands: int | None = None,
        session_seed: int = 0,
        range_features: bool = False,
        privileged_critic: bool = False,
        terminal_observations: bool = True,
    ) -> None:
        self.reward_scale = reward_scale
        self.terminal_observations = terminal_observations
        self.session_hands = session_hands
        self.session_seed = session_seed
        self.tables = LimitHoldemVectorEnv(num_envs, opponents, rules=rules)
        self.encoder = FeatureEncoder(self.tables.rules, ranged=range_features)
        self.critic_encoder = (
            FeatureEncoder(self.tables.rules, shared_boards=range_features)
            if privileged_critic
            else None
        )
        self.public_size = self.encoder.size
        width = self.public_size
        if self.critic_encoder is not None:
            width += len(opponents) * self.critic_encoder.size
        observation_space = spaces.Box(low=-np.inf, high=np.inf, shape=(width,), dtype=np.float32)
        super().__init__(num_envs, observation_space, self.tables.single_action_space)
        self.hands = 0
        self.recent_rewards: deque[float] = deque(maxlen=2000)
        self._actions: npt.NDArray[np.int64] | None = None
        self._session_played = np.zeros(num_envs, dtype=np.int64)
        self._sessions = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> npt.NDArray[np.float32]:
        seeds = self._seeds if any(s is not None for s in self._seeds) else None
        obs, info = self.tables.reset(seed=seeds)
        self._reset_seeds()
        self._count_skipped(info)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._features(obs)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        step = self.tables.step_batched(self._actions)
        self._actions = None
        features = self._features(step.obs)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if step.final_obs is not None:
            if self.terminal_observations:
                last = self._padded(self.encoder.encode(step.final_obs))
                for row, i in enumerate(step.ended.tolist()):
                    infos[i]["terminal_observation"] = last[row]
            for i in step.ended.tolist():
                infos[i]["TimeLimit.truncated"] = False
            self.recent_rewards.extend(step.rewards[step.ended].tolist())
            self.hands += len(step.ended)
        for i in sorted(step.skipped):
            self._count_hands(i, step.skipped[i])
        self._session_played[step.ended] += 1
        if self.session_hands is not None and len(step.ended):
            self._new_sessions(step.ended, features)
        scaled = (step.rewards * self.reward_scale).astype(np.float32)
        return features, scaled, step.terminated, infos

    def _new_sessions(self, done: npt.NDArray[np.intp], features: npt.NDArray[np.float32]) -> None:
        """New matches at the tables of ``done`` whose session is over; their rows of
        ``features`` become the new matches' first observations."""
        assert self.session_hands is not None
        over = done[self._session_played[done] >= self.session_hands]
        if not len(over):
            return
        seeds: list[int | None] = [None] * self.num_envs
        for table in over.tolist():
            self._sessions[table] += 1
            sequence = np.random.SeedSequence(
                [self.session_seed, table, int(self._sessions[table])]
            )
            seeds[table] = int(sequence.generate_state(1)[0])
        mask = np.zeros(self.num_envs, dtype=bool)
        mask[over] = True
        obs, info = self.tables.reset(seed=seeds, options={"reset_mask": mask})
        features[over] = self._features({key: value[over] for key, value in obs.items()}, over)
        self._session_played[over] = 0
        self._count_skipped(info)

    def _features(
        self, obs: dict[str, Any], rows: npt.NDArray[np.intp] | None = None
    ) -> npt.NDArray[np.float32]:
        """The learner's features of ``obs`` (the tables ``rows``, default all), followed by
        the opponents' own (``tuning.training.privileged``) when the critic sees them."""
        public = self.encoder.encode(obs)
        if self.critic_encoder is None:
            return public
        hidden = critic_features(self.tables.tables.batch, self.critic_encoder, rows)
        return np.concatenate([public, hidden], axis=1)

    def _padded(self, public: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Final observations with zeros for the opponents' columns: a hand's end is never
        bootstrapped from (``gamma`` within a hand only), the row keeps its width."""
        width = self.observation_space.shape[0]  # type: ignore[index]
        if public.shape[1] == width:
            return public
        out = np.zeros((len(public), width), dtype=np.float32)
        out[:, : public.shape[1]] = public
        return out

    def close(self) -> None:
        self.tables.close()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(num_envs, 3)`` legal actions now."""
        return self.tables.action_masks()

    # SB3's attribute plumbing. The tables are one batched env, not one env object each:
    # an attribute is the vector env's, the same for every table (``render_mode``, ``rules``,
    # ``action_masks`` for MaskablePPO's check), and the only per-table method is
    # ``action_masks``, MaskablePPO's.

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self.tables, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if list(self._indices(indices)) != list(range(self.num_envs)):
            raise ValueError(
                f"cannot set {attr_name!r} at some tables only: they share one batched env"
            )
        setattr(self.tables, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name != _MASKS or method_args or method_kwargs:
            raise AttributeError(
                f"env_method({method_name!r}) is not supported: the tables are one batched "
                f"env, whose only per-table method is {_MASKS}()"
            )
        masks = self.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def env_is_wrapped(
        self, wrapper_class: type[Any], indices: VecEnvIndices = None
    ) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices

    def _count_skipped(self, info: dict[str, Any]) -> None:
        """Hands played inside a reset (no learner decision) are hands of the match too."""
        if "skipped_rewards" not in info:
            return
        for i in np.flatnonzero(info["_skipped_rewards"]):
            self._count_hands(int(i), info["skipped_rewards"][i])

    def _count_hands(self, table: int, rewards: Sequence[float]) -> None:
        """Hands of ``table`` that ended without a learner decision, with its rewards."""
        self.hands += len(rewards)
        self._session_played[table] += len(rewards)
        self.recent_rewards.extend(rewards)
