"""The banker's final hand: its drawing rule and the chance of each outcome given the removed cards.

The banker draws only on its own cards (a casino dealer's fixed rule, or a fixed strategy for the
free banker of the home game, which never looks at the punters' hands). Every banker line of play
is an ordered card sequence; its chance depends only on its multiset, so the sequences are grouped
by multiset once, and the outcome chances for thousands of removed-card compositions are one
matrix product in log space.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..actions import Action, ActionKind, LegalMove
from ..cards import HandClass, HandRank, best_total, is_pontoon_pair
from ..engine.settlement import banker_rank
from ..engine.table import Phase
from ..engine.view import SeatView
from ..rules import Rules
from ..players.policy import Policy
from ..players.strategies import DealerRulesBanker, StandOnBanker
from .deck import Deck
from .space import NUM_VALUES

# Outcome indices (banker) and hand-class indices (punter) share one numbering.
BUST = 0
"""1..20: a plain total of that many points."""
TWENTY_ONE = 21
FIVE_CARD_TRICK = 22
PONTOON = 23
NUM_OUTCOMES = 24
_INDEX_OF_CLASS = {HandClass.BUST: BUST, HandClass.TWENTY_ONE: TWENTY_ONE,
                   HandClass.FIVE_CARD_TRICK: FIVE_CARD_TRICK, HandClass.PONTOON: PONTOON}
BUST_TOTALS = range(22, 32)
"""The totals a bust can show (21 + a ten at most)."""
FIVE_CARD_TOTALS = range(5, 22)
"""The totals a Five Card Trick can show (a superset: five cards add up to ten at least)."""


def outcome_index(hand_class: HandClass, total: int) -> int:
    """The index of a hand's class (``cards.hand_class``): a plain total's index is its total."""
    return total if hand_class == HandClass.TOTAL else _INDEX_OF_CLASS[hand_class]


def _ranks_of(index: int) -> tuple[HandRank, ...]:
    if index == BUST:
        return tuple(HandRank(HandClass.BUST, total) for total in BUST_TOTALS)
    if index == FIVE_CARD_TRICK:
        return tuple(HandRank(HandClass.FIVE_CARD_TRICK, total) for total in FIVE_CARD_TOTALS)
    if index in (TWENTY_ONE, PONTOON):
        return (HandRank(HandClass.TWENTY_ONE if index == TWENTY_ONE else HandClass.PONTOON, 21),)
    return (HandRank(HandClass.TOTAL, index),)


OUTCOME_RANKS: tuple[tuple[HandRank, ...], ...] = tuple(_ranks_of(i) for i in range(NUM_OUTCOMES))
"""The banker's final ranks each outcome index stands for (``outcome_index`` of each is the index).
An index collapses the ranks the settlement pays alike: a bust's total and a Five Card Trick's are
read by no pay rule, and ``payoff.py`` refuses a settlement that reads them (it would need outcomes
of its own here)."""


def _card_of_value(value_index: int) -> int:
    """A card int of the given value (suit clubs; ten-value as the ten)."""
    return value_index * 4


def _cards(values: tuple[int, ...]) -> list[int]:
    """Cards of the given value indices, for ``cards.py``'s valuation."""
    return [_card_of_value(v) for v in values]


def _best(values: tuple[int, ...]) -> tuple[int, bool]:
    """``cards.best_total`` of a hand of value indices: (best total, soft)."""
    return best_total(_cards(values))


def banker_outcome(values: tuple[int, ...], rules: Rules) -> int:
    """Outcome index of a finished banker hand (value indices): ``settlement.banker_rank``'s class."""
    return outcome_index(*banker_rank(_cards(values), rules))


@dataclass
class BankerRule:
    """When the banker draws, as a function of its own cards only (value indices)."""

    draws: Callable[[tuple[int, ...]], bool]
    name: str
    _cache: dict[tuple[int, ...], bool] = field(default_factory=dict, repr=False)

    def wants_card(self, values: tuple[int, ...]) -> bool:
        key = tuple(sorted(values))
        if key not in self._cache:
            self._cache[key] = bool(self.draws(key))
        return self._cache[key]


