"""The one policy interface: observation and action mask in, action index out, explicit Generator.

The same object acts for the learning seat, as a table opponent (``agents.as_player``) and in
evaluation (``evaluate``). Policies that need to read the observation (rule-based ones) are bound
to an environment's configuration first, since the observation's scale and the action table
depend on the rules and the table size.
"""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import numpy as np

from shoot_pontoon_env.seat.action_table import ActionTable
from shoot_pontoon_env.rules import Rules
from shoot_pontoon_env.vector.policy import BatchPlayer


@dataclass(frozen=True)
class EnvContext:
    """What a policy needs to know about the environment it acts in."""

    rules: Rules
    action_table: ActionTable
    starting_chips: int
    num_players: int
    observation_space: gym.Space | None = None
    """The env's own (flat) observation space; trained policies are rebuilt for it."""
    action_space: gym.Space | None = None
    env_id: str | None = None

    @classmethod
    def of(cls, env: gym.Env) -> EnvContext:
        base = env.unwrapped
        return cls(rules=base.rules, action_table=base.action_table, starting_chips=base.starting_chips,
                   num_players=base.num_players, observation_space=base.observation_space,
                   action_space=base.action_space, env_id=base.spec.id if base.spec is not None else None)


def idle_index(action_mask: np.ndarray) -> int:
    """The index an agent answers for a row with no decision pending, instead of raising: the row of a
    table that a ``NEXT_STEP`` vector env resets on this step (it ignores that action and hands a mask
    that allows every index) or an empty mask. The first index the mask allows, else 0."""
    legal = np.flatnonzero(action_mask)
    return int(legal[0]) if len(legal) else 0


class Agent:
    """Base class. Subclasses implement :meth:`act`; :meth:`bind` is called before the first act."""

    name = "agent"

    def __init__(self) -> None:
        self.context: EnvContext | None = None

    def bind(self, context: EnvContext | gym.Env) -> Agent:
        self.context = context if isinstance(context, EnvContext) else EnvContext.of(context)
        return self

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        raise NotImplementedError

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One action index per row of a batch (many tables at once). This default asks :meth:`act`
        row by row; agents that can act on the whole batch at once override it and set ``batched``.
        A row with no decision pending (see :func:`idle_index`) gets a valid index, never an error."""
        return np.array([self.act(o, m, rng) for o, m in zip(observations, action_masks)], dtype=np.int64)

    batched = False
    """Whether :meth:`act_batch` acts on the whole batch at once (the batched evaluation uses it)."""

    def batch_player(self) -> BatchPlayer | None:
        """How the batched engine can play this agent's seat by itself, with no Python per step (a
        rule-based player, a solver's policy table, uniform over the mask), or None."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class RandomAgent(Agent):
    """Uniform over the legal action indices."""

    name = "random"
    batched = True

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            return idle_index(action_mask)
        return int(legal[rng.integers(len(legal))])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Uniform over each row's mask; a row whose mask is empty gets 0 (argmax of zeros)."""
        masks = np.asarray(action_masks, dtype=bool)
        return np.argmax(rng.random(masks.shape) * masks, axis=1)

    def batch_player(self) -> BatchPlayer:
        return BatchPlayer.uniform()
