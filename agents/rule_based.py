"""Rule-based agents: a table :class:`Policy` (the library's strategies, the solver's ``optimal``, any
policy over a :class:`SeatView`) answering an env's observations.

A :class:`StrategyAgent` decodes the observation into the seat's view, asks the policy, and maps its
:class:`Action` to an index of the env's action table; asked through a view (at a table) it is the
policy itself. No strategy is written twice.
"""

from __future__ import annotations

from shoot_pontoon_env.models.player import ViewPolicy
from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.players.policy import Policy

from .base import Agent


class StrategyAgent(ViewPolicy, Agent):
    """``strategy`` (a Policy, or a player's name for ``models.resolve.make_policy``) over observations
    (the library's ``models.player.ViewPolicy``)."""

    def __init__(self, strategy: Policy | str, name: str | None = None) -> None:
        policy = make_policy(strategy, role="punter") if isinstance(strategy, str) else strategy
        if not isinstance(policy, Policy):
            raise TypeError(f"StrategyAgent: {strategy!r} is not a Policy")
        super().__init__(policy, name)

    @property
    def strategy(self) -> Policy:
        return self.policy
