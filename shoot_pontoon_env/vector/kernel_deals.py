"""The kernel's game, part two: the moves of a table. The shoe (shuffled lazily, from the episode's
key), the chips and the settlement, and a deal's stages, up to ``Table.apply`` and ``Table.forfeit``."""

from __future__ import annotations

import numpy as np
from numba import types

from ..cards import RANKS
from ..rules import MAX_DECKS, PACKS
from .bitgen import next_uint64
from .kernel import F64, I, I32ROW, I64, I8ROW, RNG, ROWS, jit
from .kernel_hands import (
    allows, banker_class, best_total, card_at, fail, hand_at, hand_class, hand_total, is_pontoon_pair,
    may_draw, phase_of, shoot_capacity, staker, to_act,
)
from .layout import (
    BALANCES, C_BANKER_STOPS_AT_FIVE, C_BANK_SALE, C_BANK_SALE_PRICE, C_BET_BEFORE_DEAL, C_BET_BEFORE_SECOND,
    C_BUY_FACE_DOWN, C_DEALER, C_DEALER_HITS_SOFT_17, C_DEALER_STANDS_ON, C_DECKS, C_FEED_CAPACITY,
    C_INITIAL_SHOOT, C_MAX_BOXES, C_MIN_STAKE, C_O_FEED, C_O_FEED_LEN, C_O_SHOE, C_PEEK, C_PERSISTENT,
    C_PACK, C_PLAYERS, C_PROGRESSIVE, C_RESERVE_PERCENT, C_SHOE_FULL, C_SHOOT, C_SHOOT_CAP, C_SHOWS_FIRST,
    E_FEED_EMPTY, E_RUNAWAY, E_SHOE_EXHAUSTED, F_PENETRATION, HAND_UP, HC_BUST, HC_PONTOON, H_BOX, H_BUYS,
    H_CARDS, H_DONE, H_DOUBLED, H_FIELDS, H_FOURTH_OFFERED, H_FROM_SPLIT, H_ORIGINAL, H_RESHUFFLED, H_RESULT,
    H_SEAT, H_SETTLED, H_SHOOT_BET, H_STAKE, H_TWISTS, H_WON_FROM_SHOOT, K_BUY, K_DOUBLE, K_O_BC, K_O_BU,
    K_O_SEEN, K_SELL_BANK, K_SHOOT_BET, K_SPLIT, K_STICK, K_TWIST, MAX_BANKER_CARDS, MAX_HAND_CARDS,
    MAX_TOTAL, NONE, O_LOSE, O_PUSH, O_WIN, PH_BANKER, PH_BANK_DECISION, PH_PLAY, PH_SHOOT_BETS, PH_STAKES,
    ST_BANK, ST_BANKER, ST_BET_BEFORE_DEAL, ST_BET_BEFORE_SECOND, ST_FIRST_CARDS, ST_OVER, ST_PEEK, ST_PLAY,
    ST_SECOND_CARDS, ST_SETTLE, ST_STAKES, TAB_O_SPECIAL, T_BANKER, T_BANKER_CARDS, T_BOX, T_CURSOR,
    T_DEAL_NUMBER, T_ERROR, T_FEED_COUNT, T_FEED_HEAD, T_FORFEITED, T_HANDS, T_KEY_HI, T_KEY_LO, T_RESERVE,
    T_REVEALED, T_SEED_HI, T_SEED_LO, T_SHOE_POS, T_SHOE_SHUFFLED, T_SHOE_SIZE, T_SHOOT, T_SHUFFLES, T_STAGE,
    T_TURNOVERS,
)

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


@jit(RNG)
def draw_key(rng):
    """A new episode's shuffle key: the top 62 bits of the Generator's next 64-bit draw, the value
    ``Generator.integers(0, 2**62)`` gives (scalar twin: ``shoot_pontoon_env.vector.tables:draw_keys``)."""
    return np.int64(next_uint64(rng[2], rng[1]) >> np.uint64(2))


