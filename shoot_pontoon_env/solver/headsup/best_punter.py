"""The punter's best response to a banker that may read the punter's box, heads-up: exact among the
plays it ranges over (below: the base stake, no Shoot bets, each split hand deciding on its own cards).

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
initial stake (``rules.base_stake`` within the stake limits); no Shoot bets (which costs nothing in
the preset, whose one betting point is before the deal, where a bet is worth -0.137 per chip:
docs/RESULTS.md); no buy after a twist; no resplits (a box holds at most two hands); each split
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
from ...players.policy import Policy
from .banker_views import Decisions
from ..dealer import PONTOON
from .game_banker import BankerSpace, JointChance, banker_space
from .game_punter import HandKey, Observation, check_punter_response_rules, split_observation, value_index
from ..payoff import payoff_matrices, punter_class
from .punter_tree import PunterTree, best_actions, counts_total, row_values
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


def _hand_state(hand: HandView) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
    """(hidden value counts, stake, buys, twisted values) of an engine hand (its own cards in order:
    the dealt and bought ones, then the twisted ones, as no buy follows a twist)."""
    values = [value_index(c) for c in hand.cards]
    twisted = tuple(values[len(values) - hand.twists:]) if hand.twists else ()
    hidden = tuple(values[:len(values) - hand.twists].count(v) for v in range(NUM_VALUES))
    return hidden, hand.stake, hand.buys, twisted


class ResponsePunter(Policy):
    """Plays a :class:`PunterResponse` at an engine table: its stake, no Shoot bets; it splits the
    pairs the response splits (never a split hand again: at most two hands a box)."""

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
        state = _hand_state(hand)
        if hand.from_split:
            return self.response.split_choice[(value_index(hand.cards[0]), *state)]
        hidden = state[0]
        if (len(hand.cards) == 2 and max(hidden) == 2 and hidden.index(2) in self.response.splits
                and any(m.kind == ActionKind.SPLIT for m in view.legal)):
            return Action(ActionKind.SPLIT)
        return self.response.choice[state]


def punter_response(rules: Rules, draws_for: BankerDecisions, space: BankerSpace | None = None
                    ) -> PunterResponse:
    """The punter's best response (see the module doc) to the banker ``draws_for`` describes."""
    begin = time.perf_counter()
    check_punter_response_rules(rules)
    if rules.buy_after_twist:
        raise NotImplementedError("the punter's best response is modelled with no buy after a twist")
    space = space or banker_space(rules)
    joint = JointChance.of(rules)
    stake = min(max(rules.base_stake, rules.min_stake), rules.max_stake)
    tree = PunterTree(rules, stake)
    starts: list[tuple[float, tuple[bool, int], tuple[int, ...], int | None]] = []
    for a in range(NUM_VALUES):
        for b in range(a, NUM_VALUES):
            hidden = tuple((v == a) + (v == b) for v in range(NUM_VALUES))
            orders = 1.0 if a == b else 2.0
            pair = a if a == b else None
            if {a, b} == {ACE, TEN}:
                key = (HandKey(tuple(sorted((a, b))), hidden=0, stake=stake, original_stake=stake),)
                g = tree.g[punter_class(21, 2, True)]
                starts.append((orders, tree.row(key, hidden, g), hidden, pair))
            else:
                starts.append((orders, tree.build(hidden, stake, 0, ()), hidden, pair))
    observations = sorted(tree.obs, key=tree.obs.get)
    live = [o[0][0] != "bust" for o in observations]
    splitting = rules.max_split_hands >= 2
    if splitting:  # the banker facing a split box: the last column
        observations.append(split_observation(stake))
        live.append(True)
    draws = draws_for(observations, np.array(live))
    n_obs = len(tree.obs)
    rows = row_values(tree, {m: d[:, :n_obs] for m, d in draws.items()}, space, joint)
    value_of, choice = best_actions(tree, rows)
    split = split_response(rules, stake, split_column(draws, n_obs), space, joint) if splitting else None
    total = plain = 0.0
    splits = set()
    for orders, (is_row, i), _, pair in starts:
        value = rows[i] if is_row else value_of[i]
        plain += orders * value
        if split is not None and pair is not None and split.value[pair] > value:
            splits.add(pair)
            value += split.same_rank[pair] * (split.value[pair] - value)
        total += orders * value
    # a banker's Pontoon at the peek: every start loses as the payoff table says
    peek = 0.0
    if rules.banker_peek:
        g, _ = payoff_matrices(rules, False)
        for orders, _, hidden, _ in starts:
            pair_values = [v for v, c in enumerate(hidden) for _ in range(c)]
            pontoon = set(pair_values) == {ACE, TEN}
            cls = punter_class(21 if pontoon else counts_total(hidden)[0], 2, pontoon)
            chance = joint.chance(np.array([hidden]), space.pontoon_start[None, :])[0, 0]
            peek += orders * space.pontoon_orders * chance * g[cls, PONTOON]
    return PunterResponse(
        float(total + peek), stake, len(tree.nodes), len(observations), time.perf_counter() - begin, choice,
        frozenset(splits), split.choice if split else {}, split.states if split else 0,
        value_without_splits=float(plain + peek), split_values=tuple(split.value.tolist()) if split else ())


__all__ = ["BankerDecisions", "PunterResponse", "ResponsePunter", "punter_response"]
