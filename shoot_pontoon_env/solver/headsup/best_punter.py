"""The punter's best response to a banker that may read the punter's box, heads-up: exact among the
plays it ranges over (below: the base stake, Shoot bets only when asked, each split hand deciding on its own
cards).

The banker is given by its decisions at each of its hands facing each observation ``O`` of the
punter's box (``banker_views.observation_draws`` asks any given banker, rule-based or trained, one
that reads the table included). The punter's hand is a tree of information states (``punter_tree``:
its hidden cards as value counts, its stake, its buys and its twisted cards in order, which the
banker sees); a state's value is the most, over its legal actions, of the sum over the next card of
the children's values, each finished hand's against the banker's decisions facing its observation.

Splits, where the rules allow them (``max_split_hands`` of 2 or more): the banker sees a split box
only as "the punter split" (``game_punter.split_observation``), so it is also asked facing that,
and a dealt pair's split is valued against those draws by ``split_response`` (each split hand's best
play on its own cards and the pair, at most two hands a box: the game every value of
``best_response`` is of); a pair is split where that is worth more than its best play, with the
chance that the pair may be split (ten-value cards split by rank need the same rank).

Restrictions (the value is the best over these plays; exact for them on the finite shoe): one
initial stake (``rules.base_stake`` within the stake limits); no Shoot bets unless ``punter_response``
is given ``totals`` (without them it costs nothing in the preset, whose one betting point is before the
deal, where a bet is worth -0.137 per chip: docs/RESULTS.md; with them, the punter bets at every point
of the rules, exact over every amount when the totals are ``shoot_totals.bet_totals``); no buy after a
twist; no resplits (a box holds at most two hands); each split
hand deciding on its own cards and its pair (the second hand could also read the first hand's
cards, which the punter has seen: a best response that did could be worth more); and bought cards
dealt face down (``game_punter.check_rules`` refuses ``buy_face_down=False``: the observation of a
hand takes its bought cards as hidden). The banker is asked as ``banker_views`` states (a banker of
``strategies`` once per total, softness, number of cards and observation, a trained one at every
hand of its cards; facing a split box, shown two split hands stuck on their face-down cards).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...actions import Action, ActionKind
from ...engine.view import HandView, SeatView
from ...rules import Rules
from ...players.policy import Policy, nearest_amount
from .banker_views import Decisions
from ..dealer import PONTOON
from .game_banker import BankerSpace, JointChance, banker_space
from .game_punter import HandKey, Observation, check_punter_response_rules, split_observation, value_index
from ..payoff import punter_class
from .punter_tree import PunterTree, best_actions, counts_total, offer_key, row_values, state_key
from ..space import ACE, NUM_VALUES, TEN
from .split_response import split_column, split_response

BankerDecisions = Callable[[list[Observation], np.ndarray], Decisions]
"""Given observations and which of them have a live hand, the banker's draws (level -> (n_m, n_O))."""


@dataclass
class PunterResponse:
    """The punter's best response (:func:`punter_response`): its value, its choices, and what its
    splits are worth (the value without them, each pair's split box)."""

    value: float
    """The punter's best expected net chips per unit of initial stake."""
    stake: int
    states: int
    """Information states of the punter's hand as dealt (a split hand's are in ``split_states``)."""
    observations: int
    seconds: float
    choice: dict[tuple, Action]
    """(hidden value counts, stake, buys, twisted values) -> the best action there (a dealt pair
    that is split: the best action if it may not be)."""
    splits: frozenset[int] = frozenset()
    """The values (indices) of the dealt pairs split, where the rules let them be."""
    split_choice: dict[tuple, Action] = field(default_factory=dict)
    """(pair value, hidden value counts, stake, buys, twisted values) -> a split hand's best action."""
    split_states: int = 0
    value_without_splits: float | None = None
    """The best value with no pair split (the same tree and banker, the split branch left out):
    what splitting adds is ``value - value_without_splits``."""
    split_values: tuple[float, ...] = ()
    """Per pair value (index): its split box, both hands played best, joint with the pair being dealt
    (``split_response.SplitResponse.value``); empty where the rules allow no split."""
    shoot_bets: bool = False
    """Whether the response bets the Shoot (``punter_response``'s ``totals``); the fields below are
    its bets, and ``splits``, ``split_choice`` and ``split_values`` are of a box with no bet riding."""
    deal_bet: int = 0
    """The Shoot bet before the deal."""
    second_card_bets: dict[int, int] = field(default_factory=dict)
    """First card's value (index) -> the Shoot bet before the second card."""
    splits_by_bet: frozenset[tuple[int, int]] = frozenset()
    """(pair value, Shoot bet riding) of the dealt pairs split."""
    split_choice_by_bet: dict[int, dict[tuple, Action]] = field(default_factory=dict)
    """The Shoot bet riding on the box -> ``split_choice`` of its split hands."""


