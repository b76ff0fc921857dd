"""A text picture of the table as the agent's seat sees it: seats, visible cards, stakes, the Shoot,
and the deal's event log with every card that seat may not see left face down.

Reads only the agent's SeatView, the table's public chip counts and the event log; draws no random
numbers and changes nothing.
"""

from __future__ import annotations

import numpy as np

from ..cards import best_total, card_code
from ..engine.events import Event, EventKind, account_name
from ..engine.view import HandView
from .window import SeatWindow


def _cards(cards: tuple[int, ...], hidden: int) -> str:
    shown = [card_code(c) for c in cards] + ["??"] * hidden
    return " ".join(shown) if shown else "-"


def _hand_line(index: int, hand: HandView, current: bool) -> str:
    total = best_total(hand.cards)[0]
    text = f"hand {index}: {_cards(hand.cards, hand.hidden_cards):<17}"
    if hand.cards:
        text += f" ({'' if not hand.hidden_cards else 'shown '}{total})"
    text += f"  stake {hand.stake}"
    if hand.shoot_bet:
        text += f", Shoot bet {hand.shoot_bet}"
    status = "stands" if hand.done else ""
    if hand.settled:
        status = f"{'bust, ' if hand.bust else ''}settled {hand.result:+d}"
    if status:
        text += f"  [{status}]"
    return text + ("   <- to act" if current else "")


def event_line(event: Event, viewer: int) -> str:
    """One log entry as ``viewer`` may read it."""
    kind, seat = event.kind, event.seat
    who = f"seat {seat}" + (f" hand {event.hand}" if event.hand is not None else "")
    if kind == EventKind.CARD:
        visible = event.face_up or seat == viewer
        card = card_code(event.card) if visible and event.card is not None else "a card"
        return f"{who} gets {card} face {'up' if event.face_up else 'down'}"
    texts = {
        EventKind.SHUFFLE: f"the shoe is shuffled{f' ({event.note})' if event.note else ''}",
        EventKind.DEAL_START: f"deal {event.amount}: seat {seat} holds the bank",
        EventKind.POST_SHOOT: f"seat {seat} posts a Shoot of {event.amount}",
        EventKind.STAKE: f"{who} stakes {event.amount}{f' ({event.note})' if event.note else ''}",
        EventKind.SHOOT_BET: f"{who} bets {event.amount} against the Shoot ({event.note.replace('_', ' ')})",
        EventKind.PEEK: f"the banker (seat {seat}) peeks",
        EventKind.REVEAL: f"{who} shows {card_code(event.card) if event.card is not None else '?'}",
        EventKind.ACTION: f"{who}: {event.note}",
        EventKind.BUST: f"{who} busts with {event.amount}",
        EventKind.PONTOON: f"{who} has a Pontoon",
        EventKind.FIVE_CARD_TRICK: f"{who} has a Five Card Trick",
        EventKind.PAYMENT: f"  {event.amount} chips {account_name(event.src)} -> "
                           f"{account_name(event.dst)} ({event.note})",
        EventKind.RESULT: f"{who}: {event.note} {event.amount:+d}",
        EventKind.TURNOVER: f"the Shoot is empty: the bank passes from seat {event.src} to seat {event.dst}",
        EventKind.BANK_SALE: f"seat {event.src} sells the bank to seat {event.dst} for {event.amount}",
        EventKind.MISDEAL: "misdeal: every chip goes back",
        EventKind.FORFEIT: f"seat {seat} forfeits (illegal action)",
        EventKind.DEAL_END: "the deal is settled",
    }
    return texts.get(kind, f"{kind.value} {event}")


def render_text(window: SeatWindow) -> str:
    view, me = window.view, window.seat
    rules = window.rules
    role = "banker" if view.banker == me else "punter"
    lines = [
        f"Pontoon ({rules.name}) - deal {window.deals_played} of {window.deals_per_episode} this episode - "
        f"you are seat {me} ({role})",
    ]
    if rules.shoot:
        lines.append(f"Shoot {view.shoot}   reserve {view.reserve}   "
                     f"room for Shoot bets {view.shoot_capacity}")
    for seat in range(view.num_players):
        tag = ("you, " if seat == me else "") + ("banker" if seat == view.banker else "punter")
        head = f"seat {seat} ({tag}, chips {window.balances[seat]})"
        if seat == view.banker:
            lines.append(f"{head}: {_cards(view.banker_cards, view.banker_hidden)}"
                         + (f" ({best_total(view.banker_cards)[0]})" if view.banker_cards else ""))
            continue
        hands = [(i, h) for i, h in enumerate(view.hands) if h.seat == seat]
        lines.append(head + ("" if hands else ": no hand"))
        lines += [f"    {_hand_line(i, h, i == view.current)}" for i, h in hands]
    if window.episode_over:
        lines.append("the episode is over: call reset()")
    else:
        lines.append(f"your legal actions: {window.action_table.describe(np.flatnonzero(window.mask))}")
    if window.events is None:
        lines.append("(the batched engine keeps no log of the deal: engine='table' has one)")
    else:
        lines.append("log of this deal:")
        lines += [f"  {event_line(e, me)}" for e in window.events]
    return "\n".join(lines)
