"""The one resolver of a policy: :func:`make_policy` turns whatever a user gives for a seat into a
:class:`Policy` that every engine and tool accepts (the single-seat envs' opponents, the batched engine,
the solver's best responses, terminal play, ``evaluate`` and the whole table).

A spec is a Policy (returned as it is: an observation policy given unbound is bound to the seat), a
player by name (a strategy, ``thresholdN``, the solver's ``optimal`` and ``basic``), a trained model
(``zoo:NAME``, a model ``.zip``, a run folder; read by the safe loader), ``PUNTER/BANKER`` (one of
those for each role), or a Python callable over an observation and its action mask (a
:class:`CallablePolicy`). A bad spec is a ValueError naming it and what is allowed; the command lines
turn it into their one ``error:`` line.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..actions import ActionKind
from ..players.policy import Policy
from ..players.roles import ROLES, RolePlayers, in_own_role
from ..players.strategies import STRATEGIES, is_strategy_name, make_strategy
from ..rules import PRESETS, Rules, get_rules
from ..seat.action_table import ActionTable, banker_action_table, punter_action_table
from .player import (
    SOLVER_PLAYERS, CallablePolicy, EnvContext, ObservationPolicy, SB3ModelPolicy, UniformPolicy, ViewPolicy,
    action_table_roles, is_sb3_model, solver_player,
)

REDUCED_GAME_PLAYER = "equilibrium"
"""The checkout's agent of the heads-up equilibrium (agents/equilibrium.py), bound to its reduced game."""
PLAYER_NAMES = f"{', '.join(sorted(STRATEGIES))}, thresholdN, {', '.join(SOLVER_PLAYERS)}"
"""The players by name: the strategies, ``thresholdN`` (stick on N or more) and the solver's."""
ALLOWED = (f"a strategy or player by name ({', '.join(sorted(STRATEGIES))}, thresholdN, or a solver player "
           f"{list(SOLVER_PLAYERS)}), a trained model (zoo:NAME from a checkout, a model .zip or a run folder), "
           "PUNTER/BANKER, module:Name (a Python policy), a Policy, a Stable-Baselines3 model or a callable of an "
           "observation and its action mask")
"""What :func:`make_policy` accepts, as its errors list it."""


class UnknownPolicy(ValueError):
    """A spec that names no policy (the message names it and lists what is allowed)."""


class RoleMismatch(ValueError):
    """A model of one role given for the other (``own``: the role it plays, None for neither)."""

    def __init__(self, message: str, policy: Policy, own: str | None, role: str) -> None:
        super().__init__(message)
        self.policy, self.own, self.role = policy, own, role


def _prefix(label: str) -> str:
    """How an error names the value: a command line's option is followed by it (``--opponents 'x'``),
    a Python argument by `` = `` (``players[1] = 'x'``)."""
    return f"{label} " if label.startswith("-") or " " in label else f"{label} = "


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


IMPORT_SPEC = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
"""``module:Name``: a Python object by its import path (``mypkg.policies:my_policy``)."""


def is_import_spec(part: str) -> bool:
    """A spec naming a Python object, ``module:Name`` (not ``zoo:NAME``, a model of the zoo)."""
    return not part.startswith("zoo:") and IMPORT_SPEC.fullmatch(part) is not None


def import_object(spec: str, label: str = "policy") -> Any:
    """The object ``module:Name`` names (a class is instantiated with no arguments), or an
    :class:`UnknownPolicy` naming what is missing. The module is imported as ``import`` would (from
    ``sys.path``: the working directory under ``python -m``): running its code is what naming it asks."""
    module_name, qualified = spec.split(":")
    prefix = _prefix(label)
    try:
        found: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise UnknownPolicy(f"{prefix}{spec!r}: no module named {error.name!r} (module:Name imports the module "
                            "from the Python path: the working directory under python -m)") from None
    except Exception as error:  # the module's own code failed: said in one line, as a bad name is
        raise UnknownPolicy(f"{prefix}{spec!r}: importing {module_name!r} raised {type(error).__name__}: "
                            f"{error}") from None
    for part in qualified.split("."):
        if not hasattr(found, part):
            raise UnknownPolicy(f"{prefix}{spec!r}: {found.__name__ if hasattr(found, '__name__') else found!r} "
                                f"has no attribute {part!r}") from None
        found = getattr(found, part)
    if isinstance(found, type):
        try:
            found = found()
        except TypeError as error:
            raise UnknownPolicy(f"{prefix}{spec!r}: the class {qualified} could not be made with no arguments "
                                f"({error}); name an instance or a function instead") from None
    return found