@jit(I32ROW, I)
def set_key(t, key):
    """The episode's shuffle key (62 bits, two 31-bit halves in the row) and its first shuffle's seed."""
    t[T_KEY_LO] = key & KEY_MASK
    t[T_KEY_HI] = (key >> KEY_BITS) & KEY_MASK
    reseed(t)


# =========================================================================== the shoe (shoe.py)
PACK_ORDERS = np.array([[card for _ in range(MAX_DECKS) for card in range(52) if RANKS[card // 4] in ranks]
                        + [0] * (MAX_DECKS * (52 - len(ranks) * 4)) for ranks in PACKS.values()], dtype=np.int8)
"""Per pack of ``rules.PACKS`` (C_PACK, in their order), the largest shoe in pack order (each pack's cards
in turn, then padding); a fresh shoe is its first cards."""
PACK_HOLDS = np.array([[RANKS[card // 4] in ranks for card in range(52)] for ranks in PACKS.values()],
                      dtype=np.int64)
"""Per pack, whether it holds each card."""


@jit(ROWS, I64, call=True)
def take_fed_order(t, k8, c):
    head = t[T_FEED_HEAD]
    if head >= t[T_FEED_COUNT]:
        fail(t, E_FEED_EMPTY)
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
    shoe, size, order = k8[c[C_O_SHOE]:], c[C_SHOE_FULL], PACK_ORDERS[c[C_PACK]]
    for q in range(size):
        shoe[q] = order[q]
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
    """Every card back in; the order is drawn lazily, card by card, in draw(). Scalar twin:
    ``shoot_pontoon_env.shoe:Shoe.shuffle``."""
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
    """Every card of no live hand, shuffled into a new stock (the cards seen counted afresh). Scalar twin:
    ``shoot_pontoon_env.shoe:Shoe.restock``."""
    holds = PACK_HOLDS[c[C_PACK]]
    for card in range(52):
        counts[card] = c[C_DECKS] * holds[card]
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SETTLED)] == 0:
            for p in range(t[hand_at(k, H_CARDS)]):
                counts[k8[card_at(k, p)]] -= 1
    for p in range(t[T_BANKER_CARDS]):
        counts[k8[K_O_BC + p]] -= 1
    size = 0
    for card in range(52):
        size += counts[card]
    if size == 0:
        fail(t, E_SHOE_EXHAUSTED)
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
        if t[hand_at(k, H_SETTLED)] != 0:
            t[hand_at(k, H_RESHUFFLED)] = 1


@jit(ROWS, I64, I64)
def draw(t, k8, c, counts):
    """The next card, restocking when the stock is empty, with the lazy Fisher-Yates step: the card at the
    draw position is swapped with one chosen uniformly from those not drawn yet, by the uniform number of (the
    episode's key, the shuffle, the position), so that an episode's shoe order depends on its key alone,
    however many cards are drawn (common random numbers across agents). Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._draw``."""
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


@jit(ROWS, I64, I, I, I64)
def deal_to_hand(t, k8, c, k, face_up, counts):
    """A card from the shoe onto hand k. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._deal_to_hand``."""
    card = draw(t, k8, c, counts)
    n = t[hand_at(k, H_CARDS)]
    if n >= MAX_HAND_CARDS:
        fail(t, E_RUNAWAY)
        return
    k8[card_at(k, n)] = card
    k8[HAND_UP + card_at(k, n)] = face_up
    t[hand_at(k, H_CARDS)] = n + 1


@jit(ROWS, I64, I, I64)
def deal_banker_card(t, k8, c, face_up, counts):
    """A card from the shoe to the banker. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._deal_banker_card``."""
    card = draw(t, k8, c, counts)
    n = t[T_BANKER_CARDS]
    if n >= MAX_BANKER_CARDS:
        fail(t, E_RUNAWAY)
        return
    k8[K_O_BC + n] = card
    k8[K_O_BU + n] = face_up
    t[T_BANKER_CARDS] = n + 1


# =========================================================================== chips (Table._move and kin)
SHOWDOWN_STRIDES = tuple(int(s) for s in np.cumprod((1, 2, MAX_TOTAL, 5, 2, 2, MAX_TOTAL))[::-1])
SD_CLASS, SD_TOTAL, SD_SPLIT, SD_SPECIAL, SD_BANKER, SD_BANKER_TOTAL, SD_FIELD = SHOWDOWN_STRIDES


@jit(I32ROW, I)
def wealth(t, seat):
    """A seat's balance and its chips on the table (the Shoot's too, for the banker). Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.wealth``."""
    total = np.int64(t[BALANCES + seat])
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SEAT)] == seat and t[hand_at(k, H_SETTLED)] == 0:
            total += t[hand_at(k, H_STAKE)] + t[hand_at(k, H_SHOOT_BET)]
    if seat == t[T_BANKER]:
        total += t[T_SHOOT] + t[T_RESERVE]
    return total


@jit(I32ROW, I64, I, I)
def add_to_shoot(t, c, amount, src):
    """Chips into the Shoot up to its cap; ``src`` is a seat, or -1 for chips lying on the table. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._add_to_shoot``."""
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
    """Hand k paid or taken by ``outcome`` and ``multiple``. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._settle_hand``."""
    seat = t[hand_at(k, H_SEAT)]
    banker = t[T_BANKER]
    stake = np.int64(t[hand_at(k, H_STAKE)])
    bet = np.int64(t[hand_at(k, H_SHOOT_BET)])
    if outcome == O_WIN:
        t[BALANCES + seat] += stake + multiple * stake + 2 * bet
        t[BALANCES + banker] -= multiple * stake
        t[T_SHOOT] -= bet
        t[hand_at(k, H_WON_FROM_SHOOT)] = bet
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
    t[hand_at(k, H_RESULT)] = net
    t[hand_at(k, H_SETTLED)] = 1
    t[hand_at(k, H_DONE)] = 1


@jit(ROWS, I)
def reveal_hand(t, k8, k):
    """Hand k's cards face up. Scalar twin: ``shoot_pontoon_env.engine.table:Table._reveal_hand``."""
    for p in range(t[hand_at(k, H_CARDS)]):
        k8[HAND_UP + card_at(k, p)] = 1


@jit(ROWS)
def reveal_banker(t, k8):
    """The banker's cards face up. Scalar twin: ``shoot_pontoon_env.engine.table:Table._reveal_banker``."""
    if t[T_REVEALED] == 0:
        t[T_REVEALED] = 1
        for p in range(t[T_BANKER_CARDS]):
            k8[K_O_BU + p] = 1


@jit(ROWS, I64, I8ROW, I, I, I, I64, I)
def showdown(t, k8, c, tab, k, banker, banker_total, out, slot):
    """Hand k against the banker's (class, total), from the settlement table, into out[slot] (outcome) and
    out[slot + 1] (multiple). Scalar twin: ``shoot_pontoon_env.engine.settlement:showdown``."""
    cls, total = hand_class(t, k8, c, k)
    special = 0
    if cls == HC_PONTOON:
        special = tab[TAB_O_SPECIAL + 52 * k8[card_at(k, 0)] + k8[card_at(k, 1)]]
    entry = (cls * SD_CLASS + total * SD_TOTAL + t[hand_at(k, H_FROM_SPLIT)] * SD_SPLIT
             + special * SD_SPECIAL + banker * SD_BANKER + banker_total * SD_BANKER_TOTAL)
    out[slot] = tab[entry]
    out[slot + 1] = tab[entry + SD_FIELD]
    if out[slot] < 0:
        fail(t, E_RUNAWAY)


@jit(ROWS, I64, I8ROW, I64, call=True)
def settle_showdown(t, k8, c, tab, out):
    """Losing hands first, then winning hands, in dealing order; outcomes from the settlement table.
    Scalar twin: ``shoot_pontoon_env.engine.table:Table._settle_showdown``."""
    if t[T_FORFEITED] != 0:
        banker, banker_total = HC_BUST, 0
    else:
        banker, banker_total = banker_class(t, k8, c)
    hands = t[T_HANDS]
    for k in range(hands):
        out[2 * k] = -1
        if t[hand_at(k, H_SETTLED)] == 0:
            reveal_hand(t, k8, k)
            showdown(t, k8, c, tab, k, banker, banker_total, out, 2 * k)
    for k in range(hands):
        if out[2 * k] >= 0 and out[2 * k] != O_WIN:
            settle_hand(t, c, k, out[2 * k], out[2 * k + 1])
    for k in range(hands):
        if out[2 * k] == O_WIN:
            settle_hand(t, c, k, O_WIN, out[2 * k + 1])


@jit(ROWS, I64, I8ROW, I64, call=True)
def banker_pontoon_on_peek(t, k8, c, tab, out):
    """Every hand meets the banker's Pontoon by the showdown's rule. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._banker_pontoon_on_peek``."""
    reveal_banker(t, k8)
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SETTLED)] == 0:
            reveal_hand(t, k8, k)
            showdown(t, k8, c, tab, k, HC_PONTOON, 21, out, 0)
            settle_hand(t, c, k, out[0], out[1])


