"""A table of the batched engine read back as the Table's objects: its hands as
:class:`Hand` and the agent seat's :class:`SeatView`, for a scalar env whose episode runs on the
batched engine (its ``view``, and the evaluation's record of each hand).

The view is the one :func:`shoot_pontoon_env.engine.view.seat_view` builds from a Table, with the
env's own changes (the banker seat's acknowledgement, no legal moves once the episode is over);
``tests/vector`` compares the two at every step. The legal moves, the pending hand and the Shoot's
room come from the kernel's own functions, so no rule is restated here.
"""

from __future__ import annotations

import numpy as np

from ..actions import ActionKind, LegalMove
from ..engine.hand import Hand
from ..engine.table import PHASE_OF_STAGE, Stage
from ..engine.view import SeatView, seen_cards
from ..rules import SHOOT_BET_POINTS, Rules
from .tables import TableBatch
from ..seat.episode import TableFacts
from .kernel_hands import MOVE
from .kernel_seat import V_TO_ACT, VIEW_FIELDS, view_fields
from .layout import (
    BALANCES, C_PLAYERS, C_SEAT, HAND_BYTES, HAND_UP, H_BOX, H_BUYS, H_CARDS, H_DONE, H_DOUBLED, H_FOURTH_OFFERED,
    H_FROM_SPLIT, H_ORIGINAL, H_RESHUFFLED, H_RESULT, H_SEAT, H_SETTLED, H_SHOOT_BET, H_STAKE, H_TWISTS,
    H_WON_FROM_SHOOT, K_FIXED, K_O_BC, K_O_BU, K_O_SEEN, T_BANKER, T_BANKER_CARDS, T_RESERVE, T_SHOE_SIZE,
    T_SHOOT, T_STAGE, T_TURNOVERS,
)


def batch_hands(batch: TableBatch, table: int = 0) -> list[Hand]:
    """The hands of table ``table``, in the table's order, as the Table holds them."""
    k8 = batch.k8[table]
    hands = []
    for k, row in enumerate(batch.hands_of(table).tolist()):
        start = K_FIXED + k * HAND_BYTES
        cards = k8[start:][:row[H_CARDS]].tolist()
        face_up = [bool(up) for up in k8[start + HAND_UP:][:len(cards)].tolist()]
        hands.append(Hand(
            row[H_SEAT], row[H_BOX], row[H_ORIGINAL], row[H_STAKE], cards, face_up, row[H_SHOOT_BET], row[H_BUYS],
            row[H_TWISTS], bool(row[H_DOUBLED]), bool(row[H_FROM_SPLIT]), bool(row[H_FOURTH_OFFERED]),
            bool(row[H_DONE]), bool(row[H_SETTLED]), row[H_RESULT], row[H_WON_FROM_SHOOT], bool(row[H_RESHUFFLED]),
        ))
    return hands


def batch_seat_view(batch: TableBatch, rules: Rules, table: int = 0) -> SeatView:
    """The agent seat's view at table ``table`` of ``batch`` (whose env has ``rules``)."""
    t, k8, c = batch.t[table], batch.k8[table], batch.config.c
    out = np.zeros(VIEW_FIELDS + MOVE * 8, dtype=np.int64)  # room for 8 moves, as the kernel's scratch_size
    view_fields(t, k8, c, out)
    current, capacity, point, _, moves = out[:VIEW_FIELDS].tolist()
    seat, banker = int(c[C_SEAT]), int(t[T_BANKER])
    counts = k8[K_O_SEEN:K_O_SEEN + 13].tolist()
    dealt = int(t[T_BANKER_CARDS])
    face_up = None if seat == banker else [bool(up) for up in k8[K_O_BU:K_O_BU + dealt].tolist()]
    hands, banker_cards = seen_cards(batch_hands(batch, table), k8[K_O_BC:K_O_BC + dealt].tolist(), face_up, seat,
                                     counts)
    legal = tuple(LegalMove(ActionKind(kind), low, high)
                  for kind, low, high in out[VIEW_FIELDS:VIEW_FIELDS + MOVE * moves].reshape(moves, MOVE).tolist())
    return SeatView(
        seat, seat == banker, banker, rules, PHASE_OF_STAGE[Stage(int(t[T_STAGE]))], legal, int(t[T_SHOOT]),
        capacity, int(t[T_RESERVE]), SHOOT_BET_POINTS[point] if point >= 0 else None,
        current if current >= 0 else None,
        hands, banker_cards, dealt - len(banker_cards), np.array(counts, dtype=np.int64),
        int(t[T_SHOE_SIZE]), int(t[BALANCES + seat]), int(c[C_PLAYERS]),
    )


def batch_facts(batch: TableBatch, table: int = 0) -> TableFacts:
    """The public state of table ``table``, as :meth:`TableEpisode.facts` reads it from a Table."""
    t, c = batch.t[table], batch.config.c
    out = np.zeros(VIEW_FIELDS + MOVE * 8, dtype=np.int64)
    view_fields(t, batch.k8[table], c, out)
    to_act = int(out[V_TO_ACT])
    seat = int(c[C_SEAT])
    return TableFacts(tuple(batch.balances[table].tolist()), int(t[T_SHOOT]), int(t[T_RESERVE]), int(t[T_BANKER]),
                      to_act if to_act >= 0 else None, int(batch.total_chips()[table]),
                      int(batch.wealth(seat)[table]), int(t[T_TURNOVERS]))
