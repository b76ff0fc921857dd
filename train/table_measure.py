"""How far a self-play generation has come, on hands every generation shares: its punter paired with
a reference punter at ``ShootPontoon-v0``'s table, its banker paired with a reference banker at
``ShootPontoonBanker-v0``'s, and (for punters the single-seat banker env cannot seat, such as a
trained model) bankers paired at whole tables of the batched engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from shoot_pontoon_env.multiagent import batched_env

from .seat_roles import ENV_IDS, Actor, agent_actor

Z95 = 1.959964


class PairedMeasure:
    """Agents of one role measured paired with one reference on the same seeded hands; the
    reference plays them once (every generation meets the same hands)."""

    def __init__(self, role: str, reference: str, env_kwargs: dict[str, Any], hands: int, seed: int,
                 num_tables: int = 4096) -> None:
        self.role, self.env_kwargs, self.hands, self.seed, self.num_tables = role, env_kwargs, hands, seed, num_tables
        self.reference = self._play(reference)

    def _make(self) -> gym.Env:
        return gym.make(ENV_IDS[self.role], **self.env_kwargs)

    def _play(self, name: str):
        from agents import make_agent
        from shoot_pontoon_env.evaluate.tournament import run_tournament

        agent = make_agent(name, self._make())
        return run_tournament(self._make, [agent], self.hands, self.seed, env_kwargs=self.env_kwargs,
                              num_tables=self.num_tables)[0]

    def _values(self, record) -> np.ndarray:
        return np.asarray(record.per_stake if self.role == "punter" else record.returns, dtype=np.float64)

    def __call__(self, name: str) -> dict[str, Any]:
        """``name`` (an agent name or a model path): its mean (per unit stake for a punter, per deal
        for the banker) and its paired difference to the reference, with the 95% half-width."""
        from shoot_pontoon_env.evaluate.stats import paired_differences

        record = self._play(name)
        difference = paired_differences(record, self.reference)
        if difference is None:
            raise ValueError(f"{record.name} and {self.reference.name} played on different engines: not paired")
        return {"agent": record.name, "reference": self.reference.name, "hands": self.hands,
                "mean": float(self._values(record).mean()), "reference_mean": float(self._values(self.reference).mean()),
                "paired": float(difference.mean()),
                "ci": float(Z95 * difference.std(ddof=1) / np.sqrt(len(difference)))}


def banker_returns(banker: Actor | str, punters: Actor, deals: int, seed: int, *, num_tables: int = 4096,
                   **table_kwargs: Any) -> np.ndarray:
    """Seat 0's chips per deal (base stakes) over ``deals`` one-deal episodes of whole tables whose
    seat 0 banks: ``banker`` is a strategy name the kernel plays or an actor; the punters' seats are
    the ``punters`` actor's. Table i of chunk c is shuffled from ``seed + c`` alone, so two bankers
    meet the same punters' cards (pairing) as long as the punters decide alike."""
    returns = []
    chunk = 0
    while sum(len(r) for r in returns) < deals:
        n = min(num_tables, deals - sum(len(r) for r in returns))
        players = {0: banker} if isinstance(banker, str) else None
        env = batched_env(n, first_banker=0, deals_per_episode=1, players=players, **table_kwargs)
        obs, info = env.reset(seed=seed + chunk)
        total = np.zeros(n, dtype=np.float64)
        open_ = np.ones(n, dtype=np.bool_)
        while open_.any():
            seats, masks = info["current_seat"], info["action_mask"]
            actions = np.full(n, -1, dtype=np.int64)
            asking = np.flatnonzero(open_ & (seats >= 0))
            at_bank = asking[seats[asking] == 0]
            at_punt = asking[seats[asking] != 0]
            if len(at_bank):
                actions[at_bank] = banker(obs[at_bank], masks[at_bank])
            if len(at_punt):
                actions[at_punt] = punters(obs[at_punt], masks[at_punt])
            obs, rewards, terminations, _, info = env.step(actions)
            total += np.where(open_, rewards[:, 0], 0.0)
            open_ &= ~terminations
        returns.append(total)
        chunk += 1
    return np.concatenate(returns)


