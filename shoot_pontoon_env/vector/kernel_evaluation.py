"""The kernel's evaluation: an evaluation's hands played and recorded table by table (``evaluation.py``),
and the solver's player (its policy tables, ``policy.py``), which a whole table's seats may play too."""

from __future__ import annotations

import numpy as np

from ..solver.space import BUY_BASE as SOLVER_BUY_BASE
from ..solver.space import DOUBLE as SOLVER_DOUBLE
from ..solver.space import SPLIT as SOLVER_SPLIT
from ..solver.space import STICK as SOLVER_STICK
from ..solver.space import TWIST as SOLVER_TWIST
from .compiler import EVALUATION, POLICY
from .kernel import (
    B, BOOLROWS, BOOLS, CFG, F, F32ROWS, F64, F64S, I, I32, I32ROW, I32ROWS, I64, I8ROWS, I8S, RNG, ROWS, jit,
)
from .kernel_deals import mix
from .kernel_hands import (
    MOVE, best_total, card_at, card_value, fail, find, hand_at, hand_class, hand_total, legal_moves, phase_of,
    shoot_bet_point,
)
from .kernel_players import first_visible_banker_card, player_act, stick_or_draw, uniform
from .kernel_seat import action_amount, current_hand, env_turn
from .layout import (
    AP_TABLE, AP_UNIFORM, C_ACTIONS, C_AUTOPILOT, C_O_ACT_KIND, C_PLAYERS, C_SEAT, C_SHOWS_FIRST,
    E_AUTOPILOT_NO_INDEX, E_BAD_ACTION, E_POLICY_NO_DECISION, H_BOX, H_BUYS, H_CARDS, H_DOUBLED, H_FROM_SPLIT,
    H_ORIGINAL, H_RESULT, H_SEAT, H_SHOOT_BET, H_STAKE, H_TWISTS, H_WON_FROM_SHOOT, K_BUY, K_DOUBLE,
    K_KEEP_BANK, K_O_BC, K_SHOOT_BET, K_SPLIT, K_STAKE, K_STICK, K_TWIST, PH_PLAY, T_ACK, T_BANKER,
    T_BANKER_CARDS, T_CURSOR, T_ERROR, T_HAND, T_HANDS, T_ILLEGAL, T_NEEDS_RESET, T_SHOOT, T_TERMINAL,
    T_TURNOVERS,
)
from .policy import MAX_BUYS as P_MAX_BUYS
from .policy import MAX_STAKE_MULTIPLE as P_MAX_STAKE_MULTIPLE
from .policy import (
    P_ACT, P_ACT_FULL, P_ACT_OPEN, P_BET_DEAL, P_BET_FOURTH, P_BET_SECOND, P_CHILD, P_CTX, P_FLAG, P_FLAGS,
    P_LEVEL_SIZE, P_OPEN, P_SHOOT, P_SHOOT_CHIPS, P_SPLIT, P_SPLIT_FULL, P_SPLIT_OPEN, P_STAKE, P_START,
)

(R_CLASSES, R_SHOOT_BETS, R_SHOOT_BETS_WON, R_SHOOT_CHIPS_BET, R_SHOOT_CHIPS_WON, R_TURNOVERS,
 R_ILLEGAL) = (0, 5, 6, 7, 8, 9, 10)
R_FIELDS = 11
"""Totals of an evaluation: hand classes (5), Shoot bets placed, won, chips bet, chips won, bank
turnovers, illegal actions (shoot_pontoon_env.evaluate.tournament.AgentRecord)."""
D_TOTALS = 32
D_CARDS = 6
"""Decision counts: (soft, total 0..31, cards 0..5, action index)."""


@jit(I, I, entry=True, group=EVALUATION)
def hand_key(seed, hand):
    """The key of hand ``hand`` of an evaluation seeded ``seed`` (62 bits)."""
    return np.int64(mix(mix(np.uint64(seed)) + np.uint64(hand)) >> np.uint64(2))


@jit(I32ROW, I64, F64, I, I, BOOLS, group=EVALUATION)
def to_index(t, c, f, kind, amount, mask):
    """The legal index of ``kind`` with the nearest amount (ties: the lower index); a buy no legal level
    matches becomes a twist (-1: none). Scalar twin:
    ``shoot_pontoon_env.seat.action_table:ActionTable.to_index``."""
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


# ==================================================================== the solver's player (solver/player.py)
@jit(ROWS, I64, group=POLICY)
def table_up(t, k8, c):
    """The banker's first card's value - 1 where the rules show it (-1: none). Scalar twin:
    ``shoot_pontoon_env.solver.player:OptimalPunter._up``."""
    if c[C_SHOWS_FIRST] != 0:
        first = first_visible_banker_card(t, k8, c[C_SEAT])
        if first >= 0:
            return np.int64(card_value(first) - 1)
    return np.int64(-1)


