"""Agents behind one policy interface (``agents.base.Agent``): random, rule-based, optimal (the
solver), basic strategy (the infinite-deck solver), and trained SB3 models.

Run from a checkout (not installed with the library). ``make_agent(name, env)`` builds one by name:

- ``random``;
- any table-player strategy of ``shoot_pontoon_env.strategies.STRATEGIES`` (``tips``, ``stand17``,
  ``shoot_aware``, ``dealer``, ``threshold``) and ``thresholdN`` (stick on N or more);
- ``optimal`` (the exact solver for the env's rules and shoe, with the solver's Shoot bets at every
  betting point the rules have), ``basic`` (the infinite-deck solution: the total-dependent basic
  strategy, no Shoot bets);
- ``zoo:NAME`` (a committed model of ``agents/zoo``), a path to a saved model ``.zip`` (with its
  run's ``config.yaml``, or in an rl-baselines3-zoo run folder) or a run folder holding ``model.zip``:
  the policy is rebuilt from that configuration and only its tensors are read, so a crafted file
  cannot run code (``agents/safe_load.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import gymnasium as gym

from shoot_pontoon_env.actions import ActionKind
from shoot_pontoon_env.strategies import STRATEGIES, Strategy, ThresholdPunter

from .base import Agent, EnvContext, RandomAgent
from .rule_based import StrategyAgent

if TYPE_CHECKING:
    from shoot_pontoon_env.solver.player import OptimalPunter

__all__ = ["Agent", "EnvContext", "RandomAgent", "StrategyAgent", "agent_names", "make_agent"]


def agent_names() -> list[str]:
    from .trained import zoo_models

    return ["random", *sorted(set(STRATEGIES) - {"random"}), "thresholdN", "optimal", "basic",
            *(f"zoo:{m}" for m in zoo_models())]


def shoot_allowance(context: EnvContext) -> int:
    """The Shoot bet the optimal punter weighs at each betting point: the largest of the env's Shoot bet
    levels within ``max_shoot_bet`` and the posted Shoot (0 without a betting point)."""
    rules = context.rules
    if not rules.shoot or not rules.shoot_bet_points:
        return 0
    room = min(rules.max_shoot_bet or rules.initial_shoot, rules.initial_shoot)
    levels = [e.amount for e in context.action_table.entries if e.kind == ActionKind.SHOOT_BET and 0 < e.amount <= room]
    return max(levels, default=0)


def table_banker(env: gym.Env) -> Strategy | None:
    """The free banker a punter env seats (what the optimal punter is solved against), or None."""
    base = env.unwrapped
    if base.rules.banker_play != "free" or not hasattr(base, "banker_strategy"):
        return None
    return base.banker_strategy


def optimal_punter(context: EnvContext, banker: Strategy | None = None) -> OptimalPunter:
    """The solver's policy for the env's rules and banker (a free banker: default stand on 17), with
    its Shoot bets at every betting point the rules have (solved for the allowance of
    :func:`shoot_allowance`, in the punter's stakes of ``base_stake``). Where the optimum never bets,
    the bets are left out and the plain solution is played. The batched engine plays either (its Shoot
    policy as arrays, ``shoot_pontoon_env.vector.policy``)."""
    from shoot_pontoon_env.solver import solve
    from shoot_pontoon_env.solver.player import OptimalPunter

    allowance = shoot_allowance(context)
    try:
        if not allowance:
            return OptimalPunter(solve(context.rules, banker=banker))
        solution = solve(context.rules, banker=banker, shoot_ratio=allowance / context.rules.base_stake)
    except NotImplementedError as error:  # a banker that looks at the punters or plays at random
        raise ValueError(f"optimal: no solver optimum against this banker ({error})") from None
    shoot = solution.shoot
    bets = shoot.bet_deal or any(shoot.bet_second.values()) or bool(shoot.bet_fourth.any())
    return OptimalPunter(solution, shoot_bets=bets)


def make_agent(name: str, env: gym.Env) -> Agent:
    """An agent by name, bound to ``env``'s configuration."""
    context = EnvContext.of(env)
    if name == "random":
        agent: Agent = RandomAgent()
    elif name in STRATEGIES:
        agent = StrategyAgent(name)
    elif (match := re.fullmatch(r"threshold(\d+)", name)) is not None:
        agent = StrategyAgent(ThresholdPunter(int(match.group(1))), name=name)
    elif name == "optimal":
        agent = StrategyAgent(optimal_punter(context, table_banker(env)), name=name)
    elif name == "basic":
        from shoot_pontoon_env.solver import solve
        from shoot_pontoon_env.solver.player import OptimalPunter

        agent = StrategyAgent(OptimalPunter(solve(context.rules, infinite=True)), name=name)
    elif name.startswith("zoo:") or name.endswith(".zip") or Path(name).is_dir():
        from .trained import TrainedAgent

        agent = TrainedAgent(name)
    else:
        raise ValueError(f"unknown agent {name!r}: expected one of {agent_names()}, a model .zip path or a run "
                         "folder holding model.zip")
    return agent.bind(context)
