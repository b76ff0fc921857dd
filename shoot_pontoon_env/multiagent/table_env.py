"""The whole table as a PettingZoo AEC environment: every seat is an agent, the banker included."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..actions import IllegalActionError
from ..engine.table import Phase, Table
from ..engine.view import SeatView, seat_view
from ..seat.action_table import ActionEntry, ActionTable, banker_action_table, punter_action_table
from ..seat.arguments import (check_bool, check_deals_per_episode, check_int, check_penalty, check_players,
                              check_render_mode, check_rules, check_starting_chips)
from ..envs.base import RESET_OPTIONS, action_index, illegal_message, stacked_option
from ..seat.encoding import ObservationEncoder
from ..envs.render import render_text
from ..envs.window import SeatWindow
from ..seat.table_episode import carry_shoe, child_rng
from ..rules import Rules


def seat_action_table(
    rules: Rules,
    stake_levels: Sequence[int] | None = None,
    shoot_bet_levels: Sequence[int] | None = None,
    buy_levels: Sequence[float] | None = None,
) -> ActionTable:
    """One action table for a seat that may punt or bank: the punter's table followed by the banker's
    entries it lacks (keep and sell the bank). Stick and twist mean the same for both roles."""
    punter = punter_action_table(rules, stake_levels, shoot_bet_levels, buy_levels)
    kinds = {entry.kind for entry in punter.entries}
    extra: list[ActionEntry] = [e for e in banker_action_table().entries if e.kind not in kinds]
    return ActionTable(punter.entries + tuple(extra))


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


class ShootPontoonAECEnv(AECEnv):
    """A whole Shoot Pontoon table (or a casino Pontoon table, by ``rules``) with every seat an agent.

    ## Description
    ``num_players`` agents ``seat_0`` .. ``seat_{n-1}`` sit clockwise at one engine :class:`Table`.
    ``first_banker`` holds the first bank; the others punt. Roles change as the rules say: when a deal
    empties the Shoot the bank passes to the next seat, and where the rules allow it the banker may sell
    the bank between deals. Turns follow the engine exactly, as in PettingZoo's classic games:
    ``agent_selection`` is the seat whose decision is pending (stakes and Shoot bets in playing order,
    each hand's play, the banker's draws, the banker's keep-or-sell), so a seat may act several times
    in a row and not at all in some stretches. Everything automatic (dealing, the peek, busts, the
    casino dealer's fixed drawing, settlement, turnover) happens between decisions.

    ## Action Space
    The same ``Discrete(n)`` for every agent: the punter table of ``ShootPontoon-v0`` (no further box,
    stake levels, no Shoot bet, Shoot bet levels, stick, twist, buy levels, split, Double Stakes)
    followed by keep the bank and sell the bank. A banker sticks and twists with the punter's stick and
    twist indices. ``env.unwrapped.action_table.labels`` lists the meanings (shoot preset: n = 17).

    ## Observation Space
    ``Dict(observation=Box(float32), action_mask=Box(int8))``, as PettingZoo's classic games. The
    observation is the flat encoding of the seat's own :class:`SeatView`
    (:mod:`shoot_pontoon_env.envs.encoding`, the same index table as the single-seat envs, which says
    whether the seat banks now); hidden cards never appear. The mask has a 1 exactly where the index's
    action is in ``Table.legal_moves()`` for that seat; it is all zeros for a seat that is not to act.

    ## Rewards
    After every step each agent gets the change of its seat's chips (``Table.wealth``: balance, chips on
    the table, and the Shoot and reserve while it banks) divided by ``rules.base_stake``, as a Python
    float. Chips are conserved, so the rewards of a step sum to zero over the table (up to float
    rounding), and so do an episode's. An illegal action costs its agent ``illegal_action_penalty`` on
    top (the one thing that is not zero-sum).

    ## Starting State
    A fresh table: ``first_banker`` banks and has posted a new Shoot, every seat holds
    ``starting_chips``; the first deal is started and its first punter is asked for a stake. A
    persistent shoe carries over between unseeded resets, with its count;
    ``reset(options={"stacked": "AS TD ..."})`` deals the first deal from those cards.

    ## Episode End
    Every agent terminates when the ``deals_per_episode``-th deal is over (after the banker's decision
    about the bank where the rules have bank sales). With ``max_cycles`` every agent is truncated after
    that many decisions at the table (a cycle is one decision: one step of the parallel form). An
    illegal action does not end the episode: the engine's ``forfeit`` makes the offending seat's hands in
    play lose as if bust (a banker's hand counts as bust; a bank decision keeps the bank) and the others
    play on. With ``strict=True`` it raises :class:`IllegalActionError` instead and nothing changes.

    ## Arguments
    - ``rules``: a preset name (``"shoot"``, ``"casino"``, ``"playtech"``) or a :class:`Rules`.
    - ``num_players``: seats and agents, 2..10. Default 4.
    - ``first_banker``: the seat holding the first bank, or ``"random"`` (drawn from the reset seed).
    - ``stake_levels``, ``shoot_bet_levels``, ``buy_levels``: as in ``ShootPontoon-v0``.
    - ``deals_per_episode``: deals in one episode. Default 1.
    - ``max_cycles``: truncate after this many decisions (None: never).
    - ``illegal_action_penalty``, ``strict``, ``starting_chips``: as in ``ShootPontoon-v0``.
    - ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the table as the seat to act sees it),
      ``"human"`` (prints it after every step) or ``"rgb_array"`` (the single-seat envs' picture of it).

    ## Version History
    - v0: initial version.
    """

    metadata = {"name": "shoot_pontoon_v0", "render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4,
                "is_parallelizable": False}

    def __init__(
        self,
        rules: str | Rules = "shoot",
        num_players: int = 4,
        first_banker: int | str = 0,
        stake_levels: Sequence[int] | None = None,
        shoot_bet_levels: Sequence[int] | None = None,
        buy_levels: Sequence[float] | None = None,
        deals_per_episode: int = 1,
        max_cycles: int | None = None,
        illegal_action_penalty: float = 1.0,
        strict: bool = False,
        starting_chips: int = 1000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = check_rules(rules)
        self.num_players = check_players(num_players)
        if first_banker != "random":
            check_int("first_banker", first_banker, 0, self.num_players - 1)
        self.first_banker = first_banker
        self.deals_per_episode = check_deals_per_episode(deals_per_episode)
        self.max_cycles = None if max_cycles is None else check_int("max_cycles", max_cycles, 1)
        self.illegal_action_penalty = check_penalty(illegal_action_penalty)
        self.strict = check_bool("strict", strict)
        self.starting_chips = check_starting_chips(starting_chips)
        self.render_mode = check_render_mode(render_mode)
        Table(self.rules, self.num_players, rng=np.random.default_rng(0))  # the engine checks the size
        self.action_table = seat_action_table(self.rules, stake_levels, shoot_bet_levels, buy_levels)
        self.encoder = ObservationEncoder(self.rules, self.num_players, self.starting_chips)
        self.possible_agents = [agent_name(s) for s in range(self.num_players)]
        self.seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        n = len(self.action_table)
        observation_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        })
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.table: Table | None = None
        self._np_random: np.random.Generator | None = None
        self._stacked_episode = False
        self._deals = 0
        self._decisions = 0
        self._marks = [0] * self.num_players
        """Each seat's wealth when rewards were last paid."""

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ PettingZoo API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        stacked = stacked_option(self._known_options(options))
        banker = (int(self._np_random.integers(self.num_players)) if self.first_banker == "random"
                  else self.first_banker)
        previous = self.table
        self.table = Table(self.rules, self.num_players, rng=child_rng(self._np_random),
                           starting_chips=self.starting_chips, banker=banker)
        if previous is not None and seed is None and stacked is None and not self._stacked_episode:
            carry_shoe(previous, self.table)
        self._stacked_episode = stacked is not None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._marks = [self.table.wealth(s) for s in range(self.num_players)]
        self._deals = 0
        self._decisions = 0
        try:
            self._start_deal(stacked)
        except ValueError as error:  # a stacked shoe the packs cannot hold
            self.table = None
            raise ValueError(f"reset option stacked = {options['stacked']!r}: {error}") from None
        self.infos = {a: self._info(a) for a in self.agents}
        self.agent_selection = agent_name(self.table.to_act)
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = seat_view(self.table, self.seat_of[agent])
        deals_left = (self.deals_per_episode - self._deals) / self.deals_per_episode
        return {"observation": self.encoder.encode(view, deals_left),
                "action_mask": self.action_table.mask(view).astype(np.int8)}

    def step(self, action: Any) -> None:
        if self.table is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = action_index(action, len(self.action_table))
        seat = self.seat_of[agent]
        view = seat_view(self.table, seat)
        mask = self.action_table.mask(view)
        illegal = not mask[index]
        if illegal:
            message = f"{agent}: {illegal_message(self.action_table, index, mask)}"
            if self.strict:
                raise IllegalActionError(f"index {index} ({self.action_table.entries[index].label})", view.legal,
                                         message)
            self.table.forfeit()
        else:
            self.table.apply(self.action_table.to_action(index, view))
        self._cumulative_rewards[agent] = 0.0
        self._decisions += 1
        over = self._advance()
        self._pay_rewards()
        if illegal:
            self.rewards[agent] -= self.illegal_action_penalty
        self._accumulate_rewards()
        truncated = not over and self.max_cycles is not None and self._decisions >= self.max_cycles
        for a in self.agents:
            self.terminations[a] = over
            self.truncations[a] = truncated
            self.infos[a] = self._info(a)
        if illegal:
            self.infos[agent].update(illegal_action=True, message=message + ": its hands in play are forfeited")
        if over or truncated:
            self._deads_step_first()
        else:
            self.agent_selection = agent_name(self.table.to_act)
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.table is None:
            raise RuntimeError("call reset() before render()")
        seat = self.seat_of[self.agent_selection]
        view = seat_view(self.table, seat)
        over = not self.agents or self.terminations[self.agent_selection] or self.truncations[self.agent_selection]
        table = self.table
        window = SeatWindow(self.rules, seat, view, tuple(table.balances), table.to_act, list(table.events),
                            self._deals, self.deals_per_episode, self.action_table, self.action_table.mask(view), over)
        if self.render_mode == "rgb_array":
            from ..envs.picture import render_rgb

            return render_rgb(window)
        text = render_text(window)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ the table
    def _start_deal(self, stacked: str | list[int] | None = None) -> None:
        self.table.start_deal(stacked=stacked)
        self._deals += 1

    def _advance(self) -> bool:
        """Start the next deal when one is over; True when the episode is over."""
        while self.table.phase == Phase.DEAL_OVER:
            if self._deals >= self.deals_per_episode:
                return True
            self._start_deal()
        return False

    def _pay_rewards(self) -> None:
        unit = self.rules.base_stake
        for seat in range(self.num_players):
            wealth = self.table.wealth(seat)
            self.rewards[agent_name(seat)] = (wealth - self._marks[seat]) / unit
            self._marks[seat] = wealth

    def _info(self, agent: str) -> dict[str, Any]:
        seat = self.seat_of[agent]
        return {"deal": self._deals, "banker": self.table.banker == seat, "illegal_action": False}

    @staticmethod
    def _known_options(options: dict[str, Any] | None) -> dict[str, Any] | None:
        """PettingZoo's api_test resets with options this env does not know: they are ignored with a
        warning (the single-seat envs raise), the known ones are checked."""
        if not options:
            return options
        unknown = sorted(set(options) - set(RESET_OPTIONS), key=str)
        if unknown:
            warnings.warn(f"reset options {unknown} are ignored: this env knows only {list(RESET_OPTIONS)}",
                          stacklevel=3)
        return {k: v for k, v in options.items() if k in RESET_OPTIONS}

    # ------------------------------------------------------------------ for tests and tools
    def seat_view(self, agent: str) -> SeatView:
        """The :class:`SeatView` that ``observe(agent)`` encodes."""
        return seat_view(self.table, self.seat_of[agent])

    @property
    def deals_played(self) -> int:
        return self._deals
