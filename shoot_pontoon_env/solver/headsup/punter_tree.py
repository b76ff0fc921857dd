"""One punter hand as a tree of information states, and its finished hands' values against a banker
given by its decisions per observation: what ``best_punter`` (the hand as dealt),
``split_response`` (a split hand) and ``equilibrium_game`` build on.

A state is the hand's hidden cards (the two dealt and the bought ones, as value counts: their order
changes nothing that follows), its stake, its buys and its twisted cards in order (the banker sees
those); where the tree models Shoot bets (``totals``), also the Shoot bet riding on the hand, and a
hand of three cards meets the bet before the fourth card first, a state of its own whose actions are
the amounts (:meth:`PunterTree.raises`). A finished hand is a row ``(O, K, W)``: the observation ``O`` the banker meets, the value
counts ``K`` of the cards dealt (the punter's, and any other card known to be out of the shoe) and
the payoff ``W`` per banker outcome. Its value against the banker is, with ``n_O(b)`` the ordered
lines of play by which the banker reaches hand ``b`` and stands there facing ``O``,

    L(O, K) = sum_b n_O(b) chance(K, b) W[outcome(b)],

joint with the chance of the cards, so a state's value is the most, over its legal actions, of the
sum of its children's values, and the maxima compare like conditional expectations (all children of
a state share its chance).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...actions import Action, ActionKind
from ...cards import FIVE_CARDS, best_total
from ...engine.table import buy_range
from ...rules import Rules
from .banker_views import Decisions
from .best_banker import banker_hand_chances, parent_hands
from ..dealer import NUM_OUTCOMES
from .game_banker import BankerSpace, JointChance
from .game_punter import HandKey, Observation, cards_of_counts
from ..payoff import bust_payoff, payoff_matrices, punter_row
from ..space import NUM_VALUES

ROW_CHUNK = 1000
"""Finished hands per chunk of :func:`row_values` (memory: a few arrays of (rows, banker hands of
every level), about 18 MB each on the preset)."""


def bust_observation(stake: int, shoot_bet: int = 0) -> Observation:
    """A bust hand of this stake (and Shoot bet): the banker does not play, so one observation per
    stake and bet serves."""
    return (("bust", stake),) if shoot_bet == 0 else (("bust", stake, shoot_bet),)


@lru_cache(maxsize=1 << 18)
def hand_counts(hidden: tuple[int, ...], twists: tuple[int, ...]) -> tuple[int, ...]:
    """The value counts of a hand's cards: its hidden ones' counts and its twisted values (remembered:
    a tree asks it of the same tens of thousands of hands millions of times)."""
    return tuple(h + twists.count(v) for v, h in enumerate(hidden))


@lru_cache(maxsize=1 << 16)
def counts_total(counts: tuple[int, ...]) -> tuple[int, bool]:
    """(best total, soft) of value counts: ``cards.best_total``, the one hand valuation (remembered:
    a tree asks it of the same few thousand hands hundreds of thousands of times)."""
    return best_total(cards_of_counts(counts))


class PunterTree:
    """The punter's information states and finished hands (``rows``), built once.

    ``totals``: None (the default), no Shoot bets modelled; else a hand of three cards is offered a
    Shoot bet where the rules have that point, of the amounts of :meth:`raises` (nothing, all the
    Shoot has room for, and whatever brings the bet to one of ``totals``: ``shoot_totals.bet_totals``). A state's key is (hidden, stake, buys, twists), with the bet riding on the
    hand after them where there is one (:func:`state_key`); an offer's is :func:`offer_key`."""

    def __init__(self, rules: Rules, stake: int, totals: tuple[int, ...] | None = None) -> None:
        self.rules = rules
        self.stake = stake
        self.totals = tuple(sorted(totals or ()))
        self.g, self.h = payoff_matrices(rules, False)
        self.bust_g, self.bust_h = bust_payoff(rules)
        self.offers = totals is not None and rules.shoot and "before_fourth_card" in rules.shoot_bet_points
        """Whether a hand of three cards is offered a Shoot bet before its fourth card."""
        self.obs: dict[Observation, int] = {}
        self.rows: dict[tuple[int, tuple[int, ...]], int] = {}
        self.row_payoff: list[np.ndarray] = []
        self.nodes: dict[tuple, list[list[tuple[bool, int]]]] = {}
        """state -> actions -> children as (is_row, index): ``is_row`` a finished hand, else a state."""
        self.index: dict[tuple, int] = {}
        self.order: list[tuple] = []
        self.moves: dict[tuple, list[Action]] = {}
        """state -> the action of each entry of ``nodes[state]``."""
        self.reached: dict[tuple, tuple[bool, int]] = {}
        """(hidden, stake, buys, twists, bet) -> what :meth:`_after` gave (a hand is reached by many lines)."""

    @staticmethod
    def key(hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bet: int) -> tuple:
        """A state's key: (hidden, stake, buys, twists), and the Shoot bet riding on the hand where
        there is one (:func:`state_key`)."""
        return state_key((hidden, stake, buys, twists), bet)

    def row(self, observation: Observation, counts: tuple[int, ...], payoff: np.ndarray) -> tuple[bool, int]:
        o = self.obs.setdefault(observation, len(self.obs))
        key = (o, counts)
        if key not in self.rows:
            self.rows[key] = len(self.rows)
            self.row_payoff.append(payoff)
        return True, self.rows[key]

    def finished(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bust: bool,
                 bet: int = 0) -> tuple[bool, int]:
        """The row of a hand that stands (stuck, a 21 that may not draw, a Five Card Trick) or is bust."""
        counts = hand_counts(hidden, twists)
        ncards = sum(counts)
        total, _ = counts_total(counts)
        unit = self.stake
        if bust:
            return self.row(bust_observation(stake, bet), counts,
                            np.full(NUM_OUTCOMES, (self.bust_g * stake + self.bust_h * bet) / unit))
        shown = ncards >= FIVE_CARDS
        visible = tuple(sorted(v for v, c in enumerate(counts) for _ in range(c))) if shown else twists
        key = HandKey(visible, hidden=0 if shown else 2 + buys, stake=stake, original_stake=self.stake,
                      shoot_bet=bet, buys=buys, twists=len(twists))
        cls = punter_row(total, ncards, False)
        return self.row((key,), counts, (self.g[cls] * stake + self.h[cls] * bet) / unit)

    def build(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bet: int = 0
              ) -> tuple[bool, int]:
        """The state of a hand that decides now (its children built first)."""
        key = self.key(hidden, stake, buys, twists, bet)
        if key in self.nodes:
            return False, self.index[key]
        rules = self.rules
        counts = hand_counts(hidden, twists)
        ncards = sum(counts)
        total, soft = counts_total(counts)
        actions: list[list[tuple[bool, int]]] = []
        moves: list[Action] = []
        if total >= rules.stick_minimum:
            actions.append([self.finished(hidden, stake, buys, twists, False, bet)])
            moves.append(Action(ActionKind.STICK))
        if ncards < FIVE_CARDS and rules.may_draw_on(total, soft):
            actions.append([self._after(hidden, stake, buys, twists + (v,), bet) for v in range(NUM_VALUES)])
            moves.append(Action(ActionKind.TWIST))
            low, high = self._buy_range(stake, buys, twists)
            bought = [tuple(h + (v == u) for u, h in enumerate(hidden)) for v in range(NUM_VALUES)]
            for amount in range(low, high + 1):
                actions.append([self._after(cards, stake + amount, buys + 1, twists, bet) for cards in bought])
                moves.append(Action(ActionKind.BUY, amount))
        if not actions:  # cannot happen: a hand that may not draw stands on 15 or more
            raise AssertionError(f"no legal action at {key}")
        return self.node(key, actions, moves)

    def node(self, key: tuple, actions: list[list[tuple[bool, int]]], moves: list[Action]) -> tuple[bool, int]:
        """A state of this key, its actions' children and the actions (built after its children)."""
        self.nodes[key] = actions
        self.moves[key] = moves
        self.index[key] = len(self.index)
        self.order.append(key)
        return False, self.index[key]

    def _after(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bet: int = 0
               ) -> tuple[bool, int]:
        """``Table._after_card``: bust, Five Card Trick, the Shoot bet before the fourth card, or a
        decision."""
        key = (hidden, stake, buys, twists, bet)
        node = self.reached.get(key)
        if node is None:
            counts = hand_counts(hidden, twists)
            total, soft = counts_total(counts)
            if total > 21:
                node = self.finished(hidden, stake, buys, twists, True, bet)
            elif sum(counts) >= FIVE_CARDS or self.stands(counts):
                node = self.finished(hidden, stake, buys, twists, False, bet)
            elif (self.offers and sum(counts) == 3 and self.capacity(bet) > 0
                  and self.rules.may_draw_on(total, soft)):  # a 21 that may not draw is done: no offer
                node = self._offer(hidden, stake, buys, twists, bet)
            else:
                node = self.build(hidden, stake, buys, twists, bet)
            self.reached[key] = node
        return node

    def _offer(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bet: int
               ) -> tuple[bool, int]:
        """``Table._fourth_card_bet_due``: the Shoot bet offered to a hand of three cards, each amount
        of :meth:`raises` an action (the least first, so ties keep the smaller bet)."""
        amounts = self.raises(bet)
        actions = [[self.build(hidden, stake, buys, twists, bet + a)] for a in amounts]
        return self.node(offer_key(self.key(hidden, stake, buys, twists, bet)), actions,
                          [Action(ActionKind.SHOOT_BET, a) for a in amounts])

    def capacity(self, bet: int) -> int:
        """``Table.shoot_capacity`` with this bet riding on the punter's one hand: the Shoot of
        ``initial_shoot`` less the bet, within ``max_shoot_bet``."""
        room = self.rules.initial_shoot - bet
        if self.rules.max_shoot_bet is not None:
            room = min(room, self.rules.max_shoot_bet)
        return max(room, 0)

    def raises(self, bet: int) -> list[int]:
        """The Shoot bets the tree offers a hand with ``bet`` riding: nothing, the whole capacity, and
        every amount bringing the total to one of ``totals`` within it (ascending)."""
        cap = self.capacity(bet)
        return sorted({0, cap} | {t - bet for t in self.totals if bet < t <= bet + cap})

    def stands(self, counts: tuple[int, ...]) -> bool:
        """A hand of these cards that stands as dealt, before five cards (none here: a dealt Pontoon
        is a start, not a state)."""
        return False

    def _buy_range(self, stake: int, buys: int, twists: tuple[int, ...]) -> tuple[int, int]:
        """``Table``'s buy range for a hand of this stake, buys and twists (fewer than five cards)."""
        return buy_range(self.rules, 0, buys, len(twists), self.stake, stake)


