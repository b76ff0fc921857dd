"""The banker's exact best response to a punter policy, and the exact value of any banker policy.

Heads-up, the banker moves last and sees the punter's box as an observation ``O``
(``game_punter``). At a banker hand ``b`` (a multiset, ``game_banker``) facing ``O`` it sticks or
draws to minimise the punter's expected net. Every row ``r`` of ``O`` (punter value counts ``K_r``,
payoff row ``W_r``) contributes ``stick_r(b) = chance(K_r, b) * W_r[outcome(b)]`` where the banker
stands on ``b``; the banker's choice is one for all rows of ``O``, so with
``S_O(b) = sum_r stick_r(b)``

    A_O(b) = min(S_O(b), sum_v A_O(b + v))     (the given choice, for a fixed policy)

is the punter's net from ``b`` on, times the joint chance of reaching ``(b, O)``; the value is
``sum_O sum_b start(b) A_O(b)`` plus the deals a banker's Pontoon settles at the peek.

Exact on the preset's finite shoe for a banker whose choice depends on its cards' values (not their
order, not the ranks of its ten-value cards) and on ``O``, with the approximations of split boxes
that ``game_punter`` states (one observation for every split box, no resplits).

Limits of a rule-based banker's decisions (:func:`observation_draws`):

- A banker that reads the table (``shoot_aware``) is asked once per (total, softness, number of
  cards, observation) and its answer reused for every hand of its cards that shares them: a banker
  that decides on the composition of its cards beyond these (which values make its total) is
  mis-modelled. Every banker of ``strategies`` decides on its total, softness and card count only.
- The banker's :class:`SeatView` (:func:`banker_view`) is filled as the engine's ``seat_view``
  fills it on a table reshuffled every deal with a new Shoot of ``initial_shoot``: ``shoe_size`` the
  whole shoe, ``shoot_capacity`` the Shoot less the unsettled Shoot bets (within ``max_shoot_bet``);
  but ``balance`` is 0 and ``seen_counts`` empty (the engine's depend on the session), and a split
  box shows no punter hands. Only a banker that ignores these (every rule-based banker of
  ``strategies``) is modelled exactly.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..actions import Action, ActionKind, LegalMove
from ..cards import CARDS_PER_DECK, best_total
from ..engine.table import Phase
from ..engine.view import HandView, SeatView
from ..rules import Rules
from ..strategies import Strategy
from .dealer import own_cards_only, strategy_rule
from .game_banker import BankerSpace, JointChance, banker_space
from .game_punter import (BANKER_SEAT, PUNTER_SEAT, SPLIT_OBSERVATION, HandKey, Observation, PunterRows,
                          STARTING_CHIPS, card_of, observation_of, shoot_capacity)

Decisions = dict[int, np.ndarray]
"""Level -> (n_m, n_O) bool: the banker draws at that hand facing that observation."""

ROW_BATCH = 2000
"""Rows per chunk of the chances (memory: a few arrays of (hands of a level, rows))."""


@dataclass
class BankerResult:
    """A banker policy against a punter policy: the punter's value and the banker's decisions."""

    value: float
    """The punter's expected net chips per unit of initial stake."""
    draws: Decisions
    rows: PunterRows
    space: BankerSpace
    seconds: float

    def obs_id(self, observation: Observation) -> int:
        """The index of an observation (KeyError for one the punter policy never reaches)."""
        if not hasattr(self, "_ids"):
            self._ids = {o: i for i, o in enumerate(self.rows.observations)}
        return self._ids[observation]


