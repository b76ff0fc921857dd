"""The banker's chips over one kept deal at each Shoot, under a multi-deal self-play run's final pair,
played at their likeliest answers (as the session check plays them) or drawn from their policies (as
training plays them) (RESULTS, "The sale learnt from mean deal chips, with its own entropy").

What a run's ``DealMeans`` estimates in training, measured here for the final pair alone: the run's pair
plays ``--episodes`` sessions at the batched engine (``train/session_play.py``) with the banker keeping the
bank at every decision (so that every Shoot the sessions reach is met by kept deals), and each kept deal's
chips to its banker (the deals played after the last deal's decision: none) are averaged by the Shoot at the
decision. ``--sampled punter,banker``: the roles that draw their answers (with the seeded Generator).

Run from the checkout's root: ``PYTHONPATH=. .venv/bin/python benchmarks/kept_deal_chips.py RUN
[--episodes 65536] [--seed 0] [--sampled punter,banker] [--min-deals 1000] [--json]``
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from train.session_play import play_pair
from train.table_selfplay import read_run_config


def kept_deal_chips(run: Path, episodes: int, seed: int, sampled: tuple[str, ...], min_deals: int) -> dict:
    """Mean chips of a kept deal by Shoot (Shoots met by at least ``min_deals`` kept deals)."""
    config = read_run_config(run)
    start = time.perf_counter()
    play = play_pair(run, config, episodes, seed, sells=lambda shoot: False, sampled=sampled)
    played = play.bank_left > 0
    by_shoot = {}
    for shoot in np.unique(play.bank_shoot[played]):
        chips = play.bank_deal[played & (play.bank_shoot == shoot)]
        if len(chips) >= min_deals:
            by_shoot[int(shoot)] = {"deals": len(chips), "mean": float(chips.mean()),
                                    "se": float(chips.std(ddof=1) / np.sqrt(len(chips)))}
    return {"run": str(run), "episodes": episodes, "seed": seed, "sampled": list(sampled),
            "seconds": round(time.perf_counter() - start, 1), "by_shoot": by_shoot}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--episodes", type=int, default=65536)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sampled", default="", help="comma-separated roles drawing their answers: punter, banker")
    parser.add_argument("--min-deals", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sampled = tuple(role for role in args.sampled.split(",") if role)
    try:
        report = kept_deal_chips(args.run, args.episodes, args.seed, sampled, args.min_deals)
    except (OSError, ValueError) as error:
        parser.exit(2, f"error: {error}\n")
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.run}: {args.episodes} sessions, sampled: {', '.join(sampled) or 'none'} ({report['seconds']} s)")
    for shoot, row in report["by_shoot"].items():
        print(f"  Shoot {shoot:>4}: {row['mean']:+.3f} +/- {row['se']:.3f} chips over {row['deals']} kept deals")


if __name__ == "__main__":
    main()
