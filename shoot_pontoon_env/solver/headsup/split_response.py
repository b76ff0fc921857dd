"""The split branch of the punter's best response, heads-up: what splitting a dealt pair is worth
against the banker's draws facing a split box, and each split hand's best play there.

The model is the heads-up game's (``game_punter``): the banker sees every split box of a stake as one
observation, ``game_punter.split_observation`` ("the punter split"), so its draws facing a split box
are one rule of its own cards (a column of its decisions, ``best_banker``), whatever the banker does
elsewhere; a box holds at most two hands; and each split hand decides on its own cards
(its pair card, with the other pair card out of the shoe), as ``game_punter`` enumerates the split
hands of every punter policy and the solver's optimum plays them.

Then the box is worth exactly twice one split hand on the finite shoe: the second hand's cards are
dealt at times fixed by earlier cards, and neither the first hand, nor the banker (on its own cards
there) reads them, so by exchangeability (predictable sampling) the first hand's cards and the
banker's are distributed as if the second hand did not exist, and the same holds the other way. One
split hand is a tree of information states (``punter_tree.PunterTree``: hidden value counts, stake, buys,
twisted values), whose finished hands are rows of value counts that include the other pair card
(the chance of a deal counts it out of the shoe) and pay as a split hand (``payoff_matrices(rules,
True)``; a split ace and ten is a Pontoon where ``pontoon_after_split``); every buy amount the rules
allow is offered, as in ``best_punter``. Values are joint with the chance of the pair being dealt
and with "no banker Pontoon" under a peek (the peek is settled before any split), as
``best_punter``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...actions import Action
from ...rules import Rules
from .banker_views import Decisions
from ..dealer import NUM_OUTCOMES
from ..deck import Deck
from .game_banker import BankerSpace, JointChance
from ..payoff import payoff_matrices, punter_class, punter_row
from .punter_tree import PunterTree, best_actions, counts_total, hand_counts, row_values
from ..solution import pair_info
from ..space import ACE, NUM_VALUES, TEN


class SplitHandTree(PunterTree):
    """One split hand of a pair of value ``pair``: its pair card and what it draws (see the module
    doc). Every finished hand is a row facing the one split observation."""

    def __init__(self, rules: Rules, stake: int, pair: int, rows_of: SplitHandTree | None = None) -> None:
        super().__init__(rules, stake)
        self.pair = pair
        if rows_of is None:
            self.g, self.h = payoff_matrices(rules, True)
            self.payoffs: dict[tuple[int, int, int], np.ndarray] = {}
        else:  # one registry of rows for all pairs (a row's value: its cards and payoff)
            self.obs, self.rows, self.row_payoff = rows_of.obs, rows_of.rows, rows_of.row_payoff
            self.g, self.h, self.payoffs = rows_of.g, rows_of.h, rows_of.payoffs

    def finished(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bust: bool,
                 bet: int = 0) -> tuple[bool, int]:
        """A row keyed by the cards dealt and the hand's stake, Shoot bet and class (its payoff): every
        row faces the banker's one rule facing a split box, so equal keys are worth the same, whatever
        the pair."""
        counts = hand_counts(hidden, twists)
        p = self.pair
        dealt = counts[:p] + (counts[p] + 1,) + counts[p + 1:]  # the other pair card is out of the shoe
        if bust:
            cls = row = -1
        else:
            total, _ = counts_total(counts)
            cls = punter_class(total, sum(counts), self._pontoon(counts))
            row = punter_row(total, sum(counts), self._pontoon(counts))
        payoff = self.payoffs.get((row, stake, bet))
        if payoff is None:
            if bust:
                payoff = np.full(NUM_OUTCOMES, float(self.bust_g * stake + self.bust_h * bet))
            else:
                payoff = self.g[row] * stake + self.h[row] * bet
            payoff = self.payoffs[(row, stake, bet)] = payoff / self.stake
        return self.row(("split hand", stake, cls) + ((bet,) if bet else ()), dealt, payoff)

    def stands(self, counts: tuple[int, ...]) -> bool:
        """``Table._after_card`` for a split hand: a split ace and ten is a Pontoon that stands."""
        return self._pontoon(counts)

    def _pontoon(self, counts: tuple[int, ...]) -> bool:
        return (self.rules.pontoon_after_split and sum(counts) == 2 and counts[ACE] == 1
                and counts[TEN] == 1)

    def start(self, shoot_bet: int = 0) -> list[tuple[bool, int]]:
        """The hand after its second card, one child per value, with ``shoot_bet`` riding on it (the
        box's first hand keeps the box's bet: docs/RULES.md, interpretation 3)."""
        return [self._after(tuple((u == self.pair) + (u == v) for u in range(NUM_VALUES)), self.stake, 0, (),
                            shoot_bet) for v in range(NUM_VALUES)]


@dataclass
class SplitResponse:
    """The best split of each pair against one banker rule facing split boxes."""

    value: np.ndarray
    """(10,): a split box of this pair, both hands played best, joint with the pair being dealt."""
    same_rank: np.ndarray
    """(10,): the chance that a dealt pair of this value may be split (below 1 only for ten-value
    cards split by rank)."""
    choice: dict[tuple, Action]
    """(pair, hidden value counts, stake, buys, twisted values[, Shoot bet]) -> the split hand's best
    action (the bet where one rides on the hand: ``punter_tree.state_key``)."""
    states: int


def split_response(rules: Rules, stake: int, draws: Decisions, space: BankerSpace, joint: JointChance,
                   shoot_bet: int = 0) -> SplitResponse:
    """Each pair's split box against the banker's ``draws`` facing a split box (level -> (n_m, 1)
    decisions, bool or a mixed banker's chances of drawing), at most two hands a box, with
    ``shoot_bet`` riding on the first hand. By the exchangeability above, the box is worth one split
    hand with the bet plus one without (twice one hand where there is no bet)."""
    trees: list[SplitHandTree] = []
    for pair in range(NUM_VALUES):
        trees.append(SplitHandTree(rules, stake, pair, trees[0] if trees else None))
    starts = [tree.start(shoot_bet) + tree.start(0) if shoot_bet else tree.start() for tree in trees]
    registry = trees[0]
    rows = row_values(registry, {m: np.repeat(d, len(registry.obs), axis=1) for m, d in draws.items()}, space,
                      joint)
    value = np.zeros(NUM_VALUES)
    choice: dict[tuple, Action] = {}
    for pair, (tree, children) in enumerate(zip(trees, starts)):
        value_of, best = best_actions(tree, rows)
        value[pair] = (1 if shoot_bet else 2) * sum(rows[i] if is_row else value_of[i] for is_row, i in children)
        choice.update({(pair, *key): action for key, action in best.items()})
    deck = Deck.of(rules)
    same = np.array([pair_info(deck, rules, None, pair).same_rank for pair in range(NUM_VALUES)])
    return SplitResponse(value, same, choice, sum(len(tree.nodes) for tree in trees))


def split_column(draws: Decisions, column: int) -> Decisions:
    """The banker's draws facing one observation, as (n_m, 1) columns."""
    return {m: d[:, column:column + 1] for m, d in draws.items()}


__all__ = ["SplitHandTree", "SplitResponse", "split_column", "split_response"]
