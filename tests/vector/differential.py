"""The differential harness: N scalar envs and one batch of N tables fed the same shoe orders and the
same actions, compared at every step (a unique module name: tests/ has no packages).

The scalar envs are the reference. Their tables' shoes record every order a shuffle or a restock
produces; those orders are queued for the matching batched table (fed mode), so both deal the same
cards. Actions are drawn from the scalar env's mask (now and then an illegal one, which forfeits).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.engine import table as table_module
from shoot_pontoon_env.engine.view import SeatView
from shoot_pontoon_env.shoe import FULL_PACK, Shoe
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.vector import kernel_evaluation
from shoot_pontoon_env.vector.tables import TableBatch
from shoot_pontoon_env.vector.layout import AP_NONE
from shoot_pontoon_env.vector.policy import NO_POLICY, BatchPlayer
from shoot_pontoon_env.vector.readout import batch_facts, batch_hands, batch_seat_view


class RecordingShoe(Shoe):
    """A Shoe that keeps a copy of every order its shuffles and restocks produce."""

    def __init__(self, num_decks: int, key: int | None = None, pack: Sequence[int] = FULL_PACK) -> None:
        super().__init__(num_decks, key, pack)
        self.recorded: list[np.ndarray] = []

    def shuffle(self, rng: np.random.Generator) -> None:
        super().shuffle(rng)
        self.recorded.append(self.order.copy())

    def restock(self, live_cards, rng: np.random.Generator) -> None:
        super().restock(live_cards, rng)
        self.recorded.append(self.order.copy())


class Differential:
    """``num_tables`` scalar envs of ``env_id`` / ``kwargs`` beside one fed TableBatch."""

    feed_capacity = 8
    """Shoe orders a table can queue: the shuffles of the deals one step can pass."""

    def __init__(self, env_id: str, kwargs: dict[str, Any], num_tables: int, seed: int,
                 illegal_rate: float = 0.02, agent: Policy | None = None) -> None:
        self.envs = [gym.make(env_id, **kwargs, engine="table").unwrapped for _ in range(num_tables)]
        self.agent = agent
        player = BatchPlayer.of_strategy(agent, self.envs[0].rules) if agent is not None else None
        if agent is not None and player is None:
            raise ValueError(f"{agent!r} cannot be played by the batched engine")
        self.batch = TableBatch(self.envs[0].config, num_tables, feed_capacity=self.feed_capacity,
                                autopilot=(player.mode, player.strategy) if player else (AP_NONE, None),
                                policy=player.policy if player else NO_POLICY)
        self.rng = np.random.default_rng(seed)
        self.batch_rng = np.random.default_rng(seed + 1)
        self.seed = seed
        self.illegal_rate = illegal_rate
        self.seen: list[tuple[int, int]] = [(0, 0)] * num_tables  # (id of the shoe, orders fed)
        self.done = np.zeros(num_tables, dtype=bool)
        self.steps = 0
        self.episodes = 0

    # ------------------------------------------------------------------ feeding
    def _feed(self, i: int) -> None:
        shoe = self.envs[i].episode.table.shoe
        shoe_id, fed = self.seen[i]
        if shoe_id != id(shoe):
            fed = 0
        new = shoe.recorded[fed:]
        if new:
            self.batch.feed(i, new)
        self.seen[i] = (id(shoe), len(shoe.recorded))

    # ------------------------------------------------------------------ driving
    def reset(self) -> None:
        first = []
        for i, env in enumerate(self.envs):
            first.append(env.reset(seed=self.seed * 1000 + i))
            self._feed(i)
        self.batch.reset(self.batch_rng, carry=False)
        for i, (obs, info) in enumerate(first):
            self.compare(i, obs, None, False, info)
        self.done[:] = False

    def _choose(self, env) -> int:
        if self.agent is not None:  # the strategy on the table's real view, as the kernel plays it
            view = env.view
            return env.action_table.to_index(self.agent.act(view, self.rng), view)
        mask = env.action_masks()
        legal = np.flatnonzero(mask)
        illegal = np.flatnonzero(~mask)
        if illegal.size and self.rng.random() < self.illegal_rate:
            return int(self.rng.choice(illegal))
        return int(self.rng.choice(legal))

    def step(self) -> None:
        actions = np.zeros(len(self.envs), dtype=np.int64)
        chosen = np.zeros(len(self.envs), dtype=np.int64)
        if self.agent is not None:
            c = self.batch.config
            kernel_evaluation.choose_actions(self.batch.t, self.batch.k8, c.c, c.f, self.batch.policy,
                                             self.batch.mask, chosen, self.batch.rng_handle(self.batch_rng),
                                             self.batch.scratch)
        results = []
        for i, env in enumerate(self.envs):
            if self.done[i]:
                obs, info = env.reset()
                results.append((obs, 0.0, False, info))
                self.episodes += 1
            else:
                actions[i] = self._choose(env)
                if self.agent is not None:
                    assert chosen[i] == actions[i], (
                        f"table {i}, step {self.steps}: {self.agent!r} chose {actions[i]} on the table's view, "
                        f"the batched engine {chosen[i]}")
                obs, reward, terminated, truncated, info = env.step(actions[i])
                assert not truncated
                results.append((obs, reward, terminated, info))
            self._feed(i)
        self.batch.step(actions, self.done.copy(), self.batch_rng)
        for i, (obs, reward, terminated, info) in enumerate(results):
            self.compare(i, obs, reward, terminated, info)
            assert self.batch.fed_pending(i) == 0, f"table {i}: fed orders left unused"
        self.done = np.array([r[2] for r in results])
        self.steps += 1

    def run(self, steps: int | None, episodes: int | None) -> None:
        """At least ``steps`` steps, or until ``episodes`` episodes have ended."""
        self.reset()
        while (steps is not None and self.steps < steps) or (episodes is not None and self.episodes < episodes):
            self.step()

    # ------------------------------------------------------------------ comparing
    def compare(self, i: int, obs: np.ndarray, reward: float | None, terminated: bool, info: dict) -> None:
        """The table engine's episode (through the Episode interface, ``seat/episode.py``) against table
        ``i`` of the batch (read back by ``vector/readout.py``)."""
        env, batch = self.envs[i], self.batch
        episode = env.episode
        where = f"table {i}, step {self.steps} ({env.rules.name}, seat {env.seat})"
        different = np.flatnonzero(obs != batch.obs[i])
        assert different.size == 0, f"{where}: observation differs at {different.tolist()}: " \
                                    f"scalar {obs[different].tolist()}, batch {batch.obs[i][different].tolist()}"
        assert np.array_equal(info["action_mask"], batch.mask[i]), f"{where}: mask differs"
        if reward is not None:
            assert np.float32(reward) == batch.rewards[i], f"{where}: reward {reward} != {batch.rewards[i]}"
            assert bool(terminated) == bool(batch.terminated[i]), f"{where}: termination differs"
            assert bool(info["illegal_action"]) == bool(batch.illegal[i]), f"{where}: illegal flag differs"
        assert info["deal"] == batch.deals[i], f"{where}: deal counter differs"
        assert episode.facts() == batch_facts(batch, i), \
            f"{where}: the table differs:\n{episode.facts()}\n{batch_facts(batch, i)}"
        assert batch_hands(batch, i) == episode.hands(), f"{where}: hands differ"
        view = batch_seat_view(batch, env.rules, i)
        assert views_equal(view, episode.view), f"{where}: the seat's view differs:\n{view}\n{episode.view}"


def views_equal(a: SeatView, b: SeatView) -> bool:
    """Field by field, with the same types (the rank counts as int64 arrays)."""
    return all(type(x) is type(y) and (np.array_equal(x, y) and x.dtype == y.dtype if isinstance(x, np.ndarray)
                                       else x == y and (not isinstance(x, tuple) or views_equal(x, y)))
               for x, y in zip(a, b, strict=True))


def run_differential(env_id: str, kwargs: dict[str, Any], *, tables: int, seed: int, steps: int | None = None,
                     episodes: int | None = None, agent: Policy | None = None) -> Differential:
    """Play ``steps`` steps, or ``episodes`` episodes, at ``tables`` tables (episodes reset as they end)
    and compare every step."""
    original = table_module.Shoe
    table_module.Shoe = RecordingShoe
    try:
        diff = Differential(env_id, kwargs, tables, seed, agent=agent)
        diff.run(steps, episodes)
    finally:
        table_module.Shoe = original
    return diff
