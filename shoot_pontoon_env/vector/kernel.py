"""The batched engine's kernel: ``Table``'s state machine, the env seat's loop, the rule-based table
players and the observation encoder, compiled by numba and run table after table.

Each function mirrors one method of the scalar code (named in its docstring) step for step, so that
the differential test (``tests/vector``) can hold the two to the same observation, reward, mask and
chips at every step. A table is two rows: ``t`` (int32: the Table's and the env's scalars, the
balances, the hands) and ``k8`` (int8: cards, face-up flags, seen counts, the shoe); ``c``, ``f`` and
``tab`` are the batch's config (``layout.py``). Passing rows rather than whole batches keeps every
call cheap. Randomness: the shoe is shuffled lazily (a Fisher-Yates step per card drawn) and the
random table player draws, both from the one ``numpy.random.Generator`` passed in (as its handle,
``bitgen.py``); in fed mode
(tests) every shuffle takes the next order given instead.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..seat import encoding as enc
from ..seat import features as feat
from ..rules import MAX_DECKS
from ..solver.space import BUY_BASE as SOLVER_BUY_BASE
from ..solver.space import DOUBLE as SOLVER_DOUBLE
from ..solver.space import SPLIT as SOLVER_SPLIT
from ..solver.space import STICK as SOLVER_STICK
from ..solver.space import TWIST as SOLVER_TWIST
from .policy import MAX_BUYS as P_MAX_BUYS
from .policy import MAX_STAKE_MULTIPLE as P_MAX_STAKE_MULTIPLE
from .policy import (P_ACT, P_ACT_FULL, P_ACT_OPEN, P_BET_DEAL, P_BET_FOURTH, P_BET_SECOND, P_CHILD, P_CTX, P_FLAG,
                     P_FLAGS, P_LEVEL_SIZE, P_OPEN, P_SHOOT, P_SPLIT, P_SPLIT_FULL, P_SPLIT_OPEN, P_STAKE, P_START)
from .bitgen import HANDLE, next_double
from .compiler import EVALUATION, POLICY, WHOLE_TABLE, KernelCompiler
from .layout import (
    STAGE_PHASES,
    AP_TABLE, AP_UNIFORM, BALANCES, C_ACTIONS, C_AUTOPILOT, C_BANKER_SEAT_ENV, C_BANKER_STOPS_AT_FIVE,
    C_BANKER_TRICK, C_BANK_SALE, C_BANK_SALE_PRICE, C_BASE_STAKE, C_BET_BEFORE_DEAL, C_BET_BEFORE_FOURTH,
    C_BET_BEFORE_SECOND, C_BLIND, C_BUY_AFTER_TWIST, C_COMPACT, C_BUY_FACE_DOWN, C_BUY_MAX, C_BUY_MIN, C_DEALER,
    C_DEALER_HITS_SOFT_17, C_DEALER_STANDS_ON, C_DEALS_PER_EPISODE, C_DECKS, C_DOUBLE_STAKES,
    C_DRAW_ON_21, C_FEED_CAPACITY, C_INITIAL_SHOOT, C_MAX_BOXES, C_MAX_BUYS, C_MAX_SHOOT_BET,
    C_MAX_SPLIT_HANDS, C_MAX_STAKE, C_MAX_STAKE_MULTIPLE, C_MIN_STAKE, C_O_ACT_AMOUNT, C_O_ACT_KIND,
    C_O_BY_KIND, C_O_FEED, C_O_FEED_LEN, C_O_SHOE, C_O_STRAT, C_PEEK,
    C_PERSISTENT, C_PLAYERS, C_PONTOON_AFTER_SPLIT, C_PROGRESSIVE, C_RESERVE_PERCENT, C_SEAT,
    C_SHOE_FULL, C_SHOOT, C_SHOOT_CAP, C_SHOWS_FIRST, C_SPLIT_BY_VALUE, C_STARTING_CHIPS,
    C_STICK_MINIMUM, DRAW_ANY, DRAW_SOFT, E_BAD_ACTION, E_FEED_EMPTY, E_NO_DECISION, E_OPPONENT_ILLEGAL,
    E_RUNAWAY, E_SHOE_EXHAUSTED, CHIP_FEATURES, F_BANKER_CARDS_BOUND, F_FIELDS, F_MULTIPLES, F_O_STRAT,
    F_PENALTY, F_PENETRATION,
    HANDS, HAND_BYTES, HAND_UP, NL_FIELDS, NL_OUTPUTS, NL_O_BIASES, NL_O_WEIGHTS, N_ACTIONS, N_COMPACT, N_INPUTS,
    N_LAYERS, N_MASKED, N_O_AMOUNT, N_O_KIND, N_O_LAYERS, N_O_MULTIPLE, N_STARTING_CHIPS, HC_BUST, HC_FIVE_CARD_TRICK, HC_PONTOON, HC_TOTAL, HC_TWENTY_ONE, H_BOX, H_BUYS,
    H_CARDS, H_DONE, H_DOUBLED, H_FIELDS, H_FOURTH_OFFERED, H_FROM_SPLIT, H_ORIGINAL, H_RESHUFFLED, H_RESULT, H_SEAT,
    H_SETTLED, H_SHOOT_BET, H_STAKE, H_TWISTS, H_WON_FROM_SHOOT, K_BUY, K_DOUBLE, K_KEEP_BANK, K_O_BC,
    K_FIXED, K_O_BU, K_O_SEEN, K_SELL_BANK, K_SHOOT_BET, K_SPLIT, K_STAKE, K_STICK, K_TWIST,
    MAX_BANKER_CARDS, MAX_HAND_CARDS, MAX_TOTAL, NONE, NUM_KINDS, O_LOSE, O_PUSH, O_WIN, PH_BANKER, PH_BANK_DECISION,
    PH_DEAL_OVER, PH_PLAY, PH_SHOOT_BETS, PH_STAKES, SF_A, SF_B, SI_A, SI_B, SI_BANKER_STAND,
    SI_PUNTER_STICK, STRAT_FLOATS, STRAT_INTS, ST_BANK, ST_BANKER, ST_BET_BEFORE_DEAL,
    ST_BET_BEFORE_SECOND, ST_FIRST_CARDS, ST_OVER, ST_PEEK, ST_PLAY, ST_SECOND_CARDS, ST_SETTLE,
    ST_STAKES, S_DEALER, S_OPTIMAL, S_RANDOM, S_SHOOT_AWARE, S_TIPS, TAB_O_SPECIAL, T_ACK, T_BANKER, T_BANKER_CARDS,
    T_BOX, T_CURSOR, T_DEALS, T_DEAL_NUMBER, T_DECIDED, T_ERROR, T_FEED_COUNT, T_FEED_HEAD, T_FORFEITED,
    T_HAND, T_HANDS, T_ILLEGAL, T_KEY_HI, T_KEY_LO, T_NEEDS_RESET, T_RESERVE, T_REVEALED, T_SEED_HI, T_SEED_LO,
    T_SHOE_POS, T_SHOE_SHUFFLED, T_SHOE_SIZE, T_SHOOT, T_SHUFFLES, T_STAGE, T_TERMINAL, T_TURNOVERS,
    T_WEALTH_MARK,
)

CONSTANTS_FINGERPRINT = "7c0a86bdf03a9416"
"""A digest of the constants of the modules this file imports (``constants_fingerprint``). numba keys
its on-disk cache on the text of this file alone, yet compiles those constants into the kernel: so
when one of them changes, this line must change too, or a cached kernel would go on using the old
ones. Importing this module checks it, and says the new value."""


def constants_fingerprint() -> str:
    """The digest of every upper-case constant of layout.py, policy.py, seat/encoding.py,
    seat/features.py, rules.py and solver/space.py (what this file compiles in from elsewhere) whose
    value is plain: an int, float,
    bool, str or slice, or a tuple of them (printed the same by every Python and numpy)."""
    import hashlib

    from .. import rules
    from ..seat import features
    from ..solver import space
    from . import layout, policy

    def plain(value: object) -> bool:
        if type(value) is tuple:
            return all(plain(item) for item in value)
        return type(value) in (int, float, bool, str, slice)

    digest = hashlib.sha256()
    for module in (layout, policy, enc, features, rules, space):
        for name, value in sorted(vars(module).items()):
            if name.isupper() and plain(value):
                digest.update(f"{module.__name__}.{name}={value!r};".encode())
    return digest.hexdigest()[:16]


if constants_fingerprint() != CONSTANTS_FINGERPRINT:
    raise RuntimeError(
        f"{__file__}: CONSTANTS_FINGERPRINT is {CONSTANTS_FINGERPRINT!r}, but the constants it compiles in "
        f"now give {constants_fingerprint()!r}: write that value there (numba's cache of the kernel would "
        "otherwise be stale)"
    )

COMPILER = KernelCompiler(globals())
"""Compiles this module's functions on first use (``compile()`` compiles them all, e.g. at install)."""
compile = COMPILER.compile  # noqa: A001 - kernel.compile(): the module's own compile step

I, B, F = types.int64, types.boolean, types.float64
I32ROW = types.Array(types.int32, 1, "C")
I8ROW = types.Array(types.int8, 1, "C")
I64 = types.Array(types.int64, 1, "C")
F64 = types.Array(types.float64, 1, "C")
F32ROW = types.Array(types.float32, 1, "C")
BOOLS = types.Array(types.boolean, 1, "C")
I32ROWS = types.Array(types.int32, 2, "C")
I8ROWS = types.Array(types.int8, 2, "C")
F32ROWS = types.Array(types.float32, 2, "C")
BOOLROWS = types.Array(types.boolean, 2, "C")
F32 = types.Array(types.float32, 1, "C")
RNG = HANDLE
"""A Generator's bit generator (``bitgen.py``): every random draw of the kernel."""
CFG = (I64, F64, I8ROW)
"""c, f, tab: the batch's config."""
ROWS = (I32ROW, I8ROW)
"""t, k8: one table."""


def jit(*arg_types, entry=False, call=False, ir=False):
    """Compiled once, for exactly these argument types (so constants do not make new versions), and
    cached on disk beside this module; only ``entry`` points are callable from Python. Compiled
    lazily (``compiler.py``): a group on the first call of one of its entry points. Nothing is
    compiled with numba's reference counting (``_nrt``): the kernel allocates nothing, and the
    Generator, whose unboxing would need it, reaches the kernel as a handle (``bitgen.py``). Nor with
    numba's negative-index wraparound (``indexing.py``): no index of the kernel counts from the end.

    Every other function is inlined into its callers by LLVM (``forceinline``): a numba call passes
    each array as seven words, so the game's many small functions cost more in calls than in work
    (inlining them cut the time per step by a third to a half, ``docs/RESULTS.md``). ``call``
    functions stay calls: the rare stages (a deal's start and settlement, splits, restocks, the bank,
    forfeits), which would otherwise be copied into every caller and lengthen the compile (inlining
    those too took 2.5x the compile for about 15% more speed).

    ``ir`` functions are the layers above the game (a table's turn, its reset and step, the table
    players' loop): numba inlines them into their one caller before typing (``inline="always"``), so
    they have no machine code of their own. numba compiles every function with all that it calls, so
    each of these layers, had it been a function of its own, would have compiled the whole game once
    more; and each is called from one place only (a reset and a step share one path through
    ``env_turn``), so the game is in each entry point once (the first compile 31.7 -> 16.0 CPU-s,
    ``docs/RESULTS.md``). Numba's inlining is kept to these: on the game's many small functions with
    many callers it compiles far slower than LLVM's."""
    flat = []
    for item in arg_types:
        flat.extend(item if isinstance(item, tuple) else (item,))
    options = dict(nogil=True, no_cpython_wrapper=not entry, _nrt=False, forceinline=not (entry or call))
    if ir:
        options = dict(nogil=True, no_cpython_wrapper=True, _nrt=False, inline="always")
    return COMPILER.jit(tuple(flat), options, entry)


AGENT, AUTO, NEXT_DEAL, OVER = 0, 1, 2, 3
STEP_LIMIT = 100_000
"""Automatic actions one table may take inside one call before it counts as a runaway."""
MOVE = 3
"""A legal move in mv: kind, low, high."""


def scratch_size(slots: int) -> int:
    """int64 scratch of the entry points: legal moves (8), rank counts (52), showdown outcomes."""
    return MOVE * 8 + 52 + 2 * slots

# the observation layout (seat/encoding.py) and the compact row's (seat/features.py), as plain ints
O_PHASE = enc.PHASE.start
O_BET_POINT = enc.BET_POINT.start
O_LEGAL_KINDS = enc.LEGAL_KINDS.start
O_MOVES = enc.MOVES.start
O_SEAT_IS_BANKER, O_SEAT_OWN, O_SEAT_BANKER, O_SEAT_PLAYERS, O_SEAT_PLACE = (
    enc.SEAT_IS_BANKER, enc.SEAT_OWN, enc.SEAT_BANKER, enc.SEAT_PLAYERS, enc.SEAT_PLACE)
O_CHIP_SHOOT, O_CHIP_RESERVE, O_CHIP_CAPACITY, O_CHIP_BALANCE = (
    enc.CHIP_SHOOT, enc.CHIP_RESERVE, enc.CHIP_CAPACITY, enc.CHIP_BALANCE)
O_BANKER_FIRST = enc.BANKER_FIRST.start
O_BANKER_RANKS = enc.BANKER_RANKS.start
O_BANKER_VISIBLE, O_BANKER_HIDDEN, O_BANKER_TOTAL, O_BANKER_SOFT, O_BANKER_BUST = (
    enc.BANKER_VISIBLE, enc.BANKER_HIDDEN, enc.BANKER_TOTAL, enc.BANKER_SOFT, enc.BANKER_BUST)
O_BANKER_PONTOON, O_BANKER_FIVE_CARD_TRICK = enc.BANKER_PONTOON, enc.BANKER_FIVE_CARD_TRICK
O_COUNT_RANKS = enc.COUNT_RANKS.start
O_COUNT_SHOE = enc.COUNT_SHOE
O_EPISODE = enc.EPISODE.start
O_CURRENT = enc.CURRENT.start
O_HANDS = enc.HANDS_START
HAND_SIZE = enc.HAND_SIZE
OH_PRESENT, OH_OWN, OH_CURRENT, OH_PLACE, OH_VISIBLE, OH_HIDDEN = (
    enc.H_PRESENT, enc.H_OWN, enc.H_CURRENT, enc.H_PLACE, enc.H_VISIBLE, enc.H_HIDDEN)
OH_RANKS = enc.H_RANKS.start
(OH_TOTAL, OH_SOFT, OH_STAKE, OH_ORIGINAL, OH_SHOOT_BET, OH_BUYS, OH_TWISTS, OH_DOUBLED, OH_FROM_SPLIT,
 OH_DONE, OH_SETTLED, OH_BUST, OH_PONTOON, OH_FIVE_CARD_TRICK, OH_STUCK, OH_RESULT) = (
    enc.H_TOTAL, enc.H_SOFT, enc.H_STAKE, enc.H_ORIGINAL, enc.H_SHOOT_BET, enc.H_BUYS, enc.H_TWISTS,
    enc.H_DOUBLED, enc.H_FROM_SPLIT, enc.H_DONE, enc.H_SETTLED, enc.H_BUST, enc.H_PONTOON,
    enc.H_FIVE_CARD_TRICK, enc.H_STUCK, enc.H_RESULT)