def engine_done(values: tuple[int, ...], rules: Rules) -> bool:
    """The engine stops the banker without asking: bust, five cards (unless it draws on), the casino
    dealer's fixed rule, or (free banker) a 21 that may not draw: ``Rules.banker_done_drawing``, which
    ``Table`` applies too (a dealer draws on every other hand, :func:`dealer_rule`)."""
    return rules.banker_done_drawing(*_best(values), len(values))


def dealer_rule(rules: Rules) -> BankerRule:
    """The casino dealer: every hand the engine does not stop draws."""
    return BankerRule(lambda values: True, f"dealer (stands on {rules.dealer_stands_on}, "
                      f"{'hits' if rules.dealer_hits_soft_17 else 'stands on'} soft 17)")


def _banker_view(rules: Rules, cards: tuple[int, ...], legal: tuple[LegalMove, ...]) -> SeatView:
    """A banker's view showing only its own cards, at a two-seat table with the banker in seat 0.
    Built from the SeatView fields that exist, so that fields added later with a default (or
    listed here) do not break it."""
    known = {
        "seat": 0, "is_banker": True, "banker": 0, "rules": rules, "phase": Phase.BANKER, "legal": legal,
        "shoot": 0, "shoot_capacity": 0, "reserve": 0, "shoot_bet_point": None, "current": None,
        "hands": (), "banker_cards": cards, "banker_hidden": 0,
        "seen_counts": np.zeros(13, dtype=np.int64), "shoe_size": rules.shoe_size,
        "balance": 0,
        "num_players": 2,
    }
    names = set(SeatView._fields)
    return SeatView(**{k: v for k, v in known.items() if k in names})


OWN_CARDS_BANKERS = (Policy.banker_play, StandOnBanker.banker_play, DealerRulesBanker.banker_play)
"""Banker methods known to be deterministic functions of the banker's own cards."""


def banker_declares(strategy: Policy, attribute: str, known: tuple) -> bool:
    """Whether ``strategy`` sets the class attribute ``attribute`` true, or plays the banker by one of
    the ``known`` methods (and the default ``act``): how the solver learns what a banker reads."""
    kind = type(strategy)
    if getattr(strategy, attribute, False):
        return True
    return kind.act is Policy.act and kind.banker_play in known


def own_cards_only(strategy: Policy) -> bool:
    """Whether the solver can model ``strategy`` as a banker: its decisions must be a fixed
    function of its own cards. Known for the library's stand-on-N and dealer-rule bankers (and every
    strategy that keeps the default banker play); a custom strategy declares it with a class
    attribute ``own_cards_only = True``."""
    return banker_declares(strategy, "own_cards_only", OWN_CARDS_BANKERS)


def strategy_rule(strategy: Policy, rules: Rules) -> BankerRule:
    """A free banker played by ``strategy``, asked with a view that shows only the banker's own
    cards. Raises NotImplementedError for a banker that may look at the punters' hands or play at
    random (e.g. ``ShootAwareBanker``, ``RandomPlayer``): the solver cannot model those."""
    if not own_cards_only(strategy):
        raise NotImplementedError(
            f"the solver needs a banker that draws on its own cards only; {strategy!r} may look at the "
            "punters' hands or play at random (set own_cards_only = True on a strategy class that does not)")

    def draws(values: tuple[int, ...]) -> bool:
        total, soft = _best(values)
        legal = [LegalMove(ActionKind.STICK)]
        if rules.may_draw_on(total, soft):
            legal.append(LegalMove(ActionKind.TWIST))
        view = _banker_view(rules, tuple(_card_of_value(v) for v in values), tuple(legal))
        action: Action = strategy.act(view, np.random.default_rng(0))
        if action.kind not in (ActionKind.STICK, ActionKind.TWIST):
            raise ValueError(f"banker strategy {strategy!r} answered {action} to a stick/twist choice")
        return action.kind == ActionKind.TWIST

    return BankerRule(draws, f"{strategy!r} (own cards only)")