def is_model_spec(part: str) -> bool:
    """A spec naming a trained model: ``zoo:NAME``, a ``.zip`` path, or a run folder with ``model.zip``."""
    return part.startswith("zoo:") or part.endswith(".zip") or (
        bool(part) and (Path(part) / "model.zip").is_file())


def _is_named(part: str) -> bool:
    """A spec naming a player (``PLAYER_NAMES``), as ``python -m evaluate`` names its agents."""
    return is_strategy_name(part) or part in SOLVER_PLAYERS


def split_spec(spec: str, label: str = "--opponents") -> list[str]:
    """``NAME`` or ``PUNTER/BANKER``. A model path holds ``/`` itself, so the spec is one player if it
    names one whole (a strategy, an existing file or folder), else it splits at the first ``/`` that
    leaves a player on each side; a lone ``/`` between two unknown names splits there, so that the
    bad one is named. A ValueError for a spec of more parts or an empty one."""
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
    raise UnknownPolicy(f"{_prefix(label)}{spec!r}: expected NAME or PUNTER/BANKER (each a player by name, zoo:NAME, "
                        "a model .zip or a run folder)")


def shoot_levels(action_table: ActionTable) -> list[int]:
    """The Shoot bet levels of an action table (chips)."""
    return [e.amount for e in action_table.entries if e.kind == ActionKind.SHOOT_BET]


def table_banker(env: Any) -> Policy | None:
    """The free banker a punter env seats (what the optimal punter is solved against), or None."""
    base = getattr(env, "unwrapped", env)
    if getattr(base, "rules", None) is None or base.rules.banker_play != "free":
        return None
    return getattr(base, "banker_strategy", None)


def _needs_train_extra(spec: str) -> str:
    return (f"trained opponent {spec!r} needs the train extra (pyyaml, torch, stable-baselines3, sb3-contrib): "
            "pip install -e '.[train]' in a checkout")