@jit(I32ROW, call=True)
def pay_reserve_jackpot(t):
    """The reserve to this deal's Shoot winners, pro rata. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._pay_reserve_jackpot``."""
    reserve = np.int64(t[T_RESERVE])
    if reserve == 0:
        return
    total = 0
    first = -1
    for k in range(t[T_HANDS]):
        won = t[hand_at(k, H_WON_FROM_SHOOT)]
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
        won = t[hand_at(k, H_WON_FROM_SHOOT)]
        if won > 0:
            share = reserve * won // total
            shared += share
            t[BALANCES + t[hand_at(k, H_SEAT)]] += share
    t[BALANCES + t[hand_at(first, H_SEAT)]] += reserve - shared


@jit(I32ROW, I64, call=True)
def end_of_deal_bank(t, c):
    """The bank turns over when the deal emptied the Shoot. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._end_of_deal_bank``."""
    if c[C_SHOOT] == 0 or t[T_SHOOT] > 0:
        return False
    pay_reserve_jackpot(t)
    t[T_BANKER] = (t[T_BANKER] + 1) % c[C_PLAYERS]
    t[T_TURNOVERS] += 1
    add_to_shoot(t, c, c[C_INITIAL_SHOOT], t[T_BANKER])
    return True


@jit(I32ROW, I64, call=True)
def sell_bank(t, c):
    """The banker sells the bank to the next seat. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._sell_bank``."""
    seller = t[T_BANKER]
    buyer = (seller + 1) % c[C_PLAYERS]
    t[BALANCES + seller] += t[T_SHOOT] + t[T_RESERVE] + c[C_BANK_SALE_PRICE]
    t[BALANCES + buyer] -= c[C_BANK_SALE_PRICE]
    t[T_SHOOT] = 0
    t[T_RESERVE] = 0
    t[T_BANKER] = buyer
    add_to_shoot(t, c, c[C_INITIAL_SHOOT], buyer)