def _hand_state(hand: HandView) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
    """(hidden value counts, stake, buys, twisted values) of an engine hand (its own cards in order:
    the dealt and bought ones, then the twisted ones, as no buy follows a twist)."""
    values = [value_index(c) for c in hand.cards]
    twisted = tuple(values[len(values) - hand.twists:]) if hand.twists else ()
    hidden = tuple(values[:len(values) - hand.twists].count(v) for v in range(NUM_VALUES))
    return hidden, hand.stake, hand.buys, twisted


class ResponsePunter(Policy):
    """Plays a :class:`PunterResponse` at an engine table: its stake and its Shoot bets (none where it
    bets none); it splits the pairs the response splits (never a split hand again: at most two hands a
    box). The response is of a new Shoot of ``initial_shoot`` each deal: at a table whose Shoot has
    grown or shrunk, an amount above the engine's room is cut to it, and a bet riding that the response
    never reaches (or an offer it had no room for) is played as at the nearest bet it does reach, an
    approximation of the response, not the response."""

    name = "best_response_punter"

    def __init__(self, response: PunterResponse) -> None:
        self.response = response
        self._bets: dict[int, dict[tuple, list[int]]] = {}
        """id of a choice table -> (state, offer?) -> the bets riding at which the table holds it."""

    def stake(self, view: SeatView, rng: np.random.Generator) -> Action:
        if any(m.low == 0 for m in view.legal):
            return Action(ActionKind.STAKE, 0)
        return Action(ActionKind.STAKE, self.response.stake)

    def shoot_bet(self, view: SeatView, rng: np.random.Generator) -> Action:
        response, hand = self.response, view.current_hand
        if not response.shoot_bets or hand is None:
            return Action(ActionKind.SHOOT_BET, 0)
        if view.shoot_bet_point == "before_deal":
            amount = response.deal_bet
        elif view.shoot_bet_point == "before_second_card":
            amount = response.second_card_bets.get(value_index(hand.cards[0]), 0)
        else:  # before the fourth card
            amount = self._choice(response.choice, _hand_state(hand), hand.shoot_bet, offer=True).amount
        return nearest_amount(view, ActionKind.SHOOT_BET, amount)

    def punter_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        assert hand is not None
        state = _hand_state(hand)
        response = self.response
        if hand.from_split:
            box_bet = sum(h.shoot_bet for h in view.hands if h.seat == hand.seat)  # one box a seat
            by_bet = response.split_choice_by_bet if response.shoot_bets else {0: response.split_choice}
            choice = by_bet[min(by_bet, key=lambda bet: abs(bet - box_bet))]
            return self._choice(choice, state, hand.shoot_bet, prefix=(value_index(hand.cards[0]),))
        hidden = state[0]
        riding = response.split_choice_by_bet or {0: {}}  # every bet riding the response splits at or not
        nearest = min(riding, key=lambda bet: abs(bet - hand.shoot_bet))
        splits = {a for a, bet in response.splits_by_bet if bet == nearest} if response.shoot_bets \
            else response.splits
        if (len(hand.cards) == 2 and max(hidden) == 2 and hidden.index(2) in splits
                and any(m.kind == ActionKind.SPLIT for m in view.legal)):
            return Action(ActionKind.SPLIT)
        return self._choice(response.choice, state, hand.shoot_bet)

    def _choice(self, table: dict[tuple, Action], state: tuple, bet: int, offer: bool = False,
                prefix: tuple = ()) -> Action:
        """``table``'s action at ``state`` with ``bet`` riding (at its offer before the fourth card
        where ``offer``), or at the nearest bet riding the table holds for that state."""
        key = (*prefix, *state_key(state, bet))
        key = offer_key(key) if offer else key
        if key in table:
            return table[key]
        index = self._bets.get(id(table))
        if index is None:
            index = self._bets[id(table)] = {}
            for k in table:
                is_offer = k[-1] == "offer"
                plain = k[:-1] if is_offer else k
                base, riding = (plain[:-1], plain[-1]) if len(plain) == len(prefix) + 5 else (plain, 0)
                index.setdefault((base, is_offer), []).append(riding)
        bets = index.get(((*prefix, *state), offer))
        if not bets:
            raise ValueError(f"{self.name}: the hand {state} is not a state of the response (rules other than "
                             f"the response's {self.response.stake}-chip stake and tree?)")
        nearest = min(bets, key=lambda b: abs(b - bet))
        key = (*prefix, *state_key(state, nearest))
        return table[offer_key(key) if offer else key]


