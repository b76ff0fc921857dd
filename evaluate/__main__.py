"""``python -m evaluate --env ID --agents NAME ... [--hands N] [--out DIR]``: a tournament with 95%
confidence intervals, printed as a table and written as JSON, Markdown and PNG plots."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gymnasium as gym

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from agents import make_agent

from . import plots
from .report import print_table, write_reports
from .stats import summarise
from .tournament import run_tournament


def optimal_value(env: gym.Env) -> float | None:
    """The solver's expected return per unit stake for the env's rules (None for a banker seat)."""
    from shoot_pontoon_env.envs.banker import ShootPontoonBankerEnv
    from shoot_pontoon_env.solver import solve

    base = env.unwrapped
    if isinstance(base, ShootPontoonBankerEnv):
        return None
    banker = base.players[base.table.banker] if base.rules.banker_play == "free" else None
    try:
        return solve(base.rules, banker=banker).expected_return
    except (TypeError, ValueError, NotImplementedError) as error:  # a banker the solver cannot model
        print(f"no solver optimum for this table: {error}")
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluate", description=__doc__)
    parser.add_argument("--env", default="ShootPontoon-Playtech-v0")
    parser.add_argument("--env-kwargs", default="{}", help='JSON, e.g. \'{"num_players": 2}\'')
    parser.add_argument("--agents", nargs="+", default=["random", "basic", "optimal"])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--out", default="reports/latest")
    parser.add_argument("--no-optimal", action="store_true", help="skip the solver's optimum and gaps")
    parser.add_argument("--reference", default=None, help="agent for paired differences (default: optimal if present)")
    parser.add_argument("--learning-curve", default=None, help="an evaluations.npz of a training run to plot")
    args = parser.parse_args(argv)
    env_kwargs = json.loads(args.env_kwargs)

    def make_env() -> gym.Env:
        return gym.make(args.env, **env_kwargs)

    probe = make_env()
    probe.reset(seed=0)
    agents = [make_agent(name, probe) for name in args.agents]
    optimal = None if args.no_optimal else optimal_value(probe)
    start = time.perf_counter()
    records = run_tournament(make_env, agents, args.hands, seed=args.seed)
    seconds = time.perf_counter() - start
    names = [a.name for a in agents]
    reference_name = args.reference or ("optimal" if "optimal" in names else None)
    reference = records[names.index(reference_name)] if reference_name in names else None
    summaries = [summarise(r, optimal, reference) for r in records]
    title = f"{args.env} {env_kwargs or ''}: {args.hands} hands per agent".replace(" :", ":")
    print_table(summaries, title)
    if optimal is not None:
        print(f"solver optimum: {optimal:+.5f} per unit stake")
    out = Path(args.out)
    paths = write_reports(summaries, title, out, {"env": args.env, "env_kwargs": env_kwargs, "hands": args.hands,
                                                 "seed": args.seed, "optimal": optimal, "seconds": seconds})
    pngs = [plots.bankroll(records, out / "bankroll.png"), plots.strategy_heatmaps(records, out / "strategy.png")]
    if args.learning_curve:
        pngs.append(plots.learning_curve(Path(args.learning_curve), out / "learning_curve.png", optimal))
    checkpoints = plots.checkpoint_curve(summaries, out / "checkpoints.png")
    pngs += [checkpoints] if checkpoints else []
    print(f"reports: {paths['json']}, {paths['markdown']}; plots: {', '.join(map(str, pngs))} ({seconds:.0f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
