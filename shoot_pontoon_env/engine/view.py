"""What one seat may see of the table: the input of rule-based players and of observation encoders.

Built only from face-up cards, the seat's own cards and public chip amounts, so a strategy or an
observation made from a view can never peek at a hidden card. Views are immutable named tuples: every
decision of a table player builds one, so they must be cheap to make (``view._replace(legal=...)``
gives a changed copy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..actions import LegalMove
from ..cards import best_total
from ..rules import Rules
from .hand import Hand
from .table import Phase, Table


class HandView(NamedTuple):
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


class SeatView(NamedTuple):
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


_new_view = tuple.__new__
"""Builds a named tuple from its values in field order without the Python-level ``__new__`` (a view
is built for every decision of every seat)."""
_DECIDING_PHASES = (Phase.SHOOT_BETS, Phase.PLAY)


def seen_cards(hands: Sequence[Hand], banker_cards: Sequence[int], banker_face_up: Sequence[bool] | None,
               seat: int, counts: list[int]) -> tuple[tuple[HandView, ...], tuple[int, ...]]:
    """What ``seat`` sees of the hands and of the banker's cards (all of them for the banker:
    ``banker_face_up`` None); each card it sees
    is added to ``counts`` (ranks seen since the shuffle), except those of a reshuffled hand. The
    Table's and the batched engine's views (``vector/readout.py``) are both built here."""
    views = []
    for hand in hands:
        cards = hand.cards
        if hand.seat == seat:
            visible = tuple(cards)
        else:
            visible = tuple([c for c, up in zip(cards, hand.face_up) if up])
        if not hand.reshuffled:
            for card in visible:
                counts[card >> 2] += 1
        settled = hand.settled
        bust = settled and best_total(cards)[0] > 21  # a hand that busts is settled at once
        views.append(_new_view(HandView, (
            hand.seat, visible, len(cards) - len(visible), hand.stake, hand.original_stake, hand.shoot_bet,
            hand.buys, hand.twists, hand.doubled, hand.from_split, hand.done, settled, bust, hand.result,
        )))
    if banker_face_up is None:  # the banker's own view
        shown = tuple(banker_cards)
    else:
        shown = tuple([c for c, up in zip(banker_cards, banker_face_up) if up])
    for card in shown:
        counts[card >> 2] += 1
    return tuple(views), shown


def seat_view(table: Table, seat: int) -> SeatView:
    """The view of ``seat`` now; ``legal`` is filled only when that seat is to act."""
    banker = table.banker
    is_banker = seat == banker
    counts = table.seen_before_deal.tolist()
    all_banker_cards = table.banker_cards
    hands, banker_cards = seen_cards(table.hands, all_banker_cards, None if is_banker else table.banker_face_up,
                                     seat, counts)
    acting = table.to_act == seat
    phase = table.phase
    deciding = acting and phase in _DECIDING_PHASES
    return _new_view(SeatView, (
        seat, is_banker, banker, table.rules, phase, table.legal_moves() if acting else (), table.shoot,
        table.shoot_capacity, table.reserve, table.shoot_bet_point if deciding else None,
        table.cursor if deciding else None, hands, banker_cards,
        len(all_banker_cards) - len(banker_cards), np.array(counts, dtype=np.int64), len(table.shoe.order),
        table.balances[seat], table.num_players,
    ))
