"""The kernel's game, part one: a table's rows and its hands. Where a field of a hand or a card lies,
the cards' values and a hand's total and class, the legal moves, whose turn it is and the open betting
point (``kernel.py`` describes the rows)."""

from __future__ import annotations

import numpy as np

from .kernel import B, I, I32ROW, I64, I8ROW, ROWS, jit
from .layout import (
    C_BANKER_TRICK, C_BET_BEFORE_FOURTH, C_BUY_AFTER_TWIST, C_BUY_MAX, C_BUY_MIN, C_DOUBLE_STAKES,
    C_DRAW_ON_21, C_MAX_BUYS, C_MAX_SHOOT_BET, C_MAX_SPLIT_HANDS, C_MAX_STAKE, C_MAX_STAKE_MULTIPLE,
    C_MIN_STAKE, C_PLAYERS, C_PONTOON_AFTER_SPLIT, C_SPLIT_BY_VALUE, C_STICK_MINIMUM, DRAW_ANY, DRAW_SOFT,
    HANDS, HAND_BYTES, HC_BUST, HC_FIVE_CARD_TRICK, HC_PONTOON, HC_TOTAL, HC_TWENTY_ONE, H_BOX, H_BUYS,
    H_CARDS, H_DOUBLED, H_FIELDS, H_FOURTH_OFFERED, H_FROM_SPLIT, H_ORIGINAL, H_SEAT, H_SETTLED, H_SHOOT_BET,
    H_STAKE, H_TWISTS, K_BUY, K_DOUBLE, K_FIXED, K_KEEP_BANK, K_O_BC, K_SELL_BANK, K_SHOOT_BET, K_SPLIT,
    K_STAKE, K_STICK, K_TWIST, MAX_HAND_CARDS, NONE, PH_BANKER, PH_BANK_DECISION, PH_PLAY, PH_SHOOT_BETS,
    PH_STAKES, STAGE_PHASES, ST_BET_BEFORE_DEAL, T_BANKER, T_BANKER_CARDS, T_BOX, T_CURSOR, T_ERROR, T_HANDS,
    T_SHOOT, T_STAGE,
)

# =========================================================================== rows
STAGE_PHASE = np.array(STAGE_PHASES, dtype=np.int64)


@jit(I32ROW)
def phase_of(t):
    """The phase of the stage the table rests at (the row holds the stage alone). Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.phase``."""
    return STAGE_PHASE[t[T_STAGE]]


@jit(I, I)
def hand_at(k, field):
    """Index in t of a field of hand k."""
    return HANDS + k * H_FIELDS + field


@jit(I, I)
def card_at(k, p):
    """Index in k8 of card p of hand k (its face-up flag: + HAND_UP)."""
    return K_FIXED + k * HAND_BYTES + p


@jit(I32ROW, I)
def fail(t, code):
    """Records ``code`` (``layout.E_*``) as the table's error unless one is recorded already: the first
    error is the one reported."""
    if t[T_ERROR] == 0:
        t[T_ERROR] = code


# =========================================================================== cards (cards.py)
@jit(I)
def card_value(card):
    value = (card >> 2) + 1  # card // 4 + 1 (a shift: cards are never negative)
    return 10 if value > 10 else value


@jit(I8ROW, I, I)
def best_total(k8, start, n):
    """The total of the n cards from k8[start]: (total, soft). Scalar twin:
    ``shoot_pontoon_env.cards:best_total``."""
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


@jit(ROWS, I)
def hand_total(t, k8, k):
    return best_total(k8, card_at(k, 0), t[hand_at(k, H_CARDS)])


@jit(ROWS, I64, I)
def hand_class(t, k8, c, k):
    """Hand k's (class, total). Scalar twin: ``shoot_pontoon_env.engine.settlement:hand_rank``."""
    n = t[hand_at(k, H_CARDS)]
    start = card_at(k, 0)
    total, _ = best_total(k8, start, n)
    if total > 21:
        return HC_BUST, total
    possible = c[C_PONTOON_AFTER_SPLIT] != 0 or t[hand_at(k, H_FROM_SPLIT)] == 0
    if possible and is_pontoon_pair(k8, start, n):
        return HC_PONTOON, 21
    if n >= MAX_HAND_CARDS:
        return HC_FIVE_CARD_TRICK, total
    if total == 21:
        return HC_TWENTY_ONE, 21
    return HC_TOTAL, total


@jit(ROWS, I64)
def banker_class(t, k8, c):
    """The banker's (class, total). Scalar twin: ``shoot_pontoon_env.engine.settlement:banker_rank``."""
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
    """Whether a hand of this total may still take a card (Rules.draw_on_21). Scalar twin:
    ``shoot_pontoon_env.rules:Rules.may_draw_on``."""
    rule = c[C_DRAW_ON_21]
    return total < 21 or (total == 21 and (rule == DRAW_ANY or (rule == DRAW_SOFT and soft)))


