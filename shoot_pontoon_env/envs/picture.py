"""An RGB picture of the table as the agent's seat sees it (``render_mode="rgb_array"``): the banker's
and every punter's cards (face-down cards the seat may not see drawn as backs), stakes, Shoot bets,
results, the Shoot, whose turn it is, and the agent's legal actions with their keys.

Drawn with Pillow (the optional ``render`` extra), imported only when a picture is asked for, so
that making an env with ``render_mode="rgb_array"`` (as SB3's ``make_vec_env`` does) needs nothing
beyond the core library. Like the text picture, it reads only the agent's SeatView and public chip
counts, draws no random numbers and changes nothing. The size is fixed (``WIDTH`` x ``HEIGHT``,
even numbers, as video encoders want), whatever the table.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cards import RANKS, best_total, card_code
from ..engine.view import HandView

if TYPE_CHECKING:
    from ..seat.action_table import ActionTable
    from .window import SeatWindow

WIDTH, HEIGHT = 960, 540
KEYS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""The key of action index ``i`` in ``gymnasium.utils.play`` is ``KEYS[i]`` (the picture shows them)."""

FELT, PANEL, OWN_PANEL, TEXT, DIM, GOLD, RED, CARD, BACK = (
    (22, 94, 56), (16, 72, 42), (30, 110, 70), (240, 240, 230), (170, 200, 180), (250, 205, 60),
    (200, 30, 40), (250, 250, 245), (40, 70, 160))
CARD_W, CARD_H, CARD_GAP = 28, 38, 4
HEADER_H, BANKER_H, FOOTER_H, MARGIN = 34, 84, 64, 8
COLUMNS = 3
LINE_H = CARD_H + 6
TEXT_LINE_H = 17


@lru_cache(maxsize=4)
def _font(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw
    except ImportError:  # pragma: no cover - the render extra is installed with train and dev
        raise ImportError(
            'render_mode="rgb_array" draws with Pillow: pip install "shoot-pontoon-env[render]"'
        ) from None
    return Image, ImageDraw


def _card_label(card: int) -> tuple[str, str]:
    rank = RANKS[card // 4]
    return ("10" if rank == "T" else rank), "CDHS"[card % 4]


def _draw_cards(draw: Any, x: int, y: int, cards: tuple[int, ...], hidden: int) -> int:
    """Face-up cards, then ``hidden`` backs, left to right; returns the x after them."""
    for card in cards:
        rank, suit = _card_label(card)
        colour = RED if suit in "DH" else (20, 20, 20)
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=4, fill=CARD, outline=(90, 90, 90))
        draw.text((x + 3, y + 2), rank, fill=colour, font=_font(13))
        draw.text((x + CARD_W - 11, y + CARD_H - 17), suit, fill=colour, font=_font(12))
        x += CARD_W + CARD_GAP
    for _ in range(hidden):
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=4, fill=BACK, outline=CARD)
        draw.line((x + 5, y + 5, x + CARD_W - 5, y + CARD_H - 5), fill=(90, 120, 200), width=2)
        draw.line((x + CARD_W - 5, y + 5, x + 5, y + CARD_H - 5), fill=(90, 120, 200), width=2)
        x += CARD_W + CARD_GAP
    return x


def _hand_text(hand: HandView) -> tuple[str, str]:
    """Two short lines: the visible total and the stake; the Shoot bet and the state or result."""
    first = [f"{best_total(hand.cards)[0]}" + (" shown" if hand.hidden_cards else "")] if hand.cards else []
    first.append(f"stake {hand.stake}")
    second = [f"Shoot bet {hand.shoot_bet}"] if hand.shoot_bet else []
    if hand.settled:
        second.append(("bust, " if hand.bust else "") + f"result {hand.result:+d}")
    elif hand.done:
        second.append("stands")
    return "  ".join(first), "  ".join(second)


