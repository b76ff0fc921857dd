"""Where a training run's time goes: the batched env, the policy's forward passes while collecting,
and PPO's gradient updates (issue 11: is SB3's own overhead what caps the throughput?).

Run: ``.venv/bin/python benchmarks/training_time.py [--config train/configs/shoot_punter.yml] [--rollouts 12]``

Builds the model and vectorized env exactly as ``python -m train`` does from the config (its
periodic evaluations and checkpoints off) and times, in CPU seconds of this process
(``time.process_time``), SB3's ``collect_rollouts`` and ``train`` and, inside the first, the env's
``step`` and action masks. The rest of ``collect_rollouts`` is SB3's own: the policy's forward pass,
the rollout buffer and the advantage computation. Results are in ``docs/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # train/ runs from the checkout


def timed(totals: dict[str, float], name: str, function: Callable) -> Callable:
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            totals[name] += time.process_time() - start
    return wrapper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "train" / "configs" / "shoot_punter.yml"))
    parser.add_argument("--rollouts", type=int, default=12, help="rollouts (and updates) to time")
    args = parser.parse_args()

    import torch

    from train.config import load_config
    from train.run import build_model, make_vec_env

    with TemporaryDirectory() as folder:
        config = load_config(args.config, [f"log_dir={folder}", "eval_freq=0", "checkpoint_freq=0"])
        torch.set_num_threads(config.torch_threads)
        env = make_vec_env(config)
        model = build_model(config, env)
        totals: dict[str, float] = defaultdict(float)
        env.step_async = timed(totals, "env step", env.step_async)
        env.step_wait = timed(totals, "env step", env.step_wait)
        env.env_method = timed(totals, "action masks", env.env_method)  # how sb3-contrib asks for them
        model.collect_rollouts = timed(totals, "collect", model.collect_rollouts)
        model.train = timed(totals, "train", model.train)
        steps = args.rollouts * config.n_envs * config.n_steps
        start = time.process_time()
        model.learn(total_timesteps=steps)
        total = time.process_time() - start
        env.close()

    sb3_collect = totals["collect"] - totals["env step"] - totals["action masks"]
    rows = [("the batched env's step", totals["env step"]), ("action masks (a list of rows, stacked by sb3-contrib)", totals["action masks"]),
            ("SB3 collecting (policy forward, buffer, advantages)", sb3_collect),
            ("PPO updates (train)", totals["train"]),
            ("other", total - totals["collect"] - totals["train"])]
    print(f"{Path(args.config).name}: {steps:,} steps ({args.rollouts} rollouts of {config.n_envs} x "
          f"{config.n_steps}), {config.n_epochs} epochs of batch {config.batch_size}, torch threads "
          f"{config.torch_threads}: {total:.1f} CPU-s, {steps / total:,.0f} steps/s")
    print("| part | CPU-s | share |\n|---|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.2f} | {seconds / total:.1%} |")


if __name__ == "__main__":
    main()
