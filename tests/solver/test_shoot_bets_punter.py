"""The punter's best response with Shoot bets, heads-up (issue 38, item 1, the punter's side).

- Against a banker that draws on its own cards, with one hand a box, it is the exact solver's Shoot optimum
  (``solve(..., shoot_ratio)``: the whole Shoot as the allowance), found by another method.
- Offering only the totals of ``shoot_totals.bet_totals`` loses nothing against offering every amount, with
  a banker whose play is not monotone in the bet and ``max_shoot_bet`` cutting each bet; under ``-m slow``
  also with ``shoot_aware``, with and without splits.
- ``shoot_aware``'s declared change point is the one found by asking it at every total.
- The response played at the engine (``ResponsePunter``) is worth its value within 3 standard errors.
- ``exploitability --shoot-bets`` answers with the bets' points in its JSON; Shoot options without it
  are refused in one line.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from shoot_pontoon_env.players.session import heads_up_results
from shoot_pontoon_env.players.policy import Policy, banker_total, stick_or_draw
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.rules import SHOOT, SHOOT_BET_POINTS
from shoot_pontoon_env.solver.__main__ import main as solver_main
from shoot_pontoon_env.solver.headsup.banker_views import observation_draws
from shoot_pontoon_env.solver.headsup.best_punter import box_observations, punter_response
from shoot_pontoon_env.solver.headsup.best_response import ResponsePunter, punter_response_to
from shoot_pontoon_env.solver.headsup.game_banker import banker_space
from shoot_pontoon_env.solver.headsup.shoot_totals import bet_totals, change_points, probed_change_points
from shoot_pontoon_env.solver.solve import solve

EVERY = SHOOT.replace(name="shoot-every-point", shoot_bet_points=SHOOT_BET_POINTS, max_split_hands=1)
"""Every betting point, one hand a box (a bet before the fourth card is modelled without splits)."""
SMALL_EVERY = EVERY.replace(name="small-every", max_buys=0, initial_shoot=8, max_shoot_bet=3)
SMALL_SPLITS = SHOOT.replace(name="small-splits", max_buys=0, initial_shoot=7, max_shoot_bet=3,
                             shoot_bet_points=("before_deal", "before_second_card"), max_split_hands=2)


def _draws(banker, rules):
    space = banker_space(rules)
    return (lambda observations, live: observation_draws(banker, rules, observations, live, space)), space


@pytest.mark.parametrize("shoot, draw_on_21", [(2, "any"), (50, "any"), (20, "no")])
def test_against_stand17_it_is_the_solvers_shoot_optimum(shoot: int, draw_on_21: str) -> None:
    """The solver bets its allowance at one point or never along a line (its own proof); here every amount
    is open at every point within the Shoot, and the best response finds the same value (with
    ``draw_on_21="no"``, no bet before the fourth card on a three-card 21, which is done, as at the Table)."""
    rules = EVERY.replace(initial_shoot=shoot, draw_on_21=draw_on_21)
    stand17 = make_strategy("stand17")
    mine = punter_response_to(stand17, rules, shoot_bets=True)
    solver = solve(rules, banker=stand17, shoot_ratio=shoot / rules.base_stake).shoot
    assert mine.value == pytest.approx(solver.expected_return, abs=1e-12)
    gain = mine.value - solve(rules, banker=stand17).expected_return
    assert gain > 0.05 * shoot / rules.base_stake  # +0.03 to +0.08 a unit stake bet: the bets are taken
    assert mine.second_card_bets[0] == shoot  # the whole Shoot on an ace, as the solver's optimum bets


@pytest.mark.slow  # 37 s; in CI the non-monotone banker's test below compares against every amount
@pytest.mark.parametrize("rules", [SMALL_EVERY, SMALL_SPLITS], ids=["every-point", "splits"])
def test_the_totals_offered_lose_nothing_against_every_amount(rules) -> None:
    """``shoot_aware`` stands on 16 once half the Shoot rides: its one change point, cut again at each
    multiple of ``max_shoot_bet`` below it, gives the totals; every amount 0..Shoot gives the same value."""
    banker = make_strategy("shoot_aware")
    draws_for, space = _draws(banker, rules)
    totals = bet_totals(rules, change_points(banker, rules))
    assert len(totals) < rules.initial_shoot + 1
    offered = punter_response(rules, draws_for, space, totals)
    every = punter_response(rules, draws_for, space, tuple(range(rules.initial_shoot + 1)))
    assert offered.value == pytest.approx(every.value, abs=1e-13)
    plain = rules.replace(shoot_bet_points=("before_deal",))  # the response without bets: none taken there
    assert offered.value > punter_response(plain, *_draws(banker, plain)).value + 0.01


class PeculiarBanker(Policy):
    """A banker whose play is not monotone in the bet riding: it stands on 13 when exactly 5 chips ride,
    else on 17; it declares where its play may change (``shoot_totals.change_points`` reads it)."""

    name = "peculiar"
    decides_on_total = True  # on its own cards through their total, softness and number only

    def banker_play(self, view, rng):
        riding = sum(h.shoot_bet for h in view.hands if not h.settled)
        return stick_or_draw(view, banker_total(view) >= (13 if riding == 5 else 17))

    def shoot_bet_change_points(self, rules):
        return (5, 6)


def test_a_banker_whose_play_is_not_monotone_in_the_bet() -> None:
    """With a declared change point pair and ``max_shoot_bet`` of 5 in a Shoot of 9, the totals offered
    leave out several amounts; the value is still the best over every amount, the declaration is what
    asking at every total finds, and the punter exploits the banker's one weak total."""
    rules = SMALL_EVERY.replace(initial_shoot=9, max_shoot_bet=5)
    banker = PeculiarBanker()
    draws_for, space = _draws(banker, rules)
    assert change_points(banker, rules) == (5, 6)
    assert probed_change_points(rules, draws_for, *box_observations(rules)) == (5, 6)
    totals = bet_totals(rules, (5, 6))
    assert len(totals) <= 7, totals
    offered = punter_response(rules, draws_for, space, totals)
    every = punter_response(rules, draws_for, space, tuple(range(rules.initial_shoot + 1)))
    assert offered.value == pytest.approx(every.value, abs=1e-13)


