"""One hand valuation: every copy of ``cards.py``'s agrees with it on every hand of one to five cards.

``cards.best_total`` (best total, soft) and ``cards.hand_class`` / ``cards.evaluate`` (bust, Pontoon,
Five Card Trick, 21, a plain total) are the reference; everything in Python calls them. What keeps a
copy of its own (``docs/RULES.md``, "Where the hand valuation lives"), and how it is held to them here,
on every multiset of ranks of one to five cards (8,567 hands; suits never change a valuation):

- the solver's vectorised copy, ``solver/space.py`` (``best_of`` and the hand tables ``LEVELS``): called
  directly; and its class indices (``payoff.punter_class``, ``dealer.banker_outcome``);
- the flat observation's total, soft, bust, Pontoon and Five Card Trick fields (``seat/encoding.py``),
  for a punter hand and for the banker's;
- the batched engine's compiled copy (``vector/kernel.py``: ``best_total``, ``hand_class``,
  ``banker_class``, ``banker_done_drawing`` and the observation's own sums in ``encode_hand`` and
  ``encode``). Its functions have no Python entry point, so the kernel is reached the way
  ``tests/vector`` reaches it: the differential harness deals the same cards to the reference Table and
  to the kernel and compares observation, reward, chips and hands at every step. The shoes are stacked
  so that the agent's seat, as a punter and as the banker, is dealt every hand a deal can reach (4,499
  of the 8,567: the others hold a bust or a Pontoon before their last card, and play never values
  them), and the test checks that it was.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest

from shoot_pontoon_env.actions import Action, ActionKind
from shoot_pontoon_env.cards import (
    CARDS_PER_DECK, FIVE_CARDS, HandClass, best_total, evaluate, hand_class, is_pontoon_pair, value_of,
)
from shoot_pontoon_env.engine.settlement import banker_rank
from shoot_pontoon_env.engine.table import Table
from shoot_pontoon_env.engine.view import seat_view
from shoot_pontoon_env.seat import encoding as enc
from shoot_pontoon_env.rules import SHOOT, Rules
from shoot_pontoon_env.shoe import Shoe
from shoot_pontoon_env.solver import dealer
from shoot_pontoon_env.solver.payoff import punter_class
from shoot_pontoon_env.solver.space import best_of, key_of_values, level
from shoot_pontoon_env.players.strategies import StandOnBanker, ThresholdPunter

HANDS = [ranks for size in range(1, FIVE_CARDS + 1)
         for ranks in itertools.combinations_with_replacement(range(13), size)]
"""Every multiset of ranks (0 = ace .. 12 = king) of one to five cards."""


def cards_of(ranks) -> list[int]:
    return [rank * 4 for rank in ranks]  # clubs: suits change no valuation


def _independent_best_total(cards: list[int]) -> tuple[int, bool]:
    """The rule as the seed states it: every ace counts 1 or 11, the best total is the largest not
    over 21 (the smallest when every count busts); soft when an ace counts 11 in it."""
    hard = sum(value_of(c) for c in cards)
    aces = sum(value_of(c) == 1 for c in cards)
    totals = [(hard + 10 * eleven, eleven > 0) for eleven in range(aces + 1)]
    fitting = [t for t in totals if t[0] <= 21]
    return max(fitting) if fitting else totals[0]


def test_the_reference_counts_aces_as_the_rule_says():
    assert len(HANDS) == 8567
    for ranks in HANDS:
        cards = cards_of(ranks)
        assert best_total(cards) == _independent_best_total(cards), ranks
        total = best_total(cards)[0]
        for possible, trick in itertools.product((False, True), repeat=2):
            rank = evaluate(cards, pontoon_possible=possible, five_card_trick=trick)
            pontoon = possible and len(cards) == 2 and sorted(value_of(c) for c in cards) == [1, 10]
            assert rank.total == total
            assert rank.hand_class == hand_class(total, len(cards), pontoon=pontoon, five_card_trick=trick)
            assert (rank.hand_class == HandClass.BUST) == (total > 21)
            assert (rank.hand_class == HandClass.PONTOON) == (pontoon and total <= 21)
            assert (rank.hand_class == HandClass.FIVE_CARD_TRICK) == (
                trick and len(cards) >= FIVE_CARDS and total <= 21)


# --------------------------------------------------------------------------- the solver's copies
def test_the_solvers_vectorised_totals_are_cards_best_total():
    hard = np.array([sum(value_of(c) for c in cards_of(ranks)) for ranks in HANDS])
    has_ace = np.array([0 in ranks for ranks in HANDS])
    total, soft = best_of(hard, has_ace)
    assert [(int(t), bool(s)) for t, s in zip(total, soft)] == [best_total(cards_of(r)) for r in HANDS]


def test_the_solvers_hand_tables_hold_every_hand_not_bust_valued_as_cards_py():
    expected: dict[int, set[tuple[int, ...]]] = {size: set() for size in range(1, FIVE_CARDS + 1)}
    for ranks in HANDS:
        cards = cards_of(ranks)
        values = [value_of(c) for c in cards]
        if len(cards) > 1 and sum(values) > 21:
            continue  # a bust is no state of the tables (a hand's first card is always one)
        key = key_of_values(values)
        expected[len(cards)].add(key)
        lv = level(len(cards))
        i = lv.index[key]
        total, soft = best_total(cards)
        assert (int(lv.total[i]), bool(lv.soft[i])) == (total, soft), ranks
        assert int(lv.hard[i]) == sum(values)
        assert bool(lv.pontoon[i]) == is_pontoon_pair(cards), ranks
    for size, keys in expected.items():
        assert set(level(size).index) == keys, f"{size}-card hands of the tables"


OUTCOME_OF_CLASS = {HandClass.BUST: dealer.BUST, HandClass.TWENTY_ONE: dealer.TWENTY_ONE,
                    HandClass.FIVE_CARD_TRICK: dealer.FIVE_CARD_TRICK, HandClass.PONTOON: dealer.PONTOON}


def _outcome(rank) -> int:
    return rank.total if rank.hand_class == HandClass.TOTAL else OUTCOME_OF_CLASS[rank.hand_class]


@pytest.mark.parametrize("possible", [True, False])
def test_the_solvers_punter_classes_are_cards_py_classes(possible):
    for ranks in HANDS:
        cards = cards_of(ranks)
        pontoon = possible and is_pontoon_pair(cards)
        expected = _outcome(evaluate(cards, pontoon_possible=possible, five_card_trick=True))
        assert punter_class(best_total(cards)[0], len(cards), pontoon) == expected, ranks


@pytest.mark.parametrize("five_cards", ["trick", "total", "draw_on"])
def test_the_solvers_banker_outcomes_are_cards_py_classes(five_cards):
    rules = SHOOT.replace(banker_five_cards=five_cards)
    for ranks in HANDS:
        if len(ranks) < 2:
            continue
        cards = cards_of(ranks)
        values = tuple(min(rank, 9) for rank in ranks)  # value indices, the ace first
        expected = evaluate(cards, pontoon_possible=True, five_card_trick=five_cards == "trick")
        assert dealer.banker_outcome(values, rules) == _outcome(expected), ranks
        assert dealer.engine_done(values, rules) == rules.banker_done_drawing(*best_total(cards), len(cards))


# --------------------------------------------------------------------------- the observation's fields
def _template_view(rules: Rules):
    """A real view of a two-seat table with the agent's hand staked (its fields replaced below)."""
    table = Table(rules, 2, rng=np.random.default_rng(0))
    table.start_deal()
    table.apply(Action(ActionKind.STAKE, rules.min_stake))
    return seat_view(table, 1)