def evaluate(rows: PunterRows, space: BankerSpace | None = None, draws: Decisions | None = None,
             joint: JointChance | None = None) -> BankerResult:
    """The best response when ``draws`` is None, else the value of ``draws`` (bool decisions, or a
    mixed banker's chances of drawing as floats; ``draws`` of the result then marks any chance).

    The banker's choice at (b, O) is one for every row of ``O``, so only the sums over the rows
    matter: with ``S_O(b) = sum_{r in O} stick_r(b)``, ``A_O(b) = min(S_O(b), sum_v A_O(b + v))``
    (or the given choice). The sums are built in chunks of rows; the recursion runs on them.
    Rows whose payoff is the same against every banker outcome (a bust box) are summed directly: the
    banker's lines of play from a start add up to the start's chance whatever it decides."""
    begin = time.perf_counter()
    space = space or banker_space(rows.rules)
    joint = joint or JointChance.of(rows.rules.num_decks)
    n_obs = len(rows.observations)
    best = draws is None
    out: Decisions = {m: np.zeros((len(lv.values), n_obs), dtype=bool) for m, lv in space.levels.items()}
    flat = np.ptp(rows.payoff, axis=1) == 0
    start_level = space.levels[2]
    total = float(space.start @ (joint.chance(rows.counts[flat], start_level.counts)
                                 * rows.payoff[flat, 0]).sum(axis=1))
    keep = np.nonzero(~flat)[0]
    obs_all = rows.obs_index[keep]
    starts = np.searchsorted(obs_all, np.arange(n_obs + 1))
    parents = parent_hands(space)
    lo = 0
    while lo < n_obs:
        hi = int(np.searchsorted(starts, starts[lo] + ROW_BATCH, side="right")) - 1
        hi = min(max(hi, lo + 1), n_obs)
        sums = {m: np.zeros((len(lv.values), hi - lo)) for m, lv in space.levels.items()}
        for r0 in range(int(starts[lo]), int(starts[hi]), ROW_BATCH):
            r1 = min(r0 + ROW_BATCH, int(starts[hi]))
            _add_stick_sums(sums, rows, keep[r0:r1], obs_all[r0:r1] - lo, space, joint, parents)
        settled = rows.all_settled[lo:hi]
        a_next: np.ndarray | None = None
        for m in sorted(space.levels, reverse=True):
            lv = space.levels[m]
            stick = sums[m]
            if a_next is None or not lv.can_draw.any():
                a = stick
            else:
                pad = np.vstack([a_next, np.zeros((1, hi - lo))])
                draw = pad[lv.child].sum(axis=1)
                if best:
                    twist = lv.can_draw[:, None] & (draw < stick) & ~settled[None, :]
                elif draws[m].dtype != bool:  # a mixed banker: the chance it draws
                    share = draws[m][:, lo:hi] * lv.can_draw[:, None]
                    out[m][:, lo:hi] = share > 0
                    a = stick + share * (draw - stick)
                    a_next = a
                    continue
                else:
                    twist = draws[m][:, lo:hi] & lv.can_draw[:, None]
                out[m][:, lo:hi] = twist
                a = np.where(twist, draw, stick)
            a_next = a
        assert a_next is not None
        total += float(space.start @ a_next.sum(axis=1))
        lo = hi
    peek = joint.chance(rows.peek_counts, space.pontoon_start[None, :])[0]
    total += float(space.pontoon_orders * (peek @ rows.peek_payoff))
    return BankerResult(total, out, rows, space, time.perf_counter() - begin)


def _add_stick_sums(sums: dict[int, np.ndarray], rows: PunterRows, take: np.ndarray, obs: np.ndarray,
                    space: BankerSpace, joint: JointChance, parents: dict[int, tuple[np.ndarray, np.ndarray]]
                    ) -> None:
    """Add ``sum_r chance(K_r, b) W_r[outcome(b)]`` of rows ``take`` (of local observations ``obs``,
    ascending) to ``sums``. Chances level by level: one more card of value v multiplies the chance
    by (cards of v left) / (cards left)."""
    counts, payoff = rows.counts[take], rows.payoff[take]
    present, seg = np.unique(obs, return_index=True)
    for m, chance in banker_hand_chances(counts, space, joint, parents):
        stick = chance * payoff[:, space.levels[m].outcome].T
        sums[m][:, present] += np.add.reduceat(stick, seg, axis=1)


def banker_hand_chances(counts: np.ndarray, space: BankerSpace, joint: JointChance,
                        parents: dict[int, tuple[np.ndarray, np.ndarray]]
                        ) -> Iterator[tuple[int, np.ndarray]]:
    """(level m, (n_m, R) the chance of each banker hand of m cards joint with each punter hand of
    value ``counts`` (R, NUM_VALUES)), level by level: one more card of value v multiplies the chance
    by (cards of v left) / (cards left)."""
    held = counts.sum(axis=1)
    full = joint.full
    chance = joint.chance(counts, space.levels[2].counts)
    for m in sorted(space.levels):
        if m > 2:
            parent, value = parents[m]
            b_v = space.levels[m - 1].counts[parent, value]
            left = np.maximum(full[value][:, None] - counts[:, value].T - b_v[:, None], 0)
            chance = chance[parent] * left / (full.sum() - held - (m - 1))[None, :]
        yield m, chance