CHIP_BOUND = enc.CHIP_BOUND
O_BANKER = enc.BANKER.start
O_COUNT = enc.COUNT.start
BANKER_SIZE = enc.BANKER.stop - enc.BANKER.start
(CF_PHASE, CF_BET_POINT, CF_LEGAL_KINDS, CF_TOTAL, CF_HAND, CF_BANKER, CF_COUNT, CF_CHIPS, CF_EPISODE) = (
    feat.CF_PHASE, feat.CF_BET_POINT, feat.CF_LEGAL_KINDS, feat.CF_TOTAL, feat.CF_HAND, feat.CF_BANKER,
    feat.CF_COUNT, feat.CF_CHIPS, feat.CF_EPISODE)
(CH_PRESENT, CH_SOFT, CH_PAIR, CH_CARDS, CH_STAKE_RATIO, CH_BUYS, CH_TWISTS, CH_DOUBLED, CH_FROM_SPLIT,
 CH_SHOOT_BET) = (feat.CH_PRESENT, feat.CH_SOFT, feat.CH_PAIR, feat.CH_CARDS, feat.CH_STAKE_RATIO, feat.CH_BUYS,
                  feat.CH_TWISTS, feat.CH_DOUBLED, feat.CH_FROM_SPLIT, feat.CH_SHOOT_BET)
COMPACT_TOTALS = feat.MAX_TOTAL + 1
CHIP_LOG_SCALE = feat.CHIP_LOG_SCALE
F32_CARDS = np.float32(enc.MAX_CARDS)
F32_TOTAL_SCALE = np.float32(enc.TOTAL_SCALE)
TOTAL_BOUND = enc.TOTAL_BOUND
TOTAL_SCALE = enc.TOTAL_SCALE
SEAT_SCALE = enc.SEAT_SCALE
MAX_PLAYERS = enc.MAX_PLAYERS
FIFTH = np.float32(1.0 / enc.MAX_CARDS)
CARDS_SCALE = float(enc.MAX_CARDS)
DRAWS_SCALE = float(enc.MAX_DRAWS)


def _scaled(size: int, scale: float, high: float = np.inf) -> np.ndarray:
    """``clip(i / scale, 0, high)`` for i in range(size), as the doubles the encoder stores (a table
    lookup instead of a division: the same double, so the same float32)."""
    return np.array([min(i / scale, high) for i in range(size)], dtype=np.float64)


CARDS_SCALED = _scaled(MAX_BANKER_CARDS + 1, CARDS_SCALE)
HIDDEN_SCALED = _scaled(MAX_BANKER_CARDS + 1, CARDS_SCALE, 1.0)
TOTAL_SCALED = _scaled(MAX_TOTAL, TOTAL_SCALE, TOTAL_BOUND)
DRAWS_SCALED = _scaled(MAX_HAND_CARDS + 1, DRAWS_SCALE, 1.0)
SEAT_SCALED = _scaled(MAX_PLAYERS + 1, SEAT_SCALE)
TOTAL_ONE_HOT = np.array([min(int(np.rint(np.float32(x) * F32_TOTAL_SCALE)), COMPACT_TOTALS) for x in TOTAL_SCALED],
                         dtype=np.int64)
"""The compact row's TOTAL slot of a hand total: the flat slot's float32 total scaled back and rounded, as
features.compact_observation reads it."""
CARDS_HELD = np.array([[int(np.rint(np.float32(CARDS_SCALED[v]) * F32_CARDS + np.float32(CARDS_SCALED[h]) * F32_CARDS))
                        for h in range(MAX_BANKER_CARDS + 1)] for v in range(MAX_BANKER_CARDS + 1)], dtype=np.int64)
"""CARDS_HELD[visible, hidden]: the cards a hand holds as features.compact_observation reads them back from
the flat slot's float32 counts."""
COUNT_FRACTIONS = np.array([_scaled(4 * MAX_DECKS + 1, 4.0 * max(decks, 1), 1.0)
                            for decks in range(MAX_DECKS + 1)]).astype(np.float32)
"""COUNT_FRACTIONS[decks, n]: the fraction of a rank's cards seen (n of 4 x decks), as the observation
stores it (float32)."""
PACK_ORDER = np.array([card for _ in range(MAX_DECKS) for card in range(52)], dtype=np.int8)
"""The largest shoe in pack order (each pack's 52 cards in turn); a fresh shoe is its first cards."""
SHOWDOWN_STRIDES = tuple(int(s) for s in np.cumprod((1, 2, MAX_TOTAL, 5, 2, 2, MAX_TOTAL))[::-1])
SD_CLASS, SD_TOTAL, SD_SPLIT, SD_SPECIAL, SD_BANKER, SD_BANKER_TOTAL, SD_FIELD = SHOWDOWN_STRIDES


# =========================================================================== rows
STAGE_PHASE = np.array(STAGE_PHASES, dtype=np.int64)


@jit(I32ROW)
def phase_of(t):
    """Table.phase: the phase of the stage the table rests at (the row holds the stage alone)."""
    return STAGE_PHASE[t[T_STAGE]]


@jit(I64, I, I)
def hand_at(c, k, field):
    """Index in t of a field of hand k."""
    return HANDS + k * H_FIELDS + field


@jit(I64, I, I)
def card_at(c, k, p):
    """Index in k8 of card p of hand k (its face-up flag: + HAND_UP)."""
    return K_FIXED + k * HAND_BYTES + p


@jit(I32ROW, I, I)
def fail(t, _unused, code):
    if t[T_ERROR] == 0:
        t[T_ERROR] = code


# =========================================================================== cards (cards.py)
@jit(I)
def card_value(card):
    value = (card >> 2) + 1  # card // 4 + 1 (a shift: cards are never negative)
    return 10 if value > 10 else value


@jit(I8ROW, I, I)
def best_total(k8, start, n):
    """cards.best_total of the n cards from k8[start]: (total, soft)."""
    hard = 0
    ace = False
    for p in range(n):
        value = card_value(k8[start + p])
        hard += value
        if value == 1:
            ace = True
    if ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@jit(I8ROW, I, I)
def is_pontoon_pair(k8, start, n):
    if n != 2:
        return False
    a = card_value(k8[start])
    b = card_value(k8[start + 1])
    return (a == 1 and b == 10) or (a == 10 and b == 1)


@jit(ROWS, I64, I)
def hand_total(t, k8, c, k):
    return best_total(k8, card_at(c, k, 0), t[hand_at(c, k, H_CARDS)])


@jit(ROWS, I64, I)
def hand_class(t, k8, c, k):
    """settlement.hand_rank of hand k: (class, total)."""
    n = t[hand_at(c, k, H_CARDS)]
    start = card_at(c, k, 0)
    total, _ = best_total(k8, start, n)
    if total > 21:
        return HC_BUST, total
    possible = c[C_PONTOON_AFTER_SPLIT] != 0 or t[hand_at(c, k, H_FROM_SPLIT)] == 0
    if possible and is_pontoon_pair(k8, start, n):
        return HC_PONTOON, 21
    if n >= MAX_HAND_CARDS:
        return HC_FIVE_CARD_TRICK, total
    if total == 21:
        return HC_TWENTY_ONE, 21
    return HC_TOTAL, total


@jit(ROWS, I64)
def banker_class(t, k8, c):
    """settlement.banker_rank: (class, total)."""
    n = t[T_BANKER_CARDS]
    total, _ = best_total(k8, K_O_BC, n)
    if total > 21:
        return HC_BUST, total
    if is_pontoon_pair(k8, K_O_BC, n):
        return HC_PONTOON, 21
    if c[C_BANKER_TRICK] != 0 and n >= MAX_HAND_CARDS:
        return HC_FIVE_CARD_TRICK, total
    if total == 21:
        return HC_TWENTY_ONE, 21
    return HC_TOTAL, total


@jit(I64, I, B)
def may_draw(c, total, soft):
    """Rules.may_draw_on: whether a hand of this total may still take a card (Rules.draw_on_21)."""
    rule = c[C_DRAW_ON_21]
    return total < 21 or (total == 21 and (rule == DRAW_ANY or (rule == DRAW_SOFT and soft)))


# =========================================================================== legality (Table.legal_moves)
@jit(I64, I, I, I, I)
def put(mv, n, kind, low, high):
    mv[MOVE * n] = kind
    mv[MOVE * n + 1] = low
    mv[MOVE * n + 2] = high
    return n + 1


@jit(I64, I, I)
def find(mv, n, kind):
    for m in range(n):
        if mv[MOVE * m] == kind:
            return m
    return -1


@jit(I64, I, I, I)
def allows(mv, n, kind, amount):
    for m in range(n):
        if mv[MOVE * m] == kind and mv[MOVE * m + 1] <= amount <= mv[MOVE * m + 2]:
            return True
    return False


@jit(I32ROW, I64)
def shoot_capacity(t, c):
    """Table.shoot_capacity."""
    outstanding = 0
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SETTLED)] == 0:
            outstanding += t[hand_at(c, k, H_SHOOT_BET)]
    capacity = t[T_SHOOT] - outstanding
    limit = c[C_MAX_SHOOT_BET]
    if limit != NONE and limit < capacity:
        capacity = limit
    return capacity if capacity > 0 else 0


@jit(I32ROW, I64, I)
def fourth_card_bet_due(t, c, k):
    return (c[C_BET_BEFORE_FOURTH] != 0 and t[hand_at(c, k, H_CARDS)] == 3
            and t[hand_at(c, k, H_FOURTH_OFFERED)] == 0 and shoot_capacity(t, c) > 0)


@jit(I32ROW, I64, I)
def buy_range(t, c, k):
    """Table._buy_range: (low, high), empty when low > high."""
    if c[C_MAX_BUYS] == 0 or t[hand_at(c, k, H_CARDS)] >= MAX_HAND_CARDS:
        return 1, 0
    if c[C_MAX_BUYS] != NONE and t[hand_at(c, k, H_BUYS)] >= c[C_MAX_BUYS]:
        return 1, 0
    if t[hand_at(c, k, H_TWISTS)] > 0 and c[C_BUY_AFTER_TWIST] == 0:
        return 1, 0
    original = t[hand_at(c, k, H_ORIGINAL)]
    low = c[C_BUY_MIN] * original
    high = c[C_BUY_MAX] * original
    if c[C_MAX_STAKE_MULTIPLE] != NONE:
        room = c[C_MAX_STAKE_MULTIPLE] * original - t[hand_at(c, k, H_STAKE)]
        if room < high:
            high = room
    return low, high


@jit(ROWS, I64, I)
def can_split(t, k8, c, k):
    """Table._can_split."""
    limit = c[C_MAX_SPLIT_HANDS]
    if limit < 2:
        return False
    seat = t[hand_at(c, k, H_SEAT)]
    box = t[hand_at(c, k, H_BOX)]
    family = 0
    for other in range(t[T_HANDS]):
        if t[hand_at(c, other, H_SEAT)] == seat and t[hand_at(c, other, H_BOX)] == box:
            family += 1
    if family >= limit:
        return False
    a = k8[card_at(c, k, 0)]
    b = k8[card_at(c, k, 1)]
    if c[C_SPLIT_BY_VALUE] == 0:
        return a // 4 == b // 4
    return card_value(a) == card_value(b)


@jit(ROWS, I64, I, I64)
def hand_moves(t, k8, c, k, mv):
    """Table._hand_moves."""
    total, soft = hand_total(t, k8, c, k)
    n = 0
    if total >= c[C_STICK_MINIMUM]:
        n = put(mv, n, K_STICK, 0, 0)
    if t[hand_at(c, k, H_DOUBLED)] != 0:
        if t[hand_at(c, k, H_TWISTS)] == 0:
            n = put(mv, n, K_TWIST, 0, 0)
        return n
    if may_draw(c, total, soft):
        n = put(mv, n, K_TWIST, 0, 0)
        low, high = buy_range(t, c, k)
        if low <= high:
            n = put(mv, n, K_BUY, low, high)
    if t[hand_at(c, k, H_CARDS)] == 2 and t[hand_at(c, k, H_BUYS)] + t[hand_at(c, k, H_TWISTS)] == 0:
        if can_split(t, k8, c, k):
            n = put(mv, n, K_SPLIT, 0, 0)
        if c[C_DOUBLE_STAKES] != 0:
            n = put(mv, n, K_DOUBLE, 0, 0)
    return n


@jit(ROWS, I64, I64)
def legal_moves(t, k8, c, mv):
    """Table.legal_moves into mv (kind, low, high per move); returns how many."""
    phase = phase_of(t)
    if phase == PH_STAKES:
        n = 0
        if t[T_BOX] > 0:
            n = put(mv, n, K_STAKE, 0, 0)
        return put(mv, n, K_STAKE, c[C_MIN_STAKE], c[C_MAX_STAKE])
    if phase == PH_SHOOT_BETS:
        return put(mv, 0, K_SHOOT_BET, 0, shoot_capacity(t, c))
    if phase == PH_PLAY:
        k = t[T_CURSOR]
        if fourth_card_bet_due(t, c, k):
            return put(mv, 0, K_SHOOT_BET, 0, shoot_capacity(t, c))
        return hand_moves(t, k8, c, k, mv)
    if phase == PH_BANKER:
        n = put(mv, 0, K_STICK, 0, 0)
        total, soft = best_total(k8, K_O_BC, t[T_BANKER_CARDS])
        if may_draw(c, total, soft):
            n = put(mv, n, K_TWIST, 0, 0)
        return n
    if phase == PH_BANK_DECISION:
        n = put(mv, 0, K_KEEP_BANK, 0, 0)
        return put(mv, n, K_SELL_BANK, 0, 0)
    return 0


@jit(I32ROW, I64)
def staker(t, c):
    """The seat whose stakes are due: the cursor-th after the banker, ``(banker + 1 + cursor) %
    players`` (the cursor stays below players - 1, so one subtraction does it, without a division)."""
    seat = t[T_BANKER] + 1 + t[T_CURSOR]
    players = c[C_PLAYERS]
    return seat - players if seat >= players else np.int64(seat)


@jit(I32ROW, I64)
def to_act(t, c):
    """Table.to_act (-1: None)."""
    phase = phase_of(t)
    if phase == PH_STAKES:
        return staker(t, c)
    if phase == PH_SHOOT_BETS or phase == PH_PLAY:
        return t[hand_at(c, t[T_CURSOR], H_SEAT)]
    if phase == PH_BANKER or phase == PH_BANK_DECISION:
        return t[T_BANKER]
    return -1


@jit(I32ROW, I64)
def shoot_bet_point(t, c):
    """Table.shoot_bet_point as an index of SHOOT_BET_POINTS (-1: None)."""
    phase = phase_of(t)
    if phase == PH_SHOOT_BETS:
        return 0 if t[T_STAGE] == ST_BET_BEFORE_DEAL else 1
    if phase == PH_PLAY and fourth_card_bet_due(t, c, t[T_CURSOR]):
        return 2
    return -1



# =========================================================================== keyed uniform numbers
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
KEY_BITS = 31
KEY_MASK = (1 << KEY_BITS) - 1