# =========================================================================== deals (Table)
STEP_LIMIT = 100_000
"""Automatic actions one table may take inside one call before it counts as a runaway."""


@jit(ROWS, call=True)
def count_cards_of_deal(t, k8):
    """The deal's cards, added to the count of cards seen before the next deal. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.cards_of_deal``."""
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_RESHUFFLED)] == 0:
            for p in range(t[hand_at(k, H_CARDS)]):
                k8[K_O_SEEN + k8[card_at(k, p)] // 4] += 1
    for p in range(t[T_BANKER_CARDS]):
        k8[K_O_SEEN + k8[K_O_BC + p] // 4] += 1


@jit(ROWS, I64, F64, call=True)
def start_deal(t, k8, c, f):
    """A new deal (never stacked). Scalar twin: ``shoot_pontoon_env.engine.table:Table.start_deal``."""
    persistent = c[C_PERSISTENT] != 0
    if persistent:
        count_cards_of_deal(t, k8)
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


@jit(I32ROW, I, I, I, I)
def new_hand(t, k, seat, box, stake):
    base = hand_at(k, 0)
    for field in range(H_FIELDS):
        t[base + field] = 0
    t[base + H_SEAT] = seat
    t[base + H_BOX] = box
    t[base + H_ORIGINAL] = stake
    t[base + H_STAKE] = stake


@jit(I32ROW, I64)
def next_staker(t, c):
    """The next seat's stakes are due, or the stakes are over. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._next_staker``."""
    t[T_CURSOR] += 1
    t[T_BOX] = 0
    if t[T_CURSOR] >= c[C_PLAYERS] - 1:
        t[T_STAGE] = ST_BET_BEFORE_DEAL
        t[T_CURSOR] = 0


@jit(I32ROW, I64, I)
def apply_stake(t, c, amount):
    """The staker's stake on a new box, or none (0). Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._apply_stake``."""
    seat = staker(t, c)
    if amount == 0:
        next_staker(t, c)
        return
    k = t[T_HANDS]
    new_hand(t, k, seat, t[T_BOX], amount)
    t[BALANCES + seat] -= amount
    t[T_HANDS] = k + 1
    t[T_BOX] += 1
    if t[T_BOX] >= c[C_MAX_BOXES]:
        next_staker(t, c)


@jit(I32ROW, I)
def apply_shoot_bet(t, amount):
    """The hand to act's Shoot bet. Scalar twin: ``shoot_pontoon_env.engine.table:Table._apply_shoot_bet``."""
    k = t[T_CURSOR]
    if phase_of(t) == PH_PLAY:
        t[hand_at(k, H_FOURTH_OFFERED)] = 1
    else:
        t[T_CURSOR] = k + 1
    if amount > 0:
        t[hand_at(k, H_SHOOT_BET)] += amount
        t[BALANCES + t[hand_at(k, H_SEAT)]] -= amount


@jit(ROWS, I64, I)
def after_card(t, k8, c, k):
    """Bust, Five Card Trick, Pontoon and forced stands. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._after_card``."""
    n = t[hand_at(k, H_CARDS)]
    total, soft = hand_total(t, k8, k)
    if total > 21:
        reveal_hand(t, k8, k)
        settle_hand(t, c, k, O_LOSE, 1)
        return
    if n >= MAX_HAND_CARDS:
        t[hand_at(k, H_DONE)] = 1
        reveal_hand(t, k8, k)
    elif n == 2 and hand_class(t, k8, c, k)[0] == HC_PONTOON:
        t[hand_at(k, H_DONE)] = 1
        reveal_hand(t, k8, k)
    elif total == 21 and not may_draw(c, total, soft):
        t[hand_at(k, H_DONE)] = 1


@jit(ROWS, I64, I, I64, call=True)
def split(t, k8, c, k, counts):
    """The second card starts a new hand right after this one. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._split``."""
    hands = t[T_HANDS]
    for j in range(hands, k + 1, -1):  # make room at k + 1
        for field in range(H_FIELDS):
            t[hand_at(j, field)] = t[hand_at(j - 1, field)]
        for p in range(MAX_HAND_CARDS):
            k8[card_at(j, p)] = k8[card_at(j - 1, p)]
            k8[HAND_UP + card_at(j, p)] = k8[HAND_UP + card_at(j - 1, p)]
    t[T_HANDS] = hands + 1
    moved = k8[card_at(k, 1)]
    t[hand_at(k, H_CARDS)] = 1
    original = t[hand_at(k, H_ORIGINAL)]
    seat = t[hand_at(k, H_SEAT)]
    new_hand(t, k + 1, seat, t[hand_at(k, H_BOX)], original)
    t[hand_at(k + 1, H_FROM_SPLIT)] = 1
    t[hand_at(k + 1, H_CARDS)] = 1
    k8[card_at(k + 1, 0)] = moved
    k8[HAND_UP + card_at(k + 1, 0)] = 0
    t[hand_at(k, H_FROM_SPLIT)] = 1
    t[BALANCES + seat] -= original
    deal_to_hand(t, k8, c, k, 0, counts)
    after_card(t, k8, c, k)


@jit(ROWS, I64, I, I, I64)
def apply_hand_action(t, k8, c, kind, amount, counts):
    """The hand to act sticks, twists, buys, doubles or splits. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._apply_hand_action``."""
    k = t[T_CURSOR]
    if kind == K_STICK:
        t[hand_at(k, H_DONE)] = 1
    elif kind == K_TWIST:
        t[hand_at(k, H_TWISTS)] += 1
        deal_to_hand(t, k8, c, k, 1, counts)
        after_card(t, k8, c, k)
        if t[hand_at(k, H_DOUBLED)] != 0 and t[hand_at(k, H_SETTLED)] == 0:
            t[hand_at(k, H_DONE)] = 1
    elif kind == K_BUY:
        t[hand_at(k, H_BUYS)] += 1
        t[hand_at(k, H_STAKE)] += amount
        t[BALANCES + t[hand_at(k, H_SEAT)]] -= amount
        deal_to_hand(t, k8, c, k, 1 - c[C_BUY_FACE_DOWN], counts)
        after_card(t, k8, c, k)
    elif kind == K_DOUBLE:
        t[hand_at(k, H_DOUBLED)] = 1
        t[BALANCES + t[hand_at(k, H_SEAT)]] -= t[hand_at(k, H_STAKE)]
        t[hand_at(k, H_STAKE)] *= 2
    elif kind == K_SPLIT:
        split(t, k8, c, k, counts)


@jit(ROWS, I64)
def banker_done_drawing(t, k8, c):
    """Whether the banker's hand draws no more. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._banker_done_drawing``."""
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


@jit(ROWS, I64, I64)
def deal_round(t, k8, c, counts):
    """A card to every live hand, then to the banker. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._deal_round``."""
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SETTLED)] == 0:
            deal_to_hand(t, k8, c, k, 0, counts)
    first = t[T_BANKER_CARDS] == 0
    deal_banker_card(t, k8, c, 1 if first and c[C_SHOWS_FIRST] != 0 else 0, counts)


