"""The kernel's seat env: a seat's episode (its reset, step, mask and reward) against the table players,
and the batch's entry point for the vector env (``tables.TableBatch``)."""

from __future__ import annotations

import numpy as np

from .kernel import (
    B, BOOLROWS, BOOLS, CFG, F32, F32ROW, F32ROWS, F64, I, I32ROW, I32ROWS, I64, I8ROWS, RNG, ROWS, jit,
)
from .kernel_deals import (
    STEP_LIMIT, add_to_shoot, apply_legal, clear_seen, count_cards_of_deal, forfeit, fresh_shoe, renew_shoe,
    draw_key, set_key, start_deal, wealth,
)
from .kernel_encoders import encode_view
from .kernel_hands import (
    MOVE, fail, hand_at, legal_moves, phase_of, put, shoot_bet_point, shoot_capacity, to_act,
)
from .kernel_players import play_table_player
from .layout import (
    BALANCES, C_ACTIONS, C_BANKER_SEAT_ENV, C_BASE_STAKE, C_BLIND, C_DEALS_PER_EPISODE, C_INITIAL_SHOOT,
    C_O_ACT_AMOUNT, C_O_ACT_KIND, C_O_BY_KIND, C_PERSISTENT, C_PLAYERS, C_SEAT, C_SHOOT, C_STARTING_CHIPS,
    E_BAD_ACTION, E_NO_DECISION, E_RUNAWAY, F_MULTIPLES, F_PENALTY, H_ORIGINAL, K_BUY, K_STICK, NUM_KINDS,
    PH_BANK_DECISION, PH_DEAL_OVER, PH_PLAY, PH_SHOOT_BETS, ST_OVER, T_ACK, T_BANKER, T_BANKER_CARDS, T_BOX,
    T_CURSOR, T_DEALS, T_DEAL_NUMBER, T_DECIDED, T_ERROR, T_FORFEITED, T_HANDS, T_ILLEGAL, T_RESERVE,
    T_REVEALED, T_SHOOT, T_STAGE, T_TERMINAL, T_TURNOVERS, T_WEALTH_MARK,
)


AGENT, AUTO, NEXT_DEAL, OVER = 0, 1, 2, 3
"""``status``: the agent decides, a table player acts, the next deal starts, the episode is over."""


@jit(I32ROW, I64)
def status(t, c):
    """Whose turn it is (AGENT, AUTO, NEXT_DEAL, OVER), by the agent's role. Scalar twin:
    ``shoot_pontoon_env.seat.table_episode:TableEpisode._status``."""
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


@jit(ROWS, CFG, B, I64, RNG, I64, I64, ir=True)
def play_until(t, k8, c, f, tab, forfeiting, mv, rng, out, counts):
    """The table plays on: the table players act until the agent decides (returns False) or the episode ends
    (True); or, ``forfeiting``, every hand of the agent is lost as its turn comes and the deal is played to
    its end (True). One loop for both, so that the table players' code is compiled into the kernel once.
    Scalar twins: ``shoot_pontoon_env.seat.table_episode:TableEpisode._advance`` and
    ``shoot_pontoon_env.seat.table_episode:TableEpisode._forfeit``."""
    seat = c[C_SEAT]
    for _ in range(STEP_LIMIT):
        if t[T_ERROR] != 0:
            return True
        if forfeiting:
            phase = phase_of(t)
            if phase == PH_BANK_DECISION or phase == PH_DEAL_OVER:
                return True
            if to_act(t, c) == seat:
                forfeit(t, k8, c, tab, out, counts)
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
    fail(t, E_RUNAWAY)
    return True


@jit(ROWS, I64, I64)
def agent_moves(t, k8, c, mv):
    """The legal moves of the agent's view: the engine's while it acts, the acknowledgement (stick) of the
    banker seat, none once the episode is over. Scalar twin:
    ``shoot_pontoon_env.seat.table_episode:TableEpisode._refresh``."""
    if t[T_TERMINAL] != 0:
        return 0
    if t[T_ACK] != 0:
        return put(mv, 0, K_STICK, 0, 0)
    if to_act(t, c) == c[C_SEAT]:
        return legal_moves(t, k8, c, mv)
    return 0