# =========================================================================== legality (Table.legal_moves)
MOVE = 3
"""A legal move in mv: kind, low, high."""


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
    """The largest Shoot bet the Shoot can cover now. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.shoot_capacity``."""
    outstanding = 0
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SETTLED)] == 0:
            outstanding += t[hand_at(k, H_SHOOT_BET)]
    capacity = t[T_SHOOT] - outstanding
    limit = c[C_MAX_SHOOT_BET]
    if limit != NONE and limit < capacity:
        capacity = limit
    return capacity if capacity > 0 else 0


@jit(I32ROW, I64, I)
def fourth_card_bet_due(t, c, k):
    """Whether hand k is to be offered its Shoot bet before its fourth card. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._fourth_card_bet_due``."""
    return (c[C_BET_BEFORE_FOURTH] != 0 and t[hand_at(k, H_CARDS)] == 3
            and t[hand_at(k, H_FOURTH_OFFERED)] == 0 and shoot_capacity(t, c) > 0)


@jit(I32ROW, I64, I)
def buy_range(t, c, k):
    """Hand k's buy amounts (low, high), empty when low > high. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._buy_range``."""
    if c[C_MAX_BUYS] == 0 or t[hand_at(k, H_CARDS)] >= MAX_HAND_CARDS:
        return 1, 0
    if c[C_MAX_BUYS] != NONE and t[hand_at(k, H_BUYS)] >= c[C_MAX_BUYS]:
        return 1, 0
    if t[hand_at(k, H_TWISTS)] > 0 and c[C_BUY_AFTER_TWIST] == 0:
        return 1, 0
    original = t[hand_at(k, H_ORIGINAL)]
    low = c[C_BUY_MIN] * original
    high = c[C_BUY_MAX] * original
    if c[C_MAX_STAKE_MULTIPLE] != NONE:
        room = c[C_MAX_STAKE_MULTIPLE] * original - t[hand_at(k, H_STAKE)]
        if room < high:
            high = room
    return low, high


@jit(ROWS, I64, I)
def can_split(t, k8, c, k):
    """Whether hand k may split. Scalar twin: ``shoot_pontoon_env.engine.table:Table._can_split``."""
    limit = c[C_MAX_SPLIT_HANDS]
    if limit < 2:
        return False
    seat = t[hand_at(k, H_SEAT)]
    box = t[hand_at(k, H_BOX)]
    family = 0
    for other in range(t[T_HANDS]):
        if t[hand_at(other, H_SEAT)] == seat and t[hand_at(other, H_BOX)] == box:
            family += 1
    if family >= limit:
        return False
    a = k8[card_at(k, 0)]
    b = k8[card_at(k, 1)]
    if c[C_SPLIT_BY_VALUE] == 0:
        return a // 4 == b // 4
    return card_value(a) == card_value(b)


@jit(ROWS, I64, I, I64)
def hand_moves(t, k8, c, k, mv):
    """Hand k's legal moves into mv; returns how many. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table._hand_moves``."""
    total, soft = hand_total(t, k8, k)
    n = 0
    if total >= c[C_STICK_MINIMUM]:
        n = put(mv, n, K_STICK, 0, 0)
    if t[hand_at(k, H_DOUBLED)] != 0:
        if t[hand_at(k, H_TWISTS)] == 0:
            n = put(mv, n, K_TWIST, 0, 0)
        return n
    if may_draw(c, total, soft):
        n = put(mv, n, K_TWIST, 0, 0)
        low, high = buy_range(t, c, k)
        if low <= high:
            n = put(mv, n, K_BUY, low, high)
    if t[hand_at(k, H_CARDS)] == 2 and t[hand_at(k, H_BUYS)] + t[hand_at(k, H_TWISTS)] == 0:
        if can_split(t, k8, c, k):
            n = put(mv, n, K_SPLIT, 0, 0)
        if c[C_DOUBLE_STAKES] != 0:
            n = put(mv, n, K_DOUBLE, 0, 0)
    return n


@jit(ROWS, I64, I64)
def legal_moves(t, k8, c, mv):
    """The legal moves into mv (kind, low, high per move); returns how many. Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.legal_moves``."""
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
    """The seat to act (-1: None). Scalar twin: ``shoot_pontoon_env.engine.table:Table.to_act``."""
    phase = phase_of(t)
    if phase == PH_STAKES:
        return staker(t, c)
    if phase == PH_SHOOT_BETS or phase == PH_PLAY:
        return t[hand_at(t[T_CURSOR], H_SEAT)]
    if phase == PH_BANKER or phase == PH_BANK_DECISION:
        return t[T_BANKER]
    return -1


@jit(I32ROW, I64)
def shoot_bet_point(t, c):
    """The open Shoot betting point as an index of SHOOT_BET_POINTS (-1: None). Scalar twin:
    ``shoot_pontoon_env.engine.table:Table.shoot_bet_point``."""
    phase = phase_of(t)
    if phase == PH_SHOOT_BETS:
        return 0 if t[T_STAGE] == ST_BET_BEFORE_DEAL else 1
    if phase == PH_PLAY and fourth_card_bet_due(t, c, t[T_CURSOR]):
        return 2
    return -1