def punter_response(rules: Rules, draws_for: BankerDecisions, space: BankerSpace | None = None,
                    totals: tuple[int, ...] | None = None) -> PunterResponse:
    """The punter's best response (see the module doc) to the banker ``draws_for`` describes.

    ``totals``: None, no Shoot bets (the restriction the module doc states); else the punter bets the
    Shoot at every betting point of ``rules``, bringing the bet riding on its hand to one of these
    totals, or raising it by all the Shoot has room for (``PunterTree.raises``;
    ``shoot_totals.bet_totals`` gives the totals at which this is the best over every amount)."""
    begin = time.perf_counter()
    betting = totals is not None
    check_punter_response_rules(rules, shoot_bets=betting)
    if rules.buy_after_twist:
        raise NotImplementedError("the punter's best response is modelled with no buy after a twist")
    space = space or banker_space(rules)
    joint = JointChance.of(rules)
    stake = min(max(rules.base_stake, rules.min_stake), rules.max_stake)
    tree = PunterTree(rules, stake, totals)
    points = rules.shoot_bet_points if betting and rules.shoot else ()
    deal_bets = tree.raises(0) if "before_deal" in points else [0]
    second = {b: tree.raises(b) if "before_second_card" in points else [0] for b in deal_bets}
    riding = sorted({b + a for b, amounts in second.items() for a in amounts})
    """Every bet riding on the hand as it is dealt (after the bets before the deal and the second card)."""
    starts = [start_node(tree, a, b, bet) for bet in riding for a in range(NUM_VALUES) for b in range(a, NUM_VALUES)]
    observations = sorted(tree.obs, key=tree.obs.get)
    live = [o[0][0] != "bust" for o in observations]
    splitting = rules.max_split_hands >= 2
    if splitting:  # the banker facing a split box of each bet: the last columns
        observations += [split_observation(stake, bet) for bet in riding]
        live += [True] * len(riding)
    draws = draws_for(observations, np.array(live))
    n_obs = len(tree.obs)
    rows = row_values(tree, {m: d[:, :n_obs] for m, d in draws.items()}, space, joint)
    value_of, choice = best_actions(tree, rows)
    split = {bet: split_response(rules, stake, split_column(draws, n_obs + j), space, joint, bet)
             for j, bet in enumerate(riding)} if splitting else {}
    peek = peek_losses(rules, tree, space, joint)
    dealt: dict[tuple[int, int, int], tuple[float, float]] = {}
    """(first, second, bet) -> the ordered start's value without and with its pair's split option."""
    splits = set()
    for (a, b, bet), (is_row, i) in zip(((a, b, bet) for bet in riding for a in range(NUM_VALUES)
                                          for b in range(a, NUM_VALUES)), starts):
        value = rows[i] if is_row else value_of[i]
        best = value
        if bet in split and a == b and split[bet].value[a] > value:
            splits.add((a, bet))
            best = value + split[bet].same_rank[a] * (split[bet].value[a] - value)
        lost = peek[a, b, 0] + peek[a, b, 1] * bet / stake
        dealt[a, b, bet] = dealt[b, a, bet] = (value + lost, best + lost)
    plain, _, _ = _best_bets(dealt, second, 0)
    total, deal_bet, second_bets = _best_bets(dealt, second, 1)
    return PunterResponse(
        float(total), stake, len(tree.nodes), len(observations), time.perf_counter() - begin, choice,
        frozenset(a for a, bet in splits if bet == 0), split[0].choice if split else {},
        sum(r.states for r in split.values()), value_without_splits=float(plain),
        split_values=tuple(split[0].value.tolist()) if split else (), shoot_bets=betting, deal_bet=deal_bet,
        second_card_bets=second_bets, splits_by_bet=frozenset(splits),
        split_choice_by_bet={bet: r.choice for bet, r in split.items()})


