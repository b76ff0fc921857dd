"""``TableEpisode``: one seat's episode on the Table, the reference engine, with its event log.

Everything the agent does not decide is played by the config's table players, in Python; the
batched engine's kernel (``vector/kernel.py``) mirrors this file step by step.
"""

from __future__ import annotations

import numpy as np

from ..actions import ActionKind, LegalMove
from ..engine.events import Event
from ..engine.hand import Hand
from ..engine.table import Phase, Table
from ..engine.view import SeatView, seat_view
from .features import compact_observation
from .config import SeatConfig
from .episode import Episode, TableFacts

AGENT, AUTO, NEXT_DEAL, OVER = range(4)
"""What the table is waiting for: the agent's decision, a table player's, the next deal's start, or
nothing (the episode is over)."""
SETTLED_PHASES = (Phase.BANK_DECISION, Phase.DEAL_OVER)
ACKNOWLEDGE = (LegalMove(ActionKind.STICK),)
"""The banker seat's one legal move at the end of a deal it played no part in (every punter bust
before the banker's turn): acknowledged with stick, so that the deal's chips reach a step."""


def carry_shoe(previous: Table, table: Table) -> None:
    """A persistent shoe carries over between episodes (unless reset with a seed), with the count of
    the cards that left it; the previous deal was settled, so all its cards were shown."""
    if previous.rules.shoe != "persistent" or previous.phase not in SETTLED_PHASES:
        return
    counts = previous.seen_before_deal.copy()
    for card in previous.cards_of_deal():  # not the cards a restock put back into the stock
        counts[card // 4] += 1
    table.shoe = previous.shoe
    table.seen_before_deal = counts


def child_rng(np_random: np.random.Generator) -> np.random.Generator:
    """A Generator derived from an env's np_random: the only source of randomness."""
    return np.random.default_rng(int(np_random.integers(0, 2**63 - 1)))


class TableEpisode(Episode):
    """One seat's episode on a :class:`Table`."""

    engine = "table"

    def __init__(self, config: SeatConfig) -> None:
        super().__init__(config)
        self.mask = np.zeros(len(config.action_table), dtype=bool)
        self.table: Table | None = None
        self._rng: np.random.Generator | None = None
        self._stacked = False
        self._decided = False
        self._acknowledge = False
        self._view: SeatView | None = None
        self._wealth_mark = 0
        """The agent seat's wealth when rewards were last paid: chips that move while the table
        players act in reset() reach the first step's reward, so an episode's rewards sum to its
        net chips."""

    # ------------------------------------------------------------------ the episode
    def reset(self, np_random: np.random.Generator, *, carry: bool,
              stacked: list[int] | None = None, key: int | None = None) -> np.ndarray:
        config = self.config
        previous = self.table
        table = Table(config.rules, config.num_players, rng=child_rng(np_random),
                      starting_chips=config.starting_chips, banker=0, shuffle_key=key)
        self._rng = child_rng(np_random)
        if previous is not None and carry and stacked is None and not self._stacked:
            carry_shoe(previous, table)
        self.table = table
        self._stacked = stacked is not None
        self._wealth_mark = table.wealth(config.seat)
        self.deals = 0
        self.terminal = False
        self.illegal = False
        self._acknowledge = False
        try:
            self._start_deal(stacked)
        except ValueError:  # a stacked shoe the packs cannot hold
            self.table = None
            raise
        if self._advance():
            raise RuntimeError("the episode ended before the agent's first decision")  # the statuses prevent it
        self._refresh()
        return self._observation()

    def step(self, index: int, np_random: np.random.Generator) -> tuple[np.ndarray, float, bool]:
        self.illegal = not self.mask[index]
        penalty = 0.0
        if self.illegal:
            self._forfeit()
            penalty = self.config.illegal_action_penalty
            terminated = True
        else:
            self._apply(index)
            terminated = self._advance()
        self.terminal = terminated
        self._refresh()
        wealth = self.table.wealth(self.config.seat)
        reward = (wealth - self._wealth_mark) / self.config.rules.base_stake - penalty
        self._wealth_mark = wealth
        return self._observation(), float(np.float32(reward)), terminated

    # ------------------------------------------------------------------ reading it
    @property
    def view(self) -> SeatView:
        if self._view is None:
            raise RuntimeError("call reset() first")
        return self._view

    def hands(self) -> list[Hand]:
        return list(self.table.hands)

    def facts(self) -> TableFacts:
        return table_facts(self.table, self.config.seat)

    def events(self) -> list[Event]:
        return list(self.table.events)

    # ------------------------------------------------------------------ the table's play
    def _status(self) -> int:
        """Whose turn it is (AGENT, AUTO, NEXT_DEAL, OVER), by the agent's role."""
        config, table = self.config, self.table
        if config.banker_seat:
            if self._acknowledge:
                return AGENT
            if table.phase == Phase.DEAL_OVER:
                if not self._decided:
                    self._acknowledge = True
                    return AGENT
                if table.banker != config.seat or self.deals >= config.deals_per_episode:
                    return OVER
                return NEXT_DEAL
            return AGENT if table.to_act == config.seat and table.banker == config.seat else AUTO
        if table.phase in SETTLED_PHASES:
            if self.deals >= config.deals_per_episode:
                return OVER
            return NEXT_DEAL if table.phase == Phase.DEAL_OVER else AUTO
        return AGENT if table.to_act == config.seat and table.banker != config.seat else AUTO

    def _start_deal(self, stacked: list[int] | None = None) -> None:
        self.table.start_deal(stacked=stacked)
        self.deals += 1
        self._decided = False

    def _play_table_player(self) -> None:
        seat = self.table.to_act
        self.table.apply(self.config.players[seat].act(seat_view(self.table, seat), self._rng))

    def _advance(self) -> bool:
        """Let the table players act until the agent decides (False) or the episode ends (True)."""
        while True:
            status = self._status()
            if status == AGENT:
                return False
            if status == OVER:
                return True
            if status == NEXT_DEAL:
                self._start_deal()
                continue
            self._play_table_player()

    def _apply(self, index: int) -> None:
        self._decided = True
        if self._acknowledge:
            self._acknowledge = False
            return
        self.table.apply(self.config.action_table.to_action(index, self._view))

    def _forfeit(self) -> None:
        """An illegal action: the agent's hand in play counts as bust (``Table.forfeit``, which
        conserves chips); the deal is then played to its settlement."""
        table = self.table
        if self._acknowledge:
            self._acknowledge = False
        else:
            table.forfeit()
        while table.phase not in SETTLED_PHASES:
            if table.to_act == self.config.seat:
                table.forfeit()
            else:
                self._play_table_player()

    # ------------------------------------------------------------------ observation and mask
    def _refresh(self) -> None:
        """The agent's view and mask after a change. Once the episode is over the view holds no
        decision (even where the table would ask the agent's seat, banked by its strategy, about the
        bank) and the mask allows every index: no mask a user receives is empty, so a masked sampler
        never fails, and under a vector env's NEXT_STEP autoreset the action sent after a terminal
        step, which the reset ignores, is always one the mask allowed (pgx's convention)."""
        view = seat_view(self.table, self.config.seat)
        if self._acknowledge:
            view = view._replace(legal=ACKNOWLEDGE)
        self._view = view._replace(legal=()) if self.terminal and view.legal else view
        if self.terminal:
            self.mask = np.ones(len(self.config.action_table), dtype=bool)
        else:
            self.mask = self.config.action_table.mask(self._view)

    def _observation(self) -> np.ndarray:
        config = self.config
        deals_left = (config.deals_per_episode - self.deals) / config.deals_per_episode
        flat = config.encoder.encode(self._view, deals_left)
        return compact_observation(flat) if config.observation == "compact" else flat


def table_facts(table: Table, seat: int) -> TableFacts:
    """A Table's public state, with ``seat``'s wealth."""
    return TableFacts(tuple(table.balances), table.shoot, table.reserve, table.banker, table.to_act,
                      table.total_chips, table.wealth(seat), table.turnovers)
