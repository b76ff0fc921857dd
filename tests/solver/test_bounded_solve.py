"""Every legal rule set solves: the extremes of the rule generator, the unbounded stake, the CLI.

A rule set with buys and no ``max_stake_multiple`` once made the flag enumeration run forever.
Each check below runs under the hang guard only (``tests/hang_guard.py``: an hour, where a solve here
takes under 3 s on a quiet 2-core machine); none asserts a time.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shoot_pontoon_env.evaluate.optimum import optimal_value
from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.models.player import solver_player
from shoot_pontoon_env.rules import MAX_DECKS, MAX_DRAWS, MAX_STAKE_MULTIPLE, SHOOT, SHOOT_BET_POINTS, Rules
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.solver import solve
from shoot_pontoon_env.solver.space import build_flags, stake_limit
from shoot_pontoon_env.players.strategies import StandOnBanker
from tests.engine.test_engine_properties import fits, rule_sets
from tests.hang_guard import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def hang_guard() -> Iterator[None]:
    """Fail (rather than hang the run) if the block has not returned within HANG_GUARD_S."""
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within the {HANG_GUARD_S} s hang guard")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(HANG_GUARD_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


UNBOUNDED = SHOOT.replace(max_stake_multiple=None)
"""The issue's rule set: the Shoot preset's buys with no stake limit."""


def test_the_unbounded_stake_is_enumerated_to_what_three_buys_reach() -> None:
    rules = UNBOUNDED.replace(buy_max_multiple=5, buy_after_twist=True)
    with hang_guard():
        flags = build_flags(rules)
    assert stake_limit(rules) == 1 + MAX_DRAWS * 5
    assert sorted(set(flags.stake.tolist())) == list(range(1, 1 + MAX_DRAWS * 5 + 1))
    assert len(set(flags.states)) == flags.n  # each state once


@pytest.mark.parametrize("changes", [
    {},
    {"buy_min_multiple": 5, "buy_max_multiple": 5, "buy_after_twist": True},
    {"buy_max_multiple": 5, "max_buys": MAX_DRAWS, "double_stakes": True},
    {"buy_max_multiple": 3, "max_buys": 1},
], ids=["shoot", "five-times-buys-after-twists", "three-buys-double-stakes", "one-buy"])
def test_no_stake_limit_solves_as_the_largest_limit_does(changes: dict) -> None:
    """A hand buys at most three times, so no limit and the largest limit (20 stakes, which three buys
    of at most five never reach) are the same game: the same exact value. A stake enumeration cut
    short would lose the richest buys and return less."""
    rules = UNBOUNDED.replace(**changes)
    with hang_guard():
        free = solve(rules).expected_return
        capped = solve(rules.replace(max_stake_multiple=MAX_STAKE_MULTIPLE)).expected_return
    assert free == pytest.approx(capped, abs=1e-12)
    assert stake_limit(rules) <= MAX_STAKE_MULTIPLE


@st.composite
def extreme_rule_sets(draw: st.DrawFn) -> Rules:
    """The engine properties' rule sets with their stake and shoe fields at the ends of what Rules
    allows: buys of 1 or 5 stakes, every number of buys, no stake limit or the tightest or largest one,
    one pack or the most, an up card, every Shoot betting point."""
    rules = draw(rule_sets())
    buy_min = draw(st.sampled_from([1, 5]))
    changes = {
        "buy_min_multiple": buy_min, "buy_max_multiple": draw(st.sampled_from(sorted({buy_min, 5}))),
        "max_buys": draw(st.sampled_from([None, 0, 1, MAX_DRAWS])),
        "max_stake_multiple": draw(st.sampled_from([None, 1 + buy_min, MAX_STAKE_MULTIPLE])),
        "buy_after_twist": draw(st.booleans()), "num_decks": draw(st.sampled_from([1, MAX_DECKS])),
        "dealer_shows_first_card": draw(st.booleans()), "max_split_hands": draw(st.sampled_from([1, 4])),
    }
    if rules.shoot and draw(st.booleans()):
        changes["shoot_bet_points"] = SHOOT_BET_POINTS
    return rules.replace(**changes)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=extreme_rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_every_extreme_rule_set_solves_and_its_player_plays_the_table(rules: Rules, seed: int) -> None:
    """The solve returns (Shoot bets included), its stakes stay within what the rules reach, and the
    optimal player finds its state for every hand it plays at the Table (a stake the enumeration
    left out would be a KeyError there)."""
    with hang_guard():
        player = solver_player("optimal", rules, shoot_bet_levels=None)
        sol = player.solution
        assert np.isfinite(sol.expected_return)
        assert int(sol.flags.stake.max()) <= stake_limit(rules)
        if not fits(rules, 2):
            return
        table = Table(rules, 2, rng=np.random.default_rng(seed), starting_chips=10_000)
        rng = np.random.default_rng(seed + 1)
        for _ in range(20):
            play_deal(table, [StandOnBanker(), player], rng)


def test_a_batched_whole_table_seats_the_optimal_player_without_a_stake_limit() -> None:
    """``batched_env(players={s: "optimal"})`` builds and plays (the kernel looks up every stake the
    player reaches in the solution's flag map) under the issue's rules."""
    from shoot_pontoon_env.multiagent import batched_env

    with hang_guard():
        env = batched_env(8, rules=UNBOUNDED, num_players=4, players={1: "optimal", 2: "optimal"})
        _, info = env.reset(seed=0)
        for _ in range(40):
            _, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))
            assert not info["illegal_action"].any()
        env.close()


def test_the_issue_command_finishes_with_the_solver_optimum(tmp_path: Path) -> None:
    """``python -m evaluate`` on the unbounded rule set (the optimal reference added by default)."""
    result = subprocess.run(
        [sys.executable, "-m", "evaluate", "--env", "ShootPontoon-v0", "--env-kwargs",
         '{"rules": {"preset": "shoot", "max_stake_multiple": null}}', "--agents", "random",
         "--hands", "100", "--out", str(tmp_path)],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    env = gym.make("ShootPontoon-v0", rules={"preset": "shoot", "max_stake_multiple": None})
    expected = optimal_value(env)
    assert expected is not None
    assert f"solver optimum: {expected:+.5f} per unit stake" in result.stdout
