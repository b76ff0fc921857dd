"""The batched engine's data: the integer codes the kernel reads, and their translation from the
library's Python objects (Rules, strategies, the action table, the settlement).

Every code here is derived from the scalar code's own definitions (``ActionKind``, ``Phase``,
``Stage``, ``HandClass``, the observation layout of ``seat/encoding.py``, ``settlement.showdown``), so
the kernel restates no table of the game: it indexes the arrays built here.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

import numpy as np

from ..actions import ActionKind
from ..cards import CARDS_PER_DECK, FIVE_CARDS, HandClass, HandRank, evaluate
from ..engine.hand import Hand
from ..engine.settlement import Outcome, is_special_pontoon, showdown
from ..engine.table import MAX_PLAYERS, PHASE_OF_STAGE, Phase, Stage
from ..seat import encoding as enc
from ..seat.action_table import ActionTable
from ..rules import CHIP_LIMIT, DRAW_ON_21_KINDS, PACKS, Rules
from ..players.strategies import (
    DealerRulesBanker,
    RandomPlayer,
    ShootAwareBanker,
    StandOnBanker,
    Policy,
    ThresholdPunter,
    TipsPunter,
)

# --------------------------------------------------------------------------- enums as ints
K_STAKE, K_SHOOT_BET, K_STICK, K_TWIST, K_BUY, K_SPLIT, K_DOUBLE, K_KEEP_BANK, K_SELL_BANK = (
    int(k) for k in ActionKind)
NUM_KINDS = len(ActionKind)
PH_STAKES, PH_SHOOT_BETS, PH_PLAY, PH_BANKER, PH_BANK_DECISION, PH_DEAL_OVER = (int(p) for p in Phase)
(ST_STAKES, ST_BET_BEFORE_DEAL, ST_FIRST_CARDS, ST_BET_BEFORE_SECOND, ST_SECOND_CARDS, ST_PEEK, ST_PLAY,
 ST_BANKER, ST_SETTLE, ST_BANK, ST_OVER) = (int(s) for s in Stage)
STAGE_PHASES = tuple(int(PHASE_OF_STAGE.get(stage, -1)) for stage in Stage)
"""The phase of each stage (table.PHASE_OF_STAGE; -1: a stage that passes automatically): the state
row holds the stage alone, as the Table does."""
HC_BUST, HC_TOTAL, HC_TWENTY_ONE, HC_FIVE_CARD_TRICK, HC_PONTOON = (int(c) for c in HandClass)
O_LOSE, O_PUSH, O_WIN = (int(o) for o in Outcome)

MAX_HAND_CARDS = FIVE_CARDS
"""A punter hand stands at five cards (``cards.FIVE_CARDS``, under the name the kernel reads)."""
MAX_BANKER_CARDS = 22
"""A banker hand that draws on past five cards (at most 21 aces and a card that busts: the most
``Rules.banker_card_limit`` gives)."""
DRAW_NO, DRAW_SOFT, DRAW_ANY = range(3)
"""Rules.draw_on_21 as an index of DRAW_ON_21_KINDS."""
MAX_TOTAL = 32
"""Totals index 0..31 (a bust shows at most 21 + 10)."""
MAX_MOVES = enc.MAX_MOVES

# A field list's last name is its count (T_FIELDS, H_FIELDS, C_FIELDS): a field added before it moves it,
# and Python checks the range against the names.

# --------------------------------------------------------------------------- per-table scalars
(T_STAGE, T_CURSOR, T_BOX, T_BANKER, T_SHOOT, T_RESERVE, T_DEAL_NUMBER, T_TURNOVERS, T_HANDS,
 T_BANKER_CARDS, T_REVEALED, T_FORFEITED, T_SHOE_POS, T_SHOE_SIZE, T_SHOE_SHUFFLED, T_SHUFFLES,
 T_DEALS, T_TERMINAL, T_DECIDED, T_ACK, T_WEALTH_MARK, T_FEED_HEAD, T_FEED_COUNT, T_ERROR,
 T_ILLEGAL, T_KEY_LO, T_KEY_HI, T_HAND, T_NEEDS_RESET, T_SEED_LO, T_SEED_HI,
 T_FIELDS) = range(32)
"""T_KEY_*: the episode's shuffle key (31 bits each); T_HAND, T_NEEDS_RESET: the hand a table plays in
an evaluation (``kernel_evaluation.play_hands``); T_SEED_*: the current shuffle's seed, derived from the
key and T_SHUFFLES (32 bits each, ``kernel_deals.reseed``)."""

# --------------------------------------------------------------------------- per-hand fields
(H_SEAT, H_BOX, H_ORIGINAL, H_STAKE, H_CARDS, H_SHOOT_BET, H_BUYS, H_TWISTS, H_DOUBLED, H_FROM_SPLIT,
 H_FOURTH_OFFERED, H_DONE, H_SETTLED, H_RESULT, H_WON_FROM_SHOOT, H_RESHUFFLED,
 H_FIELDS) = range(17)

# --------------------------------------------------------------------------- kernel errors
(E_NONE, E_PLAYER_ILLEGAL, E_SHOE_EXHAUSTED, E_FEED_EMPTY, E_NO_DECISION, E_RUNAWAY, E_BAD_ACTION,
 E_NETWORK_ILLEGAL, E_SOLVER_ILLEGAL, E_POLICY_NO_DECISION, E_AUTOPILOT_NO_INDEX) = range(11)
"""The first error of a table (T_ERROR), one code per cause."""
ERRORS = {
    E_PLAYER_ILLEGAL: "a rule-based table player chose an action the rules do not allow",
    E_NETWORK_ILLEGAL: ("a network table player chose an action the rules do not allow (its actions are not "
                        "masked)"),
    E_SOLVER_ILLEGAL: "the solver's table player chose an action the rules do not allow",
    E_POLICY_NO_DECISION: ("the solver's policy holds no decision for a hand it plays (its up card, cards, "
                           "stake multiple or buys lie outside the policy's tables)"),
    E_AUTOPILOT_NO_INDEX: ("the evaluated seat's own player chose an action that no legal index of its "
                           "action table stands for"),
    E_SHOE_EXHAUSTED: "every card of the shoe is in a live hand",
    E_FEED_EMPTY: "a shuffle found no fed shoe order (fed mode)",
    E_NO_DECISION: "the episode ended before the agent's first decision",
    E_RUNAWAY: "a table did not reach a decision within its step limit",
    E_BAD_ACTION: "an action index outside the action table (the envs check every index before the kernel)",
}

# --------------------------------------------------------------------------- rules and offsets as ints
(C_DECKS, C_PERSISTENT, C_BASE_STAKE, C_MIN_STAKE, C_MAX_STAKE, C_MAX_BOXES, C_SHOOT, C_INITIAL_SHOOT,
 C_SHOOT_CAP, C_BET_BEFORE_DEAL, C_BET_BEFORE_SECOND, C_BET_BEFORE_FOURTH, C_MAX_SHOOT_BET,
 C_RESERVE_PERCENT, C_PROGRESSIVE, C_BANK_SALE, C_BANK_SALE_PRICE, C_PEEK, C_BANKER_PONTOON_MULTIPLE,
 C_DEALER, C_DEALER_STANDS_ON, C_DEALER_HITS_SOFT_17, C_SHOWS_FIRST, C_BANKER_TRICK, C_STICK_MINIMUM,
 C_DRAW_ON_21, C_BUY_MIN, C_BUY_MAX, C_MAX_BUYS, C_BUY_AFTER_TWIST, C_MAX_STAKE_MULTIPLE, C_BUY_FACE_DOWN,
 C_DOUBLE_STAKES, C_SPLIT_BY_VALUE, C_MAX_SPLIT_HANDS, C_PONTOON_AFTER_SPLIT, C_PLAYERS, C_SEAT,
 C_BANKER_SEAT_ENV, C_DEALS_PER_EPISODE, C_STARTING_CHIPS, C_ACTIONS, C_SLOTS, C_SHOE_FULL,
 C_O_FEED_LEN, C_O_SHOE, C_O_FEED, C_FEED_CAPACITY, C_O_ACT_KIND, C_O_ACT_AMOUNT, C_O_STRAT,
 C_BANKER_STOPS_AT_FIVE, C_AUTOPILOT, C_BLIND, C_O_BY_KIND, C_COMPACT, C_PACK,
 C_FIELDS) = range(58)
"""Fixed fields of the int64 config (rules, seats, and the offsets of the parts of a table's rows
that depend on its size; the balances, the hands and their cards lie at fixed places: BALANCES,
HANDS, K_FIXED). The action table and the players follow at C_O_ACT_KIND, C_O_ACT_AMOUNT and
C_O_STRAT, and the action indices grouped by kind at C_O_BY_KIND (``by_kind``)."""
F_PENETRATION, F_PENALTY, F_O_STRAT, F_BANKER_CARDS_BOUND, F_FIELDS = range(5)
CHIP_FEATURES = 4096
"""Chip counts (0..4095) whose compact chip feature the float64 config holds, from F_FIELDS (the
encoder looks a Shoot, reserve or capacity up there instead of calling log1p: ``tables.chip_features``)."""
F_MULTIPLES = F_FIELDS + CHIP_FEATURES
"""Where the action table's buy multiples start in the float64 config (the players' parameters follow,
at F_O_STRAT)."""
NONE = -1
"""An optional rule (``None`` in Rules) as an int."""

# --------------------------------------------------------------------------- a table's int8 row
K_O_BC = 0
K_O_BU = K_O_BC + MAX_BANKER_CARDS
K_O_SEEN = K_O_BU + MAX_BANKER_CARDS
K_FIXED = K_O_SEEN + 13
"""The banker's cards, their face-up flags and the counts of ranks seen come first; the hands'
cards and flags, the shoe and fed shoe orders follow at the config's offsets."""

