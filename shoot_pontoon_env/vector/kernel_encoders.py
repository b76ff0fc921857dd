"""The kernel's encoders of the seat's observation: the flat row (``seat/encoding.py``) and the compact
one (``seat/features.py``), written into the batch's row from the table's rows."""

from __future__ import annotations

import numpy as np

from ..rules import MAX_DECKS
from ..seat import encoding as enc
from ..seat import features as feat
from .kernel import B, F, F32ROW, F64, I, I32ROW, I64, ROWS, jit
from .kernel_hands import (
    MOVE, card_at, card_value, hand_at, is_pontoon_pair, phase_of, shoot_bet_point, shoot_capacity, to_act,
)
from .layout import (
    BALANCES, CHIP_FEATURES, C_BANKER_TRICK, C_BASE_STAKE, C_COMPACT, C_DEALS_PER_EPISODE, C_DECKS, C_PLAYERS,
    C_PONTOON_AFTER_SPLIT, C_SEAT, C_STARTING_CHIPS, F_BANKER_CARDS_BOUND, F_FIELDS, HAND_UP, H_BUYS, H_CARDS,
    H_DONE, H_DOUBLED, H_FROM_SPLIT, H_ORIGINAL, H_RESHUFFLED, H_RESULT, H_SEAT, H_SETTLED, H_SHOOT_BET,
    H_STAKE, H_TWISTS, K_O_BC, K_O_BU, K_O_SEEN, MAX_BANKER_CARDS, MAX_HAND_CARDS, MAX_TOTAL, NUM_KINDS,
    T_BANKER, T_BANKER_CARDS, T_DEALS, T_HANDS, T_RESERVE, T_SHOE_SIZE, T_SHOOT,
)

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
 CH_SHOOT_BET) = (feat.CH_PRESENT, feat.CH_SOFT, feat.CH_PAIR, feat.CH_CARDS, feat.CH_STAKE_RATIO,
                  feat.CH_BUYS, feat.CH_TWISTS, feat.CH_DOUBLED, feat.CH_FROM_SPLIT, feat.CH_SHOOT_BET)
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
TOTAL_ONE_HOT = np.array([min(int(np.rint(np.float32(x) * F32_TOTAL_SCALE)), COMPACT_TOTALS)
                          for x in TOTAL_SCALED], dtype=np.int64)
"""The compact row's TOTAL slot of a hand total: the flat slot's float32 total scaled back and rounded, as
features.compact_observation reads it."""
CARDS_HELD = np.array([[int(np.rint(np.float32(CARDS_SCALED[v]) * F32_CARDS
                                    + np.float32(CARDS_SCALED[h]) * F32_CARDS))
                        for h in range(MAX_BANKER_CARDS + 1)] for v in range(MAX_BANKER_CARDS + 1)],
                      dtype=np.int64)
"""CARDS_HELD[visible, hidden]: the cards a hand holds as features.compact_observation reads them back from
the flat slot's float32 counts."""
COUNT_FRACTIONS = np.array([_scaled(4 * MAX_DECKS + 1, 4.0 * max(decks, 1), 1.0)
                            for decks in range(MAX_DECKS + 1)]).astype(np.float32)
"""COUNT_FRACTIONS[decks, n]: the fraction of a rank's cards seen (n of 4 x decks), as the observation
stores it (float32)."""


# =========================================================================== the flat row (seat/encoding.py)
@jit(F, F, F)
def clip(x, low, high):
    return low if x < low else (high if x > high else x)


@jit(I, I, I)
def place(seat, banker, players):
    """A seat's place after the banker, ``(seat - banker) % players`` for seats of the table."""
    d = seat - banker
    return d + players if d < 0 else d