@jit(ROWS, I, I32, group=POLICY)
def table_node(t, k8, k, pol):
    """Hand k's node, walked through the policy's child tables. Scalar twin:
    ``shoot_pontoon_env.solver.solution:node_index``."""
    node = pol[pol[P_START] + card_value(k8[card_at(k, 0)]) - 1]
    for p in range(1, t[hand_at(k, H_CARDS)]):
        node = pol[pol[P_CHILD + p - 1] + node * 10 + card_value(k8[card_at(k, p)]) - 1]
    return node


@jit(I32ROW, I32, I, group=POLICY)
def table_flag(t, pol, k):
    """The policy's flag index of hand k's stake multiple, buys, twisted and doubled (-1: none). Scalar twin:
    ``shoot_pontoon_env.solver.space:Flags.key``."""
    stake = t[hand_at(k, H_STAKE)] // t[hand_at(k, H_ORIGINAL)]
    buys = t[hand_at(k, H_BUYS)]
    twisted = 1 if t[hand_at(k, H_TWISTS)] > 0 else 0
    doubled = 1 if t[hand_at(k, H_DOUBLED)] != 0 else 0
    if stake > P_MAX_STAKE_MULTIPLE or buys > P_MAX_BUYS:
        return np.int64(-1)
    return np.int64(pol[pol[P_FLAG] + ((stake * (P_MAX_BUYS + 1) + buys) * 2 + twisted) * 2 + doubled])


@jit(I32ROW, I64, group=POLICY)
def seat_shoot_bet_riding(t, c):
    """Whether a hand of the agent's seat carries a Shoot bet (``riding``). Scalar twin:
    ``shoot_pontoon_env.solver.shoot:split_decision``."""
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SEAT)] == c[C_SEAT] and t[hand_at(k, H_SHOOT_BET)] > 0:
            return True
    return False


@jit(ROWS, I64, I32, I64, I, group=POLICY)
def table_punter_play(t, k8, c, pol, mv, n):
    """The solver's play of the hand to act from its policy arrays (``policy.py``), under the Shoot policy's
    tables where it has one; an error where the tables hold no decision for it. Scalar twins:
    ``shoot_pontoon_env.solver.player:OptimalPunter.punter_play`` and
    ``shoot_pontoon_env.solver.shoot:play_tables``."""
    k = t[T_CURSOR]
    cards = t[hand_at(k, H_CARDS)]
    up = table_up(t, k8, c)
    a = card_value(k8[card_at(k, 0)]) - 1
    b = card_value(k8[card_at(k, 1)]) - 1 if cards >= 2 else -1
    from_split = t[hand_at(k, H_FROM_SPLIT)] != 0
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
    original = t[hand_at(k, H_ORIGINAL)]
    flag = table_flag(t, pol, k)
    node = table_node(t, k8, k, pol)
    if context < 0 or flag < 0 or node < 0:
        fail(t, E_POLICY_NO_DECISION)
        return K_STICK, 0
    acts = P_ACT
    if shoot and t[hand_at(k, H_SHOOT_BET)] > 0:
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


@jit(ROWS, I64, I32, group=POLICY)
def table_wants_shoot_bet(t, k8, c, pol):
    """Whether the Shoot policy bets the allowance at this betting point. Scalar twin:
    ``shoot_pontoon_env.solver.shoot:wants_bet``."""
    point = shoot_bet_point(t, c)
    if point == 0:
        return pol[P_BET_DEAL] != 0
    k = current_hand(t, c)
    if k < 0 or t[hand_at(k, H_SHOOT_BET)] > 0:
        return False
    cards = t[hand_at(k, H_CARDS)]
    up = table_up(t, k8, c)
    if point == 1 and cards == 1:
        return pol[pol[P_BET_SECOND] + (up + 1) * 10 + card_value(k8[card_at(k, 0)]) - 1] != 0
    if point == 2 and cards == 3 and t[hand_at(k, H_FROM_SPLIT)] == 0:
        context = pol[pol[P_CTX] + (up + 1) * 11]
        flag = table_flag(t, pol, k)
        if context < 0 or flag < 0:
            return False
        node = table_node(t, k8, k, pol)
        return pol[pol[P_BET_FOURTH] + (context * pol[P_LEVEL_SIZE + 2] + node) * pol[P_FLAGS] + flag] != 0
    return False


@jit(ROWS, I64, I32, I64, I, group=POLICY)
def table_act(t, k8, c, pol, mv, n):
    """The solver's player's move: its stake, Shoot bets and punter play (a banker stands on 17). Scalar twin:
    ``shoot_pontoon_env.solver.player:OptimalPunter.act``."""
    if find(mv, n, K_STAKE) >= 0:
        for m in range(n):
            if mv[MOVE * m + 1] == 0:
                return K_STAKE, 0
        return K_STAKE, np.int64(pol[P_STAKE])
    m = find(mv, n, K_SHOOT_BET)
    if m >= 0:
        if pol[P_SHOOT] != 0 and table_wants_shoot_bet(t, k8, c, pol):
            return K_SHOOT_BET, min(mv[MOVE * m + 2], np.int64(pol[P_SHOOT_CHIPS]))
        return K_SHOOT_BET, 0
    if find(mv, n, K_KEEP_BANK) >= 0:
        return K_KEEP_BANK, 0
    if c[C_SEAT] == t[T_BANKER]:
        total, _ = best_total(k8, K_O_BC, t[T_BANKER_CARDS])
        return stick_or_draw(mv, n, total >= 17)
    return table_punter_play(t, k8, c, pol, mv, n)


