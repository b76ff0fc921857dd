"""The punter's exact best response to a banker that may read the punter's box, heads-up.

The banker is given by its decisions at each of its hands facing each observation ``O`` of the
punter's box (``best_banker.observation_draws`` asks any rule-based banker, one that reads the
table included). The punter's hand is a tree of information states, each its hidden cards (the two
dealt and the bought ones, as value counts: their order changes nothing that follows), its stake,
its buys and its twisted cards in order (the banker sees those). A state's value is the most, over
its legal actions, of the sum over the next card of the children's values; a finished hand is a
row ``(O, K, W)`` of ``game_punter`` whose value against the banker is, with ``n_O(b)`` the ordered
lines of play by which the banker reaches hand ``b`` and stands there facing ``O``,

    L(O, K) = sum_b n_O(b) chance(K, b) W[outcome(b)].

Every value is joint with the chance of the cards so far, so the maxima compare like conditional
expectations (all children of a state share its chance).

Restrictions (the value is the best over these plays; exact for them on the finite shoe): one
initial stake (``rules.base_stake`` within the stake limits), no Shoot bets, no splits (the
solver's optimum splits against a fixed banker; against ``stand17`` splitting adds 0.0011 per unit
stake in the game of two hands a box: 0.014612 with splits, 0.013499 without), no buy after a twist,
and bought cards dealt face down (``game_punter.check_rules`` refuses ``buy_face_down=False``: the
observation of a hand takes its bought cards as hidden). The banker is asked as ``best_banker``
states (a table-reading banker once per total, softness, number of cards and observation).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..actions import Action, ActionKind
from ..cards import FIVE_CARDS, best_total
from ..engine.table import buy_range
from ..engine.view import SeatView
from ..rules import Rules
from ..strategies import Strategy
from .best_banker import Decisions, parent_hands
from .dealer import NUM_OUTCOMES, PONTOON
from .game_banker import BankerSpace, JointChance, banker_space
from .game_punter import HandKey, Observation, cards_of_counts, check_rules
from .payoff import payoff_matrices, punter_class
from .space import ACE, NUM_VALUES, TEN

BankerDecisions = Callable[[list[Observation], np.ndarray], Decisions]
"""Given observations and which of them have a live hand, the banker's draws (level -> (n_m, n_O))."""

ROW_CHUNK = 2000


def bust_observation(stake: int) -> Observation:
    """A bust hand of this stake: the banker does not play, so one observation per stake serves."""
    return (("bust", stake),)


@dataclass
class PunterResponse:
    value: float
    """The punter's best expected net chips per unit of initial stake."""
    stake: int
    states: int
    """Information states of the punter's hand."""
    observations: int
    seconds: float
    choice: dict[tuple, Action]
    """(hidden value counts, stake, buys, twisted values) -> the best action there."""