# --------------------------------------------------------------------------- the settlement bytes
SHOWDOWN_SHAPE = (5, MAX_TOTAL, 2, 2, 5, MAX_TOTAL, 2)
TAB_O_SPECIAL = int(np.prod(SHOWDOWN_SHAPE))
TAB_SIZE = TAB_O_SPECIAL + CARDS_PER_DECK * CARDS_PER_DECK

# --------------------------------------------------------------------------- table players
(S_BASE, S_RANDOM, S_THRESHOLD, S_TIPS, S_STAND, S_DEALER, S_SHOOT_AWARE, S_OPTIMAL, S_NETWORK) = range(9)
"""S_OPTIMAL: the solver's policy (an ``OptimalPunter``) from the batch's policy array, at a whole table.
S_NETWORK: a trained network (an ``ObservationPolicy`` with a numpy actor) from the batch's network arrays,
at a whole table (the network each table's seat plays: ``WholeTableBatch.net_of``)."""
SI_PUNTER_STICK, SI_BANKER_STAND, SI_A, SI_B, STRAT_INTS = range(1, 6)
"""Per seat in the config, STRAT_INTS ints: the player's kind, then the punter's stick-on total, the
banker's stand-on total, then two per kind (tips: big Shoot bet, large Shoot; dealer: hits soft 17;
shoot_aware: cautious stand-on)."""
SF_A, SF_B, STRAT_FLOATS = range(3)
"""Float parameters, STRAT_FLOATS per seat (shoot_aware: exposure fraction, sell-at multiple)."""
AP_NONE, AP_STRATEGY, AP_TABLE, AP_UNIFORM = range(4)
"""How the kernel plays the agent's seat itself in an evaluation (C_AUTOPILOT): not at all, by the
rule-based player in strategy slot ``num_players``, by a solver's policy table, uniformly over the mask.
C_BLIND: no observation is encoded (an evaluation whose agent the kernel plays needs only the mask);
C_COMPACT: the observation is features.compact_observation's, written directly."""
(N_COMPACT, N_MASKED, N_STARTING_CHIPS, N_INPUTS, N_LAYERS, N_ACTIONS, N_O_KIND, N_O_AMOUNT, N_O_MULTIPLE,
 N_O_LAYERS, N_FIELDS) = range(11)
