"""A punter's hand (one box, or one part of a split box) and the chips lying on it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Hand:
    seat: int
    box: int
    original_stake: int
    """The stake the hand started with: buys and splits are measured in it."""
    stake: int
    """Chips on the table for the hand's main stake (original, buys, Double Stakes)."""
    cards: list[int] = field(default_factory=list)
    face_up: list[bool] = field(default_factory=list)
    shoot_bet: int = 0
    buys: int = 0
    twists: int = 0
    doubled: bool = False
    from_split: bool = False
    fourth_card_bet_offered: bool = False
    done: bool = False
    """No more decisions: stuck, Pontoon, Five Card Trick, bust, or forced to stand."""
    settled: bool = False
    """Its chips have left the table (bust at once, or at the showdown)."""
    result: int = 0
    """Net chips for the punter once settled (main stake and Shoot bet together)."""
    won_from_shoot: int = 0
    reshuffled: bool = False
    """Its cards went back into the stock when the shoe ran dry mid-deal (card counting skips them)."""

    @property
    def drew(self) -> bool:
        """Whether the hand has taken a card beyond its first two (twist or buy)."""
        return self.buys + self.twists > 0
