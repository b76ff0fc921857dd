"""The agents library: one interface, legal actions in every preset, shared strategies, trained models."""

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401
from agents import RandomAgent, StrategyAgent, agent_names, make_agent
from shoot_pontoon_env.players.strategies import STRATEGIES

PUNTER_ENVS = [("ShootPontoon-v0", {}), ("ShootPontoon-Casino-v0", {"num_players": 2}),
               ("ShootPontoon-Playtech-v0", {"num_players": 2})]


def play(env, agent, episodes, seed=0):
    agent.bind(env)
    total = 0.0
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        rng = np.random.default_rng(seed + i)
        done = False
        while not done:
            action = agent.choose(obs, info["action_mask"], rng)
            assert info["action_mask"][action]
            obs, reward, terminated, truncated, info = env.step(action)
            assert not info["illegal_action"]
            total += reward
            done = terminated or truncated
    return total


@pytest.mark.parametrize(("env_id", "kwargs"), PUNTER_ENVS)
@pytest.mark.parametrize("name", ["random", "tips", "threshold", "threshold16", "stand17"])
def test_rule_based_and_random_agents_only_take_legal_actions(env_id, kwargs, name):
    env = gym.make(env_id, **kwargs)
    play(env, make_agent(name, env), episodes=30)


def test_banker_seat_agents():
    env = gym.make("ShootPontoonBanker-v0")
    for name in ("random", "stand17", "shoot_aware", "dealer"):
        play(env, make_agent(name, env), episodes=20)


def test_a_strategy_agent_acts_exactly_like_the_table_player_it_wraps():
    """The agent decodes the observation; the table player reads the engine's view: same choices."""
    env = gym.make("ShootPontoon-v0", rules="shoot")
    base = env.unwrapped
    for name in sorted(set(STRATEGIES) - {"random"}):
        agent = StrategyAgent(name).bind(env)
        for i in range(40):
            obs, info = env.reset(seed=i)
            done = False
            while not done:
                rng_a, rng_b = np.random.default_rng(i), np.random.default_rng(i)
                index = agent.choose(obs, info["action_mask"], rng_a)
                view = base.view
                expected = base.action_table.to_index(agent.policy.act(view, rng_b), view)
                assert index == expected
                obs, _, terminated, truncated, info = env.step(index)
                done = terminated or truncated


def test_random_agent_uses_only_its_generator():
    mask = np.array([False, True, True, False, True])
    picks = [RandomAgent().choose(np.zeros(3), mask, np.random.default_rng(7)) for _ in range(5)]
    assert len(set(picks)) == 1 and mask[picks[0]]


def test_unknown_agent_names_are_refused_with_the_choices():
    env = gym.make("ShootPontoon-v0")
    with pytest.raises(ValueError, match=r"unknown agent 'genius'.*random"):
        make_agent("genius", env)
    assert "optimal" in agent_names() and "basic" in agent_names()


def test_an_agent_can_sit_at_the_table_as_an_opponent():
    """An agent is a Policy: bound to the banker seat's env, it (here a random one) banks for the punter
    env's table as it is."""
    banker_env = gym.make("ShootPontoonBanker-v0")
    banker_env.reset(seed=0)
    player = RandomAgent().bind(banker_env)
    env = gym.make("ShootPontoon-v0", banker=player)
    total = play(env, make_agent("tips", env), episodes=30)
    assert np.isfinite(total)


@pytest.mark.parametrize("observation", ["flat", "compact"])
def test_a_saved_model_reloads_and_acts_identically(tmp_path, observation):
    import yaml
    from sb3_contrib import MaskablePPO

    from agents.trained import trained_agent
    from shoot_pontoon_env.envs.features import CompactObservation
    from shoot_pontoon_env.seat.features import compact_observation

    env = gym.make("ShootPontoon-Playtech-v0", num_players=2)
    train_env = CompactObservation(env) if observation == "compact" else env
    model = MaskablePPO("MlpPolicy", train_env, n_steps=64, batch_size=32, seed=0, device="cpu")
    model.learn(128)
    model.save(tmp_path / "model.zip")
    config = {"algo": "maskable_ppo", "observation": observation, "net_arch": [64, 64]}  # SB3's default
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    agent = trained_agent(tmp_path / "model.zip").bind(env)
    for i in range(20):
        obs, info = env.reset(seed=i)
        seen = compact_observation(obs) if observation == "compact" else obs
        expected, _ = model.predict(seen, action_masks=info["action_mask"], deterministic=True)
        assert agent.choose(obs, info["action_mask"], np.random.default_rng(0)) == int(expected)


def test_a_checkpoint_is_named_by_run_and_steps_and_reads_its_run_config(tmp_path):
    import yaml
    from sb3_contrib import MaskablePPO

    from agents.trained import trained_agent
    from shoot_pontoon_env.envs.features import CompactObservation

    env = gym.make("ShootPontoon-Playtech-v0", num_players=2)
    model = MaskablePPO("MlpPolicy", CompactObservation(env), n_steps=32, batch_size=32, seed=0, device="cpu")
    (tmp_path / "myrun-seed0" / "checkpoints").mkdir(parents=True)
    model.save(tmp_path / "myrun-seed0" / "checkpoints" / "model_32_steps.zip")
    (tmp_path / "myrun-seed0" / "config.yaml").write_text(yaml.safe_dump({"observation": "compact",
                                                                                 "net_arch": [64, 64]}))
    agent = trained_agent(tmp_path / "myrun-seed0" / "checkpoints" / "model_32_steps.zip").bind(env)
    assert agent.name == "myrun-seed0:model_32_steps" and agent.observation == "compact"
    play(env, agent, episodes=5)


def test_every_zoo_model_loads_by_name_and_plays_legally():
    from agents.trained import zoo_models

    names = zoo_models()
    assert "playtech_punter" in names
    for name in names:
        import yaml

        from agents.trained import ZOO

        config = yaml.safe_load((ZOO / name / "config.yaml").read_text())
        env = gym.make(config["env_id"], **config["env_kwargs"])
        play(env, make_agent(f"zoo:{name}", env), episodes=10)


def test_the_optimal_agent_bets_the_shoot_where_the_solver_does():
    """With Shoot bets before the second card, the optimum bets its allowance on an Ace; where the
    only betting point is before the deal it never bets, and plays on the batched engine."""
    rules = {"preset": "shoot", "shoot_bet_points": ["before_second_card", "before_fourth_card"], "max_shoot_bet": 2}
    env = gym.make("ShootPontoon-v0", rules=rules, num_players=2)
    agent = make_agent("optimal", env)
    for first, bets in (("AS", True), ("7S", False)):
        obs, info = env.reset(options={"stacked": f"{first} 9C"})
        while env.unwrapped.view.shoot_bet_point != "before_second_card":
            obs, _, _, _, info = env.step(agent.choose(obs, info["action_mask"], np.random.default_rng(0)))
        label = env.unwrapped.action_table.labels[agent.choose(obs, info["action_mask"], np.random.default_rng(0))]
        assert label == ("Shoot bet 2" if bets else "no Shoot bet"), (first, label)
    default = make_agent("optimal", gym.make("ShootPontoon-v0"))
    assert not default.policy.shoot_bets and default.batch_player() is not None
