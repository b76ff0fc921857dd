"""``python -m train.bench --algo ALGO [--seeds 0 1 2 3 4] [--tasks NAME ...] [--steps N] [--quick] [--out DIR]``:
ShootPontoonBench-v1 for a learning algorithm. For every task and seed it trains a fresh model at the
task's fixed budget (``--steps`` overrides it: the result is then not the suite's), scores it on the task's
fixed hands (``shoot_pontoon_env.benchmark.score_policy``), and aggregates the normalised scores over
seeds and tasks with rliable (IQM, median, mean, optimality gap, stratified bootstrap 95% intervals, a
performance profile). Writes bench.json, bench.md and profile.png to ``--out``.

Algorithms (Stable-Baselines3 and sb3-contrib, on the batched engine's tables): maskable_ppo (masks
illegal actions), ppo, a2c, dqn, qrdqn and recurrent_ppo (an LSTM policy, its memory reset where each
table's episode starts; these five unmasked: an illegal action forfeits the hand and costs the env's
``illegal_action_penalty``). The heads-up pair task trains a punter and a banker heads-up and
scores the pair's exploitability (its best responses ask the two networks, as numpy arrays, at every
decision: one to two minutes a seed). ``--quick`` is a smoke run (2,048 steps, 2,000 hands a task, every task but the pair
unless named; CI runs it)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from shoot_pontoon_env.cli import Parser, UsageError, int_in, run, strict_json

ALGOS: dict[str, dict[str, Any]] = {
    "maskable_ppo": {"n_envs": 256, "n_steps": 64, "batch_size": 4096, "n_epochs": 10, "learning_rate": 1e-3,
                     "ent_coef": 0.03, "gae_lambda": 0.7, "gamma": 1.0},
    "ppo": {"n_envs": 256, "n_steps": 64, "batch_size": 4096, "n_epochs": 10, "learning_rate": 1e-3,
            "ent_coef": 0.03, "gae_lambda": 0.7, "gamma": 1.0},
    "a2c": {"n_envs": 256, "n_steps": 8, "learning_rate": 7e-4, "ent_coef": 0.01, "gae_lambda": 1.0, "gamma": 1.0},
    "dqn": {"n_envs": 16, "learning_rate": 1e-4, "buffer_size": 200_000, "learning_starts": 10_000,
            "batch_size": 256, "train_freq": 4, "target_update_interval": 10_000, "exploration_fraction": 0.3,
            "exploration_final_eps": 0.02, "gamma": 1.0},
    "recurrent_ppo": {"n_envs": 256, "n_steps": 64, "batch_size": 4096, "n_epochs": 4, "learning_rate": 1e-3,
                      "ent_coef": 0.03, "gae_lambda": 0.7, "gamma": 1.0},
    "qrdqn": {"n_envs": 16, "learning_rate": 1e-4, "buffer_size": 200_000, "learning_starts": 10_000,
              "batch_size": 256, "train_freq": 4, "target_update_interval": 10_000, "exploration_fraction": 0.3,
              "exploration_final_eps": 0.02, "gamma": 1.0},
}
"""Each algorithm's settings (the suite's fixed hyperparameters; network [64, 64], a punter's compact
observation)."""
NET_ARCH = [64, 64]
LSTM_HIDDEN = 64
"""RecurrentPPO's LSTM width (with 4 epochs, ``ALGOS``): at sb3-contrib's default of 256 and 10 epochs one
2M-step run took over 19 CPU-minutes here; at these, 200,000 steps take 45 s, a run about 7 minutes."""
QUICK_SETTINGS = {"n_envs": 16, "n_steps": 32, "batch_size": 256, "learning_starts": 256, "buffer_size": 4096,
                  "target_update_interval": 256}
"""What a ``--quick`` run changes (small rollouts, so that 2,048 steps make several updates)."""


def algorithm(name: str) -> type:
    from sb3_contrib import QRDQN, MaskablePPO, RecurrentPPO
    from stable_baselines3 import A2C, DQN, PPO

    return {"maskable_ppo": MaskablePPO, "ppo": PPO, "a2c": A2C, "dqn": DQN, "qrdqn": QRDQN,
            "recurrent_ppo": RecurrentPPO}[name]


def make_tables(env_id: str, env_kwargs: dict[str, Any], count: int, seed: int) -> Any:
    """``count`` tables of the batched engine as SB3's VecEnv (a punter seat's compact observation; the
    banker seat has only the flat one)."""
    import gymnasium as gym
    from gymnasium.vector import AutoresetMode

    import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
    from shoot_pontoon_env.envs.sb3 import PontoonVecEnv

    compact = {} if "Banker" in env_id else {"observation": "compact"}
    venv = PontoonVecEnv(gym.make_vec(env_id, num_envs=count, autoreset_mode=AutoresetMode.SAME_STEP,
                                      **compact, **env_kwargs))
    venv.seed(seed)
    return venv


def train_model(algo: str, env_id: str, env_kwargs: dict[str, Any], steps: int, seed: int, quick: bool) -> Any:
    """A model of ``algo`` trained ``steps`` steps on the task's tables (in this process: the benchmark scores
    the model object, so nothing is read back from disk)."""
    import torch

    torch.set_num_threads(1)
    settings = {**ALGOS[algo], **({k: v for k, v in QUICK_SETTINGS.items() if k in ALGOS[algo]} if quick else {})}
    count = settings.pop("n_envs")
    env = make_tables(env_id, env_kwargs, count, seed)
    policy, extra = ("MlpLstmPolicy", {"lstm_hidden_size": LSTM_HIDDEN}) if algo == "recurrent_ppo" else ("MlpPolicy", {})
    model = algorithm(algo)(policy, env, policy_kwargs={"net_arch": NET_ARCH, **extra}, seed=seed, verbose=0,
                            device="cpu", **settings)
    model.learn(total_timesteps=steps)
    env.close()
    return model


def run_task(algo: str, target: Any, seed: int, steps: int | None, quick: bool) -> Any:
    """Train on ``target`` and score the model (the pair task: a punter and a banker heads-up)."""
    from shoot_pontoon_env.benchmark import score_pair, score_policy
    from shoot_pontoon_env.benchmark.suite import PAIR, QUICK_STEPS
    from shoot_pontoon_env.models.player import SB3ModelPolicy

    budget = QUICK_STEPS if quick else (steps or target.train_steps)
    name = f"{algo}-seed{seed}"
    if target.seat == PAIR:
        import gymnasium as gym

        kwargs = {"num_players": 2}
        punter = train_model(algo, target.env_id, target.env_kwargs, budget, seed, quick)
        banker = train_model(algo, target.banker_env_id, kwargs, budget, seed, quick)
        pair = (SB3ModelPolicy(punter, name).bind(gym.make(target.env_id, **target.env_kwargs)),
                SB3ModelPolicy(banker, name).bind(gym.make(target.banker_env_id, **kwargs)))
        return score_pair(target, pair, name=name)
    model = train_model(algo, target.env_id, target.env_kwargs, budget, seed, quick)
    return score_policy(target, SB3ModelPolicy(model, name), name=name, quick=quick)


def build_parser() -> Parser:
    from shoot_pontoon_env.benchmark import TASKS

    parser = Parser(prog="python -m train.bench", description=__doc__)
    parser.add_argument("--algo", required=True, choices=sorted(ALGOS), help="the learning algorithm")
    parser.add_argument("--seeds", nargs="+", type=int_in(0, 2**31 - 1), default=[0, 1, 2, 3, 4], metavar="SEED",
                        help="seeds of the runs, one trained model each per task (default: 0 1 2 3 4)")
    parser.add_argument("--tasks", nargs="+", default=None, metavar="NAME",
                        help=f"tasks (default: all): {', '.join(t.name for t in TASKS)}")
    parser.add_argument("--steps", type=int_in(1, 10**10), default=None,
                        help="training steps per run instead of the suite's budget (not the suite's result then)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2,048 steps, 2,000 hands a task")
    parser.add_argument("--out", type=Path, default=Path("reports/bench"), help="folder of the results")
    return parser


def main(argv: list[str] | None = None) -> int:
    from shoot_pontoon_env.benchmark import SUITE, TASKS, task
    from shoot_pontoon_env.benchmark.aggregate import aggregate, performance_profile
    from shoot_pontoon_env.benchmark.suite import PAIR

    args = build_parser().parse_args(argv)
    try:
        targets = [task(name) for name in args.tasks] if args.tasks else [
            t for t in TASKS if not (args.quick and t.seat == PAIR)]
    except ValueError as error:
        raise UsageError(f"argument --tasks: {error}") from None
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"argument --out: {args.out}: {error.strerror or error}") from None
    began = time.perf_counter()
    scores = []
    for target in targets:
        for seed in args.seeds:
            result = run_task(args.algo, target, seed, args.steps, args.quick)
            print(f"{target.name} seed {seed}: score {result.score:+.3f}, raw {result.raw:+.4f}", flush=True)
            scores.append(result)
    matrix = np.array([[s.score for s in scores if s.task == t.name] for t in targets]).T  # runs x tasks
    summary = aggregate({args.algo: matrix})[args.algo]
    report = {"suite": SUITE, "algo": args.algo, "quick": args.quick, "steps": args.steps,
              "seeds": args.seeds, "tasks": [t.name for t in targets], "seconds": round(time.perf_counter() - began, 1),
              "aggregate": summary, "scores": [s.to_dict() for s in scores]}
    (args.out / "bench.json").write_text(strict_json(report, indent=2) + "\n")
    lines = [f"## {SUITE}: {args.algo}" + (" (quick)" if args.quick else ""), "",
             "| metric | value | 95% interval |", "|---|---|---|"]
    lines += [f"| {m} | {v['value']:+.3f} | [{v['low']:+.3f}, {v['high']:+.3f}] |" for m, v in summary.items()]
    lines += ["", "| task | seed | score | raw |", "|---|---|---|---|"]
    lines += [f"| {s.task} | {s.policy.rsplit('seed', 1)[1]} | {s.score:+.3f} | {s.raw:+.4f} |" for s in scores]
    (args.out / "bench.md").write_text("\n".join(lines) + "\n")
    performance_profile({args.algo: matrix}, args.out / "profile.png")
    print("\n".join(lines[:4 + len(summary)]))
    print(f"written to {args.out}/: bench.json, bench.md, profile.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))