class ResponsePunter(Strategy):
    """Plays a :class:`PunterResponse` at an engine table: its stake, no Shoot bets, no splits."""

    name = "best_response_punter"

    def __init__(self, response: PunterResponse) -> None:
        self.response = response

    def stake(self, view: SeatView, rng: np.random.Generator) -> Action:
        if any(m.low == 0 for m in view.legal):
            return Action(ActionKind.STAKE, 0)
        return Action(ActionKind.STAKE, self.response.stake)

    def punter_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        assert hand is not None
        values = [min(c // 4, TEN) for c in hand.cards]
        twisted = tuple(values[len(values) - hand.twists:]) if hand.twists else ()
        hidden = tuple(values[:len(values) - hand.twists].count(v) for v in range(NUM_VALUES))
        return self.response.choice[(hidden, hand.stake, hand.buys, twisted)]


def counts_total(counts: tuple[int, ...]) -> tuple[int, bool]:
    """(best total, soft) of value counts: ``cards.best_total``, the one hand valuation."""
    return best_total(cards_of_counts(counts))


_total = counts_total  # the name this module's callers use


class PunterTree:
    """The punter's information states and finished hands (``rows``), built once."""

    def __init__(self, rules: Rules, stake: int) -> None:
        self.rules = rules
        self.stake = stake
        self.g, _ = payoff_matrices(rules, False)
        self.obs: dict[Observation, int] = {}
        self.rows: dict[tuple[int, tuple[int, ...]], int] = {}
        self.row_payoff: list[np.ndarray] = []
        self.nodes: dict[tuple, list[list[tuple[bool, int]]]] = {}
        """state -> actions -> children as (is_row, index): ``is_row`` a finished hand, else a state."""
        self.index: dict[tuple, int] = {}
        self.order: list[tuple] = []
        self.moves: dict[tuple, list[Action]] = {}
        """state -> the action of each entry of ``nodes[state]``."""

    def row(self, observation: Observation, counts: tuple[int, ...], payoff: np.ndarray) -> tuple[bool, int]:
        o = self.obs.setdefault(observation, len(self.obs))
        key = (o, counts)
        if key not in self.rows:
            self.rows[key] = len(self.rows)
            self.row_payoff.append(payoff)
        return True, self.rows[key]

    def finished(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bust: bool
                 ) -> tuple[bool, int]:
        """The row of a hand that stands (stuck, a 21 that may not draw, a Five Card Trick) or is bust."""
        counts = tuple(h + twists.count(v) for v, h in enumerate(hidden))
        ncards = sum(counts)
        total, _ = _total(counts)
        unit = self.stake
        if bust:
            return self.row(bust_observation(stake), counts, np.full(NUM_OUTCOMES, -stake / unit))
        shown = ncards >= FIVE_CARDS
        visible = tuple(sorted(v for v, c in enumerate(counts) for _ in range(c))) if shown else twists
        key = HandKey(visible, hidden=0 if shown else 2 + buys, stake=stake, original_stake=self.stake,
                      buys=buys, twists=len(twists))
        cls = punter_class(total, ncards, False)
        return self.row((key,), counts, self.g[cls] * stake / unit)

    def build(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...]
              ) -> tuple[bool, int]:
        """The state of a hand that decides now (its children built first)."""
        key = (hidden, stake, buys, twists)
        if key in self.nodes:
            return False, self.index[key]
        rules = self.rules
        counts = tuple(h + twists.count(v) for v, h in enumerate(hidden))
        ncards = sum(counts)
        total, soft = _total(counts)
        actions: list[list[tuple[bool, int]]] = []
        moves: list[Action] = []
        if total >= rules.stick_minimum:
            actions.append([self.finished(hidden, stake, buys, twists, False)])
            moves.append(Action(ActionKind.STICK))
        if ncards < FIVE_CARDS and rules.may_draw_on(total, soft):
            actions.append([self._after(hidden, stake, buys, twists + (v,)) for v in range(NUM_VALUES)])
            moves.append(Action(ActionKind.TWIST))
            low, high = self._buy_range(stake, buys, twists)
            for amount in range(low, high + 1):
                actions.append([self._after(tuple(h + (v == u) for u, h in enumerate(hidden)), stake + amount,
                                            buys + 1, twists) for v in range(NUM_VALUES)])
                moves.append(Action(ActionKind.BUY, amount))
        if not actions:  # cannot happen: a hand that may not draw stands on 15 or more
            raise AssertionError(f"no legal action at {key}")
        self.nodes[key] = actions
        self.moves[key] = moves
        self.index[key] = len(self.index)
        self.order.append(key)
        return False, self.index[key]

    def _after(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...]
               ) -> tuple[bool, int]:
        """``Table._after_card``: bust, Five Card Trick, or a decision."""
        counts = tuple(h + twists.count(v) for v, h in enumerate(hidden))
        total, _ = _total(counts)
        if total > 21:
            return self.finished(hidden, stake, buys, twists, True)
        if sum(counts) >= FIVE_CARDS:
            return self.finished(hidden, stake, buys, twists, False)
        return self.build(hidden, stake, buys, twists)

    def _buy_range(self, stake: int, buys: int, twists: tuple[int, ...]) -> tuple[int, int]:
        """``Table``'s buy range for a hand of this stake, buys and twists (fewer than five cards)."""
        return buy_range(self.rules, 0, buys, len(twists), self.stake, stake)


_Tree = PunterTree  # the name this module's callers use


