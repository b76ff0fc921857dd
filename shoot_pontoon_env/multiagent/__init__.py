"""The whole Pontoon table for multi-agent RL: a PettingZoo AEC environment with every seat an agent.

PettingZoo classic style (needs the ``multiagent`` extra: ``pip install -e ".[multiagent]"`` in a checkout)::

    from shoot_pontoon_env.multiagent import env

    table = env(rules="shoot", num_players=4)
    table.reset(seed=0)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        action = None if termination or truncation else table.action_space(agent).sample(observation["action_mask"])
        table.step(action)

``batched_env(num_tables, **the same arguments)`` steps many tables at once on the batched engine
(:class:`BatchedTableEnv`: the seat to act, its observation and mask per table, and every seat's
reward). ``raw_env`` is the unwrapped :class:`ShootPontoonAECEnv`; ``env`` adds PettingZoo's order-enforcing
wrapper; ``parallel_env`` is the turn-based parallel form (each step applies the action of the seat
to act and ignores the others', PettingZoo's ``turn_based_aec_to_parallel``).
"""

from __future__ import annotations

from typing import Any

try:
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import parallel_to_aec, turn_based_aec_to_parallel
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "shoot_pontoon_env.multiagent needs PettingZoo, the multiagent extra: "
        "pip install -e \".[multiagent]\" in a checkout of shoot-pontoon-env"
    ) from error

from .batched import BatchedTableEnv, batched_env
from .config import agent_name, seat_action_table
from .table_env import ShootPontoonAECEnv

__all__ = ["BatchedTableEnv", "ShootPontoonAECEnv", "agent_name", "batched_env", "env", "parallel_env", "raw_env",
           "seat_action_table"]


def raw_env(**kwargs: Any) -> ShootPontoonAECEnv:
    """The unwrapped AEC environment (arguments: see :class:`ShootPontoonAECEnv`)."""
    return ShootPontoonAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's order-enforcing wrapper (what classic ``env()`` returns):
    turns in the table's order, the seat to act only. With ``max_cycles`` the turns go in PettingZoo's
    cycles instead: every live agent steps once per cycle (those not to act with an all-zero mask, and
    their actions are ignored), one cycle is one decision, and the episode is truncated after
    ``max_cycles`` of them (PettingZoo's ``parallel_to_aec`` of :func:`parallel_env`). There the
    cycle's actions are played when its last agent has stepped: with ``strict=True`` an illegal one
    raises then, and the env needs a ``reset``."""
    if kwargs.get("max_cycles") is not None:
        return parallel_to_aec(parallel_env(**kwargs))
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The parallel form: every live agent may send an action each step; the seat to act's is applied
    (``infos[agent]["active_agent"]`` names it) and the others are ignored. One step is one decision,
    and one cycle in PettingZoo's sense of ``max_cycles``."""
    return turn_based_aec_to_parallel(wrappers.OrderEnforcingWrapper(raw_env(**kwargs)))
