"""Many whole tables as one RLlib multi-agent env, on the batched engine, with every chip of reward
credited to an action of the seat it belongs to.

RLlib's multi-agent episodes keep a reward only for an agent that has acted: a reward that reaches a
seat with (or before) its first observation of an episode is set aside and never trained on. At a
Pontoon table that happens (the first banker collects from punters who bust before its first turn),
so this env holds each seat's rewards until it has acted, then pays them with the rewards of that
first action; after that every step's reward is paid as it comes (RLlib adds it to the seat's
pending action). At a table's end each seat that acted is terminated with what it has left. So the
returns RLlib records per seat are its chips won, and they sum to zero over the table
(``tests/train/test_rllib_tables.py``). A seat that never decides (the casino dealer, who draws by
rule) is no agent.

``num_tables`` tables are one RLlib episode: agent ``t{i}_seat_{s}`` is seat s of table i, every
table plays one episode, and a table that is over waits (action -1) for the others. One env step
asks every table's seat to act at once, so RLlib's module runs on a batch of observations.

This module needs no Ray itself (``TablesForRLlib`` speaks RLlib's multi-agent protocol in plain
dicts); ``rllib_env`` makes it an ``ray.rllib.env.multi_agent_env.MultiAgentEnv``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from shoot_pontoon_env.multiagent import batched_env


def agent_id(table: int, seat: int) -> str:
    return f"t{table}_seat_{seat}"


class TablesForRLlib:
    """``num_tables`` whole tables (``kwargs``: ``batched_env``'s) in RLlib's multi-agent protocol:
    ``reset() -> (obs, infos)``, ``step(actions) -> (obs, rewards, terminateds, truncateds, infos)``,
    each a dict by agent id (``terminateds["__all__"]`` once every table is over)."""

    def __init__(self, num_tables: int = 16, **kwargs: Any) -> None:
        if kwargs.get("max_cycles") is not None:
            raise ValueError("max_cycles: RLlib's episodes here are whole table episodes (use deals_per_episode)")
        self.tables = batched_env(num_tables, **kwargs)
        self.num_tables, self.num_players = num_tables, self.tables.num_players
        n = len(self.tables.action_table)
        single = spaces.Dict({"observations": self.tables.single_observation_space,
                              "action_mask": spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32)})
        self.possible_agents = [agent_id(i, s) for i in range(num_tables) for s in range(self.num_players)]
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: single for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seat_of = {agent_id(i, s): (i, s) for i in range(num_tables) for s in range(self.num_players)}
        self._pending = np.zeros((num_tables, self.num_players), dtype=np.float64)
        self._acted = np.zeros((num_tables, self.num_players), dtype=np.bool_)
        self._over = np.zeros(num_tables, dtype=np.bool_)
        self._info: dict[str, np.ndarray] = {}
        self._row = np.zeros(self.tables.single_observation_space.shape, dtype=np.float32)
        self._mask = np.zeros(n, dtype=np.bool_)

    def _observation(self, row: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observations": row.copy(), "action_mask": mask.astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        obs, self._info = self.tables.reset(seed=seed)
        self._pending[:] = 0.0
        self._acted[:] = False
        self._over[:] = False
        self.agents = list(self.possible_agents)
        seats = self._info["current_seat"]
        masks = self._info["action_mask"]
        observations = {agent_id(i, int(seats[i])): self._observation(obs[i], masks[i])
                        for i in range(self.num_tables)}
        return observations, {a: {} for a in observations}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        actions = np.full(self.num_tables, -1, dtype=np.int64)
        for agent, action in action_dict.items():
            table, seat = self._seat_of[agent]
            actions[table] = int(action)
            self._acted[table, seat] = True
        obs, rewards, terminations, _, self._info = self.tables.step(actions)
        self._pending += rewards
        observations, paid, terminateds = {}, {}, {}
        seats, masks = self._info["current_seat"], self._info["action_mask"]
        for table in np.flatnonzero(actions >= 0):
            if terminations[table]:
                self._over[table] = True
                for seat in np.flatnonzero(self._acted[table]):
                    agent = agent_id(int(table), int(seat))
                    self.tables.batch.observe(int(table), int(seat), self._row, self._mask)
                    observations[agent] = self._observation(self._row, self._mask)
                    terminateds[agent] = True
            else:
                seat = int(seats[table])
                observations[agent_id(int(table), seat)] = self._observation(obs[table], masks[table])
        payable = self._acted & (self._pending != 0.0)
        for table, seat in zip(*np.nonzero(payable)):
            paid[agent_id(int(table), int(seat))] = float(self._pending[table, seat])
        self._pending[payable] = 0.0
        for agent in observations:
            paid.setdefault(agent, 0.0)  # RLlib wants a reward with every observation after an action
        terminateds["__all__"] = bool(self._over.all())
        if terminateds["__all__"]:
            self.agents = []
        return observations, paid, terminateds, {"__all__": False}, {a: {} for a in observations}


def rllib_env(env_config: dict[str, Any]):
    """RLlib's env creator: ``env_config`` = ``num_tables`` and ``batched_env``'s arguments."""
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    class RLlibTables(TablesForRLlib, MultiAgentEnv):
        def __init__(self, config: dict[str, Any]) -> None:
            MultiAgentEnv.__init__(self)
            TablesForRLlib.__init__(self, **config)

    return RLlibTables(dict(env_config))
