"""The installed evaluation API (``shoot_pontoon_env.evaluate``): any policy from any project, the same
hands for all, a paired reference, strict JSON, exploitability of any pair, and the command line from a
folder outside the checkout."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401
from shoot_pontoon_env.evaluate import BANKER_REFERENCES, batch_policy, evaluate, exploitability
from shoot_pontoon_env.models.player import SB3ModelPolicy
from tests.hang_guard import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[2]
PLAYTECH = "ShootPontoon-Playtech-v0"
HEADS_UP = {"num_players": 2}


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_a_function_a_batch_function_and_a_name_are_paired_with_the_optimum() -> None:
    @batch_policy
    def first_legal_batch(observations, masks):
        return np.argmax(masks, axis=1)

    result = evaluate(PLAYTECH, {"one": first_legal, "batch": first_legal_batch, "basic": "basic"},
                      hands=2000, seed=3, env_kwargs=HEADS_UP)
    assert [s.name for s in result] == ["one", "batch", "basic", "optimal"]
    assert result.reference == "optimal" and result.optimal is not None
    one, batch = result["one"], result["batch"]
    assert one.per_stake == batch.per_stake and one.paired_diff == batch.paired_diff  # the same choices
    assert one.paired_diff < 0 and one.paired_ci95 > 0 and one.hands == 2000
    assert result["optimal"].paired_diff is None and one.seconds > 0
    text = str(result)
    assert "vs optimal" in text and "one" in text
    report = json.loads(result.to_json())
    assert report["reference"] == "optimal" and [p["name"] for p in report["policies"]][0] == "one"
    with pytest.raises(KeyError, match="'nobody': no such policy"):
        result["nobody"]


def test_a_stable_baselines3_model_object_plays_by_its_predict() -> None:
    class Model:  # what SB3's and sb3-contrib's models offer (duck-typed: no SB3 needed here)
        def __init__(self, env):
            self.observation_space, self.action_space = env.observation_space, env.action_space
            self.calls = 0

        def predict(self, observation, state=None, episode_start=None, deterministic=False, action_masks=None):
            self.calls += 1
            assert deterministic and action_masks is not None and len(action_masks) == len(observation)
            return np.argmax(action_masks, axis=1), None

    model = Model(gym.make(PLAYTECH, **HEADS_UP))
    result = evaluate(PLAYTECH, {"model": model, "same": first_legal}, hands=500, env_kwargs=HEADS_UP,
                      reference=None)
    assert model.calls > 0 and result.reference is None
    assert result["model"].per_stake == result["same"].per_stake
    wrong = gym.make("ShootPontoon-v0")
    with pytest.raises(ValueError, match="a model of 4 actions"):
        SB3ModelPolicy(type("M", (), {"predict": lambda *a, **k: None, "observation_space": None,
                                      "action_space": gym.spaces.Discrete(4)})()).bind(wrong)


def test_a_banker_seat_is_paired_with_the_best_rule_based_banker() -> None:
    result = evaluate("ShootPontoonBanker-v0", {"first": first_legal}, hands=1500, seed=1)
    assert result.reference in BANKER_REFERENCES and result.optimal is None
    best = max(BANKER_REFERENCES, key=lambda name: evaluate(
        "ShootPontoonBanker-v0", [name], hands=1500, seed=1, reference=None)[name].mean)
    assert result.reference == best and result["first"].paired_diff is not None


def test_bad_arguments_name_the_value() -> None:
    with pytest.raises(ValueError, match="env_id = 'Nope-v0'"):
        evaluate("Nope-v0", ["basic"])
    with pytest.raises(ValueError, match="hands = 0"):
        evaluate(PLAYTECH, ["basic"], hands=0)
    with pytest.raises(ValueError, match="no module named 'no_such_module'"):
        evaluate(PLAYTECH, ["no_such_module:policy"], hands=10)
    with pytest.raises(ValueError, match="env_kwargs = {'colour': 1}"):
        evaluate(PLAYTECH, ["basic"], env_kwargs={"colour": 1}, hands=10)
    with pytest.raises(ValueError, match="'tips' is named twice"):
        evaluate(PLAYTECH, ["tips", "tips"], hands=10)


def test_the_exploitability_of_a_python_policy() -> None:
    def stick_when_allowed(observation, mask):
        return int(np.flatnonzero(mask)[0])

    result = exploitability(stick_when_allowed, "stand17", "shoot")
    assert result.exploitability > 0 and result.banker == "stand17"
    with pytest.raises(ValueError, match="'random' plays at random"):
        exploitability("random", "stand17")


POLICY_MODULE = '''
import numpy as np

def first_legal(observation, action_mask):
    return int(np.flatnonzero(action_mask)[0])
'''


def run_outside(tmp_path: Path, *command: str) -> subprocess.CompletedProcess:
    """``command`` in a folder outside the checkout, the checkout off the Python path (the installed
    package only)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, *command], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=HANG_GUARD_S)


