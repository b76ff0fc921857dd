"""Playing deals with rule-based players at a Table: the loop of `python -m shoot_pontoon_env.simulate`, the
solver's Monte Carlo at the Table (`solver/validate.py`), the Table's benchmarks and tests. (The envs
play their own loop, `seat/table_episode.py`.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine import Phase, Table
from ..engine.view import seat_view
from ..rules import Rules
from .policy import Policy
from .strategies import make_strategy


def play_until(table: Table, players: Sequence[Policy], rng: np.random.Generator,
               stop: Callable[[Table], bool]) -> None:
    """Let the seats' strategies act until ``stop(table)`` is true or no decision is pending."""
    while table.to_act is not None and not stop(table):
        seat = table.to_act
        table.apply(players[seat].act(seat_view(table, seat), rng))


def play_deal(table: Table, players: Sequence[Policy], rng: np.random.Generator) -> None:
    """One whole deal, from the stakes to the banker's decision about the bank."""
    if table.phase == Phase.DEAL_OVER:
        table.start_deal()
    play_until(table, players, rng, lambda t: False)


def heads_up_results(banker: Policy, punter: Policy, rules: Rules | str, deals: int, seed: int,
                     starting_chips: int = 1000) -> np.ndarray:
    """The punter's net chips per unit of initial stake in each of ``deals`` heads-up deals, each at
    a new table of ``starting_chips`` a seat, seat 0 banking: every deal starts as the heads-up
    solver's views show it (``solver.headsup.game_punter.STARTING_CHIPS``), so a trained player meets the
    Table as the solver asks it."""
    rng = np.random.default_rng(seed)
    out = np.empty(deals)
    for i in range(deals):
        table = Table(rules, 2, rng=np.random.default_rng(rng.integers(2**63)), starting_chips=starting_chips)
        play_deal(table, [banker, punter], rng)
        out[i] = sum(h.result + 0.0 for h in table.hands if h.seat == 1) / table.hands[0].original_stake
    return out


@dataclass
class SessionResult:
    deals: int
    net: list[int]
    """Each seat's net chips over the session (the Shoot counted as the banker's)."""
    banker_deals: list[int]
    """How many deals each seat held the bank."""
    turnovers: int
    shoot: int
    history: list[int] = field(default_factory=list)
    """The Shoot after each deal."""


def run_session(rules: Rules | str, players: Sequence[Policy | str], deals: int, seed: int | None = None,
                starting_chips: int = 1000) -> SessionResult:
    """Play ``deals`` deals at a table of ``len(players)`` seats; seat 0 holds the first bank."""
    strategies = [make_strategy(p) for p in players]
    rng = np.random.default_rng(seed)
    table = Table(rules, len(strategies), rng=np.random.default_rng(rng.integers(2**63)),
                  starting_chips=starting_chips)
    total = table.total_chips
    banker_deals = [0] * len(strategies)
    history = []
    for _ in range(deals):
        banker_deals[table.banker] += 1
        play_deal(table, strategies, rng)
        if table.total_chips != total:
            raise AssertionError(f"chips not conserved: {table.total_chips} != {total}")
        history.append(table.shoot)
    return SessionResult(
        deals=deals, net=[table.net_position(s) for s in range(len(strategies))],
        banker_deals=banker_deals, turnovers=table.turnovers, shoot=table.shoot, history=history,
    )
