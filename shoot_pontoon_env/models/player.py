"""A policy over an env's observations seated at the table as a player (a :class:`Strategy`).

The seat's view is encoded as that env encodes it, the policy answers an index of the env's action
table, and the index becomes the engine's action. The env is the one the policy acts in: its rules,
table size, starting chips and action table.
"""

from __future__ import annotations

import numpy as np

from ..actions import Action
from ..engine.view import SeatView
from ..rules import Rules
from ..seat.action_table import ActionTable
from ..seat.encoding import ObservationEncoder
from ..strategies import Strategy


class PolicyPlayer(Strategy):
    """Base class: subclasses implement :meth:`choose` (observation and mask in, action index out)."""

    def __init__(self, rules: Rules, num_players: int, starting_chips: int, action_table: ActionTable,
                 name: str) -> None:
        self.action_table = action_table
        self.encoder = ObservationEncoder(rules, num_players, starting_chips)
        self.name = name

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        raise NotImplementedError

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        mask = self.action_table.mask(view)
        index = self.choose(self.encoder.encode(view), mask, rng)
        action = self.action_table.to_action(index, view)
        if action is None or not mask[index]:
            raise RuntimeError(f"{self.name} chose index {index}, which is not legal here")
        return action
