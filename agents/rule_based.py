"""Rule-based agents: the library's table-player strategies, acting through the observation.

Each wraps a :class:`shoot_pontoon_env.players.strategies.Policy` (the same object the environments use
for table players): the observation is decoded into the seat's view, the strategy picks an
:class:`Action`, and the action table maps it to an index. No strategy is written twice.
"""

from __future__ import annotations

import numpy as np

from shoot_pontoon_env.seat.encoding import decode_view
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.vector.policy import BatchPlayer

from .base import Agent, idle_index


class StrategyAgent(Agent):
    def __init__(self, strategy: Policy | str, name: str | None = None) -> None:
        super().__init__()
        self.strategy = make_strategy(strategy)
        self.name = name or self.strategy.name

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.context is None:
            raise RuntimeError(f"{self.name}: call bind(env) before act()")
        view = decode_view(observation, self.context.rules, starting_chips=self.context.starting_chips)
        if not view.legal:  # a finished table (the ignored row of a NEXT_STEP reset): nothing to decide
            return idle_index(action_mask)
        action = self.strategy.act(view, rng)
        index = self.context.action_table.to_index(action, view)
        if not action_mask[index]:
            raise RuntimeError(f"{self.name}: chose index {index}, which the mask forbids")
        return index

    def batch_player(self) -> BatchPlayer | None:
        """The library's rule-based players and the solver's ``OptimalPunter`` (with its Shoot bets)
        run inside the batched engine, on the table itself: the same decisions as :meth:`act` makes
        from the observation (tests/vector checks both against the strategy on the real view)."""
        if self.context is None:
            raise RuntimeError(f"{self.name}: call bind(env) before batch_player()")
        return BatchPlayer.of_strategy(self.strategy, self.context.rules)
