"""The solver's interface: bankers it can and cannot model, solutions, the player."""

from __future__ import annotations

import numpy as np
import pytest

from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.rules import PLAYTECH, SHOOT
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.solver import OptimalPunter, solve
from shoot_pontoon_env.players.strategies import RandomPlayer, ShootAwareBanker, StandOnBanker


@pytest.mark.parametrize("banker", [ShootAwareBanker(), RandomPlayer()])
def test_a_banker_that_may_look_at_the_punters_is_refused(banker) -> None:
    with pytest.raises(NotImplementedError, match="own cards only"):
        solve(SHOOT, banker=banker)


def test_a_weaker_banker_is_worth_more_to_the_punter() -> None:
    assert solve(SHOOT, banker=StandOnBanker(16)).expected_return > solve(SHOOT).expected_return


def test_more_decks_move_towards_the_infinite_deck() -> None:
    values = [solve(SHOOT, num_decks=d).expected_return for d in (1, 2, 8)]
    infinite = solve(SHOOT, infinite=True).expected_return
    assert abs(values[0] - infinite) > abs(values[1] - infinite) > abs(values[2] - infinite)


def test_expected_return_is_the_mean_of_the_start_values() -> None:
    sol = solve(PLAYTECH)
    assert sol.start_probs[None].sum() == pytest.approx(1.0)
    assert sol.start_probs[None] @ sol.start_values[None] == pytest.approx(sol.expected_return)
    assert sol.notes and sol.seconds > 0


def test_banker_outcomes_add_up_to_no_pontoon() -> None:
    """Standing values come from banker outcome chances that sum to P(no banker Pontoon)."""
    from shoot_pontoon_env.solver.dealer import banker_rule, dealer_paths, outcome_probs
    from shoot_pontoon_env.solver.deck import Deck

    deck = Deck(1)
    paths = dealer_paths(banker_rule(SHOOT), SHOOT, None)
    removed = np.array([[1, 0, 0, 0, 1, 0, 0, 0, 0, 1], [0] * 10], dtype=float)
    total = outcome_probs(deck, paths, removed).sum(axis=1)
    assert total == pytest.approx(deck.no_pontoon(removed, None), abs=1e-12)


def test_optimal_punter_from_a_preset_name_plays_legal_moves() -> None:
    player = OptimalPunter("playtech")
    rng = np.random.default_rng(0)
    table = Table("playtech", 2, rng=np.random.default_rng(1))
    for _ in range(300):
        play_deal(table, [StandOnBanker(), player], rng)  # raises on an illegal move
