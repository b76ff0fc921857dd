"""``batched_env``: N whole tables at once on the batched engine, every learner's seat an agent, in
pgx's multi-player shape (the seat to act, its observation and mask, a reward for every seat), as a
Gymnasium ``VectorEnv`` (so that Gymnasium's vector wrappers take it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..envs.picture import render_rgb
from ..envs.render import render_text
from ..envs.window import SeatWindow
from ..seat.arguments import check_int, check_seed
from ..seat.episode import refuse
from ..vector.tables import KEY_RANGE, MAX_TABLES
from ..vector.whole_table import WholeTableBatch
from .config import WholeTableSettings, first_banker_of, takes_table_arguments, whole_table_settings

RENDER_MODES = ("ansi", "rgb_array")
"""What ``render()`` draws: a frame per table, as the AEC env draws its seat to act."""


def table_starts(settings: WholeTableSettings, seeds: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each table's first banker and shuffle key for a list of seeds: what the AEC env on the batched
    engine draws after ``reset(seed=seed[i])`` (the banker where ``first_banker="random"``, then the
    key), so that table i deals what that env deals."""
    bankers = np.zeros(len(seeds), dtype=np.int64)
    keys = np.zeros(len(seeds), dtype=np.int64)
    for i, seed in enumerate(seeds):
        generator, _ = seeding.np_random(seed)
        bankers[i] = first_banker_of(settings, generator)
        keys[i] = generator.integers(0, KEY_RANGE)  # the next draw_keys (vector.engine.first_key)
    return bankers, keys


def check_seeds(seed: Any, num_tables: int) -> int | list[int] | None:
    """``reset``'s seed: None, one int, or a list of ``num_tables`` ints (one per table); ints are
    non-negative Python or NumPy ints, never bools."""
    if not isinstance(seed, (list, tuple, np.ndarray)):
        return check_seed(seed)
    if len(seed) != num_tables:
        raise ValueError(f"seed: a list of {len(seed)} seeds for {num_tables} tables: expected None, an int, "
                         f"or {num_tables} non-negative ints (one per table)")
    return [check_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]


