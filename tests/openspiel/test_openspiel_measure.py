"""An OpenSpiel policy measured by the exact best-response code: a rule-based pair played through OpenSpiel
states (each question put at a state rebuilt from the model's view) gives exactly the exploitability the
solver computes for the same pair directly."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from shoot_pontoon_env.openspiel import load_game  # noqa: E402
from shoot_pontoon_env.openspiel.measure import exploitability, check_game  # noqa: E402
from shoot_pontoon_env.openspiel.policies import ViewPolicy, deterministic  # noqa: E402
from shoot_pontoon_env.players.strategies import make_strategy  # noqa: E402
from shoot_pontoon_env.solver.headsup.best_response import exploitability as solver_exploitability  # noqa: E402

REDUCED = {"players": 2, "reduced": True, "max_buys": 0}


@pytest.mark.slow  # 100 s (the whole game's tree walk): run by `make benchmark`, to keep CI under 10 minutes
def test_a_rule_based_pair_through_openspiel_states_equals_the_solvers_own_measure():
    game = load_game(**REDUCED)
    punter, banker = make_strategy("tips"), make_strategy("stand17")
    measured = exploitability(game, ViewPolicy(game, {0: deterministic(banker), 1: deterministic(punter)}))
    direct = solver_exploitability(punter, banker, game.settings.rules)
    assert measured.pair_value == pytest.approx(direct.pair_value, abs=1e-12)
    assert measured.banker_best_response == pytest.approx(direct.banker_best_response, abs=1e-12)
    assert measured.punter_best_response == pytest.approx(direct.punter_best_response, abs=1e-12)
    assert measured.exploitability == pytest.approx(direct.exploitability, abs=1e-12)
    assert measured.exploitability > 0.03  # tips and stand17 are far from an equilibrium


def test_a_game_the_measure_does_not_cover_is_refused_naming_why():
    with pytest.raises(ValueError, match="buys are allowed"):
        check_game(load_game(players=2, reduced=True))
    with pytest.raises(ValueError, match=r"players=3, seats=3 \(expected 2 and 2: heads-up\)"):
        check_game(load_game(players=3, reduced=True, max_buys=0))
