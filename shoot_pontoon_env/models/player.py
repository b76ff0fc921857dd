"""Policies seated at the table as players (each a :class:`Policy`): a policy over an env's
observations (:class:`PolicyPlayer`; a network as numpy arrays, :class:`ActorPlayer`), and the
solver's policies by name (:func:`solver_player`).

For a :class:`PolicyPlayer` the seat's view is encoded as that env encodes it, the policy answers an
index of the env's action table, and the index becomes the :class:`Action` the Table applies. The env
is the one the policy acts in: its rules, table size, starting chips and action table.

The solver's players are built here, in the installed package, so that ``python -m
shoot_pontoon_env.play`` seats the same ``optimal`` and ``basic`` that the checkout's ``agents/``
(and so ``evaluate``) build by these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..actions import Action, ActionKind
from ..engine.view import SeatView
from ..rules import Rules
from ..seat.action_table import ActionTable
from ..seat.encoding import ObservationEncoder
from ..seat.features import COMPACT_SIZE, compact_observation
from ..players.policy import Policy
from ..players.roles import ROLES
from .mlp import ActorArrays

if TYPE_CHECKING:
    from ..solver.player import OptimalPunter

SOLVER_PLAYERS = ("optimal", "basic")
"""The names :func:`solver_player` builds."""
def action_table_roles(action_table: ActionTable) -> tuple[str, ...]:
    """The roles an action table can play: a stake is only a punter's, keeping or selling the bank only
    the banker's (the single-seat envs' tables have one; the whole table's seat table has both)."""
    kinds = {entry.kind for entry in action_table.entries}
    return tuple(role for role, has in zip(ROLES, (
        ActionKind.STAKE in kinds, bool(kinds & {ActionKind.KEEP_BANK, ActionKind.SELL_BANK}))) if has)


class PolicyPlayer(Policy):
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

    @property
    def roles(self) -> tuple[str, ...]:
        """The roles this policy's action table plays (``action_table_roles``): asked to decide in
        another, it has no legal index and raises."""
        return action_table_roles(self.action_table)

    def kernel_network(self) -> tuple[ActorArrays, str] | None:
        """The numpy actor this player chooses by and the observation it reads (``"flat"`` or
        ``"compact"``), for the batched engine to play it inside the kernel at a whole table
        (``multiagent.batched_env``); None: a policy the kernel cannot play (this base class's)."""
        return None


OBSERVATIONS = ("flat", "compact")
"""What a network at the table reads: the seat's flat observation or its compact features."""


class ActorPlayer(PolicyPlayer):
    """A network given as numpy arrays (:class:`ActorArrays`) at the table: its deterministic action
    (``ActorArrays.act``) of the seat's flat observation, or of its compact features
    (``observation="compact"``), over ``action_table`` (the single-seat env's it acts in). What a
    :class:`~shoot_pontoon_env.models.trained.TrainedPlayer` does, without torch or a model file; the
    batched engine plays it inside the kernel at a whole table."""

    def __init__(self, actor: ActorArrays, rules: Rules, num_players: int, starting_chips: int,
                 action_table: ActionTable, name: str = "actor", observation: str = "flat") -> None:
        super().__init__(rules, num_players, starting_chips, action_table, name)
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation = {observation!r}: expected one of {list(OBSERVATIONS)}")
        inputs = COMPACT_SIZE if observation == "compact" else self.encoder.size
        if actor.num_inputs != inputs or actor.num_actions != len(action_table):
            raise ValueError(f"an actor of {actor.num_inputs} inputs and {actor.num_actions} actions: this "
                             f"seat's {observation} observation has {inputs} values and its action table "
                             f"{len(action_table)} indices")
        self.actor = actor
        self.observation = observation

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.observation == "compact":
            observation = compact_observation(observation)
        return self.actor.act(observation, action_mask)

    def __repr__(self) -> str:
        return f"ActorPlayer({self.name!r}, {self.observation} observation)"

    def kernel_network(self) -> tuple[ActorArrays, str] | None:
        if type(self).choose is not ActorPlayer.choose or type(self).act is not PolicyPlayer.act:
            return None  # a subclass that decides otherwise
        return self.actor, self.observation


def shoot_allowance(rules: Rules, levels: Sequence[int] | None = None) -> int:
    """The Shoot bet the optimal punter weighs at each betting point: the largest it may place within
    ``max_shoot_bet`` and the posted Shoot, of ``levels`` (an env's Shoot bet levels) or of any amount
    (None: a table where bets are typed in chips, as ``play``'s). 0 without a betting point."""
    if not rules.shoot or not rules.shoot_bet_points:
        return 0
    room = min(rules.max_shoot_bet or rules.initial_shoot, rules.initial_shoot)
    if levels is None:
        return room
    return max((level for level in levels if 0 < level <= room), default=0)


def solver_player(name: str, rules: Rules, banker: Policy | None = None,
                  shoot_bet_levels: Sequence[int] | None = None) -> OptimalPunter:
    """A solver's policy by name (``SOLVER_PLAYERS``), named so at the table.

    ``optimal``: the exact solution for the rules and shoe against ``banker`` (a free banker; None:
    the solver's stand on 17), with its Shoot bets at every betting point the rules have, solved for
    :func:`shoot_allowance` of ``shoot_bet_levels`` in stakes of ``base_stake``; where the optimum
    never bets, the bets are left out and the plain solution is played. ``basic``: the infinite-deck
    solution (the total-dependent basic strategy) against the solver's default banker, no Shoot bets.
    A ValueError for another name or a banker the solver cannot model (one that looks at the punters
    or plays at random). The batched engine plays either (its Shoot policy as arrays,
    ``shoot_pontoon_env.vector.policy``)."""
    from ..solver import OptimalPunter, solve

    if name == "basic":
        player = OptimalPunter(solve(rules, infinite=True))
    elif name == "optimal":
        allowance = shoot_allowance(rules, shoot_bet_levels)
        try:
            if not allowance:
                player = OptimalPunter(solve(rules, banker=banker))
            else:
                solution = solve(rules, banker=banker, shoot_ratio=allowance / rules.base_stake)
                shoot = solution.shoot
                bets = shoot.bet_deal or any(shoot.bet_second.values()) or bool(shoot.bet_fourth.any())
                player = OptimalPunter(solution, shoot_bets=bets)
        except NotImplementedError as error:
            raise ValueError(f"optimal: no solver optimum against this banker ({error})") from None
    else:
        raise ValueError(f"unknown solver player {name!r}: expected one of {list(SOLVER_PLAYERS)}")
    player.name = name
    return player
