"""Seating players by name at a table: rule-based strategies, the solver's ``optimal`` and ``basic``,
and trained models (``zoo:NAME``, a model ``.zip``, a run folder), each read by the safe loader. Used by
terminal play, the solver's command line and the whole table's network seats."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..cli import UsageError
from ..players.policy import Policy
from ..players.strategies import STRATEGIES, is_strategy_name, make_strategy
from ..rules import PRESETS, Rules
from ..players.roles import ROLES, RolePlayers, in_own_role
from .player import SOLVER_PLAYERS, PolicyPlayer, solver_player

REDUCED_GAME_PLAYER = "equilibrium"
"""The checkout's agent of the heads-up equilibrium (agents/equilibrium.py), bound to its reduced game."""
PLAYER_NAMES = f"{', '.join(sorted(STRATEGIES))}, thresholdN, {', '.join(SOLVER_PLAYERS)}"
"""The players by name: the strategies, ``thresholdN`` (stick on N or more) and the solver's."""


def checkout_zoo() -> Path | None:
    """The model zoo of a checkout of the repository (``agents/zoo``, which ``zoo:NAME`` names), where
    Python finds the checkout's folders: on ``sys.path``, so from the checkout's root (``python -m``
    puts the working directory first) or with it on ``PYTHONPATH``. Its files are read as models;
    nothing of ``agents/`` is imported. None outside a checkout."""
    for entry in sys.path:
        zoo = Path(entry or ".") / "agents" / "zoo"
        if zoo.is_dir():
            return zoo
    return None


def trained_player(spec: str, rules: Rules, seats: int, starting_chips: int, *, seats_option: str = "--seats"
                   ) -> tuple[Policy, bool]:
    """A trained model as a table player; True if it was trained to bank. Its run's config is checked
    against the table before the model (and torch) is loaded, and the model is read by the package's
    safe loader (``models.safe_load``: never unpickled, tensors only). ``seats_option``: how the
    caller's user changes the table size, named where a model's observation does not fit it (None:
    the size is fixed)."""
    needs = (f"trained opponent {spec!r} needs the train extra (pyyaml, torch, stable-baselines3, "
             "sb3-contrib): pip install -e '.[train]' in a checkout")
    try:
        import gymnasium as gym

        from ..models.safe_load import ModelFileError, model_config
        from ..models.trained import TrainedPlayer, TrainedPolicy, model_file
    except ImportError:
        raise UsageError(needs) from None
    from .. import envs  # noqa: F401  (registers the ids)

    zoo = checkout_zoo()
    if spec.startswith("zoo:") and zoo is None:
        raise UsageError(f"trained opponent {spec!r} needs a checkout of the repository (zoo:NAME is a model "
                         "of its agents/zoo): run from its root")
    try:
        path = model_file(spec, zoo)
        if not path.is_file():
            raise ValueError(f"no such file {str(path)!r}")
        config = model_config(path)  # read safely: never unpickled, and env_id one of this package's ids
        env_id = config.env_id or "ShootPontoon-v0"
        trained_env = gym.make(env_id, **config.env_kwargs)
        here = {**config.env_kwargs, "num_players": seats, "starting_chips": starting_chips}
        here_env = gym.make(env_id, **here)
        seat = here_env.unwrapped  # the env of the opponent's seat at this table
    except (ModelFileError, ValueError, TypeError, OSError, gym.error.Error) as error:
        raise UsageError(f"trained opponent {spec!r}: {error}") from None
    if seat.rules != rules:
        trained = seat.rules  # a preset by its name, changed rules as the run's own spec
        option = (trained.name if PRESETS.get(trained.name) == trained
                  else f"'{json.dumps(config.env_kwargs.get('rules'))}'")
        raise UsageError(f"trained opponent {spec!r} was trained under the rules {seat.rules.name!r}, "
                         f"not {rules.name!r}: choose --rules {option}")
    trained_shape, shape = trained_env.observation_space.shape, here_env.observation_space.shape
    if config.observation == "flat" and trained_shape != shape:
        seats_trained = trained_env.unwrapped.num_players
        remedy = (f"use {seats_option} {seats_trained}" if seats_option else
                  "a model reading the flat observation must be trained at this table size (or read the "
                  "compact observation, which any table size gives, as a punter may)")
        raise UsageError(f"trained opponent {spec!r} reads observations of shape {trained_shape} (a table of "
                         f"{seats_trained} seats); a table of {seats} seats gives {shape}: {remedy}")
    try:  # the tensors must fit this seat's env
        policy = TrainedPolicy(path, config, seat.spec.id if seat.spec is not None else None,
                               seat.observation_space, seat.action_space)
    except (ModelFileError, ValueError) as error:
        raise UsageError(f"trained opponent {spec!r}: {error}") from None
    except ImportError:  # torch or stable-baselines3, imported when the policy is read
        raise UsageError(needs) from None
    player = TrainedPlayer(policy, seat.rules, seat.num_players, seat.starting_chips, seat.action_table, spec)
    return player, "Banker" in env_id