ENCODING_CASES = [  # rules, whether the hand comes from a split
    (SHOOT, False), (SHOOT.replace(pontoon_after_split=False), True),
    (SHOOT.replace(banker_five_cards="total"), True),
]


HAND_FIELDS = (enc.H_TOTAL, enc.H_SOFT, enc.H_BUST, enc.H_PONTOON, enc.H_FIVE_CARD_TRICK)
BANKER_FIELDS = (enc.BANKER_TOTAL, enc.BANKER_SOFT, enc.BANKER_BUST, enc.BANKER_PONTOON,
                 enc.BANKER_FIVE_CARD_TRICK)


@pytest.mark.parametrize(("rules", "from_split"), ENCODING_CASES,
                         ids=["shoot", "split-no-pontoon", "banker-total"])
def test_the_observation_values_a_hand_and_the_bankers_as_cards_py(rules, from_split):
    encoder = enc.ObservationEncoder(rules, 2)
    view = _template_view(rules)
    template = view.hands[0]
    slot = enc.hand_slot(0).start
    possible = rules.pontoon_after_split or not from_split
    for ranks in HANDS:
        cards = tuple(cards_of(ranks))
        total, soft = best_total(cards)
        bust = total > 21
        hand = template._replace(cards=cards, hidden_cards=0, from_split=from_split, done=True, settled=bust,
                                 bust=bust)
        obs = encoder.encode(view._replace(hands=(hand,), current=None, banker_cards=cards, banker_hidden=0))
        shown = float(np.float32(min(total / enc.TOTAL_SCALE, enc.TOTAL_BOUND)))  # the space's bound clips
        for fields, kind in (
                ([slot + field for field in HAND_FIELDS],
                 evaluate(cards, pontoon_possible=possible, five_card_trick=True).hand_class),
                (list(BANKER_FIELDS), banker_rank(cards, rules).hand_class)):
            expected = [shown, soft, bust, kind == HandClass.PONTOON, kind == HandClass.FIVE_CARD_TRICK]
            assert obs[fields].tolist() == [float(v) for v in expected], (ranks, fields)


# --------------------------------------------------------------------------- the kernel's copy
def _stops(ranks: tuple[int, ...]) -> bool:
    """Whether a hand dealt these ranks in this order takes no further card whatever it decides: bust,
    a Pontoon, five cards (the rules below let a 21 draw on)."""
    cards = cards_of(ranks)
    return best_total(cards)[0] > 21 or is_pontoon_pair(cards) or len(cards) >= FIVE_CARDS


