"""rl-baselines3-zoo's ``enjoy`` with MaskablePPO playing with action masks.

``python -m shoot_pontoon_env.integrations.zoo_enjoy [zoo enjoy options]`` is the zoo's own ``enjoy``
script (``rl_zoo3.enjoy``) with ``--algo ppo_mask``, for the runs of
``python -m shoot_pontoon_env.integrations.zoo``. The script calls ``model.predict(obs, ...)`` with no
masks, so an unmasked policy's illegal index ends the hand with the -2.0 penalty; here the model's
``predict`` reads the masks of the env the script made (sb3-contrib's ``get_action_masks``). Every
option and the log folders are the zoo's. Like the zoo's script it unpickles parts of the model file
and reads ``args.yml`` with PyYAML's unsafe loader: play only runs you trust (``python -m evaluate``
reads only a model's tensors). Commands: docs/ECOSYSTEM.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.vec_env import VecEnv

from .zoo import MASKABLE_ALGO, register_maskable_ppo


class EnvMaskedPPO(MaskablePPO):
    """MaskablePPO whose ``predict`` takes the action masks from ``mask_env`` when the caller gives
    none (the zoo's enjoy loop), so that the script's own loop plays legal actions only."""

    mask_env: VecEnv | None = None

    def predict(self, observation: Any, state: tuple[np.ndarray, ...] | None = None,
                episode_start: np.ndarray | None = None, deterministic: bool = False,
                action_masks: np.ndarray | None = None) -> tuple[np.ndarray, tuple[np.ndarray, ...] | None]:
        if action_masks is None and self.mask_env is not None:
            action_masks = get_action_masks(self.mask_env)
        return super().predict(observation, state, episode_start, deterministic, action_masks)


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``rl_zoo3.enjoy`` with ``ppo_mask`` loading :class:`EnvMaskedPPO`, bound to the env that
    the script's ``create_test_env`` makes (the two names are restored afterwards)."""
    args = list(sys.argv[1:] if argv is None else argv)
    register_maskable_ppo(masked_evaluation=False)  # ppo_mask in the zoo's table, to put back after
    from rl_zoo3 import enjoy as zoo_enjoy
    from rl_zoo3.utils import ALGOS

    create_test_env = zoo_enjoy.create_test_env

    class Model(EnvMaskedPPO):  # a class per run, so that runs in one process keep their own env
        pass

    def create_and_bind(*env_args: Any, **env_kwargs: Any) -> VecEnv:
        Model.mask_env = create_test_env(*env_args, **env_kwargs)
        return Model.mask_env

    algo, argv_before = ALGOS[MASKABLE_ALGO], sys.argv
    ALGOS[MASKABLE_ALGO], zoo_enjoy.create_test_env = Model, create_and_bind
    sys.argv = ["python -m shoot_pontoon_env.integrations.zoo_enjoy", *args]
    try:
        zoo_enjoy.enjoy()
    finally:
        ALGOS[MASKABLE_ALGO], zoo_enjoy.create_test_env, sys.argv = algo, create_test_env, argv_before


if __name__ == "__main__":
    main()