@jit(types.uint64)
def mix(z):
    """SplitMix64's finaliser: a bijective scramble of 64 bits."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit(I32ROW)
def reseed(t):
    """The shuffle's seed, mix(key ^ shuffle x GOLDEN), from the episode's key and the shuffle's number,
    kept in the row (two 32-bit halves) so that a draw hashes only its position. Called wherever either
    changes."""
    key = np.uint64(t[T_KEY_LO]) | (np.uint64(t[T_KEY_HI]) << np.uint64(KEY_BITS))
    seed = mix(key ^ (np.uint64(t[T_SHUFFLES]) * GOLDEN))
    t[T_SEED_LO] = np.int32(np.uint32(seed & np.uint64(0xFFFFFFFF)))
    t[T_SEED_HI] = np.int32(np.uint32(seed >> np.uint64(32)))


@jit(I32ROW, I)
def keyed_uniform(t, position):
    """A uniform number in [0, 1) from the episode's key, the shuffle's number (their seed, ``reseed``)
    and a position."""
    seed = np.uint64(np.uint32(t[T_SEED_LO])) | (np.uint64(np.uint32(t[T_SEED_HI])) << np.uint64(32))
    z = mix(seed + np.uint64(position))
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit(I32ROW, I)
def set_key(t, key):
    t[T_KEY_LO] = key & KEY_MASK
    t[T_KEY_HI] = (key >> KEY_BITS) & KEY_MASK
    reseed(t)


@jit(RNG)
def uniform(rng):
    """Generator.random() of the Generator whose handle ``rng`` is."""
    return next_double(rng[0], rng[1])


@jit(RNG)
def draw_key(rng):
    """A new episode's key, from the batch's Generator."""
    return np.int64(uniform(rng) * 4611686018427387904.0)


@jit(I, I, entry=True)
def hand_key(seed, hand):
    """The key of hand ``hand`` of an evaluation seeded ``seed`` (62 bits)."""
    return np.int64(mix(mix(np.uint64(seed)) + np.uint64(hand)) >> np.uint64(2))

# =========================================================================== the shoe (shoe.py)
@jit(ROWS, I64, call=True)
def take_fed_order(t, k8, c):
    head = t[T_FEED_HEAD]
    if head >= t[T_FEED_COUNT]:
        fail(t, 0, E_FEED_EMPTY)
        return
    length = t[c[C_O_FEED_LEN] + head]
    source = c[C_O_FEED] + head * c[C_SHOE_FULL]
    shoe = c[C_O_SHOE]
    for p in range(length):
        k8[shoe + p] = k8[source + p]
    t[T_SHOE_SIZE] = length
    t[T_SHOE_SHUFFLED] = length
    t[T_FEED_HEAD] = head + 1


@jit(ROWS, I64, call=True)
def fresh_shoe(t, k8, c):
    """A new Shoe: every card in pack order, no shuffle yet (copied through a view, whose indices from
    0 compile to a vector copy: the evaluation deals each hand from a fresh shoe, and the byte loop
    this replaces was a fifth of its time)."""
    shoe, size = k8[c[C_O_SHOE]:], c[C_SHOE_FULL]
    for q in range(size):
        shoe[q] = PACK_ORDER[q]
    t[T_SHOE_SIZE] = size
    t[T_SHOE_POS] = 0
    t[T_SHOE_SHUFFLED] = 0
    t[T_SHUFFLES] = 0
    reseed(t)


@jit(ROWS, I64, call=True)
def renew_shoe(t, k8, c):
    """A new Shoe for the next shuffle only: the cards stay in whatever order they are (the lazy
    shuffle draws a uniform order from any arrangement), unless a restock left part of them out."""
    if t[T_SHOE_SIZE] != c[C_SHOE_FULL]:
        fresh_shoe(t, k8, c)
    t[T_SHOE_POS] = 0
    t[T_SHOE_SHUFFLED] = 0
    t[T_SHUFFLES] = 0
    reseed(t)


@jit(I8ROW)
def clear_seen(k8):
    for r in range(13):
        k8[K_O_SEEN + r] = 0


@jit(ROWS, I64)
def shuffle(t, k8, c):
    """Shoe.shuffle: every card back in; the order is drawn lazily, card by card, in draw()."""
    if c[C_FEED_CAPACITY] > 0:
        take_fed_order(t, k8, c)
    else:
        if t[T_SHOE_SIZE] != c[C_SHOE_FULL]:
            fresh_shoe(t, k8, c)
        t[T_SHOE_SHUFFLED] = 0
    t[T_SHOE_POS] = 0
    t[T_SHUFFLES] += 1
    reseed(t)


@jit(ROWS, I64, I64, call=True)
def restock(t, k8, c, counts):
    """Table._draw's restock: every card of no live hand, shuffled into a new stock."""
    for card in range(52):
        counts[card] = c[C_DECKS]
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SETTLED)] == 0:
            for p in range(t[hand_at(c, k, H_CARDS)]):
                counts[k8[card_at(c, k, p)]] -= 1
    for p in range(t[T_BANKER_CARDS]):
        counts[k8[K_O_BC + p]] -= 1
    size = 0
    for card in range(52):
        size += counts[card]
    if size == 0:
        fail(t, 0, E_SHOE_EXHAUSTED)
        return
    if c[C_FEED_CAPACITY] > 0:
        take_fed_order(t, k8, c)
    else:
        p = c[C_O_SHOE]
        for card in range(52):
            for _ in range(counts[card]):
                k8[p] = card
                p += 1
        t[T_SHOE_SIZE] = size
        t[T_SHOE_SHUFFLED] = 0
    t[T_SHOE_POS] = 0
    t[T_SHUFFLES] += 1
    reseed(t)
    clear_seen(k8)
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SETTLED)] != 0:
            t[hand_at(c, k, H_RESHUFFLED)] = 1


@jit(ROWS, I64, RNG, I64)
def draw(t, k8, c, rng, counts):
    """Shoe.draw (restocking when the stock is empty), with the lazy Fisher-Yates step: the card at
    the draw position is swapped with one chosen uniformly from those not drawn yet, by the uniform
    number of (the episode's key, the shuffle, the position), so that an episode's shoe order depends
    on its key alone, however many cards are drawn (common random numbers across agents)."""
    if t[T_SHOE_POS] >= t[T_SHOE_SIZE]:
        restock(t, k8, c, counts)
        if t[T_ERROR] != 0:
            return 0
    p = t[T_SHOE_POS]
    shoe = c[C_O_SHOE]
    if p >= t[T_SHOE_SHUFFLED]:
        j = p + int(keyed_uniform(t, p) * (t[T_SHOE_SIZE] - p))
        card = k8[shoe + j]
        k8[shoe + j] = k8[shoe + p]
        k8[shoe + p] = card
        t[T_SHOE_SHUFFLED] = p + 1
    t[T_SHOE_POS] = p + 1
    return k8[shoe + p]


@jit(ROWS, I64, I, I, RNG, I64)
def deal_to_hand(t, k8, c, k, face_up, rng, counts):
    card = draw(t, k8, c, rng, counts)
    n = t[hand_at(c, k, H_CARDS)]
    if n >= MAX_HAND_CARDS:
        fail(t, 0, E_RUNAWAY)
        return
    k8[card_at(c, k, n)] = card
    k8[HAND_UP + card_at(c, k, n)] = face_up
    t[hand_at(c, k, H_CARDS)] = n + 1


@jit(ROWS, I64, I, RNG, I64)
def deal_banker_card(t, k8, c, face_up, rng, counts):
    card = draw(t, k8, c, rng, counts)
    n = t[T_BANKER_CARDS]
    if n >= MAX_BANKER_CARDS:
        fail(t, 0, E_RUNAWAY)
        return
    k8[K_O_BC + n] = card
    k8[K_O_BU + n] = face_up
    t[T_BANKER_CARDS] = n + 1


# =========================================================================== chips (Table._move and kin)
@jit(I32ROW, I64, I)
def wealth(t, c, seat):
    """Table.wealth."""
    total = np.int64(t[BALANCES + seat])
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SEAT)] == seat and t[hand_at(c, k, H_SETTLED)] == 0:
            total += t[hand_at(c, k, H_STAKE)] + t[hand_at(c, k, H_SHOOT_BET)]
    if seat == t[T_BANKER]:
        total += t[T_SHOOT] + t[T_RESERVE]
    return total


@jit(I32ROW, I64, I, I)
def add_to_shoot(t, c, amount, src):
    """Table._add_to_shoot; ``src`` is a seat, or -1 for chips lying on the table."""
    if c[C_SHOOT_CAP] != NONE:
        room = c[C_SHOOT_CAP] - t[T_SHOOT] - t[T_RESERVE]
        if room < 0:
            room = 0
        excess = amount - room
        if excess > 0:
            if src >= 0:
                t[BALANCES + src] -= excess
            t[BALANCES + t[T_BANKER]] += excess
            amount -= excess
    reserved = amount * c[C_RESERVE_PERCENT] // 100
    if src >= 0:
        t[BALANCES + src] -= amount
    t[T_RESERVE] += reserved
    t[T_SHOOT] += amount - reserved


@jit(I32ROW, I64, I, I, I)
def settle_hand(t, c, k, outcome, multiple):
    """Table._settle_hand."""
    seat = t[hand_at(c, k, H_SEAT)]
    banker = t[T_BANKER]
    stake = np.int64(t[hand_at(c, k, H_STAKE)])
    bet = np.int64(t[hand_at(c, k, H_SHOOT_BET)])
    if outcome == O_WIN:
        t[BALANCES + seat] += stake + multiple * stake + 2 * bet
        t[BALANCES + banker] -= multiple * stake
        t[T_SHOOT] -= bet
        t[hand_at(c, k, H_WON_FROM_SHOOT)] = bet
        net = multiple * stake + bet
    elif outcome == O_PUSH:
        t[BALANCES + seat] += stake + bet
        net = np.int64(0)
    else:
        progressive = c[C_PROGRESSIVE]
        if stake < progressive:
            progressive = stake
        t[BALANCES + banker] += stake - progressive
        if progressive > 0:
            add_to_shoot(t, c, progressive, -1)
        t[BALANCES + seat] -= (multiple - 1) * stake
        t[BALANCES + banker] += (multiple - 1) * stake
        if bet > 0:
            add_to_shoot(t, c, bet, -1)
        net = -multiple * stake - bet
    t[hand_at(c, k, H_RESULT)] = net
    t[hand_at(c, k, H_SETTLED)] = 1
    t[hand_at(c, k, H_DONE)] = 1


@jit(ROWS, I64, I)
def reveal_hand(t, k8, c, k):
    for p in range(t[hand_at(c, k, H_CARDS)]):
        k8[HAND_UP + card_at(c, k, p)] = 1


@jit(ROWS)
def reveal_banker(t, k8):
    if t[T_REVEALED] == 0:
        t[T_REVEALED] = 1
        for p in range(t[T_BANKER_CARDS]):
            k8[K_O_BU + p] = 1


@jit(ROWS, I64, I8ROW, I, I, I, I64, I)
def showdown(t, k8, c, tab, k, banker, banker_total, out, slot):
    """settlement.showdown of hand k against the banker's (class, total), from its table, into
    out[slot] (outcome) and out[slot + 1] (multiple)."""
    cls, total = hand_class(t, k8, c, k)
    special = 0
    if cls == HC_PONTOON:
        special = tab[TAB_O_SPECIAL + 52 * k8[card_at(c, k, 0)] + k8[card_at(c, k, 1)]]
    entry = (cls * SD_CLASS + total * SD_TOTAL + t[hand_at(c, k, H_FROM_SPLIT)] * SD_SPLIT
             + special * SD_SPECIAL + banker * SD_BANKER + banker_total * SD_BANKER_TOTAL)
    out[slot] = tab[entry]
    out[slot + 1] = tab[entry + SD_FIELD]
    if out[slot] < 0:
        fail(t, 0, E_RUNAWAY)


@jit(ROWS, CFG, I64, call=True)
def settle_showdown(t, k8, c, f, tab, out):
    """Table._settle_showdown: losing hands first, then winning hands, in dealing order; outcomes
    from settlement.showdown's table."""
    if t[T_FORFEITED] != 0:
        banker, banker_total = HC_BUST, 0
    else:
        banker, banker_total = banker_class(t, k8, c)
    hands = t[T_HANDS]
    for k in range(hands):
        out[2 * k] = -1
        if t[hand_at(c, k, H_SETTLED)] == 0:
            reveal_hand(t, k8, c, k)
            showdown(t, k8, c, tab, k, banker, banker_total, out, 2 * k)
    for k in range(hands):
        if out[2 * k] >= 0 and out[2 * k] != O_WIN:
            settle_hand(t, c, k, out[2 * k], out[2 * k + 1])
    for k in range(hands):
        if out[2 * k] == O_WIN:
            settle_hand(t, c, k, O_WIN, out[2 * k + 1])


@jit(ROWS, CFG, I64, call=True)
def banker_pontoon_on_peek(t, k8, c, f, tab, out):
    """Table._banker_pontoon_on_peek: every hand meets the banker's Pontoon by the showdown's rule."""
    reveal_banker(t, k8)
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SETTLED)] == 0:
            reveal_hand(t, k8, c, k)
            showdown(t, k8, c, tab, k, HC_PONTOON, 21, out, 0)
            settle_hand(t, c, k, out[0], out[1])


@jit(I32ROW, I64, call=True)
def pay_reserve_jackpot(t, c):
    """Table._pay_reserve_jackpot: the reserve to this deal's Shoot winners, pro rata."""
    reserve = np.int64(t[T_RESERVE])
    if reserve == 0:
        return
    total = 0
    first = -1
    for k in range(t[T_HANDS]):
        won = t[hand_at(c, k, H_WON_FROM_SHOOT)]
        if won > 0:
            total += won
            if first < 0:
                first = k
    t[T_RESERVE] = 0
    if first < 0:
        t[BALANCES + t[T_BANKER]] += reserve
        return
    shared = 0
    for k in range(t[T_HANDS]):
        won = t[hand_at(c, k, H_WON_FROM_SHOOT)]
        if won > 0:
            share = reserve * won // total
            shared += share
            t[BALANCES + t[hand_at(c, k, H_SEAT)]] += share
    t[BALANCES + t[hand_at(c, first, H_SEAT)]] += reserve - shared


@jit(I32ROW, I64, call=True)
def end_of_deal_bank(t, c):
    """Table._end_of_deal_bank: turnover when the deal emptied the Shoot."""
    if c[C_SHOOT] == 0 or t[T_SHOOT] > 0:
        return False
    pay_reserve_jackpot(t, c)
    t[T_BANKER] = (t[T_BANKER] + 1) % c[C_PLAYERS]
    t[T_TURNOVERS] += 1
    add_to_shoot(t, c, c[C_INITIAL_SHOOT], t[T_BANKER])
    return True


@jit(I32ROW, I64, call=True)
def sell_bank(t, c):
    """Table._sell_bank."""
    seller = t[T_BANKER]
    buyer = (seller + 1) % c[C_PLAYERS]
    t[BALANCES + seller] += t[T_SHOOT] + t[T_RESERVE] + c[C_BANK_SALE_PRICE]
    t[BALANCES + buyer] -= c[C_BANK_SALE_PRICE]
    t[T_SHOOT] = 0
    t[T_RESERVE] = 0
    t[T_BANKER] = buyer
    add_to_shoot(t, c, c[C_INITIAL_SHOOT], buyer)