def _seat_panel(draw: Any, box: tuple[int, int, int, int], title: str, own: bool,
                hands: list[tuple[int, HandView]], current: int | None) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=OWN_PANEL if own else PANEL,
                           outline=GOLD if own else (60, 130, 90), width=2 if own else 1)
    draw.text((x0 + 8, y0 + 5), title, fill=TEXT, font=_font(14))
    y = y0 + 24
    if len(hands) <= (y1 - y0 - 26) // LINE_H:  # room for every hand's cards
        for index, hand in hands:
            end = _draw_cards(draw, x0 + 8, y, hand.cards, hand.hidden_cards)
            if index == current:
                draw.rectangle((x0 + 4, y - 2, x1 - 4, y + CARD_H + 2), outline=GOLD, width=2)
            for row, text in enumerate(_hand_text(hand)):
                draw.text((end + 4, y + 3 + 17 * row), text, fill=TEXT, font=_font(13))
            y += LINE_H
        return
    room = max((y1 - y0 - 26) // TEXT_LINE_H, 1)  # many hands in a small panel: one text line each
    shown = hands if len(hands) <= room else hands[: room - 1]
    for index, hand in shown:
        cards = " ".join([card_code(c) for c in hand.cards] + ["??"] * hand.hidden_cards)
        draw.text((x0 + 8, y), f"{cards}   {'  '.join(_hand_text(hand))}", fill=GOLD if index == current else TEXT,
                  font=_font(13))
        y += TEXT_LINE_H
    if len(shown) < len(hands):
        draw.text((x0 + 8, y), f"+{len(hands) - len(shown)} more hands", fill=DIM, font=_font(13))


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


def render_rgb(window: SeatWindow) -> np.ndarray:
    """The picture as a ``(HEIGHT, WIDTH, 3)`` uint8 array."""
    image_module, draw_module = _pillow()
    view, me = window.view, window.seat
    image = image_module.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = draw_module.Draw(image)
    banker = view.banker
    role = "banker" if banker == me else "punter"
    draw.text((MARGIN, 8), f"Pontoon ({window.rules.name})   deal {window.deals_played} of "
              f"{window.deals_per_episode}   you are seat {me} ({role})", fill=TEXT, font=_font(16))
    if window.rules.shoot:
        shoot = f"Shoot {view.shoot}   reserve {view.reserve}   room for bets {view.shoot_capacity}"
        draw.text((WIDTH - MARGIN - draw.textlength(shoot, font=_font(15)), 9), shoot, fill=GOLD,
                  font=_font(15))

    total = f" ({best_total(view.banker_cards)[0]})" if view.banker_cards else ""
    box = (MARGIN, HEADER_H, WIDTH - MARGIN, HEADER_H + BANKER_H - 6)
    draw.rounded_rectangle(box, radius=8, fill=OWN_PANEL if banker == me else PANEL,
                           outline=GOLD if banker == me else (60, 130, 90), width=2 if banker == me else 1)
    turn = "   <- to act" if window.to_act == banker and not window.episode_over else ""
    draw.text((MARGIN + 8, HEADER_H + 5), f"seat {banker}{' (you)' if banker == me else ''}: banker, "
              f"chips {window.balances[banker]}{total}{turn}", fill=TEXT, font=_font(14))
    _draw_cards(draw, MARGIN + 8, HEADER_H + 26, view.banker_cards, view.banker_hidden)

    punters = [s for s in range(view.num_players) if s != banker]
    rows = math.ceil(len(punters) / COLUMNS)
    top, bottom = HEADER_H + BANKER_H, HEIGHT - FOOTER_H
    width, height = (WIDTH - 2 * MARGIN) // COLUMNS, (bottom - top) // rows
    for place, seat in enumerate(punters):
        x, y = MARGIN + (place % COLUMNS) * width, top + (place // COLUMNS) * height
        hands = [(i, h) for i, h in enumerate(view.hands) if h.seat == seat]
        turn = "   <- to act" if window.to_act == seat and not window.episode_over else ""
        title = f"seat {seat}{' (you)' if seat == me else ''}: chips {window.balances[seat]}{turn}"
        _seat_panel(draw, (x + 2, y + 2, x + width - 4, y + height - 4), title, seat == me, hands,
                    view.current)

    for row, line in enumerate(_footer_lines(window)):
        draw.text((MARGIN, bottom + 6 + 24 * row), line[:150], fill=TEXT if row == 0 else GOLD, font=_font(15))
    return np.asarray(image, dtype=np.uint8)


def keys_to_action(action_table: ActionTable) -> dict[tuple[str], int]:
    """``gymnasium.utils.play``'s key map: the key ``KEYS[i]`` plays action index ``i``."""
    return {(KEYS[i],): i for i in range(min(len(action_table), len(KEYS)))}
