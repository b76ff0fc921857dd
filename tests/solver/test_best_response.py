"""Heads-up best responses (``solver/headsup/best_response.py``): checks that can fail.

- The banker's best response to ``tips`` holds the punter at least 0.01 below ``stand17`` and
  ``dealer``.
- Paired engine checks at ``max_split_hands=2``, where the model is exact: the best-response banker
  and ``stand17`` play the same shuffles against the same punter on the engine's ``Table``; the
  engine's mean difference equals the model's exact difference within 3 standard errors (about 0.01
  here), and is below zero by more than 3 standard errors (a "best response" no better than
  ``stand17`` fails). Under ``-m slow``: the best response's exact value against 1,000,000 unpaired
  engine deals, and the effect of the resplits the model leaves out.
- The game code against the solver, exactly (1e-12): the value of the solver's optimum against a
  fixed banker, computed by ``game_punter`` and ``best_banker``, equals the solver's own value, with
  and without splits and on rule variants; the punter's best response without splits equals the
  solver's without splits; a best-response punter played through ``game_punter`` is worth what the
  response says.
- Exploitability: the punter's gain of the solver's optimum against its own banker is 0 (both gains
  in one game); the CLI prints the function's values; rules the model cannot cover are refused.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from shoot_pontoon_env.cli import run
from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.rules import get_rules
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.solver import OptimalPunter, solve
from shoot_pontoon_env.solver.__main__ import main
from shoot_pontoon_env.solver.headsup.banker_views import observation_draws, strategy_draws
from shoot_pontoon_env.solver.headsup.best_banker import BankerResult, ResponseBanker, evaluate
from shoot_pontoon_env.solver.headsup.best_punter import ResponsePunter, punter_response
from shoot_pontoon_env.solver.headsup.best_response import exploitability, pair_value, two_hand_rules
from shoot_pontoon_env.solver.headsup.game_banker import banker_space
from shoot_pontoon_env.solver.headsup.game_punter import PunterRows, check_rules, punter_rows, strategy_policy
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.players.strategies import make_strategy

SHOOT = get_rules("shoot")
TWO = SHOOT.replace(max_split_hands=2)
"""The modelled game: a box splits at most once, so the engine plays exactly what the model counts."""
ONE = SHOOT.replace(max_split_hands=1)


@pytest.fixture(scope="module")
def tips_rows() -> PunterRows:
    return punter_rows(SHOOT, strategy_policy(make_strategy("tips")))


@pytest.fixture(scope="module")
def tips_best(tips_rows: PunterRows) -> BankerResult:
    return evaluate(tips_rows, banker_space(SHOOT))


def engine_results(banker: Policy, punter: Policy, rules, deals: int, seed: int) -> np.ndarray:
    """The punter's net chips per unit of initial stake in each of ``deals`` heads-up engine deals."""
    rng = np.random.default_rng(seed)
    table = Table(rules, 2, rng=np.random.default_rng(rng.integers(2**63)), starting_chips=0)
    players = [banker, punter]
    out = np.empty(deals)
    for i in range(deals):
        play_deal(table, players, rng)
        out[i] = sum(h.result + 0.0 for h in table.hands if h.seat == 1) / table.hands[0].original_stake
    return out


def z_score(results: np.ndarray, value: float) -> float:
    return float((results.mean() - value) / (results.std(ddof=1) / np.sqrt(len(results))))


def test_best_response_holds_tips_below_the_rule_bankers(tips_rows: PunterRows,
                                                         tips_best: BankerResult) -> None:
    space = tips_best.space
    for name in ("stand17", "dealer"):
        rule = evaluate(tips_rows, space, strategy_draws(make_strategy(name), tips_rows, space))
        assert tips_best.value <= rule.value - 0.01, (name, tips_best.value, rule.value)


@pytest.mark.slow
def test_best_response_value_matches_a_million_engine_deals(tips_best: BankerResult) -> None:
    results = engine_results(ResponseBanker(tips_best), make_strategy("tips"), TWO, 1_000_000, seed=13)
    assert abs(z_score(results, tips_best.value)) < 3, (results.mean(), tips_best.value)