"""A network's block in the batch's int64 network array (``tables.network_arrays``), which starts with
the count of networks and each block's offset: whether it reads the compact observation, whether its
actions are masked, the starting chips its encoder reads the balance from, its inputs, layers and
actions, where its action table's kinds and amounts lie (int array) and its buy multiples (float
array), and where its layers' rows start (NL_FIELDS each: outputs, weights' and biases' offsets in
the float array; the weights (inputs, outputs) row-major, as ``ActorArrays.weights``)."""
NL_OUTPUTS, NL_O_WEIGHTS, NL_O_BIASES, NL_FIELDS = range(4)
BATCHED_STRATEGIES = (Policy, RandomPlayer, ThresholdPunter, TipsPunter, StandOnBanker, DealerRulesBanker,
                      ShootAwareBanker)


BALANCES = T_FIELDS
HANDS = BALANCES + MAX_PLAYERS
"""The balances and the hands start at fixed places of the int32 row (room for the most seats), so
that the kernel's offsets are constants."""
HAND_UP = MAX_HAND_CARDS
HAND_BYTES = 2 * MAX_HAND_CARDS
"""A hand's bytes in the int8 row: its cards, then their face-up flags (HAND_UP after each card; hand
k's start at ``K_FIXED + k * HAND_BYTES``)."""


