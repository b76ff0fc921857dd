"""``TableBatch``: N tables of one seat configuration as arrays, stepped together by the kernel.

A batch is built from a :class:`~shoot_pontoon_env.seat.config.SeatConfig`, whose env has already
checked every argument and built the action table and observation layout; the batch reads them from
it, so the two speeds share one configuration. Each table is one seat's episode, exactly as the
Table plays it (``tests/vector`` checks it step by step).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium.utils import seeding

from ..actions import ActionKind
from ..seat.config import SeatConfig
from ..players.policy import Policy
from ..seat.encoding import BANKER_RANKS, CHIP_BOUND, hand_slots
from ..seat.features import CHIP_LOG_SCALE, COMPACT_SIZE
from ..solver.player import OptimalPunter
from . import kernel_seat
from .bitgen import GeneratorHandle
from .compiler import disabled_reason
from .policy import NO_POLICY, BatchPlayer, distinct_players, seat_roles
from .layout import (
    AP_NONE, AP_STRATEGY, AP_TABLE, BALANCES, C_ACTIONS, C_AUTOPILOT, C_BANKER_SEAT_ENV, C_BLIND, C_COMPACT, C_DEALS_PER_EPISODE,
    C_FEED_CAPACITY, C_FIELDS, C_O_ACT_AMOUNT, C_O_ACT_KIND, C_O_BY_KIND, C_O_FEED, C_O_FEED_LEN, C_O_SHOE,
    C_O_STRAT, C_PLAYERS, C_SEAT, C_SLOTS, C_STARTING_CHIPS, Config, ERRORS,
    CHIP_FEATURES, F_BANKER_CARDS_BOUND, F_FIELDS, F_MULTIPLES, F_O_STRAT, F_PENALTY, F_PENETRATION, HANDS, H_FIELDS,
    H_SEAT, H_SETTLED, H_SHOOT_BET, H_STAKE, Layout, NL_FIELDS, NL_OUTPUTS, NL_O_BIASES, NL_O_WEIGHTS, N_ACTIONS,
    N_COMPACT, N_FIELDS, N_INPUTS, N_LAYERS, N_MASKED, N_O_AMOUNT, N_O_KIND, N_O_LAYERS, N_O_MULTIPLE,
    N_STARTING_CHIPS, SI_A, STRAT_FLOATS, STRAT_INTS, S_NETWORK, S_OPTIMAL, S_RANDOM, S_TIPS, T_BANKER,
    T_DEALS,
    T_ERROR, T_FEED_COUNT, T_FEED_HEAD, T_HANDS, T_ILLEGAL, T_RESERVE, T_SHOOT, action_arrays,
    UnbatchableStrategy, by_kind, rules_fields, settlement_bytes, strategy_code, table_layout,
)

MAX_TABLES = 2**24
"""The most tables of one batch (16.8M: about 57 GB at the default table's 3.4 KB each); a larger
``num_envs`` is refused by name before any array is allocated."""
INT32_CHIPS = 2**31 - 1
"""The batch keeps chips in int32 (half the memory of a table); tables that could pass it are refused."""


KEY_RANGE = 2**62
"""Shuffle keys are integers of [0, 2**62), every one of them possible: ``Generator.integers`` (one
64-bit draw, shifted), where a uniform float scaled would give only multiples of 512 (53 bits a key:
repeated deals within a long training run). A reset passes its keys to the kernel (``draw_keys``,
``first_key``); a step's autoresets have theirs drawn by the kernel, the same values from the same
Generator (``kernel_deals.draw_key``); the kernel shuffles from them (``kernel_deals.keyed_uniform``)."""


def first_key(seed: int) -> int:
    """The shuffle key a scalar env's ``reset(seed=seed)`` gives its table: the first ``draw_keys`` of
    the Generator Gymnasium seeds an env with. A vector env's per-table seeds use it, so that table i
    deals what the scalar env seeded ``seed[i]`` deals (``tests/vector/test_vector_env.py`` holds the
    two equal)."""
    generator, _ = seeding.np_random(seed)
    return int(generator.integers(0, KEY_RANGE))


def draw_keys(rng: np.random.Generator, which: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out`` (int64, a row per table) with a new episode's shuffle key at each row of ``which``, drawn
    from ``rng`` in row order, and -1 (no key: the kernel reads none there) at the others."""
    out.fill(-1)
    out[which] = rng.integers(0, KEY_RANGE, size=int(np.count_nonzero(which)))
    return out


def largest_shoot_bet(config: SeatConfig, players: Sequence[tuple[int, list[int]]], autopilot: int) -> float:
    """The largest Shoot bet one hand may place at one betting point (``inf``: as much as the Shoot
    holds), from the agent's Shoot bet levels (or the kernel's player of its seat), the table players'
    codes and ints (``layout.strategy_code``), and the rules' ``max_shoot_bet``."""
    rules = config.rules
    if not rules.shoot or not rules.shoot_bet_points:
        return 0
    amounts = [entry.amount for entry in config.action_table.entries if entry.kind == ActionKind.SHOOT_BET]
    bets = [float(max(amounts, default=0))]
    if autopilot == AP_TABLE:
        bets.append(math.inf)  # the optimum's Shoot policy bets all the room there is
    for code, ints in players:
        if code == S_OPTIMAL:
            bets.append(math.inf)
        elif code == S_RANDOM:
            bets.append(rules.max_stake)
        elif code == S_TIPS:
            bets.append(max(ints[SI_A], 1) * rules.min_stake)
        elif code == S_NETWORK:
            bets.append(ints[SI_A])  # the largest Shoot bet level of the network's action table
    largest = max(bets)
    return min(largest, rules.max_shoot_bet) if rules.max_shoot_bet is not None else largest


def chip_bound(config: SeatConfig, largest_bet: float) -> int:
    """A bound on any chip count an episode can reach (a balance, the Shoot, a stake, a wealth), or
    the first value past INT32_CHIPS it finds.

    Chips are conserved, and only a balance can go below zero, so no count exceeds the starting chips
    plus every chip the seats can pay out over the episode. Per deal that is, for every hand a table
    can hold, its largest stake (a buy of every card, or Double Stakes) at the largest pay, the Shoot
    posts and the sale price, and the Shoot bets: at most ``largest_bet`` a hand at each betting
    point and never more than the Shoot holds, which can itself grow by every bet lost (an uncapped
    Shoot bet all-in doubles each deal) up to ``shoot_cap``."""
    rules = config.rules
    players = config.num_players
    largest_stake = rules.max_stake * max(rules.max_stake_multiple or 1 + 3 * rules.buy_max_multiple, 2)
    largest_pay = max(rules.win_pays, rules.twenty_one_pays, rules.pontoon_pays, rules.five_card_trick_pays,
                      rules.special_pontoon_pays, rules.banker_pontoon_multiple, 2) + 1
    hands = hand_slots(rules, players)
    stakes = hands * (largest_stake * largest_pay + rules.max_stake)
    posts = rules.initial_shoot + rules.bank_sale_price
    bets_cap = hands * len(rules.shoot_bet_points) * largest_bet if largest_bet else 0
    shoot = rules.initial_shoot
    bound = players * config.starting_chips + shoot
    for deal in range(config.deals_per_episode):
        bets = min(shoot, bets_cap)
        grown = shoot + bets + hands * rules.progressive_shoot_chips + rules.initial_shoot
        if rules.shoot_cap is not None:
            grown = min(grown, rules.shoot_cap)
        paid = players * (stakes + bets + posts)
        if grown == shoot or bets == bets_cap:  # the bets can grow no more: every later deal pays as much
            return int(bound + (config.deals_per_episode - deal) * paid)
        bound += paid
        shoot = grown
        if bound > INT32_CHIPS:
            return int(bound)
    return int(bound)


class KernelNetwork(NamedTuple):
    """A table player's trained network as the kernel plays it (``kernel_network``)."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    masked: bool
    compact: bool
    """It reads features.compact_observation of its flat observation."""
    action_table: Any
    """The player's own ActionTable (the single-seat env's it was trained on)."""
    starting_chips: int
    """The starting chips of the player's encoder (its balance is read from them)."""


