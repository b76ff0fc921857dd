"""The flat observation: an encoding of one seat's :class:`SeatView`, and its inverse.

Only the view is read, so an observation holds exactly what the seat may see. Index table (also in
``docs/ENVIRONMENTS.md``); chip amounts are in base stakes (chips / ``rules.base_stake``, the unit
of rewards), card counts are divided by 5, totals by 21:

=========== ====================================================================================
PHASE       one-hot phase of the deal (STAKES, SHOOT_BETS, PLAY, BANKER, BANK_DECISION, DEAL_OVER)
BET_POINT   one-hot open Shoot betting point (before_deal, before_second_card, before_fourth_card)
LEGAL_KINDS one flag per ActionKind (STAKE .. SELL_BANK) that is legal now
MOVES       the Table's legal moves in order, 6 slots of (present, kind / 8, low, high)
SEATS       is banker, own seat / 9, banker's seat / 9, players / 10, own place after the banker / 9
CHIPS       Shoot, reserve, Shoot capacity (largest bet allowed now), own balance - starting chips
BANKER      the banker's first visible card (one-hot rank), visible rank counts (13), visible
            cards, hidden cards, visible total, soft, bust, Pontoon, Five Card Trick
COUNT       per rank A..K the fraction of the shoe's cards seen since its last shuffle, and the
            fraction of the whole shoe seen (card counting with a persistent shoe)
EPISODE     deals left in the episode after this one / deals per episode
CURRENT     the hand whose decision is pending (a copy of its slot in HANDS; zeros if none)
HANDS       one slot per possible punter hand, in the table's hand order (dealing order, split
            hands after their parent); (players - 1) x max_boxes x max_split_hands slots
=========== ====================================================================================

A hand slot (``HAND_SIZE`` values): present, own, current, place after the banker / 9, visible
cards, hidden cards, visible rank counts (13), visible total, soft, stake, original stake, Shoot
bet, buys / 3, twists / 3, doubled, from split, done, settled, bust, Pontoon, Five Card Trick,
stuck, result.

:func:`decode_view` turns an observation back into a :class:`SeatView` with the same legal moves,
hand totals, ranks, chips and counts, so rule-based strategies act identically on either; suits
and the order of a hand's cards are not encoded (they change no decision of the rules).
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable

import numpy as np

from ..actions import ActionKind, LegalMove
from ..cards import FIVE_CARDS, HandClass, best_total, hand_class, is_pontoon_pair
from ..engine.table import MAX_PLAYERS, Phase
from ..engine.view import HandView, SeatView
from ..rules import MAX_DECKS, MAX_DRAWS, SHOOT_BET_POINTS, Rules

NUM_RANKS = 13
MAX_CARDS = FIVE_CARDS
"""Card counts are scaled by the five cards a punter hand holds at most (buys and twists by MAX_DRAWS)."""
MAX_MOVES = 6
TOTAL_SCALE = 21.0
TOTAL_BOUND = 1.5  # a bust can show 31: 21 + a ten
SEAT_SCALE = float(MAX_PLAYERS - 1)
CHIP_BOUND = 1e6
"""Bound of every chip field, in base stakes; amounts beyond it are clipped."""
NUM_KINDS = len(ActionKind)

# --------------------------------------------------------------------------- hand slot fields
H_PRESENT, H_OWN, H_CURRENT, H_PLACE, H_VISIBLE, H_HIDDEN = range(6)
H_RANKS = slice(6, 6 + NUM_RANKS)
(H_TOTAL, H_SOFT, H_STAKE, H_ORIGINAL, H_SHOOT_BET, H_BUYS, H_TWISTS, H_DOUBLED, H_FROM_SPLIT, H_DONE,
 H_SETTLED, H_BUST, H_PONTOON, H_FIVE_CARD_TRICK, H_STUCK, H_RESULT) = range(19, 35)
HAND_SIZE = 35

# --------------------------------------------------------------------------- the fixed header
_HEADER = (
    ("PHASE", len(Phase)), ("BET_POINT", len(SHOOT_BET_POINTS)), ("LEGAL_KINDS", NUM_KINDS),
    ("MOVES", 4 * MAX_MOVES), ("SEATS", 5), ("CHIPS", 4), ("BANKER", 2 * NUM_RANKS + 7),
    ("COUNT", NUM_RANKS + 1), ("EPISODE", 1), ("CURRENT", HAND_SIZE),
)


def _blocks() -> dict[str, slice]:
    blocks, start = {}, 0
    for name, size in _HEADER:
        blocks[name] = slice(start, start + size)
        start += size
    return blocks


BLOCKS: dict[str, slice] = _blocks()
PHASE = BLOCKS["PHASE"]
BET_POINT = BLOCKS["BET_POINT"]
LEGAL_KINDS = BLOCKS["LEGAL_KINDS"]
MOVES = BLOCKS["MOVES"]
SEATS = BLOCKS["SEATS"]
CHIPS = BLOCKS["CHIPS"]
BANKER = BLOCKS["BANKER"]
COUNT = BLOCKS["COUNT"]
EPISODE = BLOCKS["EPISODE"]
CURRENT = BLOCKS["CURRENT"]
HANDS_START = CURRENT.stop

SEAT_IS_BANKER, SEAT_OWN, SEAT_BANKER, SEAT_PLAYERS, SEAT_PLACE = range(SEATS.start, SEATS.stop)
CHIP_SHOOT, CHIP_RESERVE, CHIP_CAPACITY, CHIP_BALANCE = range(CHIPS.start, CHIPS.stop)
BANKER_FIRST = slice(BANKER.start, BANKER.start + NUM_RANKS)
BANKER_RANKS = slice(BANKER_FIRST.stop, BANKER_FIRST.stop + NUM_RANKS)
(BANKER_VISIBLE, BANKER_HIDDEN, BANKER_TOTAL, BANKER_SOFT, BANKER_BUST, BANKER_PONTOON,
 BANKER_FIVE_CARD_TRICK) = range(BANKER_RANKS.stop, BANKER.stop)
COUNT_RANKS = slice(COUNT.start, COUNT.start + NUM_RANKS)
COUNT_SHOE = COUNT.stop - 1


def hand_slots(rules: Rules, num_players: int) -> int:
    """Punter hands a table can hold at once: every box of every punter split to the limit."""
    return (num_players - 1) * rules.max_boxes * max(rules.max_split_hands, 1)


def observation_size(rules: Rules, num_players: int) -> int:
    return HANDS_START + HAND_SIZE * hand_slots(rules, num_players)


def hand_slot(index: int) -> slice:
    """Where hand slot ``index`` lies in the observation."""
    start = HANDS_START + HAND_SIZE * index
    return slice(start, start + HAND_SIZE)


def _hand_bounds(low: np.ndarray, high: np.ndarray, start: int) -> None:
    high[start + H_TOTAL] = TOTAL_BOUND
    for field in (H_STAKE, H_ORIGINAL, H_SHOOT_BET):
        high[start + field] = CHIP_BOUND
    low[start + H_RESULT], high[start + H_RESULT] = -CHIP_BOUND, CHIP_BOUND


def observation_bounds(rules: Rules, num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """Finite float32 bounds of every index: [0, 1] unless a field says otherwise."""
    size = observation_size(rules, num_players)
    low = np.zeros(size, dtype=np.float32)
    high = np.ones(size, dtype=np.float32)
    for m in range(MAX_MOVES):
        high[MOVES.start + 4 * m + 2: MOVES.start + 4 * m + 4] = CHIP_BOUND
    high[[CHIP_SHOOT, CHIP_RESERVE, CHIP_CAPACITY]] = CHIP_BOUND
    low[CHIP_BALANCE], high[CHIP_BALANCE] = -CHIP_BOUND, CHIP_BOUND
    high[BANKER_TOTAL] = TOTAL_BOUND
    if not rules.banker_stops_at_five:  # a banker that draws on holds more than five cards
        high[BANKER_RANKS] = high[BANKER_VISIBLE] = rules.banker_card_limit / MAX_CARDS
    for start in [CURRENT.start] + [hand_slot(i).start for i in range(hand_slots(rules, num_players))]:
        _hand_bounds(low, high, start)
    return low, high


# --------------------------------------------------------------------------- encoding
class ObservationEncoder:
    """Encodes the views of one table configuration (rules, table size, starting chips)."""

    def __init__(self, rules: Rules, num_players: int, starting_chips: int = 0) -> None:
        self.rules = rules
        self.num_players = num_players
        self.starting_chips = starting_chips
        self.slots = hand_slots(rules, num_players)
        self.size = observation_size(rules, num_players)
        self.low, self.high = observation_bounds(rules, num_players)
        self._unit = float(rules.base_stake)
        self._per_rank = 4 * rules.num_decks

    def encode(self, view: SeatView, deals_left: float = 0.0) -> np.ndarray:
        """A new float32 array for ``view``; ``deals_left`` is the EPISODE value. (Filled as a list
        of doubles and converted once: each value is the float32 of the same double as before.)"""
        banker = view.banker
        obs = [0.0] * self.size
        unit, n = self._unit, view.num_players
        obs[PHASE.start + int(view.phase)] = 1.0
        if view.shoot_bet_point is not None:
            obs[BET_POINT.start + SHOOT_BET_POINTS.index(view.shoot_bet_point)] = 1.0
        if len(view.legal) > MAX_MOVES:
            raise ValueError(f"{len(view.legal)} legal moves do not fit the {MAX_MOVES} MOVES slots")
        base = MOVES.start
        for move in view.legal:
            kind = int(move.kind)
            obs[LEGAL_KINDS.start + kind] = 1.0
            obs[base: base + 4] = (1.0, kind / (NUM_KINDS - 1), move.low / unit, move.high / unit)
            base += 4
        seat = view.seat
        obs[SEAT_IS_BANKER: SEAT_PLACE + 1] = (
            float(view.is_banker), seat / SEAT_SCALE, banker / SEAT_SCALE, n / MAX_PLAYERS,
            ((seat - banker) % n) / SEAT_SCALE,
        )
        obs[CHIP_SHOOT: CHIP_BALANCE + 1] = (
            view.shoot / unit, view.reserve / unit, view.shoot_capacity / unit,
            (view.balance - self.starting_chips) / unit,
        )
        self._encode_banker(obs, view)
        per_rank = self._per_rank
        seen = view.seen_counts.tolist()
        obs[COUNT_RANKS] = [c / per_rank for c in seen]
        obs[COUNT_SHOE] = float(sum(seen)) / view.shoe_size
        obs[EPISODE.start] = deals_left
        hands = view.hands
        if len(hands) > self.slots:
            raise ValueError(f"{len(hands)} hands do not fit the {self.slots} hand slots")
        current = view.current
        pontoon_after_split = view.rules.pontoon_after_split
        start = HANDS_START
        for index, hand in enumerate(hands):
            _encode_hand(obs, start, hand, seat, banker, n, index == current, unit, pontoon_after_split)
            if index == current:
                obs[CURRENT] = obs[start:start + HAND_SIZE]
            start += HAND_SIZE
        array = np.frombuffer(_packer(self.size)(*obs)).astype(np.float32)
        np.minimum(array, self.high, out=array)  # the clip to the space's bounds
        np.maximum(array, self.low, out=array)
        return array

    def _encode_banker(self, obs: list[float], view: SeatView) -> None:
        cards = view.banker_cards
        if cards:
            obs[BANKER_FIRST.start + cards[0] // 4] = 1.0
            _rank_fractions(obs, BANKER_RANKS.start, cards)
        total, soft = best_total(cards)
        hidden = view.banker_hidden
        shown = hidden == 0  # a Pontoon or a Five Card Trick only once every card shows
        cls = hand_class(total, len(cards), pontoon=shown and is_pontoon_pair(cards),
                         five_card_trick=shown and view.rules.banker_five_cards == "trick")
        obs[BANKER_VISIBLE: BANKER_FIVE_CARD_TRICK + 1] = (
            len(cards) / MAX_CARDS, hidden / MAX_CARDS, total / TOTAL_SCALE, float(soft),
            float(cls == HandClass.BUST), float(cls == HandClass.PONTOON),
            float(cls == HandClass.FIVE_CARD_TRICK),
        )


@functools.cache
def _packer(size: int) -> Callable[..., bytes]:
    """Packs ``size`` doubles into bytes in one C call: converting the list this way costs half of what
    np.array does. (Kept out of the encoder, which must pickle.)"""
    return struct.Struct(f"={size}d").pack


def _encode_hand(obs: list[float], start: int, hand: HandView, seat: int, banker: int, num_players: int,
                 current: bool, unit: float, pontoon_after_split: bool) -> None:
    cards = hand.cards
    total, soft = best_total(cards)
    hidden = hand.hidden_cards
    visible = len(cards)
    counts = hidden == 0 and (pontoon_after_split or not hand.from_split)  # a Pontoon shows its cards
    cls = hand_class(total, visible + hidden, pontoon=counts and is_pontoon_pair(cards),
                     five_card_trick=True)
    bust = hand.bust  # the view's: a hand that busts is settled at once
    pontoon = cls == HandClass.PONTOON
    trick = cls == HandClass.FIVE_CARD_TRICK and not bust
    done = hand.done
    _rank_fractions(obs, start + H_RANKS.start, cards)
    obs[start: start + H_RANKS.start] = (
        1.0, float(hand.seat == seat), float(current), ((hand.seat - banker) % num_players) / SEAT_SCALE,
        visible / MAX_CARDS, hidden / MAX_CARDS,
    )
    obs[start + H_TOTAL: start + HAND_SIZE] = (
        total / TOTAL_SCALE, float(soft), hand.stake / unit, hand.original_stake / unit,
        hand.shoot_bet / unit, hand.buys / MAX_DRAWS, hand.twists / MAX_DRAWS, float(hand.doubled),
        float(hand.from_split), float(done), float(hand.settled), float(bust), float(pontoon),
        float(trick), float(done and not bust and not pontoon and not trick), hand.result / unit,
    )


def _float32_sums(step: float, count: int) -> tuple[float, ...]:
    """0, step, step + step, ... added up in float32, as the fractions of a rank are."""
    total, sums = np.float32(0.0), [0.0]
    for _ in range(count):
        total = np.float32(total + np.float32(step))
        sums.append(float(total))
    return tuple(sums)


RANK_FRACTIONS = _float32_sums(1.0 / MAX_CARDS, 4 * MAX_DECKS)
"""The observation's value for k cards of one rank: k fifths, added in float32."""
_NEXT_FRACTION = dict(zip(RANK_FRACTIONS, RANK_FRACTIONS[1:]))
"""The value after one more card of a rank (the fractions are distinct, from 0.0)."""