def state_key(state: tuple, bet: int) -> tuple:
    """A state (hidden, stake, buys, twists) with ``bet`` riding on its hand, as trees key it: the
    Shoot bet appended where it is not 0 (so a tree without Shoot bets keys its states as before)."""
    return (*state, bet) if bet else state


def offer_key(state: tuple) -> tuple:
    """The key of the Shoot bet offered before the fourth card to the hand of state key ``state``."""
    return (*state, "offer")


def row_values(tree: PunterTree, draws: Decisions, space: BankerSpace, joint: JointChance) -> np.ndarray:
    """``L(O, K)`` of every finished hand of ``tree`` against ``draws`` (level -> (n_m, n_O) with a
    column per observation of the tree, in its order; bool, or a mixed banker's chances of drawing).
    A bust box's rows: the banker's lines from a start add up to the start's chance whatever it does.

    A row's chances depend on its value counts only, and about one row in ten has counts of its own:
    the chances are found once per value counts (``best_banker.banker_hand_chances``, the rows taken
    in order of their counts), and each row's sum over banker hands is taken per outcome first (a
    product with one column per outcome), then weighed by its payoffs."""
    keys = sorted(tree.rows, key=tree.rows.get)
    obs = np.array([o for o, _ in keys], dtype=np.int64)
    unique, which = np.unique(np.array([c for _, c in keys], dtype=np.int64), axis=0, return_inverse=True)
    which = which.reshape(-1)
    payoff = np.array(tree.row_payoff)
    stand = standing(draws, space, len(tree.obs))
    outcome = np.concatenate([space.levels[m].outcome for m in sorted(space.levels)])
    by_outcome = (outcome[:, None] == np.arange(NUM_OUTCOMES)[None, :]).astype(np.float64)
    parents = parent_hands(space)
    values = np.zeros(len(keys))
    order = np.argsort(which, kind="stable")  # a chunk's rows share few value counts
    for r0 in range(0, len(order), ROW_CHUNK):
        rows = order[r0:r0 + ROW_CHUNK]
        first = int(which[rows[0]])
        cards = unique[first:int(which[rows[-1]]) + 1]
        chance = np.hstack([c.T for _, c in banker_hand_chances(cards, space, joint, parents)])
        lines = (chance[which[rows] - first] * stand[obs[rows]]) @ by_outcome  # (row, outcome)
        values[rows] = (lines * payoff[rows]).sum(axis=1)
    return values


