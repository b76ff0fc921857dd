"""The punter's side of heads-up play: every way a punter policy can play its box, as weighted rows.

The banker's best response and the value of a (punter, banker) pair both need, for every public
observation ``O`` the banker may see of the punter's box (per hand: its face-up cards, how many are
face down, its stake, buys, twists, and whether it is split, stuck, bust, a Pontoon or a Five Card
Trick), every hidden completion of it with its weight. This module plays the punter's box on card
*values* through a small mirror of the engine's hand flow (``Table._hand_moves``, ``_buy_range``,
``_can_split``, ``_after_card``, ``_next_hand``), asking the punter policy at each decision through a
:class:`SeatView`, so any :class:`Policy` plays.

A row is ``(O, K, W)``: ``K`` the value counts of all the punter's cards, ``W[j]`` the punter's net
chips per unit of initial stake against banker outcome ``j`` (``dealer.NUM_OUTCOMES``), summed over
the punter's card orders and policy branches that give that ``(O, K)``, each times its policy (and
rank) probability. The chance of the cards themselves is left to the banker side
(``game_banker.JointChance``): the chance of a whole deal depends only on the multiset of values dealt.

Ten-value ranks: a pair of ten-value cards may be split only when the ranks are equal (``split_match
= "rank"``). The rows carry values only; where a split's legality depends on a ten's rank, the
enumeration branches on "same rank as the pair" with its exact chance given the punter's earlier
ten-value cards of known rank (the other tens' ranks are averaged out: given every card's value, the
ranks of the ten-value positions are a uniform random assignment of the shoe's tens).

Split boxes (approximated; about 2% of deals for ``tips``; the effect of the missing resplits is
measured by a paired Monte Carlo in tests/solver/test_best_response.py):

- the banker's observation of every split box of a stake and Shoot bet is one,
  :func:`split_observation`: "the punter split" (it does not read the split hands' face-up cards,
  buys or busts), and a banker that reads the table is asked facing it with the split box it meets
  most, two split hands stuck on their two face-down cards (``banker_views.split_box_views``);
- no resplits: a box has at most two hands (the policy is not offered a third); ``best_response``
  solves the punter's best response under the same cap, so every value it reports is of this game;
- each split hand's plays are enumerated on their own and the two combined as independent: exact
  for a policy that decides on the current hand only (every rule-based punter and the solver's
  optimum), not for one that looks at the other split hand's cards.

Shoot bets: at each of the rules' betting points, as the engine offers them (before the deal; before
the second card, on the first card's value; before the fourth card, on a hand of three cards not yet
offered one, where the Shoot has room), each answer of a mixed policy a branch with its chance. The bets ride on the hand (``HandKey.shoot_bet``, a
split box's total), so the banker's observation shows them, and pay ``h`` of ``payoff_matrices``.
Before the second card a ten-value first card is asked at each ten-value rank, the answers weighed by
the rank's share of the pack's ten-value cards (``_ranks_of``): exact for a policy that reads the
ranks there (a trained network sees the ranks dealt) as for one that reads values. Every other
decision is asked with one card standing for each value (a ten-value card as the Ten, or the King of
a possible pair), so a policy that reads ranks after its first card is valued as so asked.

Assumes (checked by :func:`check_rules`): one punter box, no Double Stakes, no up card, no special
Pontoons, no bet before the fourth card where a box may split, no reserved Shoot, bought cards dealt
face down (``buy_face_down``; the observation takes every bought card as hidden).

The policy's :class:`SeatView` is filled as the engine's ``seat_view`` fills it on a table reshuffled
every deal, a new Shoot of ``initial_shoot`` in play (or, given ``shoot``, a bank whose Shoot is that
many chips: ``solver/session``): ``shoe_size`` is the whole shoe,
``shoot_capacity`` the Shoot less the Shoot bets outstanding (within ``max_shoot_bet``),
``balance`` :data:`STARTING_CHIPS` less the box's stakes and Shoot bet (the engine's depends on the
session's history: a deal at a new table shows this).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...actions import Action, ActionKind, LegalMove
from ...cards import HandClass, best_total
from ...engine.hand import Hand
from ...engine.settlement import hand_rank
from ...engine.table import Phase, buy_range
from ...engine.view import HandView, SeatView, seen_cards
from ...rules import Rules
from ...players.policy import Policy
from ..dealer import NUM_OUTCOMES, PONTOON
from ..payoff import bust_payoff, payoff_matrices, punter_class, punter_row
from ..space import NUM_VALUES, TEN

PUNTER_SEAT = 1
BANKER_SEAT = 0
_PAIR_TEN = 12 * 4
"""Card int of a ten-value card of the pair's rank (a King)."""
_OTHER_TEN = 11 * 4
"""Card int of a ten-value card known not to be of the pair's rank (a Queen)."""

STARTING_CHIPS = 1000
"""Every seat's chips before the deal (the Table's default). A view's ``balance`` is these less what
the seat has put on the table this deal, as the engine's view shows it; a trained player reads it (its
flat observation holds the balance less its starting chips), so it is built with these
(``shoot_pontoon_env.solver.__main__``)."""

PunterPolicy = Callable[[SeatView], Mapping[Action, float]]
"""A punter policy: the chance of each action given the punter's view (its own cards, stakes)."""

