"""The whole table under Ray RLlib: multi-agent PPO on the PettingZoo env, every seat an agent.

``python -m train.rllib_multiagent [--address auto] [--iterations 5] [--env-runners 1]``

Runs on a laptop in local mode (no ``--address``: Ray starts in this process on this machine's CPUs)
and on a Ray cluster unchanged (``--address auto`` on a cluster node, or ``ray://HOST:10001``): the
env, module and config are the same; only ``ray.init`` and ``--env-runners`` change. It needs the
``rllib`` extra in a virtual environment of its own, because Ray pins its own Gymnasium version::

    python -m venv .venv-ray && .venv-ray/bin/pip install -e ".[rllib,dev]"   # or: make install-rllib

Every seat of ``--tables`` whole tables is an agent, on the batched engine (``train/rllib_tables.py``:
one RLlib env of many tables, each env step asks every table's seat to act at once, and every chip of
reward reaches an action of the seat it belongs to, so each episode's per-seat returns sum to zero).
All seats map to one shared policy, which sees from its observation whether it banks now
(``SEAT_IS_BANKER``), so one network learns both roles as they move round the table. Illegal actions
are masked the way RLlib supports on its new API stack: the observation is a Dict of ``observations``
and ``action_mask`` and the module is RLlib's ``ActionMaskingTorchRLModule``, which adds log(mask) to
the logits.

Each iteration prints the env steps sampled per second, from RLlib's own counters (one env step is
one decision at each live table), the agent steps (decisions) per second and the episodes
completed. An iteration that samples nothing (env runners that return no samples) stops the run with
one line and exit status 1, and Ray is shut down at once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from shoot_pontoon_env.cli import Parser, int_in, run
from train.rllib_tables import rllib_env

ENV_NAME = "shoot_pontoon_tables"
POLICY = "table"


class SampledNothing(RuntimeError):
    """An iteration in which RLlib's env runners returned no samples."""


def build_config(args: argparse.Namespace):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    env_config = {"num_tables": args.tables, "rules": args.rules, "num_players": args.num_players,
                  "deals_per_episode": args.deals, "first_banker": "random"}
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_config)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, *a, **k: POLICY,
                     count_steps_by="agent_steps")  # --batch counts decisions, whatever the tables per env
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            model_config={"head_fcnet_hiddens": list(args.hidden), "head_fcnet_activation": "tanh"},
        )}))
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=1, num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .training(lr=args.lr, gamma=1.0, lambda_=1.0, train_batch_size_per_learner=args.batch,
                  minibatch_size=args.minibatch, num_epochs=args.epochs, entropy_coeff=0.0)
        .debugging(seed=args.seed)
    )


def sampled(result: dict[str, Any]) -> tuple[float, float]:
    """(env steps, agent steps) RLlib's env runners sampled in the iteration of ``result``."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_AGENT_STEPS_SAMPLED, NUM_ENV_STEPS_SAMPLED

    runners = result.get(ENV_RUNNER_RESULTS, {})
    agents = runners.get(NUM_AGENT_STEPS_SAMPLED, 0)
    agents = sum(agents.values()) if isinstance(agents, dict) else agents
    return float(runners.get(NUM_ENV_STEPS_SAMPLED, 0)), float(agents)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m train.rllib_multiagent", description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join (auto, ray://host:10001); default: local mode on this machine")
    parser.add_argument("--iterations", type=int_in(1), default=5)
    parser.add_argument("--env-runners", type=int_in(0), default=1,
                        help="sampling workers (0: sample in the driver); on a cluster, one per CPU you give it")
    parser.add_argument("--num-cpus", type=int_in(1), default=2, help="CPUs Ray may use in local mode")
    parser.add_argument("--tables", type=int_in(1), default=32,
                        help="whole tables in each env (one env step asks every table's seat to act)")
    parser.add_argument("--rules", default="shoot", choices=["shoot", "casino", "playtech"])
    parser.add_argument("--num-players", type=int_in(2, 10), default=4)
    parser.add_argument("--deals", type=int_in(1), default=4, help="deals per episode (roles move between them)")
    parser.add_argument("--batch", type=int_in(1), default=4000, help="decisions (agent steps) per training batch")
    parser.add_argument("--minibatch", type=int_in(1), default=500)
    parser.add_argument("--epochs", type=int_in(1), default=5)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--hidden", type=int_in(1), nargs="+", default=[128, 128])
    parser.add_argument("--seed", type=int_in(0), default=0)
    parser.add_argument("--checkpoint", default=None, help="folder to save the trained algorithm in")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line: a mistake is one ``error: ...`` line and exit status 2 (``--debug``: traceback)."""
    return run(_main, argv)


def _main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    import ray
    import torch
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_EPISODES
    from ray.tune.registry import register_env

    from shoot_pontoon_env.vector import kernel
    from shoot_pontoon_env.vector.compiler import WHOLE_TABLE

    kernel.compile(WHOLE_TABLE)  # into numba's cache here, so that every env runner loads it at once
    runtime_env = {"env_vars": {"OMP_NUM_THREADS": "1"}}  # small networks: one thread per process
    torch.set_num_threads(1)  # the driver too (it learns, and samples with --env-runners 0): on a busy
    # machine torch's default of one thread per core made it about 10x slower (docs/SCALING.md)
    if args.address is None:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, runtime_env=runtime_env)
    else:
        ray.init(address=args.address, runtime_env=runtime_env)
    history = []
    try:
        register_env(ENV_NAME, rllib_env)
        algorithm = build_config(args).build_algo()
        for iteration in range(1, args.iterations + 1):
            start = time.perf_counter()
            result = algorithm.train()
            seconds = result.get("time_this_iter_s") or (time.perf_counter() - start)
            env_steps, agent_steps = sampled(result)
            if env_steps == 0:
                raise SampledNothing(f"iteration {iteration}: RLlib's env runners returned no samples in "
                                     f"{seconds:.0f} s (a machine too busy for --env-runners {args.env_runners}? "
                                     "try --env-runners 0, which samples in this process)")
            entry = {"iteration": iteration, "seconds": round(time.perf_counter() - start, 2),
                     "env_steps_per_second": round(env_steps / seconds, 1),
                     "agent_steps_per_second": round(agent_steps / seconds, 1),
                     "episodes": int(result.get(ENV_RUNNER_RESULTS, {}).get(NUM_EPISODES, 0))}
            history.append(entry)
            print(json.dumps(entry), flush=True)
        if args.checkpoint:
            algorithm.save_to_path(args.checkpoint)
        algorithm.stop()
    except SampledNothing as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        ray.shutdown()  # kills the env runners, also those stuck in a sample: no wait at exit
    rates = [h["agent_steps_per_second"] for h in history[1:]] or [history[-1]["agent_steps_per_second"]]
    print(f"mean agent steps (decisions)/s after the first iteration: {np.mean(rates):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
