"""``python -m evaluate --env ID --agents NAME ... [--hands N] [--out DIR]``: a tournament with 95%
confidence intervals, printed as a table and written as JSON, Markdown and PNG plots.

Agents: random, basic, optimal, the table-player strategies (tips, threshold, thresholdN, stand17,
shoot_aware, dealer), zoo:NAME, or a trained model .zip (loaded without unpickling; see README)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from shoot_pontoon_env.cli import Parser, UsageError, existing_file, int_in, json_object, run


def optimal_value(env: Any) -> float | None:
    """The solver's expected return per unit stake for the env's rules (None for a banker seat)."""
    from shoot_pontoon_env.envs.banker import ShootPontoonBankerEnv
    from shoot_pontoon_env.solver import solve

    from agents import shoot_allowance
    from agents.base import EnvContext

    base = env.unwrapped
    if isinstance(base, ShootPontoonBankerEnv):
        return None
    banker = base.banker_strategy if base.rules.banker_play == "free" else None
    allowance = shoot_allowance(EnvContext.of(env))
    try:
        if allowance:  # the optimum with its Shoot bets: stake part and Shoot part together
            return solve(base.rules, banker=banker, shoot_ratio=allowance / base.rules.base_stake).shoot.expected_return
        return solve(base.rules, banker=banker).expected_return
    except (TypeError, ValueError, NotImplementedError) as error:  # a banker the solver cannot model
        print(f"no solver optimum for this table: {error}")
        return None


def build_parser() -> Parser:
    parser = Parser(prog="python -m evaluate", description=__doc__)
    parser.add_argument("--env", default="ShootPontoon-Playtech-v0", help="Gymnasium id of the env")
    parser.add_argument("--env-kwargs", type=json_object, default={},
                        help='env arguments as a JSON object, e.g. \'{"num_players": 2}\'')
    parser.add_argument("--agents", nargs="+", default=["random", "basic", "optimal"], metavar="AGENT",
                        help="agents to play (names as above, zoo:NAME or a model .zip)")
    parser.add_argument("--hands", type=int_in(1, 10**9), default=20000, help="hands (episodes) per agent")
    parser.add_argument("--seed", type=int_in(0, 2**62), default=1_000_000,
                        help="hand i is dealt with seed SEED + i, for every agent")
    parser.add_argument("--out", type=Path, default=Path("reports/latest"), help="folder of the reports and plots")
    parser.add_argument("--no-optimal", action="store_true", help="skip the solver's optimum and gaps")
    parser.add_argument("--reference", default=None,
                        help="agent (one of --agents) for paired differences (default: optimal if present)")
    parser.add_argument("--learning-curve", type=existing_file, default=None,
                        help="an evaluations.npz of a training run to plot")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--scalar", action="store_true",
                        help="play every agent on the scalar env (by default agents that can batch play on the "
                             "batched engine: rule-based, basic, optimal, random and trained models)")
    parser.add_argument("--tables", type=int_in(1, 2**20), default=4096,
                        help="tables the batched engine plays at once")
    return parser


def _load_learning_curve(path: Path) -> None:
    import zipfile

    import numpy as np

    try:
        with np.load(path) as data:  # allow_pickle stays False: an .npz cannot run code here
            if not {"timesteps", "results"} <= set(data.files):
                raise UsageError(f"argument --learning-curve: {path} has no timesteps and results arrays "
                                 "(expected an evaluations.npz of EvalCallback)")
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise UsageError(f"argument --learning-curve: {path} is not an .npz file ({error})") from None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import gymnasium as gym

    import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
    from agents import make_agent

    if args.env not in gym.registry:
        raise UsageError(f"argument --env: {args.env!r} is not a registered Gymnasium id; expected one of "
                         f"{sorted(shoot_pontoon_env.envs.ENV_IDS)}")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"argument --out: {args.out}: expected a folder that can be written "
                         f"({error.strerror or error})") from None
    if args.learning_curve is not None:
        _load_learning_curve(args.learning_curve)

    def make_env() -> gym.Env:
        return gym.make(args.env, **args.env_kwargs)

    try:
        probe = make_env()
        probe.reset(seed=0)
    except (ValueError, TypeError) as error:
        raise UsageError(f"argument --env-kwargs: {args.env} {args.env_kwargs}: {error}") from None
    repeated = sorted({name for name in args.agents if args.agents.count(name) > 1})
    if repeated:  # two rows, reports and plots of one name could not be told apart
        raise UsageError(f"argument --agents: {repeated[0]!r} is given more than once: expected each agent once")
    agents = []
    for name in args.agents:
        try:
            agents.append(make_agent(name, probe))
        except ValueError as error:  # an unknown name, or a model file that is refused or does not fit
            raise UsageError(f"argument --agents: {error}") from None
    names = [a.name for a in agents]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise UsageError(f"argument --agents: {args.agents[names.index(name)]} and {args.agents[index]} are "
                             f"both named {name!r}: expected agents of distinct names")
    reference_name = args.reference or ("optimal" if "optimal" in names else None)
    if args.reference is not None:
        given = dict(zip(args.agents, names))
        if args.reference not in names and args.reference not in given:
            raise UsageError(f"argument --reference: {args.reference!r} is not one of the agents {args.agents}")
        reference_name = given.get(args.reference, args.reference)
    return tournament(args, make_env, probe, agents, names, reference_name)


def tournament(args: Any, make_env: Any, probe: Any, agents: list, names: list[str],
               reference_name: str | None) -> int:
    from tqdm import tqdm

    from . import plots
    from .report import print_table, write_reports
    from .stats import summarise
    from .tournament import run_tournament

    optimal = None if args.no_optimal else optimal_value(probe)
    start = time.perf_counter()
    with tqdm(total=args.hands * len(agents), unit="hand", disable=args.quiet, mininterval=1.0,
              desc="tournament", dynamic_ncols=True) as bar:
        records = run_tournament(make_env, agents, args.hands, seed=args.seed, progress=bar.update,
                                 batched=not args.scalar, env_kwargs=args.env_kwargs, num_tables=args.tables)
    seconds = time.perf_counter() - start
    reference = records[names.index(reference_name)] if reference_name in names else None
    summaries = [summarise(r, optimal, reference) for r in records]
    title = f"{args.env} {args.env_kwargs or ''}: {args.hands} hands per agent".replace(" :", ":")
    print_table(summaries, title)
    if optimal is not None:
        print(f"solver optimum: {optimal:+.5f} per unit stake")
    out = args.out
    engines = {r.name: r.engine for r in records}
    paths = write_reports(summaries, title, out, {"env": args.env, "env_kwargs": args.env_kwargs,
                                                 "hands": args.hands, "seed": args.seed, "optimal": optimal,
                                                 "seconds": seconds, "engines": engines})
    pngs = [plots.bankroll(records, out / "bankroll.png"), plots.strategy_heatmaps(records, out / "strategy.png")]
    if args.learning_curve:
        pngs.append(plots.learning_curve(args.learning_curve, out / "learning_curve.png", optimal))
    checkpoints = plots.checkpoint_curve(summaries, out / "checkpoints.png")
    pngs += [checkpoints] if checkpoints else []
    print(f"engines: {', '.join(f'{name} {engine}' for name, engine in engines.items())}")
    if reference_name in engines and len(set(engines.values())) > 1:
        print(f"note: no paired difference across engines (the batched engine and the scalar env deal different "
              f"hands); --scalar plays every agent on the scalar env, paired with {reference_name}")
    print(f"reports: {paths['json']}, {paths['markdown']}; plots: {', '.join(map(str, pngs))} ({seconds:.0f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))
