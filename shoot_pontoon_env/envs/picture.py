"""An RGB picture of the table as the agent's seat sees it (``render_mode="rgb_array"``): the banker's
and every punter's cards (face-down cards the seat may not see drawn as backs), each hand's value in
words (a Pontoon, a Five Card Trick, bust), stakes, Shoot bets, results, the Shoot, whose turn it is,
the agent's legal actions with their keys, and once the deal is settled a line with its result.

Drawn with Pillow (the optional ``render`` extra), imported only when a picture is asked for, so
that making an env with ``render_mode="rgb_array"`` (as SB3's ``make_vec_env`` does) needs nothing
beyond the core library. Like the text picture, it reads only the agent's SeatView and public chip
counts, draws no random numbers and changes nothing. The size is fixed (``WIDTH`` x ``HEIGHT``,
even numbers, as video encoders want), whatever the table; the cards are as large as the table
allows (``CARD_SIZES``), their suits drawn as shapes, and each panel as tall as its hands.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..cards import RANKS, card_code
from ..engine.view import HandView
from ..rules import Rules
from .render import banker_role, banker_value, hand_labels, hand_value

if TYPE_CHECKING:
    from ..seat.action_table import ActionTable
    from .window import SeatWindow

WIDTH, HEIGHT = 960, 540
KEYS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""The key of action index ``i`` in ``gymnasium.utils.play`` is ``KEYS[i]`` (the picture shows them)."""

FELT, PANEL, OWN_PANEL, TEXT, DIM, GOLD, RED, BLACK, CARD, BACK, BACK_LINE, EDGE = (
    (22, 94, 56), (16, 72, 42), (30, 110, 70), (240, 240, 230), (170, 200, 180), (250, 205, 60),
    (200, 30, 40), (25, 25, 25), (250, 250, 245), (40, 70, 160), (110, 140, 215), (60, 130, 90))
MARGIN, HEADER_H, TITLE_H, GAP, TEXT_W, LINE = 8, 34, 26, 6, 130, 17
"""Outer margin, the header's height, a panel's title line, the space between panels and hands, the
width of the words beside a hand's cards, and one line of those words."""


class CardSize(NamedTuple):
    width: int
    height: int
    rank_font: int


CARD_SIZES = (CardSize(64, 90, 24), CardSize(52, 72, 20), CardSize(40, 56, 16), CardSize(30, 42, 13))
"""Largest first: the picture takes the largest with which every panel fits."""
MIN_STEP = 0.42
"""Cards of a hand overlap, left to right, down to this share of a card's width (a fan: each card's
corner, its rank and suit, stays in sight)."""


