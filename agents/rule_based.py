"""Rule-based agents: a table :class:`Policy` (the library's strategies, the solver's ``optimal``, any
policy over a :class:`SeatView`) answering an env's observations.

A :class:`StrategyAgent` decodes the observation into the seat's view, asks the policy, and maps its
:class:`Action` to an index of the env's action table; asked through a view (at a table) it is the
policy itself. No strategy is written twice.
"""

from __future__ import annotations

import numpy as np

from shoot_pontoon_env.actions import Action
from shoot_pontoon_env.engine.view import SeatView
from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.seat.encoding import decode_view
from shoot_pontoon_env.vector.policy import BatchPlayer

from .base import Agent, idle_index


class StrategyAgent(Agent):
    """``strategy`` (a Policy, or a player's name for ``models.resolve.make_policy``) over observations."""

    def __init__(self, strategy: Policy | str, name: str | None = None) -> None:
        super().__init__()
        self.strategy = make_policy(strategy, role="punter") if isinstance(strategy, str) else strategy
        if not isinstance(self.strategy, Policy):
            raise TypeError(f"StrategyAgent: {strategy!r} is not a Policy")
        self.name = name or self.strategy.name

    @property
    def roles(self) -> tuple[str, ...]:
        return self.strategy.roles

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        """At a table: the policy itself (no observation to decode)."""
        return self.strategy.act(view, rng)

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        context = self._bound()
        view = decode_view(observation, context.rules, starting_chips=context.starting_chips)
        if not view.legal:  # a finished table (the ignored row of a NEXT_STEP reset): nothing to decide
            return idle_index(action_mask)
        action = self.strategy.act(view, rng)
        index = context.action_table.to_index(action, view)
        if not action_mask[index]:
            raise RuntimeError(f"{self.name}: chose index {index}, which the mask forbids")
        return index

    def batch_player(self) -> BatchPlayer | None:
        """The library's rule-based players and the solver's ``OptimalPunter`` (with its Shoot bets)
        run inside the batched engine, on the table itself: the same decisions as :meth:`choose` makes
        from the observation (tests/vector checks both against the strategy on the real view)."""
        if self.context is None:
            raise RuntimeError(f"{self.name}: call bind(env) before batch_player()")
        return BatchPlayer.of_strategy(self.strategy, self.context.rules)
