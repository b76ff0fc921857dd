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
  "the punter split" (its best response does not read the split hands' face-up cards or stakes; a
  rule-based banker that reads the table is asked with no punter hands in view there); and the two
  hands of a split box are played as the first hand plays (a policy that decides on the other
  hand's cards would differ).
- The punter's best response: against a banker that draws on its own cards only (stand-on-N, the
  dealer rule) the exact solver's optimum (``solve`` at two hands a box, splits included); against a
  banker that reads the punter's box (``shoot_aware``) the exact best response among plays without
  splits or Shoot bets at the base stake (``best_punter``), a lower bound of the whole best response
  (splitting adds about 0.0011 per unit stake against ``stand17``). Without splits the two agree to
  1e-15, and the solver's optimum's value computed by ``game_punter`` equals the solver's own at two
  hands a box to 1e-12 (tests/solver/test_best_response.py).
- Rule-based players are asked through a :class:`SeatView` filled as the engine fills it, except
  ``balance`` (0) and, for the banker, ``seen_counts``; a banker that reads the table is asked once
  per (total, softness, number of cards, observation) (``best_banker``). Only players that ignore
  these (every strategy of ``strategies`` and the solver's optimum) are modelled exactly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..rules import Rules, get_rules
from ..strategies import Strategy, is_strategy_name, make_strategy
from .best_banker import BankerResult, ResponseBanker, evaluate, observation_draws, strategy_draws
from .best_punter import ResponsePunter, punter_response
from .dealer import own_cards_only, strategy_rule
from .game_banker import banker_space
from .game_punter import PunterPolicy, PunterRows, check_rules, punter_rows, strategy_policy

NOTES = (
    "heads-up (one punter, the banker); values are the punter's net chips per unit of initial stake",
    "every value is of one game: a box splits at most once (two hands; the engine's preset allows four)",
    "exact on the finite shoe except split boxes: the banker sees only that the punter split, the two "
    "split hands played alike",
    "punter best response: the exact solver's optimum at two hands a box against a banker that draws on "
    "its own cards; against one that reads the table, the exact best response without splits or Shoot "
    "bets (a lower bound)",
)


def two_hand_rules(rules: Rules) -> Rules:
    """The rules of the modelled game: ``max_split_hands`` capped at two (see the module doc)."""
    if rules.max_split_hands <= 2:
        return rules
    return rules.replace(max_split_hands=2)


Solutions = dict
"""(rules, banker's draws) -> the solver's Solution: one solve per game within an
:func:`exploitability`."""


def _draw_signature(banker: Strategy, rules: Rules) -> tuple:
    """A banker that draws on its own cards, as its choice at every hand it can draw at."""
    rule = strategy_rule(banker, rules)
    return tuple(rule.wants_card(v) for lv in banker_space(rules).levels.values()
                 for v, c in zip(lv.values, lv.can_draw) if c)


def _solve(rules: Rules, banker: Strategy | None, solutions: Solutions | None):
    from ..strategies import StandOnBanker
    from .solve import solve

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


def make_player(name: str | Strategy, rules: Rules, solutions: Solutions | None = None) -> Strategy:
    """A player by name: a strategy of ``strategies`` (``thresholdN`` too) or ``optimal``: the
    solver's optimum against its default banker (stand on 17), without Shoot bets, which is
    ``models.player.solver_player("optimal", rules)`` wherever that places none (the solver may not
    import ``models``, a layer above it; solved on ``rules`` as given, resplits included, it plays
    here at most two hands a box). ValueError for an unknown name. ``solutions``: solves
    already made (:func:`exploitability` shares them with the punter's best response)."""
    if isinstance(name, Strategy):
        return name
    if is_strategy_name(name):
        return make_strategy(name)
    if name == "optimal":
        from .player import OptimalPunter

        player = OptimalPunter(_solve(rules, None, solutions))
        player.name = "optimal"
        return player
    raise ValueError(f"unknown player {name!r}: expected a strategy name (random is not deterministic), "
                     "thresholdN or optimal")


def _rows(punter: Strategy | PunterPolicy | PunterRows, rules: Rules) -> PunterRows:
    if isinstance(punter, PunterRows):
        return punter
    policy = strategy_policy(punter) if isinstance(punter, Strategy) else punter
    return punter_rows(rules, policy)


def banker_best_response(punter: Strategy | PunterPolicy | PunterRows, rules: Rules | str = "shoot"
                         ) -> BankerResult:
    """The banker's exact best response to ``punter`` (a Strategy or a policy of the punter's view):
    its value (the punter's, which the banker minimises) and decisions."""
    rules = get_rules(rules)
    rows = _rows(punter, rules)
    return evaluate(rows, banker_space(rules))


def pair_value(punter: Strategy | PunterPolicy | PunterRows, banker: Strategy, rules: Rules | str = "shoot"
               ) -> BankerResult:
    """The value of ``punter`` against the rule-based ``banker``, and the banker's decisions."""
    rules = get_rules(rules)
    rows = _rows(punter, rules)
    space = banker_space(rules)
    return evaluate(rows, space, strategy_draws(banker, rows, space))


def punter_best_response(banker: Strategy, rules: Rules | str = "shoot",
                         solutions: Solutions | None = None) -> float:
    """The punter's best value against the rule-based ``banker``, in the game of the pair value and
    the banker's best response: at most two hands a box (:func:`two_hand_rules`; see the module doc)."""
    rules = get_rules(rules)
    check_rules(rules)
    if own_cards_only(banker):
        return _solve(two_hand_rules(rules), banker, solutions).expected_return
    space = banker_space(rules)
    return punter_response(rules, lambda obs, live: observation_draws(banker, rules, obs, live, space),
                           space).value


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
    """True where the punter's best response is the solver's optimum (splits included, at most two
    hands a box, the game of every value here). False where it leaves splits out (a banker that reads
    the table): then it is a lower bound, and so are the punter's gain and the exploitability (the
    gain may even come out below zero against a punter that splits well, such as ``optimal``)."""
    seconds: float
    notes: tuple[str, ...] = field(default=NOTES)

    def to_dict(self) -> dict:
        return {"rules": self.rules, "punter": self.punter, "banker": self.banker,
                "exploitability": self.exploitability, "pair_value": self.pair_value,
                "banker_best_response_value": self.banker_best_response,
                "punter_best_response_value": self.punter_best_response,
                "punter_best_response_splits": self.punter_best_response_splits,
                "banker_gain": self.banker_gain, "punter_gain": self.punter_gain,
                "seconds": self.seconds, "notes": list(self.notes)}


def exploitability(punter: str | Strategy, banker: str | Strategy, rules: Rules | str = "shoot",
                   solutions: Solutions | None = None) -> Exploitability:
    """Exploitability of the pair (``punter``, ``banker``), both by name or as strategies, in one game
    (at most two hands a box; see the module doc). ``solutions``: solves to share (:func:`make_player`);
    each game is solved once."""
    begin = time.perf_counter()
    rules = get_rules(rules)
    check_rules(rules)  # first: it refuses rules it cannot model
    solutions = {} if solutions is None else solutions
    p, b = make_player(punter, rules, solutions), make_player(banker, rules, solutions)
    punter_best = punter_best_response(b, rules, solutions)
    rows = _rows(p, rules)
    space = banker_space(rules)
    best = evaluate(rows, space)
    pair = evaluate(rows, space, strategy_draws(b, rows, space))
    return Exploitability(rules.name, getattr(p, "name", repr(p)), getattr(b, "name", repr(b)), pair.value,
                          best.value, punter_best, own_cards_only(b), time.perf_counter() - begin)


__all__ = ["Exploitability", "ResponseBanker", "ResponsePunter", "banker_best_response", "exploitability",
           "make_player", "pair_value", "punter_best_response", "punter_response", "two_hand_rules"]
