"""The OpenSpiel game's parameters: their defaults (OpenSpiel reads the types from them), their checks, and
the whole table they make.

OpenSpiel parameters are ints, floats, strings and bools, so a preset, a rule set given as JSON and a
player's name are strings, and "the rules' own" is -1 for an int. Each bad value is one ``ValueError``
naming it and what is allowed, as the envs' arguments are checked (``multiagent.config``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..multiagent.config import WholeTableSettings, whole_table_settings
from ..rules import MAX_DRAWS, Rules, get_rules
from ..seat.arguments import check_int

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "seats": 0,
    "fixed": "tips/stand17",
    "rules": "shoot",
    "reduced": False,
    "buys": True,
    "shoot_bets": True,
    "splits": True,
    "max_buys": -1,
    "deals": 1,
    "first_banker": 0,
    "starting_chips": 1000,
}
"""Every parameter and its default:

- ``players``: OpenSpiel's players, the seats 0..players-1 (2 to the table's maximum, 10).
- ``seats``: the table's size (0: ``players``); seats players..seats-1 are fixed, part of the game.
- ``fixed``: who plays the fixed seats, a deterministic player by name or ``PUNTER/BANKER`` (a player per
  role, as ``python -m shoot_pontoon_env.play --opponents`` takes them).
- ``rules``: a preset (``shoot``, ``casino``, ``playtech``) or a rule set as JSON
  (``{"preset": "shoot", "num_decks": 2}``).
- ``reduced``: the solver's heads-up reduced game (``solver.headsup.equilibrium_game.equilibrium_rules``:
  one stake, no Shoot bets, no splits).
- ``buys``, ``shoot_bets``, ``splits``: False takes that part out of the rules (no buys; no Shoot
  betting points; one hand a box).
- ``max_buys``: buys a hand may make (-1: the rules').
- ``deals``: deals an episode (the Shoot, the bank and a persistent shoe carry from one to the next).
- ``first_banker``: the seat holding the first bank.
- ``starting_chips``: each seat's chips (returns are net chips, so only credit limits care)."""

MAX_DEALS = 100


@dataclass(frozen=True)
class GameSettings:
    """The game's parameters, checked, and the whole table they make."""

    players: int
    fixed: str
    table: WholeTableSettings

    @property
    def rules(self) -> Rules:
        return self.table.config.rules

    @property
    def seats(self) -> int:
        return self.table.config.num_players

    @property
    def deals(self) -> int:
        return self.table.config.deals_per_episode


def game_rules(params: dict[str, Any]) -> Rules:
    """The rule set of ``params``: the preset or JSON rule set, with the parts the switches take out."""
    text = params["rules"]
    if not isinstance(text, str):
        raise ValueError(f"rules = {text!r}: expected a preset name or a JSON object of rule fields")
    try:
        spec = json.loads(text) if text.lstrip().startswith("{") else text
    except json.JSONDecodeError as error:
        raise ValueError(f"rules = {text!r}: not a JSON object ({error.msg})") from None
    rules = get_rules(spec)
    if params["reduced"]:
        from ..solver.headsup.equilibrium_game import equilibrium_rules

        rules = equilibrium_rules(rules)
    changes: dict[str, Any] = {}
    if not params["buys"]:
        changes["max_buys"] = 0
    if not params["shoot_bets"]:
        changes["shoot_bet_points"] = ()
    if not params["splits"]:
        changes["max_split_hands"] = 1
    if params["max_buys"] != -1 and params["buys"]:
        changes["max_buys"] = check_int("max_buys", params["max_buys"], 0, MAX_DRAWS)
    return rules.replace(**changes) if changes else rules


def game_settings(params: dict[str, Any] | None = None) -> GameSettings:
    """``params`` (OpenSpiel's, any left out taking ``DEFAULTS``) checked into a :class:`GameSettings`."""
    params = {**DEFAULTS, **(params or {})}
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}: expected some of {sorted(DEFAULTS)}")
    for name in ("reduced", "buys", "shoot_bets", "splits"):
        if not isinstance(params[name], bool):
            raise ValueError(f"{name} = {params[name]!r}: expected True or False")
    rules = game_rules(params)
    players = check_int("players", params["players"], 2, 10)
    seats = check_int("seats", params["seats"], 0, 10) or players
    if seats < players:
        raise ValueError(f"seats = {seats}: expected 0 (the players) or at least players = {players}")
    fixed = params["fixed"]
    if not isinstance(fixed, str) or not fixed:
        raise ValueError(f"fixed = {fixed!r}: expected a player's name, or PUNTER/BANKER")
    table = whole_table_settings(
        rules=rules, num_players=seats, first_banker=check_int("first_banker", params["first_banker"], 0, seats - 1),
        deals_per_episode=check_int("deals", params["deals"], 1, MAX_DEALS),
        starting_chips=params["starting_chips"], players={seat: fixed for seat in range(players, seats)} or None,
    )
    return GameSettings(players=players, fixed=fixed, table=table)
