"""The banker's exact best response to a punter policy, and the exact value of any banker policy.

Heads-up, the banker moves last and sees the punter's box as an observation ``O``
(``game_punter``). At a banker hand ``b`` (a multiset, ``game_banker``) facing ``O`` it sticks or
draws to minimise the punter's expected net. Every row ``r`` of ``O`` (punter value counts ``K_r``,
payoff row ``W_r``) contributes ``stick_r(b) = chance(K_r, b) * W_r[outcome(b)]`` where the banker
stands on ``b``; the banker's choice is one for all rows of ``O``, so with
``S_O(b) = sum_r stick_r(b)``

    A_O(b) = min(S_O(b), sum_v A_O(b + v))     (the given choice, for a fixed policy)

is the punter's net from ``b`` on, times the joint chance of reaching ``(b, O)``; the value is
``sum_O sum_b start(b) A_O(b)`` plus the deals a banker's Pontoon settles at the peek.

Exact on the preset's finite shoe for a banker whose choice depends on its cards' values (not their
order, not the ranks of its ten-value cards) and on ``O``, with the approximations of split boxes
that ``game_punter`` states (one observation for every split box of a stake and Shoot bet, no
resplits).

The banker's decisions when it is a given player (rule-based or trained), and the views it is asked
through: ``banker_views``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ...actions import Action, ActionKind
from ...engine.view import SeatView
from ...players.policy import Policy
from .banker_views import (
    Decisions,
)
from .game_banker import BankerSpace, JointChance, banker_space
from .game_punter import Observation, PunterRows, observation_of, value_index

ROW_BATCH = 2000
"""Rows per chunk of the chances (memory: a few arrays of (hands of a level, rows))."""


@dataclass
class BankerResult:
    """A banker policy against a punter policy: the punter's value and the banker's decisions."""

    value: float
    """The punter's expected net chips per unit of initial stake."""
    draws: Decisions
    rows: PunterRows
    space: BankerSpace
    seconds: float

    def obs_id(self, observation: Observation) -> int:
        """The index of an observation (KeyError for one the punter policy never reaches)."""
        if not hasattr(self, "_ids"):
            self._ids = {o: i for i, o in enumerate(self.rows.observations)}
        return self._ids[observation]


def evaluate(rows: PunterRows, space: BankerSpace | None = None, draws: Decisions | None = None,
             joint: JointChance | None = None) -> BankerResult:
    """The best response when ``draws`` is None, else the value of ``draws`` (bool decisions, or a
    mixed banker's chances of drawing as floats; ``draws`` of the result then marks any chance).

    The banker's choice at (b, O) is one for every row of ``O``, so only the sums over the rows
    matter: with ``S_O(b) = sum_{r in O} stick_r(b)``, ``A_O(b) = min(S_O(b), sum_v A_O(b + v))``
    (or the given choice). The sums are built in chunks of rows; the recursion runs on them.
    Rows whose payoff is the same against every banker outcome (a bust box) are summed directly: the
    banker's lines of play from a start add up to the start's chance whatever it decides."""
    begin = time.perf_counter()
    space = space or banker_space(rows.rules)
    joint = joint or JointChance.of(rows.rules)
    n_obs = len(rows.observations)
    best = draws is None
    out: Decisions = {m: np.zeros((len(lv.values), n_obs), dtype=bool) for m, lv in space.levels.items()}
    flat = np.ptp(rows.payoff, axis=1) == 0
    start_level = space.levels[2]
    total = float(space.start @ (joint.chance(rows.counts[flat], start_level.counts)
                                 * rows.payoff[flat, 0]).sum(axis=1))
    keep = np.nonzero(~flat)[0]
    obs_all = rows.obs_index[keep]
    starts = np.searchsorted(obs_all, np.arange(n_obs + 1))
    parents = parent_hands(space)
    lo = 0
    while lo < n_obs:
        hi = int(np.searchsorted(starts, starts[lo] + ROW_BATCH, side="right")) - 1
        hi = min(max(hi, lo + 1), n_obs)
        sums = {m: np.zeros((len(lv.values), hi - lo)) for m, lv in space.levels.items()}
        for r0 in range(int(starts[lo]), int(starts[hi]), ROW_BATCH):
            r1 = min(r0 + ROW_BATCH, int(starts[hi]))
            _add_stick_sums(sums, rows, keep[r0:r1], obs_all[r0:r1] - lo, space, joint, parents)
        settled = rows.all_settled[lo:hi]
        a_next: np.ndarray | None = None
        for m in sorted(space.levels, reverse=True):
            lv = space.levels[m]
            stick = sums[m]
            if a_next is None or not lv.can_draw.any():
                a = stick
            else:
                pad = np.vstack([a_next, np.zeros((1, hi - lo))])
                draw = pad[lv.child].sum(axis=1)
                if best:
                    twist = lv.can_draw[:, None] & (draw < stick) & ~settled[None, :]
                elif draws[m].dtype != bool:  # a mixed banker: the chance it draws
                    share = draws[m][:, lo:hi] * lv.can_draw[:, None]
                    out[m][:, lo:hi] = share > 0
                    a = stick + share * (draw - stick)
                    a_next = a
                    continue
                else:
                    twist = draws[m][:, lo:hi] & lv.can_draw[:, None]
                out[m][:, lo:hi] = twist
                a = np.where(twist, draw, stick)
            a_next = a
        assert a_next is not None
        total += float(space.start @ a_next.sum(axis=1))
        lo = hi
    peek = joint.chance(rows.peek_counts, space.pontoon_start[None, :])[0]
    total += float(space.pontoon_orders * (peek @ rows.peek_payoff))
    return BankerResult(total, out, rows, space, time.perf_counter() - begin)