class Layout(NamedTuple):
    """Where the parts of one table that depend on its size lie in its int32 row and its int8 row (the
    ``players`` balances, the hands and their cards lie at the fixed places BALANCES, HANDS and
    K_FIXED)."""

    int_row: int
    byte_row: int
    players: int
    feed_len: int
    shoe: int
    feed: int


def table_layout(num_players: int, slots: int, shoe_size: int, feed_capacity: int) -> Layout:
    feed_len = HANDS + slots * H_FIELDS
    shoe = K_FIXED + slots * HAND_BYTES
    feed = shoe + shoe_size
    return Layout(int_row=feed_len + feed_capacity, byte_row=feed + feed_capacity * shoe_size, players=num_players,
                  feed_len=feed_len, shoe=shoe, feed=feed)


class Config(NamedTuple):
    """What every table of a batch shares: rules, seats, offsets, action table and players (ints and
    floats), and the settlement bytes (showdown outcomes and special Pontoon pairs)."""

    c: np.ndarray  # int64
    f: np.ndarray  # float64
    tab: np.ndarray  # int8 (TAB_SIZE)


def _opt(value: int | None) -> int:
    return NONE if value is None else int(value)


def rules_fields(rules: Rules) -> dict[int, int]:
    points = rules.shoot_bet_points
    return {
        C_DECKS: rules.num_decks, C_PERSISTENT: rules.shoe == "persistent", C_BASE_STAKE: rules.base_stake,
        C_MIN_STAKE: rules.min_stake, C_MAX_STAKE: rules.max_stake, C_MAX_BOXES: rules.max_boxes,
        C_SHOOT: rules.shoot, C_INITIAL_SHOOT: rules.initial_shoot, C_SHOOT_CAP: _opt(rules.shoot_cap),
        C_BET_BEFORE_DEAL: "before_deal" in points, C_BET_BEFORE_SECOND: "before_second_card" in points,
        C_BET_BEFORE_FOURTH: "before_fourth_card" in points, C_MAX_SHOOT_BET: _opt(rules.max_shoot_bet),
        C_RESERVE_PERCENT: rules.reserved_shoot_percent, C_PROGRESSIVE: rules.progressive_shoot_chips,
        C_BANK_SALE: rules.bank_sale, C_BANK_SALE_PRICE: rules.bank_sale_price, C_PEEK: rules.banker_peek,
        C_BANKER_PONTOON_MULTIPLE: rules.banker_pontoon_multiple, C_DEALER: rules.banker_play == "dealer",
        C_DEALER_STANDS_ON: rules.dealer_stands_on, C_DEALER_HITS_SOFT_17: rules.dealer_hits_soft_17,
        C_SHOWS_FIRST: rules.dealer_shows_first_card, C_BANKER_TRICK: rules.banker_five_cards == "trick",
        C_BANKER_STOPS_AT_FIVE: rules.banker_stops_at_five, C_STICK_MINIMUM: rules.stick_minimum,
        C_DRAW_ON_21: DRAW_ON_21_KINDS.index(rules.draw_on_21),
        C_BUY_MIN: rules.buy_min_multiple, C_BUY_MAX: rules.buy_max_multiple, C_MAX_BUYS: _opt(rules.max_buys),
        C_BUY_AFTER_TWIST: rules.buy_after_twist, C_MAX_STAKE_MULTIPLE: _opt(rules.max_stake_multiple),
        C_BUY_FACE_DOWN: rules.buy_face_down, C_DOUBLE_STAKES: rules.double_stakes,
        C_SPLIT_BY_VALUE: rules.split_match == "value", C_MAX_SPLIT_HANDS: rules.max_split_hands,
        C_PONTOON_AFTER_SPLIT: rules.pontoon_after_split, C_SHOE_FULL: rules.shoe_size,
        C_PACK: list(PACKS).index(rules.pack),
    }