class HandKey(NamedTuple):
    """One hand as the banker sees it (a tuple: equal to, and hashed as, the plain tuple of its
    fields). The one constructor of the observation of a hand (``hand_key``, ``best_punter``)."""

    visible: tuple[int, ...]
    """The face-up values (ascending where no card is hidden)."""
    hidden: int
    stake: int
    original_stake: int
    shoot_bet: int = 0
    buys: int = 0
    twists: int = 0
    doubled: bool = False
    from_split: bool = False
    done: bool = True
    settled: bool = False
    bust: bool = False


Observation = tuple
"""What the banker sees of the punter's box: a tuple of :data:`HandKey`."""


def strategy_policy(strategy: Policy, seed: int = 0) -> PunterPolicy:
    """A rule-based :class:`Policy` as a punter policy: the one action it answers (it is asked
    with a fixed Generator, so a strategy must not play at random for the result to be exact)."""

    def policy(view: SeatView) -> Mapping[Action, float]:
        return {strategy.act(view, np.random.default_rng(seed)): 1.0}

    return policy


def punter_balance(hands) -> int:
    """The punter's balance in a view: :data:`STARTING_CHIPS` less its stakes and Shoot bets (of the
    box's ``Hand`` or ``HandView`` objects)."""
    return STARTING_CHIPS - sum(h.stake + h.shoot_bet for h in hands)


def check_rules(rules: Rules) -> None:
    """Raise NotImplementedError for rules this heads-up model does not cover."""
    problems = []
    if rules.banker_play != "free":
        problems.append("banker_play must be 'free' (a dealer has no decisions)")
    if rules.max_boxes != 1:
        problems.append("max_boxes must be 1")
    if rules.double_stakes:
        problems.append("double_stakes is not modelled")
    if rules.dealer_shows_first_card:
        problems.append("dealer_shows_first_card is not modelled")
    if rules.special_pontoons:
        problems.append("special_pontoons are not modelled")
    if "before_fourth_card" in rules.shoot_bet_points and rules.max_split_hands > 1:
        problems.append("a Shoot bet before the fourth card is modelled without splits only (max_split_hands=1)")
    if not rules.banker_stops_at_five:
        problems.append("banker_five_cards='draw_on' is not modelled")
    if rules.shoe != "reshuffle":
        problems.append("only a shoe reshuffled every deal is modelled")
    if rules.reserved_shoot_percent:
        problems.append("reserved_shoot_percent must be 0 (the model's views show the whole Shoot of "
                        "initial_shoot in play, and a reserve jackpot is not modelled)")
    if not rules.buy_face_down:
        problems.append("buy_face_down must be True (bought cards dealt face up are not modelled)")
    if problems:
        raise NotImplementedError(f"heads-up game of rules {rules.name!r}: " + "; ".join(problems))


def check_punter_response_rules(rules: Rules, shoot_bets: bool = False) -> None:
    """Refuse rules the punter's best response does not model. Without ``shoot_bets`` it bets no Shoot,
    so rules whose Shoot bets come after the deal starts are refused (``pair_value`` and
    ``banker_best_response`` take them); with them it bets at every point of the rules."""
    check_rules(rules)
    later = [p for p in rules.shoot_bet_points if p != "before_deal"] if rules.shoot else []
    if later and not shoot_bets:
        raise NotImplementedError(f"heads-up game of rules {rules.name!r}: the punter's best response without "
                                  f"Shoot bets does not model the points {later} (ask for it with Shoot bets: "
                                  "--shoot-bets)")
    if shoot_bets and not (rules.shoot and rules.shoot_bet_points):
        raise NotImplementedError(f"heads-up game of rules {rules.name!r}: Shoot bets asked for, but the rules "
                                  "have no Shoot betting point")


def shoot_capacity(rules: Rules, shoot: int, hands) -> int:
    """``Table.shoot_capacity``: the Shoot less the Shoot bets of unsettled hands, within
    ``max_shoot_bet``, at least 0 (``hands``: engine hands or hand views)."""
    capacity = shoot - sum(h.shoot_bet for h in hands if not h.settled)
    if rules.max_shoot_bet is not None:
        capacity = min(capacity, rules.max_shoot_bet)
    return max(capacity, 0)


def cards_of_counts(counts) -> list[int]:
    """Card ints standing for value counts (for ``cards.best_total``)."""
    return [card_of(v) for v, c in enumerate(counts) for _ in range(c)]


def card_of(value: int) -> int:
    """The card int standing for a value index (a ten-value card as the Ten)."""
    return value * 4


