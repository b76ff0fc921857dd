"""The kernel's whole table (``whole_table.py``): every seat stepped in turn, the learners' by their
actions, the others by their table players, among them a trained network (an MLP's forward pass)."""

from __future__ import annotations

import numpy as np

from .compiler import WHOLE_TABLE
from .kernel import (
    B, BOOLROWS, BOOLS, CFG, F32, F32ROW, F32ROWS, F64, I, I32, I32ROWS, I64, I64ROWS, I8ROWS, RNG, ROWS, jit,
)
from .kernel_deals import STEP_LIMIT, apply_action, start_deal, wealth
from .kernel_encoders import (
    CF_EPISODE, CHIP_BOUND, O_CHIP_BALANCE, O_EPISODE, clip, encode, encode_compact, encode_view,
)
from .kernel_evaluation import table_act
from .kernel_hands import MOVE, fail, hand_at, legal_moves, phase_of, to_act
from .kernel_players import play_table_player
from .kernel_seat import agent_moves, current_hand, start_episode, take_action, write_mask
from .layout import (
    BALANCES, C_ACTIONS, C_BASE_STAKE, C_DEALS_PER_EPISODE, C_O_STRAT, C_PLAYERS, C_SEAT, E_NO_DECISION,
    E_NETWORK_ILLEGAL, E_RUNAWAY, E_SOLVER_ILLEGAL, F_PENALTY, H_ORIGINAL, K_BUY, NL_FIELDS, NL_OUTPUTS,
    NL_O_BIASES, NL_O_WEIGHTS, N_ACTIONS, N_COMPACT, N_INPUTS, N_LAYERS, N_MASKED, N_O_AMOUNT, N_O_KIND,
    N_O_LAYERS, N_O_MULTIPLE, N_STARTING_CHIPS, PH_DEAL_OVER, STRAT_INTS, S_OPTIMAL, T_BANKER, T_DEALS,
    T_ERROR, T_TERMINAL,
)


@jit(I64, F64, I, F32ROW, F64, group=WHOLE_TABLE)
def network_logits(net_i, net_f, base, row, x):
    """The logits of the network whose block starts at ``net_i[base]``, of the observation in ``row``, in
    float64: ``tanh(x @ W + b)`` per hidden layer, then the action head. ``x`` holds two halves of scratch the
    layers write in turn; returns where in ``x`` the logits are. Scalar twin:
    ``shoot_pontoon_env.models.mlp:ActorArrays.logits``."""
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


@jit(ROWS, I64, F64, I64, F64, I, I64, I, I64, F32ROW, F64, group=WHOLE_TABLE)
def network_act(t, k8, c, f, net_i, net_f, network, mv, n, counts, row, x):
    """The move of network ``network`` for the seat c[C_SEAT], over mv[:n]: its own view encoded as its
    encoder does (the flat row, or the compact one; the episode's deals left 0 and the balance from the
    network's starting chips, as a table player's view is encoded), the deterministic action of its logits
    (the largest; among the legal indices of its own action table where it is masked; the first on a tie),
    and that index's engine action. Returns (kind, amount, legal). Scalar twin:
    ``shoot_pontoon_env.models.player:ActorPlayer.act``."""
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
                amount = np.int64(np.floor(net_f[multiples + a] * t[hand_at(current, H_ORIGINAL)] + 0.5))
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


@jit(ROWS, CFG, I32, I64, F64, I64, I64, RNG, I64, I64, F32ROW, F64, ir=True, group=WHOLE_TABLE)
def play_seat_player(t, k8, c, f, tab, pol, net_i, net_f, net_of, mv, rng, out, counts, net_row, net_x):
    """``play_table_player`` for a whole table, whose table players may also be the solver's policy
    (S_OPTIMAL: ``pol``, played as table_act plays it for the seat to act) or a trained network (network
    ``net_of[seat]`` of the batch's network arrays while the seat punts, ``net_of[players + seat]`` while it
    banks, network_act; -1: the seat's strategy code plays that role). Scalar twin:
    ``shoot_pontoon_env.players.roles:RolePlayers.act``."""
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
        if not legal:  # an unmasked policy's choice (ObservationPolicy.act raises)
            fail(t, E_NETWORK_ILLEGAL)
            return
    else:
        kind, amount = table_act(t, k8, c, pol, mv, n)
    if not apply_action(t, k8, c, tab, kind, amount, mv, n, out, counts):  # a network's move is legal here
        fail(t, E_SOLVER_ILLEGAL)


@jit(ROWS, CFG, I32, I64, F64, I64, BOOLS, I64, RNG, I64, I64, F32ROW, F64, ir=True, group=WHOLE_TABLE)
def play_to_learner(t, k8, c, f, tab, pol, net_i, net_f, net_of, learners, mv, rng, out, counts, net_row,
                    net_x):
    """The table plays on, the seats not in ``learners`` played by their table players, until a learner's seat
    is to act (False) or the last deal is over (True). Scalar twin:
    ``shoot_pontoon_env.multiagent.episodes:ReferenceWholeTable._play_on``."""
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
    fail(t, E_RUNAWAY)
    return True