def trained_actor(name: str, role: str, seat_table, env_kwargs: dict[str, Any], rng: np.random.Generator,
                  model_env_kwargs: dict[str, Any] | None = None, sampled: bool = False) -> Actor:
    """A model (path or ``zoo:NAME``) of the role's env as a whole-table actor; ``model_env_kwargs``:
    the env it was trained for, where that differs (``zoo:shoot_punter`` has one stake); ``sampled``: its
    answers drawn with its policy's chances as in training (a ``TrainedPlayer(deterministic=False)``,
    drawing with ``rng``), not its likeliest."""
    from agents import make_agent
    from agents.trained import trained_agent

    kwargs = env_kwargs if model_env_kwargs is None else model_env_kwargs
    env = gym.make(ENV_IDS[role], **kwargs)
    agent = trained_agent(name, deterministic=False).bind(env) if sampled else make_agent(name, env)
    return agent_actor(agent, seat_table, env, rng)


def paired_bankers(banker: str, reference: str, punters: str, deals: int, seed: int,
                   punter_env_kwargs: dict[str, Any] | None = None, **table_kwargs: Any) -> dict[str, Any]:
    """A banker model against a rule-based ``reference`` banker, both facing the trained ``punters``
    model at every punter seat, on the same deals."""
    seat_table = batched_env(1, **table_kwargs).action_table
    banker_kwargs = {k: v for k, v in table_kwargs.items() if k in ("rules", "num_players")}
    punter_kwargs = dict(table_kwargs)

    def actor(name: str, role: str, kwargs: dict[str, Any], model_kwargs=None) -> Actor:
        return trained_actor(name, role, seat_table, kwargs, np.random.default_rng(seed), model_kwargs)

    crowd = actor(punters, "punter", punter_kwargs, punter_env_kwargs)
    mine = banker_returns(actor(banker, "banker", banker_kwargs), crowd, deals, seed, **table_kwargs)
    theirs = banker_returns(reference, crowd, deals, seed, **table_kwargs)
    difference = mine - theirs
    return {"banker": banker, "reference": reference, "punters": punters, "deals": deals,
            "mean": float(mine.mean()), "reference_mean": float(theirs.mean()),
            "paired": float(difference.mean()), "ci": float(Z95 * difference.std(ddof=1) / np.sqrt(deals))}


def plot_history(history: list[dict[str, Any]], path: Path) -> Path:
    """One run's learners per generation (:func:`plot_runs` of one run)."""
    return plot_runs({"self-play": history}, path)


