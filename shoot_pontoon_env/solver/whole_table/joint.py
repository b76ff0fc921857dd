"""The punters' boxes of a whole table as one: the rows of every box the banker may be facing.

Each punter's box is played as heads-up (``headsup.game_punter``: rows ``(O, K, W)`` with the policy's
chance of the plays, ``mass``). At a table the boxes draw from one shoe, but the chance of a whole deal
still depends only on the multiset of values dealt (``game_banker.JointChance``), and a box's plays
depend on its own cards only, so the rows of a table facing observations ``(O_1, ..., O_k)`` are the
products of the boxes' rows: value counts ``K = sum_i K_i``, chance of the plays ``M = prod_i M_i`` and
the punters' net chips ``W = sum_i W_i prod_{j != i} M_j`` by banker outcome. Rows of equal ``K`` are
summed as they are built, box by box.

Exact for punters whose plays depend on their own box (every rule-based punter; a policy reading other
boxes' face-up cards, or a Shoot whose room runs out across the boxes, is played as if alone), with one
approximation: where a split's legality depends on the ranks of two ten-value cards (``split_match =
"rank"``), each box's chance of a same-rank pair is taken from its own cards, so two boxes' rank events
are treated as independent (the chance that two boxes both split tens is 4% low at four seats; the
values it changes are far below the sampling error). Split boxes are observed as their hands
(``punter_rows(..., split_detail=True)``).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ..headsup.game_punter import Observation, PunterRows
from ..space import NUM_VALUES



@dataclass(frozen=True)
class Rows:
    """Rows of boxes facing given observations, one per multiset of values."""

    counts: np.ndarray
    """(n, 10) int: the value counts of every card in the boxes."""
    payoff: np.ndarray
    """(n, NUM_OUTCOMES): the punters' net chips summed over the boxes, by banker outcome, times ``mass``."""
    mass: np.ndarray
    """(n,): the punters' chance of their plays, summed over card orders."""


class BoxRows:
    """One punter's rows grouped by the observation the banker sees of its box, in chips."""

    def __init__(self, rows: PunterRows) -> None:
        if rows.mass is None:
            raise ValueError("the punter's rows carry no chance of their plays (merged rows): play the policy again")
        self.rows = rows
        starts = np.searchsorted(rows.obs_index, np.arange(len(rows.observations) + 1))
        self._slices = {o: slice(int(starts[i]), int(starts[i + 1])) for i, o in enumerate(rows.observations)}
        self._chips = rows.payoff * rows.stake

    def reaches(self, observation: Observation) -> bool:
        """Whether the punter's policy, played on its own box, can show ``observation``."""
        return observation in self._slices

    def facing(self, observation: Observation) -> Rows:
        """The rows of this box showing ``observation`` (KeyError for one its policy never reaches)."""
        at = self._slices[observation]
        counts = self.rows.counts[at]
        return Rows(counts, self._chips[at], self.rows.mass[at])


def combine(a: Rows, b: Rows, full: np.ndarray) -> Rows:
    """The rows of two boxes dealt from one shoe (``full``: the shoe's value counts), summed by value
    counts; pairs the shoe cannot deal are dropped."""
    counts = (a.counts[:, None, :] + b.counts[None, :, :]).reshape(-1, NUM_VALUES)
    mass = (a.mass[:, None] * b.mass[None, :]).ravel()
    payoff = (a.payoff[:, None, :] * b.mass[None, :, None] + a.mass[:, None, None] * b.payoff[None, :, :])
    payoff = payoff.reshape(len(mass), -1)
    dealt = (counts <= full).all(axis=1)
    counts, mass, payoff = counts[dealt], mass[dealt], payoff[dealt]
    radix = np.concatenate([[1], np.cumprod(full[:-1] + 1)]).astype(np.int64)  # a dealt count is at most full
    keys, first, inverse = np.unique(counts @ radix, return_index=True, return_inverse=True)
    if len(keys) == len(mass):
        return Rows(counts, payoff, mass)
    summed_payoff = np.zeros((len(keys), payoff.shape[1]))
    np.add.at(summed_payoff, inverse, payoff)
    return Rows(counts[first], summed_payoff, np.bincount(inverse, weights=mass, minlength=len(keys)))


class TableRows:
    """The rows of a table's punters facing each joint observation, kept for the most recent ones."""

    def __init__(self, boxes: list[PunterRows], full: np.ndarray, keep: int = 16) -> None:
        shared = {id(rows): BoxRows(rows) for rows in boxes}  # one punter's rows at several seats, grouped once
        self.boxes = [shared[id(rows)] for rows in boxes]
        self.full = full
        self.keep = keep
        self._cache: OrderedDict[tuple[Observation, ...], Rows] = OrderedDict()

    def reaches(self, observations: tuple[Observation, ...]) -> bool:
        """Whether every box's observation is one its punter's policy can show, played on its own box (a
        punter that reads the other boxes may show others)."""
        return all(box.reaches(o) for box, o in zip(self.boxes, observations))

    def facing(self, observations: tuple[Observation, ...]) -> Rows:
        """The table's rows facing one observation per box (in the boxes' order)."""
        if len(observations) != len(self.boxes):
            raise ValueError(f"{len(observations)} observations for a table of {len(self.boxes)} punter boxes")
        hit = self._cache.get(observations)
        if hit is not None:
            self._cache.move_to_end(observations)
            return hit
        parts = sorted((box.facing(o) for box, o in zip(self.boxes, observations)), key=lambda r: len(r.mass))
        rows = parts[0]
        for part in parts[1:]:
            rows = combine(rows, part, self.full)
        self._cache[observations] = rows
        if len(self._cache) > self.keep:
            self._cache.popitem(last=False)
        return rows
