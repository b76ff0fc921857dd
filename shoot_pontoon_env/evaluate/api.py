"""Benchmark any policy from any project: one call plays a set of policies on the same hands and
returns their figures with 95% intervals, each paired with a reference on those hands; another gives
the heads-up exploitability of a (punter, banker) pair where either side is any policy.

A policy is anything ``models.resolve.observation_policy`` takes: a function of one observation and its
action mask (``f(obs, mask)`` or ``f(obs, mask, rng)``), a function over a batch marked with
:func:`batch_policy`, an :class:`~shoot_pontoon_env.models.player.ObservationPolicy`, a
Stable-Baselines3 or sb3-contrib model object, a name the library knows (``optimal``, ``basic``,
``random``, the rule-based players, ``zoo:NAME`` from a checkout), ``module:Name``, or a model path read
by the safe loader. Every policy plays on the batched engine (one call per step over every table),
and hand ``h`` deals the same cards on every route (``shoe.hand_key``)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from ..cli import strict_json
from ..models.player import CallablePolicy, ObservationPolicy
from .stats import Summary, summarise
from .tournament import AgentRecord, Resolver, as_agent, run_tournament

BANKER_REFERENCES = ("stand17", "shoot_aware", "dealer")
"""The rule-based bankers a banker seat's default reference is the best of (on the evaluation's own
hands: the highest mean return)."""


def batch_policy(function: Callable[..., Any] | None = None, *, name: str | None = None) -> Any:
    """Mark a function over a batch, ``f(observations, action_masks) -> actions`` (one row per table;
    or with a third argument, the Generator), as a policy: as a decorator (``@batch_policy``) or a call
    (``batch_policy(f, name="mine")``). A plain function is taken to decide one observation at a time."""
    def wrap(f: Callable[..., Any]) -> CallablePolicy:
        return CallablePolicy(f, batched=True, name=name)

    return wrap if function is None else wrap(function)


@dataclass
class EvaluationResult:
    """What :func:`evaluate` measured: one :class:`~shoot_pontoon_env.evaluate.stats.Summary` per policy
    (``mean`` and ``ci95`` per hand in base stakes; ``per_stake`` per unit of initial stake; ``paired_diff``
    and ``paired_ci95``: the policy minus ``reference`` hand by hand), in the order given."""

    env_id: str
    env_kwargs: dict
    hands: int
    seed: int
    reference: str | None
    optimal: float | None
    """The solver's exact expected return per unit stake at this table (None where it has none)."""
    seconds: float
    summaries: list[Summary] = field(default_factory=list)
    records: dict[str, AgentRecord] = field(default_factory=dict, repr=False)
    """Each policy's hand-by-hand record, by name (``returns``, ``per_stake``: the paired values)."""

    def __getitem__(self, name: str) -> Summary:
        for summary in self.summaries:
            if summary.name == name:
                return summary
        raise KeyError(f"{name!r}: no such policy; expected one of {[s.name for s in self.summaries]}")

    def __iter__(self) -> Iterator[Summary]:
        return iter(self.summaries)

    def to_dict(self) -> dict:
        return {"env": self.env_id, "env_kwargs": self.env_kwargs, "hands": self.hands, "seed": self.seed,
                "reference": self.reference, "optimal": self.optimal, "seconds": self.seconds,
                "policies": [s.to_dict() for s in self.summaries]}

    def to_json(self, indent: int | None = 2) -> str:
        """Strict JSON (no bare NaN: null instead)."""
        return strict_json(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        unit = "per unit stake" if any(s.per_stake is not None for s in self.summaries) else "per deal"
        lines = [f"{self.env_id} {self.env_kwargs or ''}: {self.hands} hands, seed {self.seed}".replace(" :", ":")]
        for s in self.summaries:
            value, ci = (s.per_stake, s.per_stake_ci95) if s.per_stake is not None else (s.mean, s.ci95)
            paired = (f"   vs {s.paired_vs} {s.paired_diff:+.4f} ± {s.paired_ci95:.4f}"
                      if s.paired_diff is not None else "")
            lines.append(f"  {s.name:<24} {value:+.4f} ± {ci:.4f} {unit}{paired}")
        return "\n".join(lines)


def _named(policies: Sequence[Any] | Mapping[str, Any]) -> list[tuple[str | None, Any]]:
    if isinstance(policies, Mapping):
        return [(str(name), spec) for name, spec in policies.items()]
    if isinstance(policies, (str, bytes)) or not isinstance(policies, Sequence):
        policies = [policies]
    return [(None, spec) for spec in policies]


def default_reference(env: gym.Env, optimal: float | None) -> str | tuple[str, ...] | None:
    """``optimal`` for a punter seat the solver covers (``optimal``: its value there, None where it has
    none); the best of :data:`BANKER_REFERENCES` for a banker seat; None where neither applies."""
    from ..envs.banker import ShootPontoonBankerEnv

    if isinstance(env.unwrapped, ShootPontoonBankerEnv):
        return BANKER_REFERENCES
    return "optimal" if optimal is not None else None


def evaluate(env_id: str, policies: Sequence[Any] | Mapping[str, Any], *, hands: int = 20_000, seed: int = 0,
             env_kwargs: Mapping[str, Any] | None = None, reference: Any = "default",
             num_tables: int = 4096, resolve: Resolver | None = None,
             progress: Callable[[int], object] | None = None) -> EvaluationResult:
    """Play ``policies`` (a list of policies, or a mapping of names to policies) on the same ``hands``
    hands of ``gym.make(env_id, **env_kwargs)`` and summarise each, paired with ``reference``.

    ``reference``: ``"default"`` (the exact optimum, ``optimal``, where the solver covers the table; for
    a banker seat the best rule-based banker on these hands), any policy (a name among ``policies`` or
    another spec, played beside them), or None (no paired column). Returns an
    :class:`EvaluationResult` (``print`` it, ``result["name"]``, ``result.to_json()``). A ValueError
    names a bad argument."""
    import time

    from .. import envs  # noqa: F401  (registers the ids)
    from .optimum import optimal_value

    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ValueError(f"hands = {hands!r}: expected an int of at least 1")
    if env_id not in gym.registry:
        raise ValueError(f"env_id = {env_id!r}: not a registered Gymnasium id")
    kwargs = dict(env_kwargs or {})

    def make_env() -> gym.Env:
        return gym.make(env_id, **kwargs)

    try:
        probe = make_env()
    except TypeError as error:  # an argument the env does not take
        raise ValueError(f"env_kwargs = {kwargs!r}: {error}") from None
    start = time.perf_counter()
    named = _named(policies)
    players: list[ObservationPolicy] = []
    for name, spec in named:
        player = as_agent(spec, probe, resolve)
        if name is not None:
            player = copy.copy(player) if player is spec else player  # the caller's object keeps its name
            player.name = name
        players.append(player)
    names = [p.name for p in players]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"policies: {repeated[0]!r} is named twice: expected distinct names (pass a mapping of "
                         "names to policies)")
    optimal = optimal_value(probe, quiet=True)
    if isinstance(reference, str) and reference == "default":
        reference = default_reference(probe, optimal)
    candidates = list(reference) if isinstance(reference, tuple) else [] if reference is None else [reference]
    given = [names.index(c) for c in candidates if isinstance(c, str) and c in names]
    extra = [as_agent(c, probe, resolve) for c in candidates if not (isinstance(c, str) and c in names)]
    records = run_tournament(make_env, [*players, *extra], hands, seed=seed, progress=progress,
                             env_kwargs=kwargs, num_tables=num_tables, resolve=resolve)
    pool = [records[i] for i in given] + records[len(players):]
    reference_record = max(pool, key=lambda r: float(np.mean(r.returns))) if pool else None
    summaries = [summarise(r, optimal, reference_record) for r in records[:len(players)]]
    if reference_record is not None and reference_record.name not in names:
        summaries.append(summarise(reference_record, optimal, reference_record))
    probe.close()
    kept = {r.name: r for r in records[:len(players)]}
    if reference_record is not None:
        kept[reference_record.name] = reference_record
    return EvaluationResult(env_id, kwargs, hands, seed, None if reference_record is None else reference_record.name,
                            optimal, time.perf_counter() - start, summaries, kept)