def _row_values(tree: _Tree, draws: Decisions, space: BankerSpace, joint: JointChance) -> np.ndarray:
    """``L(O, K)`` of every finished hand (bust rows: the banker does not play)."""
    n_obs = len(tree.obs)
    keys = sorted(tree.rows, key=tree.rows.get)
    obs = np.array([o for o, _ in keys], dtype=np.int64)
    counts = np.array([c for _, c in keys], dtype=np.int64)
    payoff = np.array(tree.row_payoff)
    # forward: ordered lines of play reaching each banker hand, and standing there, per observation
    stand: dict[int, np.ndarray] = {}
    reach = np.repeat(space.start[:, None], n_obs, axis=1)
    for m in sorted(space.levels):
        lv = space.levels[m]
        if draws[m].dtype == bool:
            twist = draws[m] & lv.can_draw[:, None]
            stand[m] = (reach * ~twist).astype(np.float64)
        else:  # a mixed banker: the chance it draws
            twist = draws[m] * lv.can_draw[:, None]
            stand[m] = reach * (1.0 - twist)
        if m + 1 in space.levels:
            nxt = np.zeros((len(space.levels[m + 1].values), n_obs))
            moving = reach * twist
            for v in range(lv.child.shape[1]):
                ok = lv.child[:, v] >= 0
                np.add.at(nxt, lv.child[ok, v], moving[ok])
            reach = nxt
    values = np.zeros(len(keys))
    full = joint.full
    parents = parent_hands(space)
    for r0 in range(0, len(keys), ROW_CHUNK):
        r1 = min(r0 + ROW_CHUNK, len(keys))
        k, w, o = counts[r0:r1], payoff[r0:r1], obs[r0:r1]
        held = k.sum(axis=1)
        chance = joint.chance(k, space.levels[2].counts)
        acc = np.zeros(r1 - r0)
        for m in sorted(space.levels):
            lv = space.levels[m]
            if m > 2:
                parent, value = parents[m]
                b_v = space.levels[m - 1].counts[parent, value]
                left = np.maximum(full[value][:, None] - k[:, value].T - b_v[:, None], 0)
                chance = chance[parent] * left / (full.sum() - held - (m - 1))[None, :]
            acc += (stand[m][:, o] * chance * w[:, lv.outcome].T).sum(axis=0)
        values[r0:r1] = acc
    return values


def punter_response(rules: Rules, draws_for: BankerDecisions, space: BankerSpace | None = None
                    ) -> PunterResponse:
    """The punter's best response (see the module doc) to the banker ``draws_for`` describes."""
    begin = time.perf_counter()
    check_rules(rules)
    if rules.buy_after_twist:
        raise NotImplementedError("the punter's best response is modelled with no buy after a twist")
    space = space or banker_space(rules)
    joint = JointChance.of(rules.num_decks)
    stake = min(max(rules.base_stake, rules.min_stake), rules.max_stake)
    tree = _Tree(rules, stake)
    starts: list[tuple[float, tuple[bool, int], tuple[int, ...]]] = []
    for a in range(NUM_VALUES):
        for b in range(a, NUM_VALUES):
            hidden = tuple((v == a) + (v == b) for v in range(NUM_VALUES))
            orders = 1.0 if a == b else 2.0
            if {a, b} == {ACE, TEN}:
                key = (HandKey(tuple(sorted((a, b))), hidden=0, stake=stake, original_stake=stake),)
                g = tree.g[punter_class(21, 2, True)]
                starts.append((orders, tree.row(key, hidden, g), hidden))
            else:
                starts.append((orders, tree.build(hidden, stake, 0, ()), hidden))
    observations = sorted(tree.obs, key=tree.obs.get)
    live = np.array([o[0][0] != "bust" for o in observations])
    draws = draws_for(observations, live)
    rows = _row_values(tree, draws, space, joint)
    value_of: dict[int, float] = {}
    choice: dict[tuple, Action] = {}
    for key in tree.order:  # a state's children are built (and listed) before it
        totals = [sum(rows[i] if is_row else value_of[i] for is_row, i in children)
                  for children in tree.nodes[key]]
        best = int(np.argmax(totals))
        value_of[tree.index[key]] = totals[best]
        choice[key] = tree.moves[key][best]
    total = sum(orders * (rows[i] if is_row else value_of[i]) for orders, (is_row, i), _ in starts)
    # a banker's Pontoon at the peek: every start loses as the payoff table says
    if rules.banker_peek:
        g, _ = payoff_matrices(rules, False)
        for orders, _, hidden in starts:
            pair = [v for v, c in enumerate(hidden) for _ in range(c)]
            pontoon = set(pair) == {ACE, TEN}
            cls = punter_class(21 if pontoon else _total(hidden)[0], 2, pontoon)
            chance = joint.chance(np.array([hidden]), space.pontoon_start[None, :])[0, 0]
            total += orders * space.pontoon_orders * chance * g[cls, PONTOON]
    return PunterResponse(float(total), stake, len(tree.nodes), len(observations),
                          time.perf_counter() - begin, choice)


__all__ = ["BankerDecisions", "PunterResponse", "ResponsePunter", "punter_response"]
