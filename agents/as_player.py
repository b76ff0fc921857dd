"""Any agent as a table player: the adapter that lets a policy (for example a trained model) sit
at the table as the banker or another punter inside an environment."""

from __future__ import annotations

import numpy as np

from shoot_pontoon_env.models.player import PolicyPlayer

from .base import Agent, EnvContext


class AgentPlayer(PolicyPlayer):
    """A :class:`Policy` that encodes its seat's view as the environment would and asks the agent
    (the package's :class:`~shoot_pontoon_env.models.player.PolicyPlayer`, asking an :class:`Agent`).

    ``context`` must describe the seat's own environment configuration (the agent's action table);
    build it from an env of that seat, e.g. ``EnvContext.of(gym.make("ShootPontoonBanker-v0"))``.
    """

    def __init__(self, agent: Agent, context: EnvContext) -> None:
        self.agent = agent.bind(context)
        self.context = context
        super().__init__(context.rules, context.num_players, context.starting_chips, context.action_table,
                         f"agent:{agent.name}")

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        return self.agent.act(observation, action_mask, rng)