@lru_cache(maxsize=8)
def _font(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw
    except ImportError:  # pragma: no cover - the render extra is installed with train and dev
        raise ImportError(
            'render_mode="rgb_array" draws with Pillow: pip install -e ".[render]" in a checkout'
        ) from None
    return Image, ImageDraw


# --------------------------------------------------------------------------- cards
def _suit(draw: Any, cx: float, cy: float, size: float, suit: int, colour: tuple[int, int, int]) -> None:
    """A suit symbol drawn as shapes (clubs, diamonds, hearts, spades: ``cards.SUITS``' order), centred
    on (cx, cy), ``size`` pixels tall."""
    r = size / 4
    if suit == 1:  # diamond
        draw.polygon([(cx, cy - 2 * r), (cx + 1.4 * r, cy), (cx, cy + 2 * r), (cx - 1.4 * r, cy)],
                     fill=colour)
        return
    if suit == 2:  # heart: two lobes and a point below
        for dx in (-r, r):
            draw.ellipse((cx + dx - r, cy - 1.6 * r, cx + dx + r, cy + 0.4 * r), fill=colour)
        draw.polygon([(cx - 2 * r, cy - 0.4 * r), (cx + 2 * r, cy - 0.4 * r), (cx, cy + 2 * r)], fill=colour)
        return
    if suit == 3:  # spade: a heart upside down, and a stem
        for dx in (-r, r):
            draw.ellipse((cx + dx - r, cy - 0.6 * r, cx + dx + r, cy + 1.4 * r), fill=colour)
        draw.polygon([(cx - 2 * r, cy + 0.5 * r), (cx + 2 * r, cy + 0.5 * r), (cx, cy - 2 * r)], fill=colour)
    else:  # club: three leaves, and a stem
        leaf = 0.9 * r
        for dx, dy in ((0, -1.1 * r), (-1.05 * r, 0.35 * r), (1.05 * r, 0.35 * r)):
            draw.ellipse((cx + dx - leaf, cy + dy - leaf, cx + dx + leaf, cy + dy + leaf), fill=colour)
    draw.polygon([(cx, cy + 0.3 * r), (cx - 0.8 * r, cy + 2 * r), (cx + 0.8 * r, cy + 2 * r)], fill=colour)


def _draw_card(draw: Any, x: float, y: float, card: int | None, size: CardSize) -> None:
    """One card at (x, y): its rank and suit in the top-left corner (seen where cards overlap) and
    a large suit in the middle; ``None``: a card's back."""
    box = (x, y, x + size.width, y + size.height)
    if card is None:
        draw.rounded_rectangle(box, radius=5, fill=BACK, outline=CARD, width=2)
        inset = 5
        left, right, low, high = x + inset, x + size.width - inset, y + inset, y + size.height - inset
        draw.rounded_rectangle((left, low, right, high), radius=3, outline=BACK_LINE, width=1)
        for k in range(1, int((right - left) // 6) + 1):  # a plaid inside the inner border
            draw.line((left + 6 * k, low, left + 6 * k, high), fill=BACK_LINE, width=1)
        for k in range(1, int((high - low) // 6) + 1):
            draw.line((left, low + 6 * k, right, low + 6 * k), fill=BACK_LINE, width=1)
        draw.rounded_rectangle(box, radius=5, outline=CARD, width=2)
        return
    rank, suit = RANKS[card // 4], card % 4
    colour = RED if suit in (1, 2) else BLACK
    draw.rounded_rectangle(box, radius=5, fill=CARD, outline=(90, 90, 90))
    font = _font(size.rank_font)
    draw.text((x + 4, y + 2), "10" if rank == "T" else rank, fill=colour, font=font)
    corner = size.rank_font * 0.55
    _suit(draw, x + 4 + corner / 2 + 1, y + 5 + size.rank_font + corner / 2, corner, suit, colour)
    big = size.height * 0.38
    _suit(draw, x + size.width * 0.62, y + size.height * 0.66, big, suit, colour)


def _fan(count: int, room: float, size: CardSize) -> float:
    """The step between a hand's cards: side by side where they fit in ``room``, else overlapping."""
    if count < 2:
        return size.width + 5
    return max(min(size.width + 5, (room - size.width) / (count - 1)), size.width * MIN_STEP)


def _draw_hand_cards(draw: Any, x: float, y: float, cards: tuple[int, ...], hidden: int, room: float,
                     size: CardSize) -> float:
    """Face-up cards, then ``hidden`` backs, fanned into ``room``; returns the x after them."""
    shown: list[int | None] = [*cards, *([None] * hidden)]
    step = _fan(len(shown), room, size)
    for card in shown:
        _draw_card(draw, x, y, card, size)
        x += step
    return x - step + size.width if shown else x


# --------------------------------------------------------------------------- panels
def _hand_words(hand: HandView, rules: Rules) -> list[str]:
    """Up to three short lines beside a hand: its value, its chips, its state or result."""
    lines = [hand_value(hand, rules)] if hand.cards else []
    lines.append(f"stake {hand.stake}" + (f", bet {hand.shoot_bet}" if hand.shoot_bet else ""))
    if hand.settled:
        outcome = "won" if hand.result > 0 else "lost" if hand.result < 0 else "push"
        lines.append(f"{outcome} {hand.result:+d}")
    elif hand.done:
        lines.append("stands")
    return lines


def _panel_height(hands: int, size: CardSize) -> int:
    """A panel's height for ``hands`` rows of cards (none: its title and one line of words)."""
    return TITLE_H + (hands * (size.height + GAP) + 2 if hands else LINE + 8)


def _outline(draw: Any, box: tuple[float, float, float, float], own: bool) -> None:
    draw.rounded_rectangle(box, radius=8, fill=OWN_PANEL if own else PANEL, outline=GOLD if own else EDGE,
                           width=2 if own else 1)


def _seat_panel(draw: Any, box: tuple[float, float, float, float], title: str, own: bool,
                hands: list[tuple[str, HandView, bool]], size: CardSize, rules: Rules) -> None:
    """A punter's panel: its title, then each hand (label, view, whether it is to act) as cards and
    words; hands that do not fit the panel at this card size are listed one text line each."""
    x0, y0, x1, y1 = box
    _outline(draw, box, own)
    draw.text((x0 + 8, y0 + 5), title, fill=TEXT, font=_font(15))
    y = y0 + TITLE_H
    if not hands:
        draw.text((x0 + 8, y), "no hand", fill=DIM, font=_font(14))
        return
    if _panel_height(len(hands), size) <= y1 - y0 + 1:
        for label, hand, current in hands:
            room = x1 - x0 - 16 - TEXT_W
            end = _draw_hand_cards(draw, x0 + 8, y, hand.cards, hand.hidden_cards, room, size)
            if current:
                draw.rounded_rectangle((x0 + 4, y - 3, x1 - 4, y + size.height + 3), radius=4, outline=GOLD,
                                       width=2)
            words = [f"hand {label}"] * (len(hands) > 1) + _hand_words(hand, rules)
            top = y + max((size.height - LINE * len(words)) / 2, 0)
            for row, text in enumerate(words):
                draw.text((end + 8, top + LINE * row), text, fill=TEXT, font=_font(14))
            y += size.height + GAP
        return
    room = max(int((y1 - y - 4) // LINE), 1)  # many hands in a small panel: one text line each
    shown = hands if len(hands) <= room else hands[: room - 1]
    for label, hand, current in shown:
        cards = " ".join([card_code(c) for c in hand.cards] + ["??"] * hand.hidden_cards)
        draw.text((x0 + 8, y), f"{label}: {cards}  {', '.join(_hand_words(hand, rules))}",
                  fill=GOLD if current else TEXT, font=_font(13))
        y += LINE
    if len(shown) < len(hands):
        draw.text((x0 + 8, y), f"+{len(hands) - len(shown)} more hands", fill=DIM, font=_font(13))


def _columns(punters: int) -> int:
    return {1: 1, 2: 2, 4: 2}.get(punters, 3)


def _layout(rows: list[int], room: int) -> tuple[CardSize, list[int]]:
    """The largest card size at which every row of panels (its most hands given) fits ``room``, and
    each row's height; at the smallest size the rows share the room."""
    for size in CARD_SIZES:
        heights = [_panel_height(hands, size) for hands in rows]
        if sum(heights) + GAP * len(rows) <= room:
            return size, heights
    size = CARD_SIZES[-1]
    share = room // len(rows) - GAP
    return size, [min(_panel_height(hands, size), share) for hands in rows]


# --------------------------------------------------------------------------- the words around it
def _footer_lines(window: SeatWindow) -> list[str]:
    if window.episode_over:
        lines = ["the episode is over"]
    else:
        legal = np.flatnonzero(window.mask)
        labels = window.action_table.labels
        lines = ["your move:  " + "   ".join(
            f"[{KEYS[i]}] {labels[i]}" if i < len(KEYS) else labels[i] for i in legal)]
    if window.last_message:
        lines.append(window.last_message)
    return lines


def result_line(window: SeatWindow) -> str:
    """The settled deal's result for the agent's seat (empty while a hand is still open): each of its
    hands against the banker's, or, for the banker, what the punters won or lost in all."""
    view, rules = window.view, window.rules
    if not view.hands or not all(h.settled for h in view.hands):
        return ""
    role = banker_role(rules)
    banker = banker_value(view.banker_cards, view.banker_hidden, rules) if view.banker_cards else "no cards"
    labels = hand_labels(window.events, len(view.hands))
    if view.banker == window.seat:
        won = -sum(h.result for h in view.hands)
        verb = "win" if won > 0 else "lose" if won < 0 else "break even"
        return (f"result: you {verb}{f' {abs(won)}' if won else ''}: your {banker} against "
                f"{len(view.hands)} hand(s)")
    own = [(labels[i], h) for i, h in enumerate(view.hands) if h.seat == window.seat]
    if not own:
        return f"result: no hand of yours this deal; the {role} has {banker}"
    won = sum(h.result for _, h in own)
    verb = "win" if won > 0 else "lose" if won < 0 else "break even"
    amount = f"result: you {verb}{f' {abs(won)}' if won else ''}"
    if len(own) == 1:
        return f"{amount} with {hand_value(own[0][1], rules)} against the {role}'s {banker}"
    parts = ", ".join(f"hand {label} {hand_value(h, rules)} {h.result:+d}" for label, h in own)
    return f"{amount}: {parts}, against the {role}'s {banker}"


def render_rgb(window: SeatWindow) -> np.ndarray:
    """The picture as a ``(HEIGHT, WIDTH, 3)`` uint8 array."""
    image_module, draw_module = _pillow()
    view, me, rules = window.view, window.seat, window.rules
    image = image_module.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = draw_module.Draw(image)
    banker, role = view.banker, banker_role(rules)
    draw.text((MARGIN, 8), f"Pontoon ({rules.name})   deal {window.deals_played} of "
              f"{window.deals_per_episode}   you are seat {me} ({role if banker == me else 'punter'})",
              fill=TEXT, font=_font(17))
    if rules.shoot:
        shoot = f"Shoot {view.shoot}   reserve {view.reserve}   room for bets {view.shoot_capacity}"
        draw.text((WIDTH - MARGIN - draw.textlength(shoot, font=_font(16)), 9), shoot, fill=GOLD,
                  font=_font(16))

    labels = hand_labels(window.events, len(view.hands))
    punters = [s for s in range(view.num_players) if s != banker]
    columns = _columns(len(punters))
    rows = [punters[i:i + columns] for i in range(0, len(punters), columns)]
    footer = _footer_lines(window)
    result = result_line(window)
    footer_h = 24 * (len(footer) + bool(result)) + 6
    room = HEIGHT - HEADER_H - footer_h - MARGIN
    most = [max((sum(h.seat == s for h in view.hands) for s in row), default=0) for row in rows]
    size, heights = _layout([int(bool(view.banker_cards or view.banker_hidden)), *most], room)

    top = HEADER_H
    box = (MARGIN, top, WIDTH - MARGIN, top + heights[0])
    _outline(draw, box, banker == me)
    turn = "   <- to act" if window.to_act == banker and not window.episode_over else ""
    draw.text((MARGIN + 8, top + 5), f"seat {banker}{' (you)' if banker == me else ''}: {role}, chips "
              f"{window.balances[banker]}{turn}", fill=TEXT, font=_font(15))
    end = _draw_hand_cards(draw, MARGIN + 8, top + TITLE_H, view.banker_cards, view.banker_hidden,
                           WIDTH - 2 * MARGIN - 16 - TEXT_W, size)
    if view.banker_cards or view.banker_hidden:
        value = banker_value(view.banker_cards, view.banker_hidden, rules) if view.banker_cards else "hidden"
        draw.text((end + 10, top + TITLE_H + size.height / 2 - 9), value, fill=TEXT, font=_font(16))
    else:
        draw.text((MARGIN + 8, top + TITLE_H), "no cards yet", fill=DIM, font=_font(14))
    top += heights[0] + GAP

    width = (WIDTH - 2 * MARGIN) / columns
    for row, height in zip(rows, heights[1:]):
        for place, seat in enumerate(row):
            x = MARGIN + place * width
            hands = [(labels[i], h, i == view.current) for i, h in enumerate(view.hands) if h.seat == seat]
            turn = "   <- to act" if window.to_act == seat and not window.episode_over else ""
            title = f"seat {seat}{' (you)' if seat == me else ''}: chips {window.balances[seat]}{turn}"
            _seat_panel(draw, (x + (place > 0) * GAP / 2, top, x + width - (place < len(row) - 1) * GAP / 2,
                               top + height), title, seat == me, hands, size, rules)
        top += height + GAP

    y = top + 4
    if result:
        draw.text((MARGIN, y), result[:130], fill=GOLD, font=_font(17))
        y += 24
    for row, line in enumerate(footer):
        draw.text((MARGIN, y + 24 * row), line[:140], fill=TEXT if row == 0 else GOLD, font=_font(16))
    return np.asarray(image, dtype=np.uint8)


def keys_to_action(action_table: ActionTable) -> dict[tuple[str], int]:
    """``gymnasium.utils.play``'s key map: the key ``KEYS[i]`` plays action index ``i``."""
    return {(KEYS[i],): i for i in range(min(len(action_table), len(KEYS)))}
