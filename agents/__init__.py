"""Agents behind one policy interface (``agents.base.Agent``): random, rule-based, optimal (the
solver), basic strategy (the infinite-deck solver), and trained SB3 models.

Run from a checkout (not installed with the library). ``make_agent(name, env)`` builds one by name:

- ``random``;
- any table-player strategy of ``shoot_pontoon_env.strategies.STRATEGIES`` (``tips``, ``stand17``,
  ``shoot_aware``, ``dealer``, ``threshold``) and ``thresholdN`` (stick on N or more);
- ``optimal`` (the exact solver for the env's rules and shoe), ``basic`` (the infinite-deck solution:
  the total-dependent basic strategy);
- ``zoo:NAME`` (a committed model of ``agents/zoo``) or a path to a saved model ``.zip`` (with its
  run's ``config.yaml``, or in an rl-baselines3-zoo run folder): the policy is rebuilt from that
  configuration and only its tensors are read, so a crafted file cannot run code
  (``agents/safe_load.py``).
"""

from __future__ import annotations

import re

import gymnasium as gym

from shoot_pontoon_env.strategies import STRATEGIES, ThresholdPunter

from .base import Agent, EnvContext, RandomAgent
from .rule_based import StrategyAgent

__all__ = ["Agent", "EnvContext", "RandomAgent", "StrategyAgent", "agent_names", "make_agent"]


def agent_names() -> list[str]:
    from .trained import zoo_models

    return ["random", *sorted(set(STRATEGIES) - {"random"}), "thresholdN", "optimal", "basic",
            *(f"zoo:{m}" for m in zoo_models())]


def make_agent(name: str, env: gym.Env) -> Agent:
    """An agent by name, bound to ``env``'s configuration."""
    context = EnvContext.of(env)
    if name == "random":
        agent: Agent = RandomAgent()
    elif name in STRATEGIES:
        agent = StrategyAgent(name)
    elif (match := re.fullmatch(r"threshold(\d+)", name)) is not None:
        agent = StrategyAgent(ThresholdPunter(int(match.group(1))), name=name)
    elif name in ("optimal", "basic"):
        from shoot_pontoon_env.solver import solve
        from shoot_pontoon_env.solver.player import OptimalPunter

        agent = StrategyAgent(OptimalPunter(solve(context.rules, infinite=name == "basic")), name=name)
    elif name.startswith("zoo:") or name.endswith(".zip"):
        from .trained import TrainedAgent

        agent = TrainedAgent(name[4:] if name.startswith("zoo:") else name)
    else:
        raise ValueError(f"unknown agent {name!r}: expected one of {agent_names()} or a model .zip path")
    return agent.bind(context)
