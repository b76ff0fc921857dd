"""``python -m shoot_pontoon_env.evaluate --env ID --agents NAME ... [--hands N] [--out DIR]
[--learning-curve RUN]``: a tournament with 95% confidence intervals, printed as a table and written as
JSON, Markdown and PNG plots (with matplotlib); with a training run, its learning curve measured on the
same hands. Every agent plays the same hands (hand i dealt by one key whichever engine plays it).

Agents: random, basic, optimal, the table-player strategies (tips, threshold, thresholdN, stand17,
shoot_aware, dealer), zoo:NAME (from a checkout), a trained model .zip (loaded without unpickling; see
docs/TRAINING.md), or module:Name, a Python policy imported from the Python path (a function of an
observation and its action mask, an ObservationPolicy, a Stable-Baselines3 model; docs/BENCHMARK.md).
``python -m evaluate`` from a checkout is the same command, with the checkout's agents (equilibrium)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shoot_pontoon_env.cli import Parser, UsageError, existing_path, int_in, json_object, run

from .optimum import env_shoot_allowance, optimal_value

if TYPE_CHECKING:
    from .curve import CurvePoint
    from .tournament import Resolver

TORCH_THREADS = 1
"""Threads of the trained models' forward passes: these small networks are fastest on one (as in
training), and two waiting on a core that another process keeps busy made 100,000 hands of a model
6x slower in wall time and 10x in CPU time (40 s against 6 s here)."""


@contextmanager
def torch_threads(players: list) -> Iterator[None]:
    """``TORCH_THREADS`` while trained models among ``players`` play (torch's own count restored after)."""
    from shoot_pontoon_env.models.trained import TrainedPlayer

    if not any(isinstance(agent, TrainedPlayer) for agent in players):
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(TORCH_THREADS)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@contextmanager
def progress_bar(total: int, quiet: bool) -> Iterator[Any]:
    """A progress bar's ``update`` on stderr (tqdm, where it is installed and not ``quiet``), else a
    function that does nothing."""
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if tqdm is None or quiet:
        yield lambda done: None
        return
    with tqdm(total=total, unit="hand", mininterval=1.0, desc="tournament", dynamic_ncols=True) as bar:
        yield bar.update


def build_parser(prog: str = "python -m shoot_pontoon_env.evaluate") -> Parser:
    parser = Parser(prog=prog, description=__doc__)
    parser.add_argument("--env", default="ShootPontoon-Playtech-v0", help="Gymnasium id of the env")
    parser.add_argument("--env-kwargs", type=json_object, default={},
                        help='env arguments as a JSON object, e.g. \'{"num_players": 2}\'')
    parser.add_argument("--agents", nargs="+", default=["random", "basic", "optimal"], metavar="AGENT",
                        help="agents to play (names as above, zoo:NAME, a model .zip or module:Name)")
    parser.add_argument("--hands", type=int_in(1, 10**9), default=20000, help="hands (episodes) per agent")
    parser.add_argument("--seed", type=int_in(0, 2**62), default=1_000_000,
                        help="hand i is dealt with seed SEED + i, for every agent")
    parser.add_argument("--out", type=Path, default=Path("reports/latest"), help="folder of the reports and plots")
    parser.add_argument("--no-optimal", action="store_true",
                        help="skip the solver's optimum (and each agent's unpaired difference to it)")
    parser.add_argument("--reference", default=None,
                        help="agent (one of --agents) for paired differences (default: optimal if present)")
    parser.add_argument("--learning-curve", type=existing_path, default=None, metavar="RUN",
                        help="a training run's folder (or its checkpoints folder): its checkpoints and final model "
                             "play the tournament's hands, paired with the reference agent, and are plotted "
                             "against steps; or an evaluations.npz of SB3's EvalCallback, plotted as it is "
                             "(unpaired)")
    parser.add_argument("--curve-points", type=int_in(2, 1000), default=12, metavar="N",
                        help="checkpoints of a run's learning curve: at most N, evenly spaced, and the final model")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--scalar", action="store_true",
                        help="play every agent on the scalar env (by default every agent plays on the batched "
                             "engine; either deals hand i the same cards)")
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
                                 "(expected a training run's folder, its checkpoints folder or an evaluations.npz "
                                 "of EvalCallback)")
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise UsageError(f"argument --learning-curve: {path} is not an .npz file ({error})") from None


