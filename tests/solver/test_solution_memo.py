"""``solve`` runs once per process for the same arguments, and no caller can change another's solution."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator

import numpy as np
import pytest

from shoot_pontoon_env.models.player import solver_player
from shoot_pontoon_env.rules import CASINO, MAX_DECKS, SHOOT
from shoot_pontoon_env.solver import memo, solve
from shoot_pontoon_env.players.strategies import StandOnBanker

SOLVE = importlib.import_module("shoot_pontoon_env.solver.solve")
"""The module (the package exports the function by the same name)."""


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple]]:
    """The arguments of every solve that really runs, from an empty memo."""
    memo.forget_solutions()
    calls: list[tuple] = []
    real = SOLVE._solve

    def counted(rules, banker, infinite, shoot_ratio):
        calls.append((rules.name, banker, infinite, shoot_ratio))
        return real(rules, banker, infinite, shoot_ratio)

    monkeypatch.setattr(SOLVE, "_solve", counted)
    yield calls
    memo.forget_solutions()


def test_the_optimal_player_is_solved_once_for_the_same_rules(solves: list) -> None:
    first = solver_player("optimal", SHOOT, shoot_bet_levels=[2, 4])
    second = solver_player("optimal", SHOOT, shoot_bet_levels=[2, 4])
    assert len(solves) == 1
    assert first.solution is not second.solution
    assert first.solution.expected_return == second.solution.expected_return
    solver_player("optimal", CASINO)
    solver_player("basic", SHOOT)  # the infinite deck: another solve
    assert len(solves) == 3


def test_every_batched_env_with_the_optimal_player_shares_one_solve(solves: list) -> None:
    from shoot_pontoon_env.multiagent import batched_env

    envs = [batched_env(2, players={1: "optimal", 2: "optimal"}, num_players=4) for _ in range(3)]
    assert len(solves) == 1
    for env in envs:
        env.close()


def test_what_the_solution_depends_on_keys_it(solves: list) -> None:
    plain = solve(SHOOT).expected_return
    assert solve(SHOOT, banker=StandOnBanker()).expected_return == plain  # the default banker: kept
    assert len(solves) == 1
    assert solve(SHOOT, banker=StandOnBanker(16)).expected_return != plain
    assert solve(SHOOT, num_decks=2).expected_return != plain
    assert solve(SHOOT, infinite=True).expected_return != plain
    solve(SHOOT, shoot_ratio=2)
    assert solve(SHOOT, shoot_ratio=2.0).shoot is not None
    assert len(solves) == 5


def test_a_banker_of_another_class_is_solved_every_time(solves: list) -> None:
    class Cautious(StandOnBanker):
        """A subclass may decide otherwise than its fields say: never kept."""

    banker = Cautious(16)
    sol = solve(SHOOT, banker=banker)
    solve(SHOOT, banker=banker)
    assert len(solves) == 2
    assert sol.banker_strategy is banker


def test_the_callers_banker_is_the_solutions_and_the_kept_one_is_a_copy(solves: list) -> None:
    mine = StandOnBanker(16)
    sol = solve(SHOOT, banker=mine)
    assert sol.banker_strategy is mine
    mine.stand_on = 12  # the caller changes its own banker afterwards
    other = solve(SHOOT, banker=StandOnBanker(16))
    assert len(solves) == 1
    assert other.banker_strategy.stand_on == 16


def test_no_caller_can_change_what_another_reads(solves: list) -> None:
    first = solve(SHOOT)
    reference = {"values": first.start_values[None].copy(), "act": first.closed[2].act.copy(),
                 "notes": list(first.notes), "splits": dict(first.splits)}
    with pytest.raises(ValueError, match="read-only"):
        first.closed[2].act[0, 0, 0] = 3
    with pytest.raises(ValueError, match="read-only"):
        first.start_values[None] += 1.0
    first.notes.append("changed")
    first.splits.clear()
    first.start_values[None] = np.zeros(3)
    first.expected_return = 99.0
    second = solve(SHOOT)
    assert len(solves) == 1
    assert second.notes == reference["notes"] and second.expected_return != 99.0
    assert set(second.splits) == set(reference["splits"])
    np.testing.assert_array_equal(second.start_values[None], reference["values"])
    np.testing.assert_array_equal(second.closed[2].act, reference["act"])


def test_the_memo_keeps_a_bounded_number_of_solutions(solves: list) -> None:
    arguments = [{"banker": StandOnBanker(stand_on), "num_decks": decks}
                 for stand_on, decks in itertools.product(range(12, 22), range(1, MAX_DECKS + 1))][:memo.KEPT + 1]
    for kwargs in arguments:  # one more than the memo keeps
        solve(SHOOT, **kwargs)
    assert len(solves) == memo.KEPT + 1
    for kwargs in arguments[1:]:
        solve(SHOOT, **kwargs)
    assert len(solves) == memo.KEPT + 1  # the latest are kept
    solve(SHOOT, **arguments[0])
    assert len(solves) == memo.KEPT + 2  # the least recently used went first
