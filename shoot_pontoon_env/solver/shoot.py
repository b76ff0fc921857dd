"""The value of the Shoot bet at each betting point, and the optimal Shoot bet policy.

A Shoot bet ``b`` (in original stakes) riding on a hand pays +b when the hand wins, 0 on a push,
-b when it loses (a bust, the banker's Pontoon, a tie the banker wins). With it riding, the best
play maximises ``stake result + b * Shoot result``; the *value per chip* of the bet at a point is
its Shoot result, P(win) - P(lose), under that play, given what the punter knows there:
before the deal (nothing), before the second card (the first card, and the up card where one is
shown), before the fourth card (the hand's three cards; the peek has passed, so this one is
conditional on no banker Pontoon).

The policy. For fixed play, the expected return is linear in the bet amounts, and the limits
(each bet at least 0, their sum along any line of play at most the allowance ``C``) form a
path-sum polytope whose vertices bet all of ``C`` at one point or nothing: so the optimal policy
bets the whole allowance at one point or never. It is found by backward induction over three
states of a hand: no bet but the before-fourth-card point still ahead (``open``), no bet and none
to come (``closed``), the allowance riding (``full``). Restrictions (the values below are exact
for the policy played, within the split approximation): no Shoot bet on hands from a split; the
allowance ``C`` is what one bet may be and is the same at every point (the table's Shoot, less
the other punters' bets, in the game; ``max_shoot_bet`` with a large Shoot in the validation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cards import value_of
from ..engine.view import HandView, SeatView
from .deck import Deck
from .dp import LevelResult, solve_hands
from .solution import Solution, node_index, peek_results, root_values, split_plan
from .space import LEVELS, NUM_VALUES


@dataclass
class ShootAnalysis:
    """Shoot bet values and policy for an allowance of ``ratio`` original stakes."""

    ratio: float
    points: tuple[str, ...]
    full: list[LevelResult]
    open: list[LevelResult]
    bet_fourth: np.ndarray
    """(C, n3, nf) bool: bet the allowance on these three-card hands (before the fourth card)."""
    bet_second: dict[tuple[int | None, int], bool]
    """Bet before the second card, by (up card, first card)."""
    bet_deal: bool
    value_deal: float
    """Per chip, before the deal (play optimal with the bet riding)."""
    value_second: dict[tuple[int | None, int], float]
    value_fourth: np.ndarray
    """(C, n3, nf): per chip on three cards, given no banker Pontoon."""
    expected_return: float
    """Per unit of initial stake with the optimal Shoot policy (stake and Shoot together)."""
    stake_part: float
    shoot_part: float
    splits_full: dict = field(default_factory=dict)
    splits_open: dict = field(default_factory=dict)


def analyse_shoot(sol: Solution, deck: Deck, ratio: float) -> ShootAnalysis:
    rules, static, flags, closed = sol.rules, sol.static, sol.flags, sol.closed
    points = rules.shoot_bet_points if rules.shoot else ()
    full = solve_hands(static, flags, beta_stand=ratio)
    n3 = LEVELS[2].n
    offer = ~static.auto_stand[2][:, :, None] & ~flags.terminal[None, None, :]
    offer = offer & np.array([not c.from_split for c in static.contexts])[:, None, None]
    if "before_fourth_card" in points:
        bet4 = offer & (full[2].value > closed[2].value)
        top = LevelResult(np.where(bet4, full[2].eg, closed[2].eg), np.where(bet4, full[2].es, 0.0),
                          np.where(bet4, full[2].act, closed[2].act))
        opened = solve_hands(static, flags, beta_stand=0.0, beta_bust=0.0, top=top)
        opened[3:] = closed[3:]  # past three cards the point has passed: bet riding or not
    else:
        bet4 = np.zeros((len(static.contexts), n3, flags.n), bool)
        opened = closed
    ctx_fourth = np.maximum(static.no_pontoon[2][:, :, None], 1e-300)
    value_fourth = full[2].es / (ratio * ctx_fourth)
    splits_full, splits_open = {}, {}
    for (up, pair) in sol.splits:
        ctx = sol.context(up, pair)
        splits_full[(up, pair)] = split_plan(static, closed, deck, rules, ctx, up, pair, first=full)
        splits_open[(up, pair)] = split_plan(static, closed, deck, rules, ctx, up, pair)
    bet_second: dict[tuple[int | None, int], bool] = {}
    value_second: dict[tuple[int | None, int], float] = {}
    deal_full = np.zeros(2)
    deal_wait = np.zeros(2)
    deal_full_es = 0.0
    for up, p_up in sol.up_probs.items():
        ctx = sol.context(up, None)
        peek_g, peek_h = peek_results(rules, static, ctx)
        f_eg, f_es, _ = root_values(sol, full, deck, splits_full, up)
        o_eg, o_es, _ = root_values(sol, opened, deck, splits_open, up)
        f_eg, f_es = f_eg + peek_g, f_es + ratio * peek_h
        o_eg = o_eg + peek_g
        removed = np.zeros(NUM_VALUES)
        if up is not None:
            removed[up] += 1
        first = deck.draw_probs(removed)
        for c1 in range(NUM_VALUES):
            after = removed.copy()
            after[c1] += 1
            second = deck.draw_probs(after)
            nodes = [node_index(tuple(sorted((c1, c2)))) for c2 in range(NUM_VALUES)]
            a_full = np.array([second @ f_eg[nodes], second @ f_es[nodes]])
            a_open = np.array([second @ o_eg[nodes], second @ o_es[nodes]])
            value_second[(up, c1)] = float(a_full[1] / ratio)
            bet = "before_second_card" in points and a_full.sum() > a_open.sum()
            bet_second[(up, c1)] = bool(bet)
            weight = p_up * first[c1]
            deal_full += weight * a_full
            deal_wait += weight * (a_full if bet else a_open)
    bet_deal = "before_deal" in points and deal_full.sum() > deal_wait.sum()
    best = deal_full if bet_deal else deal_wait
    deal_full_es = float(deal_full[1])
    return ShootAnalysis(
        ratio=ratio, points=tuple(points), full=full, open=opened, bet_fourth=bet4,
        bet_second=bet_second, bet_deal=bool(bet_deal), value_deal=deal_full_es / ratio,
        value_second=value_second, value_fourth=value_fourth, expected_return=float(best.sum()),
        stake_part=float(best[0]), shoot_part=float(best[1]), splits_full=splits_full,
        splits_open=splits_open,
    )


def _flag(sol: Solution, hand: HandView, view: SeatView) -> int:
    return sol.flags.index[sol.flags.key(hand.stake // hand.original_stake, hand.buys, bool(hand.twists),
                                         hand.doubled, view.rules)]


def wants_bet(sol: Solution, point: str | None, up: int | None, cards: tuple[int, ...],
              hand: HandView | None, view: SeatView | None = None) -> bool:
    """Whether the policy bets the allowance now."""
    shoot = sol.shoot
    assert isinstance(shoot, ShootAnalysis)
    if point == "before_deal":
        return shoot.bet_deal
    if hand is None or hand.shoot_bet > 0:
        return False
    if point == "before_second_card" and len(cards) == 1:
        return shoot.bet_second[(up, value_of(cards[0]) - 1)]
    if point == "before_fourth_card" and len(cards) == 3 and not hand.from_split and view is not None:
        values = tuple(sorted(value_of(c) - 1 for c in cards))
        return bool(shoot.bet_fourth[sol.context(up, None), node_index(values), _flag(sol, hand, view)])
    return False


def play_tables(sol: Solution, view: SeatView, hand: HandView) -> list[LevelResult]:
    """The tables to play by: with the allowance riding, with the fourth-card bet still ahead,
    or with neither."""
    shoot = sol.shoot
    assert isinstance(shoot, ShootAnalysis)
    if hand.shoot_bet > 0:
        return shoot.full
    if not hand.from_split and len(hand.cards) < 3 and "before_fourth_card" in shoot.points:
        return shoot.open
    return sol.closed


def split_decision(sol: Solution, view: SeatView, hand: HandView, up: int | None, pair: int) -> bool:
    """Split (or resplit) under the Shoot policy. A box whose first hand carries the allowance was
    split by the plan for that state (one box per punter, as in the Shoot preset)."""
    shoot = sol.shoot
    assert isinstance(shoot, ShootAnalysis)
    riding = any(h.shoot_bet > 0 for h in view.own_hands)
    if hand.from_split:
        return (shoot.splits_full if riding else sol.splits)[(up, pair)].resplit
    if riding:
        return shoot.splits_full[(up, pair)].split
    if "before_fourth_card" in shoot.points:
        return shoot.splits_open[(up, pair)].split
    return sol.splits[(up, pair)].split


__all__ = ["ShootAnalysis", "analyse_shoot", "play_tables", "split_decision", "wants_bet"]