def main(argv: list[str] | None = None, *, resolve: Resolver | None = None,
         prog: str = "python -m shoot_pontoon_env.evaluate") -> int:
    """The command; ``resolve`` turns an agent's spec into a policy (by default the library's
    ``models.resolve.observation_policy``; the checkout's ``python -m evaluate`` adds its agents)."""
    args = build_parser(prog).parse_args(argv)
    import gymnasium as gym

    import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)

    from .tournament import as_agent

    def make_agent(spec: Any, env: Any) -> Any:
        return as_agent(spec, env, resolve)

    if args.env not in gym.registry:
        raise UsageError(f"argument --env: {args.env!r} is not a registered Gymnasium id; expected one of "
                         f"{sorted(shoot_pontoon_env.envs.ENV_IDS)}")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"argument --out: {args.out}: expected a folder that can be written "
                         f"({error.strerror or error})") from None
    if args.learning_curve is not None and not args.learning_curve.is_dir():
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
    curve = curve_agents(args, probe, agents, reference_name, make_agent)
    return tournament(args, make_env, probe, agents, names, reference_name, curve)


def curve_agents(args: Any, probe: Any, agents: list, reference_name: str | None,
                 make_agent: Any) -> list[tuple[CurvePoint, Any]]:
    """The models of ``--learning-curve RUN`` with their agents (an agent of ``--agents`` where it is
    the same file, so that its point is the table's figure); none for an evaluations.npz."""
    from shoot_pontoon_env.models.trained import TrainedPlayer

    from .curve import run_points

    if args.learning_curve is None or not args.learning_curve.is_dir():
        return []
    if reference_name is None:
        raise UsageError("argument --learning-curve: a run's curve is paired with the reference agent: add optimal "
                         "to --agents or give --reference")
    try:
        points = run_points(args.learning_curve, args.curve_points)
        given = {a.path.resolve(): a for a in agents if isinstance(a, TrainedPlayer)}
        return [(p, given.get(p.path.resolve()) or make_agent(str(p.path), probe)) for p in points]
    except ValueError as error:  # no checkpoints, or a model file that is refused or does not fit
        raise UsageError(f"argument --learning-curve: {error}") from None


def tournament(args: Any, make_env: Any, probe: Any, agents: list, names: list[str],
               reference_name: str | None, curve: list[tuple[CurvePoint, Any]]) -> int:
    from .report import print_table, write_reports
    from .stats import summarise
    from .tournament import run_tournament

    optimal = None if args.no_optimal else optimal_value(probe)
    players = [*agents, *(agent for _, agent in curve if agent not in agents)]  # the curve's not in the table
    start = time.perf_counter()
    with progress_bar(args.hands * len(players), args.quiet) as update, torch_threads(players):
        played = run_tournament(make_env, players, args.hands, seed=args.seed, progress=update,
                                batched=not args.scalar, env_kwargs=args.env_kwargs, num_tables=args.tables)
    seconds = time.perf_counter() - start
    records = played[:len(agents)]
    reference = records[names.index(reference_name)] if reference_name in names else None
    every = [summarise(r, optimal, reference) for r in played]
    summaries = every[:len(agents)]
    curve_summaries = [(point, every[players.index(agent)]) for point, agent in curve]
    title = f"{args.env} {args.env_kwargs or ''}: {args.hands} hands per agent".replace(" :", ":")
    print_table(summaries, title, shoot_bets=env_shoot_allowance(probe) > 0)
    if optimal is not None:
        print(f"solver optimum: {optimal:+.5f} per unit stake")
    out = args.out
    engines = {r.name: r.engine for r in records}
    paths = write_reports(summaries, title, out, {"env": args.env, "env_kwargs": args.env_kwargs,
                                                 "hands": args.hands, "seed": args.seed, "optimal": optimal,
                                                 "seconds": seconds, "engines": engines}, curve_summaries)
    try:
        from . import plots
    except ImportError:  # matplotlib: the train extra
        plots = None
        print("plots: not drawn (matplotlib is not installed: pip install -e '.[train]' in a checkout)")
    pngs = []
    if plots is not None:
        pngs += [plots.bankroll(records, out / "bankroll.png", reference),
                 plots.strategy_heatmaps(records, out / "strategy.png")]
    if curve_summaries:
        cis = [s.paired_ci95 for _, s in curve_summaries if s.paired_ci95 is not None]
        drawn = plots.learning_curve(curve_summaries, out / "learning_curve.png") if plots is not None else None
        pngs += [drawn] if drawn else []
        print(f"learning curve: {len(curve)} models of {args.learning_curve} vs {reference_name} on these hands"
              + (f", intervals up to ±{max(cis):.4f}" if cis else ""))
    elif args.learning_curve and plots is not None:
        pngs.append(plots.evaluations_curve(args.learning_curve, out / "learning_curve.png", optimal))
    checkpoints = plots.checkpoint_curve(summaries, out / "checkpoints.png") if plots is not None else None
    pngs += [checkpoints] if checkpoints else []
    print(f"engines: {', '.join(f'{name} {engine}' for name, engine in engines.items())}")
    written = ", ".join(path.name for path in (paths["json"], paths["markdown"], *pngs))
    print(f"written to {out}/: {written} ({seconds:.0f}s of play)")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))