@jit(ROWS, I64, I64)
def next_hand(t, k8, c, counts):
    """The next punter hand; a split hand gets its second card. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._next_hand``."""
    k = t[T_CURSOR] + 1
    t[T_CURSOR] = k
    if k >= t[T_HANDS]:
        t[T_STAGE] = ST_BANKER
        return
    n = t[hand_at(k, H_CARDS)]
    if n == 1:
        deal_to_hand(t, k8, c, k, 0, counts)
        after_card(t, k8, c, k)
    elif n == 2 and hand_class(t, k8, c, k)[0] == HC_PONTOON:
        t[hand_at(k, H_DONE)] = 1
        reveal_hand(t, k8, k)


@jit(ROWS, I64, I8ROW, I64, I64)
def advance(t, k8, c, tab, out, counts):
    """Automatic stages until a decision is pending or the deal is over. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._advance``."""
    for _ in range(STEP_LIMIT):
        if t[T_ERROR] != 0:
            return
        stage = t[T_STAGE]
        if stage == ST_STAKES:
            return
        if stage == ST_BET_BEFORE_DEAL or stage == ST_BET_BEFORE_SECOND:
            open_point = c[C_BET_BEFORE_DEAL] if stage == ST_BET_BEFORE_DEAL else c[C_BET_BEFORE_SECOND]
            hands = t[T_HANDS]
            while t[T_CURSOR] < hands and t[hand_at(t[T_CURSOR], H_SETTLED)] != 0:
                t[T_CURSOR] += 1
            if open_point != 0 and t[T_CURSOR] < hands and shoot_capacity(t, c) > 0:
                return
            t[T_STAGE] = stage + 1
        elif stage == ST_FIRST_CARDS or stage == ST_SECOND_CARDS:
            deal_round(t, k8, c, counts)
            t[T_STAGE] = stage + 1
            t[T_CURSOR] = 0
        elif stage == ST_PEEK:
            t[T_STAGE] = ST_PLAY
            t[T_CURSOR] = -1
            if c[C_PEEK] != 0 and is_pontoon_pair(k8, K_O_BC, t[T_BANKER_CARDS]):
                banker_pontoon_on_peek(t, k8, c, tab, out)
                t[T_STAGE] = ST_BANK
                continue
            next_hand(t, k8, c, counts)
        elif stage == ST_PLAY:
            k = t[T_CURSOR]
            if t[hand_at(k, H_DONE)] != 0 or t[hand_at(k, H_SETTLED)] != 0:
                next_hand(t, k8, c, counts)
                continue
            return
        elif stage == ST_BANKER:
            settled = True
            for k in range(t[T_HANDS]):
                if t[hand_at(k, H_SETTLED)] == 0:
                    settled = False
            reveal_banker(t, k8)
            if settled:
                t[T_STAGE] = ST_BANK
                continue
            if banker_done_drawing(t, k8, c):
                t[T_STAGE] = ST_SETTLE
            elif c[C_DEALER] != 0:
                deal_banker_card(t, k8, c, 1, counts)
            else:
                return
        elif stage == ST_SETTLE:
            settle_showdown(t, k8, c, tab, out)
            t[T_STAGE] = ST_BANK
        elif stage == ST_BANK:
            passed = end_of_deal_bank(t, c)
            if not passed and c[C_BANK_SALE] != 0:
                return
            t[T_STAGE] = ST_OVER
        else:
            t[T_STAGE] = ST_OVER
            return
    fail(t, E_RUNAWAY)


