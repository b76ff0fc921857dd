"""The punter's best response with splits (``solver/headsup/best_punter.py``, ``solver/headsup/split_response.py``):
checks that can fail.

- Against bankers that draw on their own cards (``stand17``, ``dealer``) it is the solver's optimum
  at two hands a box (+0.014612, +0.009310 per unit stake) to 1e-12 (measured: 4e-16 at most), its
  value without splits the solver's optimum with no split, and each pair's split is worth what the
  solver's split plan says: other code (a tree of information states offering every buy
  amount, valued against the banker's decisions per observation) than the solver's (a dynamic
  programme over multisets, buys in whole stakes, and ``split_plan``).
- Against a banker that reads the table, on a smaller rule set (one buy a hand:
  ``max_stake_multiple=2``) where each check takes seconds: a banker that stands on 13 facing a split
  box (:class:`SplitShyBanker`, else ``shoot_aware``), whose draws there differ from its draws
  elsewhere, and ``shoot_aware`` itself. The best response with splits is worth at least the best
  response without splits and every rule-based punter's value, ``optimal`` included (against the
  split-shy banker: strictly more, by splitting more); its :class:`ResponsePunter` played through
  ``game_punter`` (another enumeration of the same plays, splits included) is worth what the response
  says (1e-12); and the engine (the Table, heads-up, each deal at a new table) agrees with the exact
  value within 3 standard errors on 30,000 deals, with the punter splitting in them.
- The view the model asks a banker with facing a split box is, encoded as a trained banker reads
  it, the engine's view of the split box it meets most (two hands stuck on their face-down cards),
  and that box is the one the engine shows the banker most often.
- :class:`SplitModelBanker` asks a banker exactly what the model asks it at a split box (its
  answers there are the split column of ``observation_draws``, for a banker that reads the order of
  its cards too), plays a banker that decides on its total alike at every deal, and counts the
  split-box decisions where the model's answer is not the banker's own.
- The punter best responses kept across pairs (``best_response.kept_response``) are bounded.
- Slow (``pytest -m slow``): the same against ``shoot_aware`` on the preset, the engine for 1,000,000
  deals (``benchmarks/exploitability_table.py`` records it with the trained banker).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from shoot_pontoon_env.actions import Action, ActionKind
from shoot_pontoon_env.cards import best_total
from shoot_pontoon_env.engine.table import Phase
from shoot_pontoon_env.rules import Rules, get_rules
from shoot_pontoon_env.seat.encoding import ObservationEncoder
from shoot_pontoon_env.players.session import heads_up_results
from shoot_pontoon_env.solver import solve
from shoot_pontoon_env.solver.headsup.banker_views import (
    SplitModelBanker,
    banker_view,
    observation_draws,
    split_box_views,
)
from shoot_pontoon_env.solver.headsup.best_punter import PunterResponse, ResponsePunter
from shoot_pontoon_env.solver.headsup.best_response import (
    KEPT_RESPONSES,
    PUNTER_RESPONSES,
    kept_response,
    pair_value,
    punter_response_to,
    two_hand_rules,
)
from shoot_pontoon_env.solver.headsup.game_banker import JointChance, banker_space
from shoot_pontoon_env.solver.headsup.game_punter import (
    STARTING_CHIPS,
    PunterRows,
    hand_key,
    observation_of,
    punter_rows,
    strategy_policy,
    value_index,
)
from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.solver.solution import Solution
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.players.strategies import ShootAwareBanker, make_strategy

SHOOT = get_rules("shoot")
SMALL = SHOOT.replace(max_split_hands=2, max_stake_multiple=2)
"""One buy a hand (a stake of 2, a buy of 2, then the limit of twice the stake): a tree a few times
smaller than the preset's, so a banker that reads the table is answered in seconds."""
PUBLISHED = {"stand17": 0.014612, "dealer": 0.009310}
"""The solver's optimum at two hands a box (docs/RESULTS.md)."""


class SplitShyBanker(ShootAwareBanker):
    """``shoot_aware``, but facing a split box it stands on 13 or more (its draws there are not its
    draws elsewhere, so the best response's split branch meets a banker of its own). It decides on
    its cards through their total (``banker_views.decides_on_total``)."""

    name = "split_shy"
    decides_on_total = True

    def banker_play(self, view, rng):
        if any(h.from_split for h in view.hands):
            may_twist = any(m.kind == ActionKind.TWIST for m in view.legal)
            return Action(ActionKind.TWIST if best_total(view.banker_cards)[0] < 13 and may_twist
                          else ActionKind.STICK)
        return super().banker_play(view, rng)


