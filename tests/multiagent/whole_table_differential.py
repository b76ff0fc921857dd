"""The whole-table differential harness: N reference episodes on the Table and one WholeTableBatch of
N tables fed the same shoe orders and the same actions, compared at every step (a unique module
name: tests/ has no packages).

The Table is the reference (``ShootPontoonAECEnv(engine="table")``'s episode, through the episode
interface of ``multiagent/episodes.py``). Its shoes record every order a shuffle or restock makes,
and those orders are queued for the matching batched table (fed mode), so both deal the same cards.
Each step the seat to act plays an index drawn from the reference's mask (now and then an illegal
one, which forfeits); seats played by table players are played by each engine's own code.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from shoot_pontoon_env.engine import table as table_module
from shoot_pontoon_env.models.mlp import ActorArrays
from shoot_pontoon_env.models.player import ActorPlayer
from shoot_pontoon_env.rules import Rules
from shoot_pontoon_env.seat.action_table import ActionTable
from shoot_pontoon_env.seat.encoding import ObservationEncoder
from shoot_pontoon_env.seat.features import COMPACT_SIZE
from shoot_pontoon_env.multiagent.config import first_banker_of, whole_table_settings
from shoot_pontoon_env.multiagent.episodes import ReferenceWholeTable
from shoot_pontoon_env.vector.readout import batch_hands
from shoot_pontoon_env.vector.whole_table import WholeTableBatch

sys.path.insert(0, str(Path(__file__).parents[1] / "vector"))
from differential import RecordingShoe, views_equal  # noqa: E402  (the single seat's harness: one recorder)


class WholeTableDifferential:
    """``num_tables`` reference episodes of the whole-table ``kwargs`` beside one fed WholeTableBatch."""

    feed_capacity = 8

    def __init__(self, kwargs: Mapping[str, Any], num_tables: int, seed: int, illegal_rate: float = 0.02) -> None:
        self.settings = whole_table_settings(**kwargs)
        config = self.settings.config
        self.refs = [ReferenceWholeTable(config, self.settings.learners) for _ in range(num_tables)]
        self.batch = WholeTableBatch(config, self.settings.learners, num_tables, feed_capacity=self.feed_capacity)
        self.rngs = [np.random.default_rng(seed * 1000 + i) for i in range(num_tables)]
        self.choice_rng = np.random.default_rng(seed)
        self.batch_rng = np.random.default_rng(seed + 1)
        self.illegal_rate = illegal_rate
        self.seen: list[tuple[int, int]] = [(0, 0)] * num_tables
        self.done = np.zeros(num_tables, dtype=bool)
        self.steps = 0
        self.episodes = 0
        self.decisions = np.zeros(config.num_players, dtype=np.int64)

    def _feed(self, i: int) -> None:
        shoe = self.refs[i].table.shoe
        shoe_id, fed = self.seen[i]
        if shoe_id != id(shoe):
            fed = 0
        if shoe.recorded[fed:]:
            self.batch.feed(i, shoe.recorded[fed:])
        self.seen[i] = (id(shoe), len(shoe.recorded))

    def _reset_ref(self, i: int, carry: bool) -> None:
        banker = first_banker_of(self.settings, self.rngs[i])
        self.refs[i].reset(self.rngs[i], banker, carry=carry)
        self.batch.bankers[i] = banker

    def reset(self) -> None:
        for i in range(len(self.refs)):
            self._reset_ref(i, carry=False)
            self._feed(i)
        self.batch.reset(self.batch_rng, carry=False)
        for i in range(len(self.refs)):
            self.compare(i, None, False)
        self.done[:] = False

    def _choose(self, ref: ReferenceWholeTable) -> tuple[int, bool]:
        _, mask = ref.observe(ref.to_act)
        legal, illegal = np.flatnonzero(mask), np.flatnonzero(mask == 0)
        if illegal.size and self.choice_rng.random() < self.illegal_rate:
            return int(self.choice_rng.choice(illegal)), True
        return int(self.choice_rng.choice(legal)), False

    def step(self) -> None:
        actions = np.zeros(len(self.refs), dtype=np.int64)
        results: list[tuple[list[float] | None, bool]] = []
        for i, ref in enumerate(self.refs):
            if self.done[i]:
                self._reset_ref(i, carry=True)
                results.append((None, False))
                self.episodes += 1
            else:
                self.decisions[ref.to_act] += 1
                actions[i], illegal = self._choose(ref)
                results.append(ref.step(int(actions[i]), self.rngs[i]))  # the episode judges the index itself
                assert ref.illegal == illegal, f"table {i}: the episode judged index {actions[i]} otherwise"
            self._feed(i)
        self.batch.step(actions, self.done.copy(), self.batch_rng)
        for i, (rewards, over) in enumerate(results):
            self.compare(i, rewards, over)
            assert self.batch.fed_pending(i) == 0, f"table {i}: fed orders left unused"
        self.done = np.array([over for _, over in results])
        self.steps += 1

    def run(self, steps: int | None = None, episodes: int | None = None) -> None:
        self.reset()
        while (steps is not None and self.steps < steps) or (episodes is not None and self.episodes < episodes):
            self.step()

    def compare(self, i: int, rewards: list[float] | None, over: bool) -> None:
        """Reference episode i against table i of the batch: the seat to act, every seat's observation
        and mask, the rewards, the chips, the hands and every seat's view."""
        ref, batch = self.refs[i], self.batch
        where = f"table {i}, step {self.steps} ({ref.config.rules.name})"
        to_act = ref.to_act if not over else None
        assert (batch.seats[i] if batch.seats[i] >= 0 else None) == to_act, \
            f"{where}: seat to act {batch.seats[i]} != {to_act}"
        assert bool(batch.terminated[i]) == over, f"{where}: termination differs"
        if rewards is not None:
            assert np.array_equal(np.float32(rewards), batch.rewards[i]), \
                f"{where}: rewards {rewards} != {batch.rewards[i].tolist()}"
        else:
            assert not batch.rewards[i].any(), f"{where}: a reset's rewards are not zero"
        row = np.zeros_like(batch.obs[i])
        mask = np.zeros_like(batch.mask[i])
        for seat in range(ref.config.num_players):
            obs, ref_mask = ref.observe(seat)
            batch.observe(i, seat, row, mask)
            different = np.flatnonzero(obs != row)
            assert different.size == 0, f"{where}: seat {seat}'s observation differs at {different.tolist()}: " \
                                        f"table {obs[different].tolist()}, batch {row[different].tolist()}"
            assert np.array_equal(ref_mask.astype(bool), mask), f"{where}: seat {seat}'s mask differs"
            assert views_equal(ref.seat_view(seat), batch.seat_view(i, seat)), f"{where}: seat {seat}'s view differs"
            if seat == to_act:
                assert np.array_equal(obs, batch.obs[i]) and np.array_equal(mask, batch.mask[i]), \
                    f"{where}: the seat to act's rows differ"
        if over:
            assert batch.mask[i].all(), f"{where}: a finished table's mask must allow every index"
        table = ref.table
        assert ref.deals == batch.deals[i], f"{where}: deals differ"
        assert tuple(table.balances) == tuple(batch.balances[i].tolist()), f"{where}: balances differ"
        assert (table.shoot, table.reserve, table.banker) == (batch.shoot[i], batch.reserve[i], batch.banker[i]), \
            f"{where}: the Shoot, the reserve or the bank differs"
        assert table.total_chips == batch.total_chips()[i] == ref.config.num_players * ref.config.starting_chips, \
            f"{where}: chips differ or were not conserved"
        assert batch_hands(batch, i) == table.hands, f"{where}: hands differ"