# =========================================================================== deals (Table)
@jit(ROWS, I64, call=True)
def count_cards_of_deal(t, k8, c):
    """Table._cards_of_deal, added to the count of cards seen before the next deal."""
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_RESHUFFLED)] == 0:
            for p in range(t[hand_at(c, k, H_CARDS)]):
                k8[K_O_SEEN + k8[card_at(c, k, p)] // 4] += 1
    for p in range(t[T_BANKER_CARDS]):
        k8[K_O_SEEN + k8[K_O_BC + p] // 4] += 1


@jit(ROWS, I64, F64, call=True)
def start_deal(t, k8, c, f):
    """Table.start_deal (never stacked)."""
    persistent = c[C_PERSISTENT] != 0
    if persistent:
        count_cards_of_deal(t, k8, c)
    t[T_HANDS] = 0
    t[T_BANKER_CARDS] = 0
    t[T_REVEALED] = 0
    t[T_FORFEITED] = 0
    t[T_DEAL_NUMBER] += 1
    if not persistent or t[T_SHUFFLES] == 0 or t[T_SHOE_POS] >= f[F_PENETRATION] * t[T_SHOE_SIZE]:
        shuffle(t, k8, c)
        clear_seen(k8)
    t[T_STAGE] = ST_STAKES
    t[T_CURSOR] = 0
    t[T_BOX] = 0


@jit(I32ROW, I64, I, I, I, I)
def new_hand(t, c, k, seat, box, stake):
    base = hand_at(c, k, 0)
    for field in range(H_FIELDS):
        t[base + field] = 0
    t[base + H_SEAT] = seat
    t[base + H_BOX] = box
    t[base + H_ORIGINAL] = stake
    t[base + H_STAKE] = stake


@jit(I32ROW, I64)
def next_staker(t, c):
    t[T_CURSOR] += 1
    t[T_BOX] = 0
    if t[T_CURSOR] >= c[C_PLAYERS] - 1:
        t[T_STAGE] = ST_BET_BEFORE_DEAL
        t[T_CURSOR] = 0


@jit(I32ROW, I64, I)
def apply_stake(t, c, amount):
    """Table._apply_stake."""
    seat = staker(t, c)
    if amount == 0:
        next_staker(t, c)
        return
    k = t[T_HANDS]
    new_hand(t, c, k, seat, t[T_BOX], amount)
    t[BALANCES + seat] -= amount
    t[T_HANDS] = k + 1
    t[T_BOX] += 1
    if t[T_BOX] >= c[C_MAX_BOXES]:
        next_staker(t, c)


@jit(I32ROW, I64, I)
def apply_shoot_bet(t, c, amount):
    """Table._apply_shoot_bet."""
    k = t[T_CURSOR]
    if phase_of(t) == PH_PLAY:
        t[hand_at(c, k, H_FOURTH_OFFERED)] = 1
    else:
        t[T_CURSOR] = k + 1
    if amount > 0:
        t[hand_at(c, k, H_SHOOT_BET)] += amount
        t[BALANCES + t[hand_at(c, k, H_SEAT)]] -= amount


@jit(ROWS, I64, I)
def after_card(t, k8, c, k):
    """Table._after_card: bust, Five Card Trick, Pontoon and forced stands."""
    n = t[hand_at(c, k, H_CARDS)]
    total, soft = hand_total(t, k8, c, k)
    if total > 21:
        reveal_hand(t, k8, c, k)
        settle_hand(t, c, k, O_LOSE, 1)
        return
    if n >= MAX_HAND_CARDS:
        t[hand_at(c, k, H_DONE)] = 1
        reveal_hand(t, k8, c, k)
    elif n == 2 and hand_class(t, k8, c, k)[0] == HC_PONTOON:
        t[hand_at(c, k, H_DONE)] = 1
        reveal_hand(t, k8, c, k)
    elif total == 21 and not may_draw(c, total, soft):
        t[hand_at(c, k, H_DONE)] = 1


@jit(ROWS, I64, I, RNG, I64, call=True)
def split(t, k8, c, k, rng, counts):
    """Table._split: the second card starts a new hand right after this one."""
    hands = t[T_HANDS]
    for j in range(hands, k + 1, -1):  # make room at k + 1
        for field in range(H_FIELDS):
            t[hand_at(c, j, field)] = t[hand_at(c, j - 1, field)]
        for p in range(MAX_HAND_CARDS):
            k8[card_at(c, j, p)] = k8[card_at(c, j - 1, p)]
            k8[HAND_UP + card_at(c, j, p)] = k8[HAND_UP + card_at(c, j - 1, p)]
    t[T_HANDS] = hands + 1
    moved = k8[card_at(c, k, 1)]
    t[hand_at(c, k, H_CARDS)] = 1
    original = t[hand_at(c, k, H_ORIGINAL)]
    seat = t[hand_at(c, k, H_SEAT)]
    new_hand(t, c, k + 1, seat, t[hand_at(c, k, H_BOX)], original)
    t[hand_at(c, k + 1, H_FROM_SPLIT)] = 1
    t[hand_at(c, k + 1, H_CARDS)] = 1
    k8[card_at(c, k + 1, 0)] = moved
    k8[HAND_UP + card_at(c, k + 1, 0)] = 0
    t[hand_at(c, k, H_FROM_SPLIT)] = 1
    t[BALANCES + seat] -= original
    deal_to_hand(t, k8, c, k, 0, rng, counts)
    after_card(t, k8, c, k)


@jit(ROWS, I64, I, I, RNG, I64)
def apply_hand_action(t, k8, c, kind, amount, rng, counts):
    """Table._apply_hand_action."""
    k = t[T_CURSOR]
    if kind == K_STICK:
        t[hand_at(c, k, H_DONE)] = 1
    elif kind == K_TWIST:
        t[hand_at(c, k, H_TWISTS)] += 1
        deal_to_hand(t, k8, c, k, 1, rng, counts)
        after_card(t, k8, c, k)
        if t[hand_at(c, k, H_DOUBLED)] != 0 and t[hand_at(c, k, H_SETTLED)] == 0:
            t[hand_at(c, k, H_DONE)] = 1
    elif kind == K_BUY:
        t[hand_at(c, k, H_BUYS)] += 1
        t[hand_at(c, k, H_STAKE)] += amount
        t[BALANCES + t[hand_at(c, k, H_SEAT)]] -= amount
        deal_to_hand(t, k8, c, k, 1 - c[C_BUY_FACE_DOWN], rng, counts)
        after_card(t, k8, c, k)
    elif kind == K_DOUBLE:
        t[hand_at(c, k, H_DOUBLED)] = 1
        t[BALANCES + t[hand_at(c, k, H_SEAT)]] -= t[hand_at(c, k, H_STAKE)]
        t[hand_at(c, k, H_STAKE)] *= 2
    elif kind == K_SPLIT:
        split(t, k8, c, k, rng, counts)


@jit(ROWS, I64)
def banker_done_drawing(t, k8, c):
    """Table._banker_done_drawing."""
    total, soft = best_total(k8, K_O_BC, t[T_BANKER_CARDS])
    if total > 21 or (t[T_BANKER_CARDS] >= MAX_HAND_CARDS and c[C_BANKER_STOPS_AT_FIVE] != 0):
        return True
    if c[C_DEALER] != 0:
        stands = c[C_DEALER_STANDS_ON]
        if total > stands:
            return True
        if total == stands:
            return not (soft and c[C_DEALER_HITS_SOFT_17] != 0 and total == 17)
        return False
    return not may_draw(c, total, soft)


@jit(ROWS, I64, RNG, I64)
def deal_round(t, k8, c, rng, counts):
    """Table._deal_round."""
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SETTLED)] == 0:
            deal_to_hand(t, k8, c, k, 0, rng, counts)
    first = t[T_BANKER_CARDS] == 0
    deal_banker_card(t, k8, c, 1 if first and c[C_SHOWS_FIRST] != 0 else 0, rng, counts)


@jit(ROWS, I64, RNG, I64)
def next_hand(t, k8, c, rng, counts):
    """Table._next_hand: the next punter hand; a split hand gets its second card."""
    k = t[T_CURSOR] + 1
    t[T_CURSOR] = k
    if k >= t[T_HANDS]:
        t[T_STAGE] = ST_BANKER
        return
    n = t[hand_at(c, k, H_CARDS)]
    if n == 1:
        deal_to_hand(t, k8, c, k, 0, rng, counts)
        after_card(t, k8, c, k)
    elif n == 2 and hand_class(t, k8, c, k)[0] == HC_PONTOON:
        t[hand_at(c, k, H_DONE)] = 1
        reveal_hand(t, k8, c, k)


@jit(ROWS, CFG, RNG, I64, I64)
def advance(t, k8, c, f, tab, rng, out, counts):
    """Table._advance: automatic stages until a decision is pending or the deal is over."""
    for _ in range(STEP_LIMIT):
        if t[T_ERROR] != 0:
            return
        stage = t[T_STAGE]
        if stage == ST_STAKES:
            return
        if stage == ST_BET_BEFORE_DEAL or stage == ST_BET_BEFORE_SECOND:
            open_point = c[C_BET_BEFORE_DEAL] if stage == ST_BET_BEFORE_DEAL else c[C_BET_BEFORE_SECOND]
            hands = t[T_HANDS]
            while t[T_CURSOR] < hands and t[hand_at(c, t[T_CURSOR], H_SETTLED)] != 0:
                t[T_CURSOR] += 1
            if open_point != 0 and t[T_CURSOR] < hands and shoot_capacity(t, c) > 0:
                return
            t[T_STAGE] = stage + 1
        elif stage == ST_FIRST_CARDS or stage == ST_SECOND_CARDS:
            deal_round(t, k8, c, rng, counts)
            t[T_STAGE] = stage + 1
            t[T_CURSOR] = 0
        elif stage == ST_PEEK:
            t[T_STAGE] = ST_PLAY
            t[T_CURSOR] = -1
            if c[C_PEEK] != 0 and is_pontoon_pair(k8, K_O_BC, t[T_BANKER_CARDS]):
                banker_pontoon_on_peek(t, k8, c, f, tab, out)
                t[T_STAGE] = ST_BANK
                continue
            next_hand(t, k8, c, rng, counts)
        elif stage == ST_PLAY:
            k = t[T_CURSOR]
            if t[hand_at(c, k, H_DONE)] != 0 or t[hand_at(c, k, H_SETTLED)] != 0:
                next_hand(t, k8, c, rng, counts)
                continue
            return
        elif stage == ST_BANKER:
            settled = True
            for k in range(t[T_HANDS]):
                if t[hand_at(c, k, H_SETTLED)] == 0:
                    settled = False
            reveal_banker(t, k8)
            if settled:
                t[T_STAGE] = ST_BANK
                continue
            if banker_done_drawing(t, k8, c):
                t[T_STAGE] = ST_SETTLE
            elif c[C_DEALER] != 0:
                deal_banker_card(t, k8, c, 1, rng, counts)
            else:
                return
        elif stage == ST_SETTLE:
            settle_showdown(t, k8, c, f, tab, out)
            t[T_STAGE] = ST_BANK
        elif stage == ST_BANK:
            passed = end_of_deal_bank(t, c)
            if not passed and c[C_BANK_SALE] != 0:
                return
            t[T_STAGE] = ST_OVER
        else:
            t[T_STAGE] = ST_OVER
            return
    fail(t, 0, E_RUNAWAY)


@jit(ROWS, CFG, I, I, RNG, I64, I64)
def apply_legal(t, k8, c, f, tab, kind, amount, rng, out, counts):
    """Table.apply of a move known to be legal (its checks done by the caller)."""
    phase = phase_of(t)
    if phase == PH_STAKES:
        apply_stake(t, c, amount)
    elif kind == K_SHOOT_BET:
        apply_shoot_bet(t, c, amount)
    elif phase == PH_PLAY:
        apply_hand_action(t, k8, c, kind, amount, rng, counts)
    elif phase == PH_BANKER:
        if kind == K_TWIST:
            deal_banker_card(t, k8, c, 1, rng, counts)
            if banker_done_drawing(t, k8, c):
                t[T_STAGE] = ST_SETTLE
        else:
            t[T_STAGE] = ST_SETTLE
    elif phase == PH_BANK_DECISION:
        if kind == K_SELL_BANK:
            sell_bank(t, c)
        t[T_STAGE] = ST_OVER
    advance(t, k8, c, f, tab, rng, out, counts)


@jit(ROWS, CFG, I, I, I64, I, RNG, I64, I64)
def apply_action(t, k8, c, f, tab, kind, amount, mv, n, rng, out, counts):
    """Table.apply, given the legal moves mv[:n]; False (state unchanged) when not legal."""
    if not allows(mv, n, kind, amount):
        return False
    apply_legal(t, k8, c, f, tab, kind, amount, rng, out, counts)
    return True


@jit(ROWS, CFG, RNG, I64, I64, call=True)
def forfeit(t, k8, c, f, tab, rng, out, counts):
    """Table.forfeit: the seat to act gives up as if it had bust."""
    seat = to_act(t, c)
    phase = phase_of(t)
    if phase == PH_STAKES:
        apply_stake(t, c, c[C_MIN_STAKE])
        last = t[T_HANDS] - 1
        reveal_hand(t, k8, c, last)
        settle_hand(t, c, last, O_LOSE, 1)
        if t[T_STAGE] == ST_STAKES and staker(t, c) == seat:
            next_staker(t, c)
    elif phase == PH_SHOOT_BETS or phase == PH_PLAY:
        for k in range(t[T_HANDS]):
            if t[hand_at(c, k, H_SEAT)] == seat and t[hand_at(c, k, H_SETTLED)] == 0:
                reveal_hand(t, k8, c, k)
                settle_hand(t, c, k, O_LOSE, 1)
        if phase == PH_SHOOT_BETS:
            t[T_CURSOR] += 1
    elif phase == PH_BANKER:
        t[T_FORFEITED] = 1
        t[T_STAGE] = ST_SETTLE
    else:
        t[T_STAGE] = ST_OVER
    advance(t, k8, c, f, tab, rng, out, counts)


# =========================================================================== table players (players/strategies.py)
@jit(I64, I, B)
def stick_or_draw(mv, n, stick):
    """strategies._stick_or_draw."""
    if stick and find(mv, n, K_STICK) >= 0:
        return K_STICK, 0
    if find(mv, n, K_TWIST) >= 0:
        return K_TWIST, 0
    m = find(mv, n, K_BUY)
    if m >= 0:
        return K_BUY, mv[MOVE * m + 1]
    return K_STICK, 0


@jit(ROWS, I)
def first_visible_banker_card(t, k8, seat):
    """The first banker card ``seat`` may see (-1: none)."""
    own = seat == t[T_BANKER]
    for p in range(t[T_BANKER_CARDS]):
        if own or k8[K_O_BU + p] != 0:
            return np.int64(k8[K_O_BC + p])
    return np.int64(-1)


@jit(ROWS, I64, I, I64, I)
def tips_shoot_bet(t, k8, c, strat, mv, n):
    """TipsPunter.shoot_bet (``strat``: the seat's parameters in c)."""
    unit = c[C_MIN_STAKE]
    large = t[T_SHOOT] >= c[strat + SI_B] * c[C_MAX_STAKE]
    wanted = 0
    k = t[T_CURSOR]
    cards = t[hand_at(c, k, H_CARDS)]
    if cards > 0:
        total, _ = hand_total(t, k8, c, k)
        value = card_value(k8[card_at(c, k, 0)])
        strong_first = cards == 1 and (value == 1 or value == 10)
        trick_chase = cards == 3 and total <= 11
        if (cards >= 2 and total >= 18) or strong_first or trick_chase:
            wanted = c[strat + SI_A] * unit
    if large and wanted < unit:
        wanted = unit
    m = find(mv, n, K_SHOOT_BET)
    return K_SHOOT_BET, min(max(wanted, mv[MOVE * m + 1]), mv[MOVE * m + 2])