def paired_gain(banker_a: Policy, banker_b: Policy, punter: Policy, rules_a, rules_b, deals: int,
                seed: int) -> tuple[float, float]:
    """Mean and standard error of the punter's net under (banker_a, rules_a) minus under (banker_b,
    rules_b), deal by deal on the same shuffles (the punter plays before the banker, so the deals
    differ only where the bankers, or the rules, do)."""
    runs = []
    for banker, rules in ((banker_a, rules_a), (banker_b, rules_b)):
        runs.append(engine_results(banker, punter, rules, deals, seed))
    diff = runs[0] - runs[1]
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(deals))


def check_paired(punter: Policy, banker: Policy, rules, deals: int, seed: int) -> None:
    """The best response to ``punter`` and ``banker`` on the same shuffles at ``rules`` (at most two
    hands a box, so the model is exact): the engine's mean difference is the model's exact one within
    3 SE, and below zero by more than 3 SE."""
    rows = punter_rows(rules, strategy_policy(punter))
    space = banker_space(rules)
    best = evaluate(rows, space)
    rule = evaluate(rows, space, strategy_draws(banker, rows, space))
    exact = best.value - rule.value
    mean, se = paired_gain(ResponseBanker(best), banker, punter, rules, rules, deals, seed)
    assert se < 0.005, se
    assert abs(mean - exact) < 3 * se, (mean, se, exact)
    assert mean + 3 * se < 0, (mean, se, exact)


def test_best_response_gain_over_stand17_matches_the_engine_paired() -> None:
    """``tips``: the exact difference is about -0.0325; 3 SE of 30,000 paired deals about 0.011."""
    check_paired(make_strategy("tips"), make_strategy("stand17"), TWO, 30_000, seed=11)


def test_best_response_without_splits_matches_the_engine_paired() -> None:
    check_paired(make_strategy("threshold15"), make_strategy("stand17"), ONE, 20_000, seed=14)


@pytest.mark.slow
def test_best_response_gain_over_dealer_matches_the_engine_paired() -> None:
    check_paired(make_strategy("tips"), make_strategy("dealer"), TWO, 100_000, seed=15)


@pytest.mark.slow
def test_resplits_left_out_of_the_model_move_the_value_little(tips_best: BankerResult) -> None:
    """The model has no resplits; the engine's preset allows four hands. Paired on the same shuffles,
    the value moves by well under 0.002 per unit stake (measured: +0.0004 +/- 0.0002)."""
    mean, se = paired_gain(ResponseBanker(tips_best), ResponseBanker(tips_best), make_strategy("tips"), SHOOT,
                           SHOOT.replace(max_split_hands=2), 300_000, seed=16)
    assert abs(mean) < 0.002 and se < 0.001, (mean, se)


@pytest.mark.parametrize("banker, changes", [
    ("stand17", {"max_split_hands": 1}),
    ("dealer", {"max_split_hands": 1}),
    ("stand17", {"max_split_hands": 2}),
    ("dealer", {"max_split_hands": 2}),
    ("stand17", {"max_split_hands": 2, "banker_peek": False}),
    ("dealer", {"max_split_hands": 2, "ties": "push"}),
    ("stand17", {"max_split_hands": 2, "num_decks": 2}),
])
def test_game_code_agrees_with_the_solver(banker: str, changes: dict) -> None:
    """With splits (two hands a box) too: the solver's optimum splits, so the split code is tested."""
    rules = SHOOT.replace(**changes)
    solution = solve(rules, banker=make_strategy(banker))
    value = pair_value(OptimalPunter(solution), make_strategy(banker), rules).value
    assert value == pytest.approx(solution.expected_return, abs=1e-12)


def banker_draws(banker: Policy, rules):
    space = banker_space(rules)
    return lambda obs, live: observation_draws(banker, rules, obs, live, space)


@pytest.mark.parametrize("banker", ["stand17", "dealer"])
def test_punter_best_response_agrees_with_the_solver_without_splits(banker: str) -> None:
    rules = SHOOT.replace(max_split_hands=1)
    mine = punter_response(rules, banker_draws(make_strategy(banker), rules)).value
    assert mine == pytest.approx(solve(rules, banker=make_strategy(banker)).expected_return, abs=1e-12)


def check_response_played(banker_name: str) -> None:
    """The response's own value equals that of its :class:`ResponsePunter` played through
    ``game_punter`` and ``best_banker.evaluate`` (another enumeration of the same plays)."""
    banker = make_strategy(banker_name)
    response = punter_response(SHOOT, banker_draws(banker, SHOOT))
    played = pair_value(ResponsePunter(response), banker, SHOOT).value
    assert played == pytest.approx(response.value, abs=1e-12)


