"""What the punter and banker envs share: the Gymnasium front door of one seat's episode.

The env checks its arguments into a :class:`SeatConfig` and picks either engine for each episode (the
batched engine at one table, or the reference Table: ``seat.episode.EngineChoice``); the episode
decides everything about the game, an illegal index included (``seat/episode.py``'s contract). This
layer turns actions into indices, raises for an illegal one under ``strict`` (``seat.episode.refuse``)
or says what became of it, and draws pictures from whichever engine plays.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import is_int
from ..cards import parse_cards
from ..engine.hand import Hand
from ..engine.table import Table
from ..engine.view import SeatView
from ..players.roles import in_own_role
from ..rules import Rules
from ..seat.action_table import ActionTable
from ..seat.arguments import (
    check_bool,
    check_deals_per_episode,
    check_engine,
    check_observation,
    check_penalty,
    check_render_mode,
    check_seed,
    check_starting_chips,
)
from ..seat.config import SeatConfig, player_arguments
from ..seat.encoding import ObservationEncoder
from ..seat.episode import EngineChoice, Episode, refuse
from ..seat.features import COMPACT_SIZE
from ..seat.table_episode import TableEpisode
from ..shoe import check_key
from ..players.policy import Policy
from .picture import keys_to_action, render_rgb
from .render import render_text
from .window import SeatWindow

RESET_OPTIONS = ("stacked",)
"""The reset options of every env of the package."""
SEAT_RESET_OPTIONS = (*RESET_OPTIONS, "shuffle_key")
"""A single seat's: ``shuffle_key`` deals the episode from a fresh table shuffled by that key, as the
batched engine deals it (an evaluation's hand h: ``shoe.hand_key(seed, h)``), on either engine."""


def action_index(action: Any, n: int) -> int:
    """The index of an action of ``Discrete(n)``; anything outside the space is an error (not a
    forfeit: it is not an action at all). The multi-agent env shares it."""
    value = action.item() if isinstance(action, np.ndarray) and action.size == 1 else action
    if is_int(value) and 0 <= value < n:
        return int(value)
    raise ValueError(f"action {action!r} is not in the action space Discrete({n})")


def stacked_option(options: dict[str, Any] | None, known: tuple[str, ...] = RESET_OPTIONS) -> list[int] | None:
    """The ``stacked`` reset option as card ints (the multi-agent env shares it); a ValueError for an
    option not in ``known``."""
    if not options:
        return None
    unknown = sorted(set(options) - set(known), key=str)
    if unknown:
        raise ValueError(f"reset options {unknown}: expected only {list(known)}")
    stacked = options.get("stacked")
    if stacked is None:
        return None
    try:
        return parse_cards(stacked) if isinstance(stacked, str) else [
            parse_cards([c])[0] if isinstance(c, str) else c for c in stacked]  # the Table checks ints
    except (TypeError, ValueError) as error:
        raise ValueError(f"reset option stacked = {stacked!r}: expected card codes such as "
                         f"'AS TD 9C' or a list of card ints ({error})") from None


def shuffle_key_option(options: dict[str, Any] | None) -> int | None:
    """The ``shuffle_key`` reset option as an int (None where not given)."""
    if not options or options.get("shuffle_key") is None:
        return None
    try:
        return check_key(options["shuffle_key"])
    except ValueError:
        raise ValueError(f"reset option shuffle_key = {options['shuffle_key']!r}: expected an int in "
                         "[0, 2**62)") from None


class PontoonSeatEnv(gym.Env[np.ndarray, np.int64]):
    """Base class of :class:`ShootPontoonEnv` and :class:`ShootPontoonBankerEnv` (not registered)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        rules: Rules,
        num_players: int,
        seat: int,
        role: str,
        players: list[Policy],
        action_table: ActionTable,
        *,
        deals_per_episode: int,
        illegal_action_penalty: float,
        strict: bool,
        starting_chips: int,
        render_mode: str | None,
        engine: str,
        punters_argument: Any,
        observation: str = "flat",
    ) -> None:
        self.rules = rules
        self.num_players = num_players
        self.seat = seat
        self.players = players
        """The table player of each seat (public: a change acts from the next reset)."""
        self.action_table = action_table
        self.deals_per_episode = check_deals_per_episode(deals_per_episode)
        self.illegal_action_penalty = check_penalty(illegal_action_penalty)
        self.strict = check_bool("strict", strict)
        self.starting_chips = check_starting_chips(starting_chips)
        self.render_mode = check_render_mode(render_mode)
        self.engine = check_engine(engine)
        Table.check_size(rules, num_players)
        self.encoder = ObservationEncoder(rules, num_players, self.starting_chips)
        self.action_space = spaces.Discrete(len(action_table))
        self.observation = check_observation(observation)
        if self.observation == "compact":
            self.observation_space = spaces.Box(0.0, 1.0, shape=(COMPACT_SIZE,), dtype=np.float32)
        else:
            self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self._role = role
        self._player_arguments = player_arguments(role, num_players, seat, punters_argument)
        self._role_pairs: dict[int, tuple[Policy, Policy]] = {}
        self._config = self._build_config()
        self._engines: EngineChoice[Episode] = EngineChoice(self.engine, self._kernel_episode,
                                                            self._reference_episode)
        self._engines.batched_episode  # noqa: B018 - built now: an error names the argument at construction
        self._episode: Episode | None = None
        """The episode under way (None before the first reset)."""
        self._last_message = ""

    # ------------------------------------------------------------------ the configuration and both engines
    def _build_config(self) -> SeatConfig:
        return SeatConfig(
            rules=self.rules, num_players=self.num_players, seat=self.seat, role=self._role,
            players=self._seated_players(),
            player_arguments=self._player_arguments, action_table=self.action_table,
            encoder=self.encoder, deals_per_episode=check_deals_per_episode(self.deals_per_episode),
            illegal_action_penalty=check_penalty(self.illegal_action_penalty), starting_chips=self.starting_chips,
            observation=self.observation)

    def _seated_players(self) -> tuple[Policy, ...]:
        """The public ``players`` as seated: a trained model of one role plays only that role, the other
        by ``models.player.ROLE_FALLBACKS`` (its seat may take the bank across deals); each model's
        pairing made once, so that an unchanged ``players`` gives the same tuple."""
        pairs = {}
        for player in self.players:
            pair = self._role_pairs.get(id(player))
            pairs[id(player)] = pair if pair is not None and pair[0] is player else (player, in_own_role(player))
        self._role_pairs = pairs  # a replaced player is let go
        return tuple(pairs[id(player)][1] for player in self.players)

    @property
    def config(self) -> SeatConfig:
        """The configuration of the next episode: the one built at construction, built anew where the
        public ``players``, ``illegal_action_penalty`` or ``deals_per_episode`` have changed since."""
        if self._config.settings() != (self._seated_players(), self.illegal_action_penalty, self.deals_per_episode):
            self._config = self._build_config()
            self._engines.renew_batched()  # a new batch has no shoe to carry over
            self._engines.batched_episode  # noqa: B018 - built now, as at construction
            if self._engines.table_episode is not None:
                self._engines.table_episode.config = self._config
        return self._config

    def _kernel_episode(self) -> Episode:
        """The batched engine at one table (the kernel that ``gym.make_vec`` steps; ``tests/vector``
        holds it to the Table step by step); a ValueError where it cannot play the config (an
        arbitrary Python Policy, or chip counts that could pass its int32 limit)."""
        from ..vector.kernel_episode import KernelEpisode  # here: numba loads with the first batched env

        return KernelEpisode(self._config)

    def _reference_episode(self) -> Episode:
        return TableEpisode(self._config)

    @property
    def table(self) -> Table | None:
        """The episode's :class:`Table` (the reference, with its event log); None before the
        first reset. An episode on the batched engine has none (``view`` still works)."""
        episode = self._episode
        if episode is not None and episode.engine != "table":
            raise RuntimeError("this episode runs on the batched engine, which keeps no Table: make the env "
                               "with engine='table' to read env.table (env.view works with either engine)")
        return episode.table if episode is not None else None

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict]:
        super().reset(seed=check_seed(seed))
        stacked = stacked_option(options, SEAT_RESET_OPTIONS)
        key = shuffle_key_option(options)
        if key is not None and stacked is not None:
            raise ValueError("reset options stacked and shuffle_key: expected one of them (a stacked deal is "
                             "not shuffled)")
        self.config  # noqa: B018 - brings the config (and both engines' episodes) up to date
        episode = self._engines.episode(stacked is not None)
        carry = seed is None and key is None and episode is self._episode
        self._episode = None
        try:
            observation = episode.reset(self.np_random, carry=carry, stacked=stacked, key=key)
        except ValueError as error:  # a stacked shoe the packs cannot hold
            raise ValueError(f"reset option stacked = {options['stacked']!r}: {error}") from None
        self._episode = episode
        self._last_message = ""
        if self.render_mode == "human":
            self.render()
        return observation, self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        episode = self._episode
        if episode is None:
            raise RuntimeError("call reset() before step()")
        if episode.terminal:
            raise RuntimeError("the episode is over: call reset() before step()")
        index = action_index(action, self.action_space.n)
        if not episode.mask[index]:
            message = refuse(self.action_table, index, episode.mask, lambda: episode.view.legal, self.strict)
            self._last_message = message + ": the hand in play is forfeited and the episode ends"
        observation, reward, terminated = episode.step(index, self.np_random)  # it forfeits an illegal index
        info = self._info()
        if episode.illegal:
            info["illegal_action"] = np.array(True)  # what happened: last_message
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """Legal action indices now, as booleans (what sb3-contrib's MaskablePPO calls); every index
        once the episode is over (any action, ignored by the reset that must follow). Through
        wrappers: ``env.get_wrapper_attr("action_masks")()`` or ``env.unwrapped.action_masks()``."""
        if self._episode is None:
            return np.zeros(self.action_space.n, dtype=bool)
        return self._episode.mask.copy()

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the text picture; ``"human"``: that text, printed; ``"rgb_array"``: a picture
        of the table as a ``(540, 960, 3)`` uint8 array (Pillow, the ``render`` extra). Either engine
        draws the same picture (only the Table keeps the deal's log, which the text shows)."""
        if self._episode is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode is None:
            raise RuntimeError("render() with render_mode = None: make it with a render_mode ('ansi', 'human' or "
                               "'rgb_array')")
        if self.render_mode == "rgb_array":
            return render_rgb(self.window())
        text = render_text(self.window())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def window(self) -> SeatWindow:
        """What a picture of the agent's seat shows now, from whichever engine plays."""
        episode = self._episode
        if episode is None:
            raise RuntimeError("call reset() first")
        facts = episode.facts()
        return SeatWindow(self.rules, self.seat, episode.view, facts.balances, facts.to_act, episode.events(),
                          episode.deals, self.deals_per_episode, self.action_table, episode.mask, episode.terminal,
                          self._last_message)

    def get_keys_to_action(self) -> dict[tuple[str], int]:
        """Keys for ``gymnasium.utils.play.play(env, wait_on_player=True)``: ``0``-``9`` then ``a``-``z``
        play action indices 0, 1, ...; the rgb_array picture shows the key of each legal action."""
        return keys_to_action(self.action_table)

    def _info(self) -> dict[str, Any]:
        """The same keys at every step, each value a numpy array of a fixed dtype and shape (0-d for
        the scalars): ``action_mask`` (n,) bool, ``illegal_action`` () bool, ``deal`` () int64. Readers
        that build a spec from the first info (TorchRL's) need that, and Gymnasium's ``SyncVectorEnv``
        batches them into arrays of the same dtypes (a Python bool or str would not do: a ``np.bool_``
        batches as objects). Text, what an illegal action did, is ``last_message``."""
        episode = self._episode
        return {"action_mask": episode.mask.copy(), "illegal_action": np.array(False),
                "deal": np.array(episode.deals, dtype=np.int64)}

    # ------------------------------------------------------------------ for tests and agents
    def _under_way(self) -> Episode:
        if self._episode is None:
            raise RuntimeError("call reset() first")
        return self._episode

    @property
    def view(self) -> SeatView:
        """The agent seat's current :class:`SeatView` (what the observation encodes)."""
        return self._under_way().view

    @property
    def engine_in_use(self) -> str:
        """``"batched"`` or ``"table"``: which engine plays the episode under way (before the first
        reset, the one an episode without a stacked deal will use)."""
        if self._episode is not None:
            return self._episode.engine
        return "batched" if self._engines.batched_episode is not None else "table"

    def hands(self) -> list[Hand]:
        """Every punter hand at the table now, face-down cards too (for records once the deal is
        settled, not for the agent: its ``view`` holds what it may see), on either engine; a new
        list, whose hands are the Table's own where the Table plays (read them, do not change them)."""
        return self._under_way().hands()

    @property
    def bank_turnovers(self) -> int:
        """Times the bank has turned over (the Shoot emptied) in this episode, on either engine."""
        return self._under_way().facts().turnovers

    @property
    def episode(self) -> Episode | None:
        """The episode under way, on whichever engine plays it (``seat/episode.py``); None before the
        first reset."""
        return self._episode

    @property
    def last_message(self) -> str:
        """What the env said about the last step (an illegal action: the index, its meaning, the legal
        ones, and that the hand is forfeited), or ``""``; through wrappers,
        ``env.get_wrapper_attr("last_message")``. The info carries only ``illegal_action``."""
        return self._last_message

    @property
    def episode_over(self) -> bool:
        """Whether the last step ended the episode (reset() must come next)."""
        return self._episode is not None and self._episode.terminal

    @property
    def deals_played(self) -> int:
        """Deals started in this episode."""
        return self._episode.deals if self._episode is not None else 0