@jit(ROWS, I64, I, I, I64, I)
def tips_punter_play(t, k8, c, seat, strat, mv, n):
    """TipsPunter.punter_play."""
    k = t[T_CURSOR]
    cards = t[hand_at(c, k, H_CARDS)]
    total, soft = hand_total(t, k8, c, k)
    if find(mv, n, K_SPLIT) >= 0:
        value = card_value(k8[card_at(c, k, 0)])
        wants = value == 1 or value == 10
        if value == 8:
            up = first_visible_banker_card(t, k8, seat)
            wants = up >= 0 and 2 <= card_value(up) <= 6
        if wants:
            return K_SPLIT, 0
    if cards == 4 and total <= 11 and not soft:
        return stick_or_draw(mv, n, False)
    if total >= 17:
        return stick_or_draw(mv, n, True)
    m = find(mv, n, K_BUY)
    if m >= 0 and (total <= 11 or total >= 16):
        return K_BUY, mv[MOVE * m + 2] if total <= 11 else mv[MOVE * m + 1]
    return stick_or_draw(mv, n, False)


@jit(ROWS, CFG, I, I, I64, I, I, call=True)
def shoot_aware_banker_play(t, k8, c, f, tab, strat, fstrat, mv, n, total):
    """ShootAwareBanker.banker_play (the banker sees the punters' face-up cards only)."""
    at_risk = 0
    live = 0
    all_shown = True
    visible_best = 0
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SETTLED)] != 0:
            continue
        live += 1
        at_risk += t[hand_at(c, k, H_SHOOT_BET)]
        shown = True
        for p in range(t[hand_at(c, k, H_CARDS)]):
            if k8[HAND_UP + card_at(c, k, p)] == 0:
                shown = False
        if shown:
            hand_value, _ = hand_total(t, k8, c, k)
            if hand_value > visible_best:
                visible_best = hand_value
        else:
            all_shown = False
    threshold = c[strat + SI_BANKER_STAND]
    shoot = t[T_SHOOT]
    if shoot != 0 and at_risk >= f[fstrat + SF_A] * shoot:
        threshold = c[strat + SI_A]
    if live > 0 and all_shown and total >= visible_best and total >= 15:
        return stick_or_draw(mv, n, True)
    return stick_or_draw(mv, n, total >= threshold)


@jit(ROWS, CFG, I, I, I64, I, RNG)
def player_act(t, k8, c, f, tab, seat, slot, mv, n, rng):
    """Policy.act, for ``seat``, of the rule-based player in strategy slot ``slot`` (the seat's own
    table player, or slot num_players: the agent seat's player in an evaluation), over mv[:n]."""
    strat = c[C_O_STRAT] + STRAT_INTS * slot
    fstrat = np.int64(f[F_O_STRAT]) + STRAT_FLOATS * slot
    code = c[strat]
    if code == S_RANDOM:
        m = int(uniform(rng) * n)
        kind = mv[MOVE * m]
        low = mv[MOVE * m + 1]
        high = mv[MOVE * m + 2]
        if kind == K_SHOOT_BET and high > c[C_MAX_STAKE]:
            high = c[C_MAX_STAKE]
        return kind, low + int(uniform(rng) * (high - low + 1))
    if find(mv, n, K_STAKE) >= 0:
        for m in range(n):
            if mv[MOVE * m + 1] == 0:
                return K_STAKE, 0
        return K_STAKE, c[C_MIN_STAKE]
    if find(mv, n, K_SHOOT_BET) >= 0:
        if code == S_TIPS:
            return tips_shoot_bet(t, k8, c, strat, mv, n)
        return K_SHOOT_BET, 0
    if find(mv, n, K_KEEP_BANK) >= 0:
        if code == S_SHOOT_AWARE and t[T_SHOOT] + t[T_RESERVE] >= f[fstrat + SF_B] * c[C_INITIAL_SHOOT]:
            return K_SELL_BANK, 0
        return K_KEEP_BANK, 0
    if seat == t[T_BANKER]:
        total, soft = best_total(k8, K_O_BC, t[T_BANKER_CARDS])
        if code == S_DEALER:
            stands = c[strat + SI_BANKER_STAND]
            hit = total < stands or (total == 17 and soft and c[strat + SI_A] != 0)
            return stick_or_draw(mv, n, not hit)
        if code == S_SHOOT_AWARE:
            return shoot_aware_banker_play(t, k8, c, f, tab, strat, fstrat, mv, n, total)
        return stick_or_draw(mv, n, total >= c[strat + SI_BANKER_STAND])
    if code == S_TIPS:
        return tips_punter_play(t, k8, c, seat, strat, mv, n)
    total, _ = hand_total(t, k8, c, t[T_CURSOR])
    return stick_or_draw(mv, n, total >= c[strat + SI_PUNTER_STICK])


# =========================================================================== the seat's env (envs/base.py)
@jit(I32ROW, I64)
def status(t, c):
    """ShootPontoonEnv._status / ShootPontoonBankerEnv._status."""
    seat = c[C_SEAT]
    phase = phase_of(t)
    banker = t[T_BANKER]
    if c[C_BANKER_SEAT_ENV] != 0:
        if t[T_ACK] != 0:
            return AGENT
        if phase == PH_DEAL_OVER:
            if t[T_DECIDED] == 0:
                t[T_ACK] = 1
                return AGENT
            if banker != seat or t[T_DEALS] >= c[C_DEALS_PER_EPISODE]:
                return OVER
            return NEXT_DEAL
        if banker == seat and to_act(t, c) == seat:
            return AGENT
        return AUTO
    if phase == PH_BANK_DECISION or phase == PH_DEAL_OVER:
        if t[T_DEALS] >= c[C_DEALS_PER_EPISODE]:
            return OVER
        return NEXT_DEAL if phase == PH_DEAL_OVER else AUTO
    if banker != seat and to_act(t, c) == seat:
        return AGENT
    return AUTO


@jit(ROWS, CFG, I64, RNG, I64, I64, ir=True)
def play_table_player(t, k8, c, f, tab, mv, rng, out, counts):
    seat = to_act(t, c)
    n = legal_moves(t, k8, c, mv)
    kind, amount = player_act(t, k8, c, f, tab, seat, seat, mv, n, rng)
    if not apply_action(t, k8, c, f, tab, kind, amount, mv, n, rng, out, counts):
        fail(t, 0, E_OPPONENT_ILLEGAL)


@jit(ROWS, CFG, B, I64, RNG, I64, I64, ir=True)
def play_until(t, k8, c, f, tab, forfeiting, mv, rng, out, counts):
    """The table plays on: PontoonSeatEnv._advance, where the table players act until the agent
    decides (returns False) or the episode ends (True); or, ``forfeiting``, PontoonSeatEnv._forfeit's
    rest, where every hand of the agent is lost as its turn comes and the deal is played to its end
    (True). One loop for both, so that the table players' code is compiled into the kernel once."""
    seat = c[C_SEAT]
    for _ in range(STEP_LIMIT):
        if t[T_ERROR] != 0:
            return True
        if forfeiting:
            phase = phase_of(t)
            if phase == PH_BANK_DECISION or phase == PH_DEAL_OVER:
                return True
            if to_act(t, c) == seat:
                forfeit(t, k8, c, f, tab, rng, out, counts)
                continue
        else:
            state = status(t, c)
            if state == AGENT:
                return False
            if state == OVER:
                return True
            if state == NEXT_DEAL:
                start_deal(t, k8, c, f)
                t[T_DEALS] += 1
                t[T_DECIDED] = 0
                continue
        play_table_player(t, k8, c, f, tab, mv, rng, out, counts)
    fail(t, 0, E_RUNAWAY)
    return True


@jit(ROWS, I64, I64)
def agent_moves(t, k8, c, mv):
    """The legal moves of the agent's view (PontoonSeatEnv._refresh): the engine's while it acts, the
    acknowledgement (stick) of the banker seat, none once the episode is over."""
    if t[T_TERMINAL] != 0:
        return 0
    if t[T_ACK] != 0:
        return put(mv, 0, K_STICK, 0, 0)
    if to_act(t, c) == c[C_SEAT]:
        return legal_moves(t, k8, c, mv)
    return 0


@jit(I32ROW, I64)
def current_hand(t, c):
    """SeatView.current of the agent's seat (-1: None)."""
    phase = phase_of(t)
    if (phase == PH_SHOOT_BETS or phase == PH_PLAY) and to_act(t, c) == c[C_SEAT]:
        return np.int64(t[T_CURSOR])
    return np.int64(-1)


@jit(I32ROW, I64, F64, I, I)
def buy_amount(t, c, f, a, current):
    """The chips of buy index a on the pending hand ``current``: its multiple of the hand's original
    stake rounded half up (action_table.buy_amount)."""
    multiple = f[F_MULTIPLES + a]
    return np.int64(np.floor(multiple * t[hand_at(c, current, H_ORIGINAL)] + 0.5))


@jit(I32ROW, I64, F64, I, I)
def action_amount(t, c, f, a, current):
    """ActionTable.to_action's amount of index a (-1: no meaning now)."""
    if c[c[C_O_ACT_KIND] + a] == K_BUY:
        return buy_amount(t, c, f, a, current) if current >= 0 else np.int64(-1)
    return c[c[C_O_ACT_AMOUNT] + a]


@jit(I32ROW, I64, F64, I64, I, I, BOOLS)
def write_mask(t, c, f, mv, n, current, mask):
    """ActionTable.mask: an index is legal when a legal move of its kind allows its amount (a buy's
    amount follows the pending hand's stake; every other kind's is the action table's own)."""
    for a in range(c[C_ACTIONS]):
        mask[a] = False
    starts = c[C_O_BY_KIND]
    indices = starts + NUM_KINDS + 1
    amounts = c[C_O_ACT_AMOUNT]
    for m in range(n):
        kind = mv[MOVE * m]
        low = mv[MOVE * m + 1]
        high = mv[MOVE * m + 2]
        for j in range(c[starts + kind], c[starts + kind + 1]):
            a = c[indices + j]
            amount = buy_amount(t, c, f, a, current) if kind == K_BUY else c[amounts + a]
            if low <= amount <= high:
                mask[a] = True


@jit(F, F, F)
def clip(x, low, high):
    return low if x < low else (high if x > high else x)


@jit(I, I, I)
def place(seat, banker, players):
    """A seat's place after the banker, ``(seat - banker) % players`` for seats of the table."""
    d = seat - banker
    return d + players if d < 0 else d