def exploitability(punter: Any, banker: Any, rules: Any = "shoot") -> Any:
    """The heads-up exploitability of the pair (``punter``, ``banker``) under ``rules`` (a preset name
    or :class:`~shoot_pontoon_env.rules.Rules` the solver's heads-up game covers), either side any policy
    (a name, ``module:Name``, a function of an observation and its mask, an ObservationPolicy, a model
    file). The solver's best-response code asks each through its seat's view, as at a table; a policy
    over observations sees the heads-up table's punter or banker seat. Returns the solver's
    ``Exploitability`` (``.exploitability``, ``.pair_value``, both best responses)."""
    from ..models.resolve import make_policy
    from ..rules import get_rules
    from ..solver.headsup.best_response import exploitability as solve_exploitability
    from ..solver.headsup.game_punter import STARTING_CHIPS

    rules = get_rules(rules)
    pair = [make_policy(spec, rules=rules, num_players=2, starting_chips=STARTING_CHIPS, role=role,
                        shoot_bet_levels=(), label=role) for spec, role in ((punter, "punter"), (banker, "banker"))]
    if any(isinstance(spec, str) and spec == "random" for spec in (punter, banker)):
        raise ValueError("'random' plays at random; the best responses need a deterministic policy")
    return solve_exploitability(pair[0], pair[1], rules)