@jit(ROWS, I64, F64, I, I64, I64, F32ROW, BOOLS, ir=True, group=WHOLE_TABLE)
def whole_table_view(t, k8, c, f, seat, mv, counts, row, mask):
    """One seat's observation and mask into ``row`` and ``mask``: its own view, its legal indices (none unless
    it is to act). ``c[C_SEAT]`` is the seat the encoder writes for: the whole table points it at each table's
    seat in turn (one thread steps a batch). Scalar twin:
    ``shoot_pontoon_env.multiagent.episodes:ReferenceWholeTable.observe``."""
    c[C_SEAT] = seat
    n = agent_moves(t, k8, c, mv)
    current = current_hand(t, c)
    write_mask(t, c, f, mv, n, current, mask)
    encode_view(t, k8, c, f, mv, n, current, counts, row)


@jit(ROWS, CFG, I32, I64, F64, I64, B, B, I, I, I, BOOLS, I64, F32ROW, I64, RNG, I64, I64, F32ROW, BOOLS,
     F32ROW, F64, ir=True, group=WHOLE_TABLE)
def whole_table_turn(t, k8, c, f, tab, pol, net_i, net_f, net_of, reset, carry, key, banker, a, learners,
                     marks, rewards, mv, rng, out, counts, row, mask, net_row, net_x):
    """One table's reset (``reset``: a new episode with ``banker`` holding the first bank, ``carry`` and the
    shuffle ``key`` as in env_turn) or step ``a`` by the seat to act (never strict: an illegal index
    forfeits, Table.forfeit), then the table plays on to the next learner's decision. Writes every seat's
    reward (its wealth's change in base stakes since the last step, or since the reset's deal began, the
    penalty on top) and the observation and mask of the seat to act; returns that seat (-1: the episode is
    over, and the row is the view of the seat that acted, with every index allowed: the next step resets).
    Scalar twins: ``shoot_pontoon_env.multiagent.episodes:ReferenceWholeTable.reset`` and
    ``shoot_pontoon_env.multiagent.episodes:ReferenceWholeTable.step``."""
    players = c[C_PLAYERS]
    offender = -1
    seat = -1
    if reset:
        start_episode(t, k8, c, f, carry, key, banker)
        for s in range(players):  # before the table players' first moves: the first step pays those
            marks[s] = wealth(t, s)
            rewards[s] = 0.0
        terminal = play_to_learner(t, k8, c, f, tab, pol, net_i, net_f, net_of, learners, mv, rng, out,
                                   counts, net_row, net_x)
        if terminal:
            fail(t, E_NO_DECISION)  # whole_table_settings refuses the tables where this can happen
    else:
        seat = to_act(t, c)
        c[C_SEAT] = seat
        if take_action(t, k8, c, f, tab, a, out, counts, mask):
            offender = seat
        terminal = play_to_learner(t, k8, c, f, tab, pol, net_i, net_f, net_of, learners, mv, rng, out,
                                   counts, net_row, net_x)
        unit = c[C_BASE_STAKE]
        for s in range(players):
            now = wealth(t, s)
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


@jit(I32ROWS, I8ROWS, CFG, I32, I64, F64, I64ROWS, F32ROWS, BOOLROWS, I64, BOOLS, B, B, I64, I64, BOOLS,
     I64ROWS, F32ROWS, I64, BOOLS, I64, I64, RNG, I64, F32, F64, entry=True, group=WHOLE_TABLE)
def play_whole_tables(t, k8, c, f, tab, pol, net_i, net_f, net_of, obs, mask, actions, resets, carry, step,
                      keys, bankers, learners, marks, rewards, seats, terminated, banker_now, deals, rng,
                      scratch, net_row, net_x):
    """The whole-table batch's one entry point (as play_tables for a seat's env): every table i with
    ``resets[i]`` starts a new episode (``bankers[i]`` banks first; shuffle key ``keys[i]``); with ``step``,
    every other table's seat to act plays ``actions[i]``, or, where it is -1, the table waits (rewards 0).
    ``seats[i]``: the seat to act next (-1: over); ``rewards[i, s]``: seat s's reward of this step.
    ``net_i``/``net_f``: the batch's trained networks (``tables.network_arrays``), ``net_of[i, s]`` and
    ``net_of[i, players + s]`` the one table i's seat s plays while it punts and while it banks (-1: its
    strategy code plays); ``net_row``/``net_x``: a network's observation and layers (scratch).
    ``banker_now[i]`` and ``deals[i]``: every table's banker and deal number after the call (contiguous,
    for the info). Returns the first table with an error (-1: none)."""
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
                key = keys[i] if reset else 0
                seats[i] = whole_table_turn(t[i], k8[i], c, f, tab, pol, net_i, net_f, net_of[i], reset,
                                            carry, key, bankers[i], actions[i], learners, marks[i],
                                            rewards[i], mv, rng, out, counts, obs[i], mask[i], net_row, net_x)
                terminated[i] = t[i, T_TERMINAL] != 0
        banker_now[i] = t[i, T_BANKER]
        deals[i] = t[i, T_DEALS]
        if failed < 0 and t[i, T_ERROR] != 0:
            failed = i
    return np.int64(failed)


@jit(ROWS, I64, F64, I, F32ROW, BOOLS, I64, entry=True, group=WHOLE_TABLE)
def observe_whole_table(t, k8, c, f, seat, row, mask, scratch):
    """One seat's observation and mask at one table, any seat (the seat to act's is already in the batch's
    rows). Scalar twin: ``shoot_pontoon_env.multiagent.episodes:ReferenceWholeTable.observe``."""
    mv = scratch[:MOVE * 8]
    counts = scratch[MOVE * 8:MOVE * 8 + 52]
    whole_table_view(t, k8, c, f, seat, mv, counts, row, mask)