def special_pairs(rules: Rules) -> np.ndarray:
    """``special[a, b]``: whether cards a and b make one of the rules' special Pontoons."""
    special = np.zeros((CARDS_PER_DECK, CARDS_PER_DECK), dtype=np.uint8)
    if rules.special_pontoons:
        for a, b in itertools.product(range(CARDS_PER_DECK), repeat=2):
            special[a, b] = is_special_pontoon([a, b], rules)
    return special


def _representatives(rules: Rules) -> dict[tuple[int, int, int, int], list[int]]:
    """One card list for every (class, total, from split, special) a punter hand can show down with."""
    found: dict[tuple[int, int, int, int], list[int]] = {}
    specials = [(a, b) for a in range(CARDS_PER_DECK) for b in range(CARDS_PER_DECK)
                if rules.special_pontoons and is_special_pontoon([a, b], rules)]
    candidates = [list(p) for p in specials]
    for size in range(2, MAX_HAND_CARDS + 1):
        candidates += [[rank * 4 for rank in ranks]
                       for ranks in itertools.combinations_with_replacement(range(13), size)]
    for cards in candidates:
        for split in (0, 1):
            rank = evaluate(cards, pontoon_possible=rules.pontoon_after_split or not split, five_card_trick=True)
            if rank.total >= MAX_TOTAL:  # a bust of many tens: settled when it busts, never shown down
                continue
            special = int(rank.hand_class == HandClass.PONTOON and is_special_pontoon(cards, rules))
            found.setdefault((int(rank.hand_class), rank.total, split, special), cards)
    return found


@functools.lru_cache(maxsize=16)
def showdown_table(rules: Rules) -> np.ndarray:
    """``table[class, total, from_split, special, banker class, banker total] = (outcome, multiple)``,
    filled by calling ``settlement.showdown`` on a representative hand of each key (-1: no such hand).

    ``showdown`` reads a hand only through its class, total, ``from_split`` and (for a Pontoon) whether
    it is a special Pontoon, so one representative decides every hand of its key.
    """
    table = np.full(SHOWDOWN_SHAPE, -1, dtype=np.int8)
    banker_ranks = [(cls, total) for cls in HandClass for total in range(MAX_TOTAL)]
    for (cls, total, split, special), cards in _representatives(rules).items():
        hand = Hand(seat=1, box=0, original_stake=1, stake=1, cards=list(cards), from_split=bool(split))
        for banker_class, banker_total in banker_ranks:
            outcome, multiple = showdown(hand, HandRank(banker_class, banker_total), rules)
            table[cls, total, split, special, int(banker_class), banker_total] = (int(outcome), multiple)
    return table


