"""The checkout's agents, each a policy of the package's one interface (an
:class:`~shoot_pontoon_env.models.player.ObservationPolicy`, so a table player too): random, rule-based,
optimal (the solver), basic strategy (the infinite-deck solver), the heads-up equilibrium and trained
SB3 models.

Run from a checkout (not installed with the library). ``make_agent(spec, env)`` builds one bound to
``env``'s agent seat. It builds the agent-only names itself:

- ``random`` (uniform over the legal indices);
- ``equilibrium`` (the heads-up CFR+ equilibrium of ``solver/headsup/equilibrium.py``, punter or banker
  by the seat; the env must be a reduced game of ``equilibrium_rules`` with two players);

and every other spec is the package's resolver's (``shoot_pontoon_env.models.resolve.make_policy``):
any table-player strategy (``tips``, ``stand17``, ``shoot_aware``, ``dealer``, ``threshold``) and
``thresholdN``; ``optimal`` (the exact solver for the env's rules and shoe against its banker, with
the solver's Shoot bets at the env's levels), ``basic`` (the infinite-deck solution, no Shoot bets);
``zoo:NAME`` (a committed model of ``agents/zoo``), a saved model ``.zip`` (with its run's
``config.yaml``, or in an rl-baselines3-zoo run folder) or a run folder holding ``model.zip``, read
without unpickling; a Policy; a callable of an observation and its action mask. A policy over views
is answered through the observation (``models.player.ViewPolicy``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from shoot_pontoon_env.models import player as table_players
from shoot_pontoon_env.models.player import ObservationPolicy
from shoot_pontoon_env.models.resolve import UnknownPolicy, is_import_spec, observation_policy, shoot_levels
from shoot_pontoon_env.players.strategies import STRATEGIES

from .base import Agent, EnvContext, RandomAgent
from .rule_based import StrategyAgent

__all__ = ["Agent", "EnvContext", "RandomAgent", "StrategyAgent", "agent_names", "make_agent"]

AGENT_ONLY = ("random", "equilibrium")
"""The names ``make_agent`` builds itself (``random`` here is uniform over the action indices, not the
table's ``random`` strategy)."""


def agent_names() -> list[str]:
    from .trained import zoo_models

    return ["random", *sorted(set(STRATEGIES) - {"random"}), "thresholdN", *table_players.SOLVER_PLAYERS,
            "equilibrium", *(f"zoo:{m}" for m in zoo_models())]


def shoot_allowance(context: EnvContext) -> int:
    """The Shoot bet the optimal punter weighs at each betting point: the largest of the env's Shoot bet
    levels within ``max_shoot_bet`` and the posted Shoot (0 without a betting point); see
    ``shoot_pontoon_env.models.player.shoot_allowance``."""
    return table_players.shoot_allowance(context.rules, shoot_levels(context.action_table))


def make_agent(spec: Any, env: gym.Env) -> ObservationPolicy:
    """An agent by ``spec``, bound to ``env``'s agent seat: ``equilibrium`` built here, anything else by
    ``models.resolve.observation_policy`` (``random`` uniform over the legal indices; a policy over
    views answered through the observation). A ValueError naming an unknown spec and the choices."""
    from .trained import ZOO

    if isinstance(spec, str) and spec == "equilibrium":  # heads-up CFR+ equilibrium of a reduced game
        from .equilibrium import EquilibriumAgent

        return EquilibriumAgent().bind(env)
    try:
        return observation_policy(spec, env, label="agent", zoo=ZOO)
    except UnknownPolicy as error:
        if isinstance(spec, str) and is_import_spec(spec):  # the module or name is missing: it says which
            raise ValueError(str(error)) from None
        raise ValueError(f"unknown agent {spec!r}: expected one of {agent_names()}, a model .zip path, a run "
                         "folder holding model.zip, module:Name (a Python policy), a Policy, a Stable-Baselines3 "
                         "model or a callable of an observation and its action mask") from None