def test_the_response_survives_a_table_whose_shoot_is_not_the_models() -> None:
    """At a table kept across deals the Shoot grows and shrinks: the response plays on (bets cut to the
    room, states at the nearest bet it reaches), never a KeyError."""
    from shoot_pontoon_env.engine import Table
    from shoot_pontoon_env.players.session import play_deal

    rules = EVERY.replace(initial_shoot=20)
    banker = make_strategy("stand17")
    punter = ResponsePunter(punter_response_to(banker, rules, shoot_bets=True))
    rng = np.random.default_rng(1)
    table = Table(rules, 2, rng=np.random.default_rng(2), starting_chips=100_000)
    shoots = set()
    for _ in range(1500):
        play_deal(table, [banker, punter] if table.banker == 0 else [punter, banker], rng)
        shoots.add(table.shoot)
    assert len(shoots) > 2 and max(shoots) > 20  # Shoots the model never had were met


def test_a_declared_change_point_is_the_one_asking_finds() -> None:
    banker = make_strategy("shoot_aware")
    draws_for, _ = _draws(banker, SMALL_EVERY)
    assert change_points(banker, SMALL_EVERY) == (4,)
    assert probed_change_points(SMALL_EVERY, draws_for, *box_observations(SMALL_EVERY)) == (4,)
    assert change_points(make_strategy("stand17"), SMALL_EVERY) == ()


@pytest.mark.parametrize("rules, banker, seed", [
    (EVERY, "stand17", 41),
    pytest.param(SMALL_SPLITS, "shoot_aware", 42, marks=pytest.mark.slow),  # 42 s: `make benchmark`
], ids=["every-point", "splits"])
def test_the_response_at_the_engine_is_worth_its_value(rules, banker, seed) -> None:
    policy = make_strategy(banker)
    response = punter_response_to(policy, rules, shoot_bets=True)
    results = heads_up_results(policy, ResponsePunter(response), rules, 30_000, seed=seed)
    se = results.std(ddof=1) / np.sqrt(len(results))
    assert abs(results.mean() - response.value) < 3 * se, (results.mean(), se, response.value)


