"""A text picture of the table as the agent's seat sees it: seats, visible cards, stakes, the Shoot,
and the deal's event log with every card that seat may not see left face down.

Reads only the agent's SeatView, the table's public chip counts and the event log; draws no random
numbers and changes nothing. The words a hand's value is told in (a Pontoon, a Five Card Trick, bust),
the role of the seat that banks and the hands' labels are shared with the terminal game (``play.py``)
and the RGB picture (``picture.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..cards import HandClass, HandRank, best_total, card_code
from ..engine.events import Event, EventKind, account_name
from ..engine.settlement import banker_rank, hand_rank
from ..engine.view import HandView
from ..rules import Rules
from .window import SeatWindow

SPLIT_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def banker_role(rules: Rules) -> str:
    """What the seat holding the bank is called: the dealer where it draws by the house rule (the
    casino presets), else the banker."""
    return "dealer" if rules.banker_play == "dealer" else "banker"


def total_text(cards: Sequence[int]) -> str:
    """A best total, marked soft where an ace counts 11 in it (it can still draw without busting)."""
    total, soft = best_total(cards)
    return f"soft {total}" if soft else str(total)


def describe_rank(rank: HandRank) -> str:
    """A finished hand's value in words: a Pontoon and a Five Card Trick by name, not as a total."""
    if rank.hand_class == HandClass.BUST:
        return f"bust ({rank.total})"
    if rank.hand_class == HandClass.PONTOON:
        return "a Pontoon"
    if rank.hand_class == HandClass.FIVE_CARD_TRICK:
        return f"a Five Card Trick ({rank.total})"
    return str(rank.total)


def value_text(cards: Sequence[int], hidden: int, rank: HandRank) -> str:
    """What a seat can tell of a hand's value: the total its visible cards show while some are face
    down, else the hand's rank in words (a soft total marked)."""
    if hidden:
        return f"shows {total_text(cards)}"
    if rank.hand_class in (HandClass.TOTAL, HandClass.TWENTY_ONE):
        return total_text(cards)
    return describe_rank(rank)


def hand_value(hand: HandView, rules: Rules) -> str:
    """``value_text`` of a punter hand (a split hand's 21 is a Pontoon only if the rules say so)."""
    return value_text(hand.cards, hand.hidden_cards, hand_rank(hand, rules))  # type: ignore[arg-type]


def banker_value(cards: Sequence[int], hidden: int, rules: Rules) -> str:
    return value_text(cards, hidden, banker_rank(cards, rules))


def advance_labels(labels: list[str], event: Event) -> None:
    """Keep ``labels`` (one per hand, in the Table's hand order) up to date with one log entry. A
    hand keeps its label for the whole deal: a split hand ``2`` becomes ``2a`` and its new hand
    ``2b`` (a later split of either adds ``2c``), so that the hands after it keep theirs although
    their index in the Table's list moves up by one."""
    if event.kind != EventKind.STAKE or event.hand is None:
        return
    if event.note == "split":  # the new hand is logged at index + 1 of the hand that split
        parent = labels[event.hand - 1]
        family = re.sub(f"[{SPLIT_LETTERS}]+$", "", parent)
        used = {label[len(family):] for label in labels if re.fullmatch(rf"{family}[a-z]+", label)}
        if parent == family:
            labels[event.hand - 1] = family + "a"
            used.add("a")
        letter = next(c for c in SPLIT_LETTERS if c not in used)
        labels.insert(event.hand, family + letter)
    elif event.hand >= len(labels):  # a new box's stake (buys and doubles add to an existing hand)
        labels.append(str(event.hand))


def hand_labels(events: Sequence[Event] | None, hands: int) -> list[str]:
    """Each hand's label after ``events`` (a deal's whole log); the hand indices where there is no log."""
    if events is None:
        return [str(i) for i in range(hands)]
    labels: list[str] = []
    for event in events:
        advance_labels(labels, event)
    return labels if len(labels) == hands else [str(i) for i in range(hands)]


def _cards(cards: tuple[int, ...], hidden: int) -> str:
    shown = [card_code(c) for c in cards] + ["??"] * hidden
    return " ".join(shown) if shown else "-"


def _hand_line(label: str, hand: HandView, current: bool, rules: Rules) -> str:
    text = f"hand {label}: {_cards(hand.cards, hand.hidden_cards):<17}"
    if hand.cards:
        text += f" ({hand_value(hand, rules)})"
    text += f"  stake {hand.stake}"
    if hand.shoot_bet:
        text += f", Shoot bet {hand.shoot_bet}"
    status = "stands" if hand.done else ""
    if hand.settled:
        status = f"settled {hand.result:+d}"
    if status:
        text += f"  [{status}]"
    return text + ("   <- to act" if current else "")