def kernel_network(argument: str, player: Policy, config: SeatConfig) -> KernelNetwork | None:
    """The network a table player plays by, where it is an ``ObservationPolicy`` the kernel can play (its
    ``kernel_network()``: an ``ActorArrays`` actor and the observation it reads); None for a player
    that is no ObservationPolicy. An ObservationPolicy the kernel cannot play is refused (an
    :class:`UnbatchableStrategy` naming ``argument``): one without a numpy actor, or one built for
    other rules or another table size, or whose actor does not fit its observation or action table."""
    read = getattr(player, "kernel_network", None)
    if read is None or not callable(read):
        return None
    name = getattr(player, "name", type(player).__name__)
    what = f"{argument} = {name!r} ({type(player).__name__})"
    found = read()
    if found is None:
        raise UnbatchableStrategy(
            f"{what}: the batched engine plays an ObservationPolicy only by its numpy actor (models.ActorPlayer, "
            "or a TrainedPlayer: an ActorArrays actor, flat or compact observation, its choose and act not "
            "overridden); use the Table (ShootPontoonAECEnv with engine='table') for this player")
    actor, observation = found
    encoder = player.encoder
    if encoder.rules != config.rules or encoder.num_players != config.num_players:
        raise UnbatchableStrategy(
            f"{what}: built for {encoder.num_players} seats under the rules {encoder.rules.name!r}; this "
            f"table has {config.num_players} seats under {config.rules.name!r}: the kernel plays a network "
            "only at a table of its own rules and size")
    if observation not in ("flat", "compact"):
        raise UnbatchableStrategy(f"{what}: observation {observation!r}: expected 'flat' or 'compact'")
    weights = tuple(np.ascontiguousarray(w, dtype=np.float64) for w in actor.weights)
    biases = tuple(np.ascontiguousarray(b, dtype=np.float64) for b in actor.biases)
    inputs = COMPACT_SIZE if observation == "compact" else encoder.size
    actions = len(player.action_table)
    shapes = [w.shape for w in weights]
    fits = (len(weights) == len(biases) >= 1 and all(w.ndim == 2 for w in weights)
            and all(b.shape == (w.shape[1],) for w, b in zip(weights, biases))
            and all(a[1] == b[0] for a, b in zip(shapes, shapes[1:]))
            and shapes[0][0] == inputs and shapes[-1][1] == actions)
    if not fits:
        raise UnbatchableStrategy(
            f"{what}: an actor of layers {shapes} (biases {[b.shape for b in biases]}): expected {inputs} "
            f"inputs (its {observation} observation) and {actions} outputs (its action table), each layer's "
            "outputs the next one's inputs")
    if not all(np.isfinite(w).all() for w in weights + biases):
        raise UnbatchableStrategy(f"{what}: its actor's weights are not all finite")
    return KernelNetwork(weights, biases, bool(actor.masked), observation == "compact", player.action_table,
                         int(encoder.starting_chips))