@jit(ROWS, I64, I, I, I64)
def count_seen(t, k8, c, k, seat, counts):
    """Adds the ranks of hand k that ``seat`` sees to ``counts``, unless a restock since took its
    cards back into the stock (H_RESHUFFLED): ObservationEncoder's count of the cards seen."""
    base = hand_at(c, k, 0)
    if t[base + H_RESHUFFLED] != 0:
        return
    own = t[base + H_SEAT] == seat
    for p in range(t[base + H_CARDS]):
        if own or k8[HAND_UP + card_at(c, k, p)] != 0:
            counts[k8[card_at(c, k, p)] // 4] += 1


@jit(ROWS, I64, I, F32ROW, I, I, I, B, I64)
def encode_hand(t, k8, c, k, row, start, seat, banker, is_current, counts):
    """ObservationEncoder._encode_hand into a cleared slot; adds the ranks the seat sees to ``counts``
    unless a restock since took them back (H_RESHUFFLED)."""
    base = hand_at(c, k, 0)
    own = t[base + H_SEAT] == seat
    n = t[base + H_CARDS]
    visible = 0
    hard = 0
    ace = False
    true_hard = 0
    true_ace = False
    for p in range(n):
        card = k8[card_at(c, k, p)]
        value = card_value(card)
        true_hard += value
        true_ace = true_ace or value == 1
        if own or k8[HAND_UP + card_at(c, k, p)] != 0:
            visible += 1
            hard += value
            ace = ace or value == 1
            rank = card // 4
            row[start + OH_RANKS + rank] = row[start + OH_RANKS + rank] + FIFTH
    count_seen(t, k8, c, k, seat, counts)
    soft = ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    true_total = true_hard + 10 if true_ace and true_hard + 10 <= 21 else true_hard
    hidden = n - visible
    bust = true_total > 21
    pontoon = False
    if hidden == 0 and n == 2 and (c[C_PONTOON_AFTER_SPLIT] != 0 or t[base + H_FROM_SPLIT] == 0):
        pontoon = is_pontoon_pair(k8, card_at(c, k, 0), n)
    trick = n >= enc.MAX_CARDS and not bust
    unit = float(c[C_BASE_STAKE])
    done = t[base + H_DONE] != 0
    row[start + OH_PRESENT] = 1.0
    row[start + OH_OWN] = 1.0 if own else 0.0
    row[start + OH_CURRENT] = 1.0 if is_current else 0.0
    row[start + OH_PLACE] = SEAT_SCALED[place(t[base + H_SEAT], banker, c[C_PLAYERS])]
    row[start + OH_VISIBLE] = CARDS_SCALED[visible]
    row[start + OH_HIDDEN] = CARDS_SCALED[hidden]
    row[start + OH_TOTAL] = TOTAL_SCALED[total]
    row[start + OH_SOFT] = 1.0 if soft else 0.0
    row[start + OH_STAKE] = clip(t[base + H_STAKE] / unit, 0.0, CHIP_BOUND)
    row[start + OH_ORIGINAL] = clip(t[base + H_ORIGINAL] / unit, 0.0, CHIP_BOUND)
    row[start + OH_SHOOT_BET] = clip(t[base + H_SHOOT_BET] / unit, 0.0, CHIP_BOUND)
    row[start + OH_BUYS] = DRAWS_SCALED[t[base + H_BUYS]]
    row[start + OH_TWISTS] = DRAWS_SCALED[t[base + H_TWISTS]]
    row[start + OH_DOUBLED] = 1.0 if t[base + H_DOUBLED] != 0 else 0.0
    row[start + OH_FROM_SPLIT] = 1.0 if t[base + H_FROM_SPLIT] != 0 else 0.0
    row[start + OH_DONE] = 1.0 if done else 0.0
    row[start + OH_SETTLED] = 1.0 if t[base + H_SETTLED] != 0 else 0.0
    row[start + OH_BUST] = 1.0 if bust else 0.0
    row[start + OH_PONTOON] = 1.0 if pontoon else 0.0
    row[start + OH_FIVE_CARD_TRICK] = 1.0 if trick else 0.0
    row[start + OH_STUCK] = 1.0 if done and not bust and not pontoon and not trick else 0.0
    row[start + OH_RESULT] = clip(t[base + H_RESULT] / unit, -CHIP_BOUND, CHIP_BOUND)


@jit(I32ROW, I64, I64, I, F32ROW, I, I, I)
def encode_decision(t, c, mv, n, row, phase_at, point_at, kinds_at):
    """The PHASE, BET_POINT and LEGAL_KINDS blocks of ObservationEncoder.encode, at the given places
    (the flat row's, or the compact row's); no phase at a stage that passes automatically, where only a
    table in error rests."""
    phase = phase_of(t)
    if phase >= 0:
        row[phase_at + phase] = 1.0
    if to_act(t, c) == c[C_SEAT]:
        point = shoot_bet_point(t, c)
        if point >= 0:
            row[point_at + point] = 1.0
    for m in range(n):
        row[kinds_at + mv[MOVE * m]] = 1.0


@jit(ROWS, I64, F64, F32ROW, I, I64, F)
def encode_banker(t, k8, c, f, row, at, counts, high):
    """The BANKER block of ObservationEncoder.encode (the banker's cards the agent seat sees) at
    ``row[at:]``, every value at most ``high`` (the compact row's 1.0; inf for the flat row); adds their
    ranks to ``counts``. Only the ranks seen are clamped, not all thirteen."""
    own_bank = c[C_SEAT] == t[T_BANKER]
    visible = 0
    hard = 0
    ace = False
    first = -1
    ranks = at + O_BANKER_RANKS - O_BANKER
    for p in range(t[T_BANKER_CARDS]):
        if own_bank or k8[K_O_BU + p] != 0:
            card = k8[K_O_BC + p]
            if first < 0:
                first = card
            visible += 1
            value = card_value(card)
            hard += value
            ace = ace or value == 1
            rank = card >> 2
            row[ranks + rank] = row[ranks + rank] + FIFTH
            counts[rank] += 1
    bound = min(f[F_BANKER_CARDS_BOUND], high)
    for p in range(t[T_BANKER_CARDS]):
        if own_bank or k8[K_O_BU + p] != 0:
            o = ranks + (k8[K_O_BC + p] >> 2)
            if row[o] > bound:
                row[o] = bound
    if first >= 0:
        row[at + O_BANKER_FIRST - O_BANKER + (first >> 2)] = 1.0
    soft = ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    hidden = t[T_BANKER_CARDS] - visible
    row[at + O_BANKER_VISIBLE - O_BANKER] = min(CARDS_SCALED[visible], bound)
    row[at + O_BANKER_HIDDEN - O_BANKER] = HIDDEN_SCALED[hidden]
    row[at + O_BANKER_TOTAL - O_BANKER] = min(TOTAL_SCALED[total], high)
    row[at + O_BANKER_SOFT - O_BANKER] = 1.0 if soft else 0.0
    row[at + O_BANKER_BUST - O_BANKER] = 1.0 if total > 21 else 0.0
    if hidden == 0 and visible == 2 and is_pontoon_pair(k8, K_O_BC, 2):
        row[at + O_BANKER_PONTOON - O_BANKER] = 1.0
    if c[C_BANKER_TRICK] != 0 and hidden == 0 and visible >= enc.MAX_CARDS and total <= 21:
        row[at + O_BANKER_FIVE_CARD_TRICK - O_BANKER] = 1.0


@jit(I32ROW, I64, I64, F32ROW, I)
def encode_count(t, c, counts, row, at):
    """The COUNT block of ObservationEncoder.encode at ``row[at:]``: per rank the fraction seen, then
    the fraction of the shoe seen."""
    seen = 0
    scaled = COUNT_FRACTIONS[c[C_DECKS]]
    for r in range(13):
        seen += counts[r]
        row[at + r] = scaled[min(counts[r], 4 * MAX_DECKS)]
    row[at + 13] = clip(seen / t[T_SHOE_SIZE], 0.0, 1.0)


@jit(ROWS, I64, F64, I64, I, I, I64, F32ROW)
def encode(t, k8, c, f, mv, n, current, counts, row):
    """ObservationEncoder.encode of the agent seat's view into row (counts: 13 ints of scratch)."""
    for o in range(row.shape[0]):
        row[o] = 0.0
    hands = t[T_HANDS]
    seat = c[C_SEAT]
    banker = t[T_BANKER]
    players = c[C_PLAYERS]
    unit = float(c[C_BASE_STAKE])
    encode_decision(t, c, mv, n, row, O_PHASE, O_BET_POINT, O_LEGAL_KINDS)
    for m in range(n):
        kind = mv[MOVE * m]
        base = O_MOVES + 4 * m
        row[base] = 1.0
        row[base + 1] = kind / (NUM_KINDS - 1)
        row[base + 2] = clip(mv[MOVE * m + 1] / unit, 0.0, CHIP_BOUND)
        row[base + 3] = clip(mv[MOVE * m + 2] / unit, 0.0, CHIP_BOUND)
    row[O_SEAT_IS_BANKER] = 1.0 if seat == banker else 0.0
    row[O_SEAT_OWN] = SEAT_SCALED[seat]
    row[O_SEAT_BANKER] = SEAT_SCALED[banker]
    row[O_SEAT_PLAYERS] = players / MAX_PLAYERS
    row[O_SEAT_PLACE] = SEAT_SCALED[place(seat, banker, players)]
    row[O_CHIP_SHOOT] = clip(t[T_SHOOT] / unit, 0.0, CHIP_BOUND)
    row[O_CHIP_RESERVE] = clip(t[T_RESERVE] / unit, 0.0, CHIP_BOUND)
    row[O_CHIP_CAPACITY] = clip(shoot_capacity(t, c) / unit, 0.0, CHIP_BOUND)
    row[O_CHIP_BALANCE] = clip((t[BALANCES + seat] - c[C_STARTING_CHIPS]) / unit, -CHIP_BOUND, CHIP_BOUND)
    for r in range(13):
        counts[r] = k8[K_O_SEEN + r]
    encode_banker(t, k8, c, f, row, O_BANKER, counts, np.inf)
    # the hands
    for k in range(hands):
        start = O_HANDS + HAND_SIZE * k
        encode_hand(t, k8, c, k, row, start, seat, banker, k == current, counts)
        if k == current:
            for o in range(HAND_SIZE):
                row[O_CURRENT + o] = row[start + o]
    encode_count(t, c, counts, row, O_COUNT)
    row[O_EPISODE] = (c[C_DEALS_PER_EPISODE] - t[T_DEALS]) / c[C_DEALS_PER_EPISODE]


@jit(I64, F64, I)
def chip_feature(c, f, chips):
    """features.compact_observation's log-scaled chip feature of ``chips`` (the flat row's float32
    value in base stakes, then log1p in float64): looked up in the config's table below CHIP_FEATURES
    (``engine.chip_features``; a log1p costs as much as the rest of the compact row)."""
    if 0 <= chips < CHIP_FEATURES:
        return f[F_FIELDS + chips]
    flat = np.float32(clip(chips / c[C_BASE_STAKE], 0.0, CHIP_BOUND))
    return np.log1p(np.float64(flat)) / CHIP_LOG_SCALE


@jit(ROWS, I64, I, F32ROW, I, I64)
def compact_hand(t, k8, c, k, row, seat, counts):
    """The TOTAL and HAND parts of features.compact_observation for the pending hand k, from its cards
    and fields (the float32 values and arithmetic of the flat slot they are defined from, without
    writing it); adds the ranks the seat sees to ``counts`` as ``count_seen`` does."""
    base = hand_at(c, k, 0)
    own = t[base + H_SEAT] == seat
    n = t[base + H_CARDS]
    counted = t[base + H_RESHUFFLED] == 0
    visible = 0
    hard = 0
    ace = False
    pair_rank = -1
    pairs = 0
    for p in range(n):
        if own or k8[HAND_UP + card_at(c, k, p)] != 0:
            card = k8[card_at(c, k, p)]
            value = card_value(card)
            visible += 1
            hard += value
            ace = ace or value == 1
            rank = card >> 2
            if counted:
                counts[rank] += 1
            if rank == pair_rank:
                pairs += 1
            pair_rank = rank
    soft = ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    held = CARDS_HELD[visible, n - visible]
    unit = float(c[C_BASE_STAKE])
    stake = np.float32(clip(t[base + H_STAKE] / unit, 0.0, CHIP_BOUND))
    original = np.float32(clip(t[base + H_ORIGINAL] / unit, 0.0, CHIP_BOUND))
    ratio = stake / (np.float32(4.0) * original) if original > 0 else np.float32(0.0)
    row[CF_TOTAL + TOTAL_ONE_HOT[total]] = 1.0
    if held >= 1:
        row[CF_HAND + CH_CARDS + min(held, enc.MAX_CARDS) - 1] = 1.0
    row[CF_HAND + CH_PRESENT] = 1.0
    row[CF_HAND + CH_SOFT] = 1.0 if soft else 0.0
    row[CF_HAND + CH_PAIR] = 1.0 if held == 2 and pairs == 1 else 0.0
    row[CF_HAND + CH_STAKE_RATIO] = min(ratio, np.float32(1.0))
    row[CF_HAND + CH_BUYS] = DRAWS_SCALED[t[base + H_BUYS]]
    row[CF_HAND + CH_TWISTS] = DRAWS_SCALED[t[base + H_TWISTS]]
    row[CF_HAND + CH_DOUBLED] = 1.0 if t[base + H_DOUBLED] != 0 else 0.0
    row[CF_HAND + CH_FROM_SPLIT] = 1.0 if t[base + H_FROM_SPLIT] != 0 else 0.0
    row[CF_HAND + CH_SHOOT_BET] = 1.0 if t[base + H_SHOOT_BET] > 0 else 0.0


@jit(ROWS, I64, F64, I64, I, I, I64, F32ROW)
def encode_compact(t, k8, c, f, mv, n, current, counts, row):
    """features.compact_observation of the agent seat's observation, written without the flat row:
    the blocks it copies, the pending hand (``compact_hand``; the other hands only counted), the
    banker's and the count's blocks (clipped to 1 as written), the chips and the episode."""
    for o in range(row.shape[0]):
        row[o] = 0.0
    seat = c[C_SEAT]
    encode_decision(t, c, mv, n, row, CF_PHASE, CF_BET_POINT, CF_LEGAL_KINDS)
    for r in range(13):
        counts[r] = k8[K_O_SEEN + r]
    encode_banker(t, k8, c, f, row, CF_BANKER, counts, 1.0)
    for k in range(t[T_HANDS]):
        if k == current:
            compact_hand(t, k8, c, k, row, seat, counts)
        else:
            count_seen(t, k8, c, k, seat, counts)
    encode_count(t, c, counts, row, CF_COUNT)
    if t[T_SHOOT] != 0 or t[T_RESERVE] != 0:  # without chips in the Shoot every chip feature is 0
        row[CF_CHIPS] = chip_feature(c, f, t[T_SHOOT])
        row[CF_CHIPS + 1] = chip_feature(c, f, t[T_RESERVE])
        row[CF_CHIPS + 2] = chip_feature(c, f, shoot_capacity(t, c))
    row[CF_EPISODE] = (c[C_DEALS_PER_EPISODE] - t[T_DEALS]) / c[C_DEALS_PER_EPISODE]


@jit(ROWS, I64, F64, I64, I, I, I64, F32ROW)
def encode_view(t, k8, c, f, mv, n, current, counts, row):
    """The observation of c[C_SEAT]'s view in the batch's layout: the flat row or the compact one."""
    if c[C_COMPACT] != 0:
        encode_compact(t, k8, c, f, mv, n, current, counts, row)
    else:
        encode(t, k8, c, f, mv, n, current, counts, row)


@jit(ROWS, I64, F64, I64, I64, F32ROW, BOOLS)
def refresh(t, k8, c, f, mv, counts, row, mask):
    """PontoonSeatEnv._refresh: the agent's mask and observation; once the episode is over the
    mask allows every index (the reset that follows ignores the action)."""
    n = agent_moves(t, k8, c, mv)
    current = current_hand(t, c)
    if t[T_TERMINAL] != 0:
        for a in range(c[C_ACTIONS]):
            mask[a] = True
    else:
        write_mask(t, c, f, mv, n, current, mask)
    if c[C_BLIND] == 0:
        encode_view(t, k8, c, f, mv, n, current, counts, row)


V_CURRENT, V_CAPACITY, V_POINT, V_TO_ACT, V_MOVES = range(5)
VIEW_FIELDS = V_MOVES + 1
"""view_fields' answer: the pending hand (-1: none), the Shoot's room, the open betting point (-1:
none), the seat to act (-1: none), the number of legal moves, then (kind, low, high) per move."""


@jit(ROWS, I64, I64, entry=True)
def view_fields(t, k8, c, out):
    """The parts of the agent's view and the table's state that follow from the rules, for
    ``readout.batch_seat_view`` and ``readout.batch_facts``."""
    current = current_hand(t, c)
    out[V_CURRENT] = current
    out[V_CAPACITY] = shoot_capacity(t, c)
    out[V_POINT] = shoot_bet_point(t, c) if current >= 0 else -1
    out[V_TO_ACT] = to_act(t, c)
    out[V_MOVES] = agent_moves(t, k8, c, out[VIEW_FIELDS:])


@jit(ROWS, CFG, B, I, I, ir=True)
def start_episode(t, k8, c, f, carry, key, banker):
    """PontoonSeatEnv.reset of one table up to its first deal, ``banker`` holding the bank (the seat
    envs: seat 0; the whole table: its first banker): a fresh table; a persistent shoe
    carries over (with its count) when ``carry`` and the previous deal was settled
    (PontoonSeatEnv._carry_shoe). Without ``carry`` (a seeded reset) the shoe starts in pack order, so
    that the seed alone decides the game."""
    phase = phase_of(t)
    if carry and c[C_PERSISTENT] != 0 and (phase == PH_BANK_DECISION or phase == PH_DEAL_OVER):
        count_cards_of_deal(t, k8, c)
    else:
        if carry:
            renew_shoe(t, k8, c)
        else:
            fresh_shoe(t, k8, c)
        clear_seen(k8)
    for seat in range(c[C_PLAYERS]):
        t[BALANCES + seat] = c[C_STARTING_CHIPS]
    # one store each (a loop over a tuple of fields compiles to a jump table)
    t[T_SHOOT] = 0
    t[T_RESERVE] = 0
    t[T_DEAL_NUMBER] = 0
    t[T_TURNOVERS] = 0
    t[T_HANDS] = 0
    t[T_BANKER_CARDS] = 0
    t[T_REVEALED] = 0
    t[T_FORFEITED] = 0
    t[T_CURSOR] = 0
    t[T_BOX] = 0
    t[T_DEALS] = 0
    t[T_TERMINAL] = 0
    t[T_ACK] = 0
    t[T_DECIDED] = 0
    t[T_ILLEGAL] = 0
    t[T_BANKER] = banker
    t[T_STAGE] = ST_OVER
    set_key(t, key)
    if c[C_SHOOT] != 0:
        add_to_shoot(t, c, c[C_INITIAL_SHOOT], banker)
    t[T_WEALTH_MARK] = wealth(t, c, c[C_SEAT])
    start_deal(t, k8, c, f)
    t[T_DEALS] = 1


@jit(ROWS, CFG, I, I64, RNG, I64, I64, BOOLS, ir=True)
def take_action(t, k8, c, f, tab, a, mv, rng, out, counts, mask):
    """PontoonSeatEnv.step of one table (never strict) up to the table's play: True when ``a`` is
    illegal (the agent forfeits, PontoonSeatEnv._forfeit's first hand). An index outside the action
    table is an error (the envs refuse it first; the kernel indexes without bounds checks)."""
    t[T_ILLEGAL] = 0
    if a < 0 or a >= c[C_ACTIONS]:
        fail(t, 0, E_BAD_ACTION)
        return True
    if not mask[a]:
        t[T_ILLEGAL] = 1
        if t[T_ACK] != 0:
            t[T_ACK] = 0
        else:
            forfeit(t, k8, c, f, tab, rng, out, counts)
        return True
    t[T_DECIDED] = 1
    if t[T_ACK] != 0:
        t[T_ACK] = 0
    else:  # the mask was written from this very state's legal moves: ``a`` is legal, not asked again
        amount = action_amount(t, c, f, a, current_hand(t, c))
        apply_legal(t, k8, c, f, tab, c[c[C_O_ACT_KIND] + a], amount, rng, out, counts)
    return False


@jit(ROWS, CFG, B, B, I, I, I64, RNG, I64, I64, F32ROW, BOOLS, ir=True)
def env_turn(t, k8, c, f, tab, reset, carry, key, a, mv, rng, out, counts, row, mask):
    """One table's reset (``reset``: PontoonSeatEnv.reset with ``carry`` and the shuffle ``key``;
    returns 0) or step (the action ``a``: PontoonSeatEnv.step, never strict; returns the reward), up
    to the agent's next decision, and its observation and mask written."""
    if reset:
        start_episode(t, k8, c, f, carry, key, 0)
        forfeiting = False
    else:
        forfeiting = take_action(t, k8, c, f, tab, a, mv, rng, out, counts, mask)
    terminated = play_until(t, k8, c, f, tab, forfeiting, mv, rng, out, counts)
    if reset:
        if terminated:
            fail(t, 0, E_NO_DECISION)
    else:
        t[T_TERMINAL] = 1 if terminated else 0
    refresh(t, k8, c, f, mv, counts, row, mask)
    if reset:
        return 0.0
    now = wealth(t, c, c[C_SEAT])
    reward = (now - t[T_WEALTH_MARK]) / c[C_BASE_STAKE] - (f[F_PENALTY] if forfeiting else 0.0)
    t[T_WEALTH_MARK] = now
    return reward


# =========================================================================== batches (entry points)
@jit(I32ROWS, I8ROWS, CFG, F32ROWS, BOOLROWS, I64, BOOLS, B, B, I64, F32, BOOLS, BOOLS, I64, RNG, I64, entry=True)
def play_tables(t, k8, c, f, tab, obs, mask, actions, resets, carry, step, keys, rewards, terminated, illegal, deals,
                rng, scratch):
    """The batch's one entry point for an env: every table i with ``resets[i]`` starts a new episode
    (PontoonSeatEnv.reset; shuffle key ``keys[i]``, drawn when negative; ``carry`` keeps a persistent
    shoe), with reward 0, not terminated; with ``step``, every other table takes the step
    ``actions[i]`` (PontoonSeatEnv.step). ``illegal[i]`` and ``deals[i]``: every table's illegal-action
    flag and deal number after the call (the info of a step, without reading the state's columns, a
    cache line per table each). Returns the first table with an error (-1: none). One entry point
    rather than a reset and a step: each would compile the whole game again."""
    mv = scratch[:MOVE * 8]
    counts = scratch[MOVE * 8:MOVE * 8 + 52]
    out = scratch[MOVE * 8 + 52:]
    failed = -1
    for i in range(t.shape[0]):
        reset = resets[i]
        if reset or step:
            key = (keys[i] if keys[i] >= 0 else draw_key(rng)) if reset else 0
            rewards[i] = env_turn(t[i], k8[i], c, f, tab, reset, carry, key, actions[i], mv, rng, out, counts, obs[i],
                                  mask[i])
            terminated[i] = not reset and t[i, T_TERMINAL] != 0
        illegal[i] = t[i, T_ILLEGAL] != 0
        deals[i] = t[i, T_DEALS]
        if failed < 0 and t[i, T_ERROR] != 0:
            failed = i
    return np.int64(failed)


# =========================================================================== evaluation (evaluate/)
COMPILER.group = EVALUATION  # compiled on an evaluation's first call, not for an env
I32 = types.Array(types.int32, 1, "C")
I8S = types.Array(types.int8, 1, "C")
F64S = types.Array(types.float64, 1, "C")
(R_CLASSES, R_SHOOT_BETS, R_SHOOT_BETS_WON, R_SHOOT_CHIPS_BET, R_SHOOT_CHIPS_WON, R_TURNOVERS,
 R_ILLEGAL) = (0, 5, 6, 7, 8, 9, 10)
R_FIELDS = 11
"""Totals of an evaluation: hand classes (5), Shoot bets placed, won, chips bet, chips won, bank
turnovers, illegal actions (evaluate.tournament.AgentRecord)."""
D_TOTALS = 32
D_CARDS = 6
"""Decision counts: (soft, total 0..31, cards 0..5, action index)."""


@jit(I32ROW, I64, F64, I, I, BOOLS)
def to_index(t, c, f, kind, amount, mask):
    """ActionTable.to_index: the legal index of ``kind`` with the nearest amount (ties: the lower
    index); a buy no legal level matches becomes a twist (-1: none)."""
    current = current_hand(t, c)
    kinds = c[C_O_ACT_KIND]
    for attempt in range(2):
        wanted = kind if attempt == 0 else K_TWIST
        if attempt == 1 and kind != K_BUY:
            break
        best = -1
        distance = 0
        for a in range(c[C_ACTIONS]):
            if not mask[a] or c[kinds + a] != wanted:
                continue
            if attempt == 1 or not (wanted == K_STAKE or wanted == K_SHOOT_BET or wanted == K_BUY):
                return np.int64(a)
            gap = abs(action_amount(t, c, f, a, current) - amount)
            if best < 0 or gap < distance:
                best = a
                distance = gap
        if best >= 0:
            return np.int64(best)
    return np.int64(-1)


# ------------------------------------------------------------------ the solver's policy (evaluations, whole tables)
COMPILER.group = POLICY  # compiled before the groups that play it (compiler.NEEDS)


@jit(ROWS, I64)
def table_up(t, k8, c):
    """OptimalPunter._up: the banker's first card's value - 1 where the rules show it (-1: none)."""
    if c[C_SHOWS_FIRST] != 0:
        first = first_visible_banker_card(t, k8, c[C_SEAT])
        if first >= 0:
            return np.int64(card_value(first) - 1)
    return np.int64(-1)


@jit(ROWS, I64, I, I32)
def table_node(t, k8, c, k, pol):
    """solve.node_index of hand k's cards, walked through the policy's child tables."""
    node = pol[pol[P_START] + card_value(k8[card_at(c, k, 0)]) - 1]
    for p in range(1, t[hand_at(c, k, H_CARDS)]):
        node = pol[pol[P_CHILD + p - 1] + node * 10 + card_value(k8[card_at(c, k, p)]) - 1]
    return node


@jit(I32ROW, I64, I32, I)
def table_flag(t, c, pol, k):
    """Solution.flags' index of hand k's stake multiple, buys, twisted and doubled (-1: none)."""
    stake = t[hand_at(c, k, H_STAKE)] // t[hand_at(c, k, H_ORIGINAL)]
    buys = t[hand_at(c, k, H_BUYS)]
    twisted = 1 if t[hand_at(c, k, H_TWISTS)] > 0 else 0
    doubled = 1 if t[hand_at(c, k, H_DOUBLED)] != 0 else 0
    if stake > P_MAX_STAKE_MULTIPLE or buys > P_MAX_BUYS:
        return np.int64(-1)
    return np.int64(pol[pol[P_FLAG] + ((stake * (P_MAX_BUYS + 1) + buys) * 2 + twisted) * 2 + doubled])


@jit(I32ROW, I64)
def seat_shoot_bet_riding(t, c):
    """Whether a hand of the agent's seat carries a Shoot bet (solver.shoot.split_decision's ``riding``)."""
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SEAT)] == c[C_SEAT] and t[hand_at(c, k, H_SHOOT_BET)] > 0:
            return True
    return False