def box_observations(rules: Rules) -> tuple[list[Observation], np.ndarray]:
    """Every observation the banker may meet of the punter's box with no Shoot bet (the best response's
    tree and split box), and which have a live hand: what ``shoot_totals.probed_change_points`` asks
    the banker facing at every total."""
    stake = min(max(rules.base_stake, rules.min_stake), rules.max_stake)
    tree = PunterTree(rules, stake)
    for a in range(NUM_VALUES):
        for b in range(a, NUM_VALUES):
            start_node(tree, a, b, 0)
    observations = sorted(tree.obs, key=tree.obs.get)
    if rules.max_split_hands >= 2:
        observations.append(split_observation(stake))
    return observations, np.array([o[0][0] != "bust" for o in observations])


def start_node(tree: PunterTree, a: int, b: int, bet: int) -> tuple[bool, int]:
    """The state (or, for a Pontoon, the finished hand) of a start of values ``a`` and ``b`` with
    ``bet`` riding on it."""
    hidden = tuple((v == a) + (v == b) for v in range(NUM_VALUES))
    if {a, b} == {ACE, TEN}:
        key = (HandKey(tuple(sorted((a, b))), hidden=0, stake=tree.stake, original_stake=tree.stake,
                       shoot_bet=bet),)
        cls = punter_class(21, 2, True)
        return tree.row(key, hidden, tree.g[cls] + tree.h[cls] * bet / tree.stake)
    return tree.build(hidden, tree.stake, 0, (), bet)


def peek_losses(rules: Rules, tree: PunterTree, space: BankerSpace, joint: JointChance) -> np.ndarray:
    """(10, 10, 2): per ordered start, what a banker's Pontoon at the peek takes from it, joint with its
    chance: the stake part per unit stake and the Shoot part per chip of Shoot bet (0 without a peek)."""
    out = np.zeros((NUM_VALUES, NUM_VALUES, 2))
    if not rules.banker_peek:
        return out
    for a in range(NUM_VALUES):
        for b in range(NUM_VALUES):
            hidden = tuple((v == a) + (v == b) for v in range(NUM_VALUES))
            pontoon = {a, b} == {ACE, TEN}
            cls = punter_class(21 if pontoon else counts_total(hidden)[0], 2, pontoon)
            chance = joint.chance(np.array([hidden]), space.pontoon_start[None, :])[0, 0]
            out[a, b] = space.pontoon_orders * chance * np.array([tree.g[cls, PONTOON], tree.h[cls, PONTOON]])
    return out


def _best_bets(dealt: dict[tuple[int, int, int], tuple[float, float]], second: dict[int, list[int]],
               which: int) -> tuple[float, int, dict[int, int]]:
    """The best Shoot bets before the deal and before the second card (by the first card's value),
    given each ordered start's value at each bet riding (``which``: 0 without splits, 1 with): the
    value, the bet before the deal, and the bet before the second card by the first card (the least
    amount on ties)."""
    best: tuple[float, int, dict[int, int]] | None = None
    for bet, amounts in second.items():  # ascending
        value, by_first = 0.0, {}
        for a in range(NUM_VALUES):
            sums = [sum(dealt[a, b, bet + extra][which] for b in range(NUM_VALUES)) for extra in amounts]
            k = int(np.argmax(sums))
            value += sums[k]
            by_first[a] = amounts[k]
        if best is None or value > best[0]:
            best = (value, bet, by_first)
    assert best is not None
    return best


__all__ = ["BankerDecisions", "PunterResponse", "ResponsePunter", "box_observations", "peek_losses",
           "punter_response", "start_node"]