def player_code(argument: str, player: Policy, solver_players: bool,
                config: SeatConfig | None = None) -> tuple[int, list[int], list[float]]:
    """``layout.strategy_code``, or S_OPTIMAL for the solver's policy, or S_NETWORK for a trained
    network, where the batch plays them (``solver_players``: a whole table, whose kernel reads them
    from the batch's policy and network arrays; S_NETWORK's ints[SI_A] is the network's largest Shoot
    bet level, for the chip bound). A seat split by role (``policy.seat_roles``) has its rule-based or
    solver player's code, the network of its other role being the batch's (``network_arrays``)."""
    (punter_argument, punter), (banker_argument, banker) = seat_roles(argument, player)
    if punter is not banker:
        coded = [player_code(punter_argument, punter, solver_players, config),
                 player_code(banker_argument, banker, solver_players, config)]
        by_rule = [code for code in coded if code[0] != S_NETWORK]
        if len(by_rule) == 2 and by_rule[0] != by_rule[1]:
            raise UnbatchableStrategy(
                f"{argument} = {getattr(player, 'name', player)!r}: the batched engine plays a seat's two "
                "roles by different players only where one of them is a trained network (it keeps one "
                "rule-based or solver player a seat); give that seat one of them for both roles")
        return by_rule[0] if by_rule else coded[0]
    if solver_players and type(player) is OptimalPunter:
        _, ints, floats = strategy_code(argument, Policy())
        return S_OPTIMAL, ints, floats
    network = kernel_network(argument, player, config) if config is not None else None
    if network is not None:
        if not solver_players:
            raise UnbatchableStrategy(f"{argument} = {getattr(player, 'name', player)!r}: the batched engine "
                                      "plays a trained network only at a whole table (multiagent.batched_env)")
        _, ints, floats = strategy_code(argument, Policy())
        entries = network.action_table.entries
        ints[SI_A] = max((e.amount for e in entries if e.kind == ActionKind.SHOOT_BET), default=0)
        return S_NETWORK, ints, floats
    return strategy_code(argument, player)


