"""The whole table's arguments, checked once into a :class:`SeatConfig` for both the AEC env and the
batched whole-table env (so the two cannot drift apart in what they accept)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..engine.table import Table
from ..models.player import SOLVER_PLAYERS
from ..models.resolve import ALLOWED, RoleMismatch, make_policy
from ..players.policy import Policy
from ..players.roles import ROLES, RolePlayers, in_own_role
from ..rules import Rules
from ..seat.action_table import ActionEntry, ActionTable, banker_action_table, punter_action_table
from ..seat.arguments import (check_bool, check_deals_per_episode, check_int, check_max_cycles, check_penalty,
                              check_players, check_rules, check_starting_chips)
from ..seat.config import PUNTER, SeatConfig
from ..seat.encoding import ObservationEncoder


def seat_action_table(
    rules: Rules,
    stake_levels: Sequence[int] | None = None,
    shoot_bet_levels: Sequence[int] | None = None,
    buy_levels: Sequence[float] | None = None,
) -> ActionTable:
    """One action table for a seat that may punt or bank: the punter's table followed by the banker's
    entries it lacks (keep and sell the bank). Stick and twist mean the same for both roles."""
    punter = punter_action_table(rules, stake_levels, shoot_bet_levels, buy_levels)
    kinds = {entry.kind for entry in punter.entries}
    extra: list[ActionEntry] = [e for e in banker_action_table().entries if e.kind not in kinds]
    return ActionTable(punter.entries + tuple(extra))


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


@dataclass(frozen=True, eq=False)
class WholeTableSettings:
    """A whole table, checked: the episode's configuration (``config.players[s]`` plays seat s where
    it is not a learner's), which seats learn, and the env's own settings."""

    config: SeatConfig
    learners: tuple[bool, ...]
    first_banker: int | str
    max_cycles: int | None
    strict: bool


def whole_table_settings(
    rules: str | Rules = "shoot",
    num_players: int = 4,
    first_banker: int | str = 0,
    stake_levels: Sequence[int] | None = None,
    shoot_bet_levels: Sequence[int] | None = None,
    buy_levels: Sequence[float] | None = None,
    deals_per_episode: int | None = None,
    max_cycles: int | None = None,
    illegal_action_penalty: float = 1.0,
    strict: bool = False,
    starting_chips: int = 1000,
    players: Mapping[int, Policy | str] | None = None,
) -> WholeTableSettings:
    """Check every argument (one error naming the bad value and what is allowed). ``players``: the
    seats the table players play instead of learners (seat -> anything ``models.resolve.make_policy``
    takes, resolved for this table and its seat action table: a strategy name or ``thresholdN``, a
    Policy, a solver player's name: ``optimal``, the solver's policy against ``stand17``, with its
    Shoot bets for the table's levels; ``basic``; a trained model (``zoo:NAME``, a model ``.zip``, a
    run folder) or network as a policy over observations, which the batched engine plays where it is
    an ActorPlayer or a TrainedPlayer: ``vector.engine.kernel_network``; a callable of an observation
    and its mask; or a dict ``{"punter": p, "banker": q}`` or ``"P/Q"`` of one player per role,
    ``seat_player``). A model plays only its own role: one trained for one role is paired with
    ``ROLE_FALLBACKS``' player of the other.
    ``deals_per_episode=None``: one deal, or with ``max_cycles`` as many as the episode has room for
    (``max_cycles + 1``: every deal asks for a stake, so only the truncation ends the episode, as
    PettingZoo means by ``max_cycles``)."""
    rules = check_rules(rules)
    max_cycles = check_max_cycles(max_cycles, deals_per_episode)
    if deals_per_episode is None:
        deals_per_episode = 1 if max_cycles is None else max_cycles + 1
    num_players = check_players(num_players)
    if first_banker != "random":
        check_int("first_banker", first_banker, 0, num_players - 1)
    Table.check_size(rules, num_players)
    action_table = seat_action_table(rules, stake_levels, shoot_bet_levels, buy_levels)
    starting_chips = check_starting_chips(starting_chips)
    fixed: dict[int, Policy] = {}
    if players is not None:
        if not isinstance(players, Mapping):
            raise ValueError(f"players = {players!r}: expected a dict of seat -> {ALLOWED}")
        solved: dict[str, Policy] = {}

        def one_player(argument: str, player: object, role: str | None) -> Policy:
            if isinstance(player, str) and player in SOLVER_PLAYERS and player in solved:
                return solved[player]  # one solution for every seat naming it
            resolved = make_policy(player, rules=rules, num_players=num_players, starting_chips=starting_chips,
                                   role=role, action_table=action_table, label=argument)
            if isinstance(player, str) and player in SOLVER_PLAYERS:
                solved[player] = resolved
            return resolved

        for seat, player in players.items():
            check_int("players' seat", seat, 0, num_players - 1)
            fixed[int(seat)] = seat_player(f"players[{seat}]", player, one_player)
        bankers = range(num_players) if first_banker == "random" else (first_banker,)
        if any(all(s in fixed or s == banker for s in range(num_players)) for banker in bankers):
            raise ValueError(
                f"players = {players!r}, first_banker = {first_banker!r}: every episode must ask a learner, so a "
                "learner's seat must punt in the first deal (a deal whose punters all bust asks the banker "
                "nothing); leave a punter's seat to the learners too, or train a lone banker with "
                "ShootPontoonBanker-v0, whose agent acknowledges such deals")
    config = SeatConfig(
        rules=rules, num_players=num_players, seat=0, role=PUNTER,
        players=tuple(fixed.get(s, Policy()) for s in range(num_players)),
        player_arguments=tuple(f"players[{s}]" for s in range(num_players)),
        action_table=action_table, encoder=ObservationEncoder(rules, num_players, starting_chips),
        deals_per_episode=check_deals_per_episode(deals_per_episode),
        illegal_action_penalty=check_penalty(illegal_action_penalty), starting_chips=starting_chips,
    )
    return WholeTableSettings(
        config=config, learners=tuple(s not in fixed for s in range(num_players)), first_banker=first_banker,
        max_cycles=max_cycles,
        strict=check_bool("strict", strict),
    )


def seat_player(argument: str, player: object, resolve: Callable[[str, object, str | None], Policy]) -> Policy:
    """One seat's player, each of its roles by a player that can play it (``resolve(argument, player,
    role)`` resolves one player given by spec or object, for ``role`` or, None, for both).
    ``{"punter": p, "banker": q}``, ``"P/Q"`` or a ``RolePlayers``: p while the seat punts, q while it
    banks; a model (a policy over observations) whose action table plays one role only: it in that role
    and ``ROLE_FALLBACKS``' player in the other (the bank passes under the Shoot rules, so a punter
    model's seat may be asked to keep or sell it, which its action table cannot answer). A model given
    for a role it cannot play is refused in one line."""
    if isinstance(player, Mapping):
        if set(player) != set(ROLES):
            raise ValueError(f"{argument} = {player!r}: expected one player for each role, "
                             "{'punter': ..., 'banker': ...} (each a player's name or a Policy)")
        parts = [_role_part(argument, player[role], role, resolve) for role in ROLES]
        name = None
    else:
        resolved = resolve(argument, player, None)
        if not isinstance(resolved, RolePlayers):
            return in_own_role(resolved)
        parts, name = list(resolved.role_players()), resolved.name
        for role, part in zip(ROLES, parts):
            if role not in part.roles:
                _refuse_role(argument, part, role)
    return RolePlayers(*parts, name)


def _role_part(argument: str, player: object, role: str,
               resolve: Callable[[str, object, str | None], Policy]) -> Policy:
    """Seat ``argument``'s player of ``role`` (``{"punter": ..., "banker": ...}``)."""
    try:
        return resolve(f"{argument}[{role!r}]", player, role)
    except RoleMismatch as error:
        _refuse_role(argument, error.policy, role)
        raise