@jit(ROWS, I64, I8ROW, I, I, I64, I64)
def apply_legal(t, k8, c, tab, kind, amount, out, counts):
    """A move known to be legal (its checks done by the caller). Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.apply``."""
    phase = phase_of(t)
    if phase == PH_STAKES:
        apply_stake(t, c, amount)
    elif kind == K_SHOOT_BET:
        apply_shoot_bet(t, amount)
    elif phase == PH_PLAY:
        apply_hand_action(t, k8, c, kind, amount, counts)
    elif phase == PH_BANKER:
        if kind == K_TWIST:
            deal_banker_card(t, k8, c, 1, counts)
            if banker_done_drawing(t, k8, c):
                t[T_STAGE] = ST_SETTLE
        else:
            t[T_STAGE] = ST_SETTLE
    elif phase == PH_BANK_DECISION:
        if kind == K_SELL_BANK:
            sell_bank(t, c)
        t[T_STAGE] = ST_OVER
    advance(t, k8, c, tab, out, counts)


@jit(ROWS, I64, I8ROW, I, I, I64, I, I64, I64)
def apply_action(t, k8, c, tab, kind, amount, mv, n, out, counts):
    """A move, given the legal moves mv[:n]; False (state unchanged) when not legal. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.apply``."""
    if not allows(mv, n, kind, amount):
        return False
    apply_legal(t, k8, c, tab, kind, amount, out, counts)
    return True


@jit(ROWS, I64, I8ROW, I64, I64, call=True)
def forfeit(t, k8, c, tab, out, counts):
    """The seat to act gives up as if it had bust. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.forfeit``."""
    seat = to_act(t, c)
    phase = phase_of(t)
    if phase == PH_STAKES:
        apply_stake(t, c, c[C_MIN_STAKE])
        last = t[T_HANDS] - 1
        reveal_hand(t, k8, last)
        settle_hand(t, c, last, O_LOSE, 1)
        if t[T_STAGE] == ST_STAKES and staker(t, c) == seat:
            next_staker(t, c)
    elif phase == PH_SHOOT_BETS or phase == PH_PLAY:
        for k in range(t[T_HANDS]):
            if t[hand_at(k, H_SEAT)] == seat and t[hand_at(k, H_SETTLED)] == 0:
                reveal_hand(t, k8, k)
                settle_hand(t, c, k, O_LOSE, 1)
        if phase == PH_SHOOT_BETS:
            t[T_CURSOR] += 1
    elif phase == PH_BANKER:
        t[T_FORFEITED] = 1
        t[T_STAGE] = ST_SETTLE
    else:
        t[T_STAGE] = ST_OVER
    advance(t, k8, c, tab, out, counts)