def _add_stick_sums(sums: dict[int, np.ndarray], rows: PunterRows, take: np.ndarray, obs: np.ndarray,
                    space: BankerSpace, joint: JointChance, parents: dict[int, tuple[np.ndarray, np.ndarray]]
                    ) -> None:
    """Add ``sum_r chance(K_r, b) W_r[outcome(b)]`` of rows ``take`` (of local observations ``obs``,
    ascending) to ``sums``. Chances level by level: one more card of value v multiplies the chance
    by (cards of v left) / (cards left)."""
    counts, payoff = rows.counts[take], rows.payoff[take]
    present, seg = np.unique(obs, return_index=True)
    for m, chance in banker_hand_chances(counts, space, joint, parents):
        stick = chance * payoff[:, space.levels[m].outcome].T
        sums[m][:, present] += np.add.reduceat(stick, seg, axis=1)


def banker_hand_chances(counts: np.ndarray, space: BankerSpace, joint: JointChance,
                        parents: dict[int, tuple[np.ndarray, np.ndarray]]
                        ) -> Iterator[tuple[int, np.ndarray]]:
    """(level m, (n_m, R) the chance of each banker hand of m cards joint with each punter hand of
    value ``counts`` (R, NUM_VALUES)), level by level: one more card of value v multiplies the chance
    by (cards of v left) / (cards left)."""
    held = counts.sum(axis=1)
    full = joint.full
    chance = joint.chance(counts, space.levels[2].counts)
    for m in sorted(space.levels):
        if m > 2:
            parent, value = parents[m]
            b_v = space.levels[m - 1].counts[parent, value]
            left = np.maximum(full[value][:, None] - counts[:, value].T - b_v[:, None], 0)
            chance = chance[parent] * left / (full.sum() - held - (m - 1))[None, :]
        yield m, chance


def parent_hands(space: BankerSpace) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For each hand of level m > 2, one hand of level m - 1 and the value that leads to it."""
    out = {}
    for m in sorted(space.levels)[1:]:
        lower = space.levels[m - 1]
        n = len(space.levels[m].values)
        parent = np.full(n, -1, dtype=np.int64)
        value = np.zeros(n, dtype=np.int64)
        for i in range(len(lower.values)):
            for v in range(lower.child.shape[1]):
                j = lower.child[i, v]
                if j >= 0 and parent[j] < 0:
                    parent[j], value[j] = i, v
        out[m] = (parent, value)
    return out


class ResponseBanker(Policy):
    """A banker that plays given decisions (a best response) at an engine table, heads-up: it reads
    its own cards and the punter's hands from its :class:`SeatView`."""

    name = "best_response_banker"

    def __init__(self, result: BankerResult) -> None:
        self.result = result

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        values = tuple(value_index(c) for c in view.banker_cards)
        m, i = self.result.space.index(values)
        observation = observation_of(view.hands)
        try:
            o = self.result.obs_id(observation)
        except KeyError:
            raise ValueError(f"{self.name}: the punter's box {observation} is not one the punter policy of "
                             "this best response can reach (another punter, other rules?)") from None
        draw = bool(self.result.draws[m][i, o])
        if draw and any(move.kind == ActionKind.TWIST for move in view.legal):
            return Action(ActionKind.TWIST)
        return Action(ActionKind.STICK)

