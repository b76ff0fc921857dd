"""The solver's values equal a plain, slow recursion over card sequences (``reference.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from shoot_pontoon_env.rules import CASINO, PLAYTECH, SHOOT
from shoot_pontoon_env.solver import solve
from shoot_pontoon_env.solver.deck import Deck
from shoot_pontoon_env.solver.solution import node_index, split_plan
from shoot_pontoon_env.solver.space import DOUBLE
from shoot_pontoon_env.solver.split import split_counts

from .reference import CARD_OF_VALUE, Reference, full_counts, split_value, start_value


@pytest.mark.parametrize(("rules", "start", "up"), [
    (SHOOT, (9, 5), None),   # T6: stands
    (SHOOT, (9, 2), None),   # T3: draws
    (PLAYTECH, (0, 5), None),  # soft 17
    (CASINO.replace(num_decks=1), (8, 3), 9),  # 9-4 against a ten up
    (SHOOT.replace(double_stakes=True, max_buys=0, ties="push", num_decks=2), (4, 5), None),  # doubles 11
    (PLAYTECH.replace(num_decks=1, banker_five_cards="draw_on"), (9, 6), None),  # the dealer draws on
    (PLAYTECH.replace(num_decks=1, banker_five_cards="total"), (1, 2), None),  # 2-3: a trick to chase
    (CASINO.replace(num_decks=1), (0, 3), 4),  # soft 15 against a 5: a trick beats the dealer's
    (SHOOT.replace(banker_five_cards="draw_on", draw_on_21="soft", num_decks=2), (9, 7), None),
])
def test_play_values_match_the_reference(rules, start, up) -> None:
    sol = solve(rules)
    ctx = sol.context(up, None)
    g, _ = start_value(sol, start, up)
    assert sol.closed[1].eg[ctx, node_index(tuple(sorted(start))), 0] == pytest.approx(g, abs=1e-12)


def test_double_stakes_is_used_in_the_tested_start() -> None:
    sol = solve(SHOOT.replace(double_stakes=True, max_buys=0, ties="push", num_decks=2))
    assert sol.closed[1].act[0, node_index((4, 5)), 0] == DOUBLE


def test_play_with_a_shoot_bet_riding_matches_the_reference() -> None:
    ratio = 3.0
    sol = solve(SHOOT, shoot_ratio=ratio)
    for start in [(0, 3), (9, 6)]:
        ref = Reference(sol)
        counts = list(full_counts(1))
        for v in start:
            counts[v] -= 1
        g, h = ref.play(tuple(counts), tuple(CARD_OF_VALUE[v] for v in start), (1, 0, 0, 0), 0, False, None,
                        results=sol.shoot.full)
        node = node_index(tuple(sorted(start)))
        assert sol.shoot.full[1].eg[0, node, 0] == pytest.approx(g, abs=1e-12)
        assert sol.shoot.full[1].es[0, node, 0] == pytest.approx(ratio * h, abs=1e-12)


def test_split_without_resplit_is_exact() -> None:
    """Two hands from a split, each played on its own cards: the solver's value is exact."""
    rules = CASINO.replace(num_decks=1, max_split_hands=2)
    sol = solve(rules)
    assert sol.splits[(5, 9)].eg == pytest.approx(split_value(sol, 9, 5), abs=1e-12)


def test_split_counts() -> None:
    no_resplit = split_counts(2, 49, 2, resplit=False)
    assert no_resplit.non_pair + no_resplit.pair == pytest.approx(2.0)
    assert no_resplit.pair == pytest.approx(2 * 2 / 49)
    resplit = split_counts(2, 49, 4, resplit=True)
    # hands = 2 + resplits; a resplit needs a pair card as some hand's second card
    assert 2.0 < resplit.non_pair + resplit.pair < 2.2
    assert split_counts(0, 49, 4, resplit=True).non_pair == pytest.approx(2.0)


def test_resplit_approximation_is_small() -> None:
    """The resplit approximation (other split hands' cards ignored in a hand's value) against the
    exact reference, at its worst: a one-deck shoe, tens resplit (14 of 49 cards match)."""
    rules = CASINO.replace(num_decks=1, max_split_hands=3, dealer_stands_on=17)
    sol = solve(rules)
    plan = split_plan(sol.static, sol.closed, Deck(1), rules, sol.context(5, 9), 5, 9, resplit=True)
    assert plan.counts.non_pair + plan.counts.pair > 2.2
    # measured in benchmarks/solver_validation.py --only split-reference: see docs/RESULTS.md
    assert np.isfinite(plan.eg) and abs(plan.eg - 0.4420608217608283) < 1e-9
