"""The rules of one Pontoon table: a frozen dataclass with every option, and the named presets.

This is the single source of truth for the rules. Both engines, the solver and the environments read
it; nothing else hard-codes a rule. ``docs/RULES.md`` maps each seed rule to a field here.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .actions import is_int
from .cards import FIVE_CARDS, RANKS, SUITS

SHOOT_BET_POINTS = ("before_deal", "before_second_card", "before_fourth_card")
SHOE_KINDS = ("reshuffle", "persistent")
BANKER_PLAY_KINDS = ("free", "dealer")
SPLIT_MATCH_KINDS = ("rank", "value")
TIE_KINDS = ("banker", "push")
CHIP_LIMIT = 10**9
"""The largest chip amount an option may name (stakes, Shoot, limits, prices). With every amount
below it, the chips that change hands in an episode stay far inside the float32 range of rewards."""
DRAW_ON_21_KINDS = ("no", "soft", "any")
BANKER_FIVE_CARD_KINDS = ("trick", "total", "draw_on")
MAX_DRAWS = FIVE_CARDS - 2
"""The most cards a punter hand draws after its first two (twists and buys together, up to
``cards.FIVE_CARDS``): the largest ``max_buys``."""
MAX_STAKE_MULTIPLE = 20
"""The largest ``max_stake_multiple``."""
MAX_DECKS = 8
"""The most packs a shoe holds (``num_decks``)."""
PACKS: dict[str, str] = {"full": RANKS, "piquet": "A789TJQK", "euchre": "A9TJQK"}
"""The packs a shoe may be made of, by the ranks each holds in all four suits: the full 52-card pack,
and two short packs kept as research variants (docs/RULES.md), small enough for full-tree algorithms:
the 32-card piquet pack (sevens up) and the 24-card euchre pack (nines up)."""


@functools.lru_cache(maxsize=None)
def pack_value_counts(pack: str) -> tuple[int, ...]:
    """Cards of each value 1 (the ace) .. 10 in one pack of ``PACKS[pack]`` (cached: the solver asks at
    every card it deals)."""
    counts = [0] * 10
    for rank in PACKS[pack]:
        counts[min(RANKS.index(rank), 9)] += len(SUITS)
    return tuple(counts)


@functools.lru_cache(maxsize=None)
def cards_of_pack(pack: str) -> tuple[int, ...]:
    """One pack's card ints in pack order (rank by rank, each in the four suits)."""
    return tuple(RANKS.index(rank) * len(SUITS) + suit for rank in PACKS[pack] for suit in range(len(SUITS)))


class RulesError(ValueError):
    """A rules option has a value that is not allowed; the message names field, value and range."""


def _fail(name: str, value: Any, allowed: str) -> None:
    raise RulesError(f"Rules.{name} = {value!r} is not allowed: expected {allowed}")


def _int_in(name: str, value: Any, low: int, high: int | None = None) -> None:
    if not is_int(value):
        _fail(name, value, f"an int in {low}..{high if high is not None else 'inf'}")
    if value < low or (high is not None and value > high):
        _fail(name, value, f"an int in {low}..{high if high is not None else 'inf'}")


def _bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        _fail(name, value, "True or False")


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        _fail(name, value, f"one of {choices}")


def _card_pattern_ok(pattern: Any) -> bool:
    """A card pattern is a rank letter followed by a suit letter or ``*`` for any suit."""
    return (
        isinstance(pattern, str)
        and len(pattern) == 2
        and pattern[0] in RANKS
        and (pattern[1] in SUITS or pattern[1] == "*")
    )


def _plain_python_values(rules: Rules) -> None:
    """NumPy scalars become the Python int, float or bool they stand for (``num_decks=np.int64(6)``),
    so that chips stay Python ints; everything else is left for the checks to judge."""
    for item in dataclasses.fields(rules):
        value = getattr(rules, item.name)
        if isinstance(value, np.generic) and isinstance(value, (np.integer, np.floating, np.bool_)):
            object.__setattr__(rules, item.name, value.item())


