"""Any agent as a table player: the adapter that lets a policy (for example a trained model) sit
at the table as the banker or another punter inside an environment."""

from __future__ import annotations

import numpy as np

from shoot_pontoon_env.actions import Action
from shoot_pontoon_env.engine.view import SeatView
from shoot_pontoon_env.envs.encoding import ObservationEncoder
from shoot_pontoon_env.strategies import Strategy

from .base import Agent, EnvContext


class AgentPlayer(Strategy):
    """A :class:`Strategy` that encodes its seat's view as the environment would and asks the agent.

    ``context`` must describe the seat's own environment configuration (the agent's action table);
    build it from an env of that seat, e.g. ``EnvContext.of(gym.make("ShootPontoonBanker-v0"))``.
    """

    def __init__(self, agent: Agent, context: EnvContext) -> None:
        self.agent = agent.bind(context)
        self.context = context
        self.encoder = ObservationEncoder(context.rules, context.num_players, context.starting_chips)
        self.name = f"agent:{agent.name}"

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        mask = self.context.action_table.mask(view)
        index = self.agent.act(self.encoder.encode(view), mask, rng)
        action = self.context.action_table.to_action(index, view)
        if action is None or not mask[index]:
            raise RuntimeError(f"{self.name} chose index {index}, which is not legal here")
        return action

