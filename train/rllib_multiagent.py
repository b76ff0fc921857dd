"""The whole table under Ray RLlib: multi-agent PPO on the PettingZoo env, every seat an agent.

``python -m train.rllib_multiagent [--address auto] [--iterations 5] [--env-runners 1]``

Runs on a laptop in local mode (no ``--address``: Ray starts in this process on this machine's CPUs)
and on a Ray cluster unchanged (``--address auto`` on a cluster node, or ``ray://HOST:10001``): the
env, module and config are the same; only ``ray.init`` and ``--env-runners`` change. It needs the
``rllib`` extra in a virtual environment of its own, because Ray pins its own Gymnasium version::

    python -m venv .venv-ray && .venv-ray/bin/pip install -e ".[rllib,dev]"   # or: make install-rllib

Every seat is an agent of ``shoot_pontoon_env.multiagent`` (RLlib's ``PettingZooEnv`` turns the AEC
turns into its multi-agent steps: only the seat to act observes and acts, and each seat's reward is
what its chips changed by since its previous turn). All seats map to one shared policy, which sees
from its observation whether it banks now (``SEAT_IS_BANKER``), so one network learns both roles as
they move round the table. Illegal actions are masked the way RLlib supports on its new API stack:
the observation is a Dict of ``observations`` and ``action_mask`` and the module is RLlib's
``ActionMaskingTorchRLModule``, which adds log(mask) to the logits.

Each iteration prints the env steps (decisions) sampled per second, from RLlib's own counters, and
the episodes completed.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from shoot_pontoon_env.cli import Parser, int_in, run
from shoot_pontoon_env.multiagent import env as table_env

ENV_NAME = "shoot_pontoon_table"
POLICY = "table"


class RLlibMaskedObservation(BaseWrapper):
    """The AEC env with observations keyed as RLlib's action-masking module reads them:
    ``{"observations": ..., "action_mask": float32 0/1}`` (the env's own keys are PettingZoo's classic
    ``observation`` and an int8 ``action_mask``)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        space = env.observation_space(env.possible_agents[0])
        mask = space["action_mask"]
        self._space = spaces.Dict({
            "observations": space["observation"],
            "action_mask": spaces.Box(0.0, 1.0, shape=mask.shape, dtype=np.float32),
        })

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation = self.env.observe(agent)
        return {"observations": observation["observation"],
                "action_mask": observation["action_mask"].astype(np.float32)}


def make_rllib_env(env_config: dict[str, Any]):
    """RLlib's env creator: the table (``env_config`` = the env's keyword arguments) as a MultiAgentEnv."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(RLlibMaskedObservation(table_env(**env_config)))


def build_config(args: argparse.Namespace):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    env_config = {"rules": args.rules, "num_players": args.num_players, "deals_per_episode": args.deals,
                  "first_banker": "random"}
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_config)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, *a, **k: POLICY)
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


def samples_per_second(result: dict[str, Any]) -> float:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED

    sampled = result.get(ENV_RUNNER_RESULTS, {}).get(NUM_ENV_STEPS_SAMPLED, 0)
    seconds = result.get("time_this_iter_s") or float("nan")
    return float(sampled) / seconds


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m train.rllib_multiagent", description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join (auto, ray://host:10001); default: local mode on this machine")
    parser.add_argument("--iterations", type=int_in(1), default=5)
    parser.add_argument("--env-runners", type=int_in(0), default=1,
                        help="sampling workers (0: sample in the driver); on a cluster, one per CPU you give it")
    parser.add_argument("--num-cpus", type=int_in(1), default=2, help="CPUs Ray may use in local mode")
    parser.add_argument("--rules", default="shoot", choices=["shoot", "casino", "playtech"])
    parser.add_argument("--num-players", type=int_in(2, 10), default=4)
    parser.add_argument("--deals", type=int_in(1), default=4, help="deals per episode (roles move between them)")
    parser.add_argument("--batch", type=int_in(1), default=4000, help="env steps per training batch")
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
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_EPISODES
    from ray.tune.registry import register_env

    runtime_env = {"env_vars": {"OMP_NUM_THREADS": "1"}}  # small networks: one thread per process
    if args.address is None:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, runtime_env=runtime_env)
    else:
        ray.init(address=args.address, runtime_env=runtime_env)
    register_env(ENV_NAME, make_rllib_env)
    algorithm = build_config(args).build_algo()
    history = []
    try:
        for iteration in range(1, args.iterations + 1):
            start = time.perf_counter()
            result = algorithm.train()
            entry = {"iteration": iteration, "seconds": round(time.perf_counter() - start, 2),
                     "env_steps_per_second": round(samples_per_second(result), 1),
                     "episodes": int(result.get(ENV_RUNNER_RESULTS, {}).get(NUM_EPISODES, 0))}
            history.append(entry)
            print(json.dumps(entry), flush=True)
        if args.checkpoint:
            algorithm.save_to_path(args.checkpoint)
    finally:
        algorithm.stop()
        ray.shutdown()
    rates = [h["env_steps_per_second"] for h in history[1:]] or [history[-1]["env_steps_per_second"]]
    print(f"mean env steps/s after the first iteration: {np.mean(rates):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
