"""Gymnasium ``VectorEnv`` front doors of the batched engine: ``gym.make_vec(id, num_envs=N)``.

Each class takes the scalar env's arguments (checked by the scalar env's own constructor, so the two
accept exactly the same ones) plus ``num_envs``, ``autoreset_mode`` and ``copy``. Observations, masks
and rewards are exactly those of ``num_envs`` scalar envs (``tests/vector`` holds them to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import IllegalActionError
from .banker import ShootPontoonBankerEnv
from .base import PontoonSeatEnv
from .punter import ShootPontoonEnv
from ..rules import Rules
from ..players.policy import Policy
from .picture import render_rgb
from .render import render_text
from .window import SeatWindow
from ..vector.tables import TableBatch, first_key
from ..vector.readout import batch_facts, batch_seat_view

AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED)


def _check_autoreset(mode: Any) -> AutoresetMode:
    try:
        mode = AutoresetMode(mode)
    except ValueError:
        mode = None
    if mode not in AUTORESET_MODES:
        raise ValueError(f"autoreset_mode = {mode!r}: expected an AutoresetMode or one of "
                         f"{[m.value for m in AUTORESET_MODES]}")
    return mode


VECTOR_RENDER_MODES = ("ansi", "rgb_array")
"""What the batched env draws: a frame per table (``render()`` returns their tuple)."""


def _check_batch_only(render_mode: Any, engine: Any) -> None:
    """The batch draws text or pictures and runs only on the batched engine (``engine``: the scalar
    env's argument, so that the same keyword arguments make both; "auto" and "batched" are what the
    batch is)."""
    if render_mode is not None and render_mode not in VECTOR_RENDER_MODES:
        raise ValueError(f"render_mode = {render_mode!r}: expected None or one of {VECTOR_RENDER_MODES} (a frame "
                         "per table; 'human' is the scalar env's)")
    if engine not in ("auto", "batched"):
        raise ValueError(f"engine = {engine!r}: gym.make_vec's env is the batched engine ('auto' or 'batched'); "
                         "for scalar envs on the Table use vectorization_mode='sync' with engine='table'")


def _seed_keys(seed: Any, num_envs: int) -> tuple[int | None, np.ndarray | None]:
    """``reset``'s seed: an int (one Generator for every table), None, or one int per table (table i is
    shuffled as ``gym.make(id).reset(seed=seed[i])`` shuffles); the Generator's seed and the tables'
    shuffle keys (None: drawn from the Generator)."""
    if seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_))):
        return seed, None
    seeds = list(seed) if isinstance(seed, (list, tuple, np.ndarray)) else None
    if seeds is None or len(seeds) != num_envs or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, (bool, np.bool_)) and s >= 0 for s in seeds):
        raise ValueError(f"seed = {seed!r}: expected None, an int, or a list of {num_envs} non-negative ints "
                         "(one per table)")
    return int(seeds[0]), np.array([first_key(int(s)) for s in seeds], dtype=np.int64)


class PontoonVectorEnv(VectorEnv):
    """``num_envs`` tables of one seat env, stepped together by the batched engine.

    ## Autoreset
    ``autoreset_mode`` (``metadata["autoreset_mode"]``): ``NEXT_STEP`` (Gymnasium's default), the step
    after a termination resets that table and ignores its action; ``SAME_STEP``, a terminated table is
    reset at once, its last observation and info in ``info["final_obs"]`` and ``info["final_info"]``;
    ``DISABLED``, the caller resets finished tables with ``reset(options={"reset_mask": done})``
    before stepping them again (what TorchRL's ``GymWrapper`` prefers: it refuses ``NEXT_STEP``, whose
    reset step ignores the action; docs/ECOSYSTEM.md). As in the scalar env, a terminal step's mask
    allows every index (the reset ignores the action), so every mask row a caller receives holds a
    legal action. A reset without a seed carries a persistent shoe over, as the scalar env's does.

    ## Info
    ``action_mask`` (N, n) bool, ``illegal_action`` (N,) bool and ``deal`` (N,) int64, each with its
    ``_key`` flags (all True), as ``SyncVectorEnv`` batches the scalar env's infos (0-d arrays of those
    dtypes); ``action_masks()`` returns the mask for sb3-contrib.
    """

    metadata = {"render_modes": list(VECTOR_RENDER_MODES), "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, single_env: PontoonSeatEnv, num_envs: int, *, autoreset_mode: Any, copy: bool,
                 render_mode: str | None) -> None:
        if not isinstance(copy, bool):
            raise ValueError(f"copy = {copy!r}: expected True or False")
        self.autoreset_mode = _check_autoreset(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.single_env = single_env
        self.batch = TableBatch(single_env.config, num_envs)
        self.num_envs = self.batch.num_tables
        self.copy = copy
        self.rules: Rules = single_env.rules
        self.action_table = single_env.action_table
        self.encoder = single_env.encoder
        self.seat = single_env.seat
        self.num_players = single_env.num_players
        self.starting_chips = single_env.starting_chips
        self.deals_per_episode = single_env.deals_per_episode
        self.strict = single_env.strict
        self.render_mode = render_mode
        self.single_observation_space = single_env.observation_space
        self.single_action_space: spaces.Discrete = single_env.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._needs_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._flags = np.ones(self.num_envs, dtype=np.bool_)
        self._started = False

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Every table, or with ``options={"reset_mask": m}`` the tables where ``m`` is True (whose
        ``_key`` info flags are the only ones set). ``seed``: an int seeds the one Generator that drives
        every table; a list of one int per table shuffles table i as ``gym.make(id).reset(seed=seed[i])``
        would (its cards; the table players' random draws, where any, come from the Generator, seeded
        with ``seed[0]``)."""
        generator_seed, keys = _seed_keys(seed, self.num_envs)
        which = self._reset_mask(options)
        super().reset(seed=generator_seed)
        self.batch.reset(self.np_random, which, carry=seed is None and self._started, keys=keys)
        self._started = True
        flags = self._flags if which is None else which
        self._needs_reset[flags] = False
        return self._obs(), self._info(self.batch.mask, flags)

    def _reset_mask(self, options: dict[str, Any] | None) -> np.ndarray | None:
        if not options:
            return None
        unknown = sorted(set(options) - {"reset_mask"})
        if unknown:
            raise ValueError(f"reset options {unknown}: expected only 'reset_mask' (a bool per table)")
        mask = np.asarray(options["reset_mask"])
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise ValueError(f"reset option reset_mask of shape {mask.shape} and dtype {mask.dtype}: "
                             f"expected {self.num_envs} bools (one per table)")
        if not self._started and not mask.all():
            raise RuntimeError("the first reset() must reset every table")
        return mask.copy()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = self._actions(actions)
        batch = self.batch
        if self.autoreset_mode == AutoresetMode.DISABLED and self._needs_reset.any():
            waiting = np.flatnonzero(self._needs_reset).tolist()
            raise RuntimeError(f"tables {waiting} finished their episodes: with autoreset_mode DISABLED, "
                               "reset them first (reset(options={'reset_mask': ...}))")
        autoreset = self._needs_reset.copy() if self.autoreset_mode == AutoresetMode.NEXT_STEP else None
        if self.strict:
            self._check_legal(actions, autoreset)
        batch.step(actions, autoreset if autoreset is not None else np.zeros(self.num_envs, np.bool_),
                   self.np_random)
        rewards = batch.rewards.copy()
        terminated = batch.terminated.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
            info = self._info(batch.mask)
            final_obs = np.full(self.num_envs, None, dtype=object)
            finished = np.flatnonzero(terminated)
            final_obs[finished] = list(batch.obs[finished])  # one copy of the rows, then a view of each
            final_info = {key: value.copy() if isinstance(value, np.ndarray) else value
                          for key, value in info.items()}
            batch.reset(self.np_random, terminated, carry=True)
            info = self._info(batch.mask)
            info.update(final_obs=final_obs, _final_obs=terminated.copy(), final_info=final_info,
                        _final_info=terminated.copy())
            return self._obs(), rewards, terminated, truncated, info
        self._needs_reset = terminated.copy()
        return self._obs(), rewards, terminated, truncated, self._info(batch.mask)

    def action_masks(self) -> np.ndarray:
        """The legal action indices of every table, (num_envs, n) booleans (sb3-contrib's hook)."""
        return self.batch.mask.copy()

    def render(self) -> tuple[str, ...] | tuple[np.ndarray, ...] | None:
        """A frame per table, as the scalar env draws it (``render_mode`` "ansi": text; "rgb_array":
        ``(540, 960, 3)`` uint8 pictures), like Gymnasium's own vector envs; None without a render_mode."""
        if self.render_mode is None:
            return None
        if not self._started:
            raise RuntimeError("call reset() before render()")
        draw = render_rgb if self.render_mode == "rgb_array" else render_text
        return tuple(draw(self._window(i)) for i in range(self.num_envs))

    def _window(self, table: int) -> SeatWindow:
        batch = self.batch
        facts = batch_facts(batch, table)
        return SeatWindow(self.rules, self.seat, batch_seat_view(batch, self.rules, table), facts.balances,
                          facts.to_act, None, int(batch.deals[table]), self.deals_per_episode, self.action_table,
                          batch.mask[table], bool(self._needs_reset[table]))

    def close_extras(self, **kwargs: Any) -> None:
        # an __init__ that refused an argument leaves no single_env; Gymnasium 1.2's __del__ still closes
        single_env = getattr(self, "single_env", None)
        if single_env is not None:
            single_env.close()

    # ------------------------------------------------------------------ helpers
    def _obs(self) -> np.ndarray:
        return self.batch.obs.copy() if self.copy else self.batch.obs

    def _info(self, mask: np.ndarray, flags: np.ndarray | None = None) -> dict[str, Any]:
        flags = self._flags if flags is None else flags
        return {"action_mask": mask.copy(), "_action_mask": flags.copy(),
                "illegal_action": self.batch.step_illegal.copy(), "_illegal_action": flags.copy(),
                "deal": self.batch.step_deals.copy(), "_deal": flags.copy()}

    def _actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        n = self.single_action_space.n
        if array.shape != (self.num_envs,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"actions of shape {array.shape} and dtype {array.dtype}: expected "
                             f"{self.num_envs} integer action indices (one per table)")
        if array.size and (array.min() < 0 or array.max() >= n):
            bad = int(np.flatnonzero((array < 0) | (array >= n))[0])
            raise ValueError(f"action {array[bad]!r} of table {bad} is not in the action space Discrete({n})")
        return array.astype(np.int64, copy=False)

    def _check_legal(self, actions: np.ndarray, autoreset: np.ndarray | None) -> None:
        legal = self.batch.mask[np.arange(self.num_envs), actions]
        if autoreset is not None:
            legal |= autoreset
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            allowed = self.action_table.describe(np.flatnonzero(self.batch.mask[i]))
            raise IllegalActionError(f"index {actions[i]} at table {i}", (), f"legal indices: {allowed}")