def _deal_order(ranks: tuple[int, ...]) -> tuple[int, ...] | None:
    """An order of the ranks in which no card before the last stops the hand (None: there is none)."""
    for order in dict.fromkeys(itertools.permutations(ranks)):
        if not any(_stops(order[:j]) for j in range(2, len(order))):
            return order
    return None


def _deals() -> tuple[list[tuple[int, ...]], set[tuple[int, ...]]]:
    """Orders whose prefixes are every hand a deal can reach, and those hands (sorted ranks)."""
    orders = {ranks: order for ranks in HANDS if (order := _deal_order(ranks)) is not None}
    deals, reached = [], set()
    for ranks in sorted(orders, key=len, reverse=True):
        if ranks not in reached:
            deals.append(orders[ranks])
            reached.update(tuple(sorted(orders[ranks][:j])) for j in range(1, len(ranks) + 1))
    assert reached == set(orders)
    return deals, reached


NINE = 8 * 4
"""The other seat's two cards: two nines (18, no Pontoon), on which its player stands."""
DECKS = 8
"""Room for five cards of one rank."""


def _shoe_order(first: list[int], second: list[int], draws: list[int]) -> np.ndarray:
    """A whole shoe: punter card, banker card, punter card, banker card, the draws, then the rest."""
    top = [first[0], second[0], first[1], second[1], *draws]
    counts = np.full(CARDS_PER_DECK, DECKS)
    for card in top:
        counts[card] -= 1
    return np.concatenate([np.array(top), np.repeat(np.arange(CARDS_PER_DECK), counts)]).astype(np.int8)


def _kernel_run(env_id: str, kwargs: dict, agent, orders: list[np.ndarray], seen_of) -> set[tuple[int, ...]]:
    """The differential harness of ``tests/vector`` on shoes stacked in this order, one per deal; the
    hands of the agent's seat that its view showed (sorted ranks, from ``seen_of(view)``)."""
    sys.path.insert(0, str(Path(__file__).parent / "vector"))
    try:
        import differential
    finally:
        sys.path.pop(0)
    queue = list(orders)

    class StackedShoe(differential.RecordingShoe):
        def shuffle(self, rng: np.random.Generator) -> None:
            Shoe.shuffle(self, rng)
            if queue:
                self.order = queue.pop(0)
            self.recorded.append(self.order.copy())

    seen: set[tuple[int, ...]] = set()

    class Recording(differential.Differential):
        def compare(self, i, obs, reward, terminated, info) -> None:
            super().compare(i, obs, reward, terminated, info)
            cards = seen_of(self.envs[i].episode.view)
            if cards:
                seen.add(tuple(sorted(card // 4 for card in cards)))

    harness = pytest.MonkeyPatch()
    harness.setattr(differential, "RecordingShoe", StackedShoe)
    harness.setattr(differential, "Differential", Recording)
    try:
        differential.run_differential(env_id, kwargs, tables=64, seed=5, episodes=len(orders), agent=agent)
    finally:
        harness.undo()
    assert not queue, "every stacked shoe was dealt"
    return seen


def _own_hand(view) -> tuple[int, ...]:
    return next((h.cards for h in view.hands if h.seat == view.seat), ())


def test_the_kernel_values_every_punter_hand_a_deal_can_reach_as_the_table_does():
    """The agent's seat twists whatever it holds (a stick on 22), so its hand passes through every
    prefix of its stacked cards; a Shoot bet before the second card shows its one-card hands."""
    deals, reached = _deals()
    orders = [_shoe_order([cards_of(d)[0], cards_of(d)[1] if len(d) > 1 else NINE], [NINE, NINE],
                          cards_of(d[2:])) for d in deals]
    rules = SHOOT.replace(name="every-hand", num_decks=DECKS, shoot_bet_points=("before_second_card",))
    seen = _kernel_run("ShootPontoon-v0", {"rules": rules, "num_players": 2}, ThresholdPunter(22), orders,
                       _own_hand)
    assert reached <= seen


@pytest.mark.parametrize("five_cards", ["trick", "total"])
def test_the_kernel_values_every_banker_hand_a_deal_can_reach_as_the_table_does(five_cards):
    """The agent banks and draws whatever it holds (a stand on 22) after a punter who stands on two
    nines; every banker hand of two to five cards shows in its view."""
    deals, reached = _deals()
    deals = [d for d in deals if len(d) > 1]
    orders = [_shoe_order([NINE, NINE], cards_of(d)[:2], cards_of(d[2:])) for d in deals]
    rules = SHOOT.replace(name="every-banker-hand", num_decks=DECKS, banker_five_cards=five_cards)
    seen = _kernel_run("ShootPontoonBanker-v0", {"rules": rules, "num_players": 2, "punters": "threshold"},
                       StandOnBanker(22), orders, lambda view: view.banker_cards)
    assert {ranks for ranks in reached if len(ranks) > 1} <= seen
