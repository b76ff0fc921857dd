"""Shoot Pontoon as an OpenSpiel game (the ``openspiel`` extra): ``import shoot_pontoon_env.openspiel``
registers ``python_shoot_pontoon``, so that ``pyspiel.load_game("python_shoot_pontoon(players=2)")`` and
OpenSpiel's algorithms take it. Parameters: ``params.DEFAULTS``; the game: ``game.py``."""

from __future__ import annotations

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "shoot_pontoon_env.openspiel needs OpenSpiel, the openspiel extra: "
        "pip install -e \".[openspiel]\" in a checkout of shoot-pontoon-env"
    ) from error

from .game import GAME_NAME, ShootPontoonGame, ShootPontoonState, game_type, view_string
from .params import DEFAULTS

__all__ = ["DEFAULTS", "GAME_NAME", "ShootPontoonGame", "ShootPontoonState", "load_game", "view_string"]

pyspiel.register_game(game_type(zero_sum=True), ShootPontoonGame)


def load_game(**params: object) -> pyspiel.Game:
    """``pyspiel.load_game(GAME_NAME, params)``: the game with these parameters."""
    return pyspiel.load_game(GAME_NAME, dict(params))