class ShootPontoonVectorEnv(PontoonVectorEnv):
    """``ShootPontoon-v0`` (and the casino ids) batched: ``gym.make_vec(id, num_envs=N)``.

    ## Description
    ``num_envs`` tables of :class:`~shoot_pontoon_env.envs.punter.ShootPontoonEnv`, each one the agent's
    punter seat among rule-based table players, stepped together by the batched engine. Each table
    plays exactly what the scalar env would (``tests/vector`` compares every step).

    ## Action Space
    ``MultiDiscrete([n] * num_envs)``: one index of the scalar env's ``Discrete(n)`` per table.

    ## Observation Space
    ``Box((num_envs, size), float32)``: the scalar env's observation per row (``observation="flat"``
    or ``"compact"``, written by the kernel).

    ## Rewards
    The scalar env's, per table, as float32.

    ## Starting State
    As the scalar env's; one Generator (``reset(seed=...)``) drives every table, or one seed per table
    (``reset(seed=[...])``) shuffles each as the scalar env with that seed.

    ## Episode End
    As the scalar env's, per table; what follows depends on ``autoreset_mode`` (see the base class).

    ## Arguments
    ``num_envs``, every argument of ``ShootPontoonEnv`` (table players by name, or as the library's
    rule-based classes: an arbitrary Python ``Policy`` is refused, naming its argument;
    ``render_mode`` "ansi" or "rgb_array", a frame per table; ``engine`` only ``"auto"`` or
    ``"batched"``), ``autoreset_mode`` and ``copy`` (return copies of the observation buffer; False
    returns the buffer itself, rewritten by the next call).

    ## Version History
    - v0: the batched engine (package 0.2), the ids' ``vector_entry_point``.
    """

    def __init__(self, num_envs: int = 1, rules: str | Rules = "shoot", num_players: int = 4, seat: int = 1,
                 banker: str | Policy = "stand17",
                 punters: str | Policy | Sequence[str | Policy] = "tips",
                 stake_levels: Sequence[int] | None = None, shoot_bet_levels: Sequence[int] | None = None,
                 buy_levels: Sequence[float] | None = None, deals_per_episode: int = 1,
                 agent_banker: str | Policy = "stand17", illegal_action_penalty: float = 1.0,
                 strict: bool = False, starting_chips: int = 1000, render_mode: str | None = None,
                 autoreset_mode: Any = AutoresetMode.NEXT_STEP, copy: bool = True, engine: str = "batched",
                 observation: str = "flat") -> None:
        _check_batch_only(render_mode, engine)
        kwargs = dict(rules=rules, num_players=num_players, seat=seat, banker=banker, punters=punters,
                      stake_levels=stake_levels, shoot_bet_levels=shoot_bet_levels, buy_levels=buy_levels,
                      deals_per_episode=deals_per_episode, agent_banker=agent_banker,
                      illegal_action_penalty=illegal_action_penalty, strict=strict,
                      starting_chips=starting_chips, observation=observation)
        super().__init__(ShootPontoonEnv(**kwargs, engine="table"), num_envs, autoreset_mode=autoreset_mode, copy=copy,
                         render_mode=render_mode)


