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
from dataclasses import dataclass, field

import numpy as np

from ..rules import Rules, get_rules
from ..strategies import StandOnBanker, Strategy
from .dealer import banker_rule
from .deck import RANK_SHARE, Deck, two_card_probs
from .dp import Context, LevelResult, Static, build_static, solve_hands
from .dealer import PONTOON
from .payoff import payoff, punter_class, special_pontoon_share
from .space import LEVELS, NUM_VALUES, TEN, Flags, build_flags, key_of_values
from .split import SplitCounts, split_counts

INITIAL_FLAG = 0
"""Index of (stake 1, no buys, no twist, not doubled) in every Flags."""


def node_index(values: tuple[int, ...]) -> int:
    """Level index of a multiset of value indices."""
    return LEVELS[len(values) - 1].index[key_of_values([v + 1 for v in values])]


@dataclass(frozen=True)
class PairCase:
    weight: float
    pair_left: float


@dataclass
class PairInfo:
    """What a dealt pair of value ``pair`` looks like to the split rules."""

    same_rank: float
    """Chance that two cards of this value may be split (1 unless tens split by rank)."""
    cases: list[PairCase]
    cards_left: float
    share: float | None
    """Infinite deck: the fixed chance of a card that may be split again."""


def pair_info(deck: Deck, rules: Rules, up: int | None, pair: int) -> PairInfo:
    removed = np.zeros(NUM_VALUES)
    if up is not None:
        removed[up] += 1
    removed[pair] += 2
    rest = deck.remaining(removed)
    by_rank = rules.split_match == "rank" and pair == TEN
    if deck.infinite:
        share = RANK_SHARE[pair] / 4 if by_rank else RANK_SHARE[pair]
        return PairInfo(0.25 if by_rank else 1.0, [PairCase(1.0, 0.0)], 1.0, float(share))
    if not by_rank:
        return PairInfo(1.0, [PairCase(1.0, float(rest[pair]))], float(rest.sum()), None)
    per_rank = deck.rank_count()
    up_ranks = [(0.25, r0) for r0 in range(4)] if up == TEN else [(1.0, None)]
    cases = []
    for p_up, r0 in up_ranks:
        counts = [per_rank - (r == r0) for r in range(4)]
        tens = sum(counts)
        for c in counts:
            cases.append(PairCase(p_up * c * (c - 1) / (tens * (tens - 1)), c - 2))
    same = sum(c.weight for c in cases)
    return PairInfo(same, [PairCase(c.weight / same, c.pair_left) for c in cases], float(rest.sum()), None)


@dataclass
class SplitPlan:
    """The split decision for one pair against one up card, with its value in original stakes."""

    split: bool
    resplit: bool
    eg: float
    es: float
    counts: SplitCounts


@dataclass
class Solution:
    """The solved game: expected return, policy tables and how they were obtained."""

    rules: Rules
    num_decks: int | None
    banker: str
    expected_return: float
    """Per unit of initial stake, no Shoot bets."""
    seconds: float
    flags: Flags
    contexts: list[Context]
    context_index: dict[tuple[int | None, int | None], int]
    static: Static
    closed: list[LevelResult]
    """Play with no Shoot bet riding."""
    splits: dict[tuple[int | None, int], SplitPlan]
    up_probs: dict[int | None, float]
    start_probs: dict[int | None, np.ndarray]
    """Chance of each two-card hand (level-2 index) given the up card."""
    start_values: dict[int | None, np.ndarray]
    """Expected return of each two-card hand given the up card, the peek included."""
    shoot: object | None = None
    """A :class:`~shoot_pontoon_env.solver.shoot.ShootAnalysis` when requested."""
    banker_strategy: Strategy | None = None
    """The free banker's strategy that was solved against (None under dealer rules)."""
    notes: list[str] = field(default_factory=list)

    @property
    def infinite(self) -> bool:
        return self.num_decks is None

    def context(self, up: int | None, split_of: int | None) -> int:
        return self.context_index[(up, split_of)]