def plot_runs(histories: dict[str, list[dict[str, Any]]], path: Path) -> Path:
    """Both learners of each run per generation, paired with their references (the zero line),
    beside the rule-based reference of each (generation 0: ``threshold15``, ``stand17``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    titles = {"punter": "punter at ShootPontoon-v0's table, minus optimal (per unit stake)",
              "banker": "banker against tips punters, minus dealer (per deal)"}
    first = next(iter(histories.values()))
    for axis, role in zip(axes, ("punter", "banker")):
        for label, history in histories.items():
            learnt = [h for h in history if h["generation"] > 0]
            axis.errorbar([h["decisions"][role] / 1e6 for h in learnt], [h[role]["paired"] for h in learnt],
                          yerr=[h[role]["ci"] for h in learnt], marker="o", markersize=3, capsize=2, label=label)
        base = first[0][role]
        axis.axhline(0.0, color="green", linestyle="--", label=f"{base['reference']} (the reference)")
        axis.axhline(base["paired"], color="grey", linestyle=":", label=f"{base['agent']} (rule-based)")
        if role == "punter":
            axis.axhspan(-0.02, 0.0, color="green", alpha=0.08, label="within 0.02 of optimal")
        axis.set_title(titles[role], fontsize=9)
        axis.set_xlabel(f"{role} decisions (millions)")
        axis.legend(loc="lower right", fontsize=7)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def measure_run(run: Path, hands: int, seed: int, punters: str = "zoo:shoot_punter",
                punter_env_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """A self-play run's final punter and banker, as the whole-table issue's bar reads them: the
    punter paired with ``optimal`` at ``ShootPontoon-v0``'s default table; the banker paired with
    ``dealer`` against ``tips`` punters (``ShootPontoonBanker-v0``) and against ``punters`` at whole
    tables."""
    from .table_selfplay import read_run_config

    settings = read_run_config(run)
    table = settings.role_env_kwargs("punter")
    banker_kwargs = settings.role_env_kwargs("banker")
    punter = PairedMeasure("punter", "optimal", table, hands, seed)(str(run / "punter" / "model.zip"))
    banker = PairedMeasure("banker", "dealer", banker_kwargs, hands, seed)(str(run / "banker" / "model.zip"))
    crowd = paired_bankers(str(run / "banker" / "model.zip"), "dealer", punters, hands, seed,
                           punter_env_kwargs, **table)
    return {"run": str(run), "hands": hands, "seed": seed, "punter_vs_optimal": punter,
            "banker_vs_dealer_tips": banker, f"banker_vs_dealer_{punters}": crowd}


def main(argv: list[str] | None = None) -> int:
    from shoot_pontoon_env.cli import run as run_cli

    return run_cli(_main, argv)


def _main(argv: list[str]) -> int:
    import json

    from shoot_pontoon_env.cli import Parser, UsageError

    parser = Parser(prog="python -m train.table_measure",
                    description="A table self-play run's punter and banker, paired with optimal and dealer.")
    parser.add_argument("runs", nargs="+", metavar="RUN", help="a run's folder (runs/table_selfplay-seed0)")
    parser.add_argument("--hands", type=int, default=100_000, help="hands (deals) of each measurement")
    parser.add_argument("--seed", type=int, default=2_000_000, help="the first hand's seed")
    parser.add_argument("--punters", default="zoo:shoot_punter", help="the trained punters the banker also meets")
    parser.add_argument("--punter-env-kwargs", default='{"stake_levels": [2]}',
                        help="the env those punters were trained for, as JSON (zoo:shoot_punter: one stake)")
    parser.add_argument("--curves", metavar="PNG", help="instead of measuring, draw the runs' learning curves")
    args = parser.parse_args(argv)
    runs = [Path(run) for run in args.runs]
    from .table_selfplay import read_run_config

    for run in runs:
        try:
            read_run_config(run)
        except ValueError as error:
            raise UsageError(str(error)) from None
    if args.curves:
        histories = {}
        for run in runs:
            try:
                histories[run.name] = json.loads((run / "history.json").read_text())
            except (OSError, json.JSONDecodeError) as error:
                raise UsageError(f"{run / 'history.json'}: cannot be read ({error})") from None
        print(plot_runs(histories, Path(args.curves)))
        return 0
    if args.hands < 2:
        raise UsageError(f"--hands {args.hands}: expected at least 2")
    try:
        kwargs = json.loads(args.punter_env_kwargs)
    except json.JSONDecodeError as error:
        raise UsageError(f"--punter-env-kwargs {args.punter_env_kwargs!r}: not JSON ({error})") from None
    for run in runs:
        result = measure_run(run, args.hands, args.seed, args.punters, kwargs)
        (run / "measure.json").write_text(json.dumps(result, indent=2) + "\n")
        print(run)
        for key, value in result.items():
            if isinstance(value, dict):
                print(f"  {key:36s} {value['paired']:+.4f} ± {value['ci']:.4f}  (mean {value['mean']:+.4f}, "
                      f"reference {value['reference_mean']:+.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
