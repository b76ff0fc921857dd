"""A whole-table seat's two roles as the single-seat envs see them, so that a policy learnt at the
whole table is a ``ShootPontoon-v0`` punter or a ``ShootPontoonBanker-v0`` banker model like any other.

The whole table's action table is the punter's followed by the banker's keep and sell (see
``multiagent.config.seat_action_table``), and every seat's observation is the same encoder's row as
the single-seat envs'. A role's policy therefore reads the row (or the punter's compact features of
it) and answers an index of its own env's action table, which :class:`RoleSpace` maps to the seat's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.seat import encoding as enc
from shoot_pontoon_env.seat.features import CF_EPISODE, compact_observation
from shoot_pontoon_env.seat.action_table import ActionTable

ENV_IDS = {"punter": "ShootPontoon-v0", "banker": "ShootPontoonBanker-v0"}


@dataclass(frozen=True, eq=False)
class RoleSpace:
    """One role's inputs and actions at a whole table. ``indices[j]``: the seat action of the role
    env's action ``j``."""

    role: str
    env_id: str
    env_kwargs: dict[str, Any]
    observation: str
    indices: np.ndarray
    observation_space: gym.spaces.Box
    action_space: gym.spaces.Discrete
    scale: np.ndarray | None = None
    """Per-feature factors of the row the network reads (a flat row's unbounded chip counts scaled
    down, so that a table of big stakes does not saturate the first layer; 0 at a part it ignores); a
    saved model has them folded into its first layers (:func:`fold_scale`), so it reads the env's own row."""

    def inputs(self, rows: np.ndarray) -> np.ndarray:
        if self.observation == "compact":
            rows = compact_observation(rows)
        return rows * self.scale if self.scale is not None else rows

    def masks(self, seat_masks: np.ndarray) -> np.ndarray:
        """The role env's masks of these seat masks; a legal seat action the role lacks is an error
        (the trainer would otherwise sample an action the table forbids)."""
        role_masks = seat_masks[:, self.indices]
        outside = seat_masks.sum(axis=1) != role_masks.sum(axis=1)
        if outside.any():
            row = int(np.flatnonzero(outside)[0])
            raise ValueError(f"a {self.role} decision whose legal actions {np.flatnonzero(seat_masks[row]).tolist()} "
                             f"are not all the {self.role}'s ({self.indices.tolist()})")
        return role_masks

    def make_env(self) -> gym.Env:
        return gym.make(self.env_id, **self.env_kwargs, **({"observation": "compact"}
                                                            if self.observation == "compact" else {}))


def seat_indices(seat_table: ActionTable, role_table: ActionTable, what: str) -> np.ndarray:
    """Where each action of ``role_table`` sits in ``seat_table`` (by label)."""
    labels = list(seat_table.labels)
    missing = [label for label in role_table.labels if label not in labels]
    if missing:
        raise ValueError(f"{what}: actions {missing} are not the whole table's ({labels})")
    return np.array([labels.index(label) for label in role_table.labels], dtype=np.int64)


IGNORABLE = ("deals_left", "balance")
"""Parts of a row a network may be made blind to (``train.table_selfplay``'s ``ignores``)."""


def ignored_columns(observation: str, ignores: Sequence[str]) -> list[int]:
    """The columns of a ``compact`` or ``flat`` row that hold the ``ignores`` parts."""
    columns = {"compact": {"deals_left": CF_EPISODE},
               "flat": {"deals_left": enc.EPISODE.start, "balance": enc.CHIP_BALANCE}}[observation]
    return [columns[part] for part in ignores]


CHIP_FEATURE = 2.0
"""A flat feature whose bound exceeds this is a count of chips (in base stakes), unbounded in play."""
CHIP_SCALE = 1.0 / 20.0


def role_space(role: str, seat_table: ActionTable, env_kwargs: dict[str, Any], observation: str,
               ignores: Sequence[str] = (), chip_scale: float = CHIP_SCALE) -> RoleSpace:
    """The role's env (``ENV_IDS[role]`` with ``env_kwargs``) and its place in the seat's actions; the
    network reads the ``ignores`` parts of its row as zeros (its scale is 0 there) and a flat row's
    chip counts times ``chip_scale``."""
    env = gym.make(ENV_IDS[role], **env_kwargs).unwrapped
    space = env.observation_space
    scale = None
    if observation == "compact":
        space = gym.make(ENV_IDS[role], **env_kwargs, observation="compact").observation_space
        if ignores:
            scale = np.ones(space.shape[0], dtype=np.float32)
    else:
        scale = np.where(np.maximum(np.abs(space.low), np.abs(space.high)) > CHIP_FEATURE, chip_scale,
                         1.0).astype(np.float32)
    if ignores:
        scale[ignored_columns(observation, ignores)] = 0.0
    return RoleSpace(role, ENV_IDS[role], dict(env_kwargs), observation,
                     seat_indices(seat_table, env.action_table, f"{ENV_IDS[role]} {env_kwargs}"), space,
                     env.action_space, scale)


def fold_scale(policy: Any, scale: np.ndarray) -> None:
    """Multiply the input columns of the policy's first layers (actor and critic) by ``scale``: the
    network then reads raw rows as it read scaled ones (``W (x * s) = (W * s) x``)."""
    import torch

    with torch.no_grad():
        factors = torch.as_tensor(scale)
        for net in (policy.mlp_extractor.policy_net, policy.mlp_extractor.value_net):
            first = next(m for m in net if isinstance(m, torch.nn.Linear))
            first.weight.mul_(factors)


Actor = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Seat observations (flat rows) and seat masks -> seat action indices."""


def agent_actor(agent: Any, seat_table: ActionTable, env: gym.Env, rng: np.random.Generator) -> Actor:
    """Any batched agent of ``agents/`` (a trained model, ``zoo:NAME``), bound to ``env``, the env it
    was made for (``make_agent`` binds it), playing whole-table seats through that env's action table."""
    base = env.unwrapped
    indices = seat_indices(seat_table, base.action_table, f"{agent.name} ({base.spec.id if base.spec else base})")

    def act(rows: np.ndarray, seat_masks: np.ndarray) -> np.ndarray:
        masks = seat_masks[:, indices]
        if not masks.any(axis=1).all():
            raise ValueError(f"{agent.name}: a decision with none of its actions legal")
        return indices[agent.choose_batch(rows, masks, rng)]

    return act