def trained_player(spec: str, rules: Rules, seats: int, starting_chips: int, *, seats_option: str | None = "--seats",
                   zoo: Path | None = None) -> tuple[Policy, bool]:
    """A trained model as a table player (a :class:`~.trained.TrainedPlayer`); True if it was trained to
    bank. Its run's config is checked against the table before the model (and torch) is loaded, and the
    model is read by the package's safe loader (``models.safe_load``: never unpickled, tensors only); it
    plays in the seat of its own env (its action table) at a table of ``seats`` seats and
    ``starting_chips``. ``seats_option``: how the caller's user changes the table size, named where a
    model's observation does not fit it (None: the size is fixed). ``zoo``: the folder ``zoo:NAME``
    names (default: the checkout's, :func:`checkout_zoo`). A ValueError in one line for every mistake."""
    try:
        import gymnasium as gym

        from .safe_load import ModelFileError, model_config
        from .trained import TrainedPlayer, model_file
    except ImportError:
        raise ValueError(_needs_train_extra(spec)) from None
    from .. import envs  # noqa: F401  (registers the ids)

    zoo = zoo if zoo is not None else checkout_zoo()
    if spec.startswith("zoo:") and zoo is None:
        raise ValueError(f"trained opponent {spec!r} needs a checkout of the repository (zoo:NAME is a model "
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
        raise ValueError(f"trained opponent {spec!r}: {error}") from None
    if seat.rules != rules:
        trained = seat.rules  # a preset by its name, changed rules as the run's own spec
        option = (trained.name if PRESETS.get(trained.name) == trained
                  else f"'{json.dumps(config.env_kwargs.get('rules'))}'")
        differ = [f"{field}={getattr(trained, field)!r} (here {getattr(rules, field)!r})"
                  for field in trained.to_dict() if field != "name" and getattr(trained, field) != getattr(rules, field)]
        detail = f" (its rules have {', '.join(differ)})" if len(differ) <= 3 else ""  # e.g. another --pack
        raise ValueError(f"trained opponent {spec!r} was trained under the rules {seat.rules.name!r}, "
                         f"not {rules.name!r}: choose --rules {option}{detail}")
    trained_shape, shape = trained_env.observation_space.shape, here_env.observation_space.shape
    if config.observation == "flat" and trained_shape != shape:
        seats_trained = trained_env.unwrapped.num_players
        remedy = (f"use {seats_option} {seats_trained}" if seats_option else
                  "a model reading the flat observation must be trained at this table size (or read the "
                  "compact observation, which any table size gives, as a punter may)")
        raise ValueError(f"trained opponent {spec!r} reads observations of shape {trained_shape} (a table of "
                         f"{seats_trained} seats); a table of {seats} seats gives {shape}: {remedy}")
    try:  # the tensors must fit this seat's env
        player = TrainedPlayer(path, name=spec, config=config, env=seat)
    except (ModelFileError, ValueError) as error:
        raise ValueError(f"trained opponent {spec!r}: {error}") from None
    except ImportError:  # torch or stable-baselines3, imported when the policy is read
        raise ValueError(_needs_train_extra(spec)) from None
    return player, "Banker" in env_id


def make_policy(spec: Any, *, rules: Rules | str | None = None, num_players: int | None = None,
                starting_chips: int | None = None, role: str | None = None, action_table: ActionTable | None = None,
                env: Any = None, banker: Policy | None = None, shoot_bet_levels: Sequence[int] | None = None,
                label: str = "policy", seats_option: str | None = None, zoo: Path | None = None) -> Policy:
    """The policy ``spec`` names, for a seat of a table under ``rules`` of ``num_players`` seats (4 unless
    given) and ``starting_chips`` each (1000 unless given).

    ``spec``:

    - a :class:`Policy`, returned as it is (an :class:`ObservationPolicy` not yet bound is bound to the
      seat: below);
    - a player by name: a strategy of ``STRATEGIES``, ``thresholdN`` (stick on N or more), ``optimal``
      (the solver's exact optimum against ``banker``, default stand on 17, with its Shoot bets for
      ``shoot_bet_levels``: the seat's action table's levels where one is given, else any amount up to
      the posted Shoot; ``()``: none) or ``basic`` (the infinite-deck solution);
    - a trained model: ``zoo:NAME`` (of ``zoo``, default the checkout's ``agents/zoo``), a model ``.zip``
      or a run folder holding ``model.zip``, read by the safe loader; it plays in its own env's seat at
      this table (:func:`trained_player`), or, where ``env`` is given, in that env's seat (rebuilt for
      its spaces);
    - ``"PUNTER/BANKER"``: one of those for each role (a :class:`RolePlayers`);
    - a callable ``f(observation, action_mask)`` (or ``f(observation, action_mask, rng)``) returning an
      action index: a :class:`CallablePolicy` bound to the seat.

    The seat: ``env`` (the env whose agent seat the policy plays: its rules, table, action table, its
    free banker and Shoot bet levels for ``optimal``), or else the rules and table given here and
    ``action_table`` (default: the punter's table of the rules, the banker's for ``role="banker"``).

    ``role``: the role the seat plays, ``"punter"`` or ``"banker"``; a model of the other role is a
    :class:`RoleMismatch`. None: a seat whose bank comes and goes (the Shoot rules), where a model or
    callable of one role given by spec plays that role and ``ROLE_FALLBACKS``' player the other
    (``in_own_role``). ``label``: how errors name the value (``--opponents``, ``players[1]``).

    A ValueError for a bad spec, naming it and what is allowed (:class:`UnknownPolicy` for one that
    names nothing)."""
    prefix = _prefix(label)
    if role is not None and role not in ROLES:
        raise ValueError(f"role = {role!r}: expected None or one of {list(ROLES)}")
    context = EnvContext.of(env) if env is not None else None
    if context is not None:
        rules = context.rules if rules is None else rules
        num_players = context.num_players if num_players is None else num_players
        starting_chips = context.starting_chips if starting_chips is None else starting_chips
        action_table = context.action_table if action_table is None else action_table
        banker = table_banker(env) if banker is None else banker
    num_players = 4 if num_players is None else num_players
    starting_chips = 1000 if starting_chips is None else starting_chips
    if rules is not None and not isinstance(rules, Rules):
        rules = get_rules(rules)
    if shoot_bet_levels is None and action_table is not None:
        shoot_bet_levels = shoot_levels(action_table)

    def needs_rules(what: Any) -> Rules:
        if rules is None:
            raise ValueError(f"{prefix}{what!r}: needs the rules it plays under (make_policy(..., rules=...))")
        return rules

    def seat(role_here: str | None) -> EnvContext:
        if context is not None:
            return context
        rules_here = needs_rules(spec)
        table = action_table
        if table is None:
            table = banker_action_table() if role_here == "banker" else punter_action_table(rules_here)
        return EnvContext(rules=rules_here, action_table=table, starting_chips=starting_chips, num_players=num_players)

    def check_role(policy: Policy, what: Any, role_here: str | None) -> Policy:
        if role_here is not None and role_here not in policy.roles:
            own = policy.roles[0] if len(policy.roles) == 1 else None
            plays = f"a model of the {own}'s role" if own else "a model that plays neither role"
            raise RoleMismatch(f"{prefix}{what!r} is {plays}, given as the {role_here}", policy, own, role_here)
        return policy

    def one(part: str, role_here: str | None) -> Policy:
        if is_strategy_name(part):
            return make_strategy(part)
        if part in SOLVER_PLAYERS:
            return solver_player(part, needs_rules(part), banker, shoot_bet_levels)
        if part == REDUCED_GAME_PLAYER:
            raise ValueError(f"{prefix}{part!r}: the heads-up equilibrium plays only its reduced game (one stake, no "
                             "Shoot bets, no splits: solver.equilibrium_game.equilibrium_rules), not a preset's "
                             "table; play it with python -m evaluate (docs/RESULTS.md)")
        if is_import_spec(part) and not Path(part).exists():
            return resolved(import_object(part, label), part, role_here)
        if is_model_spec(part) or Path(part).is_dir():  # a folder without model.zip: the loader says so
            if context is not None:
                return check_role(_bound_model(part, context, zoo), part, role_here)
            player, _ = trained_player(part, needs_rules(part), num_players, starting_chips,
                                       seats_option=seats_option, zoo=zoo)
            return check_role(player, part, role_here)
        raise UnknownPolicy(f"{prefix}{part!r}: expected {ALLOWED}")

    def resolved(value: Any, what: Any, role_here: str | None) -> Policy:
        """A Python object given or imported: a Policy, a Stable-Baselines3 model or a callable."""
        if isinstance(value, Policy):
            if isinstance(value, ObservationPolicy) and value.context is None:
                value.bind(seat(role_here))
            return check_role(value, getattr(value, "name", what), role_here)
        if is_sb3_model(value):
            return check_role(SB3ModelPolicy(value, context=seat(role_here)), what, role_here)
        if callable(value) and not isinstance(value, type):
            return CallablePolicy(value, context=seat(role_here))
        raise UnknownPolicy(f"{prefix}{what!r}: expected {ALLOWED}")

    if isinstance(spec, Policy) or is_sb3_model(spec):
        return resolved(spec, spec, role)
    if isinstance(spec, str):
        parts = split_spec(spec, label)
        if len(parts) == 1:
            player = one(parts[0], role)
            return player if role is not None else in_own_role(player)
        players = []
        for part, part_role in zip(parts, ROLES):
            try:
                players.append(one(part, part_role))
            except RoleMismatch as error:
                raise RoleMismatch(f"{prefix}{spec!r}: {part!r} is a model of the {error.own}'s role, given as the "
                                   f"{part_role}: PUNTER/BANKER names the punter first", error.policy, error.own,
                                   part_role) from None
        return RolePlayers(*players, spec)
    if callable(spec) and not isinstance(spec, type):
        policy = resolved(spec, spec, role)
        return policy if role is not None else in_own_role(policy)
    what = f"the class {spec.__name__} (expected an instance: {spec.__name__}())" if isinstance(spec, type) else None
    raise UnknownPolicy(f"{prefix}{spec!r}: expected {ALLOWED}" + (f"; got {what}" if what else ""))


def seat_role(env: Any) -> str | None:
    """The role of a single-seat env's agent (its action table plays one), so that a model is not paired."""
    roles = action_table_roles(EnvContext.of(env).action_table)
    return roles[0] if len(roles) == 1 else None


def observation_policy(spec: Any, env: Any, *, label: str = "policy", zoo: Path | None = None) -> ObservationPolicy:
    """The policy ``spec`` names as an :class:`ObservationPolicy` bound to ``env``'s agent seat: what an
    evaluation plays. ``random`` is uniform over the legal action indices (:class:`UniformPolicy`); any
    other spec is :func:`make_policy`'s, a policy over views answered through the observation
    (:class:`ViewPolicy`). A ValueError naming a bad spec and what is allowed."""
    if isinstance(spec, str) and spec == "random":
        return UniformPolicy().bind(env)
    policy = make_policy(spec, env=env, role=seat_role(env), label=label, zoo=zoo)
    if isinstance(policy, ObservationPolicy):  # bound to this env's seat (as it is, where it already is)
        return policy if policy.context == EnvContext.of(env) else policy.bind(env)
    return ViewPolicy(policy).bind(env)


def _bound_model(spec: str, context: EnvContext, zoo: Path | None) -> Policy:
    """A model file played in the seat of ``context``'s env (rebuilt for its spaces; a model whose
    weights do not fit is refused by the loader, naming the file)."""
    try:
        from .trained import TrainedPlayer
    except ImportError:
        raise ValueError(_needs_train_extra(spec)) from None
    try:
        return TrainedPlayer(spec, zoo=zoo if zoo is not None else checkout_zoo(), env=context)
    except ImportError:
        raise ValueError(_needs_train_extra(spec)) from None


__all__ = ["ALLOWED", "PLAYER_NAMES", "RoleMismatch", "UnknownPolicy", "checkout_zoo", "import_object",
           "is_import_spec", "is_model_spec", "make_policy", "observation_policy", "seat_role", "shoot_levels",
           "split_spec", "table_banker", "trained_player"]
