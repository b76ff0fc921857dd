"""A MaskablePPO smoke run on every id: the envs plug into sb3-contrib as they are."""

import gymnasium as gym
import pytest
from env_helpers import make  # noqa: F401  (registers the ids)

pytest.importorskip("sb3_contrib")
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402


@pytest.mark.parametrize("env_id", ["ShootPontoon-v0", "ShootPontoonBanker-v0", "ShootPontoon-Casino-v0",
                                    "ShootPontoon-Playtech-v0"])
def test_maskable_ppo_learns_a_few_hundred_steps_and_predicts_legal_actions(env_id):
    env = gym.make(env_id)  # with Gymnasium's wrappers, as users make it
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=256)
    obs, info = env.reset(seed=1)
    for _ in range(20):
        action, _ = model.predict(obs, action_masks=get_action_masks(env), deterministic=True)
        assert info["action_mask"][int(action)]
        obs, _, terminated, _, info = env.step(int(action))
        if terminated:
            obs, info = env.reset()
