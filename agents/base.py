"""The checkout's agents are policies of the package's one interface: an :class:`Agent` is an
:class:`~shoot_pontoon_env.models.player.ObservationPolicy` (observation and action mask in, action
index out, explicit Generator: ``choose``, and ``choose_batch`` for a batch), so the same object acts
for the learning seat, in evaluation (``evaluate``), and, being a
:class:`~shoot_pontoon_env.players.policy.Policy`, as a table opponent, at the whole table and in the
solver's best responses. Agents that read the observation (rule-based ones) are bound to an env's
configuration first (``bind``), since the observation's scale and the action table depend on the
rules and the table size.
"""

from __future__ import annotations

import numpy as np

from shoot_pontoon_env.models.player import EnvContext, ObservationPolicy, idle_index
from shoot_pontoon_env.vector.policy import BatchPlayer

__all__ = ["Agent", "EnvContext", "RandomAgent", "idle_index"]


class Agent(ObservationPolicy):
    """Base class of the checkout's agents. Subclasses implement :meth:`choose` (and may implement
    :meth:`choose_batch`, setting ``batched``); :meth:`bind` is called before the first choice.
    :meth:`batch_player` says how the batched engine plays the agent's seat by itself."""

    name = "agent"

    def __init__(self) -> None:
        super().__init__()


class RandomAgent(Agent):
    """Uniform over the legal action indices."""

    name = "random"
    batched = True

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            return idle_index(action_mask)
        return int(legal[rng.integers(len(legal))])

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
        """Uniform over each row's mask; a row whose mask is empty gets 0 (argmax of zeros)."""
        masks = np.asarray(action_masks, dtype=bool)
        return np.argmax(rng.random(masks.shape) * masks, axis=1)

    def batch_player(self) -> BatchPlayer:
        return BatchPlayer.uniform()
