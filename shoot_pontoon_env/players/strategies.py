"""Rule-based table players: the banker and punters the environments sit an agent among.

A strategy maps a :class:`SeatView` (what its seat may see) and a Generator to an :class:`Action`
(what ``Table.apply`` takes). The same objects serve as table opponents inside the environments and,
wrapped by ``agents/``, as baseline policies, so each strategy is written once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..actions import Action, ActionKind
from ..cards import best_total, value_of
from ..engine.view import SeatView
from .policy import Policy, banker_total, has_move, move_of, nearest_amount, stick_or_draw


class RandomPlayer(Policy):
    """Uniform over legal kinds, then uniform over the allowed amounts (any seat). Shoot bets are
    drawn up to the maximum main stake, so that a random table does not bet the Shoot to infinity."""

    name = "random"

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        if not view.legal:
            raise ValueError(f"{self.name}: seat {view.seat} has no decision pending")
        move = view.legal[int(rng.integers(len(view.legal)))]
        high = min(move.high, view.rules.max_stake) if move.kind == ActionKind.SHOOT_BET else move.high
        return Action(move.kind, int(rng.integers(move.low, high + 1)))


@dataclass(repr=True)
class ThresholdPunter(Policy):
    """Minimum stake, no Shoot bets, stick on ``stick_on`` or more, otherwise twist."""

    stick_on: int = 17
    name = "threshold"

    def punter_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        assert hand is not None
        return stick_or_draw(view, hand.total >= self.stick_on)


@dataclass(repr=True)
class TipsPunter(Policy):
    """The seed's Tips and Policy, made concrete (see docs/RULES.md, 'Table players').

    Shoot bets: a bet of ``big_shoot_bet`` stakes on 18+ in the first two cards (at the
    before-second/fourth-card points: a high first card, or a low three-card total chasing a
    Five Card Trick), nothing otherwise unless the Shoot is large. Stick on 21 and 20, and on
    17 or more; split tens, aces and face cards, eights against a low banker card, never fives;
    buy rather than twist on strong hands; chase the Five Card Trick on four low cards.
    """

    big_shoot_bet: int = 2
    large_shoot: int = 10
    """A Shoot of this many maximum stakes counts as large (aggressive Shoot bets)."""
    name = "tips"

    def shoot_bet(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        unit = view.rules.min_stake
        large = view.shoot >= self.large_shoot * view.rules.max_stake
        wanted = 0
        if hand is not None and hand.cards:
            total, cards = hand.total, len(hand.cards)
            strong_first = cards == 1 and value_of(hand.cards[0]) in (1, 10)
            trick_chase = cards == 3 and total <= 11
            if (cards >= 2 and total >= 18) or strong_first or trick_chase:
                wanted = self.big_shoot_bet * unit
        if large:
            wanted = max(wanted, unit)
        return nearest_amount(view, ActionKind.SHOOT_BET, wanted)

    def punter_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        assert hand is not None
        total, cards = hand.total, len(hand.cards)
        if has_move(view, ActionKind.SPLIT) and self._wants_split(view, hand.cards):
            return Action(ActionKind.SPLIT)
        if cards == 4 and total <= 11 and not hand.soft:
            return stick_or_draw(view, stick=False)
        if total >= 17:
            return stick_or_draw(view, stick=True)
        buy = move_of(view, ActionKind.BUY)
        if buy is not None and (total <= 11 or total >= 16):
            return Action(ActionKind.BUY, buy.high if total <= 11 else buy.low)
        return stick_or_draw(view, stick=False)

    @staticmethod
    def _wants_split(view: SeatView, cards: tuple[int, ...]) -> bool:
        value = value_of(cards[0])
        if value in (1, 10):
            return True
        if value == 8:
            up = [value_of(c) for c in view.banker_cards]
            return bool(up) and 2 <= up[0] <= 6
        return False


@dataclass(repr=True)
class StandOnBanker(Policy):
    """A banker who draws to ``stand_on`` and sticks there (ties win), never selling the bank."""

    stand_on: int = 17
    name = "stand17"

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        total = banker_total(view)
        return stick_or_draw(view, total >= self.stand_on)


@dataclass(repr=True)
class DealerRulesBanker(Policy):
    """The casino dealer's fixed drawing rule, for a freely drawing banker seat."""

    stands_on: int = 17
    hits_soft_17: bool = True
    name = "dealer"

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        total, soft = best_total(view.banker_cards)
        hit = total < self.stands_on or (total == 17 and soft and self.hits_soft_17)
        return stick_or_draw(view, not hit)


@dataclass(repr=True)
class ShootAwareBanker(Policy):
    """The seed's banker tips: stand on 17 and let ties work; with much Shoot money riding on the
    surviving hands, stand on weaker totals and let punters bust; stop drawing once no surviving
    hand can beat the banker; sell the bank once the Shoot has grown to ``sell_at`` times the
    initial Shoot (locking the kitty in)."""

    stand_on: int = 17
    cautious_stand_on: int = 16
    exposure_fraction: float = 0.5
    sell_at: float = 3.0
    name = "shoot_aware"

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        total = banker_total(view)
        live = [h for h in view.hands if not h.settled]
        at_risk = sum(h.shoot_bet for h in live)
        threshold = self.stand_on
        if view.shoot and at_risk >= self.exposure_fraction * view.shoot:
            threshold = self.cautious_stand_on
        visible_best = max((h.total for h in live if h.hidden_cards == 0), default=0)
        if live and all(h.hidden_cards == 0 for h in live) and total >= visible_best and total >= 15:
            return stick_or_draw(view, True)
        return stick_or_draw(view, total >= threshold)

    def bank(self, view: SeatView, rng: np.random.Generator) -> Action:
        if view.shoot + view.reserve >= self.sell_at * view.rules.initial_shoot:
            return Action(ActionKind.SELL_BANK)
        return Action(ActionKind.KEEP_BANK)


STRATEGIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPlayer,
    "threshold": ThresholdPunter,
    "tips": TipsPunter,
    "stand17": StandOnBanker,
    "dealer": DealerRulesBanker,
    "shoot_aware": ShootAwareBanker,
}


THRESHOLD_NAME = re.compile(r"threshold(\d+)")
"""``thresholdN``: a :class:`ThresholdPunter` that sticks on N or more, named as the agents, ``evaluate``
and ``play`` all spell it."""


def is_strategy_name(name: str) -> bool:
    """Whether :func:`make_strategy` builds ``name``: a key of ``STRATEGIES`` or ``thresholdN``."""
    return name in STRATEGIES or THRESHOLD_NAME.fullmatch(name) is not None


def make_strategy(spec: str | Policy) -> Policy:
    """A strategy by name (``STRATEGIES``, or ``thresholdN``: stick on N or more) or the given object."""
    if isinstance(spec, Policy):
        return spec
    if spec in STRATEGIES:
        return STRATEGIES[spec]()
    match = THRESHOLD_NAME.fullmatch(spec) if isinstance(spec, str) else None
    if match is not None:
        strategy = ThresholdPunter(int(match.group(1)))
        strategy.name = spec  # the name it was asked by, as a table or a report shows it
        return strategy
    raise ValueError(f"unknown strategy {spec!r}: expected one of {sorted(STRATEGIES)}, thresholdN or a "
                     "Policy")