def event_line(event: Event, viewer: int, label: str | None = None, role: str = "banker") -> str:
    """One log entry as ``viewer`` may read it; ``label``: the hand's label (``hand_labels``), by
    default its index in the Table's list at the time; ``role``: what the seat that banks is called."""
    kind, seat = event.kind, event.seat
    if label is None and event.hand is not None:
        label = str(event.hand)
    who = f"seat {seat}" + (f" hand {label}" if label is not None else "")
    if kind == EventKind.CARD:
        visible = event.face_up or seat == viewer
        card = card_code(event.card) if visible and event.card is not None else "a card"
        return f"{who} gets {card} face {'up' if event.face_up else 'down'}"
    texts = {
        EventKind.SHUFFLE: f"the shoe is shuffled{f' ({event.note})' if event.note else ''}",
        EventKind.DEAL_START: f"deal {event.amount}: seat {seat} "
                              + ("deals" if role == "dealer" else "holds the bank"),
        EventKind.POST_SHOOT: f"seat {seat} posts a Shoot of {event.amount}",
        EventKind.STAKE: f"{who} stakes {event.amount}{f' ({event.note})' if event.note else ''}",
        EventKind.SHOOT_BET: f"{who} bets {event.amount} against the Shoot ({event.note.replace('_', ' ')})",
        EventKind.PEEK: f"the {role} (seat {seat}) peeks",
        EventKind.REVEAL: f"{who} shows {card_code(event.card) if event.card is not None else '?'}",
        EventKind.ACTION: f"{who}: {event.note}",
        EventKind.BUST: f"{who} busts with {event.amount}",
        EventKind.PONTOON: f"{who} has a Pontoon",
        EventKind.FIVE_CARD_TRICK: f"{who} has a Five Card Trick",
        EventKind.PAYMENT: f"  {event.amount} chips {account_name(event.src)} -> "
                           f"{account_name(event.dst)} ({event.note.replace('banker', role)})",
        EventKind.RESULT: f"{who}: {event.note} {event.amount:+d}",
        EventKind.TURNOVER: f"the Shoot is empty: the bank passes from seat {event.src} to seat {event.dst}",
        EventKind.BANK_SALE: f"seat {event.src} sells the bank to seat {event.dst} for {event.amount}",
        EventKind.MISDEAL: "misdeal: every chip goes back",
        EventKind.FORFEIT: f"seat {seat} forfeits (illegal action)",
        EventKind.DEAL_END: "the deal is settled",
    }
    return texts.get(kind, f"{kind.value} {event}")


def event_lines(events: Sequence[Event], viewer: int, role: str = "banker") -> list[str]:
    """The log as ``viewer`` may read it, each hand under its stable label (``advance_labels``)."""
    labels: list[str] = []
    lines = []
    for event in events:
        advance_labels(labels, event)
        label = labels[event.hand] if event.hand is not None and event.hand < len(labels) else None
        lines.append(event_line(event, viewer, label, role))
    return lines


def render_text(window: SeatWindow) -> str:
    view, me = window.view, window.seat
    rules = window.rules
    role = banker_role(rules)
    lines = [(f"Pontoon ({rules.name}) - deal {window.deals_played} of {window.deals_per_episode} this "
              f"episode - you are seat {me} ({role if view.banker == me else 'punter'})")]
    if rules.shoot:
        lines.append(f"Shoot {view.shoot}   reserve {view.reserve}   "
                     f"room for Shoot bets {view.shoot_capacity}")
    labels = hand_labels(window.events, len(view.hands))
    for seat in range(view.num_players):
        tag = ("you, " if seat == me else "") + (role if seat == view.banker else "punter")
        head = f"seat {seat} ({tag}, chips {window.balances[seat]})"
        if seat == view.banker:
            lines.append(f"{head}: {_cards(view.banker_cards, view.banker_hidden)}"
                         + (f" ({banker_value(view.banker_cards, view.banker_hidden, rules)})"
                            if view.banker_cards else ""))
            continue
        hands = [(i, h) for i, h in enumerate(view.hands) if h.seat == seat]
        lines.append(head + ("" if hands else ": no hand"))
        lines += [f"    {_hand_line(labels[i], h, i == view.current, rules)}" for i, h in hands]
    if window.episode_over:
        lines.append("the episode is over: call reset()")
    else:
        lines.append(f"your legal actions: {window.action_table.describe(np.flatnonzero(window.mask))}")
    if window.events is None:
        lines.append("(the batched engine keeps no log of the deal: engine='table' has one)")
    else:
        lines.append("log of this deal:")
        lines += [f"  {line}" for line in event_lines(window.events, me, role)]
    return "\n".join(lines)
