"""Agents behind one policy interface (``agents.base.Agent``): random, rule-based, optimal (the
solver), basic strategy (the infinite-deck solver), and trained SB3 models.

Run from a checkout (not installed with the library). ``make_agent(name, env)`` builds one by name:

- ``random``;
- any table-player strategy of ``shoot_pontoon_env.players.strategies.STRATEGIES`` (``tips``, ``stand17``,
  ``shoot_aware``, ``dealer``, ``threshold``) and ``thresholdN`` (stick on N or more);
- ``optimal`` (the exact solver for the env's rules and shoe, with the solver's Shoot bets at every
  betting point the rules have), ``basic`` (the infinite-deck solution: the total-dependent basic
  strategy, no Shoot bets);
- ``equilibrium`` (the heads-up CFR+ equilibrium of ``solver/headsup/equilibrium.py``, punter or banker by
  the seat; the env must be a reduced game of ``equilibrium_rules`` with two players);
- ``zoo:NAME`` (a committed model of ``agents/zoo``), a path to a saved model ``.zip`` (with its
  run's ``config.yaml``, or in an rl-baselines3-zoo run folder) or a run folder holding ``model.zip``:
  the policy is rebuilt from that configuration and only its tensors are read, so a crafted file
  cannot run code (``agents/safe_load.py``).
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym

from shoot_pontoon_env.actions import ActionKind
from shoot_pontoon_env.models import player as table_players
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.players.strategies import STRATEGIES, is_strategy_name

from .base import Agent, EnvContext, RandomAgent
from .rule_based import StrategyAgent

__all__ = ["Agent", "EnvContext", "RandomAgent", "StrategyAgent", "agent_names", "make_agent"]


def agent_names() -> list[str]:
    from .trained import zoo_models

    return ["random", *sorted(set(STRATEGIES) - {"random"}), "thresholdN", *table_players.SOLVER_PLAYERS,
            "equilibrium", *(f"zoo:{m}" for m in zoo_models())]


def shoot_bet_levels(context: EnvContext) -> list[int]:
    """The Shoot bet levels of the env's action table (chips)."""
    return [e.amount for e in context.action_table.entries if e.kind == ActionKind.SHOOT_BET]


def shoot_allowance(context: EnvContext) -> int:
    """The Shoot bet the optimal punter weighs at each betting point: the largest of the env's Shoot bet
    levels within ``max_shoot_bet`` and the posted Shoot (0 without a betting point); see
    ``shoot_pontoon_env.models.player.shoot_allowance``."""
    return table_players.shoot_allowance(context.rules, shoot_bet_levels(context))


def table_banker(env: gym.Env) -> Policy | None:
    """The free banker a punter env seats (what the optimal punter is solved against), or None."""
    base = env.unwrapped
    if base.rules.banker_play != "free" or not hasattr(base, "banker_strategy"):
        return None
    return base.banker_strategy


def make_agent(name: str, env: gym.Env) -> Agent:
    """An agent by name, bound to ``env``'s configuration. The table players by name (strategies,
    ``thresholdN``, ``optimal``, ``basic``) are the installed package's, which ``play`` seats too."""
    context = EnvContext.of(env)
    if name == "random":
        agent: Agent = RandomAgent()
    elif is_strategy_name(name):
        agent = StrategyAgent(name)
    elif name in table_players.SOLVER_PLAYERS:  # optimal: against the env's banker, for its Shoot bet levels
        levels = shoot_bet_levels(context)
        agent = StrategyAgent(table_players.solver_player(name, context.rules, table_banker(env), levels))
    elif name == "equilibrium":  # heads-up CFR+ equilibrium of a reduced game, either seat
        from .equilibrium import EquilibriumAgent

        agent = EquilibriumAgent()
    elif name.startswith("zoo:") or name.endswith(".zip") or Path(name).is_dir():
        from .trained import TrainedAgent

        agent = TrainedAgent(name)
    else:
        raise ValueError(f"unknown agent {name!r}: expected one of {agent_names()}, a model .zip path or a run "
                         "folder holding model.zip")
    return agent.bind(context)