class CountingPunter(ResponsePunter):
    """A :class:`ResponsePunter` that counts the boxes it splits."""

    def __init__(self, response: PunterResponse) -> None:
        super().__init__(response)
        self.splits = 0

    def punter_play(self, view, rng):
        action = super().punter_play(view, rng)
        self.splits += action.kind == ActionKind.SPLIT
        return action


def solved_for(rules: Rules, name: str) -> Solution:
    return solve(rules, banker=make_strategy(name))


def response_to(rules: Rules, name: str) -> PunterResponse:
    return punter_response_to(make_strategy(name), rules)


@pytest.fixture(scope="module")
def once() -> Callable[[Callable[[Rules, str], Any], Rules, str], Any]:
    """``once(find, rules, banker name)``: ``find(rules, name)``, found once a module (the solves and
    best responses that several tests compare)."""
    kept: dict[tuple, Any] = {}

    def get(find: Callable[[Rules, str], Any], rules: Rules, name: str) -> Any:
        if (find, rules, name) not in kept:
            kept[(find, rules, name)] = find(rules, name)
        return kept[(find, rules, name)]
    return get


@pytest.mark.parametrize("name, changes", [
    ("stand17", {}),
    ("dealer", {}),
    ("stand17", {"split_match": "value", "pontoon_after_split": False, "split_bust_pays_double": True}),
])
def test_against_a_fixed_banker_it_is_the_solvers_optimum(name: str, changes: dict, once) -> None:
    """With splits and without (``value_without_splits`` against the solver's optimum with no split)."""
    rules = SHOOT.replace(**changes)
    mine = once(response_to, rules, name)
    solution = once(solved_for, two_hand_rules(rules), name)
    assert mine.value == pytest.approx(solution.expected_return, abs=1e-12)
    if not changes:
        assert mine.value == pytest.approx(PUBLISHED[name], abs=5e-7)
    assert mine.splits == {pair for (_, pair), plan in solution.splits.items() if plan.split}
    assert mine.splits  # the optimum splits some pairs: the split branch is compared, not skipped
    unsplit = once(solved_for, rules.replace(max_split_hands=1), name).expected_return
    assert mine.value_without_splits == pytest.approx(unsplit, abs=1e-12)
    assert mine.value > unsplit + 1e-4


def test_each_split_is_worth_the_solvers_split_plan(once) -> None:
    """Per pair, conditional on the pair: the split box's value against ``stand17`` (two hands), as
    the best response values it (``PunterResponse.split_values``)."""
    split = once(response_to, SHOOT, "stand17").split_values
    joint = JointChance.of(SHOOT)
    solution = once(solved_for, two_hand_rules(SHOOT), "stand17")
    for pair in range(10):
        dealt = joint.chance(np.eye(10, dtype=np.int64)[[pair]] * 2, np.zeros((1, 10), dtype=np.int64))[0, 0]
        plan = solution.splits[(None, pair)]
        assert split[pair] / dealt == pytest.approx(plan.eg + plan.es, abs=1e-12), pair


@pytest.fixture(scope="module")
def split_shy() -> tuple[Policy, PunterResponse]:
    banker = SplitShyBanker()
    return banker, punter_response_to(banker, SMALL)


PUNTERS = ("tips", "threshold15", "threshold17", "optimal")


def punters(rules: Rules) -> dict[str, PunterRows]:
    """The rule-based punters' finished hands (``game_punter``), enumerated once for every banker."""
    return {name: punter_rows(rules, strategy_policy(make_policy(name, rules=rules, shoot_bet_levels=())))
            for name in PUNTERS}


@pytest.fixture(scope="module")
def small_punters() -> dict[str, PunterRows]:
    return punters(SMALL)


def check_best(banker: Policy, best: PunterResponse, rules: Rules, players: dict[str, PunterRows]
               ) -> dict[str, float]:
    """The best response is worth at least the best response without splits (its tree with the split
    branch left out) and every rule-based punter's value; returns those values."""
    values = {"no splits": best.value_without_splits}
    for name, rows in players.items():
        values[name] = pair_value(rows, banker, rules).value
    for name, value in values.items():
        assert best.value >= value - 1e-12, (name, value, best.value)
    return values