@jit(I32ROW, I64)
def current_hand(t, c):
    """The agent seat's pending hand (-1: None). Scalar twin:
    ``shoot_pontoon_env.engine.view:SeatView.current_hand``."""
    phase = phase_of(t)
    if (phase == PH_SHOOT_BETS or phase == PH_PLAY) and to_act(t, c) == c[C_SEAT]:
        return np.int64(t[T_CURSOR])
    return np.int64(-1)


@jit(I32ROW, F64, I, I)
def buy_amount(t, f, a, current):
    """The chips of buy index a on the pending hand ``current``: its multiple of the hand's original stake
    rounded half up. Scalar twin: ``shoot_pontoon_env.seat.action_table:buy_amount``."""
    multiple = f[F_MULTIPLES + a]
    return np.int64(np.floor(multiple * t[hand_at(current, H_ORIGINAL)] + 0.5))


@jit(I32ROW, I64, F64, I, I)
def action_amount(t, c, f, a, current):
    """The amount of action index a (-1: no meaning now). Scalar twin:
    ``shoot_pontoon_env.seat.action_table:ActionTable.to_action``."""
    if c[c[C_O_ACT_KIND] + a] == K_BUY:
        return buy_amount(t, f, a, current) if current >= 0 else np.int64(-1)
    return c[c[C_O_ACT_AMOUNT] + a]


@jit(I32ROW, I64, F64, I64, I, I, BOOLS)
def write_mask(t, c, f, mv, n, current, mask):
    """An index is legal when a legal move of its kind allows its amount (a buy's amount follows the pending
    hand's stake; every other kind's is the action table's own). Scalar twin:
    ``shoot_pontoon_env.seat.action_table:ActionTable.mask``."""
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
            amount = buy_amount(t, f, a, current) if kind == K_BUY else c[amounts + a]
            if low <= amount <= high:
                mask[a] = True


@jit(ROWS, I64, F64, I64, I64, F32ROW, BOOLS)
def refresh(t, k8, c, f, mv, counts, row, mask):
    """The agent's mask and observation; once the episode is over the mask allows every index (the reset that
    follows ignores the action). Scalar twin:
    ``shoot_pontoon_env.seat.table_episode:TableEpisode._refresh``."""
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
    """One table's reset up to its first deal, ``banker`` holding the bank (the seat envs: seat 0; the whole
    table: its first banker): a fresh table; a persistent shoe carries over (with its count) when ``carry``
    and the previous deal was settled. Without ``carry`` (a seeded reset) the shoe starts in pack order, so
    that the seed alone decides the game. Scalar twins:
    ``shoot_pontoon_env.seat.table_episode:TableEpisode.reset`` and
    ``shoot_pontoon_env.seat.table_episode:carry_shoe``."""
    phase = phase_of(t)
    if carry and c[C_PERSISTENT] != 0 and (phase == PH_BANK_DECISION or phase == PH_DEAL_OVER):
        count_cards_of_deal(t, k8)
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
    t[T_WEALTH_MARK] = wealth(t, c[C_SEAT])
    start_deal(t, k8, c, f)
    t[T_DEALS] = 1


@jit(ROWS, CFG, I, I64, I64, BOOLS, ir=True)
def take_action(t, k8, c, f, tab, a, out, counts, mask):
    """One table's step (never strict) up to the table's play: True when ``a`` is illegal (the agent forfeits
    its hand in play). An index outside the action table is an error (the envs refuse it first; the kernel
    indexes without bounds checks). Scalar twin:
    ``shoot_pontoon_env.seat.table_episode:TableEpisode.step``."""
    t[T_ILLEGAL] = 0
    if a < 0 or a >= c[C_ACTIONS]:
        fail(t, E_BAD_ACTION)
        return True
    if not mask[a]:
        t[T_ILLEGAL] = 1
        if t[T_ACK] != 0:
            t[T_ACK] = 0
        else:
            forfeit(t, k8, c, tab, out, counts)
        return True
    t[T_DECIDED] = 1
    if t[T_ACK] != 0:
        t[T_ACK] = 0
    else:  # the mask was written from this very state's legal moves: ``a`` is legal, not asked again
        amount = action_amount(t, c, f, a, current_hand(t, c))
        apply_legal(t, k8, c, tab, c[c[C_O_ACT_KIND] + a], amount, out, counts)
    return False


