"""What the equilibrium with Shoot bets (``equilibrium_game.shoot_equilibrium_rules``) says: how its banker
draws with a Shoot bet riding, and how often its punter bets at each point; and the pair played at the
engine beside the exact value.

The banker's drawing is read where the bet is the only thing that differs: facing a punter who stuck
on its two face-down cards (no buy, no twist), for each bet riding, the chance the banker draws on each
hard two-card total (its two-card hands of that total weighed by their chance as dealt).
"""

from __future__ import annotations

import numpy as np

from ...cards import best_total
from ...players.session import heads_up_results
from .cfr import Solver
from .equilibrium import Equilibrium, EquilibriumPlayer
from .equilibrium_game import BEFORE_DEAL, first_card_key
from .game_banker import JointChance
from .game_punter import HandKey, card_of
from .punter_tree import hand_counts
from ..space import NUM_VALUES

DRAW_TOTALS = tuple(range(12, 18))
"""The banker's hard two-card totals reported (it always draws below 12 and stands above 17 here)."""


def stuck_observation(stake: int, shoot_bet: int) -> tuple:
    """A punter box that stuck on its two face-down cards with ``shoot_bet`` riding."""
    return (HandKey((), hidden=2, stake=stake, original_stake=stake, shoot_bet=shoot_bet),)


def banker_draws_by_bet(eq: Equilibrium) -> dict[int, dict[str, object]]:
    """Bet riding -> the chance of a deal where the equilibrium punter stands so (on two face-down
    cards with that bet; the banker without a Pontoon), and the banker's chance of drawing on each
    hard two-card total there; only bets the equilibrium punter reaches (elsewhere the banker's
    strategy is CFR+'s untrained default, not a decision)."""
    game = eq.game
    space, stake = game.space, game.stake
    _, row_flow = Solver(game).flows(eq.profile.punter)
    live = slice(0, game.live)
    chance = row_flow[live] * (space.start @ JointChance.of(game.rules).chance(game.row_counts[live],
                                                                              space.levels[2].counts))
    meets = np.bincount(game.row_obs[live], weights=chance, minlength=len(game.observations))
    level = space.levels[2]
    out: dict[int, dict[str, object]] = {}
    for bet in sorted({h.shoot_bet for o in game.observations for h in o if isinstance(h, HandKey)}):
        column = eq._obs.get(stuck_observation(stake, bet))
        if column is None or meets[column] <= 0:
            continue
        draws: dict[int, float] = {}
        for total in DRAW_TOTALS:
            hands = [i for i, values in enumerate(level.values)
                     if best_total([card_of(v) for v in values]) == (total, False)]
            weight = space.start[hands]
            if weight.sum() > 0:  # a short pack may deal no two cards of this total
                draws[total] = float(weight @ eq.profile.banker[2][hands, column] / weight.sum())
        out[bet] = {"chance": float(meets[column]), "draws": draws}
    return out


def punter_bet_chances(eq: Equilibrium) -> dict[str, object]:
    """How the equilibrium punter bets: the chance it bets before the deal, and before the second card
    on each first card with nothing riding yet."""
    out: dict[str, object] = {}
    if BEFORE_DEAL in eq._info:
        out["before_deal"] = _bet_chance(eq, BEFORE_DEAL)
    second = {}
    for first in range(NUM_VALUES):
        key = first_card_key(first, 0)
        if key in eq._info and eq.rules.value_counts[first]:  # a value the pack holds
            second[first] = _bet_chance(eq, key)
    if second:
        out["before_second_card_by_first_value"] = second
    offered = _fourth_card_bets(eq)
    if offered is not None:
        out["before_fourth_card"] = offered
    return out


def _fourth_card_bets(eq: Equilibrium) -> dict[str, float] | None:
    """The chance of a deal in which the punter is offered the bet before its fourth card, and the
    chance it bets there given the offer (each offer state's chance: its lines' flow under the punter's
    strategy times the chance of its cards beside a banker start without a Pontoon, as a row's)."""
    game = eq.game
    offers = [i for i, key in enumerate(game.states) if key[-1] == "offer"]
    if not offers:
        return None
    sa_flow, _ = Solver(game).flows(eq.profile.punter)
    counts = np.array([hand_counts(game.states[i][0], game.states[i][3]) for i in offers], dtype=np.int64)
    chance = game.space.start @ JointChance.of(game.rules).chance(counts, game.space.levels[2].counts)
    at = {state: k for k, state in enumerate(offers)}
    met = betting = 0.0
    for sa, state in enumerate(game.sa_state.tolist()):
        k = at.get(state)
        if k is None:
            continue
        p = sa_flow[sa] * chance[k]
        met += p
        if game.ia_action[game.sa_ia[sa]].amount > 0:
            betting += p
    return {"offered": float(met), "bets_given_offered": float(betting / met) if met > 0 else 0.0}


def _bet_chance(eq: Equilibrium, key: tuple) -> float:
    return sum(p for action, p in eq.punter_actions(key).items() if action.amount > 0)


def engine_pair(eq: Equilibrium, deals: int, seed: int) -> tuple[float, float]:
    """The punter's mean net per unit stake and its standard error over ``deals`` engine deals of the
    equilibrium pair (:class:`EquilibriumPlayer`, each deal at a new table)."""
    player = EquilibriumPlayer(eq)
    results = heads_up_results(player, player, eq.rules, deals, seed)
    return float(results.mean()), float(results.std(ddof=1) / np.sqrt(deals))


__all__ = ["DRAW_TOTALS", "banker_draws_by_bet", "engine_pair", "punter_bet_chances", "stuck_observation"]