def run_whole_table_differential(kwargs: Mapping[str, Any], *, tables: int, seed: int, steps: int | None = None,
                                 episodes: int | None = None) -> WholeTableDifferential:
    """Play ``steps`` steps, or ``episodes`` episodes, at ``tables`` tables, comparing every step."""
    original = table_module.Shoe
    table_module.Shoe = RecordingShoe
    try:
        diff = WholeTableDifferential(kwargs, tables, seed)
        diff.run(steps, episodes)
    finally:
        table_module.Shoe = original
    return diff


def random_actor(inputs: int, hidden: tuple[int, ...], actions: int, seed: int, masked: bool = True) -> ActorArrays:
    """A small network of random weights, large enough that its choices depend on the observation."""
    rng = np.random.default_rng(seed)
    sizes = [inputs, *hidden, actions]
    weights = tuple(rng.normal(0.0, 2.0 / np.sqrt(a), (a, b)) for a, b in zip(sizes, sizes[1:]))
    biases = tuple(rng.normal(0.0, 0.5, b) for b in sizes[1:])
    return ActorArrays(weights, biases, masked)


def random_network_player(rules: Rules, num_players: int, action_table: ActionTable, seed: int, *,
                          observation: str = "flat", hidden: tuple[int, ...] = (16, 16), starting_chips: int = 1000,
                          masked: bool = True, name: str | None = None) -> ActorPlayer:
    """An ActorPlayer of a random network reading the ``observation`` of its seat (no torch, no file)."""
    inputs = COMPACT_SIZE if observation == "compact" else ObservationEncoder(rules, num_players).size
    actor = random_actor(inputs, hidden, len(action_table), seed, masked)
    return ActorPlayer(actor, rules, num_players, starting_chips, action_table,
                       name or f"random-{observation}-{seed}", observation=observation)