def test_punter_best_response_played_through_the_game_code() -> None:
    check_response_played("stand17")


@pytest.mark.slow
def test_punter_best_response_to_shoot_aware_played_through_the_game_code() -> None:
    check_response_played("shoot_aware")


@pytest.mark.slow
def test_punter_best_response_to_a_banker_that_reads_the_table() -> None:
    """Against ``shoot_aware`` (it reads the punter's shown hands): the engine agrees, and the best
    response beats what it gets against ``stand17`` played the same way (the reader is exploitable)."""
    banker = make_strategy("shoot_aware")
    response = punter_response(SHOOT, banker_draws(banker, SHOOT))
    results = engine_results(banker, ResponsePunter(response), SHOOT, 200_000, seed=18)
    assert abs(z_score(results, response.value)) < 3, (results.mean(), response.value)
    plain = punter_response(SHOOT, banker_draws(make_strategy("stand17"), SHOOT)).value
    assert response.value > plain


def test_optimal_gains_nothing_against_its_own_banker() -> None:
    """The solver's optimum against ``stand17`` is the punter's best response there: its gain is 0
    when both gains are of one game (it came out +0.000114 when the best response allowed resplits)."""
    result = exploitability("optimal", "stand17")
    assert result.punter_best_response_splits
    assert result.punter_gain == pytest.approx(0, abs=1e-9)
    assert result.punter_best_response == pytest.approx(solve(two_hand_rules(SHOOT)).expected_return,
                                                        abs=1e-15)
    assert result.banker_gain > 0.01, result


def test_exploitability_of_threshold15_against_dealer() -> None:
    """Both players of this pair can gain (the banker by 0.0163, the punter by 0.164 per unit stake)."""
    result = exploitability("threshold15", "dealer")
    assert result.banker_gain > 0.01 and result.punter_gain > 0.01, result
    assert result.exploitability == (result.banker_gain + result.punter_gain) / 2


def test_bought_cards_face_up_are_refused() -> None:
    rules = SHOOT.replace(buy_face_down=False)
    with pytest.raises(NotImplementedError, match="buy_face_down"):
        check_rules(rules)
    with pytest.raises(NotImplementedError, match="buy_face_down"):
        exploitability("tips", "stand17", rules)


def test_a_reserved_shoot_is_refused() -> None:
    """With a reserve the posted Shoot is smaller than the model's views show (45 and 5 of 50 at 10%)."""
    with pytest.raises(NotImplementedError, match="reserved_shoot_percent must be 0"):
        exploitability("tips", "shoot_aware", SHOOT.replace(reserved_shoot_percent=10))


def test_cli_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(main, ["exploitability", "--punter", "threshold15", "--banker", "dealer", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exploitability"] == pytest.approx((out["banker_gain"] + out["punter_gain"]) / 2, abs=1e-15)
    expected = exploitability("threshold15", "dealer")
    for key, value in (("exploitability", expected.exploitability), ("pair_value", expected.pair_value),
                       ("banker_best_response_value", expected.banker_best_response),
                       ("punter_best_response_value", expected.punter_best_response),
                       ("banker_gain", expected.banker_gain), ("punter_gain", expected.punter_gain)):
        assert isinstance(out[key], float) and out[key] == pytest.approx(value, abs=1e-12), key
    assert out["punter_best_response_splits"] is True


@pytest.mark.parametrize("argv", [
    ["exploitability", "--punter", "nobody", "--banker", "stand17"],
    ["exploitability", "--punter", "tips"],
    ["exploitability", "--punter", "random", "--banker", "stand17"],
    ["exploitability", "--punter", "tips", "--banker", "stand17", "--rules", "casino"],
    ["exploitability", "--punter", "tips", "--banker", "random"],
    ["exploitability", "--punter", "tips", "--banker", "stand17", "--rules", "nope"],
    ["exploitability", "--punter", "tips", "--banker", "stand17", "--pack", "tarot"],
    ["exploitability", "--punter", "tips", "--banker", "stand17", "--max-buys", "4"],
    ["equilibrium", "--pack", "tarot"],
])
def test_cli_mistakes_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(main, argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