class NetworkArrays(NamedTuple):
    """The trained networks of a batch's table players, packed for the kernel."""

    ints: np.ndarray
    """int64: the count of networks, each block's offset, then the blocks (``layout.N_*``)."""
    floats: np.ndarray
    """float64: every network's weights, biases and buy multiples."""
    of_seat: np.ndarray
    """int64 (2, num_players): the network each seat plays while it punts ([0]) and while it banks ([1])
    (-1: none, its rule-based or solver player plays that role)."""
    row_size: int
    """float32 scratch of the observation a network reads."""
    width: int
    """The widest layer (or input): the kernel's float64 scratch is twice it."""


def network_arrays(config: SeatConfig) -> NetworkArrays:
    """The networks ``config.players`` play by (``kernel_network``), one per distinct player object: the
    seats given one player share its network, and different seats may play different networks; a seat
    split by role (``policy.seat_roles``) may play one in each role."""
    found: dict[int, int] = {}
    networks: list[KernelNetwork] = []
    of_seat = np.full((2, config.num_players), -1, dtype=np.int64)
    for seat, (argument, player) in enumerate(zip(config.player_arguments, config.players)):
        for role, (name, part) in enumerate(seat_roles(argument, player)):
            network = kernel_network(name, part, config)
            if network is None:
                continue
            if id(part) not in found:
                found[id(part)] = len(networks)
                networks.append(network)
            of_seat[role, seat] = found[id(part)]
    ints: list[int] = [len(networks)] + [0] * len(networks)
    floats: list[np.ndarray] = []
    at_float = 0
    width = 1
    for j, network in enumerate(networks):
        base = len(ints)
        ints[1 + j] = base
        layers = len(network.weights)
        entries = network.action_table.entries
        actions = len(entries)
        block = [0] * (N_FIELDS + NL_FIELDS * layers)
        block[N_COMPACT] = int(network.compact)
        block[N_MASKED] = int(network.masked)
        block[N_STARTING_CHIPS] = network.starting_chips
        block[N_INPUTS] = network.weights[0].shape[0]
        block[N_LAYERS] = layers
        block[N_ACTIONS] = actions
        block[N_O_LAYERS] = base + N_FIELDS
        width = max(width, network.weights[0].shape[0])
        for layer, (w, b) in enumerate(zip(network.weights, network.biases)):
            at = N_FIELDS + NL_FIELDS * layer
            block[at + NL_OUTPUTS] = w.shape[1]
            block[at + NL_O_WEIGHTS] = at_float
            floats.append(w.ravel())
            at_float += w.size
            block[at + NL_O_BIASES] = at_float
            floats.append(b)
            at_float += b.size
            width = max(width, w.shape[1])
        block[N_O_KIND] = base + len(block)
        block[N_O_AMOUNT] = base + len(block) + actions
        block[N_O_MULTIPLE] = at_float
        floats.append(np.array([e.multiple for e in entries], dtype=np.float64))
        at_float += actions
        ints += block + [int(e.kind) for e in entries] + [int(e.amount) for e in entries]
    packed = np.concatenate(floats) if floats else np.zeros(1, dtype=np.float64)
    row_size = max(config.encoder.size, COMPACT_SIZE) if networks else 1
    return NetworkArrays(np.array(ints, dtype=np.int64), np.ascontiguousarray(packed, dtype=np.float64),
                         of_seat, row_size, width)