class ShootPontoonBankerVectorEnv(PontoonVectorEnv):
    """``ShootPontoonBanker-v0`` batched: ``gym.make_vec("ShootPontoonBanker-v0", num_envs=N)``.

    ## Description
    ``num_envs`` tables of :class:`~shoot_pontoon_env.envs.banker.ShootPontoonBankerEnv` (the agent holds
    the bank), stepped together by the batched engine, each exactly as the scalar env plays.

    ## Action Space
    ``MultiDiscrete([4] * num_envs)``: stick, twist, keep the bank, sell the bank, per table.

    ## Observation Space
    ``Box((num_envs, size), float32)``: the scalar env's observation per row.

    ## Rewards
    The scalar env's, per table, as float32.

    ## Starting State
    As the scalar env's; one Generator drives every table.

    ## Episode End
    As the scalar env's, per table, then by ``autoreset_mode``.

    ## Arguments
    ``num_envs``, every argument of ``ShootPontoonBankerEnv`` (punters by name or as the library's
    rule-based classes; ``render_mode`` "ansi" or "rgb_array"; ``engine`` only ``"auto"`` or
    ``"batched"``), ``autoreset_mode`` and ``copy``.

    ## Version History
    - v0: the batched engine (package 0.2), the id's ``vector_entry_point``.
    """

    def __init__(self, num_envs: int = 1, rules: str | Rules = "shoot", num_players: int = 4,
                 punters: str | Policy | Sequence[str | Policy] = "tips", deals_per_episode: int = 1,
                 illegal_action_penalty: float = 1.0, strict: bool = False, starting_chips: int = 1000,
                 render_mode: str | None = None, autoreset_mode: Any = AutoresetMode.NEXT_STEP,
                 copy: bool = True, engine: str = "batched") -> None:
        _check_batch_only(render_mode, engine)
        kwargs = dict(rules=rules, num_players=num_players, punters=punters,
                      deals_per_episode=deals_per_episode, illegal_action_penalty=illegal_action_penalty,
                      strict=strict, starting_chips=starting_chips)
        super().__init__(ShootPontoonBankerEnv(**kwargs, engine="table"), num_envs, autoreset_mode=autoreset_mode,
                         copy=copy, render_mode=render_mode)