def test_exploitability_with_shoot_bets_from_the_command_line(capsys) -> None:
    argv = ["exploitability", "--punter", "tips", "--banker", "stand17", "--max-buys", "0", "--shoot-bets",
            "--initial-shoot", "6", "--json"]
    assert solver_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shoot_bet_points"] == ["before_deal", "before_second_card"]  # splits: not the fourth card
    assert out["punter_gain"] > 0 and out["banker_gain"] > 0 and out["exploitability"] > 0
    assert solver_main(argv[:-1] + ["--max-split-hands", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shoot_bet_points"] == list(SHOOT_BET_POINTS)


@pytest.mark.slow  # 47 s: run by `make benchmark`, keeping CI under 10 minutes
def test_given_totals_bound_the_response_and_say_so(capsys) -> None:
    """``--shoot-bet-totals``: the best over those totals (a lower bound, named in the notes); at the totals
    ``shoot_aware``'s change point makes, it is the exact value."""
    argv = ["exploitability", "--punter", "tips", "--banker", "shoot_aware", "--max-buys", "0", "--shoot-bets",
            "--initial-shoot", "6", "--max-split-hands", "1", "--json"]
    values = []
    for extra in ([], ["--shoot-bet-totals", "2,3"], ["--shoot-bet-totals", "1"]):
        assert solver_main(argv + extra) == 0
        out = json.loads(capsys.readouterr().out)
        values.append(out["punter_best_response_value"])
        assert ("lower bound" in out["notes"][-1]) == bool(extra)
    assert values[1] == pytest.approx(values[0], abs=1e-13)
    assert values[2] < values[0] - 1e-6


@pytest.mark.parametrize("extra, message", [
    (["--initial-shoot", "6"], "argument --initial-shoot: applies only with --shoot-bets"),
    (["--shoot-bets", "--shoot-bet-totals", "4,x"], "is not a comma-separated list of ints >= 0"),
    (["--shoot-bets", "--shoot-points", "before_fourth_card"], "before the fourth card is modelled without splits"),
])
def test_shoot_options_errors_are_one_line(extra, message, capsys) -> None:
    from shoot_pontoon_env.cli import run

    code = run(solver_main, ["exploitability", "--punter", "tips", "--banker", "stand17", *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_the_solvers_optimum_with_its_shoot_bets_gains_nothing_against_stand17() -> None:
    """Two models meet: the solver's Shoot optimum, played through the heads-up rows (``game_punter``
    asks it at each betting point), is worth exactly the punter's best response to ``stand17`` with
    Shoot bets (``best_punter``): its punter gain is 0."""
    from shoot_pontoon_env.solver.__main__ import exploitability_player
    from shoot_pontoon_env.solver.headsup.best_response import exploitability

    players = [exploitability_player(option, name, EVERY, shoot_bets=True)
               for option, name in (("--punter", "optimal"), ("--banker", "stand17"))]
    result = exploitability(*players, EVERY, shoot_bets=True)
    assert result.punter_gain == pytest.approx(0.0, abs=1e-12)
    assert result.pair_value == pytest.approx(2.918970990633094, abs=1e-9)
    assert result.banker_gain > 0.5  # a banker who reads the bets riding takes much of it back


def test_shoot_options_that_change_nothing_keep_the_rules_and_their_name() -> None:
    """A trained model checks the rules by name too: ``--shoot-bets --shoot-points before_deal`` on the preset
    (its own point) leaves the rules as they are, so the preset's models are still seated."""
    from shoot_pontoon_env.solver.__main__ import build_exploitability_parser
    from shoot_pontoon_env.solver.shoot_bet_options import with_shoot_bets

    parse = build_exploitability_parser().parse_args
    same = parse(["--punter", "tips", "--banker", "stand17", "--shoot-bets", "--shoot-points", "before_deal"])
    assert with_shoot_bets(SHOOT, same) is SHOOT
    other = parse(["--punter", "tips", "--banker", "stand17", "--shoot-bets"])
    assert with_shoot_bets(SHOOT, other).shoot_bet_points == ("before_deal", "before_second_card")
