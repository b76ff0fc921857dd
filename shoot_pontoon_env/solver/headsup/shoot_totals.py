"""Which Shoot-bet totals the punter's best response needs to consider, and why that is exact.

The banker sees the Shoot bet riding on the punter's hand (its total, not when it was placed), so
against a given banker the punter's payoff for a finished hand with ``T`` chips riding is linear in
``T`` wherever the banker's decisions do not change with ``T``: the totals ``0..initial_shoot`` fall
into pieces on which the banker decides alike (its *change points*: the totals at which some
decision differs from the one a chip lower). On a piece, the value of a hand with the future played
best is convex in ``T`` (sums and maxima of linear functions), and a bet raises the total from ``T``
to anything up to ``T`` plus the Shoot's room; so the best raise is to stay, to raise by the whole
room, or to end on an endpoint of a piece. With ``max_shoot_bet`` below the Shoot, an earlier point's
room ends where a later point's begins, so the pieces are cut also at each change point less a
multiple of ``max_shoot_bet`` (one per later betting point). :func:`bet_totals` gives every such
endpoint; offering those, the whole room and nothing at every point
(``punter_tree.PunterTree.raises``) makes the best response over them the best over every amount.

Change points (:func:`change_points`): none for a banker that draws on its own cards only; for
``ShootAwareBanker`` (as ``strategies`` plays it) the least total at or above its exposure fraction
of the Shoot; a custom banker declares them with a method ``shoot_bet_change_points(rules)``
returning the totals; any other banker (a trained one) is asked at every total
(:func:`probed_change_points`: the best response's cost times the Shoot's size, so a caller may
instead give the totals to consider, and then the response is the best over those).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...players.policy import Policy
from ...players.strategies import ShootAwareBanker
from ...rules import Rules
from ..dealer import own_cards_only
from .banker_views import Decisions
from .game_punter import HandKey, Observation, is_split_observation, split_observation

ObservationDraws = Callable[[list[Observation], np.ndarray], Decisions]
"""Given observations and which of them have a live hand, the banker's draws (``best_punter``)."""


def change_points(banker: Policy, rules: Rules) -> tuple[int, ...] | None:
    """The totals at which ``banker``'s decisions may change (see the module doc), or None where it is
    not known (ask :func:`probed_change_points`)."""
    if own_cards_only(banker):
        return ()
    declared = getattr(banker, "shoot_bet_change_points", None)
    if callable(declared):
        return tuple(sorted({int(t) for t in declared(rules)}))
    kind = type(banker)
    if isinstance(banker, ShootAwareBanker) and kind.act is Policy.act and kind.banker_play is ShootAwareBanker.banker_play:
        # it stands on ``cautious_stand_on`` once the bets at risk reach the fraction of the Shoot
        return (max(math.ceil(banker.exposure_fraction * rules.initial_shoot), 0),)
    return None


def bet_totals(rules: Rules, changes: tuple[int, ...]) -> tuple[int, ...]:
    """Every total the best response needs to consider given the banker's change points: the
    endpoints of the pieces (see the module doc), within ``0..initial_shoot``."""
    shoot = rules.initial_shoot
    cuts = {0, shoot + 1} | {c for c in changes if 0 < c <= shoot}
    step = rules.max_shoot_bet
    if step is not None and step < shoot:
        later = max(len(rules.shoot_bet_points) - 1, 0)
        cuts |= {c - k * step for c in list(cuts) for k in range(1, later + 1) if c - k * step > 0}
    return tuple(sorted({t for c in cuts for t in (c - 1, c) if 0 <= t <= shoot}))


def with_shoot_bet(observation: Observation, total: int) -> Observation:
    """``observation`` with ``total`` chips of Shoot bet riding on the punter's box (a plain hand's,
    or a split box's first hand's)."""
    if is_split_observation(observation):
        return split_observation(observation[0][1], total)
    return tuple(HandKey(*key)._replace(shoot_bet=total) for key in observation)


def probed_change_points(rules: Rules, draws_for: ObservationDraws, observations: list[Observation],
                         live: np.ndarray) -> tuple[int, ...]:
    """The totals at which the banker's decisions facing any of the live ``observations`` (of a box
    with no Shoot bet) differ from those a chip lower: the banker asked at every total."""
    keep = [o for o, alive in zip(observations, live) if alive]
    changes, last = [], None
    for total in range(rules.initial_shoot + 1):
        draws = draws_for([with_shoot_bet(o, total) for o in keep], np.ones(len(keep), dtype=bool))
        if last is not None and any(not np.array_equal(draws[m], last[m]) for m in draws):
            changes.append(total)
        last = draws
    return tuple(changes)


__all__ = ["bet_totals", "change_points", "probed_change_points", "with_shoot_bet"]
