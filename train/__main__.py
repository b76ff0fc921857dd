"""``python -m train --config train/configs/playtech_punter.yml [--set key=value ...] [--resume CKPT]``

Trains a MaskablePPO (or PPO) agent from a YAML configuration (the fields of ``train.config.TrainConfig``)
and writes the run to ``log_dir/run_name``.
"""

from __future__ import annotations

import time

from shoot_pontoon_env.cli import Parser, UsageError, existing_file, run

from .config import TrainConfig, env_kwargs_for, load_config


def build_parser() -> Parser:
    parser = Parser(prog="python -m train", description=__doc__)
    parser.add_argument("--config", type=existing_file, default=None,
                        help="YAML file of TrainConfig fields (train/configs/*.yml); without it, the defaults")
    parser.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="override fields, e.g. total_timesteps=20000 env_kwargs.rules=shoot (repeatable)")
    parser.add_argument("--resume", type=existing_file, default=None,
                        help="a checkpoint .zip of a run of the same configuration to continue training from")
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = load_config(args.config, args.set)
    except (ValueError, TypeError) as error:
        raise UsageError(str(error)) from None
    from agents.safe_load import ModelFileError, check_sizes  # no torch: --help stays fast

    if args.resume is not None:
        try:
            check_sizes(args.resume)  # a zip bomb is refused before the envs and the model are built
        except ModelFileError as error:
            raise UsageError(f"argument --resume: {error}") from None
    check_envs(config)
    try:
        config.run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"log_dir = {config.log_dir!r}, run_name = {config.run_name!r}: the run folder "
                         f"{config.run_dir} cannot be made ({error.strerror or error})") from None
    from .run import train  # torch and SB3: only once the arguments are known to be good

    start = time.perf_counter()
    try:
        path = train(config, resume=args.resume)
    except ModelFileError as error:
        raise UsageError(f"argument --resume: {error}") from None
    print(f"trained {config.total_timesteps} steps of {config.algo} on {config.env_id} in "
          f"{time.perf_counter() - start:.0f}s; model: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))