def parent_hands(space: BankerSpace) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For each hand of level m > 2, one hand of level m - 1 and the value that leads to it."""
    out = {}
    for m in sorted(space.levels)[1:]:
        lower = space.levels[m - 1]
        n = len(space.levels[m].values)
        parent = np.full(n, -1, dtype=np.int64)
        value = np.zeros(n, dtype=np.int64)
        for i in range(len(lower.values)):
            for v in range(lower.child.shape[1]):
                j = lower.child[i, v]
                if j >= 0 and parent[j] < 0:
                    parent[j], value[j] = i, v
        out[m] = (parent, value)
    return out


def banker_hand_views(observation: Observation) -> tuple[HandView, ...]:
    """The punter's hands as the banker's :class:`SeatView` shows them, from an observation (none
    for :data:`SPLIT_OBSERVATION`, whose hands are not modelled)."""
    if observation == SPLIT_OBSERVATION:
        return ()
    views = []
    for key in observation:
        k = HandKey(*key)
        views.append(HandView(PUNTER_SEAT, tuple(card_of(v) for v in k.visible), k.hidden, k.stake,
                              k.original_stake, k.shoot_bet, k.buys, k.twists, k.doubled, k.from_split,
                              k.done, k.settled, k.bust, -(k.stake + k.shoot_bet) if k.settled else 0))
    return tuple(views)


def banker_view(rules: Rules, values: tuple[int, ...], observation: Observation) -> SeatView:
    """The banker's view when it decides with these cards facing that observation."""
    cards = tuple(card_of(v) for v in values)
    total, soft = best_total(cards)
    legal = [LegalMove(ActionKind.STICK)]
    if rules.may_draw_on(total, soft):
        legal.append(LegalMove(ActionKind.TWIST))
    hands = banker_hand_views(observation)
    shoot = rules.initial_shoot if rules.shoot else 0
    seen = np.zeros(13, dtype=np.int64)
    for card in (*cards, *(c for h in hands for c in h.cards)):
        seen[card >> 2] += 1  # the cards the banker sees this deal (its own, the punter's face-up ones)
    return SeatView(
        seat=BANKER_SEAT, is_banker=True, banker=BANKER_SEAT, rules=rules, phase=Phase.BANKER,
        legal=tuple(legal), shoot=shoot, shoot_capacity=shoot_capacity(rules, shoot, hands), reserve=0,
        shoot_bet_point=None, current=None, hands=hands, banker_cards=cards, banker_hidden=0,
        seen_counts=seen, shoe_size=CARDS_PER_DECK * rules.num_decks,
        balance=STARTING_CHIPS - shoot, num_players=2)


def strategy_draws(strategy: Strategy, rows: PunterRows, space: BankerSpace, seed: int = 0) -> Decisions:
    """A rule-based banker's decisions facing each observation of ``rows`` (:func:`observation_draws`)."""
    return observation_draws(strategy, rows.rules, rows.observations, ~rows.all_settled, space, seed)


def observation_draws(strategy: Strategy, rules: Rules, observations: list[Observation], live: np.ndarray,
                      space: BankerSpace, seed: int = 0) -> Decisions:
    """A rule-based banker's decisions at every hand it can reach facing each observation (``live``:
    not every punter hand bust). A banker that draws on its own cards only is asked once per hand;
    another is asked with the whole view, only where its own earlier choices can bring it (forward,
    level by level), once per (total, softness, number of cards, observation): it is taken to
    decide on its cards through these, as every banker of ``strategies`` does (one that decides on
    which values make its total is mis-modelled; see the module doc)."""
    n_obs = len(observations)
    out: Decisions = {m: np.zeros((len(lv.values), n_obs), dtype=bool) for m, lv in space.levels.items()}
    if own_cards_only(strategy):
        rule = strategy_rule(strategy, rules)
        for m, lv in space.levels.items():
            wants = np.array([bool(c) and rule.wants_card(v) for v, c in zip(lv.values, lv.can_draw)])
            out[m] = wants[:, None] & live[None, :]
        return out
    reach = np.zeros((len(space.levels[2].values), n_obs), dtype=bool)
    reach[space.start > 0] = True
    asked: dict[tuple[int, bool, int, int], bool] = {}
    for m in sorted(space.levels):
        lv = space.levels[m]
        ask = reach & lv.can_draw[:, None] & live[None, :]
        for i, o in zip(*np.nonzero(ask)):
            values = lv.values[i]
            total, soft = best_total([card_of(v) for v in values])
            key = (total, soft, len(values), int(o))
            if key not in asked:
                view = banker_view(rules, values, observations[o])
                action: Action = strategy.act(view, np.random.default_rng(seed))
                if action.kind not in (ActionKind.STICK, ActionKind.TWIST):
                    raise ValueError(f"banker strategy {strategy!r} answered {action} to a stick/twist "
                                     "choice")
                asked[key] = action.kind == ActionKind.TWIST
            out[m][i, o] = asked[key]
        if m + 1 in space.levels:
            nxt = np.zeros((len(space.levels[m + 1].values), n_obs), dtype=bool)
            for v in range(lv.child.shape[1]):
                ok = lv.child[:, v] >= 0
                np.logical_or.at(nxt, lv.child[ok, v], out[m][ok])
            reach = nxt
    return out


class ResponseBanker(Strategy):
    """A banker that plays given decisions (a best response) at an engine table, heads-up: it reads
    its own cards and the punter's hands from its :class:`SeatView`."""

    name = "best_response_banker"

    def __init__(self, result: BankerResult) -> None:
        self.result = result

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        values = tuple(min(c // 4, 9) for c in view.banker_cards)
        m, i = self.result.space.index(values)
        observation = observation_of(view.hands)
        try:
            o = self.result.obs_id(observation)
        except KeyError:
            raise ValueError(f"{self.name}: the punter's box {observation} is not one the punter policy of "
                             "this best response can reach (another punter, other rules?)") from None
        draw = bool(self.result.draws[m][i, o])
        if draw and any(move.kind == ActionKind.TWIST for move in view.legal):
            return Action(ActionKind.TWIST)
        return Action(ActionKind.STICK)

