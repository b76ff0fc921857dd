"""The solver's terminal payoffs agree with the engine's ``settlement.showdown`` on random hands."""

from __future__ import annotations

import numpy as np
import pytest

from shoot_pontoon_env.cards import best_total, is_pontoon_pair
from shoot_pontoon_env.engine.hand import Hand
from shoot_pontoon_env.engine.settlement import Outcome, banker_rank, is_special_pontoon, showdown
from shoot_pontoon_env.rules import CASINO, PLAYTECH, SHOOT, Rules
from shoot_pontoon_env.solver.dealer import banker_outcome
from shoot_pontoon_env.solver.payoff import SPECIAL_PONTOON, payoff, punter_class

VARIANTS: list[Rules] = [
    SHOOT, CASINO, PLAYTECH,
    SHOOT.replace(ties="push", banker_pontoon_multiple=3, punter_loses_at_or_below=None),
    SHOOT.replace(split_bust_pays_double=True, pontoon_after_split=False, twenty_one_pays=2,
                  special_pontoons=(("A*", "JC"), ("A*", "JS")), banker_five_cards="total"),
    SHOOT.replace(banker_five_cards="draw_on", punter_trick_beats_banker_trick=True),
    CASINO.replace(ties="push", win_pays=2, five_card_trick_pays=3, punter_loses_at_or_below=16),
]


def _random_hand(rng: np.random.Generator, bias_low: bool) -> list[int]:
    n = int(rng.integers(2, 6))
    deck = rng.permutation(52)
    if bias_low:  # many five-card hands under 21
        deck = np.array([c for c in deck if c // 4 < 5] + [c for c in deck if c // 4 >= 5])
    return [int(c) for c in deck[:n]]


@pytest.mark.parametrize("rules", VARIANTS, ids=[f"{r.name}-{i}" for i, r in enumerate(VARIANTS)])
def test_payoff_matches_showdown(rules: Rules) -> None:
    rng = np.random.default_rng(7)
    for trial in range(4000):
        cards = _random_hand(rng, trial % 3 == 0)
        bank = _random_hand(rng, trial % 5 == 0)
        from_split = bool(rng.integers(2))
        stake = int(rng.integers(1, 6))
        hand = Hand(seat=1, box=0, original_stake=1, stake=stake, cards=cards, from_split=from_split)
        outcome, multiple = showdown(hand, banker_rank(bank, rules), rules)
        expected_g = {Outcome.WIN: multiple, Outcome.PUSH: 0, Outcome.LOSE: -multiple}[outcome]
        expected_h = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSE: -1}[outcome]
        pontoon = is_pontoon_pair(cards) and (not from_split or rules.pontoon_after_split)
        cls = punter_class(best_total(cards)[0], len(cards), pontoon)
        if pontoon and is_special_pontoon(cards, rules):
            cls = SPECIAL_PONTOON
        g, h = payoff(cls, banker_outcome(tuple(min(9, c // 4) for c in bank), rules), rules,
                      from_split)
        assert (g, h) == (expected_g, expected_h), (cards, bank, from_split, rules.name)