def value_index(card: int) -> int:
    """The value index of a card int (a ten-value card as the Ten): the one place a card becomes a
    value, as the model's views and the players asked through them read it."""
    return min(card // 4, TEN)


def hand_key(h: HandView) -> HandKey:
    """The banker's view of one hand, on values (so two observations that differ only in the ranks
    of ten-value cards are one). A hand shown whole (a Pontoon, a Five Card Trick, a bust) is its
    values in ascending order: with no card hidden, their order tells the banker nothing its
    decision can use (its chances and payoffs depend on the multiset)."""
    values = tuple(value_index(c) for c in h.cards)
    if h.hidden_cards == 0:
        values = tuple(sorted(values))
    return HandKey(values, h.hidden_cards, h.stake, h.original_stake, h.shoot_bet,
                   h.buys, h.twists, h.doubled, h.from_split, h.done, h.settled, h.bust)


def split_observation(stake: int, shoot_bet: int = 0) -> Observation:
    """Every split box of this original stake and Shoot bet (on the box's first hand), as one
    observation (see the module doc)."""
    return (("split", stake, shoot_bet),)


def is_split_observation(observation: Observation) -> bool:
    """Whether an observation is a split box's (:func:`split_observation`, of any stake and Shoot bet):
    the banker is shown such a box as :func:`~.banker_views.split_box_views`, not by its hands."""
    return bool(observation) and observation[0][0] == "split"


def observation_of(hands: tuple[HandView, ...], split_detail: bool = False) -> Observation:
    """The :data:`Observation` of a banker's ``SeatView.hands`` (engine or mirror); a split box is
    its :func:`split_observation`, or with ``split_detail`` its hands."""
    if not split_detail and any(h.from_split for h in hands):
        return split_observation(hands[0].original_stake, sum(h.shoot_bet for h in hands))
    return tuple(hand_key(h) for h in hands)


@dataclass
class PunterRows:
    """Every (observation, card counts) a punter policy reaches, with its payoff rows."""

    rules: Rules
    stake: int
    """The policy's initial stake (chips): the unit of every value."""
    shoot_bet: int
    """The Shoot bet before the deal (the likeliest, where the policy mixes)."""
    observations: list[Observation]
    obs_index: np.ndarray
    """(R,) the row's observation, rows sorted by it."""
    counts: np.ndarray
    """(R, 10) int: value counts of the punter's cards."""
    payoff: np.ndarray
    """(R, NUM_OUTCOMES): policy-weighted net chips per unit of initial stake, by banker outcome."""
    all_settled: np.ndarray
    """(n_O,) bool: every hand bust, so the banker does not play."""
    peek_counts: np.ndarray
    """(100, 10): the two first cards of each ordered start."""
    peek_payoff: np.ndarray
    """(100,): net chips per unit stake of that start against a banker's Pontoon at the peek."""
    shoot: int | None = None
    """The Shoot in play the views showed (None: the rules' ``initial_shoot``, a new Shoot)."""
    mass: np.ndarray | None = None
    """(R,) the policy's chance of the row's plays summed over its card orders (the weight ``payoff`` is
    scaled by), so that ``sum_r mass_r * JointChance.chance(K_r, nothing) = 1``; the whole table's rows
    (``solver/whole_table``) are products of the boxes' rows. None where rows were merged (``equilibrium``)."""


class ShootOutcome(NamedTuple):
    """Rows of an indicator instead of chips (``punter_rows(outcomes=...)``): 1 where the box's Shoot bet
    totals ``bet`` chips and settles with ``result`` for the punter (+1 the Shoot pays it, -1 the Shoot
    takes it), else 0. The per-deal law of the Shoot (``deal_law``) is the value of such rows."""

    result: int
    bet: int

    def of(self, h: np.ndarray | float, shoot_bet: int) -> np.ndarray | float:
        """The indicator for a hand whose Shoot result per chip is ``h`` (by banker outcome)."""
        return (np.asarray(h) == self.result) * float(shoot_bet == self.bet)


class _Mirror:
    """The engine's flow of one punter box, on cards standing for values (see the module doc)."""

    def __init__(self, rules: Rules, policy: PunterPolicy, outcomes: tuple[ShootOutcome, ...] = (),
                 shoot: int | None = None, split_detail: bool = False) -> None:
        self.rules = rules
        self.split_detail = split_detail
        self.policy = policy
        self.shoot = shoot_in_play(rules, shoot)
        self.outcomes = outcomes
        self.width = NUM_OUTCOMES * max(len(outcomes), 1)
        """A row's length: the payoff by banker outcome, once per indicator where there are ``outcomes``."""
        self.g = {s: payoff_matrices(rules, s) for s in (False, True)}
        self.bust_g, self.bust_h = bust_payoff(rules)
        self.max_hands = min(rules.max_split_hands, 2)
        """Resplits are not modelled (see the module doc): a box has at most two hands."""
        self.rank_matters = rules.split_match == "rank" and self.max_hands >= 2
        self.held = [v for v in range(NUM_VALUES) if rules.value_counts[v]]
        """The values the pack holds (a short pack lacks some)."""
        self.last_hand = 1 << 30
        """Play stops after this hand (a split box plays one hand's tree at a time)."""
        self.splits: list[tuple[Observation, np.ndarray, np.ndarray, np.ndarray]] = []
        """(observation, counts, payoff, mass) rows of every split box, grouped by counts."""

    # ----------------------------------------------------------------- legality (as Table)
    def buy_range(self, hand: Hand) -> tuple[int, int]:
        return buy_range(self.rules, len(hand.cards), hand.buys, hand.twists, hand.original_stake, hand.stake)

    def can_split(self, hands: list[Hand], hand: Hand) -> bool:
        rules = self.rules
        if self.max_hands < 2 or len(hands) >= self.max_hands:
            return False
        a, b = hand.cards
        if rules.split_match == "rank":
            return a // 4 == b // 4
        return value_index(a) == value_index(b)

    def hand_moves(self, hands: list[Hand], hand: Hand) -> tuple[LegalMove, ...]:
        rules = self.rules
        total, soft = best_total(hand.cards)
        moves: list[LegalMove] = []
        if total >= rules.stick_minimum:
            moves.append(LegalMove(ActionKind.STICK))
        if rules.may_draw_on(total, soft):
            moves.append(LegalMove(ActionKind.TWIST))
            low, high = self.buy_range(hand)
            if low <= high:
                moves.append(LegalMove(ActionKind.BUY, low, high))
        if len(hand.cards) == 2 and not hand.drew and self.can_split(hands, hand):
            moves.append(LegalMove(ActionKind.SPLIT))
        return tuple(moves)

    # ----------------------------------------------------------------- views
    def view(self, hands: list[Hand], cursor: int, legal: tuple[LegalMove, ...]) -> SeatView:
        counts = [0] * 13
        seen, _ = seen_cards(hands, [], [], PUNTER_SEAT, counts)
        shoot = self.shoot
        return SeatView(
            seat=PUNTER_SEAT, is_banker=False, banker=BANKER_SEAT, rules=self.rules, phase=Phase.PLAY,
            legal=legal, shoot=shoot, shoot_capacity=shoot_capacity(self.rules, shoot, hands),
            reserve=0, shoot_bet_point=None, current=cursor, hands=seen, banker_cards=(), banker_hidden=2,
            seen_counts=np.array(counts, dtype=np.int64),
            shoe_size=self.rules.shoe_size, balance=punter_balance(hands), num_players=2)

    # ----------------------------------------------------------------- chance
    def deal(self, hands: list[Hand], index: int, face_up: bool, ranks: tuple[int, int],
             pair_card: int | None) -> Iterator[tuple[list[Hand], float, tuple[int, int]]]:
        """Every card value (and, where a split's legality depends on it, ten-value rank class) dealt
        to hand ``index``: (hands after, rank-branch chance, (pair-rank tens, other tens) known).
        ``pair_card``: the card this one must match to be split (None: no split check follows)."""
        decks = self.rules.num_decks
        for v in self.held:
            if v == TEN and self.rank_matters and pair_card is not None and value_index(pair_card) == TEN:
                same, other = ranks
                p_same = (4 * decks - same) / (16 * decks - same - other)
                options = [(_PAIR_TEN, p_same, (same + 1, other)),
                           (_OTHER_TEN, 1 - p_same, (same, other + 1))]
            else:
                options = [(card_of(v), 1.0, ranks)]
            for card, p, known in options:
                if p <= 0:
                    continue
                new = [dataclasses.replace(h, cards=list(h.cards), face_up=list(h.face_up)) for h in hands]
                new[index].cards.append(card)
                new[index].face_up.append(face_up)
                yield new, p, known

    # ----------------------------------------------------------------- flow
    def after_card(self, hand: Hand) -> None:
        """``Table._after_card``: bust, Five Card Trick, Pontoon, a 21 that stands."""
        cls = hand_rank(hand, self.rules).hand_class
        if cls == HandClass.BUST:
            hand.face_up[:] = [True] * len(hand.cards)
            hand.settled = hand.done = True
        elif cls == HandClass.FIVE_CARD_TRICK:
            hand.done = True
            hand.face_up[:] = [True] * len(hand.cards)
        elif cls == HandClass.PONTOON:
            hand.done = True
            hand.face_up[:] = [True] * len(hand.cards)
        elif cls == HandClass.TWENTY_ONE and not self.rules.may_draw_on(*best_total(hand.cards)):
            hand.done = True

    def next_hand(self, hands: list[Hand], cursor: int, w: float, ranks: tuple[int, int]
                  ) -> Iterator[tuple[list[Hand], float]]:
        """``Table._next_hand`` then play on: yields finished boxes with their weights."""
        cursor += 1
        if cursor >= len(hands) or cursor > self.last_hand:
            yield hands, w
            return
        hand = hands[cursor]
        if len(hand.cards) == 1:
            for new, p, known in self.deal(hands, cursor, False, ranks, hand.cards[0]):
                self.after_card(new[cursor])
                yield from self.play(new, cursor, w * p, known)
            return
        if len(hand.cards) == 2 and hand_rank(hand, self.rules).hand_class == HandClass.PONTOON:
            hand.done = True
            hand.face_up[:] = [True, True]
        yield from self.play(hands, cursor, w, ranks)

    def play(self, hands: list[Hand], cursor: int, w: float, ranks: tuple[int, int]
             ) -> Iterator[tuple[list[Hand], float]]:
        hand = hands[cursor]
        if hand.done or hand.settled:
            yield from self.next_hand(hands, cursor, w, ranks)
            return
        if self.fourth_card_bet_due(hands, hand):
            yield from self.fourth_card_bet(hands, cursor, w, ranks)
            return
        legal = self.hand_moves(hands, hand)
        for action, p in self.policy(self.view(hands, cursor, legal)).items():
            if p <= 0:
                continue
            if not any(m.allows(action) for m in legal):
                raise ValueError(f"punter policy answered {action}, not legal among {legal}")
            yield from self.act(hands, cursor, action, w * p, ranks)

    def fourth_card_bet_due(self, hands: list[Hand], hand: Hand) -> bool:
        """``Table._fourth_card_bet_due``: three cards, not yet offered, room in the Shoot."""
        return ("before_fourth_card" in self.rules.shoot_bet_points and len(hand.cards) == 3
                and not hand.fourth_card_bet_offered and self.capacity(hands) > 0)

    def capacity(self, hands: list[Hand]) -> int:
        return shoot_capacity(self.rules, self.shoot, hands)

    def fourth_card_bet(self, hands: list[Hand], cursor: int, w: float, ranks: tuple[int, int]
                        ) -> Iterator[tuple[list[Hand], float]]:
        """The Shoot bet offered before a hand's fourth card (each answer a branch), then play on."""
        legal = (LegalMove(ActionKind.SHOOT_BET, 0, self.capacity(hands)),)
        view = self.view(hands, cursor, legal)._replace(shoot_bet_point="before_fourth_card")
        for action, p in self.policy(view).items():
            if p <= 0:
                continue
            if not any(m.allows(action) for m in legal):
                raise ValueError(f"punter policy answered {action}, not legal among {legal}")
            new = [dataclasses.replace(h) for h in hands]
            new[cursor].fourth_card_bet_offered = True
            new[cursor].shoot_bet += action.amount
            yield from self.play(new, cursor, w * p, ranks)

    def act(self, hands: list[Hand], cursor: int, action: Action, w: float, ranks: tuple[int, int]
            ) -> Iterator[tuple[list[Hand], float]]:
        kind = action.kind
        if kind == ActionKind.STICK:
            new = [dataclasses.replace(h) for h in hands]
            new[cursor].done = True
            yield from self.play(new, cursor, w, ranks)
        elif kind in (ActionKind.TWIST, ActionKind.BUY):
            face_up = kind == ActionKind.TWIST or not self.rules.buy_face_down
            for new, p, known in self.deal(hands, cursor, face_up, ranks, None):
                hand = new[cursor]
                if kind == ActionKind.TWIST:
                    hand.twists += 1
                else:
                    hand.buys += 1
                    hand.stake += action.amount
                self.after_card(hand)
                yield from self.play(new, cursor, w * p, known)
        elif kind == ActionKind.SPLIT:
            self.splits.extend(self.split_box(hands[cursor], w))
        else:
            raise ValueError(f"punter policy answered {action}: not a play of the modelled rules")

    def split_box(self, hand: Hand, w: float) -> list[tuple[Observation, np.ndarray, np.ndarray, np.ndarray]]:
        """Rows (observation, value counts, payoff times chance, chance) of a split box of two hands.
        Each hand's tree is enumerated on its own, as the first hand plays it (its sibling waiting on
        its pair card), and the two are combined as independent plays: exact when the policy decides
        on the current hand's cards and stakes (every rule-based punter and the solver's optimum), not
        on the other hand's cards. The first hand keeps the Shoot bet (docs/RULES.md, interpretation 3).
        No further split can follow (``max_hands`` is two). The observation is
        :func:`split_observation`, or with ``split_detail`` the two hands as the banker sees them."""
        first = self.hand_tree(hand, hand.shoot_bet)
        second = first if hand.shoot_bet == 0 else self.hand_tree(hand, 0)
        if not self.split_detail:
            rows = _combine_hands(_by_counts(*first[:3]), _by_counts(*second[:3]), w, self.width)
            return [(split_observation(hand.original_stake, hand.shoot_bet), *rows[:3])]
        keys2 = sorted(set(second[3]))
        id2 = {key: i for i, key in enumerate(keys2)}
        tagged = _by_counts(second[0], second[1], second[2], np.array([id2[k] for k in second[3]], dtype=np.int64))
        out = []
        for key1, part1 in _by_key(*first).items():
            counts, rows, mass, tags = _combine_hands(part1, tagged, w, self.width)
            cut = np.searchsorted(tags, np.arange(len(keys2) + 1))
            out.extend(((key1, keys2[t]), counts[cut[t]:cut[t + 1]], rows[cut[t]:cut[t + 1]], mass[cut[t]:cut[t + 1]])
                       for t in range(len(keys2)) if cut[t + 1] > cut[t])
        return out

    def hand_tree(self, hand: Hand, shoot_bet: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[HandKey]]:
        """Every play of one split hand (its pair card, then its own second card and draws): value
        counts (n, 10), chance (n,), payoff rows (n, NUM_OUTCOMES), the hand as the banker sees it."""
        pair = hand.cards[1]
        played = Hand(seat=hand.seat, box=hand.box, original_stake=hand.original_stake,
                      stake=hand.original_stake, shoot_bet=shoot_bet, from_split=True, cards=[hand.cards[0]],
                      face_up=[False])
        waiting = Hand(seat=hand.seat, box=hand.box, original_stake=hand.original_stake,
                       stake=hand.original_stake, from_split=True, cards=[pair], face_up=[False])
        saved, self.last_hand = self.last_hand, 0
        counts, probs, rows, keys = [], [], [], []
        try:
            for new, p, known in self.deal([played, waiting], 0, False, (0, 0), None):
                self.after_card(new[0])
                for box, q in self.play(new, 0, p, known):
                    c = [0] * NUM_VALUES
                    for card in box[0].cards:
                        c[value_index(card)] += 1
                    counts.append(c)
                    probs.append(q)
                    rows.append(self.payoff_row([box[0]], hand.original_stake))
                    keys.append(hand_key(seen_cards([box[0]], [], [], BANKER_SEAT, [0] * 13)[0][0]))
        finally:
            self.last_hand = saved
        return (np.array(counts, dtype=np.int64), np.array(probs),
                np.array(rows).reshape(len(rows), self.width), keys)

    # ----------------------------------------------------------------- payoffs
    def payoff_row(self, hands: list[Hand], unit: int) -> np.ndarray:
        """Net chips per unit stake of the finished box against each banker outcome (or, with
        ``outcomes``, each one's indicator, one after the other)."""
        if self.outcomes:
            return np.concatenate([self.indicator_row(hands, outcome) for outcome in self.outcomes])
        row = np.zeros(NUM_OUTCOMES)
        for hand in hands:
            if hand.settled:  # bust
                row += self.bust_g * hand.stake + self.bust_h * hand.shoot_bet
                continue
            g, h = self.g[hand.from_split]
            cls = self.row_of(hand)
            row += g[cls] * hand.stake + h[cls] * hand.shoot_bet
        return row / unit

    def indicator_row(self, hands: list[Hand], outcome: ShootOutcome) -> np.ndarray:
        row = np.zeros(NUM_OUTCOMES)
        for hand in hands:
            row += outcome.of(self.bust_h if hand.settled else self.g[hand.from_split][1][self.row_of(hand)],
                              hand.shoot_bet)
        return row

    def row_of(self, hand: Hand) -> int:
        """The payoff row of a stood hand (``payoff.punter_row``)."""
        rank = hand_rank(hand, self.rules)
        return punter_row(rank.total, len(hand.cards), rank.hand_class == HandClass.PONTOON)


_CODE_BASE = (NUM_VALUES + 1) ** np.arange(NUM_VALUES)
"""Value counts as one integer (a box of two hands holds at most ten cards of a value)."""


def _combine_hands(first: tuple[np.ndarray, ...], second: tuple[np.ndarray, ...], w: float, width: int
                   ) -> tuple[np.ndarray, ...]:
    """A split box's rows (value counts, payoff times chance, chance, and the second hand's tags where it
    has them) from its two hands' plays grouped by value counts (:func:`_by_counts`), combined as
    independent; rows sorted by (tag, counts)."""
    (k1, p1, v1), (k2, p2, v2) = first, second[:3]
    tag = second[3] if len(second) > 3 else np.zeros(len(k2), dtype=np.int64)
    span = int(_CODE_BASE[-1]) * (NUM_VALUES + 1)
    acc: dict[int, np.ndarray] = {}
    for at in range(0, len(k1), 64):  # in chunks, to bound the memory of the pairs
        code = k1[at:at + 64, None] + k2[None, :] + tag[None, :] * span
        value = np.concatenate([
            (v1[at:at + 64, None, :] * p2[None, :, None] + p1[at:at + 64, None, None] * v2[None, :, :]),
            (p1[at:at + 64, None] * p2[None, :])[:, :, None]], axis=2).reshape(-1, width + 1)
        keys, inverse = np.unique(code.ravel(), return_inverse=True)
        summed = np.zeros((len(keys), width + 1))
        np.add.at(summed, inverse, value)
        for key, row in zip(keys.tolist(), summed):
            acc[key] = acc[key] + row if key in acc else row
    codes = np.array(sorted(acc), dtype=np.int64)
    counts = ((codes % span)[:, None] // _CODE_BASE[None, :]) % (NUM_VALUES + 1)
    rows = w * np.array([acc[k] for k in codes.tolist()]).reshape(len(codes), width + 1)
    return counts, rows[:, :-1], rows[:, -1], codes // span


def _by_key(counts: np.ndarray, probs: np.ndarray, rows: np.ndarray, keys: list[HandKey]
            ) -> dict[HandKey, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """One hand's plays by the hand the banker sees, each grouped by value counts (:func:`_by_counts`)."""
    at: dict[HandKey, list[int]] = {}
    for i, key in enumerate(keys):
        at.setdefault(key, []).append(i)
    return {key: _by_counts(counts[idx], probs[idx], rows[idx]) for key, idx in sorted(at.items())}


def _by_counts(counts: np.ndarray, probs: np.ndarray, rows: np.ndarray, tags: np.ndarray | None = None
               ) -> tuple[np.ndarray, ...]:
    """One hand's plays grouped by value counts (and ``tags``, where given): (count codes, total chance,
    chance-weighted payoff[, tags])."""
    code = counts @ _CODE_BASE
    span = int(_CODE_BASE[-1]) * (NUM_VALUES + 1)
    keys, inverse = np.unique(code if tags is None else code + tags * span, return_inverse=True)
    prob = np.bincount(inverse, weights=probs, minlength=len(keys))
    value = np.zeros((len(keys), rows.shape[1]))
    np.add.at(value, inverse, probs[:, None] * rows)
    if tags is None:
        return keys, prob, value
    return keys % span, prob, value, keys // span


def _ask_amount(policy: PunterPolicy, view: SeatView) -> int:
    answer = policy(view)
    if len(answer) != 1:
        raise NotImplementedError("a stake must be a single amount (not a mixed choice)")
    (action,) = answer
    if not any(m.allows(action) for m in view.legal):
        raise ValueError(f"punter policy answered {action}, not legal among {view.legal}")
    return int(action.amount)


def _ask_amounts(policy: PunterPolicy, view: SeatView) -> dict[int, float]:
    """A Shoot bet's amounts and their chances (a mixed policy's branches)."""
    out: dict[int, float] = {}
    for action, p in policy(view).items():
        if p <= 0:
            continue
        if not any(m.allows(action) for m in view.legal):
            raise ValueError(f"punter policy answered {action}, not legal among {view.legal}")
        out[int(action.amount)] = out.get(int(action.amount), 0.0) + p
    return out


def shoot_in_play(rules: Rules, shoot: int | None = None) -> int:
    """The Shoot the model's views show: ``shoot`` chips where given (a bank whose Shoot has grown or
    shrunk), else a new Shoot of the rules' ``initial_shoot``; 0 without a Shoot."""
    if not rules.shoot:
        return 0
    return rules.initial_shoot if shoot is None else shoot


def _pre_deal_view(rules: Rules, legal: tuple[LegalMove, ...], phase: Phase, hands: tuple = (),
                   point: str | None = None, shoot: int | None = None) -> SeatView:
    shoot = shoot_in_play(rules, shoot)
    return SeatView(
        seat=PUNTER_SEAT, is_banker=False, banker=BANKER_SEAT, rules=rules, phase=phase, legal=legal,
        shoot=shoot, shoot_capacity=shoot_capacity(rules, shoot, hands),
        reserve=0, shoot_bet_point=point, current=0 if hands else None, hands=hands, banker_cards=(),
        banker_hidden=0, seen_counts=np.zeros(13, dtype=np.int64),
        shoe_size=rules.shoe_size, balance=punter_balance(hands), num_players=2)


def _second_card_bets(rules: Rules, policy: PunterPolicy, box: Hand, shoot: int | None = None) -> dict[int, float]:
    """The Shoot bets the policy adds before its second card, holding ``box`` (its first card face down;
    the banker's one card face down), as the engine offers them, with their chances ({0: 1} where it
    offers none)."""
    shoot = shoot_in_play(rules, shoot)
    cap = shoot_capacity(rules, shoot, [box])
    if "before_second_card" not in rules.shoot_bet_points or not rules.shoot or cap <= 0:
        return {0: 1.0}
    answers = []
    for card, weight in _ranks_of(rules, box.cards[0]):
        counts = [0] * 13
        seen, _ = seen_cards([dataclasses.replace(box, cards=[card])], [], [], PUNTER_SEAT, counts)
        view = _pre_deal_view(rules, (LegalMove(ActionKind.SHOOT_BET, 0, cap),), Phase.SHOOT_BETS, seen,
                              "before_second_card", shoot)._replace(banker_hidden=1,
                                                                    seen_counts=np.array(counts, dtype=np.int64))
        answers.append((_ask_amounts(policy, view), weight))
    if all(bets == answers[0][0] for bets, _ in answers):
        return answers[0][0]
    mixed: dict[int, float] = {}
    for bets, weight in answers:
        for amount, chance in bets.items():
            mixed[amount] = mixed.get(amount, 0.0) + weight * chance
    return mixed


def _ranks_of(rules: Rules, card: int) -> list[tuple[int, float]]:
    """The cards a lone card of ``card``'s value may be, with their chances: a ten-value card is each ten-value
    rank the pack holds in proportion to its cards (the ranks of the cards dealt are exchangeable within a
    value, and a lone card's rank is drawn as the first of them), every other card itself. A player that
    reads ranks (a network seeing the ranks dealt) is so asked as it is at the engine; one that reads values
    answers alike at every rank."""
    if value_index(card) != TEN:
        return [(card, 1.0)]
    tens = [c for c in rules.pack_cards if value_index(c) == TEN]
    ranks = sorted({c // 4 for c in tens})
    return [(rank * 4, sum(c // 4 == rank for c in tens) / len(tens)) for rank in ranks]


def punter_rows(rules: Rules, policy: PunterPolicy, outcomes: tuple[ShootOutcome, ...] = (),
                shoot: int | None = None, split_detail: bool = False) -> PunterRows:
    """Play ``policy``'s box in every way it can go (heads-up, the banker playing on after). With
    ``outcomes``, the payoffs are their indicators (:class:`ShootOutcome`), the rows otherwise the same:
    ``payoff`` holds each one's ``NUM_OUTCOMES`` columns in turn and ``peek_payoff`` a column each.
    ``shoot``: the Shoot in play, where it is not a new one (:func:`shoot_in_play`). ``split_detail``:
    a split box is observed as its two hands, as the engine shows them (``observation_of``), not as
    one :func:`split_observation` (the whole table's banker, ``solver/whole_table``, reads them)."""
    check_rules(rules)
    stake = _ask_amount(policy, _pre_deal_view(rules, (LegalMove(ActionKind.STAKE, rules.min_stake,
                                                                  rules.max_stake),), Phase.STAKES, shoot=shoot))
    deal_bets = {0: 1.0}
    if "before_deal" in rules.shoot_bet_points and rules.shoot:
        in_play = shoot_in_play(rules, shoot)
        cap = in_play if rules.max_shoot_bet is None else min(in_play, rules.max_shoot_bet)
        box = Hand(seat=PUNTER_SEAT, box=0, original_stake=stake, stake=stake)
        seen, _ = seen_cards([box], [], [], PUNTER_SEAT, [0] * 13)
        deal_bets = _ask_amounts(policy, _pre_deal_view(rules, (LegalMove(ActionKind.SHOOT_BET, 0, cap),),
                                                        Phase.SHOOT_BETS, seen, "before_deal", shoot))
    mirror = _Mirror(rules, policy, outcomes, shoot, split_detail)
    acc: dict[tuple[Observation, tuple[int, ...]], np.ndarray] = {}
    mass: dict[tuple[Observation, tuple[int, ...]], float] = {}
    settled: dict[Observation, bool] = {}
    peek_counts = np.zeros((NUM_VALUES * NUM_VALUES, NUM_VALUES), dtype=np.int64)
    peek_payoff = np.zeros((NUM_VALUES * NUM_VALUES, len(outcomes)) if outcomes else NUM_VALUES * NUM_VALUES)
    g_peek, h_peek = mirror.g[False]
    held = mirror.held
    for first, second in itertools.product(held, held):
        peek_counts[first * NUM_VALUES + second, first] += 1
        peek_counts[first * NUM_VALUES + second, second] += 1
    for (bet, chance), first in itertools.product(deal_bets.items(), held):
        card = _PAIR_TEN if first == TEN and mirror.rank_matters else card_of(first)
        second_bets = _second_card_bets(rules, policy, Hand(seat=PUNTER_SEAT, box=0, original_stake=stake,
                                                            stake=stake, shoot_bet=bet, cards=[card], face_up=[False]),
                                        shoot)
        for (extra, q), second in itertools.product(second_bets.items(), held):
            total = bet + extra
            start = Hand(seat=PUNTER_SEAT, box=0, original_stake=stake, stake=stake, shoot_bet=total,
                         cards=[card], face_up=[False])
            k = first * NUM_VALUES + second
            for hands, p, known in mirror.deal([start], 0, False, (1 if first == TEN else 0, 0), card):
                if value_index(hands[0].cards[1]) != second:
                    continue
                rank = hand_rank(hands[0], rules)
                cls = punter_class(rank.total, 2, rank.hand_class == HandClass.PONTOON)
                p *= chance * q
                peek_payoff[k] += p * (np.array([o.of(h_peek[cls, PONTOON], total) for o in outcomes]) if outcomes
                                       else (g_peek[cls, PONTOON] * stake + h_peek[cls, PONTOON] * total) / stake)
                for box, w in mirror.next_hand(hands, -1, p, known):
                    _add_row(acc, mass, settled, box, w, mirror.payoff_row(box, stake))
    splits = sorted({obs for obs, _, _, _ in mirror.splits if is_split_observation(obs)})
    for obs, counts, rows, masses in mirror.splits:
        for c, row, m in zip(counts, rows, masses):
            key = (obs, tuple(int(x) for x in c))
            _accumulate(acc, key, row)
            _accumulate(mass, key, m)
        settled[obs] = not is_split_observation(obs) and all(h.settled for h in obs)
    observations = sorted(o for o in settled if o not in splits) + splits
    index = {o: i for i, o in enumerate(observations)}
    keys = sorted(acc, key=lambda ok: (index[ok[0]], ok[1]))
    return PunterRows(
        rules=rules, stake=stake, shoot_bet=max(deal_bets, key=deal_bets.get), observations=observations,
        obs_index=np.array([index[o] for o, _ in keys], dtype=np.int64),
        counts=np.array([c for _, c in keys], dtype=np.int64).reshape(len(keys), NUM_VALUES),
        payoff=np.array([acc[k] for k in keys]).reshape(len(keys), mirror.width),
        all_settled=np.array([settled[o] for o in observations], dtype=bool),
        peek_counts=peek_counts, peek_payoff=peek_payoff, shoot=shoot,
        mass=np.array([mass[k] for k in keys], dtype=np.float64))


def _add_row(acc: dict, mass: dict, settled: dict, box: list[Hand], w: float, row: np.ndarray) -> None:
    counts = [0] * NUM_VALUES
    for hand in box:
        for card in hand.cards:
            counts[value_index(card)] += 1
    seen, _ = seen_cards(box, [], [], BANKER_SEAT, [0] * 13)
    obs = observation_of(seen)
    _accumulate(acc, (obs, tuple(counts)), w * row)
    _accumulate(mass, (obs, tuple(counts)), w)
    settled[obs] = all(h.settled for h in box)


def _accumulate(acc: dict, key: tuple, row: np.ndarray) -> None:
    if key in acc:
        acc[key] = acc[key] + row
    else:
        acc[key] = row