@jit(ROWS, I64, F64, I32, I64, BOOLS, RNG, group=EVALUATION)
def autopilot_index(t, k8, c, f, pol, mv, mask, rng):
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
        kind, amount = table_act(t, k8, c, pol, mv, n)
    else:
        kind, amount = player_act(t, k8, c, f, c[C_SEAT], c[C_PLAYERS], mv, n, rng)
    return to_index(t, c, f, kind, amount, mask)


@jit(ROWS, I64, group=EVALUATION)
def decision_cell(t, k8, c):
    """The decision counts' cell of the pending decision (-1: not a playing decision). Scalar twin:
    ``shoot_pontoon_env.evaluate.tournament:_decision_key``."""
    if phase_of(t) != PH_PLAY or current_hand(t, c) < 0 or shoot_bet_point(t, c) >= 0:
        return np.int64(-1)
    k = t[T_CURSOR]
    cards = t[hand_at(k, H_CARDS)]
    total, soft = hand_total(t, k8, k)
    return np.int64(((1 if soft else 0) * D_TOTALS + total) * D_CARDS + cards)


@jit(ROWS, I64, I, F, F64S, F64S, F64S, I8S, I64, I64, call=True, group=EVALUATION)
def record_episode(t, k8, c, hand, episode_return, returns, per_stake, shoot_part, outcome, shoot_after,
                   totals):
    """The record of the episode that just ended (the last deal's hands). Scalar twin:
    ``shoot_pontoon_env.evaluate.tournament:_record_episode``."""
    seat = c[C_SEAT]
    result = 0
    shoot_result = 0
    initial = 0
    boxes = 0
    own = 0
    for k in range(t[T_HANDS]):
        if t[hand_at(k, H_SEAT)] != seat:
            continue
        own += 1
        result += t[hand_at(k, H_RESULT)]
        box = t[hand_at(k, H_BOX)]
        if (boxes >> box) & 1 == 0:
            boxes |= 1 << box
            initial += t[hand_at(k, H_ORIGINAL)]
        cls, _ = hand_class(t, k8, c, k)
        totals[R_CLASSES + cls] += 1
        bet = t[hand_at(k, H_SHOOT_BET)]
        if bet > 0:
            totals[R_SHOOT_BETS] += 1
            totals[R_SHOOT_CHIPS_BET] += bet
            won = t[hand_at(k, H_WON_FROM_SHOOT)]
            if won > 0:
                totals[R_SHOOT_BETS_WON] += 1
                totals[R_SHOOT_CHIPS_WON] += won
                shoot_result += won
            elif t[hand_at(k, H_RESULT)] < 0:
                shoot_result -= bet
    returns[hand] = episode_return
    per_stake[hand] = result / initial if own > 0 else np.nan
    shoot_part[hand] = shoot_result / initial if own > 0 else np.nan
    net = float(result) if own > 0 else episode_return
    outcome[hand] = 1 if net > 0 else (-1 if net < 0 else 0)
    shoot_after[hand] = t[T_SHOOT]
    totals[R_TURNOVERS] += t[T_TURNOVERS]


@jit(I32ROWS, I8ROWS, CFG, I32, F32ROWS, BOOLROWS, I64, B, I, I, I, F64S, F64S, F64S, F64S, I8S, I64, I64,
     I64, RNG, I64, entry=True, group=EVALUATION)
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
                a = actions[i] if external else autopilot_index(row, row8, c, f, pol, mv, mask[i], rng)
                if a < 0 or a >= actions_n:
                    fail(row, E_BAD_ACTION if external else E_AUTOPILOT_NO_INDEX)
                    return np.int64(-1)
                cell = decision_cell(row, row8, c)
                if cell >= 0:
                    decisions[cell * actions_n + a] += 1
                key = 0
            # one call site for both, so that the game is compiled into this entry point once
            reward = env_turn(row, row8, c, f, tab, reset, False, key, a, mv, rng, out, counts, obs[i],
                              mask[i])
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


@jit(I32ROWS, I8ROWS, I64, F64, I32, BOOLROWS, I64, RNG, I64, entry=True, group=EVALUATION)
def choose_actions(t, k8, c, f, pol, mask, out_actions, rng, scratch):
    """The index every table's agent-seat player (C_AUTOPILOT) would choose now (-1 where the episode
    is over; tests)."""
    mv = scratch[:MOVE * 8]
    for i in range(t.shape[0]):
        if t[i, T_TERMINAL] != 0:
            out_actions[i] = -1
        else:
            out_actions[i] = autopilot_index(t[i], k8[i], c, f, pol, mv, mask[i], rng)