@jit(ROWS, I64, I32, I64, I)
def table_punter_play(t, k8, c, pol, mv, n):
    """OptimalPunter.punter_play from its policy arrays (vector/policy.py), under the Shoot policy's
    tables where it has one (solver.shoot.play_tables and split_decision)."""
    k = t[T_CURSOR]
    cards = t[hand_at(c, k, H_CARDS)]
    up = table_up(t, k8, c)
    a = card_value(k8[card_at(c, k, 0)]) - 1
    b = card_value(k8[card_at(c, k, 1)]) - 1 if cards >= 2 else -1
    from_split = t[hand_at(c, k, H_FROM_SPLIT)] != 0
    shoot = pol[P_SHOOT] != 0
    if cards == 2 and a == b and find(mv, n, K_SPLIT) >= 0:
        plans = P_SPLIT
        if shoot and seat_shoot_bet_riding(t, c):
            plans = P_SPLIT_FULL
        elif shoot and not from_split and pol[P_OPEN] != 0:
            plans = P_SPLIT_OPEN
        plan = pol[plans] + ((up + 1) * 10 + a) * 2
        if pol[plan + (1 if from_split else 0)] != 0:
            return K_SPLIT, 0
    context = pol[pol[P_CTX] + (up + 1) * 11 + (a + 1 if from_split else 0)]
    original = t[hand_at(c, k, H_ORIGINAL)]
    flag = table_flag(t, c, pol, k)
    node = table_node(t, k8, c, k, pol)
    if context < 0 or flag < 0 or node < 0:
        fail(t, 0, E_OPPONENT_ILLEGAL)
        return K_STICK, 0
    acts = P_ACT
    if shoot and t[hand_at(c, k, H_SHOOT_BET)] > 0:
        acts = P_ACT_FULL
    elif shoot and not from_split and cards < 3 and pol[P_OPEN] != 0:
        acts = P_ACT_OPEN
    size = pol[P_LEVEL_SIZE + cards - 1]
    code = pol[pol[acts + cards - 1] + (context * size + node) * pol[P_FLAGS] + flag]
    if code == SOLVER_STICK:
        return K_STICK, 0
    if code == SOLVER_TWIST:
        return K_TWIST, 0
    if code == SOLVER_DOUBLE:
        return K_DOUBLE, 0
    if code == SOLVER_SPLIT:
        return K_SPLIT, 0
    return K_BUY, (code - SOLVER_BUY_BASE) * original


@jit(ROWS, I64, I32)
def table_wants_shoot_bet(t, k8, c, pol):
    """solver.shoot.wants_bet: whether the Shoot policy bets the allowance at this betting point."""
    point = shoot_bet_point(t, c)
    if point == 0:
        return pol[P_BET_DEAL] != 0
    k = current_hand(t, c)
    if k < 0 or t[hand_at(c, k, H_SHOOT_BET)] > 0:
        return False
    cards = t[hand_at(c, k, H_CARDS)]
    up = table_up(t, k8, c)
    if point == 1 and cards == 1:
        return pol[pol[P_BET_SECOND] + (up + 1) * 10 + card_value(k8[card_at(c, k, 0)]) - 1] != 0
    if point == 2 and cards == 3 and t[hand_at(c, k, H_FROM_SPLIT)] == 0:
        context = pol[pol[P_CTX] + (up + 1) * 11]
        flag = table_flag(t, c, pol, k)
        if context < 0 or flag < 0:
            return False
        node = table_node(t, k8, c, k, pol)
        return pol[pol[P_BET_FOURTH] + (context * pol[P_LEVEL_SIZE + 2] + node) * pol[P_FLAGS] + flag] != 0
    return False


@jit(ROWS, CFG, I32, I64, I, RNG)
def table_act(t, k8, c, f, tab, pol, mv, n, rng):
    """OptimalPunter.act: Policy.act with its stake, Shoot bets and punter play."""
    if find(mv, n, K_STAKE) >= 0:
        for m in range(n):
            if mv[MOVE * m + 1] == 0:
                return K_STAKE, 0
        return K_STAKE, np.int64(pol[P_STAKE])
    m = find(mv, n, K_SHOOT_BET)
    if m >= 0:
        if pol[P_SHOOT] != 0 and table_wants_shoot_bet(t, k8, c, pol):
            return K_SHOOT_BET, mv[MOVE * m + 2]
        return K_SHOOT_BET, 0
    if find(mv, n, K_KEEP_BANK) >= 0:
        return K_KEEP_BANK, 0
    if c[C_SEAT] == t[T_BANKER]:
        total, _ = best_total(k8, K_O_BC, t[T_BANKER_CARDS])
        return stick_or_draw(mv, n, total >= 17)
    return table_punter_play(t, k8, c, pol, mv, n)


COMPILER.group = EVALUATION


@jit(ROWS, CFG, I32, I64, BOOLS, RNG)
def autopilot_index(t, k8, c, f, tab, pol, mv, mask, rng):
    """The action index the agent seat's own player (C_AUTOPILOT) chooses now (-1: none)."""
    mode = c[C_AUTOPILOT]
    if mode == AP_UNIFORM or t[T_ACK] != 0:
        legal = 0
        for a in range(c[C_ACTIONS]):
            legal += 1 if mask[a] else 0
        pick = int(uniform(rng) * legal) if mode == AP_UNIFORM else 0
        for a in range(c[C_ACTIONS]):
            if mask[a]:
                if pick == 0:
                    return np.int64(a)
                pick -= 1
        return np.int64(-1)
    n = legal_moves(t, k8, c, mv)
    if mode == AP_TABLE:
        kind, amount = table_act(t, k8, c, f, tab, pol, mv, n, rng)
    else:
        kind, amount = player_act(t, k8, c, f, tab, c[C_SEAT], c[C_PLAYERS], mv, n, rng)
    return to_index(t, c, f, kind, amount, mask)


@jit(ROWS, I64)
def decision_cell(t, k8, c):
    """evaluate.tournament._decision_key as a cell of the decision counts (-1: not a playing decision)."""
    if phase_of(t) != PH_PLAY or current_hand(t, c) < 0 or shoot_bet_point(t, c) >= 0:
        return np.int64(-1)
    k = t[T_CURSOR]
    cards = t[hand_at(c, k, H_CARDS)]
    total, soft = hand_total(t, k8, c, k)
    return np.int64(((1 if soft else 0) * D_TOTALS + total) * D_CARDS + cards)


@jit(ROWS, I64, I, F, F64S, F64S, F64S, I8S, I64, I64, call=True)
def record_episode(t, k8, c, hand, episode_return, returns, per_stake, shoot_part, outcome, shoot_after, totals):
    """evaluate.tournament._record_episode of the episode that just ended (the last deal's hands)."""
    seat = c[C_SEAT]
    result = 0
    shoot_result = 0
    initial = 0
    boxes = 0
    own = 0
    for k in range(t[T_HANDS]):
        if t[hand_at(c, k, H_SEAT)] != seat:
            continue
        own += 1
        result += t[hand_at(c, k, H_RESULT)]
        box = t[hand_at(c, k, H_BOX)]
        if (boxes >> box) & 1 == 0:
            boxes |= 1 << box
            initial += t[hand_at(c, k, H_ORIGINAL)]
        cls, _ = hand_class(t, k8, c, k)
        totals[R_CLASSES + cls] += 1
        bet = t[hand_at(c, k, H_SHOOT_BET)]
        if bet > 0:
            totals[R_SHOOT_BETS] += 1
            totals[R_SHOOT_CHIPS_BET] += bet
            won = t[hand_at(c, k, H_WON_FROM_SHOOT)]
            if won > 0:
                totals[R_SHOOT_BETS_WON] += 1
                totals[R_SHOOT_CHIPS_WON] += won
                shoot_result += won
            elif t[hand_at(c, k, H_RESULT)] < 0:
                shoot_result -= bet
    returns[hand] = episode_return
    per_stake[hand] = result / initial if own > 0 else np.nan
    shoot_part[hand] = shoot_result / initial if own > 0 else np.nan
    net = float(result) if own > 0 else episode_return
    outcome[hand] = 1 if net > 0 else (-1 if net < 0 else 0)
    shoot_after[hand] = t[T_SHOOT]
    totals[R_TURNOVERS] += t[T_TURNOVERS]


@jit(I32ROWS, I8ROWS, CFG, I32, F32ROWS, BOOLROWS, I64, B, I, I, I, F64S, F64S, F64S, F64S, I8S, I64, I64,
     I64, RNG, I64, entry=True)