def solver_players_policy(config: SeatConfig) -> np.ndarray:
    """The policy array of the table players that are the solver's policy (``NO_POLICY``: none). A
    batch holds one: seats given different solutions are refused by name."""
    tables = [(name, BatchPlayer.of_strategy(part, config.rules).policy)
              for argument, player in zip(config.player_arguments, config.players)
              for name, part in distinct_players(argument, player) if type(part) is OptimalPunter]
    for argument, table in tables[1:]:
        if not np.array_equal(table, tables[0][1]):
            raise ValueError(f"{argument}: a solver's policy unlike {tables[0][0]}'s; the batched engine plays "
                             "one solver policy a table (give those seats the same one)")
    return tables[0][1] if tables else NO_POLICY


def batch_config(config: SeatConfig, layout: Layout, feed_capacity: int,
                 autopilot: tuple[int, Policy | None] = (AP_NONE, None), blind: bool = False,
                 solver_players: bool = False) -> Config:
    """The kernel's Config of a seat's episode (an error about a player the batch cannot play names
    the argument that gave it, ``config.player_arguments``). ``autopilot``: how
    the kernel plays the agent's seat itself (evaluations), with the rule-based player it uses;
    ``blind``: encode no observation (nobody reads it when the kernel plays the seat);
    ``solver_players``: table players may be the solver's policy (a whole table's kernel plays them)."""
    rules = config.rules
    players_of_slots = list(zip(config.player_arguments, config.players))
    if autopilot[0] == AP_STRATEGY:
        players_of_slots.append(("agent", autopilot[1]))
    coded = [player_code(argument, player, solver_players, config) for argument, player in players_of_slots]
    both_roles = [player_code(name, part, solver_players, config)[:2] for argument, player in players_of_slots
                  for name, part in distinct_players(argument, player) if part is not player]  # split seats
    bettors = [(code, ints) for code, ints, _ in coded] + both_roles
    largest_bet = largest_shoot_bet(config, bettors, autopilot[0])
    if chip_bound(config, largest_bet) > INT32_CHIPS:
        raise ValueError(
            f"starting_chips = {config.starting_chips!r}, rules.max_stake = {rules.max_stake!r}, shoot_cap = "
            f"{rules.shoot_cap!r}, Shoot bets of up to {largest_bet:g} chips, deals_per_episode = "
            f"{config.deals_per_episode!r}: chip counts of this table could pass {INT32_CHIPS:,}, the batched "
            "engine's int32 limit; use smaller stakes or Shoot bets, a shoot_cap, fewer deals, or the table "
            "engine (gym.make with engine='table')")
    act_kind, act_amount, act_multiple = action_arrays(config.action_table)
    players = config.num_players
    actions = len(act_kind)
    grouped = by_kind(config.action_table)
    strategies = C_FIELDS + 2 * actions
    grouped_at = strategies + STRAT_INTS * (players + 1)
    c = np.zeros(grouped_at + len(grouped), dtype=np.int64)
    for index, value in rules_fields(rules).items():
        c[index] = int(value)
    fields = {
        C_PLAYERS: players, C_SEAT: config.seat, C_BANKER_SEAT_ENV: config.banker_seat,
        C_DEALS_PER_EPISODE: config.deals_per_episode, C_STARTING_CHIPS: config.starting_chips,
        C_ACTIONS: actions, C_SLOTS: hand_slots(rules, players), C_O_FEED_LEN: layout.feed_len,
        C_O_SHOE: layout.shoe, C_O_FEED: layout.feed, C_FEED_CAPACITY: feed_capacity, C_O_ACT_KIND: C_FIELDS,
        C_O_ACT_AMOUNT: C_FIELDS + actions, C_O_STRAT: strategies, C_AUTOPILOT: autopilot[0],
        C_BLIND: blind, C_O_BY_KIND: grouped_at, C_COMPACT: config.observation == "compact",
    }
    for index, value in fields.items():
        c[index] = int(value)
    c[C_FIELDS:C_FIELDS + actions] = act_kind
    c[C_FIELDS + actions:C_FIELDS + 2 * actions] = act_amount
    c[grouped_at:] = grouped
    f = np.zeros(F_MULTIPLES + actions + STRAT_FLOATS * (players + 1), dtype=np.float64)
    f[F_PENETRATION] = rules.penetration
    f[F_PENALTY] = config.illegal_action_penalty
    f[F_BANKER_CARDS_BOUND] = float(config.encoder.high[BANKER_RANKS.start])  # a float32 bound
    f[F_O_STRAT] = F_MULTIPLES + actions
    f[F_FIELDS:F_FIELDS + CHIP_FEATURES] = chip_features(rules.base_stake)
    f[F_MULTIPLES:F_MULTIPLES + actions] = act_multiple
    for seat, (code, ints, floats) in enumerate(coded):
        ints[0] = code
        start = strategies + STRAT_INTS * seat
        c[start:start + STRAT_INTS] = ints
        start = F_MULTIPLES + actions + STRAT_FLOATS * seat
        f[start:start + STRAT_FLOATS] = floats
    return Config(c=c, f=f, tab=settlement_bytes(rules))


