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

from shoot_pontoon_env.models.player import EnvContext, ObservationPolicy, UniformPolicy, idle_index

__all__ = ["Agent", "EnvContext", "RandomAgent", "idle_index"]


class Agent(ObservationPolicy):
    """Base class of the checkout's agents. Subclasses implement :meth:`choose` (and may implement
    :meth:`choose_batch`, setting ``batched``); :meth:`bind` is called before the first choice.
    :meth:`batch_player` says how the batched engine plays the agent's seat by itself."""

    name = "agent"


class RandomAgent(UniformPolicy, Agent):
    """Uniform over the legal action indices (the library's ``models.player.UniformPolicy``)."""
