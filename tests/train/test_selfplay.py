"""Self-play: the league's pieces and a tiny end-to-end run of the committed config."""

import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401
from agents.base import EnvContext
from agents.trained import trained_agent
from shoot_pontoon_env.seat.features import compact_observation
from shoot_pontoon_env.players.strategies import StandOnBanker, TipsPunter
from tests.hang_guard import HANG_GUARD_S
from train.league import FrozenPolicy, LeagueOpponents, Pool
from train.selfplay import SelfPlay, load_selfplay_config, main

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "train" / "configs" / "selfplay" / "shoot.yml"


@pytest.mark.parametrize("name, env_id, observation", [
    ("shoot_banker", "ShootPontoonBanker-v0", "flat"), ("shoot_punter", "ShootPontoon-v0", "compact")])
def test_a_frozen_policy_chooses_what_the_model_predicts(name, env_id, observation):
    agent = trained_agent(name)  # the project's safe loader (no unpickling)
    env = gym.make(env_id, **agent.config.env_kwargs).unwrapped  # the table it was trained at
    agent.bind(EnvContext.of(env))
    frozen = FrozenPolicy(agent.policy, observation, name)
    rng = np.random.default_rng(0)
    decisions = 0
    for episode in range(60):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            mask = info["action_mask"]
            mine = frozen.choose(obs, mask, rng)
            seen = compact_observation(obs) if observation == "compact" else obs
            theirs, _ = agent.policy.predict(seen, action_masks=mask, deterministic=True)
            assert mine == int(theirs) and mask[mine]
            decisions += 1
            obs, _, done, _, info = env.step(mine)
    assert decisions > 100
    # a copy: training the model further does not change the frozen player
    before = frozen.layers[0][0].copy()
    for parameter in agent.policy.parameters():
        parameter.data.add_(1.0)
    assert np.array_equal(frozen.layers[0][0], before)


def test_the_pool_favours_the_newest_and_keeps_the_anchors():
    pool = Pool([TipsPunter(), StandOnBanker()], latest_share=0.5)
    rng = np.random.default_rng(0)
    draws = [pool.sample(rng).name for _ in range(4000)]
    assert 0.70 < draws.count("stand17") / len(draws) < 0.80  # 0.5 + 0.5 / 2
    assert Pool([TipsPunter()], latest_share=1.0).sample(rng).name == "tips"
    with pytest.raises(ValueError, match="no players"):
        Pool().sample(rng)


def test_league_seats_a_drawn_player_before_every_episode():
    pool = Pool([TipsPunter(), StandOnBanker()], latest_share=0.0)
    env = LeagueOpponents(gym.make("ShootPontoonBanker-v0"), {1: pool, 2: pool, 3: pool},
                          np.random.default_rng(0))
    seen = set()
    for episode in range(20):
        env.reset(seed=episode)
        seen |= {env.unwrapped.players[s].name for s in (1, 2, 3)}
    assert seen == {"tips", "stand17"}


def test_config_errors_name_the_field():
    with pytest.raises(ValueError, match="unknown self-play field"):
        load_selfplay_config(CONFIG, ["generation=2"])
    with pytest.raises(ValueError, match="latest_share"):
        load_selfplay_config(CONFIG, ["latest_share=2"])
    with pytest.raises(ValueError, match="punter: .*unexpected keyword"):
        SelfPlay(load_selfplay_config(CONFIG, ["punter.learning_rat=0.1"]))
    with pytest.raises(ValueError, match="num_players differ"):
        SelfPlay(load_selfplay_config(CONFIG, ["banker.env_kwargs={num_players: 3}"]))


def test_selfplay_smoke_run(tmp_path):
    tiny = [f"log_dir={tmp_path}", "generations=2", "eval_episodes=20"]
    for role in ("punter", "banker"):
        tiny += [f"{role}.total_timesteps=128", f"{role}.n_envs=2", f"{role}.n_steps=64",
                 f"{role}.batch_size=64", f"{role}.n_epochs=1"]
    result = subprocess.run([sys.executable, "-m", "train.selfplay", "--config", str(CONFIG), "--set", *tiny],
                            cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 0, result.stderr[-3000:]
    run = tmp_path / "selfplay-seed0"
    history = json.loads((run / "history.json").read_text())
    assert [h["generation"] for h in history] == [0, 1, 2]
    assert history[0]["punter"]["agent"] == "tips" and history[0]["banker"]["agent"] == "stand17"
    assert history[2]["pools"] == {"punter": ["tips", "punter-gen1", "punter-gen2"],
                                   "banker": ["stand17", "banker-gen1", "banker-gen2"]}
    for role in ("punter", "banker"):
        assert (run / role / "model.zip").exists() and (run / role / "league" / "gen2.zip").exists()
    assert (run / "selfplay.png").exists()
    (run / "selfplay.png").unlink()
    assert main(["--replot", str(run)]) == 0 and (run / "selfplay.png").exists()
    # the learnt models load safely and act in the single-seat envs, as evaluate uses them
    from shoot_pontoon_env.evaluate.tournament import play_agent

    for role, env_id in (("punter", "ShootPontoon-v0"), ("banker", "ShootPontoonBanker-v0")):
        record = play_agent(lambda: gym.make(env_id), trained_agent(run / role / "model.zip"), 20, seed=0)
        assert len(record.returns) == 20 and record.illegal == 0


def test_a_bad_override_is_one_error_line(capsys):
    assert main(["--config", str(CONFIG), "--set", "generations=0"]) == 2
    assert capsys.readouterr().err == "error: generations = 0: expected an int >= 1\n"
