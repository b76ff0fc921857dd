"""A league of table players for self-play: rule-based anchors and frozen snapshots of learnt policies,
one pool per role, sampled anew for every episode so that no learner can overfit one opponent."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from agents.base import Agent, EnvContext
from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.seat.features import compact_observation


@dataclass
class Pool:
    """Players of one role. ``sample`` returns the newest member with probability ``latest_share``
    and otherwise any member uniformly (the anchors included), as in fictitious self-play."""

    members: list[Policy] = field(default_factory=list)
    latest_share: float = 0.5

    def add(self, player: Policy) -> None:
        self.members.append(player)

    def sample(self, rng: np.random.Generator) -> Policy:
        if not self.members:
            raise ValueError("the pool has no players")
        if len(self.members) > 1 and rng.random() < self.latest_share:
            return self.members[-1]
        return self.members[int(rng.integers(len(self.members)))]

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.members]

    @classmethod
    def of(cls, anchors: list[str], latest_share: float) -> Pool:
        return cls([make_policy(name) for name in anchors], latest_share)


class FrozenPolicy(Agent):
    """A copy of a MaskablePPO policy's actor (``model.policy``) as NumPy arrays: the deterministic masked action (the
    argmax of the logits over legal actions, what ``model.predict(deterministic=True)`` returns) at a
    fraction of the cost of a torch call, which matters when every opponent decision asks a policy.
    Later training of the model does not change the copy."""

    ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}

    def __init__(self, policy: Any, observation: str, name: str) -> None:
        super().__init__()
        import torch

        extractor = type(policy.features_extractor).__name__
        activation = policy.activation_fn.__name__
        if extractor != "FlattenExtractor" or activation not in self.ACTIVATIONS or not policy.share_features_extractor:
            raise ValueError(f"{name}: a frozen copy needs an MLP policy with a flat input and Tanh or ReLU "
                             f"(got {extractor}, {activation})")
        linear = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
        linear.append(policy.action_net)
        self.layers = [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
                       for m in linear]
        self.activation = self.ACTIVATIONS[activation]
        self.observation = observation
        self.name = name

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x = np.asarray(observation, dtype=np.float32)
        if self.observation == "compact":
            x = compact_observation(x)
        for i, (weight, bias) in enumerate(self.layers):
            x = x @ weight + bias
            if i < len(self.layers) - 1:
                x = self.activation(x)
        return x

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        logits = np.where(action_mask, self.logits(observation), -np.inf)
        return int(np.argmax(logits))


def snapshot_player(policy: Any, observation: str, env_id: str, env_kwargs: dict[str, Any], name: str) -> Policy:
    """A frozen copy of ``policy`` (a model's ``policy``) as a table player in an env of ``env_id`` (its own seat's action
    table and observation encoding: the same as in training)."""
    return FrozenPolicy(policy, observation, name).bind(EnvContext.of(gym.make(env_id, **env_kwargs)))


class LeagueOpponents(gym.Wrapper):
    """Before every episode, seat a player drawn from its role's pool at each opponent seat.

    ``seats`` maps a seat to its pool; the env's table players (``env.unwrapped.players``) are
    replaced in place, so the pools may grow between episodes (the trainer adds snapshots)."""

    def __init__(self, env: gym.Env, seats: dict[int, Pool], rng: np.random.Generator) -> None:
        super().__init__(env)
        self.seats = seats
        self.rng = rng

    def reset(self, **kwargs: Any):
        players = self.env.unwrapped.players
        for seat, pool in self.seats.items():
            players[seat] = pool.sample(self.rng)
        return self.env.reset(**kwargs)
