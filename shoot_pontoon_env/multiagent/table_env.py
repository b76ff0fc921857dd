"""The whole table as a PettingZoo AEC environment: every seat is an agent, the banker included."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..engine.view import SeatView
from ..envs.base import RESET_OPTIONS, action_index, stacked_option
from ..envs.render import render_text
from ..envs.window import SeatWindow
from ..seat.arguments import check_render_mode, check_seed
from ..seat.episode import EngineChoice, TableFacts, refuse
from .config import agent_name, first_banker_of, takes_table_arguments, whole_table_settings
from .episodes import KernelWholeTable, ReferenceWholeTable, WholeTableEpisode


class ShootPontoonAECEnv(AECEnv):
    """A whole Shoot Pontoon table (or a casino Pontoon table, by ``rules``) with every seat an agent.

    ## Description
    ``num_players`` agents ``seat_0`` .. ``seat_{n-1}`` sit clockwise at one table, played by the
    batched engine at one table (``vector/whole_table.py``) or by the reference :class:`Table`, which
    deals differently for a seed but plays the same rules (``tests/multiagent`` holds the two equal
    step by step on the same cards). ``first_banker`` holds the first bank; the others punt. Roles change as the rules say: when a deal
    empties the Shoot the bank passes to the next seat, and where the rules allow it the banker may sell
    the bank between deals. Turns follow the game exactly (the seat the Table, or the batched engine,
    waits for), as in PettingZoo's classic games:
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
    (:mod:`shoot_pontoon_env.seat.encoding`, the same index table as the single-seat envs, which says
    whether the seat banks now); hidden cards never appear. The mask has a 1 exactly where the index's
    action is in ``Table.legal_moves()`` for that seat; it is all zeros for a seat that is not to act.

    ## Rewards
    After every step each agent gets the change of its seat's chips (``Table.wealth``: balance, chips on
    the table, and the Shoot and reserve while it banks) divided by ``rules.base_stake``, as a Python
    float (the batched engine's float32 reward, the Table's float64). Chips are conserved, so the rewards of a step sum to zero over the table (up to float
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
    that many cycles, PettingZoo's meaning: a cycle is one step of every live agent, which in this
    turn-based table is one decision (one step of the parallel form, in which every live agent sends
    an action and the seat to act's is played). This class counts the decisions of its turn-based
    order; ``multiagent.env(max_cycles=...)`` gives every live agent one turn per cycle (PettingZoo's
    ``parallel_to_aec`` of the parallel form), as ``max_cycles_test`` expects. An
    illegal action does not end the episode: ``Table.forfeit`` (or the batched engine's copy of it)
    makes the offending seat's hands in play lose as if bust (a banker's hand counts as bust; a bank
    decision keeps the bank) and the others play on; the agent's ``infos[agent]["illegal_action"]`` is
    True and ``last_message`` says what happened. With ``strict=True`` it raises
    :class:`IllegalActionError` instead and nothing changes.

    ## Info
    Every agent's info has the same keys at every step, 0-d numpy values of fixed dtypes: ``deal``
    (int64), ``banker`` (bool: this seat banks now), ``illegal_action`` (bool). The parallel form adds
    PettingZoo's ``active_agent``.

    ## Arguments
    Keyword arguments only (the whole table's are ``multiagent.config.whole_table_settings``', written
    there once and shared with ``batched_env``; ``players`` is ``batched_env``'s alone):

    - ``rules``: a preset name (``"shoot"``, ``"casino"``, ``"playtech"``) or a :class:`Rules`.
    - ``num_players``: seats and agents, 2..10. Default 4.
    - ``first_banker``: the seat holding the first bank, or ``"random"`` (drawn from the reset seed).
    - ``stake_levels``, ``shoot_bet_levels``, ``buy_levels``: as in ``ShootPontoon-v0``.
    - ``deals_per_episode``: deals in one episode. Default: 1, or with ``max_cycles`` as many as the
      episode has room for (deals follow one another until the truncation).
    - ``max_cycles``: truncate after this many decisions (None: never).
    - ``illegal_action_penalty``, ``strict``, ``starting_chips``: as in ``ShootPontoon-v0``.
    - ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the table as the seat to act sees it),
      ``"human"`` (prints it after every step) or ``"rgb_array"`` (the single-seat envs' picture of it).
    - ``engine``: ``"auto"`` (default: the batched engine, or the Table for a table it cannot play, a
      stacked deal, or where numba is disabled), ``"batched"`` (a stacked deal still plays on the
      Table) or ``"table"`` (the reference, which keeps an event log for ``render``).

    ## Version History
    - v0: initial version; 0.5: the batched engine by default (``engine="table"`` for the Table).
    """

    metadata = {"name": "shoot_pontoon_v0", "render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4,
                "is_parallelizable": False}

    @takes_table_arguments(without=("players",))
    def __init__(self, *, render_mode: str | None = None, engine: str = "auto", **table: Any) -> None:
        super().__init__()
        self.settings = whole_table_settings(**table)
        self.render_mode = check_render_mode(render_mode)
        config = self.settings.config
        self._engines: EngineChoice[WholeTableEpisode] = EngineChoice(
            engine, lambda: KernelWholeTable(config), lambda: ReferenceWholeTable(config))
        self.engine = self._engines.engine
        self.rules, self.num_players = config.rules, config.num_players
        self.first_banker, self.deals_per_episode = self.settings.first_banker, config.deals_per_episode
        self.max_cycles, self.strict = self.settings.max_cycles, self.settings.strict
        self.illegal_action_penalty, self.starting_chips = config.illegal_action_penalty, config.starting_chips
        self.action_table, self.encoder = config.action_table, config.encoder
        self.possible_agents = [agent_name(s) for s in range(self.num_players)]
        self.seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        n = len(self.action_table)
        observation_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        })
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.episode: WholeTableEpisode | None = None
        """The episode under way, on whichever engine plays it (``episodes.py``); None before the first
        reset."""
        self._np_random: np.random.Generator | None = None
        self._decisions = 0
        self.last_message = ""
        """What the env said about the last step: an illegal action's index, meaning and the legal ones
        (``""`` after a legal one); ``infos[agent]["illegal_action"]`` flags it."""
        if self.engine == "batched":
            self._engines.batched_episode  # noqa: B018 - the error now, naming the argument, rather than at reset

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ PettingZoo API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        stacked = stacked_option(self._known_options(options))
        banker = first_banker_of(self.settings, self._np_random)
        episode = self._engines.episode(stacked is not None)
        carry = seed is None and episode is self.episode  # a persistent shoe carries over on the same engine
        try:
            episode.reset(self._np_random, banker, carry=carry, stacked=stacked)
        except ValueError as error:  # a stacked shoe the packs cannot hold
            self.episode = None
            raise ValueError(f"reset option stacked = {options['stacked']!r}: {error}") from None
        self.episode = episode
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._decisions = 0
        self.last_message = ""
        self.infos = {a: self._info(a) for a in self.agents}
        self.agent_selection = agent_name(episode.to_act)
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation, mask = self.episode.observe(self.seat_of[agent])
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = action_index(action, len(self.action_table))
        episode = self.episode
        message = "" if episode.mask[index] else refuse(
            self.action_table, index, episode.mask, lambda: episode.seat_view(self.seat_of[agent]).legal,
            self.strict, agent)
        rewards, over = episode.step(index, self._np_random)  # the episode forfeits an illegal index
        self._cumulative_rewards[agent] = 0.0
        self._decisions += 1
        for s, reward in enumerate(rewards):
            self.rewards[agent_name(s)] = reward
        self._accumulate_rewards()
        truncated = not over and self.max_cycles is not None and self._decisions >= self.max_cycles
        for a in self.agents:
            self.terminations[a] = over
            self.truncations[a] = truncated
            self.infos[a] = self._info(a)
        self.last_message = ""
        if episode.illegal:
            self.infos[agent]["illegal_action"] = np.array(True)
            self.last_message = message + ": its hands in play are forfeited"
        if over or truncated:
            self._deads_step_first()
        else:
            self.agent_selection = agent_name(self.episode.to_act)
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.episode is None:
            raise RuntimeError("call reset() before render()")
        seat = self.seat_of[self.agent_selection]
        episode = self.episode
        view = episode.seat_view(seat)
        over = not self.agents or self.terminations[self.agent_selection] or self.truncations[self.agent_selection]
        window = SeatWindow(self.rules, seat, view, episode.facts(seat).balances, episode.to_act, episode.events(), episode.deals,
                            self.deals_per_episode, self.action_table, self.action_table.mask(view), over)
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

    # ------------------------------------------------------------------ either engine
    def _info(self, agent: str) -> dict[str, Any]:
        """The same keys at every step, numpy values of fixed dtypes (0-d), as the single-seat envs'
        (TorchRL fixes its info specs from the first infos, and reads them as tensors: no text)."""
        return {"deal": np.array(self.episode.deals, dtype=np.int64),
                "banker": np.array(self.episode.banker == self.seat_of[agent]),
                "illegal_action": np.array(False)}

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
        return self.episode.seat_view(self.seat_of[agent])

    def facts(self, agent: str | None = None) -> TableFacts:
        """The table's public state on either engine (balances, Shoot, reserve, banker, seat to act,
        total chips, ``agent``'s wealth (the seat to act's by default), turnovers)."""
        return self.episode.facts(self.seat_of[agent or self.agent_selection])

    @property
    def table(self):
        """The episode's :class:`Table` where the Table plays (the reference, with its event log)."""
        if self.episode is None or self.episode.engine != "table":
            raise RuntimeError("this episode runs on the batched engine, which keeps no Table: make the env with "
                               "engine='table' to read env.table (env.seat_view works with either engine)")
        return self.episode.table

    @property
    def deals_played(self) -> int:
        return self.episode.deals if self.episode is not None else 0