def chip_features(unit: int) -> np.ndarray:
    """The compact row's feature of 0..CHIP_FEATURES - 1 chips (``features.compact_observation`` of
    the flat row's float32 chips in base stakes: the C library's log1p, scaled), as the float64 that the
    kernel's ``chip_feature`` computes and the row stores in float32."""
    flat = np.minimum(np.arange(CHIP_FEATURES) / unit, CHIP_BOUND).astype(np.float32).astype(np.float64)
    return np.array([math.log1p(value) for value in flat.tolist()]) / CHIP_LOG_SCALE


class TableBatch:
    """The state of ``num_tables`` tables of one configuration and the kernel calls that move it.

    ``feed_capacity`` > 0 switches the shoe to fed mode (tests): every shuffle takes the next order
    given to :meth:`feed` instead of drawing one from the Generator.
    """

    def __init__(self, config: SeatConfig, num_tables: int, *, feed_capacity: int = 0, autopilot: tuple[int, Policy | None] = (AP_NONE, None),
                 policy: np.ndarray = NO_POLICY, blind: bool = False, solver_players: bool = False) -> None:
        if isinstance(num_tables, bool) or not isinstance(num_tables, (int, np.integer)) or not (
                1 <= num_tables <= MAX_TABLES):
            raise ValueError(f"num_envs = {num_tables!r}: expected an int in 1..{MAX_TABLES:,}")
        disabled = disabled_reason()
        if disabled is not None:
            raise ValueError(disabled)
        n = int(num_tables)
        rules = config.rules
        slots = hand_slots(rules, config.num_players)
        self.layout = table_layout(config.num_players, slots, rules.shoe_size, feed_capacity)
        self.seat_config = config
        self.config = batch_config(config, self.layout, feed_capacity, autopilot, blind, solver_players)
        self.policy = np.ascontiguousarray(policy, dtype=np.int32)
        self.num_tables = n
        try:
            self.t = np.zeros((n, self.layout.int_row), dtype=np.int32)
            self.k8 = np.zeros((n, self.layout.byte_row), dtype=np.int8)
            self.obs = np.zeros((n, config.observation_size), dtype=np.float32)
            self.mask = np.zeros((n, len(config.action_table)), dtype=np.bool_)
        except MemoryError:
            per_table = (4 * self.layout.int_row + self.layout.byte_row + 4 * config.observation_size
                         + len(config.action_table))
            raise ValueError(f"num_envs = {n!r}: {n:,} tables of {per_table:,} bytes each do not fit in this "
                             "machine's memory; use fewer") from None
        self.slots = slots
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.step_illegal = np.zeros(n, dtype=np.bool_)
        """Every table's illegal-action flag after the last reset or step (the ``illegal`` column, kept
        contiguous by the kernel for the env's info)."""
        self.step_deals = np.zeros(n, dtype=np.int64)
        """Every table's deal number after the last reset or step (the ``deals`` column, contiguous)."""
        self._all = np.ones(n, dtype=np.bool_)
        self._no_keys = np.full(n, -1, dtype=np.int64)
        self._keys = np.full(n, -1, dtype=np.int64)
        """The shuffle keys of the tables a call resets (``draw_keys``)."""
        self._no_actions = np.zeros(n, dtype=np.int64)
        self.scratch = np.zeros(kernel_seat.scratch_size(slots), dtype=np.int64)
        """The kernel's working memory of one call (legal moves, rank counts, showdown outcomes)."""
        self.rng_handle = GeneratorHandle()
        """The kernel's view of the Generator it is called with (``bitgen.py``)."""

    # ------------------------------------------------------------------ kernel calls
    def reset(self, rng: np.random.Generator, which: np.ndarray | None = None, *, carry: bool = True,
              keys: np.ndarray | None = None) -> None:
        """New episodes at the tables ``which`` (all by default); ``carry`` keeps a persistent shoe;
        ``keys``: each episode's shuffle key (by default drawn from ``rng``)."""
        which = self._all if which is None else np.ascontiguousarray(which, dtype=np.bool_)
        keys = draw_keys(rng, which, self._keys) if keys is None else np.ascontiguousarray(keys, dtype=np.int64)
        c = self.config
        self._check(kernel_seat.play_tables(self.t, self.k8, c.c, c.f, c.tab, self.obs, self.mask,
                                            self._no_actions, which, bool(carry), False, keys, self.rewards,
                                            self.terminated, self.step_illegal, self.step_deals,
                                            self.rng_handle(rng), self.scratch))

    def step(self, actions: np.ndarray, autoreset: np.ndarray, rng: np.random.Generator) -> None:
        """One step of every table (``autoreset`` rows start a new episode instead); the results are
        in ``rewards``, ``terminated``, ``obs`` and ``mask``."""
        c = self.config
        autoreset = np.ascontiguousarray(autoreset, dtype=np.bool_)
        # the autoresets' keys are drawn by the kernel from rng, before any table moves (kernel_deals.draw_key)
        self._check(kernel_seat.play_tables(self.t, self.k8, c.c, c.f, c.tab, self.obs, self.mask,
                                            np.ascontiguousarray(actions, dtype=np.int64), autoreset, True, True,
                                            self._no_keys, self.rewards, self.terminated, self.step_illegal,
                                            self.step_deals, self.rng_handle(rng), self.scratch))

    def _check(self, table: int | None = None) -> None:
        """Raises for the first table in error: ``table`` as the kernel reported it (-1: none), or None
        to read every table's error field."""
        if table is None:
            errors = np.flatnonzero(self.t[:, T_ERROR])
            table = int(errors[0]) if len(errors) else -1
        if table >= 0:
            code = int(self.t[table, T_ERROR])
            raise RuntimeError(f"batched engine, table {table}: {ERRORS.get(code, 'error')}")

    # ------------------------------------------------------------------ fed shoes (tests)
    def feed(self, table: int, orders: Sequence[np.ndarray]) -> None:
        """Queue shoe orders for the next shuffles of ``table`` (fed mode only)."""
        lay, t, k8 = self.layout, self.t[table], self.k8[table]
        capacity = (lay.int_row - lay.feed_len)
        if capacity == 0:
            raise RuntimeError("feed() needs a TableBatch built with feed_capacity > 0")
        size = lay.feed - lay.shoe
        head, count = int(t[T_FEED_HEAD]), int(t[T_FEED_COUNT])
        pending = [k8[lay.feed + q * size: lay.feed + q * size + t[lay.feed_len + q]].copy()
                   for q in range(head, count)]
        pending += [np.asarray(o, dtype=np.int8) for o in orders]
        if len(pending) > capacity:
            raise RuntimeError(f"table {table}: {len(pending)} shoe orders queued, capacity {capacity}")
        for q, order in enumerate(pending):
            k8[lay.feed + q * size: lay.feed + q * size + len(order)] = order
            t[lay.feed_len + q] = len(order)
        t[T_FEED_HEAD], t[T_FEED_COUNT] = 0, len(pending)

    def fed_pending(self, table: int) -> int:
        return int(self.t[table, T_FEED_COUNT] - self.t[table, T_FEED_HEAD])

    # ------------------------------------------------------------------ reading the tables
    @property
    def hands(self) -> np.ndarray:
        """Every table's hand slots: (N, slots, H_FIELDS) of ``layout.H_*`` (rows past T_HANDS unused)."""
        return self.t[:, HANDS:self.layout.feed_len].reshape(self.num_tables, self.slots, H_FIELDS)

    @property
    def balances(self) -> np.ndarray:
        return self.t[:, BALANCES:BALANCES + self.layout.players]

    @property
    def illegal(self) -> np.ndarray:
        return self.t[:, T_ILLEGAL] != 0

    @property
    def deals(self) -> np.ndarray:
        return self.t[:, T_DEALS]

    @property
    def banker(self) -> np.ndarray:
        return self.t[:, T_BANKER]

    @property
    def shoot(self) -> np.ndarray:
        return self.t[:, T_SHOOT]

    @property
    def reserve(self) -> np.ndarray:
        return self.t[:, T_RESERVE]

    def _live(self) -> np.ndarray:
        hands = self.hands
        slots = np.arange(self.slots)
        return (slots[None, :] < self.t[:, T_HANDS, None]) & (hands[:, :, H_SETTLED] == 0)

    def total_chips(self) -> np.ndarray:
        """Table.total_chips of every table."""
        h = self.hands.astype(np.int64)
        on_table = np.where(self._live(), h[:, :, H_STAKE] + h[:, :, H_SHOOT_BET], 0).sum(axis=1)
        return self.balances.astype(np.int64).sum(axis=1) + self.shoot + self.reserve + on_table

    def wealth(self, seat: int) -> np.ndarray:
        """Table.wealth of ``seat`` at every table."""
        h = self.hands.astype(np.int64)
        mine = self._live() & (h[:, :, H_SEAT] == seat)
        on_table = np.where(mine, h[:, :, H_STAKE] + h[:, :, H_SHOOT_BET], 0).sum(axis=1)
        kitty = np.where(self.banker == seat, self.shoot.astype(np.int64) + self.reserve, 0)
        return self.balances[:, seat].astype(np.int64) + on_table + kitty

    def hands_of(self, table: int) -> np.ndarray:
        """The hand rows (fields of ``layout.H_*``) of one table, in the table's order."""
        return self.hands[table, :self.t[table, T_HANDS]]

    @property
    def nbytes(self) -> int:
        """Bytes of the batch's arrays per table: the two rows, the observation and the mask."""
        return sum(a.nbytes for a in (self.t, self.k8, self.obs, self.mask, self.rewards, self.terminated))