@jit(ROWS, I, I, I64)
def count_seen(t, k8, k, seat, counts):
    """Adds the ranks of hand k that ``seat`` sees to ``counts``, unless a restock since took its cards back
    into the stock (H_RESHUFFLED). Scalar twin: ``shoot_pontoon_env.engine.view:seen_cards``."""
    base = hand_at(k, 0)
    if t[base + H_RESHUFFLED] != 0:
        return
    own = t[base + H_SEAT] == seat
    for p in range(t[base + H_CARDS]):
        if own or k8[HAND_UP + card_at(k, p)] != 0:
            counts[k8[card_at(k, p)] // 4] += 1


@jit(ROWS, I64, I, F32ROW, I, I, I, B, I64)
def encode_hand(t, k8, c, k, row, start, seat, banker, is_current, counts):
    """Hand k's slot, into a cleared row; adds the ranks the seat sees to ``counts`` unless a restock since
    took them back (H_RESHUFFLED). Scalar twin: ``shoot_pontoon_env.seat.encoding:_encode_hand``."""
    base = hand_at(k, 0)
    own = t[base + H_SEAT] == seat
    n = t[base + H_CARDS]
    visible = 0
    hard = 0
    ace = False
    true_hard = 0
    true_ace = False
    for p in range(n):
        card = k8[card_at(k, p)]
        value = card_value(card)
        true_hard += value
        true_ace = true_ace or value == 1
        if own or k8[HAND_UP + card_at(k, p)] != 0:
            visible += 1
            hard += value
            ace = ace or value == 1
            rank = card // 4
            row[start + OH_RANKS + rank] = row[start + OH_RANKS + rank] + FIFTH
    count_seen(t, k8, k, seat, counts)
    soft = ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    true_total = true_hard + 10 if true_ace and true_hard + 10 <= 21 else true_hard
    hidden = n - visible
    bust = true_total > 21
    pontoon = False
    if hidden == 0 and n == 2 and (c[C_PONTOON_AFTER_SPLIT] != 0 or t[base + H_FROM_SPLIT] == 0):
        pontoon = is_pontoon_pair(k8, card_at(k, 0), n)
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
    """The PHASE, BET_POINT and LEGAL_KINDS blocks at the given places (the flat row's, or the compact row's);
    no phase at a stage that passes automatically, where only a table in error rests. Scalar twin:
    ``shoot_pontoon_env.seat.encoding:ObservationEncoder.encode``."""
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
    """The BANKER block (the banker's cards the agent seat sees) at ``row[at:]``, every value at most ``high``
    (the compact row's 1.0; inf for the flat row); adds their ranks to ``counts``. Only the ranks seen are
    clamped, not all thirteen. Scalar twin:
    ``shoot_pontoon_env.seat.encoding:ObservationEncoder._encode_banker``."""
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
    """The COUNT block at ``row[at:]``: per rank the fraction seen, then the fraction of the shoe seen.
    Scalar twin: ``shoot_pontoon_env.seat.encoding:ObservationEncoder.encode``."""
    seen = 0
    scaled = COUNT_FRACTIONS[c[C_DECKS]]
    for r in range(13):
        seen += counts[r]
        row[at + r] = scaled[min(counts[r], 4 * MAX_DECKS)]
    row[at + 13] = clip(seen / t[T_SHOE_SIZE], 0.0, 1.0)


@jit(ROWS, I64, F64, I64, I, I, I64, F32ROW)
def encode(t, k8, c, f, mv, n, current, counts, row):
    """The agent seat's flat observation into row (counts: 13 ints of scratch). Scalar twin:
    ``shoot_pontoon_env.seat.encoding:ObservationEncoder.encode``."""
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


# ======================================================================= the compact row (seat/features.py)
@jit(I64, F64, I)
def chip_feature(c, f, chips):
    """The compact row's log-scaled chip feature of ``chips`` (the flat row's float32 value in base stakes,
    then log1p in float64): looked up in the config's table below CHIP_FEATURES (``tables.chip_features``; a
    log1p costs as much as the rest of the compact row). Scalar twin:
    ``shoot_pontoon_env.seat.features:compact_observation``."""
    if 0 <= chips < CHIP_FEATURES:
        return f[F_FIELDS + chips]
    flat = np.float32(clip(chips / c[C_BASE_STAKE], 0.0, CHIP_BOUND))
    return np.log1p(np.float64(flat)) / CHIP_LOG_SCALE


@jit(ROWS, I64, I, F32ROW, I, I64)
def compact_hand(t, k8, c, k, row, seat, counts):
    """The compact row's TOTAL and HAND parts for the pending hand k, from its cards and fields (the float32
    values and arithmetic of the flat slot they are defined from, without writing it); adds the ranks the seat
    sees to ``counts`` as ``count_seen`` does. Scalar twin:
    ``shoot_pontoon_env.seat.features:compact_observation``."""
    base = hand_at(k, 0)
    own = t[base + H_SEAT] == seat
    n = t[base + H_CARDS]
    counted = t[base + H_RESHUFFLED] == 0
    visible = 0
    hard = 0
    ace = False
    pair_rank = -1
    pairs = 0
    for p in range(n):
        if own or k8[HAND_UP + card_at(k, p)] != 0:
            card = k8[card_at(k, p)]
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
    """The agent seat's compact observation, written without the flat row: the blocks it copies, the pending
    hand (``compact_hand``; the other hands only counted), the banker's and the count's blocks (clipped to 1
    as written), the chips and the episode. Scalar twin:
    ``shoot_pontoon_env.seat.features:compact_observation``."""
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
            count_seen(t, k8, k, seat, counts)
    encode_count(t, c, counts, row, CF_COUNT)
    if t[T_SHOOT] != 0 or t[T_RESERVE] != 0:  # without chips in the Shoot every chip feature is 0
        row[CF_CHIPS] = chip_feature(c, f, t[T_SHOOT])
        row[CF_CHIPS + 1] = chip_feature(c, f, t[T_RESERVE])
        row[CF_CHIPS + 2] = chip_feature(c, f, shoot_capacity(t, c))
    row[CF_EPISODE] = (c[C_DEALS_PER_EPISODE] - t[T_DEALS]) / c[C_DEALS_PER_EPISODE]


@jit(ROWS, I64, F64, I64, I, I, I64, F32ROW)
def encode_view(t, k8, c, f, mv, n, current, counts, row):
    """The observation of c[C_SEAT]'s view in the batch's layout: the flat row or the compact one.
    Scalar twin: ``shoot_pontoon_env.seat.table_episode:TableEpisode._observation``."""
    if c[C_COMPACT] != 0:
        encode_compact(t, k8, c, f, mv, n, current, counts, row)
    else:
        encode(t, k8, c, f, mv, n, current, counts, row)