def test_the_command_line_takes_module_name_from_any_folder(tmp_path: Path) -> None:
    (tmp_path / "mypolicies.py").write_text(POLICY_MODULE)
    done = run_outside(tmp_path, "-m", "shoot_pontoon_env.evaluate", "--env", PLAYTECH, "--env-kwargs",
                       '{"num_players": 2}', "--agents", "mypolicies:first_legal", "basic", "optimal",
                       "--hands", "500", "--quiet", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    mine = report["agents"][0]
    assert mine["name"] == "first_legal" and mine["paired_vs"] == "optimal" and mine["paired_diff"] < 0
    bad = run_outside(tmp_path, "-m", "shoot_pontoon_env.evaluate", "--agents", "mypolicies:nothing_here",
                      "--hands", "10", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2 and bad.stdout == ""
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(r"error: argument --agents: .*'mypolicies:nothing_here'.*no attribute "
                                        r"'nothing_here'", lines[0]), bad.stderr
    (tmp_path / "broken.py").write_text("raise RuntimeError('half written')\n")
    broken = run_outside(tmp_path, "-m", "shoot_pontoon_env.evaluate", "--agents", "broken:policy", "--hands", "10",
                         "--out", str(tmp_path / "broken"))
    assert broken.returncode == 2 and broken.stderr.strip().splitlines() == [
        "error: argument --agents: agent = 'broken:policy': importing 'broken' raised RuntimeError: half written"]


def test_the_readme_snippet_runs_outside_the_checkout(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Benchmark your policy"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len([line for line in code.strip().splitlines() if line.strip()]) <= 10  # a ten-line script
    script = tmp_path / "benchmark_mine.py"
    script.write_text(code.replace("hands=20_000", "hands=2_000"))
    done = run_outside(tmp_path, str(script))
    assert done.returncode == 0, done.stderr
    assert "vs optimal" in done.stdout
    diff, ci = (float(x) for x in done.stdout.strip().splitlines()[-1].split())
    assert diff < 0 < ci
    assert run_outside(tmp_path, "-c", "import agents").returncode != 0  # nothing of the checkout was there


class CountingRecurrentModel:
    """RecurrentPPO's interface (``predict(obs, state, episode_start)``, an LSTM policy): its memory counts
    the decisions since its episode started, and its action depends on that count."""

    def __init__(self, env):
        self.observation_space, self.action_space = env.observation_space, env.action_space
        self.policy = type("Policy", (), {"lstm_actor": object()})()

    def predict(self, observation, state=None, episode_start=None, deterministic=False):
        rows = len(observation)
        count = np.zeros(rows) if state is None else state[0][0, :, 0].copy()
        count[np.asarray(episode_start, dtype=bool)] = 0
        actions = np.where(count < 1, 1, 4).astype(np.int64)  # the first stake, then stick (or a forfeit)
        count += 1
        return actions, (count[None, :, None], count[None, :, None])


def test_a_recurrent_models_memory_restarts_with_each_episode_on_every_route() -> None:
    from shoot_pontoon_env.evaluate.tournament import play_agent, play_agent_batched

    env = gym.make(PLAYTECH, **HEADS_UP)
    model = CountingRecurrentModel(env)
    policy = SB3ModelPolicy(model, "counting")
    assert policy.recurrent
    batched = play_agent_batched(env, HEADS_UP, policy, 3000, seed=4, num_tables=256).returns
    scalar = np.asarray(play_agent(lambda: gym.make(PLAYTECH, **HEADS_UP), policy, 3000, seed=4).returns)
    assert np.array_equal(batched, scalar)  # the same count at every decision of every hand
    assert len(set(batched.tolist())) > 2


def test_an_sb3_models_one_decision_by_numpy_is_its_batch_decision_by_torch() -> None:
    """The solver asks one decision at a time (the numpy actor); an evaluation asks batches (torch)."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from shoot_pontoon_env.envs.features import CompactObservation

    env = gym.make(PLAYTECH, **HEADS_UP)
    model = MaskablePPO("MlpPolicy", CompactObservation(gym.make(PLAYTECH, **HEADS_UP)), seed=3, device="cpu",
                        policy_kwargs={"net_arch": [16, 16]})
    policy = SB3ModelPolicy(model, "untrained").bind(env)
    rng = np.random.default_rng(0)
    observations, masks = [], []
    obs, info = env.reset(seed=1)
    while len(observations) < 300:
        observations.append(obs)
        masks.append(info["action_mask"])
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if done:
            obs, info = env.reset()
    one = [policy.choose(o, m, rng) for o, m in zip(observations, masks)]
    assert one == policy.choose_batch(np.array(observations), np.array(masks), rng).tolist()
    assert policy._numpy_actor() is not None