def play_hands(t, k8, c, f, tab, pol, obs, mask, actions, external, seed, hands, budget, running, returns,
               per_stake, shoot_part, outcome, shoot_after, totals, decisions, rng, scratch):
    """An evaluation's hands: table i plays hands i, i + N, i + 2N, ... below ``hands``, hand h dealt
    with the key hand_key(seed, h) from a fresh table (as the scalar tournament resets hand h with
    seed + h). ``external``: one step per table with ``actions`` (a table whose episode ends is reset
    for its next hand at once); otherwise the agent seat's own player (C_AUTOPILOT) plays until each
    table has taken ``budget`` steps or finished its hands. Returns how many tables still have hands."""
    mv = scratch[:MOVE * 8]
    counts = scratch[MOVE * 8:MOVE * 8 + 52]
    out = scratch[MOVE * 8 + 52:]
    tables = t.shape[0]
    actions_n = c[C_ACTIONS]
    active = 0
    for i in range(tables):
        row, row8 = t[i], k8[i]
        steps = 0
        while True:
            if row[T_ERROR] != 0:
                return np.int64(-1)
            reset = row[T_NEEDS_RESET] != 0
            if reset:
                hand = i if row[T_HAND] < 0 else row[T_HAND] + tables
                if hand >= hands:
                    break
                row[T_HAND] = hand
                row[T_NEEDS_RESET] = 0
                key, a = hand_key(seed, hand), 0
            else:
                if steps >= budget:
                    break
                a = actions[i] if external else autopilot_index(row, row8, c, f, tab, pol, mv, mask[i], rng)
                if a < 0 or a >= actions_n:
                    fail(row, 0, E_OPPONENT_ILLEGAL)
                    return np.int64(-1)
                cell = decision_cell(row, row8, c)
                if cell >= 0:
                    decisions[cell * actions_n + a] += 1
                key = 0
            # one call site for both, so that the game is compiled into this entry point once
            reward = env_turn(row, row8, c, f, tab, reset, False, key, a, mv, rng, out, counts, obs[i], mask[i])
            if reset:
                running[i] = 0.0
                continue
            running[i] += np.float64(np.float32(reward))
            totals[R_ILLEGAL] += row[T_ILLEGAL]
            steps += 1
            if row[T_TERMINAL] != 0:
                record_episode(row, row8, c, row[T_HAND], running[i], returns, per_stake, shoot_part, outcome,
                               shoot_after, totals)
                row[T_NEEDS_RESET] = 1
        if row[T_NEEDS_RESET] == 0:
            active += 1
    return np.int64(active)


@jit(I32ROWS, I8ROWS, CFG, I32, BOOLROWS, I64, RNG, I64, entry=True)
def choose_actions(t, k8, c, f, tab, pol, mask, out_actions, rng, scratch):
    """The index every table's agent-seat player (C_AUTOPILOT) would choose now (-1 where the episode
    is over; tests)."""
    mv = scratch[:MOVE * 8]
    for i in range(t.shape[0]):
        if t[i, T_TERMINAL] != 0:
            out_actions[i] = -1
        else:
            out_actions[i] = autopilot_index(t[i], k8[i], c, f, tab, pol, mv, mask[i], rng)


# =========================================================================== the whole table (multiagent/)
COMPILER.group = WHOLE_TABLE  # compiled on the whole-table batch's first call, not for a seat's env
I64ROWS = types.Array(types.int64, 2, "C")


@jit(I64, F64, I, F32ROW, F64)
def network_logits(net_i, net_f, base, row, x):
    """ActorArrays.logits of the network whose block starts at ``net_i[base]``, of the observation in
    ``row``, in float64: ``tanh(x @ W + b)`` per hidden layer, then the action head. ``x`` holds two
    halves of scratch the layers write in turn; returns where in ``x`` the logits are."""
    width = x.shape[0] // 2
    size = net_i[base + N_INPUTS]
    for i in range(size):
        x[i] = np.float64(row[i])
    src = 0
    dst = width
    layers = net_i[base + N_LAYERS]
    for layer in range(layers):
        at = net_i[base + N_O_LAYERS] + NL_FIELDS * layer
        outputs = net_i[at + NL_OUTPUTS]
        weights = net_i[at + NL_O_WEIGHTS]
        biases = net_i[at + NL_O_BIASES]
        into = x[dst:dst + outputs]  # views, indexed from 0: LLVM vectorizes the row's loop (3x)
        for o in range(outputs):
            into[o] = 0.0
        for i in range(size):
            xi = x[src + i]
            if xi == 0.0:  # most of a flat observation: adds nothing
                continue
            w = net_f[weights + i * outputs:weights + (i + 1) * outputs]
            for o in range(outputs):
                into[o] += xi * w[o]
        hidden = layer < layers - 1
        for o in range(outputs):
            value = into[o] + net_f[biases + o]
            into[o] = np.tanh(value) if hidden else value
        src, dst = dst, src
        size = outputs
    return src


@jit(ROWS, I64, F64, I64, F64, I, I64, I, I64, F32ROW, F64)
def network_act(t, k8, c, f, net_i, net_f, network, mv, n, counts, row, x):
    """PolicyPlayer.act of network ``network`` for the seat c[C_SEAT], over mv[:n]: its own view
    encoded as its encoder does (the flat row, or features.compact_observation of it; the episode's
    deals left 0 and the balance from the network's starting chips, as PolicyPlayer encodes a table
    player's view), the deterministic action of its logits (the largest; among the legal indices of
    its own action table where it is masked, ActionTable.mask; the first on a tie), and that index's
    engine action (ActionTable.to_action). Returns (kind, amount, legal)."""
    base = net_i[1 + network]
    current = current_hand(t, c)
    if net_i[base + N_COMPACT] != 0:
        encode_compact(t, k8, c, f, mv, n, current, counts, row)
        row[CF_EPISODE] = 0.0
    else:
        encode(t, k8, c, f, mv, n, current, counts, row)
        row[O_EPISODE] = 0.0
        unit = float(c[C_BASE_STAKE])
        chips = t[BALANCES + c[C_SEAT]] - net_i[base + N_STARTING_CHIPS]
        row[O_CHIP_BALANCE] = clip(chips / unit, -CHIP_BOUND, CHIP_BOUND)
    logits = network_logits(net_i, net_f, base, row, x)
    masked = net_i[base + N_MASKED] != 0
    kinds = net_i[base + N_O_KIND]
    amounts = net_i[base + N_O_AMOUNT]
    multiples = net_i[base + N_O_MULTIPLE]
    best = -1
    best_logit = 0.0
    best_kind = np.int64(0)
    best_amount = np.int64(-1)
    best_legal = False
    for a in range(net_i[base + N_ACTIONS]):
        kind = net_i[kinds + a]
        amount = net_i[amounts + a]
        if kind == K_BUY:
            if current < 0:
                amount = np.int64(-1)
            else:
                amount = np.int64(np.floor(net_f[multiples + a] * t[hand_at(c, current, H_ORIGINAL)] + 0.5))
        legal = False
        if amount >= 0:
            for m in range(n):
                if mv[MOVE * m] == kind and mv[MOVE * m + 1] <= amount <= mv[MOVE * m + 2]:
                    legal = True
        if masked and not legal:
            continue
        logit = x[logits + a]
        if best < 0 or logit > best_logit:
            best = a
            best_logit = logit
            best_kind = kind
            best_amount = amount
            best_legal = legal
    return best_kind, best_amount, best_legal


@jit(ROWS, CFG, I32, I64, F64, I64, I64, RNG, I64, I64, F32ROW, F64, ir=True)
def play_seat_player(t, k8, c, f, tab, pol, net_i, net_f, net_of, mv, rng, out, counts, net_row, net_x):
    """play_table_player for a whole table, whose table players may also be the solver's policy
    (S_OPTIMAL: ``pol``, played as table_act plays it for the seat to act) or a trained network
    (network ``net_of[seat]`` of the batch's network arrays while the seat punts, ``net_of[players +
    seat]`` while it banks, network_act; -1: the seat's strategy code plays that role, RolePlayers.act)."""
    seat = to_act(t, c)
    code = c[c[C_O_STRAT] + STRAT_INTS * seat]
    network = net_of[c[C_PLAYERS] + seat] if t[T_BANKER] == seat else net_of[seat]
    if code != S_OPTIMAL and network < 0:
        play_table_player(t, k8, c, f, tab, mv, rng, out, counts)
        return
    c[C_SEAT] = seat
    n = legal_moves(t, k8, c, mv)
    if network >= 0:
        kind, amount, legal = network_act(t, k8, c, f, net_i, net_f, network, mv, n, counts, net_row, net_x)
        if not legal:  # an unmasked policy's choice (PolicyPlayer.act raises)
            fail(t, 0, E_OPPONENT_ILLEGAL)
            return
    else:
        kind, amount = table_act(t, k8, c, f, tab, pol, mv, n, rng)
    if not apply_action(t, k8, c, f, tab, kind, amount, mv, n, rng, out, counts):
        fail(t, 0, E_OPPONENT_ILLEGAL)


@jit(ROWS, CFG, I32, I64, F64, I64, BOOLS, I64, RNG, I64, I64, F32ROW, F64, ir=True)
def play_to_learner(t, k8, c, f, tab, pol, net_i, net_f, net_of, learners, mv, rng, out, counts, net_row, net_x):
    """ShootPontoonAECEnv._advance, with the seats not in ``learners`` played by their table players:
    the table plays on until a learner's seat is to act (False) or the last deal is over (True)."""
    for _ in range(STEP_LIMIT):
        if t[T_ERROR] != 0:
            return True
        if phase_of(t) == PH_DEAL_OVER:
            if t[T_DEALS] >= c[C_DEALS_PER_EPISODE]:
                return True
            start_deal(t, k8, c, f)
            t[T_DEALS] += 1
            continue
        if learners[to_act(t, c)]:
            return False
        play_seat_player(t, k8, c, f, tab, pol, net_i, net_f, net_of, mv, rng, out, counts, net_row, net_x)
    fail(t, 0, E_RUNAWAY)
    return True


@jit(ROWS, I64, F64, I, I64, I64, F32ROW, BOOLS, ir=True)
def whole_table_view(t, k8, c, f, seat, mv, counts, row, mask):
    """ShootPontoonAECEnv.observe(seat) into ``row`` and ``mask``: the seat's own view, its legal
    indices (none unless it is to act). ``c[C_SEAT]`` is the seat the encoder writes for: the whole
    table points it at each table's seat in turn (one thread steps a batch)."""
    c[C_SEAT] = seat
    n = agent_moves(t, k8, c, mv)
    current = current_hand(t, c)
    write_mask(t, c, f, mv, n, current, mask)
    encode_view(t, k8, c, f, mv, n, current, counts, row)


@jit(ROWS, CFG, I32, I64, F64, I64, B, B, I, I, I, BOOLS, I64, F32ROW, I64, RNG, I64, I64, F32ROW, BOOLS,
     F32ROW, F64, ir=True)
def whole_table_turn(t, k8, c, f, tab, pol, net_i, net_f, net_of, reset, carry, key, banker, a, learners, marks,
                     rewards, mv, rng, out, counts, row, mask, net_row, net_x):
    """One table's ShootPontoonAECEnv.reset (``reset``: a new episode with ``banker`` holding the first
    bank, ``carry`` and the shuffle ``key`` as in env_turn) or .step(a) by the seat to act (never
    strict: an illegal index forfeits, Table.forfeit), then the table plays on to the next learner's
    decision. Writes every seat's reward (its wealth's change in base stakes since the last step, or
    since the reset's deal began, the penalty on top) and the observation and mask of the seat to
    act; returns that seat (-1: the episode is over, and the row is the view of the seat that acted,
    with every index allowed: the next step resets)."""
    players = c[C_PLAYERS]
    offender = -1
    seat = -1
    if reset:
        start_episode(t, k8, c, f, carry, key, banker)
        for s in range(players):  # before the table players' first moves: the first step pays those
            marks[s] = wealth(t, c, s)
            rewards[s] = 0.0
        terminal = play_to_learner(t, k8, c, f, tab, pol, net_i, net_f, net_of, learners, mv, rng, out, counts,
                                       net_row, net_x)
        if terminal:
            fail(t, 0, E_NO_DECISION)  # whole_table_settings refuses the tables where this can happen
    else:
        seat = to_act(t, c)
        c[C_SEAT] = seat
        if take_action(t, k8, c, f, tab, a, mv, rng, out, counts, mask):
            offender = seat
        terminal = play_to_learner(t, k8, c, f, tab, pol, net_i, net_f, net_of, learners, mv, rng, out, counts,
                                       net_row, net_x)
        unit = c[C_BASE_STAKE]
        for s in range(players):
            now = wealth(t, c, s)
            reward = (now - marks[s]) / unit
            rewards[s] = reward - f[F_PENALTY] if s == offender else reward
            marks[s] = now
    t[T_TERMINAL] = 1 if terminal else 0
    if terminal:
        whole_table_view(t, k8, c, f, seat if seat >= 0 else 0, mv, counts, row, mask)
        for i in range(c[C_ACTIONS]):
            mask[i] = True
        return np.int64(-1)
    seat = to_act(t, c)
    whole_table_view(t, k8, c, f, seat, mv, counts, row, mask)
    return seat


@jit(I32ROWS, I8ROWS, CFG, I32, I64, F64, I64ROWS, F32ROWS, BOOLROWS, I64, BOOLS, B, B, I64, I64, BOOLS, I64ROWS,
     F32ROWS, I64, BOOLS, I64, I64, RNG, I64, F32, F64, entry=True)
def play_whole_tables(t, k8, c, f, tab, pol, net_i, net_f, net_of, obs, mask, actions, resets, carry, step, keys,
                      bankers, learners, marks, rewards, seats, terminated, banker_now, deals, rng, scratch, net_row,
                      net_x):
    """The whole-table batch's one entry point (as play_tables for a seat's env): every table i with
    ``resets[i]`` starts a new episode (``bankers[i]`` banks first; shuffle key ``keys[i]``, drawn when
    negative); with ``step``, every other table's seat to act plays ``actions[i]``, or, where it is -1,
    the table waits (rewards 0). ``seats[i]``: the seat to act next (-1: over); ``rewards[i, s]``:
    seat s's reward of this step. ``net_i``/``net_f``: the batch's trained networks
    (``engine.network_arrays``), ``net_of[i, s]`` and ``net_of[i, players + s]`` the one table i's seat s
    plays while it punts and while it banks (-1: its strategy code plays); ``net_row``/``net_x``: a
    network's observation and layers (scratch). ``banker_now[i]`` and
    ``deals[i]``: every table's banker and deal number after the call (contiguous, for the info).
    Returns the first table with an error (-1: none)."""
    mv = scratch[:MOVE * 8]
    counts = scratch[MOVE * 8:MOVE * 8 + 52]
    out = scratch[MOVE * 8 + 52:]
    failed = -1
    for i in range(t.shape[0]):
        reset = resets[i]
        if reset or step:
            if not reset and actions[i] < 0:
                for s in range(c[C_PLAYERS]):
                    rewards[i, s] = 0.0
                terminated[i] = False
            else:
                key = (keys[i] if keys[i] >= 0 else draw_key(rng)) if reset else 0
                seats[i] = whole_table_turn(t[i], k8[i], c, f, tab, pol, net_i, net_f, net_of[i], reset, carry, key,
                                            bankers[i], actions[i], learners, marks[i], rewards[i], mv, rng, out,
                                            counts, obs[i], mask[i], net_row, net_x)
                terminated[i] = t[i, T_TERMINAL] != 0
        banker_now[i] = t[i, T_BANKER]
        deals[i] = t[i, T_DEALS]
        if failed < 0 and t[i, T_ERROR] != 0:
            failed = i
    return np.int64(failed)


@jit(ROWS, I64, F64, I, F32ROW, BOOLS, I64, entry=True)
def observe_whole_table(t, k8, c, f, seat, row, mask, scratch):
    """ShootPontoonAECEnv.observe(seat) of one table, any seat (the seat to act's is already in the
    batch's rows)."""
    mv = scratch[:MOVE * 8]
    counts = scratch[MOVE * 8:MOVE * 8 + 52]
    whole_table_view(t, k8, c, f, seat, mv, counts, row, mask)