def action_arrays(action_table: ActionTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    entries = action_table.entries
    kinds = np.array([int(e.kind) for e in entries], dtype=np.int64)
    amounts = np.array([e.amount for e in entries], dtype=np.int64)
    multiples = np.array([e.multiple for e in entries], dtype=np.float64)
    return kinds, amounts, multiples


def by_kind(action_table: ActionTable) -> np.ndarray:
    """The action indices grouped by kind, after where each kind's group starts: ``NUM_KINDS + 1``
    starts, then the indices (so the mask visits only the indices of each legal move's kind)."""
    groups = action_table.indices_by_kind()
    starts, indices = [0], []
    for kind in ActionKind:
        indices += groups.get(kind, ())
        starts.append(len(indices))
    return np.array(starts + indices, dtype=np.int64)


class UnbatchableStrategy(ValueError):
    """A table player the batched engine cannot play (the message names the argument)."""


def strategy_code(argument: str, strategy: Policy) -> tuple[int, list[int], list[float]]:
    """The kernel's code of a rule-based table player, or :class:`UnbatchableStrategy` naming the
    argument it came from. Only the library's own classes are batched (exactly those classes: a
    subclass may change any decision)."""
    kind = type(strategy)
    ints, floats = [0, 17, 17, 0, 0], [0.0, 0.0]
    if kind is Policy:
        code = S_BASE
    elif kind is RandomPlayer:
        code = S_RANDOM
    elif kind is ThresholdPunter:
        code, ints[SI_PUNTER_STICK] = S_THRESHOLD, strategy.stick_on
    elif kind is TipsPunter:
        code, ints[SI_A], ints[SI_B] = S_TIPS, strategy.big_shoot_bet, strategy.large_shoot
    elif kind is StandOnBanker:
        code, ints[SI_BANKER_STAND] = S_STAND, strategy.stand_on
    elif kind is DealerRulesBanker:
        code, ints[SI_BANKER_STAND], ints[SI_A] = S_DEALER, strategy.stands_on, int(strategy.hits_soft_17)
    elif kind is ShootAwareBanker:
        code, ints[SI_BANKER_STAND], ints[SI_A] = S_SHOOT_AWARE, strategy.stand_on, strategy.cautious_stand_on
        floats = [float(strategy.exposure_fraction), float(strategy.sell_at)]
    else:
        raise UnbatchableStrategy(
            f"{argument} = {strategy!r}: the batched engine plays only the library's rule-based players "
            f"({', '.join(c.__name__ for c in BATCHED_STRATEGIES)}, or their names); an arbitrary Python "
            "Policy cannot run inside it. Use the scalar env (gym.make) or a SyncVectorEnv for this table."
        )
    for value in ints:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or abs(value) > CHIP_LIMIT:
            raise UnbatchableStrategy(f"{argument} = {strategy!r}: its parameters must be ints in "
                                      f"-{CHIP_LIMIT:,}..{CHIP_LIMIT:,}")
    return code, [int(v) for v in ints], floats




def settlement_bytes(rules: Rules) -> np.ndarray:
    """The showdown table followed by the special Pontoon pairs, as one int8 array."""
    tab = np.empty(TAB_SIZE, dtype=np.int8)
    tab[:TAB_O_SPECIAL] = showdown_table(rules).ravel()
    tab[TAB_O_SPECIAL:] = special_pairs(rules).ravel()
    return tab