def _refuse_role(argument: str, part: Policy, role: str) -> None:
    """A ValueError: seat ``argument``'s player of ``role`` is a model that cannot play it."""
    lacks = "stake" if role == "punter" else "keep or sell the bank"
    what = f"{argument}[{role!r}] = {getattr(part, 'name', part)!r}"
    if not part.roles:
        raise ValueError(f"{what}: a model whose action table plays neither role (no stake, no keep "
                         f"or sell the bank) cannot play the {role}'s")
    own = part.roles[0]
    raise ValueError(
        f"{what}: a model of the {own}'s role cannot play the {role}'s (its action table has no "
        f"{lacks}); give it as {argument} = {{{own!r}: model, {role!r}: a player of that role}}")


def first_banker_of(settings: WholeTableSettings, np_random: np.random.Generator) -> int:
    """The first banker of an episode: the setting, or drawn from the env's Generator (``"random"``)."""
    if settings.first_banker == "random":
        return int(np_random.integers(settings.config.num_players))
    return int(settings.first_banker)


def takes_table_arguments(*, without: tuple[str, ...] = ()) -> Callable[[Callable], Callable]:
    """For an env constructor whose ``**table`` are the whole table's arguments: ``whole_table_settings``'
    keyword arguments, less ``without``, written there only. Any other keyword is refused as Python
    refuses one, and the constructor's signature (what ``help`` and ``inspect.signature`` show) lists
    them, keyword-only, with their defaults."""
    table = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
             for name, p in inspect.signature(whole_table_settings).parameters.items() if name not in without]
    allowed = {p.name for p in table}

    def decorate(init: Callable) -> Callable:
        own = [p for p in inspect.signature(init).parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
        positional = [p for p in own if p.kind != inspect.Parameter.KEYWORD_ONLY]
        keyword = [p for p in own if p.kind == inspect.Parameter.KEYWORD_ONLY]

        @functools.wraps(init)
        def checked(self, *args, **kwargs):
            unknown = [name for name in kwargs if name not in allowed and name not in {p.name for p in own}]
            if unknown:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {unknown[0]!r}")
            return init(self, *args, **kwargs)

        checked.__signature__ = inspect.Signature(positional + table + keyword)
        del checked.__wrapped__  # the signature above, not the ``**table`` one
        return checked

    return decorate
