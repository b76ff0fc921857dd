"""What the punter and banker envs share: a Table, the opponents' loop, rewards from the engine's
wealth, the one place illegal actions are handled, stacked deals, and a shoe carried between episodes.

The engine decides everything about the game; this layer only chooses whose turn is the agent's,
turns views into observations and chips into rewards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import ActionKind, IllegalActionError, LegalMove
from ..cards import parse_cards
from ..engine.hand import Hand
from ..engine.table import Phase, Table
from ..engine.view import SeatView, seat_view
from ..rules import Rules
from ..strategies import Strategy
from .action_table import ActionTable
from .arguments import (check_bool, check_deals_per_episode, check_engine, check_penalty, check_render_mode,
                        check_starting_chips)
from .encoding import ObservationEncoder
from .picture import keys_to_action, render_rgb
from .render import render_text

if TYPE_CHECKING:
    from ..vector.engine import TableBatch

AGENT, AUTO, NEXT_DEAL, OVER = range(4)
"""What ``_status`` says about the table: the agent decides, a table player decides, start the next
deal, the episode is over."""

SETTLED_PHASES = (Phase.BANK_DECISION, Phase.DEAL_OVER)
ACKNOWLEDGE = (LegalMove(ActionKind.STICK),)
RESET_OPTIONS = ("stacked",)


class PontoonSeatEnv(gym.Env[np.ndarray, np.int64]):
    """Base class of :class:`ShootPontoonEnv` and :class:`ShootPontoonBankerEnv` (not registered)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        rules: Rules,
        num_players: int,
        seat: int,
        players: list[Strategy],
        action_table: ActionTable,
        *,
        deals_per_episode: int,
        illegal_action_penalty: float,
        strict: bool,
        starting_chips: int,
        render_mode: str | None,
        engine: str,
        punters_argument: Any,
    ) -> None:
        self.rules = rules
        self.num_players = num_players
        self.seat = seat
        self.players = players
        self.action_table = action_table
        self.deals_per_episode = check_deals_per_episode(deals_per_episode)
        self.illegal_action_penalty = check_penalty(illegal_action_penalty)
        self.strict = check_bool("strict", strict)
        self.starting_chips = check_starting_chips(starting_chips)
        self.render_mode = check_render_mode(render_mode)
        Table(rules, num_players, rng=np.random.default_rng(0))  # the engine checks the table size
        self.encoder = ObservationEncoder(rules, num_players, self.starting_chips)
        self.action_space = spaces.Discrete(len(action_table))
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self._table: Table | None = None
        self._rng: np.random.Generator | None = None
        self._deals = 0
        self._terminal = False
        self._stacked_episode = False
        self._decided = False
        self._acknowledge = False
        self._view: SeatView | None = None
        self._wealth_mark = 0
        """The agent seat's wealth when rewards were last paid: chips that move while the table
        players act in reset() reach the first step's reward, so an episode's rewards sum to its
        net chips."""
        self._mask = np.zeros(len(action_table), dtype=bool)
        self._last_message = ""
        self.engine = check_engine(engine)
        self._punters_argument = punters_argument
        self._batch = self._batched_engine(punters_argument)
        self._batch_settings = self._settings()
        self._batched = False
        """Whether the episode under way runs on the batched engine."""

    def _settings(self) -> tuple:
        """The public attributes the batched engine's config copies when it is built: a reset after
        one of them changed builds it anew, so that both engines read them live."""
        return tuple(self.players), self.illegal_action_penalty, self.deals_per_episode

    def _batched_engine(self, punters_argument: Any) -> TableBatch | None:
        """One table of the batched engine, which then plays the episodes (the kernel that
        ``gym.make_vec`` steps, ``tests/vector`` holds it to the Table step by step), or None where
        the Table plays them: ``engine="table"``, a ``render_mode`` (only the Table is drawn), or
        under ``"auto"`` a table the batched engine cannot play (an arbitrary Python Strategy, or
        chip counts that could pass its int32 limit)."""
        if self.engine == "table" or (self.engine == "auto" and self.render_mode is not None):
            return None
        if self.render_mode is not None:
            raise ValueError(f"engine = 'batched' with render_mode = {self.render_mode!r}: only the table engine "
                             "renders; use engine='auto' or 'table'")
        from ..vector.engine import TableBatch  # here: the vector package imports this module
        from ..vector.env import player_arguments
        try:
            return TableBatch(self, 1, player_arguments(self, {"punters": punters_argument}))
        except ValueError as error:
            if self.engine == "batched":
                raise ValueError(f"engine = 'batched': {error}") from None
            return None

    @property
    def table(self) -> Table | None:
        """The episode's :class:`Table` (the reference engine, with its event log); None before the
        first reset. An episode on the batched engine has none (``view`` still works)."""
        if self._batched:
            raise RuntimeError("this episode runs on the batched engine, which keeps no Table: make the env "
                               "with engine='table' to read env.table (env.view works with either engine)")
        return self._table

    @table.setter
    def table(self, table: Table | None) -> None:
        self._table = table

    # ------------------------------------------------------------------ hooks
    def _status(self) -> int:
        raise NotImplementedError

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        stacked = self._stacked_option(options)
        if self.engine != "table" and self._settings() != self._batch_settings:
            self._batch = self._batched_engine(self._punters_argument)
            self._batch_settings = self._settings()
            self._batched = False  # a new batch has no shoe to carry over
        if self._batch is not None and stacked is None:
            return self._reset_batched(carry=seed is None and self._batched)
        self._batched = False
        previous = self.table
        self.table = Table(self.rules, self.num_players, rng=self._child_rng(),
                           starting_chips=self.starting_chips, banker=0)
        self._rng = self._child_rng()
        if previous is not None and seed is None and stacked is None and not self._stacked_episode:
            self._carry_shoe(previous, self.table)
        self._stacked_episode = stacked is not None
        self._wealth_mark = self.table.wealth(self.seat)
        self._deals = 0
        self._terminal = False
        self._acknowledge = False
        self._last_message = ""
        try:
            self._start_deal(stacked)
        except ValueError as error:  # a stacked shoe the packs cannot hold
            self.table = None
            raise ValueError(f"reset option stacked = {options['stacked']!r}: {error}") from None
        if self._advance():
            raise RuntimeError("the episode ended before the agent's first decision")  # the hooks prevent it
        self._refresh()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._table is None and not self._batched:
            raise RuntimeError("call reset() before step()")
        if self._terminal:
            raise RuntimeError("the episode is over: call reset() before step()")
        index = self._index(action)
        illegal = not self._mask[index]
        if illegal:
            self._refuse(index)
        if self._batched:
            return self._step_batched(index, illegal)
        penalty = 0.0
        if illegal:
            self._forfeit()
            penalty = self.illegal_action_penalty
            terminated = True
        else:
            self._apply(index)
            terminated = self._advance()
        self._terminal = terminated
        self._refresh()
        wealth = self.table.wealth(self.seat)
        reward = (wealth - self._wealth_mark) / self.rules.base_stake - penalty
        self._wealth_mark = wealth
        info = self._info()
        if illegal:
            info["illegal_action"] = True
            info["message"] = self._last_message
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(np.float32(reward)), terminated, False, info

    def action_masks(self) -> np.ndarray:
        """Legal action indices now, as booleans (what sb3-contrib's MaskablePPO calls); every index
        once the episode is over (any action, ignored by the reset that must follow). Through
        wrappers: ``env.get_wrapper_attr("action_masks")()`` or ``env.unwrapped.action_masks()``."""
        return self._mask.copy()

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the text picture; ``"human"``: that text, printed; ``"rgb_array"``: a picture
        of the table as a ``(540, 960, 3)`` uint8 array (Pillow, the ``render`` extra). The picture
        is the Table's: an env made with a ``render_mode`` plays on it."""
        if self._batched:
            raise RuntimeError("render() draws the Table, and this env runs on the batched engine: make it with "
                               "a render_mode (or engine='table')")
        if self.table is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "rgb_array":
            return render_rgb(self)
        text = render_text(self)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def get_keys_to_action(self) -> dict[tuple[str], int]:
        """Keys for ``gymnasium.utils.play.play(env, wait_on_player=True)``: ``0``-``9`` then ``a``-``z``
        play action indices 0, 1, ...; the rgb_array picture shows the key of each legal action."""
        return keys_to_action(self)

    def _refuse(self, index: int) -> None:
        """An illegal action: raise (strict; nothing changes) or say what happens to it."""
        legal_indices = np.flatnonzero(self._mask)
        meaning = self.action_table.entries[index].label
        if self.strict:
            raise IllegalActionError(
                f"index {index} ({meaning})", self.view.legal,
                f"legal indices: {self.action_table.describe(legal_indices)}",
            )
        self._last_message = (
            f"illegal action {index} ({meaning}); legal were "
            f"{self.action_table.describe(legal_indices)}: the hand in play is forfeited and the "
            "episode ends"
        )

    # ------------------------------------------------------------------ the batched engine
    def _reset_batched(self, carry: bool) -> tuple[np.ndarray, dict]:
        """A new episode on the batched engine; ``carry``: a persistent shoe carries over (the last
        episode ran there too, and the reset has no seed)."""
        self._batched = True
        self._stacked_episode = False
        self._table = None
        self._batch.reset(self.np_random, carry=carry)
        self._terminal = False
        self._last_message = ""
        self._read_batch()
        return self._batch.obs[0].copy(), self._info()

    def _step_batched(self, index: int, illegal: bool) -> tuple[np.ndarray, float, bool, bool, dict]:
        batch = self._batch
        batch.step(np.array([index], dtype=np.int64), np.zeros(1, dtype=np.bool_), self.np_random)
        self._terminal = bool(batch.terminated[0])
        self._read_batch()
        info = self._info()
        if illegal:
            info["illegal_action"] = True
            info["message"] = self._last_message
        return batch.obs[0].copy(), float(batch.rewards[0]), self._terminal, False, info

    def _read_batch(self) -> None:
        self._mask = self._batch.mask[0].copy()
        self._deals = int(self._batch.deals[0])
        self._view = None  # built when asked for (view)

    # ------------------------------------------------------------------ the table
    def _child_rng(self) -> np.random.Generator:
        """A Generator derived from the env's np_random: the only source of randomness."""
        return np.random.default_rng(int(self.np_random.integers(0, 2**63 - 1)))

    def _start_deal(self, stacked: str | list[int] | None = None) -> None:
        self.table.start_deal(stacked=stacked)
        self._deals += 1
        self._decided = False

    def _advance(self) -> bool:
        """Let the table players act until the agent decides (False) or the episode ends (True)."""
        table = self.table
        while True:
            status = self._status()
            if status == AGENT:
                return False
            if status == OVER:
                return True
            if status == NEXT_DEAL:
                self._start_deal()
                continue
            seat = table.to_act
            table.apply(self.players[seat].act(seat_view(table, seat), self._rng))

    def _apply(self, index: int) -> None:
        self._decided = True
        if self._acknowledge:
            self._acknowledge = False
            return
        self.table.apply(self.action_table.to_action(index, self._view))

    def _forfeit(self) -> None:
        """An illegal action: the agent's hand in play counts as bust (the engine's forfeit, which
        conserves chips); the deal is then played to its settlement."""
        table = self.table
        if self._acknowledge:
            self._acknowledge = False
        else:
            table.forfeit()
        while table.phase not in SETTLED_PHASES:
            seat = table.to_act
            if seat == self.seat:
                table.forfeit()
            else:
                table.apply(self.players[seat].act(seat_view(table, seat), self._rng))

    @staticmethod
    def _carry_shoe(previous: Table, table: Table) -> None:
        """A persistent shoe carries over between episodes (unless reset with a seed), with the count
        of the cards that left it; the previous deal was settled, so all its cards were shown."""
        if previous.rules.shoe != "persistent" or previous.phase not in SETTLED_PHASES:
            return
        counts = previous.seen_before_deal.copy()
        for card in previous._cards_of_deal():  # not the cards a restock put back into the stock
            counts[card // 4] += 1
        table.shoe = previous.shoe
        table.seen_before_deal = counts

    # ------------------------------------------------------------------ observation, mask, info
    def _agent_view(self) -> SeatView:
        view = seat_view(self.table, self.seat)
        return view._replace(legal=ACKNOWLEDGE) if self._acknowledge else view

    def _refresh(self) -> None:
        """The agent's view and mask after a change. Once the episode is over the view holds no
        decision (even where the table would ask the agent's seat, banked by its strategy, about the
        bank) and the mask allows every index: no mask a user receives is empty, so a masked sampler
        never fails, and under a vector env's NEXT_STEP autoreset the action sent after a terminal
        step, which the reset ignores, is always one the mask allowed (pgx's convention)."""
        view = self._agent_view()
        self._view = view._replace(legal=()) if self._terminal and view.legal else view
        if self._terminal:
            self._mask = np.ones(len(self.action_table), dtype=bool)
        else:
            self._mask = self.action_table.mask(self._view)

    def _observation(self) -> np.ndarray:
        deals_left = (self.deals_per_episode - self._deals) / self.deals_per_episode
        return self.encoder.encode(self._view, deals_left)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "illegal_action": False, "deal": self._deals}

    def _index(self, action: Any) -> int:
        """The index of an action of the space; anything outside the space is an error (not a
        forfeit: it is not an action at all)."""
        value = action.item() if isinstance(action, np.ndarray) and action.size == 1 else action
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and (
            0 <= value < self.action_space.n
        ):
            return int(value)
        raise ValueError(f"action {action!r} is not in the action space Discrete({self.action_space.n})")

    @staticmethod
    def _stacked_option(options: dict[str, Any] | None) -> str | list[int] | None:
        """The ``stacked`` reset option as card ints (the multi-agent env shares it)."""
        if not options:
            return None
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise ValueError(f"reset options {unknown}: expected only {list(RESET_OPTIONS)}")
        stacked = options.get("stacked")
        if stacked is None:
            return None
        try:
            return parse_cards(stacked) if isinstance(stacked, str) else [
                parse_cards([c])[0] if isinstance(c, str) else c for c in stacked]  # the engine checks ints
        except (TypeError, ValueError) as error:
            raise ValueError(f"reset option stacked = {stacked!r}: expected card codes such as "
                             f"'AS TD 9C' or a list of card ints ({error})") from None

    # ------------------------------------------------------------------ for tests and agents
    @property
    def view(self) -> SeatView:
        """The agent seat's current :class:`SeatView` (what the observation encodes)."""
        if self._view is None and self._batched:
            from ..vector.readout import batch_seat_view
            self._view = batch_seat_view(self._batch, self.rules)
        if self._view is None:
            raise RuntimeError("call reset() first")
        return self._view

    @property
    def engine_in_use(self) -> str:
        """``"batched"`` or ``"table"``: the engine of the episode under way (before the first reset,
        the one an episode without a stacked deal will use)."""
        return "batched" if self._batched or (self._table is None and self._batch is not None) else "table"

    def hands(self) -> list[Hand]:
        """Every punter hand at the table now, face-down cards too (for records once the deal is
        settled, not for the agent: its ``view`` holds what it may see), on either engine; a new
        list, whose hands are the Table's own on the table engine (read them, do not change them)."""
        if self._batched:
            from ..vector.readout import batch_hands
            return batch_hands(self._batch)
        if self._table is None:
            raise RuntimeError("call reset() first")
        return list(self._table.hands)

    @property
    def bank_turnovers(self) -> int:
        """Times the bank has turned over (the Shoot emptied) in this episode, on either engine."""
        if self._batched:
            from ..vector.layout import T_TURNOVERS
            return int(self._batch.t[0, T_TURNOVERS])
        if self._table is None:
            raise RuntimeError("call reset() first")
        return self._table.turnovers

    @property
    def last_message(self) -> str:
        """What the env said about the last step (an illegal action), or ``""``."""
        return self._last_message

    @property
    def episode_over(self) -> bool:
        """Whether the last step ended the episode (reset() must come next)."""
        return self._terminal

    @property
    def deals_played(self) -> int:
        """Deals started in this episode."""
        return self._deals
