"""The kernel's rule-based table players: a seat's player is its code and parameters in the config
(``layout.strategy_code``), whose moves are those of ``players/strategies.py``; and a table player's turn."""

from __future__ import annotations

import numpy as np

from .bitgen import next_double
from .kernel import B, CFG, F64, I, I64, RNG, ROWS, jit
from .kernel_deals import apply_action
from .kernel_hands import (
    MOVE, best_total, card_at, card_value, fail, find, hand_at, hand_total, legal_moves, to_act,
)
from .layout import (
    C_INITIAL_SHOOT, C_MAX_STAKE, C_MIN_STAKE, C_O_STRAT, E_PLAYER_ILLEGAL, F_O_STRAT, HAND_UP, H_CARDS,
    H_SETTLED, H_SHOOT_BET, K_BUY, K_KEEP_BANK, K_O_BC, K_O_BU, K_SELL_BANK, K_SHOOT_BET, K_SPLIT, K_STAKE,
    K_STICK, K_TWIST, SF_A, SF_B, SI_A, SI_B, SI_BANKER_STAND, SI_PUNTER_STICK, STRAT_FLOATS, STRAT_INTS,
    S_DEALER, S_RANDOM, S_SHOOT_AWARE, S_TIPS, T_BANKER, T_BANKER_CARDS, T_CURSOR, T_HANDS, T_RESERVE,
    T_SHOOT,
)


@jit(RNG)
def uniform(rng):
    """``Generator.random()`` of the Generator whose handle ``rng`` is: the random players' draws."""
    return next_double(rng[0], rng[1])


@jit(I64, I, B)
def stick_or_draw(mv, n, stick):
    """Stick where ``stick`` and sticking is legal, else draw: a twist, or the smallest buy. Scalar twin:
    ``shoot_pontoon_env.players.policy:stick_or_draw``."""
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
    """The tips punter's Shoot bet (``strat``: the seat's parameters in c). Scalar twin:
    ``shoot_pontoon_env.players.strategies:TipsPunter.shoot_bet``."""
    unit = c[C_MIN_STAKE]
    large = t[T_SHOOT] >= c[strat + SI_B] * c[C_MAX_STAKE]
    wanted = 0
    k = t[T_CURSOR]
    cards = t[hand_at(k, H_CARDS)]
    if cards > 0:
        total, _ = hand_total(t, k8, k)
        value = card_value(k8[card_at(k, 0)])
        strong_first = cards == 1 and (value == 1 or value == 10)
        trick_chase = cards == 3 and total <= 11
        if (cards >= 2 and total >= 18) or strong_first or trick_chase:
            wanted = c[strat + SI_A] * unit
    if large and wanted < unit:
        wanted = unit
    m = find(mv, n, K_SHOOT_BET)
    return K_SHOOT_BET, min(max(wanted, mv[MOVE * m + 1]), mv[MOVE * m + 2])


@jit(ROWS, I, I64, I)
def tips_punter_play(t, k8, seat, mv, n):
    """The tips punter's play of its hand. Scalar twin:
    ``shoot_pontoon_env.players.strategies:TipsPunter.punter_play``."""
    k = t[T_CURSOR]
    cards = t[hand_at(k, H_CARDS)]
    total, soft = hand_total(t, k8, k)
    if find(mv, n, K_SPLIT) >= 0:
        value = card_value(k8[card_at(k, 0)])
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


@jit(ROWS, I64, F64, I, I, I64, I, I, call=True)
def shoot_aware_banker_play(t, k8, c, f, strat, fstrat, mv, n, total):
    """The Shoot-aware banker's play (it sees the punters' face-up cards only). Scalar twin:
    ``shoot_pontoon_env.players.strategies:ShootAwareBanker.banker_play``."""
    at_risk = 0
    live = 0
    all_shown = True
    visible_best = 0
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SETTLED)] != 0:
            continue
        live += 1
        at_risk += t[hand_at(k, H_SHOOT_BET)]
        shown = True
        for p in range(t[hand_at(k, H_CARDS)]):
            if k8[HAND_UP + card_at(k, p)] == 0:
                shown = False
        if shown:
            hand_value, _ = hand_total(t, k8, k)
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


@jit(ROWS, I64, F64, I, I, I64, I, RNG)
def player_act(t, k8, c, f, seat, slot, mv, n, rng):
    """The move, for ``seat``, of the rule-based player in strategy slot ``slot`` (the seat's own table
    player, or slot num_players: the agent seat's player in an evaluation), over mv[:n]. Scalar twin:
    ``shoot_pontoon_env.players.policy:Policy.act``."""
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
            return shoot_aware_banker_play(t, k8, c, f, strat, fstrat, mv, n, total)
        return stick_or_draw(mv, n, total >= c[strat + SI_BANKER_STAND])
    if code == S_TIPS:
        return tips_punter_play(t, k8, seat, mv, n)
    total, _ = hand_total(t, k8, t[T_CURSOR])
    return stick_or_draw(mv, n, total >= c[strat + SI_PUNTER_STICK])


@jit(ROWS, CFG, I64, RNG, I64, I64, ir=True)
def play_table_player(t, k8, c, f, tab, mv, rng, out, counts):
    """The seat to act's rule-based table player moves (a move the rules do not allow is an error).
    Scalar twin: ``shoot_pontoon_env.seat.table_episode:TableEpisode._play_table_player``."""
    seat = to_act(t, c)
    n = legal_moves(t, k8, c, mv)
    kind, amount = player_act(t, k8, c, f, seat, seat, mv, n, rng)
    if not apply_action(t, k8, c, tab, kind, amount, mv, n, out, counts):
        fail(t, E_PLAYER_ILLEGAL)