@jit(ROWS, CFG, B, B, I, I, I64, RNG, I64, I64, F32ROW, BOOLS, ir=True)
def env_turn(t, k8, c, f, tab, reset, carry, key, a, mv, rng, out, counts, row, mask):
    """One table's reset (``reset``, with ``carry`` and the shuffle ``key``; returns 0) or step (the action
    ``a``, never strict; returns the reward), up to the agent's next decision, and its observation and mask
    written. Scalar twins: ``shoot_pontoon_env.seat.table_episode:TableEpisode.reset`` and
    ``shoot_pontoon_env.seat.table_episode:TableEpisode.step``."""
    if reset:
        start_episode(t, k8, c, f, carry, key, 0)
        forfeiting = False
    else:
        forfeiting = take_action(t, k8, c, f, tab, a, out, counts, mask)
    terminated = play_until(t, k8, c, f, tab, forfeiting, mv, rng, out, counts)
    if reset:
        if terminated:
            fail(t, E_NO_DECISION)
    else:
        t[T_TERMINAL] = 1 if terminated else 0
    refresh(t, k8, c, f, mv, counts, row, mask)
    if reset:
        return 0.0
    now = wealth(t, c[C_SEAT])
    reward = (now - t[T_WEALTH_MARK]) / c[C_BASE_STAKE] - (f[F_PENALTY] if forfeiting else 0.0)
    t[T_WEALTH_MARK] = now
    return reward


def scratch_size(slots: int) -> int:
    """int64 scratch of the entry points: legal moves (8), rank counts (52), showdown outcomes."""
    return MOVE * 8 + 52 + 2 * slots


@jit(I32ROWS, I8ROWS, CFG, F32ROWS, BOOLROWS, I64, BOOLS, B, B, I64, F32, BOOLS, BOOLS, I64, RNG, I64,
     entry=True)
def play_tables(t, k8, c, f, tab, obs, mask, actions, resets, carry, step, keys, rewards, terminated, illegal,
                deals, rng, scratch):
    """The batch's one entry point for an env: every table i with ``resets[i]`` starts a new episode
    (``env_turn``'s reset, with the shuffle key ``keys[i]``, or, in a step where ``keys[i]`` is -1, one
    drawn from ``rng`` before any table moves, and the -1 put back; ``carry`` keeps a persistent shoe), with
    reward 0, not terminated; with ``step``, every other table takes the step ``actions[i]``
    (``env_turn``'s step). ``illegal[i]`` and ``deals[i]``: every table's illegal-action
    flag and deal number after the call (the info of a step, without reading the state's columns, a
    cache line per table each). Returns the first table with an error (-1: none). One entry point
    rather than a reset and a step: each would compile the whole game again."""
    mv = scratch[:MOVE * 8]
    counts = scratch[MOVE * 8:MOVE * 8 + 52]
    out = scratch[MOVE * 8 + 52:]
    failed = -1
    if step:  # the autoresets' keys first, in row order, as tables.draw_keys would draw them
        for i in range(t.shape[0]):
            if resets[i] and keys[i] < 0:
                keys[i] = draw_key(rng)
    for i in range(t.shape[0]):
        reset = resets[i]
        if reset or step:
            key = keys[i] if reset else 0
            if reset and step:
                keys[i] = -1  # the buffer the step was handed, as it was
            rewards[i] = env_turn(t[i], k8[i], c, f, tab, reset, carry, key, actions[i], mv, rng, out, counts,
                                  obs[i], mask[i])
            terminated[i] = not reset and t[i, T_TERMINAL] != 0
        illegal[i] = t[i, T_ILLEGAL] != 0
        deals[i] = t[i, T_DEALS]
        if failed < 0 and t[i, T_ERROR] != 0:
            failed = i
    return np.int64(failed)