def standing(draws: Decisions, space: BankerSpace, n_obs: int) -> np.ndarray:
    """(observations, banker hands of every level in order): the ordered lines of play by which the
    banker reaches each hand and stands there, facing each observation (forward, level by level; a
    row per observation, as :func:`row_values` reads them)."""
    sizes = [len(space.levels[m].values) for m in sorted(space.levels)]
    out = np.empty((n_obs, sum(sizes)))
    reach = np.repeat(space.start[:, None].astype(np.float64), n_obs, axis=1)
    at = 0
    for m, size in zip(sorted(space.levels), sizes):
        lv = space.levels[m]
        if draws[m].dtype == bool:
            twist = draws[m] & lv.can_draw[:, None]
            out[:, at:at + size] = (reach * ~twist).T
        else:  # a mixed banker: the chance it draws
            twist = draws[m] * lv.can_draw[:, None]
            out[:, at:at + size] = (reach * (1.0 - twist)).T
        at += size
        if m + 1 in space.levels:
            nxt = np.zeros((len(space.levels[m + 1].values), n_obs))
            moving = reach * twist
            for v in range(lv.child.shape[1]):
                ok = lv.child[:, v] >= 0
                nxt[lv.child[ok, v]] += moving[ok]  # one more v leads distinct hands to distinct hands
            reach = nxt
    return out


def best_actions(tree: PunterTree, rows: np.ndarray) -> tuple[dict[int, float], dict[tuple, Action]]:
    """Backward induction: each state's best value (by its index) and best action (by its key); the
    first best on ties (stick, then twist, then the buys from the least)."""
    value_of: dict[int, float] = {}
    choice: dict[tuple, Action] = {}
    for key in tree.order:  # a state's children are built (and listed) before it
        totals = [sum(rows[i] if is_row else value_of[i] for is_row, i in children)
                  for children in tree.nodes[key]]
        best = int(np.argmax(totals))
        value_of[tree.index[key]] = totals[best]
        choice[key] = tree.moves[key][best]
    return value_of, choice


__all__ = ["PunterTree", "best_actions", "bust_observation", "counts_total", "hand_counts", "offer_key", "row_values",
           "state_key"]
