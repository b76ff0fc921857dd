"""``SeatConfig``: everything that decides one seat's episode, checked once by the env that builds it.

Both engines read their episode from it (the Table episode directly, the batched engine through
``vector/layout.py``'s config arrays), so the two speeds share one configuration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .action_table import ActionTable
from .encoding import ObservationEncoder
from .features import COMPACT_SIZE
from ..rules import Rules
from ..players.policy import Policy

PUNTER, BANKER = "punter", "banker"
ROLES = (PUNTER, BANKER)
"""The agent's seat: a punter's (``ShootPontoon-v0``) or the banker's (``ShootPontoonBanker-v0``)."""


@dataclass(frozen=True, eq=False)
class SeatConfig:
    """One seat's episode: who sits where, what the agent may do, what it sees and how long it lasts.

    ``players[s]`` plays seat ``s`` whenever the agent does not (for the agent's own seat: a punter
    agent's play while its seat holds the bank, or the banker seat's play nobody asks the agent for);
    ``player_arguments[s]`` names the constructor argument that gave it (for errors)."""

    rules: Rules
    num_players: int
    seat: int
    role: str
    players: tuple[Policy, ...]
    player_arguments: tuple[str, ...]
    action_table: ActionTable
    encoder: ObservationEncoder
    deals_per_episode: int
    illegal_action_penalty: float
    starting_chips: int
    observation: str = "flat"
    """``"flat"`` (the encoder's row) or ``"compact"`` (``envs/features.py``'s features of it)."""

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"role = {self.role!r}: expected one of {list(ROLES)}")
        if len(self.players) != self.num_players or len(self.player_arguments) != self.num_players:
            raise ValueError(f"{len(self.players)} players for {self.num_players} seats")

    @property
    def observation_size(self) -> int:
        """Floats in one observation."""
        return COMPACT_SIZE if self.observation == "compact" else self.encoder.size

    @property
    def banker_seat(self) -> bool:
        """Whether the agent holds the banker's seat."""
        return self.role == BANKER

    def settings(self) -> tuple:
        """What an env may change between episodes (its public ``players``, ``illegal_action_penalty``
        and ``deals_per_episode``): a config with other settings is a new config."""
        return self.players, self.illegal_action_penalty, self.deals_per_episode


def player_arguments(role: str, num_players: int, seat: int, punters: Any) -> tuple[str, ...]:
    """The constructor argument behind each seat's table player (for error messages)."""
    indexed = not isinstance(punters, (str, Policy))
    if role == BANKER:
        return ("the banker seat's own play",) + tuple(f"punters[{s - 1}]" if indexed else "punters"
                                                       for s in range(1, num_players))
    names, other = [], 0
    for s in range(num_players):
        if s == 0:
            names.append("banker")
        elif s == seat:
            names.append("agent_banker")
        else:
            names.append(f"punters[{other}]" if indexed else "punters")
            other += 1
    return tuple(names)