def _rank_fractions(obs: list[float], start: int, cards: tuple[int, ...]) -> None:
    """Adds each card to its rank's fraction (the slots start at 0.0)."""
    for card in cards:
        index = start + (card >> 2)
        obs[index] = _NEXT_FRACTION[obs[index]]


# --------------------------------------------------------------------------- decoding
def _count(value: float, scale: float) -> int:
    return int(round(float(value) * scale))


def _cards_from(obs: np.ndarray, ranks: slice, first: int | None = None) -> tuple[int, ...]:
    """Cards (suit clubs) from rank counts; ``first`` (a rank) is put first."""
    counts = [_count(v, MAX_CARDS) for v in obs[ranks]]
    cards = []
    if first is not None and counts[first] > 0:
        counts[first] -= 1
        cards.append(first * 4)
    for rank, count in enumerate(counts):
        cards.extend([rank * 4] * count)
    return tuple(cards)


def decode_view(obs: np.ndarray, rules: Rules, *, starting_chips: int = 0) -> SeatView:
    """The :class:`SeatView` an observation was made from (suits and card order aside).

    ``rules`` must be the env's rules (the observation holds chips in base stakes and counts in
    shoe fractions); ``starting_chips`` restores the absolute balance. Rule-based strategies choose
    the same action index from it as from the real view.
    """
    obs = np.asarray(obs, dtype=np.float32)
    unit = float(rules.base_stake)
    num_players = _count(obs[SEAT_PLAYERS], MAX_PLAYERS)
    if not 2 <= num_players <= MAX_PLAYERS or len(obs) != observation_size(rules, num_players):
        raise ValueError(
            f"observation of length {len(obs)} does not match rules {rules.name!r} "
            f"(players read: {num_players})"
        )
    seat = _count(obs[SEAT_OWN], SEAT_SCALE)
    banker = _count(obs[SEAT_BANKER], SEAT_SCALE)
    phase = Phase(int(np.argmax(obs[PHASE])))
    point = obs[BET_POINT]
    legal = []
    for m in range(MAX_MOVES):
        base = MOVES.start + 4 * m
        if obs[base] < 0.5:
            break
        kind = ActionKind(_count(obs[base + 1], NUM_KINDS - 1))
        legal.append(LegalMove(kind, _count(obs[base + 2], unit), _count(obs[base + 3], unit)))
    first = int(np.argmax(obs[BANKER_FIRST])) if obs[BANKER_FIRST].max() > 0.5 else None
    hands, current = [], None
    for index in range(hand_slots(rules, num_players)):
        start = hand_slot(index).start
        if obs[start + H_PRESENT] < 0.5:
            break
        if obs[start + H_CURRENT] > 0.5:
            current = index
        hands.append(_decode_hand(obs, start, banker, num_players, unit))
    seen = np.array([_count(v, 4 * rules.num_decks) for v in obs[COUNT_RANKS]], dtype=np.int64)
    view = SeatView(
        seat=seat, is_banker=bool(obs[SEAT_IS_BANKER] > 0.5), banker=banker, rules=rules, phase=phase, legal=tuple(legal),
        shoot=_count(obs[CHIP_SHOOT], unit), shoot_capacity=_count(obs[CHIP_CAPACITY], unit),
        reserve=_count(obs[CHIP_RESERVE], unit),
        shoot_bet_point=SHOOT_BET_POINTS[int(np.argmax(point))] if point.max() > 0.5 else None,
        current=current, hands=tuple(hands), banker_cards=_cards_from(obs, BANKER_RANKS, first),
        banker_hidden=_count(obs[BANKER_HIDDEN], MAX_CARDS), seen_counts=seen,
        shoe_size=rules.shoe_size, balance=_count(obs[CHIP_BALANCE], unit) + starting_chips,
        num_players=num_players,
    )
    return view


def decode_banker_seat(obs: np.ndarray) -> int:
    return _count(obs[SEAT_BANKER], SEAT_SCALE)


def _decode_hand(obs: np.ndarray, start: int, banker: int, num_players: int, unit: float) -> HandView:
    flag = lambda field: bool(obs[start + field] > 0.5)  # noqa: E731
    return HandView(
        seat=(banker + _count(obs[start + H_PLACE], SEAT_SCALE)) % num_players,
        cards=_cards_from(obs[start:start + HAND_SIZE], H_RANKS),
        hidden_cards=_count(obs[start + H_HIDDEN], MAX_CARDS),
        stake=_count(obs[start + H_STAKE], unit), original_stake=_count(obs[start + H_ORIGINAL], unit),
        shoot_bet=_count(obs[start + H_SHOOT_BET], unit), buys=_count(obs[start + H_BUYS], MAX_DRAWS),
        twists=_count(obs[start + H_TWISTS], MAX_DRAWS), doubled=flag(H_DOUBLED),
        from_split=flag(H_FROM_SPLIT), done=flag(H_DONE), settled=flag(H_SETTLED), bust=flag(H_BUST),
        result=_count(obs[start + H_RESULT], unit),
    )
