"""An OpenSpiel policy measured by the exact best-response code: a rule-based pair played through OpenSpiel
states (each question put at a state rebuilt from the model's view) gives exactly the exploitability the
solver computes for the same pair directly."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from shoot_pontoon_env.engine.view import seat_view  # noqa: E402
from shoot_pontoon_env.openspiel import load_game  # noqa: E402
from shoot_pontoon_env.openspiel.measure import exploitability, check_game  # noqa: E402
from shoot_pontoon_env.players.strategies import make_strategy  # noqa: E402
from shoot_pontoon_env.solver.headsup.best_response import exploitability as solver_exploitability  # noqa: E402

REDUCED = {"players": 2, "reduced": True, "max_buys": 0}


def rule_based_policy(game, punter: str, banker: str):
    """OpenSpiel's view of a rule-based pair: (state, player) -> the one action index each plays."""
    table = game.settings.table.config.action_table
    players = {0: make_strategy(banker), 1: make_strategy(punter)}
    rng = np.random.default_rng(0)

    def policy(state, player):
        view = seat_view(state.table, player)
        action = players[player].act(view, rng)
        (index,) = [i for i in state.legal_actions(player) if table.to_action(i, view) == action]
        return {index: 1.0}

    return policy, players


def test_a_rule_based_pair_through_openspiel_states_equals_the_solvers_own_measure():
    game = load_game(**REDUCED)
    policy, players = rule_based_policy(game, "tips", "stand17")
    measured = exploitability(game, policy)
    direct = solver_exploitability(players[1], players[0], game.settings.rules)
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
