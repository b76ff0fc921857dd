"""An SB3 ``VecEnv`` over the batched engine, so that sb3-contrib's ``MaskablePPO`` (or SB3's ``PPO``)
trains on N tables stepped together: ``model = MaskablePPO("MlpPolicy", PontoonVecEnv(env), ...)``.

Needs the ``train`` extra (stable-baselines3). SB3 resets a finished env inside the same step and
reports its last observation as ``infos[i]["terminal_observation"]``: the adapter runs the VectorEnv
in Gymnasium's ``SAME_STEP`` autoreset mode, which does exactly that. ``env_method("action_masks")``
(what ``MaskablePPO`` calls) returns every table's mask.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from .vector_env import PontoonVectorEnv

ObservationMap = Callable[[np.ndarray], np.ndarray]


class PontoonVecEnv(VecEnv):
    """SB3's view of one or more :class:`PontoonVectorEnv` built with ``autoreset_mode="SameStep"``,
    their tables side by side (several batches: tables of different opponents, for example).

    Args:
        venv: the batched env (``gym.make_vec(id, num_envs=N, autoreset_mode="SameStep")``), or a
            sequence of them with the same spaces.
        observation: an optional map of a batch of observations (for example
            ``features.compact_observation``) with the space it maps into.
    """

    def __init__(self, venv: PontoonVectorEnv | Sequence[PontoonVectorEnv],
                 observation: tuple[ObservationMap, Any] | None = None) -> None:
        venvs = [venv] if isinstance(venv, PontoonVectorEnv) else list(venv)
        for one in venvs:
            if not isinstance(one, PontoonVectorEnv):
                raise ValueError(f"venv = {one!r}: expected a batched Pontoon env (gym.make_vec of a Pontoon id)")
            if one.autoreset_mode != AutoresetMode.SAME_STEP:
                raise ValueError("venv.autoreset_mode must be AutoresetMode.SAME_STEP: SB3 resets a finished env "
                                 "within the step (gym.make_vec(id, num_envs=N, autoreset_mode='SameStep'))")
            if (one.single_observation_space != venvs[0].single_observation_space
                    or one.single_action_space != venvs[0].single_action_space):
                raise ValueError("the batched envs of one PontoonVecEnv must have the same spaces")
        self.venvs = venvs
        self.venv = venvs[0]
        self._bounds = np.cumsum([0] + [one.num_envs for one in venvs])
        self.render_mode = None
        self._map, space = observation if observation is not None else (None, self.venv.single_observation_space)
        super().__init__(int(self._bounds[-1]), space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._episode_returns = np.zeros(self.num_envs, dtype=np.float64)
        self._episode_lengths = np.zeros(self.num_envs, dtype=np.int64)

    def _observe(self, obs: np.ndarray) -> np.ndarray:
        return self._map(obs) if self._map is not None else obs

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> VecEnvObs:
        seeds = [s for s in self._seeds if s is not None]
        obs = np.concatenate([one.reset(seed=int(seeds[0]) + 1000 * k if seeds else None)[0]
                              for k, one in enumerate(self.venvs)])
        self._reset_seeds()
        self._reset_options()
        self._episode_returns[:] = 0.0
        self._episode_lengths[:] = 0
        return self._observe(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def _step_all(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every batch's step, side by side (the info keys step_wait reads)."""
        if len(self.venvs) == 1:
            return self.venv.step(self._actions)
        parts = [one.step(self._actions[a:b]) for one, a, b in zip(self.venvs, self._bounds, self._bounds[1:])]
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_illegal = np.zeros(self.num_envs, dtype=bool)
        for (_, _, _, _, info), start, stop in zip(parts, self._bounds, self._bounds[1:]):
            if "final_obs" in info:
                final_obs[start:stop] = info["final_obs"]
                final_illegal[start:stop] = info["final_info"]["illegal_action"]
        info = {"illegal_action": np.concatenate([p[4]["illegal_action"] for p in parts]),
                "final_obs": final_obs, "final_info": {"illegal_action": final_illegal}}
        return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts]), info)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, info = self._step_all()
        dones = terminated | truncated
        self._episode_returns += rewards
        self._episode_lengths += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        illegal = info["illegal_action"]
        finished = np.flatnonzero(dones)
        finals = info["final_obs"][finished] if len(finished) else ()
        if self._map is not None and len(finished):  # one call for the whole batch's final observations
            finals = self._map(np.stack(list(finals)))
        for i, final in zip(finished, finals):
            infos[i] = {
                "terminal_observation": final,
                "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                "episode": {"r": float(self._episode_returns[i]), "l": int(self._episode_lengths[i]), "t": 0.0},
                "illegal_action": np.array(info["final_info"]["illegal_action"][i]),  # 0-d, as the scalar env's
            }
        for i in np.flatnonzero(illegal & ~dones):
            infos[i]["illegal_action"] = np.array(True)
        self._episode_returns[dones] = 0.0
        self._episode_lengths[dones] = 0
        return self._observe(obs), rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        return np.concatenate([one.action_masks() for one in self.venvs])

    def close(self) -> None:
        for one in self.venvs:
            one.close()

    def _owner(self, index: int) -> PontoonVectorEnv:
        return self.venvs[int(np.searchsorted(self._bounds, index, side="right")) - 1]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self._owner(i), attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"the batched env's tables share their configuration: cannot set {attr_name!r}")

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        indices = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in indices]
        return [getattr(self._owner(i), method_name)(*method_args, **method_kwargs) for i in indices]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """True for SB3's ``Monitor``: each finished episode's info carries the ``episode`` record that
        ``Monitor`` would add, which is what SB3's evaluation looks for (it warns otherwise)."""
        return [issubclass(wrapper_class, Monitor) for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
