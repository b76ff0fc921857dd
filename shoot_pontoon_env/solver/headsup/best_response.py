"""Heads-up Shoot Pontoon as a two-player game: best responses, a pair's value, exploitability.

One punter and the banker (``num_players=2``), a free banker (the ``shoot`` preset). Every value is
the punter's expected net chips per unit of its initial stake (the banker's is its negative).

- :func:`banker_best_response`: the banker's best response to a punter policy, deciding on its own
  cards and everything it sees of the punter's box (``best_banker``, ``game_punter``).
- :func:`pair_value`: the value of a (punter, banker) pair.
- :func:`punter_best_response`: the punter's best value against a banker.
- :func:`exploitability`: the mean of the two best-response gains.

What is exact and what is approximated:

- Exact on the preset's finite shoe, reshuffled every deal: the chance of each deal is computed from
  the multiset of values dealt (``game_banker``), the punter's box is enumerated under its policy
  (``game_punter``), and the banker's decisions are optimised per (own cards, observation).
- The banker sees values, not ranks (it does not use the ranks of its own ten-value cards, which
  only slightly inform whether a hidden ten-value pair was splittable) and not the order of its cards.
- **One game, at most two hands a box.** Every value here (the pair's, both best responses) is of
  the game in which a box splits at most once (``max_split_hands`` capped at 2): ``game_punter``
  offers the punter no third hand, and the punter's best response is solved under the same cap
  (``rules.replace(max_split_hands=min(rules.max_split_hands, 2))``), so the two gains are gains in
  one game (a punter best response solved with resplits would be of another game, and would show a
  punter gain of +0.0001 over ``optimal`` against ``stand17`` where the truth is 0). The engine's
  preset allows four hands; a Monte Carlo of the engine measures the difference
  (tests/solver/test_best_response.py): for ``tips`` against its best response, allowing resplits
  moves the value by +0.0004 +/- 0.0002 per unit stake (300,000 paired deals).
- **Split boxes** (about 2% of deals for ``tips``): the banker's observation of a split box is only
  "the punter split" (with the box's stake and Shoot bet: ``game_punter.split_observation``); its
  best response does not read the split hands' cards, buys or busts, and a banker that reads the
  table is asked there with the split box it meets most, two split hands stuck on their two
  face-down cards (``banker_views.split_box_views``; where it reads more of them at the engine, the
  difference is measured by ``banker_views.SplitModelBanker``, docs/RESULTS.md). The two hands of a
  split box are played as the first hand plays (a policy that decides on the other hand's cards
  would differ).
- The punter's best response, splits included (at most two hands a box): against a banker that
  draws on its own cards only (stand-on-N, the dealer rule) the exact solver's optimum (``solve``
  at two hands a box); against any other banker (one that reads the punter's box, ``shoot_aware``,
  a trained banker) the best response among plays at the base stake without Shoot bets, each split
  hand deciding on its own cards and its pair (the second hand could also read the first's cards),
  exact for those plays (``best_punter``, its splits by ``split_response``; leaving out Shoot bets
  costs nothing in the preset, where a Shoot bet before the deal is worth -0.137 per chip; with
  ``shoot_bets`` it bets at every point of the rules, the banker's own-cards optimum included). The two
  agree against the fixed bankers to 1e-12 (with splits and without: tests/solver/
  test_split_response.py, test_best_response.py; measured, 4e-16 at most), and the solver's
  optimum's value computed by ``game_punter`` equals the solver's own at two hands a box to 1e-12
  (tests/solver/test_best_response.py).
- Players are asked through a :class:`SeatView` filled as the engine fills it on a new table (the
  balance of ``game_punter.STARTING_CHIPS`` less what the seat has put on the table this deal, the
  cards seen this deal), the cards as values (a ten-value card shown as the Ten); a banker of
  ``strategies`` that reads the table is asked once per (total, softness, number of cards,
  observation), any other (a trained banker) at every hand of its cards facing each observation
  (``banker_views``). Every strategy of ``strategies`` and the solver's optimum are modelled exactly,
  but for ``shoot_aware`` facing a split box in two cases, where it reads at the engine what the
  model's split box (``banker_views.split_box_views``) does not show: where every live split hand
  lies face up (it stands on 15 or 16 if that beats them); and where the box holds a Shoot bet of at
  least half the Shoot and the first split hand is bust: the model keeps the bet at risk on a live
  first hand, so ``shoot_aware`` stands on 16, but at the engine the bust hand's bet is settled and
  no longer at risk, so it stands on 17 (no built-in punter places such a bet in the preset: ``tips``
  bets at most 4 chips and ``random`` 10 against a Shoot of 50; the punter's best response none). A
  trained player is modelled exactly as asked so.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from ...rules import Rules, get_rules
from ...players.policy import Policy
from ...players.strategies import is_strategy_name, make_strategy
from .banker_views import observation_draws, strategy_draws
from .best_banker import BankerResult, ResponseBanker, evaluate
from .best_punter import PunterResponse, ResponsePunter, box_observations, punter_response
from ..dealer import own_cards_only, strategy_rule
from .game_banker import banker_space
from .shoot_totals import bet_totals, change_points, probed_change_points
from .game_punter import PunterPolicy, PunterRows, check_punter_response_rules, punter_rows, strategy_policy

NOTES = (
    "heads-up (one punter, the banker); values are the punter's net chips per unit of initial stake",
    "every value is of one game: a box splits at most once (two hands; the engine's preset allows four)",
    "exact on the finite shoe except split boxes: the banker sees only that the punter split (a banker "
    "that reads the table is shown two stuck split hands), the two split hands played alike",
    "punter best response, splits included: the exact solver's optimum at two hands a box against a banker "
    "that draws on its own cards; against one that reads the table, the exact best response at the base "
    "stake without Shoot bets, each split hand deciding on its own cards and its pair",
)


SHOOT_BET_NOTE = ("with Shoot bets: the punter's best response bets the Shoot at every betting point of the rules, "
                  "any amount (shoot_totals: exact over every amount), the first split hand keeping the box's "
                  "bet; the banker sees the bet riding on the box")


def two_hand_rules(rules: Rules) -> Rules:
    """The rules of the modelled game: ``max_split_hands`` capped at two (see the module doc)."""
    if rules.max_split_hands <= 2:
        return rules
    return rules.replace(max_split_hands=2)


Solutions = dict
"""(rules, banker's draws) -> the solver's Solution: one solve per game within an
:func:`exploitability`; and :data:`PUNTER_RESPONSES` -> {(rules, id(banker)): (banker, the punter's
:class:`PunterResponse` to it)}, the responses to the last :data:`KEPT_RESPONSES` bankers asked
about (:func:`punter_response_to`)."""

PUNTER_RESPONSES = "punter_best_responses"
KEPT_RESPONSES = 4
"""Punter best responses kept in a :data:`Solutions` (about 7.5 MB each on the preset): enough for a
table of pairs to solve each banker's once (``benchmarks/exploitability_table.py`` seats four
bankers, and asks each of them once per punter), bounded for a caller that asks about a new banker
each time and never again (``train.table_exploitability``: one per generation)."""


def _draw_signature(banker: Policy, rules: Rules) -> tuple:
    """A banker that draws on its own cards, as its choice at every hand it can draw at."""
    rule = strategy_rule(banker, rules)
    return tuple(rule.wants_card(v) for lv in banker_space(rules).levels.values()
                 for v, c in zip(lv.values, lv.can_draw) if c)


def _solve(rules: Rules, banker: Policy | None, solutions: Solutions | None):
    from ...players.strategies import StandOnBanker
    from ..solve import solve

    if solutions is None:
        return solve(rules, banker=banker)
    key = (rules, _draw_signature(banker if banker is not None else StandOnBanker(), rules))
    try:
        hash(key)
    except TypeError:  # rules holding an unhashable option: no sharing
        return solve(rules, banker=banker)
    if key not in solutions:
        solutions[key] = solve(rules, banker=banker)
    return solutions[key]


def _player(spec: str | Policy, rules: Rules, solutions: Solutions | None = None) -> Policy:
    """A player of :func:`exploitability`: a Policy as it is (any: rule-based, the solver's, a trained
    model, a user's, each asked through views; ``models.resolve.make_policy`` resolves every spec into
    one), or, named, what this layer builds itself: a rule-based player (``make_strategy``, the
    rule-based table's constructor) or ``optimal``, the solver's optimum against its default banker
    (stand on 17) without Shoot bets (``make_policy("optimal", rules=rules, shoot_bet_levels=())``,
    which the solver may not import: ``models`` is a layer above it), solved once with the punter's
    best response (``solutions``). ValueError for another name."""
    if isinstance(spec, Policy):
        return spec
    if is_strategy_name(spec):
        return make_strategy(spec)
    if spec == "optimal":
        from ..player import OptimalPunter

        player = OptimalPunter(_solve(rules, None, solutions))
        player.name = "optimal"
        return player
    raise ValueError(f"unknown player {spec!r}: expected a strategy name (random is not deterministic), "
                     "thresholdN, optimal or a Policy (shoot_pontoon_env.models.resolve.make_policy builds "
                     "one of any spec: basic, a trained model, a callable)")


def _rows(punter: Policy | PunterPolicy | PunterRows, rules: Rules) -> PunterRows:
    if isinstance(punter, PunterRows):
        return punter
    policy = strategy_policy(punter) if isinstance(punter, Policy) else punter
    return punter_rows(rules, policy)


def banker_best_response(punter: Policy | PunterPolicy | PunterRows, rules: Rules | str = "shoot"
                         ) -> BankerResult:
    """The banker's exact best response to ``punter`` (a Policy or a policy of the punter's view):
    its value (the punter's, which the banker minimises) and decisions."""
    rules = get_rules(rules)
    rows = _rows(punter, rules)
    return evaluate(rows, banker_space(rules))


def pair_value(punter: Policy | PunterPolicy | PunterRows, banker: Policy, rules: Rules | str = "shoot"
               ) -> BankerResult:
    """The value of ``punter`` against ``banker`` (rule-based or trained), and the banker's decisions."""
    rules = get_rules(rules)
    rows = _rows(punter, rules)
    space = banker_space(rules)
    return evaluate(rows, space, strategy_draws(banker, rows, space))


def punter_best_response(banker: Policy, rules: Rules | str = "shoot",
                         solutions: Solutions | None = None, shoot_bets: bool = False,
                         shoot_bet_totals: tuple[int, ...] | None = None) -> float:
    """The punter's best value against ``banker`` (a rule-based or trained banker), splits included, in
    the game of the pair value and the banker's best response: at most two hands a box
    (:func:`two_hand_rules`; see the module doc). ``shoot_bets``: the punter also bets the Shoot at
    every betting point of ``rules`` (:func:`punter_response_to`, ``shoot_bet_totals`` as there)."""
    rules = get_rules(rules)
    check_punter_response_rules(rules, shoot_bets)
    if own_cards_only(banker) and not shoot_bets:
        return _solve(two_hand_rules(rules), banker, solutions).expected_return
    return punter_response_to(banker, rules, solutions, shoot_bets, shoot_bet_totals).value


def punter_response_to(banker: Policy, rules: Rules | str = "shoot", solutions: Solutions | None = None,
                       shoot_bets: bool = False, shoot_bet_totals: tuple[int, ...] | None = None) -> PunterResponse:
    """The punter's best response (``best_punter``, splits included) to any banker, kept in
    ``solutions`` under the banker (one response per banker across pairs: :func:`kept_response`);
    :class:`ResponsePunter` plays it at an engine table. (:func:`punter_best_response` takes the
    solver's optimum instead where the banker draws on its own cards and no Shoot bet is asked for:
    the same value, solved faster.) ``shoot_bets``: it bets the Shoot too, at every total where the
    banker may change its play (``shoot_totals``: exact over every amount; a banker whose change points
    are not known is asked at every total, which for a trained banker costs its asking times the
    Shoot's size), or, given ``shoot_bet_totals``, at those totals only (with nothing and the whole
    room: the best over those, a lower bound of the best over every amount)."""
    rules = get_rules(rules)
    check_punter_response_rules(rules, shoot_bets)

    def solve_it() -> PunterResponse:
        space = banker_space(rules)

        def draws_for(obs, live):
            return observation_draws(banker, rules, obs, live, space)

        totals = None
        if shoot_bets and shoot_bet_totals is not None:
            totals = tuple(sorted(set(shoot_bet_totals)))
        elif shoot_bets:
            changes = change_points(banker, rules)
            if changes is None:
                changes = probed_change_points(rules, draws_for, *box_observations(rules))
            totals = bet_totals(rules, changes)
        return punter_response(rules, draws_for, space, totals)

    if solutions is None:
        return solve_it()
    return kept_response(solutions, rules, banker, solve_it, (shoot_bets, shoot_bet_totals))


def kept_response(solutions: Solutions, rules: Rules, banker: Policy,
                  solve_it: Callable[[], PunterResponse], shoot_bets: object = False) -> PunterResponse:
    """The response kept in ``solutions`` for this banker object, rules and Shoot bets, else
    ``solve_it()``, kept in place of the least recently asked of more than :data:`KEPT_RESPONSES`. An
    entry holds its banker, so its id stays its own while kept; rules holding an unhashable option
    are not kept."""
    kept = solutions.setdefault(PUNTER_RESPONSES, {})
    key = (rules, id(banker), shoot_bets)
    try:
        entry = kept.pop(key, None)
    except TypeError:
        return solve_it()
    if entry is None:
        entry = (banker, solve_it())
    kept[key] = entry  # the most recently asked last
    while len(kept) > KEPT_RESPONSES:
        del kept[next(iter(kept))]
    return entry[1]


class PairGains:
    """The best-response gains of a pair (``pair_value``, ``banker_best_response``,
    ``punter_best_response``, per unit stake): what each seat's best response gains over the pair."""

    pair_value: float
    banker_best_response: float
    punter_best_response: float

    @property
    def banker_gain(self) -> float:
        return self.pair_value - self.banker_best_response

    @property
    def punter_gain(self) -> float:
        return self.punter_best_response - self.pair_value

    @property
    def exploitability(self) -> float:
        """The mean of the two best-response gains (NashConv / 2)."""
        return (self.banker_gain + self.punter_gain) / 2


@dataclass(frozen=True)
class Exploitability(PairGains):
    """Both best responses to a (punter, banker) pair, per unit of initial stake."""

    rules: str
    punter: str
    banker: str
    pair_value: float
    """The punter's value of the pair."""
    banker_best_response: float
    """The punter's value against the banker's best response (the least the banker can hold it to)."""
    punter_best_response: float
    """The punter's best value against the banker."""
    punter_best_response_splits: bool
    """Whether the punter's best response includes splits (at most two hands a box, the game of every
    value here): always True since package 0.9, against every banker; kept for readers of the JSON
    (before, a banker that reads the table got a best response without splits, a lower bound)."""
    seconds: float
    notes: tuple[str, ...] = field(default=NOTES)
    shoot_bet_points: tuple[str, ...] = ()
    """The betting points at which the punter's best response bets the Shoot (none: it bets none)."""

    def to_dict(self) -> dict:
        return {"rules": self.rules, "punter": self.punter, "banker": self.banker,
                "exploitability": self.exploitability, "pair_value": self.pair_value,
                "banker_best_response_value": self.banker_best_response,
                "punter_best_response_value": self.punter_best_response,
                "punter_best_response_splits": self.punter_best_response_splits,
                "banker_gain": self.banker_gain, "punter_gain": self.punter_gain,
                "shoot_bet_points": list(self.shoot_bet_points),
                "seconds": self.seconds, "notes": list(self.notes)}


class Progress:
    """Lines on ``stream`` (stderr) while a long computation runs: each stage as it starts, then every
    ``every_s`` seconds how far it is (the players' decisions asked so far: a trained model is asked
    at every hand facing each observation, minutes on the preset), and the time at the end. The
    command line reports so; a library call is silent unless it passes one."""

    def __init__(self, name: str, stream: TextIO | None = None, every_s: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name, self.stream, self.every_s, self.clock = name, stream, every_s, clock
        self.began = self.last = clock()
        self.asked = 0
        self.what = ""

    def say(self, text: str, end: bool = False) -> None:
        elapsed = f"{'in' if end else 'after'} {self.clock() - self.began:.0f} s"
        print(f"{self.name}: {text} ({elapsed})", file=self.stream or sys.stderr, flush=True)

    def stage(self, number: int, stages: int, what: str) -> None:
        self.what = f"stage {number} of {stages}, {what}"
        self.last = self.clock()
        self.say(self.what)

    def asking(self, player: Any) -> Any:
        """``player`` with its ``act`` counted (on the object only: what the solver reads of its class,
        ``dealer.banker_declares``, is unchanged); the same object, returned."""
        act = player.act

        def counted(view: Any, rng: Any) -> Any:
            self.asked += 1
            if self.clock() - self.last >= self.every_s:
                self.last = self.clock()
                self.say(f"{self.what}: {self.asked:,} decisions asked")
            return act(view, rng)

        player.act = counted
        return player


STAGES = 4


def exploitability(punter: str | Policy, banker: str | Policy, rules: Rules | str = "shoot",
                   solutions: Solutions | None = None, progress: Progress | None = None,
                   shoot_bets: bool = False, shoot_bet_totals: tuple[int, ...] | None = None) -> Exploitability:
    """Exploitability of the pair (``punter``, ``banker``), each a Policy or a name (:func:`_player`), in
    one game (at most two hands a box; see the module doc). ``solutions``: solves to share;
    each game is solved once. ``progress``: told each of the four stages, and asked to count the
    players' decisions. ``shoot_bets``: the punter's best response bets the Shoot at every betting
    point of ``rules`` (without, it bets none, and rules with points after the deal starts are
    refused); the pair and the banker's best response take every point of ``rules`` either way.
    ``shoot_bet_totals``: the totals the punter's best response considers (:func:`punter_response_to`)."""
    begin = time.perf_counter()
    rules = get_rules(rules)
    check_punter_response_rules(rules, shoot_bets)  # first: it refuses rules it cannot model
    solutions = {} if solutions is None else solutions
    p, b = _player(punter, rules, solutions), _player(banker, rules, solutions)
    if progress is not None:
        p, b = progress.asking(p), progress.asking(b)
        progress.stage(1, STAGES, f"the punter's best response to {getattr(b, 'name', 'the banker')}")
    punter_best = punter_best_response(b, rules, solutions, shoot_bets, shoot_bet_totals)
    if progress is not None:
        progress.stage(2, STAGES, f"the punter's box enumerated under {getattr(p, 'name', 'its policy')}")
    rows = _rows(p, rules)
    space = banker_space(rules)
    if progress is not None:
        progress.stage(3, STAGES, "the banker's best response")
    best = evaluate(rows, space)
    if progress is not None:
        progress.stage(4, STAGES, "the pair's value (the banker asked at each of its hands)")
    pair = evaluate(rows, space, strategy_draws(b, rows, space))
    if progress is not None:
        progress.say(f"done, {progress.asked:,} decisions asked", end=True)
    notes = NOTES + (SHOOT_BET_NOTE,) if shoot_bets else NOTES
    if shoot_bets and shoot_bet_totals is not None:
        notes += (f"the punter's best response over Shoot-bet totals {sorted(set(shoot_bet_totals))} only (with "
                  "nothing and all the Shoot's room): a lower bound of its best over every amount",)
    return Exploitability(rules.name, getattr(p, "name", repr(p)), getattr(b, "name", repr(b)), pair.value,
                          best.value, punter_best, True, time.perf_counter() - begin, notes,
                          rules.shoot_bet_points if shoot_bets else ())


__all__ = ["Exploitability", "Progress", "PunterResponse", "ResponseBanker", "ResponsePunter",
           "banker_best_response", "exploitability", "pair_value", "punter_best_response",
           "punter_response", "punter_response_to", "two_hand_rules"]
