"""SB3's ``make_vec_env`` by id, as SB3 users build it: which engine its envs run on, and their steps
per second (SB3 passes ``render_mode="rgb_array"``, which before package 0.4 moved an env to the Table).

Run: ``PYTHONPATH=TREE .venv/bin/python benchmarks/sb3_by_id.py`` (``PYTHONPATH``: a worktree of another
version, to compare two in one session). Random masked actions, the masks asked through ``env_method``;
CPU time of this process. Results are in ``docs/RESULTS.md``.
"""

from __future__ import annotations

import time

import numpy as np
from stable_baselines3.common.env_util import make_vec_env

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)

ENVS, STEPS = 8, 40_000


def main() -> None:
    venv = make_vec_env("ShootPontoon-v0", n_envs=ENVS, seed=0)
    env = venv.envs[0].unwrapped
    venv.reset()
    rng = np.random.default_rng(0)
    steps, start = 0, time.process_time()
    while steps < STEPS:
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        steps += ENVS
    rate = steps / (time.process_time() - start)
    print(f"engine {env.engine_in_use}, render_mode {env.render_mode!r}: {rate:,.0f} steps/s")


if __name__ == "__main__":
    main()
