"""``python -m train --config train/configs/playtech_punter.yml [--set key=value ...] [--resume CKPT]``"""

from __future__ import annotations

import argparse
import time

from .config import load_config
from .run import train


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m train", description=__doc__)
    parser.add_argument("--config", help="YAML file of TrainConfig fields (train/configs/*.yml)")
    parser.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="override fields, e.g. total_timesteps=20000 env_kwargs.rules=shoot")
    parser.add_argument("--resume", help="a checkpoint .zip to continue training from")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    config = load_config(args.config, args.set)
    start = time.perf_counter()
    path = train(config, resume=args.resume)
    print(f"trained {config.total_timesteps} steps of {config.algo} on {config.env_id} in "
          f"{time.perf_counter() - start:.0f}s; model: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
