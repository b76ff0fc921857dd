"""The ``equilibrium`` agent: heads-up Shoot Pontoon's CFR+ equilibrium (``solver/headsup/equilibrium.py``)
played from the seat's flat observation, as the punter or as the banker.

The env's rules must be a reduced game the solver models (``solver/headsup/equilibrium_game.py``: one stake,
no Shoot bets, no splits, two players; build them with ``equilibrium_rules``); any difference is a
ValueError naming it. The strategy is solved once per rule set (per process) when the agent is bound.

Both seats decide only on what the observation shows: the punter on its cards as a multiset, its
stake, buys and twists (the observation does not say which cards it twisted, so the agent plays the
solve of that information, ``recall="observation"``); the banker on its own cards and the punter's
face-up cards as multisets, the number face down, the stake, buys and flags. Mixed actions are
sampled from the Generator handed to :meth:`choose`.
"""

from __future__ import annotations

import functools

import gymnasium as gym
import numpy as np

from shoot_pontoon_env.actions import Action
from shoot_pontoon_env.engine.view import SeatView
from shoot_pontoon_env.seat.encoding import decode_view
from shoot_pontoon_env.rules import Rules
from shoot_pontoon_env.solver.headsup.equilibrium import DEFAULT_ITERATIONS as _SOLVER_ITERATIONS
from shoot_pontoon_env.solver.headsup.equilibrium import Equilibrium, solve_equilibrium
from shoot_pontoon_env.solver.headsup.equilibrium_game import reduced_game_differences

from .base import Agent, EnvContext, idle_index

DEFAULT_ITERATIONS = _SOLVER_ITERATIONS["observation"]


@functools.lru_cache(maxsize=4)
def equilibrium_for(rules: Rules, iterations: int = DEFAULT_ITERATIONS) -> Equilibrium:
    """The observation-recall equilibrium of ``rules``, solved once per process."""
    return solve_equilibrium(rules, iterations, recall="observation")


class EquilibriumAgent(Agent):
    """Plays ``equilibrium`` (an :class:`Equilibrium`, or solved for the env's rules when bound)."""

    name = "equilibrium"
    batched = True
    """Set although :meth:`choose_batch` is a row loop (cached per distinct observation): the flag is
    what lets ``evaluate`` play this agent on the batched engine (``shoot_pontoon_env/evaluate/tournament.py``), where
    the cache makes the loop cheap."""

    def __init__(self, equilibrium: Equilibrium | None = None, iterations: int = DEFAULT_ITERATIONS) -> None:
        super().__init__()
        if equilibrium is not None and equilibrium.recall != "observation":
            raise ValueError(f"{self.name}: the equilibrium has recall={equilibrium.recall!r}; the agent "
                             "plays from its flat observation, which does not say which cards it twisted: "
                             "solve it with recall='observation'")
        self.equilibrium = equilibrium
        self.iterations = iterations
        self._cache: dict[bytes, tuple[tuple[Action, ...], np.ndarray]] = {}

    def bind(self, context: EnvContext | gym.Env) -> EquilibriumAgent:
        """Check the env is a solved heads-up game and solve it if this agent has no equilibrium of
        its rules (a ValueError naming each difference)."""
        super().bind(context)
        assert self.context is not None
        problems = reduced_game_differences(self.context.rules)
        if self.context.num_players != 2:
            problems.insert(0, f"num_players={self.context.num_players} (the equilibrium is heads-up: 2)")
        if problems:
            raise ValueError(f"{self.name}: the env's rules {self.context.rules.name!r} differ from a solved "
                             "heads-up game (make the env with num_players=2 and "
                             "rules=equilibrium_rules(rules)): " + "; ".join(problems))
        if self.equilibrium is None or self.equilibrium.rules != self.context.rules:
            self.equilibrium = equilibrium_for(self.context.rules, self.iterations)
        self._cache.clear()
        return self

    # ------------------------------------------------------------------ decisions
    def distribution(self, view: SeatView) -> dict[Action, float]:
        """The seat's mixed action at ``view`` (decoded from its observation)."""
        assert self.equilibrium is not None
        return self.equilibrium.distribution(view)

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.context is None or self.equilibrium is None:
            raise RuntimeError(f"{self.name}: call bind(env) before choose()")
        key = np.asarray(observation, dtype=np.float32).tobytes()
        cached = self._cache.get(key)
        if cached is None:
            view = decode_view(observation, self.context.rules, starting_chips=self.context.starting_chips)
            if not view.legal:  # a finished table (the ignored row of a NEXT_STEP reset)
                return idle_index(action_mask)
            dist = self.distribution(view)
            indices = []
            table = self.context.action_table
            for action in dist:
                index = table.to_index(action, view)
                if table.to_action(index, view) != action:
                    raise ValueError(f"{self.name}: the env's action table has no index for {action} (its "
                                     f"nearest is {table.to_action(index, view)}); use the default levels")
                indices.append(index)
            probs = np.array(list(dist.values()), dtype=np.float64)
            cached = (tuple(indices), probs / probs.sum())
            if len(self._cache) < 1_000_000:
                self._cache[key] = cached
        indices, probs = cached
        index = indices[0] if len(indices) == 1 else indices[int(rng.choice(len(indices), p=probs))]
        if not action_mask[index]:
            raise RuntimeError(f"{self.name}: chose index {index}, which the mask forbids")
        return int(index)

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator
                     ) -> np.ndarray:
        """Row by row, each distinct observation decoded once (cached)."""
        return np.array([self.choose(o, m, rng) for o, m in zip(observations, action_masks)], dtype=np.int64)


__all__ = ["EquilibriumAgent", "equilibrium_for"]