class BatchedTableEnv(VectorEnv):
    """``num_tables`` whole Shoot Pontoon tables stepped together (numba kernel, one core).

    ## Description
    Each table is one episode of :class:`~shoot_pontoon_env.multiagent.ShootPontoonAECEnv` with the
    same arguments, and the tables step together: :meth:`step` takes one action per table, for its
    seat to act. Seats given in ``players`` are played inside the kernel by those table players
    (rule-based strategies, the solver's policy, or frozen trained networks), so a learner can train
    some seats against fixed others; every other seat is a learner's.
    ``tests/multiagent/test_batched_differential.py`` holds every table equal to the Table-based AEC
    env step by step.

    ## Gymnasium's VectorEnv
    ``num_envs`` (= ``num_tables``), ``single_action_space`` ``Discrete(n)`` (the AEC env's seat action
    table, ``action_table.labels``) and ``action_space`` ``MultiDiscrete([n] * N)`` (its ``sample()``
    is a batch ``step`` takes; ``sample(mask=tuple(info["action_mask"].astype(np.int8)))`` a legal
    one), ``single_observation_space`` the flat ``Box(float32)`` of one seat's own view and
    ``observation_space`` ``Box((N, size))``, ``metadata["autoreset_mode"]`` ``NEXT_STEP`` (the one it
    implements), ``render()`` a frame per table. Infos carry Gymnasium's ``_key`` flags (every table).
    Rewards keep pgx's shape, one per seat, where Gymnasium's reward wrappers expect one per table:
    give them a seat's with ``gymnasium.wrappers.vector.TransformReward(env, lambda r: r[:, seat])``
    (``docs/ENVIRONMENTS.md``).

    ## Returns
    ``reset(seed=None, options=None) -> (obs, info)`` and ``step(actions) -> (obs, rewards,
    terminations, truncations, info)``, numpy arrays over the tables: ``rewards`` is
    ``(num_tables, num_players)`` float32, every seat's chips won in the step in base stakes (zero-sum
    but for the illegal-action penalty; a learner sums a seat's rewards from one decision of it to its
    next); ``info["current_seat"]`` ``(num_tables,)`` int64 is the seat to act (-1 where the episode
    just ended), ``info["action_mask"]`` ``(num_tables, n)`` bool its legal indices (every index where
    the episode just ended), ``info["illegal_action"]`` which tables' actions were illegal.
    ``reset(seed=s)`` seeds the one Generator every table's cards and random players draw from (None
    continues this env's, carrying a persistent shoe); ``reset(seed=[s0, s1, ...])``, one seed per
    table, deals table i the cards and first banker of the AEC env's ``reset(seed=s_i)`` on the batched
    engine (the random table players, where any, draw from the one Generator, seeded with ``s0``), as
    ``gym.make_vec``'s seed lists do.

    ## Episode End
    An action of -1 lets table i wait: nothing changes there and its rewards are zero (a trainer
    that steps only some tables). ``terminations[i]`` when table i's ``deals_per_episode``-th deal is
    over; ``truncations[i]`` after ``max_cycles`` decisions of its learners. The next step starts a new
    episode at such a table (Gymnasium's next-step autoreset: its action is ignored and its rewards
    are zero), carrying a persistent shoe. An illegal action forfeits the seat's hands in play
    (``Table.forfeit``) and costs ``illegal_action_penalty``; with ``strict=True`` it raises
    :class:`IllegalActionError` and no table moves.

    ## Arguments
    ``num_tables`` (1..2**24), ``players`` (a dict of seat -> strategy name or Policy for the seats
    the kernel plays: ``tips``, ``threshold``, ``stand17``, ``dealer``, ``shoot_aware``, ``random`` ..., or
    the solver's policy, ``optimal`` or ``basic``: one solver policy a table; or a trained network, a
    ``models.player.ActorPlayer`` or a ``models.trained.TrainedPlayer``, played by its numpy actor over
    its own action table, for the table's rules and size: a different one per seat if need be, in its
    own role only: a punter model's seat banks as ``stand17``, a banker model's punts as ``tips``, or
    ``{"punter": p, "banker": q}`` names each role's player, ``multiagent.config.seat_player``),
    ``render_mode`` (None, ``"ansi"`` or ``"rgb_array"``: ``render()`` returns a frame per table, each
    table as its seat to act sees it, or where its episode just ended the seat that acted last),
    and the AEC env's ``rules``, ``num_players``, ``first_banker``, ``stake_levels``,
    ``shoot_bet_levels``, ``buy_levels``, ``deals_per_episode``, ``max_cycles``,
    ``illegal_action_penalty``, ``strict`` and ``starting_chips`` (by keyword: the whole table's
    arguments are ``multiagent.config.whole_table_settings``', written there once).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4,  # noqa: RUF012 - Gymnasium's
                "autoreset_mode": AutoresetMode.NEXT_STEP}
    autoreset_mode = AutoresetMode.NEXT_STEP

    @takes_table_arguments()
    def __init__(self, num_tables: int, *, render_mode: str | None = None, **table: Any) -> None:
        self.num_tables = check_int("num_tables", num_tables, 1, MAX_TABLES)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode = {render_mode!r}: expected None or one of {RENDER_MODES} "
                             "(a frame per table; 'human' is the AEC env's)")
        self.settings = whole_table_settings(**table)
        config = self.settings.config
        self.num_envs = self.num_tables
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "render_modes": list(RENDER_MODES)}
        self.rules, self.num_players = config.rules, config.num_players
        self.action_table = config.action_table
        self.learners = self.settings.learners
        self.batch = WholeTableBatch(config, self.learners, self.num_tables)
        self.single_action_space = spaces.Discrete(len(self.action_table))
        self.single_observation_space = spaces.Box(config.encoder.low, config.encoder.high, dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, self.num_tables)
        self.observation_space = batch_space(self.single_observation_space, self.num_tables)
        self._started = False
        self._decisions = np.zeros(self.num_tables, dtype=np.int64)
        self._ended = np.zeros(self.num_tables, dtype=np.bool_)
        self._flags = np.ones(self.num_tables, dtype=np.bool_)
        self._viewers = np.full(self.num_tables, self.learners.index(True), dtype=np.int64)
        """Each table's seat ``render`` draws for where no seat is to act: the last one asked."""

    def reset(self, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """New episodes at every table (``seed``: see the class's Returns)."""
        seed = check_seeds(seed, self.num_tables)
        if options:
            raise ValueError(f"options = {options!r}: the batched whole table takes no reset options "
                             "(a stacked deal plays on the AEC env; a finished table restarts at the next "
                             "step)")
        batch = self.batch
        keys = None
        if isinstance(seed, list):
            super().reset(seed=seed[0])
            batch.bankers[:], keys = table_starts(self.settings, seed)
        else:
            super().reset(seed=seed)
            for i in range(self.num_tables):
                batch.bankers[i] = first_banker_of(self.settings, self.np_random)
        batch.reset(self.np_random, carry=seed is None, keys=keys)
        self._started = True
        self._decisions[:] = 0
        self._ended[:] = False
        return batch.obs.copy(), self._info(np.zeros(self.num_tables, dtype=np.bool_))

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        batch = self.batch
        actions = self._check_actions(actions)
        resets = self._ended.copy()
        waiting = (actions < 0) & ~resets
        illegal = ~batch.mask[np.arange(self.num_tables), actions] & ~resets & ~waiting
        if self.settings.strict and illegal.any():
            i = int(np.flatnonzero(illegal)[0])
            seat = int(batch.seats[i])
            refuse(self.action_table, int(actions[i]), batch.mask[i], lambda: batch.seat_view(i, seat).legal, True,
                   f"table {i}, seat {seat}")
        if resets.any():
            for i in np.flatnonzero(resets):
                batch.bankers[i] = first_banker_of(self.settings, self.np_random)
        if self.render_mode is not None:
            np.copyto(self._viewers, batch.seats, where=batch.seats >= 0)
        batch.step(actions, resets, self.np_random)
        self._decisions = np.where(resets, 0, self._decisions + ~waiting)
        terminations = batch.terminated.copy()
        limit = self.settings.max_cycles
        truncations = (~terminations & (self._decisions >= limit) & ~resets if limit is not None
                       else np.zeros(self.num_tables, dtype=np.bool_))
        self._ended = terminations | truncations
        if truncations.any():  # the episode stops here: no seat to act, every index allowed (as when over)
            batch.seats[truncations] = -1
            batch.mask[truncations] = True
        return batch.obs.copy(), batch.rewards.copy(), terminations, truncations, self._info(illegal)

    def render(self) -> tuple[str, ...] | tuple[np.ndarray, ...] | None:
        """A frame per table (``render_mode`` "ansi": text; "rgb_array": uint8 pictures), each drawn by
        the single-seat envs' picture code; None without a render_mode."""
        if self.render_mode is None:
            return None
        if not self._started:
            raise RuntimeError("call reset() before render()")
        draw = render_rgb if self.render_mode == "rgb_array" else render_text
        return tuple(draw(self._window(i)) for i in range(self.num_tables))

    def _window(self, table: int) -> SeatWindow:
        batch = self.batch
        to_act = int(batch.seats[table])
        seat = to_act if to_act >= 0 else int(self._viewers[table])
        return SeatWindow(rules=self.rules, seat=seat, view=batch.seat_view(table, seat),
                          balances=batch.facts(table, seat).balances, to_act=to_act if to_act >= 0 else None,
                          events=None, deals_played=int(batch.deals[table]),
                          deals_per_episode=self.settings.config.deals_per_episode,
                          action_table=self.action_table, mask=batch.mask[table].copy(),
                          episode_over=bool(self._ended[table]))

    def _check_actions(self, actions: Any) -> np.ndarray:
        n = len(self.action_table)
        array = np.asarray(actions)
        if array.shape != (self.num_tables,) or array.dtype.kind not in "iu":
            raise ValueError(f"actions: expected {self.num_tables} action indices (ints in 0..{n - 1}), one "
                             f"per table, got an array of shape {array.shape} and dtype {array.dtype}")
        bad = (array < -1) | (array >= n)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"actions[{i}] = {int(array[i])}: expected an action index in 0..{n - 1} "
                             "(or -1: the table waits)")
        return array.astype(np.int64)

    def _info(self, illegal: np.ndarray) -> dict[str, np.ndarray]:
        batch = self.batch
        flags = self._flags
        return {"current_seat": batch.seats.copy(), "_current_seat": flags.copy(),
                "action_mask": batch.mask.copy(), "_action_mask": flags.copy(),
                "illegal_action": illegal, "_illegal_action": flags.copy(),
                "banker": batch.step_bankers.copy(), "_banker": flags.copy(),
                "deal": batch.step_deals.copy(), "_deal": flags.copy()}


def batched_env(num_tables: int, **kwargs: Any) -> BatchedTableEnv:
    """``num_tables`` whole tables on the batched engine (arguments: :class:`BatchedTableEnv`)."""
    return BatchedTableEnv(num_tables, **kwargs)
