"""The playtech preset against the published analysis of 8-deck online British Pontoon: the house
edge of 0.38% (player return -0.0038) and its basic strategy table (docs/RESULTS.md gives the source)."""

from __future__ import annotations

import pytest

from shoot_pontoon_env.rules import PLAYTECH
from shoot_pontoon_env.solver import solve
from shoot_pontoon_env.solver.solution import INITIAL_FLAG, peek_results
from shoot_pontoon_env.solver.space import LEVELS
from shoot_pontoon_env.solver.table import cell_actions

PUBLISHED_RETURN = -0.0038

# The published table: total -> action with (4, 3, 2) cards; H hit, S stand, D double (else hit).
HARD = {
    21: "SS-", 20: "SSS", 19: "SSS", 18: "SSS", 17: "HSS", 16: "DSS", 15: "DSS", 14: "DHH", 13: "DHH",
    12: "DHH", 11: "DDD", 10: "DDD", 9: "DDH", 8: "DHH", 7: "-HH", 6: "-HH", 5: "--H",
}
SOFT = {21: "DD-", 20: "DDS", 19: "DDS", 18: "DHH", 17: "DHH", 16: "DHH", 15: "DHH", 14: "DHH", 13: "-HH"}
OURS = {"S": "S", "T": "H", "B1": "D"}


def test_playtech_preset_lands_within_0_001_of_the_published_return() -> None:
    assert solve(PLAYTECH).expected_return == pytest.approx(PUBLISHED_RETURN, abs=0.001)


def test_basic_strategy_reproduces_the_published_table() -> None:
    """``basic`` (the infinite-deck solution) plays every cell of the published table as printed,
    including the doubles of three- and four-card soft 21 that chase the Five Card Trick."""
    sol = solve(PLAYTECH, infinite=True)
    ctx = sol.context(None, None)
    flag_of = {2: INITIAL_FLAG, 3: sol.flags.twist_to[INITIAL_FLAG]}
    flag_of[4] = sol.flags.twist_to[flag_of[3]]
    checked = 0
    for table, soft in ((HARD, False), (SOFT, True)):
        for total, row in table.items():
            for cards, published in zip((4, 3, 2), row):
                if published == "-" or (cards == 2 and total == 21):
                    continue
                if total == 21 and not soft:  # the printed S: a hard 21 stands without a decision
                    assert published == "S" and not PLAYTECH.may_draw_on(21, False)
                    continue
                ours = cell_actions(sol, sol.closed, ctx, cards, int(flag_of[cards]), skip_pairs=False).get((soft, total))
                assert OURS.get(ours) == published, (cards, "soft" if soft else "hard", total, ours)
                checked += 1
    assert checked == 69
    assert {pair for (_, pair), plan in sol.splits.items() if plan.split} == {0, 7}  # A-A and 8-8 only


@pytest.mark.parametrize("ties", ["banker", "push"])
def test_the_peek_settles_a_pontoon_by_the_tie_rule(ties: str) -> None:
    rules = PLAYTECH.replace(ties=ties)
    sol = solve(rules)
    g, h = peek_results(rules, sol.static, sol.context(None, None))
    pontoon = LEVELS[1].pontoon
    assert (g[~pontoon] < 0).all() and (h[~pontoon] < 0).all()
    assert (g[pontoon] == 0).all() if ties == "push" else (g[pontoon] < 0).all()