def banker_rule(rules: Rules, banker: Policy | None = None) -> BankerRule:
    """The dealer's fixed rule under ``banker_play="dealer"``; otherwise ``banker`` (default
    :class:`StandOnBanker`, stand on 17)."""
    if rules.banker_play == "dealer":
        return dealer_rule(rules)
    return strategy_rule(banker if banker is not None else StandOnBanker(), rules)


@dataclass(frozen=True)
class DealerPaths:
    """Every banker line of play from a given up card, grouped by the multiset of unseen cards."""

    up: int | None
    counts: np.ndarray
    """(D, 10) int: unseen banker cards of each value (the up card excluded)."""
    weight: np.ndarray
    """(D,): how many orders of that multiset are lines of play (Pontoons excluded under a peek)."""
    outcome: np.ndarray
    """(D,): outcome index of the finished hand."""
    depth: int
    """The most unseen cards in one line of play (five at most unless the banker draws on)."""
    onehot: np.ndarray
    """(10 * depth, D): 1 where the multiset holds exactly j cards of value v (row v*depth + j-1)."""
    out_matrix: np.ndarray
    """(D, NUM_OUTCOMES): weight placed in the outcome's column."""


def dealer_paths(rule: BankerRule, rules: Rules, up: int | None) -> DealerPaths:
    """Enumerate the banker's lines of play. Under a peek, the lines that start with a Pontoon are
    left out: the chances computed from them are joint with 'the banker has no Pontoon'."""
    grouped: dict[tuple[int, ...], list[int]] = {}

    def walk(values: tuple[int, ...]) -> None:
        if len(values) >= 2:
            if rules.banker_peek and len(values) == 2 and is_pontoon_pair(_cards(values)):
                return
            if engine_done(values, rules) or not rule.wants_card(values):
                unseen = values[1:] if up is not None else values
                key = tuple(unseen.count(v) for v in range(NUM_VALUES))
                entry = grouped.setdefault(key, [0, banker_outcome(values, rules)])
                entry[0] += 1
                return
        for v in range(NUM_VALUES):
            walk(values + (v,))

    walk(() if up is None else (up,))
    keys = sorted(grouped)
    counts = np.array(keys, dtype=np.int64)
    weight = np.array([grouped[k][0] for k in keys], dtype=np.float64)
    outcome = np.array([grouped[k][1] for k in keys], dtype=np.int64)
    depth = int(counts.sum(axis=1).max())
    onehot = np.zeros((NUM_VALUES * depth, len(keys)))
    for v in range(NUM_VALUES):
        for j in range(1, depth + 1):
            onehot[v * depth + j - 1] = counts[:, v] == j
    out_matrix = np.zeros((len(keys), NUM_OUTCOMES))
    out_matrix[np.arange(len(keys)), outcome] = weight
    return DealerPaths(up, counts, weight, outcome, depth, onehot, out_matrix)


def outcome_probs(deck: Deck, paths: DealerPaths, removed: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """(M, NUM_OUTCOMES): chance of each banker outcome (joint with 'no banker Pontoon' under a
    peek) for each row of ``removed`` (M, 10), which must include the up card."""
    sizes = paths.counts.sum(axis=1)
    out = np.empty((len(removed), NUM_OUTCOMES))
    for start in range(0, len(removed), chunk):
        rows = removed[start:start + chunk]
        L, den = deck.log_factors(rows, paths.depth)
        logp = L.reshape(len(rows), -1) @ paths.onehot - den[:, sizes - 1]
        out[start:start + chunk] = np.exp(logp) @ paths.out_matrix
    return out
