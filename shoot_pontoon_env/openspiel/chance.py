"""The Table's shoe as chance nodes: a shoe that deals only the cards it is given and says, when it has
none, which cards could come next and how likely each is.

OpenSpiel wants every random event as a chance node with its outcomes' probabilities. The Table draws
its cards deep inside ``apply``; a :class:`ChanceShoe` in its place raises :class:`NeedCard` where a card
is wanted that chance has not yet chosen, with the stock's exact composition at that moment (the cards
not dealt since the last shuffle or restock, every copy of every card of ``num_decks`` packs). The
game's state then replays the move from its last resting point with the chosen cards supplied
(``game.py``), so the Table's own code plays every rule and the chance of each card is the shoe's.
No randomness is drawn here: a shuffle or a restock only resets the counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

import numpy as np

from ..cards import CARDS_PER_DECK
from ..shoe import Shoe, ShoeExhaustedError


class NeedCard(Exception):
    """A card is wanted that chance has not chosen: ``counts`` (52) are the stock's cards now."""

    def __init__(self, counts: np.ndarray) -> None:
        super().__init__("a card is wanted from chance")
        self.counts = counts


def stand_ins(counts: np.ndarray) -> np.ndarray:
    """(52,) card counts with every card's count moved to its value's stand-in, the first card of the
    value (``rank * 4`` of its lowest rank: the ace of clubs .. the ten of clubs)."""
    lumped = np.zeros_like(counts)
    for card in np.flatnonzero(counts):
        lumped[min(card // 4, 9) * 4] += counts[card]
    return lumped


class ChanceShoe(Shoe):
    """A shoe of ``num_decks`` packs of ``pack`` (``Rules.pack_cards``) that deals the cards
    :meth:`supply` gave it, in order, and raises :class:`NeedCard` when it has none left to give.
    ``position``, ``size``, ``order[:position]`` and ``shuffles`` mean what they mean for a :class:`Shoe`
    (the cut card, card counting and the views read them), so the Table cannot tell the two apart."""

    def __init__(self, num_decks: int, pack: Sequence[int], by_value: bool = False) -> None:
        super().__init__(num_decks, pack=pack)
        self.by_value = by_value
        """Deal card values: every card of a value is its stand-in (:func:`stand_ins`)."""
        self.counts = self.full_counts()
        """Copies of each card still in the stock."""
        self.supplied: list[int] = []
        self._next = 0

    def supply(self, cards: Sequence[int]) -> None:
        """The cards chance has chosen for the move being played, in dealing order."""
        self.supplied = list(cards)
        self._next = 0

    @property
    def unused(self) -> int:
        """Supplied cards not yet dealt."""
        return len(self.supplied) - self._next

    def draw(self) -> int:
        if self.position >= self.size:
            raise ShoeExhaustedError("the shoe is empty")
        if self._next >= len(self.supplied):
            raise NeedCard(self.counts.copy())
        card = self.supplied[self._next]
        if not 0 <= card < CARDS_PER_DECK or self.counts[card] <= 0:
            raise ValueError(f"card {card!r} is not in the stock (copies left of each card: {self.counts.tolist()})")
        self._next += 1
        self.counts[card] -= 1
        self.order[self.position] = card
        self.position += 1
        return card

    def full_counts(self) -> np.ndarray:
        counts = super().full_counts()
        return stand_ins(counts) if self.by_value else counts

    def shuffle(self, rng: Any) -> None:
        self.counts = self.full_counts()
        self.order = np.zeros(int(self.counts.sum()), dtype=np.int8)
        self.position = 0
        self.shuffles += 1

    def restock(self, live_cards: Iterable[int], rng: Any) -> None:
        counts = self.full_counts()
        for card in live_cards:
            counts[card] -= 1
        if counts.sum() == 0:
            raise ShoeExhaustedError("every card of the shoe is in a live hand")
        self.counts = counts
        self.order = np.zeros(int(counts.sum()), dtype=np.int8)
        self.position = 0
        self.shuffles += 1

    def stack(self, top: Sequence[int]) -> NoReturn:
        raise ValueError("a chance shoe deals the cards chance chooses; it cannot be stacked")


class NoRandomness:
    """Given to the game's fixed seats in place of a Generator: a player that draws a random number
    would make a chance event OpenSpiel cannot see, so any use of it is refused by name."""

    def __init__(self, seat: int, player: str) -> None:
        self._who = f"seat {seat}'s player {player!r}"

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):  # copy, pickle and the like ask for these: not a random draw
            raise AttributeError(name)
        raise ValueError(f"{self._who} draws random numbers (Generator.{name}); the OpenSpiel game's fixed "
                         "seats must be deterministic players (a rule-based player such as tips, stand17, "
                         "dealer or thresholdN, optimal, or a trained model played greedily)")