def is_model_spec(part: str) -> bool:
    """A spec naming a trained model: ``zoo:NAME``, a ``.zip`` path, or a run folder with ``model.zip``."""
    return part.startswith("zoo:") or part.endswith(".zip") or (
        bool(part) and (Path(part) / "model.zip").is_file())


def _is_named(part: str) -> bool:
    """A spec naming a player (``PLAYER_NAMES``), as ``python -m evaluate`` names its agents."""
    return is_strategy_name(part) or part in SOLVER_PLAYERS


def split_spec(spec: str) -> list[str]:
    """``NAME`` or ``PUNTER/BANKER``. A model path holds ``/`` itself, so the spec is one player if it
    names one whole (a strategy, an existing file or folder), else it splits at the first ``/`` that
    leaves a player on each side; a lone ``/`` between two unknown names splits there, so that the
    bad one is named."""
    if "/" not in spec or _is_named(spec) or Path(spec).exists():
        return [spec]
    for at in (i for i, c in enumerate(spec) if c == "/"):
        left, right = spec[:at], spec[at + 1:]
        if all(_is_named(part) or is_model_spec(part) for part in (left, right)):
            return [left, right]
    if is_model_spec(spec):
        return [spec]  # a model path that names nothing: trained_player says so
    parts = spec.split("/")
    if len(parts) == 2 and all(parts):
        return parts
    raise UsageError(f"--opponents {spec!r}: expected NAME or PUNTER/BANKER (each a player by name, "
                     "zoo:NAME, a model .zip or a run folder)")


def make_player(spec: str, rules: Rules, seats: int, starting_chips: int) -> Policy:
    """``NAME`` (a player by name, or a trained model that plays its own role and the other by rule), or
    ``PUNTER/BANKER`` (one player for each role). A player by name is a strategy, ``thresholdN`` or the
    solver's ``optimal`` (solved against a banker standing on 17, as the rule-based players bank, for
    Shoot bets of any amount up to the posted Shoot) or ``basic``. A trained model is ``zoo:NAME``, a
    model ``.zip`` path or a run folder holding ``model.zip``."""
    parts = split_spec(spec)
    players: list[Policy] = []
    for part in parts:
        if is_strategy_name(part):
            players.append(make_strategy(part))
        elif part in SOLVER_PLAYERS:
            players.append(solver_player(part, rules))
        elif part == REDUCED_GAME_PLAYER:
            raise UsageError(f"--opponents {part!r}: the heads-up equilibrium plays only its reduced game "
                             "(one stake, no Shoot bets, no splits: solver.equilibrium_game.equilibrium_rules), "
                             "not a preset's table; play it with python -m evaluate (docs/RESULTS.md)")
        elif is_model_spec(part) or Path(part).is_dir():  # a folder without model.zip: trained_player says so
            players.append(trained_player(part, rules, seats, starting_chips)[0])
        else:
            raise UsageError(f"--opponents {part!r}: expected a strategy or player by name ({PLAYER_NAMES}), "
                             "zoo:NAME, a model .zip or a run folder (zoo:NAME from a checkout)")
    if len(players) == 2:
        for player, part, role in zip(players, parts, ROLES):
            if isinstance(player, PolicyPlayer) and role not in player.roles:
                raise UsageError(f"--opponents {spec!r}: {part!r} is a model of the {player.roles[0]}'s role, "
                                 f"given as the {role}: PUNTER/BANKER names the punter first")
        return RolePlayers(*players, spec)
    return in_own_role(players[0])  # a model plays its own role only, the other by ROLE_FALLBACKS
