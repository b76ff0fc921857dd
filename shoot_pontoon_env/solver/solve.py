"""``solve(rules)``: the punter's optimal play of one hand and its exact expected return.

What is exact and what is not (see also ``split.py``):

- The shoe is shuffled before the deal (``shoe="reshuffle"``); play is composition dependent: every
  decision uses the punter's own cards, the up card where the banker shows one, and for hands from
  a split the two original pair cards.
- Other punters at the table are ignored; since the optimal punter never looks at their cards and
  nobody's decisions depend on the banker's hidden cards, their cards are taken at predictable
  times and the expected return is the same at any table size (while the shoe lasts).
- The banker draws by a fixed rule on its own cards only: the dealer rule of ``banker_play="dealer"``
  or, for the free banker of the home game, a given strategy (default ``StandOnBanker``: stand on
  17 or more, ties win), never looking at the punters' hands.
- With a peek, the banker's Pontoon is settled before play (every hand loses
  ``banker_pontoon_multiple`` stakes, a Pontoon pushes under ``ties="push"``) and play is
  conditioned on its absence.
- Splits with resplits: exact pattern probabilities, approximate hand values (``split.py``).
- Special Pontoons: the share of special combinations is taken from a full shoe.
"""

from __future__ import annotations

import time

import numpy as np

from ..rules import Rules, get_rules
from ..players.policy import Policy
from ..players.strategies import StandOnBanker
from .dealer import banker_rule
from .deck import Deck, two_card_probs
from .dp import Context, build_static, solve_hands
from .memo import banker_key, remembered
from .payoff import special_pontoon_share
from .shoot import analyse_shoot
from .solution import Solution, node_index, peek_results, root_values, split_plan
from .space import LEVELS, NUM_VALUES, build_flags


def start_distribution(deck: Deck, up: int | None) -> np.ndarray:
    removed = np.zeros(NUM_VALUES)
    if up is not None:
        removed[up] += 1
    ordered = two_card_probs(deck, removed)
    out = np.zeros(LEVELS[1].n)
    for i in range(NUM_VALUES):
        for j in range(NUM_VALUES):
            out[node_index(tuple(sorted((i, j))))] += ordered[i, j]
    return out


def make_contexts(rules: Rules) -> list[Context]:
    ups: list[int | None] = list(range(NUM_VALUES)) if rules.dealer_shows_first_card else [None]
    contexts = []
    for up in ups:
        base = [0] * NUM_VALUES
        if up is not None:
            base[up] += 1
        contexts.append(Context(up, None, tuple(base)))
        if rules.max_split_hands >= 2:
            for pair in range(NUM_VALUES):
                split_base = list(base)
                split_base[pair] += 1
                contexts.append(Context(up, pair, tuple(split_base)))
    return contexts


def assumptions(rules: Rules, banker: str, deck: Deck) -> list[str]:
    """The modelling statements behind a solution, in words (printed by the CLI)."""
    notes = [
        "infinite deck" if deck.infinite else f"a {rules.num_decks}-deck shoe shuffled before the deal",
        f"banker: {banker}",
        ("one punter hand; other punters' cards are ignored (the value is the same at any table size "
         "while the shoe lasts, since nobody's decisions depend on the banker's hidden cards)"),
        "play is composition dependent on the punter's own cards"
        + (" and the up card" if rules.dealer_shows_first_card else ""),
    ]
    if rules.banker_peek:
        notes.append("the banker's Pontoon is settled at the peek; play is conditioned on its absence")
    if rules.max_split_hands > 2:
        notes.append("split hands play on their own cards and the pair; with resplits, a split hand's "
                     "value ignores the other split hands' cards (measured error: docs/RESULTS.md)")
    if rules.special_pontoons:
        notes.append("the share of special Pontoons is taken from a full shoe")
    if rules.shoe == "persistent":
        notes.append("values are for a freshly shuffled shoe: cards seen in earlier deals are not used")
    return notes


def solve(rules: Rules | str, *, banker: Policy | None = None, num_decks: int | None = None,
          infinite: bool = False, shoot_ratio: float | None = None) -> Solution:
    """Solve one hand for ``rules``. ``num_decks`` overrides the rules' shoe; ``infinite`` solves
    the infinite deck. ``banker``: the free banker's strategy (default stand on 17). With
    ``shoot_ratio`` (the Shoot bet allowed, in original stakes) the Shoot bets are analysed too.

    Solved once per process for the same arguments (``memo.py``: the last few solutions are kept,
    each caller gets its own copy whose tables are read-only); ``seconds`` is the time the solve
    took when it ran."""
    rules = get_rules(rules)
    if num_decks is not None:
        rules = rules.replace(num_decks=num_decks)
    ratio = None if shoot_ratio is None else float(shoot_ratio)
    bkey = banker_key(rules, banker)
    key = None if bkey is None else (rules, bool(infinite), ratio, bkey)
    return remembered(key, banker, lambda: _solve(rules, banker, bool(infinite), ratio))


def _solve(rules: Rules, banker: Policy | None, infinite: bool, shoot_ratio: float | None) -> Solution:
    """The solve itself, for validated rules (``solve``'s arguments)."""
    start = time.perf_counter()
    deck = Deck.of(rules, infinite)
    rule = banker_rule(rules, banker)
    flags = build_flags(rules)
    contexts = make_contexts(rules)
    static = build_static(rules, deck, rule, contexts, special_pontoon_share(rules))
    closed = solve_hands(static, flags)
    index = {(c.up, c.split_of): i for i, c in enumerate(contexts)}
    ups = sorted({c.up for c in contexts}, key=lambda u: -1 if u is None else u)
    all_probs = deck.draw_probs(np.zeros(NUM_VALUES))
    up_probs = {u: (1.0 if u is None else float(all_probs[u])) for u in ups}
    sol = Solution(rules, deck.num_decks, rule.name, 0.0, 0.0, flags, contexts, index, static, closed,
                   {}, up_probs, {}, {})
    if rules.banker_play == "free":
        sol.banker_strategy = banker if banker is not None else StandOnBanker()
    splits = {}
    if rules.max_split_hands >= 2:
        for up in ups:
            for pair in range(NUM_VALUES):
                splits[(up, pair)] = split_plan(static, closed, deck, rules, index[(up, pair)], up, pair)
    sol.splits = splits
    total = 0.0
    for up in ups:
        eg, es, _ = root_values(sol, closed, deck, splits, up)
        peek_g, _ = peek_results(rules, static, index[(up, None)])
        values = eg + es + peek_g
        probs = start_distribution(deck, up)
        sol.start_probs[up] = probs
        sol.start_values[up] = values
        total += up_probs[up] * float(probs @ values)
    sol.expected_return = total
    sol.notes = assumptions(rules, rule.name, deck)
    if shoot_ratio is not None:
        sol.shoot = analyse_shoot(sol, deck, shoot_ratio)
    sol.seconds = time.perf_counter() - start
    return sol
