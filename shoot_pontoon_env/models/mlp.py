"""A trained policy's actor as plain numpy arrays: the layers the network computes its action logits
with, the deterministic action it takes and a sampled one (drawn with a numpy Generator), without torch.

The package's loader rebuilds every model as SB3's ``ActorCriticPolicy`` (or sb3-contrib's maskable
one) from a ``net_arch`` with SB3's defaults: a flatten feature extractor, tanh between the layers,
one linear action head. :class:`ActorArrays` copies those weights out (checked against that shape, so
a policy of another shape is refused rather than misread) and computes the same logits in float64.
Its logits are torch's up to float32 rounding (a near-tie could in principle rank otherwise; none
did on the zoo models' observations). It is what the table plays a trained model with where one decision is asked at a time (the solver's
enumeration asks hundreds of thousands), about 50 times faster than a torch call per decision;
tests/agents/test_actor_arrays.py holds its actions equal to torch's on the zoo models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

MASKED_LOGIT = -np.inf
"""An illegal action's logit: it is never the argmax while a legal action exists."""


@dataclass(frozen=True)
class ActorArrays:
    """The actor of a policy: ``tanh(x @ W + b)`` per hidden layer, then the action head's logits."""

    weights: tuple[np.ndarray, ...]
    """(inputs, outputs) float64 matrices, the hidden layers' and last the action head's."""
    biases: tuple[np.ndarray, ...]
    masked: bool
    """True for a maskable policy: illegal actions are never chosen (PPO's are not masked)."""

    @classmethod
    def of_policy(cls, policy: Any, masked: bool) -> ActorArrays:
        """Copy the actor of an SB3 actor-critic policy built by ``safe_load.build_policy``; a policy of
        another shape (a feature extractor other than flatten, an activation other than tanh, separate
        feature extractors) is refused with a ValueError naming what differs."""
        import torch.nn as nn
        from stable_baselines3.common.torch_layers import FlattenExtractor

        if not isinstance(policy.pi_features_extractor, FlattenExtractor):
            raise ValueError(f"features extractor {type(policy.pi_features_extractor).__name__}: expected "
                             "FlattenExtractor")
        layers: list[nn.Linear] = []
        for module in policy.mlp_extractor.policy_net:
            if isinstance(module, nn.Linear):
                layers.append(module)
            elif not isinstance(module, nn.Tanh):
                raise ValueError(f"policy layer {type(module).__name__}: expected Linear and Tanh layers")
        layers.append(policy.action_net)
        weights = tuple(layer.weight.detach().cpu().double().numpy().T.copy() for layer in layers)
        biases = tuple(layer.bias.detach().cpu().double().numpy().copy() for layer in layers)
        return cls(weights, biases, masked)

    @property
    def num_inputs(self) -> int:
        return self.weights[0].shape[0]

    @property
    def num_actions(self) -> int:
        return self.weights[-1].shape[1]

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """The action logits of one observation (or one row per observation of a batch)."""
        x = np.asarray(observations, dtype=np.float64)
        for w, b in zip(self.weights[:-1], self.biases[:-1]):
            x = np.tanh(x @ w + b)
        return x @ self.weights[-1] + self.biases[-1]

    def act(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray | int:
        """The deterministic action: the largest logit, among the legal actions where the policy is
        maskable (first index on a tie, as torch's argmax)."""
        return self._best(self.logits(observations), action_masks)

    def sample(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray | int:
        """An action drawn with the policy's chances (the softmax of its logits, over the legal actions
        where the policy is maskable), by Gumbel-max with ``rng``: the stochastic policy PPO trains,
        replayed by the Generator's seed (SB3's ``predict(deterministic=False)`` draws with torch's
        global generator instead)."""
        logits = self.logits(observations)
        gumbel = -np.log(-np.log(np.clip(rng.random(logits.shape), np.finfo(np.float64).tiny, 1.0)))
        return self._best(logits + gumbel, action_masks)

    def _best(self, scores: np.ndarray, action_masks: np.ndarray) -> np.ndarray | int:
        """The action of the largest score, among the legal ones where the policy is maskable."""
        if self.masked:
            scores = np.where(np.asarray(action_masks, dtype=bool), scores, MASKED_LOGIT)
        actions = np.argmax(scores, axis=-1)
        return int(actions) if actions.ndim == 0 else actions
