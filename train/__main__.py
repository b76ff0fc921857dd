"""``python -m train --config CONFIG.yml [--set key=value ...] [--resume CKPT] [--overwrite]``

Trains a MaskablePPO (or PPO) agent from a YAML configuration (the fields of ``train.config.TrainConfig``)
to ``total_timesteps`` steps and writes the run to ``log_dir/run_name``; ``--resume`` continues a
checkpoint to ``total_timesteps``.
"""

from __future__ import annotations

import os
import time

from shoot_pontoon_env.cli import Parser, UsageError, existing_file, run

from .config import TrainConfig, check_budget, env_kwargs_for, load_config


def build_parser() -> Parser:
    parser = Parser(prog="python -m train", description=__doc__)
    parser.add_argument("--config", type=existing_file, default=None,
                        help="YAML file of TrainConfig fields (train/configs/*.yml); without it, the defaults")
    parser.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="override fields, e.g. total_timesteps=40960 env_kwargs.rules=shoot "
                             "(repeatable)")
    parser.add_argument("--resume", type=existing_file, default=None,
                        help="a checkpoint .zip of a run of the same configuration to continue "
                             "training from, to total_timesteps (counting the checkpoint's steps)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the earlier run in log_dir/run_name (without it, training into a "
                             "folder that holds a run is refused, except a --resume of one of that run's "
                             "checkpoints)")
    return parser


def check_envs(config: TrainConfig) -> None:
    """Make every env the run will make once, so that a bad id or argument is a one-line error now
    rather than a traceback from inside the vectorized envs."""
    import gymnasium as gym

    import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)

    if config.env_id not in gym.registry:
        ours = sorted(shoot_pontoon_env.envs.ENV_IDS)
        raise UsageError(f"env_id = {config.env_id!r}: not a registered Gymnasium id; expected one of {ours}")
    for index in range(max(len(config.opponents), 1)):
        kwargs = env_kwargs_for(config, index)
        try:
            gym.make(config.env_id, **kwargs).close()
        except (ValueError, TypeError, gym.error.Error) as error:
            raise UsageError(f"env_kwargs of {config.env_id} {kwargs}: {error}") from None


def checkpoint_steps(path: str) -> int:
    """The step count a checkpoint records (0 where it records none), read without torch."""
    from shoot_pontoon_env.models.safe_load import plain_data

    steps = plain_data(path).get("num_timesteps")
    return steps if isinstance(steps, int) and not isinstance(steps, bool) and steps >= 0 else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = load_config(args.config, args.set)
    except (ValueError, TypeError) as error:
        raise UsageError(str(error)) from None
    if config.torch_threads > 1:  # read once, when torch loads OpenMP (below, in .run)
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from shoot_pontoon_env.models.safe_load import ModelFileError, check_sizes  # no torch: --help stays fast

    start = 0
    if args.resume is not None:
        try:
            check_sizes(args.resume)  # a zip bomb is refused before the envs and the model are built
            start = checkpoint_steps(args.resume)
        except ModelFileError as error:
            raise UsageError(f"argument --resume: {error}") from None
    try:
        check_budget(config, start, args.resume)
    except ValueError as error:
        raise UsageError(str(error)) from None
    check_envs(config)
    from .run import RunExists, train  # torch and SB3: only once the arguments are known to be good

    try:
        config.run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"log_dir = {config.log_dir!r}, run_name = {config.run_name!r}: the run folder "
                         f"{config.run_dir} cannot be made ({error.strerror or error})") from None

    began = time.perf_counter()
    try:
        path = train(config, resume=args.resume, overwrite=args.overwrite)
    except ModelFileError as error:
        raise UsageError(f"argument --resume: {error}") from None
    except RunExists as error:
        raise UsageError(str(error)) from None
    resumed = f" (resumed at {start} steps from {args.resume})" if args.resume is not None else ""
    print(f"trained {config.algo} on {config.env_id} to {config.total_timesteps} steps{resumed} in "
          f"{time.perf_counter() - began:.0f}s; model: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))