def test_best_response_to_a_split_shy_banker_beats_every_punter(split_shy, small_punters) -> None:
    banker, best = split_shy
    values = check_best(banker, best, SMALL, small_punters)
    assert best.value > values["no splits"] + 0.01  # splitting is worth much against it ...
    assert best.value > values["optimal"] + 0.005  # ... more than the optimum against stand17 takes
    assert len(best.splits) > 3, best.splits


def test_best_response_to_shoot_aware_beats_every_punter(small_punters) -> None:
    banker = make_strategy("shoot_aware")
    check_best(banker, punter_response_to(banker, SMALL), SMALL, small_punters)


def test_the_response_played_through_the_game_code_is_worth_its_value(split_shy) -> None:
    banker, best = split_shy
    assert pair_value(ResponsePunter(best), banker, SMALL).value == pytest.approx(best.value, abs=1e-12)


def test_the_engine_pays_the_response_its_value(split_shy) -> None:
    """30,000 deals: 3 standard errors are about 0.025 per unit stake."""
    banker, best = split_shy
    punter = CountingPunter(best)
    results = heads_up_results(banker, punter, SMALL, 30_000, seed=23)
    se = results.std(ddof=1) / np.sqrt(len(results))
    assert se < 0.01
    assert abs(results.mean() - best.value) < 3 * se, (results.mean(), se, best.value)
    assert punter.splits > 300, punter.splits


class SplitEverything(Policy):
    """Splits every pair it may, then sticks where it may (else twists)."""

    def punter_play(self, view, rng):
        kinds = {m.kind for m in view.legal}
        for kind in (ActionKind.SPLIT, ActionKind.STICK):
            if kind in kinds:
                return Action(kind)
        return Action(ActionKind.TWIST)


class SplitViewCheck(Policy):
    """A ``stand17`` banker that tallies the split boxes the engine shows it (each hand as the banker
    reads it, ``game_punter.hand_key``, at its first decision), and compares, where the engine shows it
    a split box of two hands stuck on their two face-down cards at the original stake, the model's
    view of it (``banker_views.split_box_views``) with the engine's, both encoded as a trained banker
    reads them."""

    def __init__(self, rules: Rules) -> None:
        self.encoder = ObservationEncoder(rules, 2, STARTING_CHIPS)
        self.compared = 0
        self.boxes: Counter[tuple] = Counter()

    def banker_play(self, view, rng):
        hands = view.hands
        if len(view.banker_cards) == 2 and any(h.from_split for h in hands):
            self.boxes[tuple(hand_key(h) for h in hands)] += 1
        if (len(hands) == 2 and all(h.from_split and h.done and not h.settled and h.hidden_cards == 2
                                    and not h.cards and h.stake == h.original_stake for h in hands)
                and all(c >> 2 < 9 for c in view.banker_cards)):  # the model shows values: no ten-value card
            values = tuple(c >> 2 for c in view.banker_cards)
            model = banker_view(view.rules, values, observation_of(hands))
            assert np.array_equal(self.encoder.encode(model), self.encoder.encode(view)), view
            self.compared += 1
        return make_strategy("stand17").act(view, rng)


def test_the_model_shows_a_split_box_as_the_engine_shows_its_commonest() -> None:
    banker = SplitViewCheck(SMALL)
    heads_up_results(banker, SplitEverything(), SMALL, 5000, seed=25, starting_chips=STARTING_CHIPS)
    assert banker.compared > 20, banker.compared
    (commonest, count), (_, second) = banker.boxes.most_common(2)
    assert commonest == tuple(hand_key(h) for h in split_box_views(SMALL.base_stake, 0)), banker.boxes
    assert count > 2 * second, banker.boxes.most_common(3)  # measured: 83 of 270 split boxes, the next 9


class OrderReader(Policy):
    """A banker that reads the order of its cards, as a network may: facing a split box it stands on
    13 if its first card is higher than its last, else on 17; elsewhere it stands on 17."""

    def banker_play(self, view, rng):
        total = best_total(view.banker_cards)[0]
        descending = value_index(view.banker_cards[0]) > value_index(view.banker_cards[-1])
        stand_on = 13 if any(h.from_split for h in view.hands) and descending else 17
        may_twist = any(m.kind == ActionKind.TWIST for m in view.legal)
        return Action(ActionKind.TWIST if total < stand_on and may_twist else ActionKind.STICK)


