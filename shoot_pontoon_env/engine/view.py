"""What one seat may see of the table: the input of rule-based players and of observation encoders.

Built only from face-up cards, the seat's own cards and public chip amounts, so a strategy or an
observation made from a view can never peek at a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..actions import LegalMove
from ..cards import best_total
from ..rules import Rules
from .table import Phase, Table


@dataclass(frozen=True)
class HandView:
    """A punter hand as a given seat sees it (``cards`` holds only the cards that seat may see)."""

    seat: int
    cards: tuple[int, ...]
    hidden_cards: int
    stake: int
    original_stake: int
    shoot_bet: int
    buys: int
    twists: int
    doubled: bool
    from_split: bool
    done: bool
    settled: bool
    bust: bool
    result: int

    @property
    def total(self) -> int:
        return best_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        return best_total(self.cards)[1]


@dataclass(frozen=True)
class SeatView:
    seat: int
    is_banker: bool
    banker: int
    """The banker's seat (public)."""
    rules: Rules
    phase: Phase
    legal: tuple[LegalMove, ...]
    shoot: int
    shoot_capacity: int
    reserve: int
    shoot_bet_point: str | None
    current: int | None
    """Index into ``hands`` of the hand whose decision is pending, if it is this seat's."""
    hands: tuple[HandView, ...]
    banker_cards: tuple[int, ...]
    """The banker's cards this seat may see (all of them for the banker)."""
    banker_hidden: int
    seen_counts: np.ndarray
    """Ranks A..K this seat has seen leave the shoe since its last shuffle (card counting)."""
    shoe_size: int
    balance: int
    num_players: int

    @property
    def current_hand(self) -> HandView | None:
        return None if self.current is None else self.hands[self.current]

    @property
    def own_hands(self) -> tuple[HandView, ...]:
        return tuple(h for h in self.hands if h.seat == self.seat)


def seat_view(table: Table, seat: int) -> SeatView:
    """The view of ``seat`` now; ``legal`` is filled only when that seat is to act."""
    is_banker = seat == table.banker
    hands = []
    counts = table.seen_before_deal.copy()
    for hand in table.hands:
        mine = hand.seat == seat
        visible = tuple(c for c, up in zip(hand.cards, hand.face_up) if up or mine)
        if not hand.reshuffled:
            for card in visible:
                counts[card // 4] += 1
        hands.append(
            HandView(
                seat=hand.seat, cards=visible, hidden_cards=len(hand.cards) - len(visible),
                stake=hand.stake, original_stake=hand.original_stake, shoot_bet=hand.shoot_bet,
                buys=hand.buys, twists=hand.twists, doubled=hand.doubled, from_split=hand.from_split,
                done=hand.done, settled=hand.settled, bust=best_total(hand.cards)[0] > 21,
                result=hand.result,
            )
        )
    banker_cards = tuple(
        c for c, up in zip(table.banker_cards, table.banker_face_up) if up or is_banker
    )
    for card in banker_cards:
        counts[card // 4] += 1
    acting = table.to_act == seat
    current = table.cursor if acting and table.phase in (Phase.SHOOT_BETS, Phase.PLAY) else None
    return SeatView(
        seat=seat, is_banker=is_banker, banker=table.banker, rules=table.rules, phase=table.phase,
        legal=table.legal_moves() if acting else (), shoot=table.shoot,
        shoot_capacity=table.shoot_capacity, reserve=table.reserve,
        shoot_bet_point=table.shoot_bet_point if acting else None, current=current,
        hands=tuple(hands), banker_cards=banker_cards,
        banker_hidden=len(table.banker_cards) - len(banker_cards), seen_counts=counts,
        shoe_size=table.shoe.size, balance=table.balances[seat], num_players=table.num_players,
    )
