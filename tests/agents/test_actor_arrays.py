"""The numpy copy of a trained actor (``models.mlp.ActorArrays``) takes torch's action: on every zoo
model, over observations of the model's own env met in play, its logits equal torch's and its
deterministic action equals ``TrainedPolicy.predict``'s."""

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401
from shoot_pontoon_env.models.mlp import ActorArrays
from shoot_pontoon_env.models.safe_load import model_config
from shoot_pontoon_env.models.trained import TrainedPolicy
from shoot_pontoon_env.seat.features import compact_observation

ZOO = Path(__file__).resolve().parents[2] / "agents" / "zoo"
MODELS = sorted(p.parent.name for p in ZOO.glob("*/model.zip"))


def observations_of(env: gym.Env, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` observations and masks met playing random legal actions."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    rows, masks = [], []
    while len(rows) < count:
        mask = info["action_mask"]
        rows.append(obs)
        masks.append(mask)
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, info = env.reset()
    return np.array(rows), np.array(masks)


@pytest.mark.parametrize("name", MODELS)
def test_numpy_actor_takes_torch_action_on_zoo_models(name):
    path = ZOO / name / "model.zip"
    config = model_config(path)
    env = gym.make(config.env_id, **config.env_kwargs)
    policy = TrainedPolicy(path, config, config.env_id, env.observation_space, env.action_space)
    obs, masks = observations_of(env, 2000, seed=7)
    torch_actions = policy.predict(obs, masks)
    numpy_actions = [policy.act(o, m) for o, m in zip(obs, masks)]
    assert np.array_equal(torch_actions, numpy_actions)
    import torch

    inputs = compact_observation(obs) if config.observation == "compact" else obs
    with torch.no_grad():
        features = policy.policy.extract_features(torch.as_tensor(inputs), policy.policy.pi_features_extractor)
        torch_logits = policy.policy.action_net(policy.policy.mlp_extractor.forward_actor(features)).numpy()
    assert np.allclose(policy.actor.logits(inputs), torch_logits, atol=1e-4)
    assert all(masks[i, a] for i, a in enumerate(numpy_actions))


def test_a_policy_of_another_shape_is_refused():
    import torch.nn as nn

    path = ZOO / MODELS[0] / "model.zip"
    config = model_config(path)
    env = gym.make(config.env_id, **config.env_kwargs)
    policy = TrainedPolicy(path, config, config.env_id, env.observation_space, env.action_space).policy
    policy.mlp_extractor.policy_net[1] = nn.ReLU()
    with pytest.raises(ValueError, match="policy layer ReLU: expected Linear and Tanh"):
        ActorArrays.of_policy(policy, masked=True)


def test_sampled_actions_follow_the_policys_chances_and_replay_by_the_generator():
    """``deterministic=False`` draws with the policy's own chances (torch's masked distribution), only
    legal actions, and the same Generator seed gives the same draws whatever torch's global seed."""
    import torch

    path = ZOO / "shoot_punter_betting" / "model.zip"
    config = model_config(path)
    env = gym.make(config.env_id, **config.env_kwargs)
    policy = TrainedPolicy(path, config, config.env_id, env.observation_space, env.action_space)
    obs, masks = observations_of(env, 400, seed=3)
    inputs = compact_observation(obs) if config.observation == "compact" else obs
    with torch.no_grad():
        chances = policy.policy.get_distribution(torch.as_tensor(inputs), action_masks=masks).distribution.probs.numpy()
    row = int(np.argmax((chances > 0.05).sum(axis=1) * 10 - chances.max(axis=1)))  # a row with several likely actions
    assert (chances[row] > 0.05).sum() >= 2
    draws = 40_000
    torch.manual_seed(0)
    first = policy.sample(np.repeat(obs[row:row + 1], draws, axis=0), np.repeat(masks[row:row + 1], draws, axis=0),
                          np.random.default_rng(11))
    torch.manual_seed(1)
    again = policy.sample(np.repeat(obs[row:row + 1], draws, axis=0), np.repeat(masks[row:row + 1], draws, axis=0),
                          np.random.default_rng(11))
    assert np.array_equal(first, again)
    assert masks[row][first].all()
    shares = np.bincount(first, minlength=len(chances[row])) / draws
    se = np.sqrt(chances[row] * (1 - chances[row]) / draws)
    assert np.all(np.abs(shares - chances[row]) <= 5 * se + 1e-12), (shares, chances[row])
    one_at_a_time = [policy.sample(o, m, np.random.default_rng(5)) for o, m in zip(obs, masks)]
    assert all(masks[i, a] for i, a in enumerate(one_at_a_time))


def test_a_sampling_trained_player_replays_a_seeded_episode():
    """A stochastic TrainedPlayer at the env: the same reset seed and Generator seed give the same
    episode (its draws come from the Generator, not torch's global generator)."""
    import torch

    from agents.trained import trained_agent

    def episode(torch_seed: int) -> list[int]:
        torch.manual_seed(torch_seed)
        env = gym.make("ShootPontoon-v0", stake_levels=[2])
        player = trained_agent("zoo:shoot_punter", deterministic=False).bind(env)
        rng = np.random.default_rng(2)
        obs, info = env.reset(seed=4)
        actions = []
        for _ in range(200):
            action = player.choose(obs, info["action_mask"], rng)
            actions.append(int(action))
            obs, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                obs, info = env.reset()
        return actions

    assert episode(0) == episode(123)