def split_plan(sol_static: Static, results: list[LevelResult], deck: Deck, rules: Rules,
               ctx: int, up: int | None, pair: int, first: list[LevelResult] | None = None,
               resplit: bool | None = None) -> SplitPlan:
    """Value of splitting ``pair``, resplitting or not as ``resplit`` says (None: the better).
    ``first``: results to play the box's first hand by (a Shoot bet rides on it); the others play
    by ``results``."""
    info = pair_info(deck, rules, up, pair)
    node1 = node_index((pair,))
    p_second = sol_static.probs[0][ctx, node1]
    seconds = [node_index(tuple(sorted((pair, x)))) for x in range(NUM_VALUES)]

    def hand_values(res: list[LevelResult]) -> tuple[np.ndarray, np.ndarray]:
        return res[1].eg[ctx, seconds, INITIAL_FLAG], res[1].es[ctx, seconds, INITIAL_FLAG]

    eg_o, es_o = hand_values(results)
    eg_1, es_1 = hand_values(first) if first is not None else (eg_o, es_o)
    options = [False, True] if rules.max_split_hands > 2 else [False]
    if resplit is not None:
        options = [resplit]
    best: SplitPlan | None = None
    for again in options:
        eg = es = 0.0
        agg = np.zeros(4)
        for case in info.cases:
            p_pair = info.share if info.share is not None else case.pair_left / info.cards_left
            other = p_second.copy()
            other[pair] -= p_pair
            other = np.maximum(other, 0.0)
            other /= other.sum()
            counts = split_counts(case.pair_left, info.cards_left, rules.max_split_hands, again,
                                  infinite_share=info.share)
            rest_non = counts.non_pair - counts.first_non_pair
            rest_pair = counts.pair - counts.first_pair
            eg += case.weight * (counts.first_non_pair * other @ eg_1 + counts.first_pair * eg_1[pair]
                                 + rest_non * other @ eg_o + rest_pair * eg_o[pair])
            es += case.weight * (counts.first_non_pair * other @ es_1 + counts.first_pair * es_1[pair]
                                 + rest_non * other @ es_o + rest_pair * es_o[pair])
            agg += case.weight * np.array([counts.non_pair, counts.pair, counts.first_non_pair,
                                           counts.first_pair])
        plan = SplitPlan(True, again, float(eg), float(es), SplitCounts(*agg))
        if best is None or plan.eg + plan.es > best.eg + best.es + 1e-12:
            best = plan
    assert best is not None
    return best


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


def root_values(sol: Solution, results: list[LevelResult], deck: Deck, splits: dict,
                up: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(eg, es, split?) per two-card hand: the better of playing and splitting (no peek here);
    sets each plan's ``split`` to that choice."""
    rules = sol.rules
    ctx = sol.context(up, None)
    eg = results[1].eg[ctx, :, INITIAL_FLAG].copy()
    es = results[1].es[ctx, :, INITIAL_FLAG].copy()
    split_mask = np.zeros(len(eg), bool)
    for (u, pair), plan in splits.items():
        if u != up:
            continue
        node = node_index((pair, pair))
        same = pair_info(deck, rules, up, pair).same_rank
        plan.split = plan.eg + plan.es > eg[node] + es[node]
        if plan.split:
            split_mask[node] = True
            eg[node] = same * plan.eg + (1 - same) * eg[node]
            es[node] = same * plan.es + (1 - same) * es[node]
    return eg, es, split_mask


def peek_results(rules: Rules, static: Static, ctx: int) -> tuple[np.ndarray, np.ndarray]:
    """Per two-card hand: the stake multiple and the Shoot result settled at the peek, times the
    chance of the banker's Pontoon there (zeros without a peek). Each hand meets the Pontoon by the
    showdown's payoff, so a punter's Pontoon pushes under ``ties="push"``."""
    lv = LEVELS[1]
    if not rules.banker_peek:
        return np.zeros(lv.n), np.zeros(lv.n)
    pbp = 1.0 - static.no_pontoon[1][ctx]
    met = [payoff(punter_class(int(t), 2, bool(p)), PONTOON, rules, False) for t, p in zip(lv.total, lv.pontoon)]
    g, h = np.array(met, dtype=np.float64).T
    return g * pbp, h * pbp


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


def solve(rules: Rules | str, *, banker: Strategy | None = None, num_decks: int | None = None,
          infinite: bool = False, shoot_ratio: float | None = None) -> Solution:
    """Solve one hand for ``rules``. ``num_decks`` overrides the rules' shoe; ``infinite`` solves
    the infinite deck. ``banker``: the free banker's strategy (default stand on 17). With
    ``shoot_ratio`` (the Shoot bet allowed, in original stakes) the Shoot bets are analysed too."""
    start = time.perf_counter()
    rules = get_rules(rules)
    if num_decks is not None:
        rules = rules.replace(num_decks=num_decks)
    deck = Deck(None if infinite else rules.num_decks)
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
        from .shoot import analyse_shoot

        sol.shoot = analyse_shoot(sol, deck, shoot_ratio)
    sol.seconds = time.perf_counter() - start
    return sol
