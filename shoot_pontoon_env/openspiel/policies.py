"""Our players as OpenSpiel policies, so that OpenSpiel's own algorithms (``exploitability``,
``expected_game_score``) measure them on the game.

A :class:`ViewPolicy` asks, at each state, the acting seat's mixed action of its ``SeatView`` (the one
thing every player of ours decides on) and maps each action to the game's action index. Two sources
of such mixed actions: :func:`deterministic` for any ``Policy`` (a rule-based player, ``optimal``, a
trained model played greedily), and an equilibrium's ``distribution`` (``solver.headsup.equilibrium``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from open_spiel.python import policy as openspiel_policy

from ..actions import Action
from ..engine.view import SeatView, seat_view
from ..players.policy import Policy
from .chance import NoRandomness
from .game import ShootPontoonGame

Distribution = Callable[[SeatView], Mapping[Action, float]]
"""A seat's mixed action at a view."""


def deterministic(player: Policy, name: str = "") -> Distribution:
    """``player``'s one action at each view (a player that draws a random number is refused by name)."""

    def distribution(view: SeatView) -> dict[Action, float]:
        return {player.act(view, NoRandomness(view.seat, name or repr(player))): 1.0}

    return distribution


class ViewPolicy(openspiel_policy.Policy):
    """An OpenSpiel policy of ``game`` playing ``seats[p]`` for each player ``p``."""

    def __init__(self, game: ShootPontoonGame, seats: Mapping[int, Distribution]) -> None:
        missing = sorted(set(range(game.num_players())) - set(seats))
        if missing:
            raise ValueError(f"seats: no distribution for player(s) {missing}")
        super().__init__(game, list(range(game.num_players())))
        self.seats = dict(seats)
        self.actions = game.settings.table.config.action_table

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        player = state.current_player() if player_id is None else player_id
        view = seat_view(state.table, player)
        chances = dict.fromkeys(state.legal_actions(player), 0.0)  # OpenSpiel's best response wants every one
        for action, p in self.seats[player](view).items():
            index = self.actions.to_index(action, view)
            if index not in chances or self.actions.to_action(index, view) != action:
                raise ValueError(f"player {player}'s action {action} is not one of its legal actions here "
                                 f"(the nearest legal index plays {self.actions.to_action(index, view)})")
            chances[index] = chances.get(index, 0.0) + float(p)
        return chances