class AnswerLog(SplitModelBanker):
    """A :class:`SplitModelBanker` that records each answer at a split box: (the split box's
    observation, the banker's card values in ascending order, whether it drew)."""

    def __init__(self, banker: Policy) -> None:
        super().__init__(banker)
        self.answers: list[tuple] = []

    def act(self, view, rng):
        action = super().act(view, rng)
        if view.is_banker and view.phase == Phase.BANKER and any(h.from_split for h in view.hands):
            values = tuple(sorted(value_index(c) for c in view.banker_cards))
            self.answers.append((observation_of(view.hands), values, action.kind == ActionKind.TWIST))
        return action


def test_split_model_banker_answers_the_models_question() -> None:
    """At every split box it meets, it answers what ``observation_draws`` (the model) answers there for
    its cards, though the banker reads their dealt order; and it counts the decisions where the
    banker's own answer to the engine's view differs."""
    banker = AnswerLog(OrderReader())
    heads_up_results(banker, SplitEverything(), SMALL, 3000, seed=26, starting_chips=STARTING_CHIPS)
    space = banker_space(SMALL)
    draws = {}
    for observation, values, drew in banker.answers:
        if observation not in draws:
            draws[observation] = observation_draws(OrderReader(), SMALL, [observation], np.array([True]),
                                                   space)
        m, i = space.index(values)
        assert bool(draws[observation][m][i, 0]) == drew, (observation, values, drew)
    assert banker.split_decisions == len(banker.answers) > 150, banker.split_decisions
    assert 0 < banker.split_decisions_differ < banker.split_decisions, banker.split_decisions_differ


def test_split_model_banker_plays_a_banker_on_its_total_as_itself() -> None:
    """The split-shy banker reads only its total at a split box, so asked as the model asks it, it
    plays every deal as itself (the same shuffles, the same results)."""
    modelled = SplitModelBanker(SplitShyBanker())
    deals = {"rules": SMALL, "deals": 3000, "seed": 27, "starting_chips": STARTING_CHIPS}
    itself = heads_up_results(SplitShyBanker(), SplitEverything(), **deals)
    assert np.array_equal(heads_up_results(modelled, SplitEverything(), **deals), itself)
    assert modelled.split_decisions > 150 and modelled.split_decisions_differ == 0, modelled.split_decisions


def test_kept_punter_responses_are_bounded() -> None:
    """One response per banker object across calls, but no more than ``KEPT_RESPONSES`` bankers'
    (a caller that asks about a new banker each generation does not accumulate them)."""
    solutions: dict = {}
    made: list[Policy] = []

    def solve_for(banker: Policy) -> Callable[[], PunterResponse]:
        def solve_it() -> PunterResponse:
            made.append(banker)
            return PunterResponse(float(len(made)), 2, 0, 0, 0.0, {})
        return solve_it

    bankers = [SplitShyBanker() for _ in range(KEPT_RESPONSES + 2)]
    first = kept_response(solutions, SMALL, bankers[0], solve_for(bankers[0]))
    assert kept_response(solutions, SMALL, bankers[0], solve_for(bankers[0])) is first and len(made) == 1
    for banker in bankers[1:]:
        kept_response(solutions, SMALL, banker, solve_for(banker))
    assert len(made) == len(bankers) and len(solutions[PUNTER_RESPONSES]) == KEPT_RESPONSES
    kept_response(solutions, SMALL, bankers[-1], solve_for(bankers[-1]))  # the latest: kept
    kept_response(solutions, SMALL, bankers[0], solve_for(bankers[0]))  # the first: solved again
    assert made == [*bankers, bankers[0]]


@pytest.mark.slow
def test_best_response_to_shoot_aware_on_the_preset() -> None:
    """The preset's best response against ``shoot_aware``: at least every rule-based punter's value
    and the best response without splits, and 1,000,000 engine deals at two hands a box within 3
    standard errors (about 0.0045 here)."""
    banker = make_strategy("shoot_aware")
    best = punter_response_to(banker, SHOOT)
    check_best(banker, best, SHOOT, punters(SHOOT))
    assert pair_value(ResponsePunter(best), banker, SHOOT).value == pytest.approx(best.value, abs=1e-12)
    results = heads_up_results(banker, ResponsePunter(best), two_hand_rules(SHOOT), 1_000_000, seed=24)
    se = results.std(ddof=1) / np.sqrt(len(results))
    assert abs(results.mean() - best.value) < 3 * se, (results.mean(), se, best.value)
