"""The OpenSpiel game's parameters: their defaults (OpenSpiel reads the types from them), their checks, and
the whole table they make.

OpenSpiel parameters are ints, floats, strings and bools, so a rule set and a player's name are strings
(holding no comma and no ``=``, where OpenSpiel's game strings split), and "the rules' own" is -1 for an
int. Each bad value is one ``ValueError`` naming it and what is allowed, as the envs' arguments are
checked (``multiagent.config``).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from ..multiagent.config import WholeTableSettings, whole_table_settings
from ..rules import MAX_DRAWS, PRESETS, TUPLE_OPTIONS, Rules, get_rules
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
    "chance": "cards",
}
"""Every parameter and its default:

- ``players``: OpenSpiel's players, the seats 0..players-1 (2 to the table's maximum, 10).
- ``seats``: the table's size (0: ``players``); seats players..seats-1 are fixed, part of the game.
- ``fixed``: who plays the fixed seats, a deterministic player by name or ``PUNTER/BANKER`` (a player per
  role, as ``python -m shoot_pontoon_env.play --opponents`` takes them).
- ``rules``: a preset (``shoot``, ``casino``, ``playtech``), then any changes as ``field:value``
  (``shoot num_decks:2 shoot_bet_points:before_deal/before_second_card``; :func:`rules_parameter` writes
  one from a :class:`Rules`).
- ``reduced``: the solver's heads-up reduced game (``solver.headsup.equilibrium_game.equilibrium_rules``:
  one stake, no Shoot bets, no splits).
- ``buys``, ``shoot_bets``, ``splits``: False takes that part out of the rules (no buys; no Shoot
  betting points; one hand a box).
- ``max_buys``: buys a hand may make (-1: the rules').
- ``deals``: deals an episode (the Shoot, the bank and a persistent shoe carry from one to the next).
- ``first_banker``: the seat holding the first bank.
- ``starting_chips``: each seat's chips (returns are net chips, so only credit limits care).
- ``chance``: ``cards`` (each chance outcome a card, 0..51) or ``values`` (each a card value, dealt as
  one card standing for it: the ace of clubs, two of clubs, .. ten of clubs for every ten-value card).
  The values game is the cards game with the cards of one value lumped together, so it has the same
  values and equilibria wherever no rule reads a card's rank within its value or its suit: ``values``
  refuses split_match:"rank" with splits, and special Pontoons. The same holds for the players: one that
  decides on card values (rule-based, the solver's) plays alike; a trained network reads ranks (its
  observation's rank counts) and sees every ten-value card as a ten. Its tree is far smaller (the solver
  models cards by value too), which is what OpenSpiel's full-tree algorithms need."""
CHANCE_KINDS = ("cards", "values")

MAX_DEALS = 100


@dataclass(frozen=True)
class GameSettings:
    """The game's parameters, checked, and the whole table they make."""

    players: int
    fixed: str
    table: WholeTableSettings
    by_value: bool = False
    """``chance="values"``: chance deals card values."""

    def __deepcopy__(self, memo: dict) -> GameSettings:
        return self  # immutable, and shared by every state of the game (OpenSpiel's clone deep-copies a state)

    @property
    def rules(self) -> Rules:
        return self.table.config.rules

    @property
    def seats(self) -> int:
        return self.table.config.num_players

    @property
    def deals(self) -> int:
        return self.table.config.deals_per_episode


def rules_parameter(rules: Rules | str) -> str:
    """``rules`` as the ``rules`` parameter: its preset, then each field that differs from the preset as
    ``field:value`` (JSON scalars; a tuple's items joined by ``/``, a pair's by ``+``). OpenSpiel's game
    strings split parameters at commas and ``=``, so the parameter holds neither and a state's
    serialisation (``pyspiel.serialize_game_and_state``) survives."""
    rules = get_rules(rules)
    fields = [f.name for f in dataclasses.fields(Rules) if f.name != "name"]
    preset = min(sorted(PRESETS), key=lambda name: sum(getattr(rules, f) != getattr(PRESETS[name], f) for f in fields))
    tokens = [preset]
    for field in fields:
        value = getattr(rules, field)
        if value == getattr(PRESETS[preset], field):
            continue
        if field in TUPLE_OPTIONS:
            text = "/".join("+".join(item) if isinstance(item, tuple) else item for item in value)
        else:
            text = json.dumps(value)
        tokens.append(f"{field}:{text}")
    return " ".join(tokens)


def parse_rules_parameter(text: object) -> Rules:
    """The :class:`Rules` of a ``rules`` parameter (:func:`rules_parameter`'s form: a preset, then
    ``field:value`` tokens)."""
    if not isinstance(text, str) or not text.split():
        raise ValueError(f"rules = {text!r}: expected a preset name, then field:value changes "
                         "(e.g. 'shoot num_decks:2 shoot_bet_points:before_deal/before_second_card')")
    preset, *tokens = text.split()
    changes: dict[str, Any] = {}
    for token in tokens:
        name, colon, value = token.partition(":")
        if not colon or not name:
            raise ValueError(f"rules = {text!r}: {token!r} is not field:value")
        if name in TUPLE_OPTIONS:
            items = [item for item in value.split("/") if item]
            changes[name] = [item.split("+") if "+" in item else item for item in items]
        else:
            try:
                changes[name] = json.loads(value)
            except json.JSONDecodeError:
                changes[name] = value  # a bare word: a string option such as shoe:persistent
    if preset not in PRESETS:
        raise ValueError(f"rules = {text!r}: unknown preset {preset!r}: expected one of {sorted(PRESETS)}")
    return get_rules({"preset": preset, **changes, "name": text if tokens else preset})


def game_rules(params: dict[str, Any]) -> Rules:
    """The rule set of ``params``: the ``rules`` parameter, with the parts the switches take out."""
    rules = parse_rules_parameter(params["rules"])
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
    if params["max_buys"] != -1:
        max_buys = check_int("max_buys", params["max_buys"], 0, MAX_DRAWS)
        if params["buys"]:
            changes["max_buys"] = max_buys
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
    return GameSettings(players=players, fixed=fixed, table=table, by_value=chance_by_value(params["chance"], rules))


def chance_by_value(chance: object, rules: Rules) -> bool:
    """Whether ``chance`` asks for values (``CHANCE_KINDS``), where ``rules`` allow it."""
    if chance not in CHANCE_KINDS:
        raise ValueError(f"chance = {chance!r}: expected one of {CHANCE_KINDS}")
    if chance == "cards":
        return False
    if rules.max_split_hands > 1 and rules.split_match == "rank":
        raise ValueError("chance = 'values': the rules split by rank (split_match:\"rank\"), which a card value "
                         "does not tell; use splits=False, split_match:value in rules, or chance='cards'")
    if rules.special_pontoons:
        raise ValueError(f"chance = 'values': the rules' special Pontoons {rules.special_pontoons} read suits and "
                         "ranks, which a card value does not tell; use chance='cards'")
    return True