@dataclass(frozen=True)
class Rules:
    """Every option of the game, which both engines play. Chips are integers; multiples are of a
    hand's original stake.

    Build a variant from a preset with :meth:`replace`, e.g. ``SHOOT.replace(banker_peek=False)``.
    """

    name: str = "custom"

    # --- cards and shoe ---
    num_decks: int = 1
    """Packs in the shoe (1..8)."""
    pack: str = "full"
    """Which pack: ``"full"`` (52 cards), or a short research pack of ``PACKS`` (``"piquet"``: 32 cards,
    sevens to aces; ``"euchre"``: 24 cards, nines to aces)."""
    shoe: str = "reshuffle"
    """``"reshuffle"``: a fresh shuffle before every deal; ``"persistent"``: a shoe dealt down to a
    cut card, so cards seen in earlier deals carry information."""
    penetration: float = 0.75
    """Persistent shoe only: the fraction of the shoe dealt before the cut card forces a shuffle."""

    # --- stakes ---
    base_stake: int = 2
    """The chip unit of rewards and expected returns (rewards are chips / base_stake)."""
    min_stake: int = 2
    max_stake: int = 10
    max_boxes: int = 1
    """Hands (boxes) one punter may stake at once; the casino rule set of 003 allows three."""

    # --- the Shoot ---
    shoot: bool = True
    """Whether the table has a Shoot kitty (the home game) or not (the casino rule sets)."""
    initial_shoot: int = 50
    """Chips the banker posts as a new Shoot."""
    shoot_cap: int | None = None
    """Bank limit: chips that would grow the table Shoot past this go to the banker instead."""
    shoot_bet_points: tuple[str, ...] = ("before_deal",)
    """When Shoot bets may be placed: any of ``SHOOT_BET_POINTS``."""
    max_shoot_bet: int | None = None
    """Upper limit of one Shoot bet (the table's remaining Shoot always limits it as well)."""
    reserved_shoot_percent: int = 0
    """Reserved Shoot: this percentage of every chip entering the Shoot is held in reserve, paid out
    only as a jackpot to the Shoot winners who break the bank."""
    progressive_shoot_chips: int = 0
    """Progressive Shoot: chips taken from each losing main stake into the Shoot."""
    bank_sale: bool = True
    """Whether the banker may sell the bank between deals."""
    bank_sale_price: int = 0
    """Chips the next player pays the seller when the bank is sold."""

    # --- the banker or dealer ---
    banker_peek: bool = True
    """The banker checks for a Pontoon before the punters play (False: the No-peek variation)."""
    banker_pontoon_multiple: int = 2
    """A banker's Pontoon collects this multiple of each surviving hand's stake."""
    banker_play: str = "free"
    """``"free"``: the banker draws as they wish (a strategy or an agent decides);
    ``"dealer"``: fixed drawing rules (``dealer_stands_on``, ``dealer_hits_soft_17``)."""
    dealer_stands_on: int = 17
    dealer_hits_soft_17: bool = True
    dealer_shows_first_card: bool = False
    """The banker's first card is dealt face up (the 003 casino table shows a dealer card)."""
    banker_five_cards: str = "trick"
    """The banker's fifth card: ``"trick"``: it stops at five cards, and five cards of 21 or under
    rank as a Five Card Trick; ``"total"``: it stops at five cards, which count their total;
    ``"draw_on"``: no five-card limit, it draws on by its rule and its hand counts its total."""
    punter_trick_beats_banker_trick: bool = False
    """A punter's Five Card Trick beats a banker's (seed 003's "you win 2:1" unless the dealer has
    Pontoon); False: the two tricks tie, and the tie rule decides."""
    ties: str = "banker"
    """``"banker"``: the banker wins every tie; ``"push"``: equal hands return the stake."""

    # --- the punter's play ---
    stick_minimum: int = 15
    """A punter may stick only on this total or more (the casino 'must twist on 14 or less')."""
    punter_loses_at_or_below: int | None = 15
    """A stuck punter hand of this total or less loses to any banker hand that does not bust."""
    draw_on_21: str = "any"
    """Which hands of 21 on fewer than five cards may still draw (twist or buy): ``"no"`` (a 21
    stands), ``"soft"`` (a soft 21 may chase a Five Card Trick, a hard 21 stands) or ``"any"``.
    ``True`` and ``False`` are accepted for ``"any"`` and ``"no"``."""
    buy_min_multiple: int = 1
    buy_max_multiple: int = 2
    """A buy adds between these multiples of the hand's original stake (1 and 1: a casino double)."""
    max_buys: int | None = None
    """Buys per hand (None: any number while the hand has fewer than five cards)."""
    buy_after_twist: bool = False
    """Whether a hand may still buy after it has twisted (the home game says no)."""
    max_stake_multiple: int | None = 5
    """A hand's total stake never exceeds this multiple of its original stake."""
    buy_face_down: bool = True
    """Bought cards are dealt face down (twisted cards always face up)."""
    double_stakes: bool = False
    """Double Stakes variation: double the stake on two cards, then one twist at most, no buys."""
    split_match: str = "rank"
    """Cards that may be split: equal ``"rank"`` (K-K) or equal ``"value"`` (K-Q, 10-J)."""
    max_split_hands: int = 4
    """Hands one box may be split into (1 disables splitting)."""
    pontoon_after_split: bool = True
    """Whether an ace and a ten-value card on a split hand count as a Pontoon."""
    split_bust_pays_double: bool = False
    """The literal reading of 'split hands pay double' when the banker busts (see docs/RULES.md)."""

    # --- payments (multiples of the hand's stake) ---
    win_pays: int = 1
    twenty_one_pays: int = 1
    pontoon_pays: int = 2
    five_card_trick_pays: int = 2
    special_pontoons: tuple[tuple[str, str], ...] = ()
    """Split Pontoon variation: two-card combinations (patterns such as ``("A*", "JC")``) that pay
    ``special_pontoon_pays`` instead of ``pontoon_pays``."""
    special_pontoon_pays: int = 3

    def __post_init__(self) -> None:
        _plain_python_values(self)
        if isinstance(self.draw_on_21, bool):  # the older boolean form of the option
            object.__setattr__(self, "draw_on_21", "any" if self.draw_on_21 else "no")
        if not isinstance(self.name, str) or not self.name:
            _fail("name", self.name, "a non-empty str")
        _int_in("num_decks", self.num_decks, 1, MAX_DECKS)
        _choice("pack", self.pack, tuple(PACKS))
        _choice("shoe", self.shoe, SHOE_KINDS)
        if not isinstance(self.penetration, (int, float)) or not 0.25 <= self.penetration <= 0.95:
            _fail("penetration", self.penetration, "a float in 0.25..0.95")
        _int_in("min_stake", self.min_stake, 1, CHIP_LIMIT)
        _int_in("max_stake", self.max_stake, self.min_stake, CHIP_LIMIT)
        _int_in("base_stake", self.base_stake, 1, CHIP_LIMIT)
        _int_in("max_boxes", self.max_boxes, 1, 3)
        _bool("shoot", self.shoot)
        for name in ("banker_peek", "dealer_hits_soft_17", "punter_trick_beats_banker_trick",
                     "buy_after_twist", "buy_face_down", "double_stakes", "pontoon_after_split",
                     "split_bust_pays_double", "bank_sale", "dealer_shows_first_card"):
            _bool(name, getattr(self, name))
        if not isinstance(self.shoot_bet_points, tuple) or len(set(self.shoot_bet_points)) != len(
            self.shoot_bet_points
        ) or any(p not in SHOOT_BET_POINTS for p in self.shoot_bet_points):
            _fail("shoot_bet_points", self.shoot_bet_points, f"a tuple of distinct names from {SHOOT_BET_POINTS}")
        if self.shoot:
            _int_in("initial_shoot", self.initial_shoot, 1, CHIP_LIMIT)
            if self.shoot_cap is not None:
                _int_in("shoot_cap", self.shoot_cap, self.initial_shoot, CHIP_LIMIT)
        else:
            if self.initial_shoot != 0:
                _fail("initial_shoot", self.initial_shoot, "0 when shoot=False")
            for name in ("shoot_bet_points", "shoot_cap", "max_shoot_bet"):
                if getattr(self, name) not in ((), None):
                    _fail(name, getattr(self, name), "empty or None when shoot=False")
            if self.reserved_shoot_percent or self.progressive_shoot_chips or self.bank_sale:
                bad = next(n for n in ("reserved_shoot_percent", "progressive_shoot_chips", "bank_sale")
                           if getattr(self, n))
                _fail(bad, getattr(self, bad), "0 or False when shoot=False")
        if self.max_shoot_bet is not None:
            _int_in("max_shoot_bet", self.max_shoot_bet, 1, CHIP_LIMIT)
        _int_in("reserved_shoot_percent", self.reserved_shoot_percent, 0, 99)
        _int_in("progressive_shoot_chips", self.progressive_shoot_chips, 0, self.min_stake)
        _int_in("bank_sale_price", self.bank_sale_price, 0, CHIP_LIMIT)
        _int_in("banker_pontoon_multiple", self.banker_pontoon_multiple, 1, 3)
        _choice("banker_play", self.banker_play, BANKER_PLAY_KINDS)
        _int_in("dealer_stands_on", self.dealer_stands_on, 12, 21)
        _choice("ties", self.ties, TIE_KINDS)
        _choice("draw_on_21", self.draw_on_21, DRAW_ON_21_KINDS)
        _choice("banker_five_cards", self.banker_five_cards, BANKER_FIVE_CARD_KINDS)
        _int_in("stick_minimum", self.stick_minimum, 2, 21)
        if self.punter_loses_at_or_below is not None:
            _int_in("punter_loses_at_or_below", self.punter_loses_at_or_below, 2, 20)
        _int_in("buy_min_multiple", self.buy_min_multiple, 1, 5)
        _int_in("buy_max_multiple", self.buy_max_multiple, self.buy_min_multiple, 5)
        if self.max_buys is not None:
            _int_in("max_buys", self.max_buys, 0, MAX_DRAWS)
        if self.max_stake_multiple is not None:
            _int_in("max_stake_multiple", self.max_stake_multiple, 1 + self.buy_min_multiple,
                    MAX_STAKE_MULTIPLE)
        _choice("split_match", self.split_match, SPLIT_MATCH_KINDS)
        _int_in("max_split_hands", self.max_split_hands, 1, 4)
        for name in ("win_pays", "twenty_one_pays", "pontoon_pays", "five_card_trick_pays",
                     "special_pontoon_pays"):
            _int_in(name, getattr(self, name), 1, 10)
        if not isinstance(self.special_pontoons, tuple) or not all(
            isinstance(pair, tuple) and len(pair) == 2 and all(_card_pattern_ok(p) for p in pair)
            for pair in self.special_pontoons
        ):
            _fail("special_pontoons", self.special_pontoons,
                  'a tuple of card-pattern pairs such as (("A*", "JC"),)')

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like a new instance)."""
        return dataclasses.replace(self, **changes)

    @property
    def buys_allowed(self) -> bool:
        return self.max_buys != 0

    def may_draw_on(self, total: Any, soft: Any) -> Any:
        """Whether a hand of this best total (not bust, under five cards) may still take a card.
        Works on ints and bools, and elementwise on NumPy arrays (the solver's hand tables)."""
        soft_ok = (self.draw_on_21 == "soft") & soft
        return (total < 21) | ((total == 21) & ((self.draw_on_21 == "any") | soft_ok))

    @property
    def banker_stops_at_five(self) -> bool:
        """Whether the banker stops drawing at five cards (under "trick" and "total")."""
        return self.banker_five_cards != "draw_on"

    def banker_done_drawing(self, total: int, soft: bool, num_cards: int) -> bool:
        """Whether the banker's hand of this best total and softness stops drawing without a decision:
        bust, five cards (unless it draws on), the dealer's fixed rule under ``banker_play="dealer"``,
        or a 21 that may not draw (``draw_on_21``) for a free banker."""
        if total > 21 or (num_cards >= FIVE_CARDS and self.banker_stops_at_five):
            return True
        if self.banker_play == "dealer":
            if total > self.dealer_stands_on:
                return True
            if total == self.dealer_stands_on:
                return not (soft and self.dealer_hits_soft_17 and total == 17)
            return False
        return not self.may_draw_on(total, soft)

    @property
    def banker_card_limit(self) -> int:
        """The most cards a banker's hand can hold: five, or when it draws on, the most low cards
        of the shoe that total 21 or less, and one more card that busts them."""
        if self.banker_stops_at_five:
            return FIVE_CARDS
        held = total = 0
        for value, count in enumerate(self.value_counts, start=1):  # the smallest cards first
            for _ in range(count):
                if total + value > 21:
                    return held + 1
                held, total = held + 1, total + value
        return held + 1

    @property
    def pack_cards(self) -> tuple[int, ...]:
        """One pack's card ints in pack order (rank by rank, each in the four suits)."""
        return cards_of_pack(self.pack)

    @property
    def shoe_size(self) -> int:
        """Cards in the full shoe: ``num_decks`` packs."""
        return self.num_decks * len(self.pack_cards)

    @property
    def value_counts(self) -> tuple[int, ...]:
        """Cards of each value 1 (the ace) .. 10 in the full shoe."""
        return tuple(n * self.num_decks for n in pack_value_counts(self.pack))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


SHOOT = Rules(name="shoot")
"""Shoot Pontoon, the British home game of seed 000 (one pack, reshuffled every deal)."""

CASINO = Rules(
    name="casino",
    num_decks=6,
    base_stake=4,
    min_stake=1,
    max_stake=4000,
    max_boxes=3,
    shoot=False,
    initial_shoot=0,
    shoot_bet_points=(),
    bank_sale=False,
    banker_peek=False,
    banker_pontoon_multiple=1,
    banker_play="dealer",
    dealer_shows_first_card=True,
    banker_five_cards="trick",
    punter_trick_beats_banker_trick=True,
    draw_on_21="soft",
    buy_min_multiple=1,
    buy_max_multiple=1,
    max_buys=1,
    buy_after_twist=True,
    max_stake_multiple=2,
    buy_face_down=False,
    split_match="value",
    max_split_hands=3,
    punter_loses_at_or_below=None,
)
"""The online casino rule set of seed 003 (chips of $0.25: stakes $0.25..$1,000, up to three boxes)."""

PLAYTECH = CASINO.replace(
    name="playtech",
    num_decks=8,
    base_stake=1,
    max_stake=100,
    max_boxes=1,
    banker_peek=True,
    dealer_shows_first_card=False,
    punter_trick_beats_banker_trick=False,
)
"""Playtech Pontoon of seed 004, completed with the common 8-deck online British rules."""

PRESETS: dict[str, Rules] = {rules.name: rules for rules in (SHOOT, CASINO, PLAYTECH)}


TUPLE_OPTIONS = ("shoot_bet_points", "special_pontoons")
"""Options held as tuples, which a JSON or YAML spec writes as lists."""


def _as_tuple(value: Any) -> Any:
    return tuple(_as_tuple(v) for v in value) if isinstance(value, list) else value


def rules_from_spec(spec: Mapping[str, Any]) -> Rules:
    """A preset with options changed, from plain data (a JSON or YAML mapping):
    ``{"preset": "shoot", "max_shoot_bet": 2, "shoot_bet_points": ["before_second_card"]}``.
    Lists stand for the tuple options; the name is ``"<preset>-custom"`` unless the spec gives one."""
    options = dict(spec)
    preset = options.pop("preset", None)
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(f"rules spec {dict(spec)!r}: expected a 'preset' key naming one of {sorted(PRESETS)}")
    known = {f.name for f in dataclasses.fields(Rules)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise RulesError(f"rules spec: unknown option(s) {unknown}: expected options of Rules, {sorted(known)}")
    options.setdefault("name", f"{preset}-custom")
    return PRESETS[preset].replace(**{k: _as_tuple(v) if k in TUPLE_OPTIONS else v for k, v in options.items()})


def get_rules(rules: str | Rules | Mapping[str, Any]) -> Rules:
    """A preset by name, the given Rules unchanged, or a preset with changes from a mapping (see
    :func:`rules_from_spec`)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        return rules_from_spec(rules)
    if isinstance(rules, str) and rules in PRESETS:
        return PRESETS[rules]
    raise RulesError(
        f"unknown rules preset {rules!r}: expected one of {sorted(PRESETS)}, a Rules, or a mapping such as "
        '{"preset": "shoot", "max_shoot_bet": 2}')
