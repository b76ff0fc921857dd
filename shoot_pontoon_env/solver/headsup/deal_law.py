"""One heads-up deal at a Shoot of ``s``, exactly: how far the Shoot moves and what the banker expects.

The step of the session's chain (``solver/session/chain.py``). For a fixed punter and banker the deal's
chance law is the heads-up game's (``game_punter``, ``best_banker.evaluate``) with ``s`` chips in the
Shoot: the model's views show that Shoot (the rules, the posted ``initial_shoot`` among them, are the
table's), and the punter's Shoot bets are limited by it. Every other part of a view is as at a new
table (``game_punter``'s module doc: a player that reads its balance sees a fresh table's). The Shoot moves only by Shoot bets: a box's bet (of ``b`` chips in
all) that the punter wins leaves the Shoot ``b`` poorer, one it loses makes it ``b`` richer. Each
chance ``P(bet b, result)`` is the value of the same rows with an indicator for a payoff
(``game_punter.ShootOutcome``), under the same banker decisions, so it is exact as the pair's value
is: within the heads-up model's classes (``game_punter``'s module doc: at most two hands a box, each
split hand played on its own cards).

Deals whose rows and banker decisions are equal have equal laws: a law is computed once per such
class (:class:`DealLaws`), which is what makes a chain over hundreds of Shoots affordable.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from dataclasses import dataclass

import numpy as np

from ...players.policy import Policy
from ...rules import Rules
from ..dealer import NUM_OUTCOMES
from .banker_views import strategy_draws
from .best_banker import evaluate
from .best_response import Progress
from .game_banker import banker_space
from .game_punter import (PunterPolicy, PunterRows, ShootOutcome, check_rules, is_split_observation, punter_rows,
                          strategy_policy)


@dataclass(frozen=True)
class DealLaw:
    """One deal at a Shoot of ``shoot`` chips."""

    shoot: int
    banker_gain: float
    """The banker's expected net chips (its Shoot counted as its own)."""
    moves: dict[int, float]
    """Chance of each change of the Shoot in chips (the bets won and lost, before any bank limit); the
    chances sum to 1."""


def box_bet(observation: tuple) -> int:
    """The chips a box of this observation has bet on the Shoot (a split box: its first hand's)."""
    if is_split_observation(observation):
        return int(observation[0][2])
    return int(sum(hand.shoot_bet for hand in observation))


def check_law_rules(rules: Rules) -> None:
    """Refuse, naming them, the rules whose Shoot moves in ways the law does not follow."""
    check_rules(rules)
    if not rules.shoot:
        raise NotImplementedError(f"rules {rules.name!r} have no Shoot: there is no bank to value")
    if rules.progressive_shoot_chips:
        raise NotImplementedError(f"rules {rules.name!r}: progressive_shoot_chips must be 0 (the exact law follows "
                                  "the Shoot bets only; the session Monte Carlo plays it)")


class DealLaws:
    """The law of a deal at each Shoot for one (punter, banker) pair, computed once per class of equal
    deals (equal rows and banker decisions)."""

    def __init__(self, rules: Rules, punter: Policy | PunterPolicy, banker: Policy,
                 progress: Progress | None = None) -> None:
        check_law_rules(rules)
        self.progress = progress
        """Reports, every ``progress.every_s`` seconds, how many laws and classes are done (a command line's)."""
        self.rules = rules
        self.policy = strategy_policy(punter) if isinstance(punter, Policy) else punter
        self.banker = banker
        self.space = banker_space(rules)
        self._laws: dict[int, DealLaw] = {}
        self._classes: dict[str, tuple[float, dict[int, float]]] = {}
        """Each class's (banker's gain, Shoot moves), by the digest of its rows and banker decisions."""
        self.seconds = 0.0

    @property
    def shoots(self) -> set[int]:
        """The Shoots whose law is computed."""
        return set(self._laws)

    @property
    def classes(self) -> int:
        """How many distinct classes of deals the laws asked so far fall into."""
        return len(self._classes)

    def __call__(self, shoot: int) -> DealLaw:
        if shoot not in self._laws:
            begin = time.perf_counter()
            self._laws[shoot] = self._law(shoot)
            self.seconds += time.perf_counter() - begin
            progress = self.progress
            if progress is not None and progress.clock() - progress.last >= progress.every_s:
                progress.last = progress.clock()
                progress.say(f"{progress.what}: the deal's law at {len(self._laws):,} Shoots, {self.classes} "
                             "classes of deal")
        return self._laws[shoot]

    def compute(self, shoots: list[int], workers: int = 1) -> None:
        """The laws of ``shoots`` at once, in ``workers`` forked processes (each holds a copy of the
        players, so nothing is pickled but the laws): a chain over many Shoots of a trained pair, whose
        every law asks its networks a million questions, in a fraction of the time."""
        todo = sorted({int(s) for s in shoots} - set(self._laws))
        if workers <= 1 or len(todo) <= 1:
            for shoot in todo:
                self(shoot)
            return
        import multiprocessing

        global _FORKED
        begin = time.perf_counter()
        _FORKED = self
        try:
            with multiprocessing.get_context("fork").Pool(min(workers, len(todo))) as pool:
                found = pool.map(_forked_law, todo, chunksize=1)
        finally:
            _FORKED = None
        for law, key, cls in found:
            self._laws[law.shoot] = law
            self._classes.setdefault(key, cls)
        self.seconds += time.perf_counter() - begin

    def _law(self, shoot: int) -> DealLaw:
        return self._keyed_law(shoot)[0]

    def _keyed_law(self, shoot: int) -> tuple[DealLaw, str, tuple[float, dict[int, float]]]:
        rows = punter_rows(self.rules, self.policy, shoot=shoot)
        space = self.space
        draws = strategy_draws(self.banker, rows, space)
        key = _fingerprint(rows, draws)
        if key not in self._classes:
            gain = -evaluate(rows, space, draws).value * rows.stake
            self._classes[key] = (gain, self._shoot_moves(rows, space, draws))
        gain, moves = self._classes[key]
        return DealLaw(shoot, gain, moves), key, self._classes[key]

    def _shoot_moves(self, rows: PunterRows, space, draws) -> dict[int, float]:
        outcomes = tuple(ShootOutcome(result, bet) for bet in sorted({box_bet(o) for o in rows.observations} - {0})
                         for result in (1, -1))
        if not outcomes:
            return {0: 1.0}
        indicators = punter_rows(self.rules, self.policy, outcomes, rows.shoot)
        if not (np.array_equal(indicators.counts, rows.counts) and np.array_equal(indicators.obs_index, rows.obs_index)):
            raise AssertionError("the indicator rows differ from the chip rows: the punter policy is not a fixed "
                                 "function of its view")
        moves: dict[int, float] = {}
        for i, outcome in enumerate(outcomes):
            columns = slice(i * NUM_OUTCOMES, (i + 1) * NUM_OUTCOMES)
            one = dataclasses.replace(indicators, payoff=indicators.payoff[:, columns],
                                      peek_payoff=indicators.peek_payoff[:, i])
            chance = evaluate(one, space, draws).value
            if chance > 0:
                move = -outcome.result * outcome.bet
                moves[move] = moves.get(move, 0.0) + chance
        rest = 1.0 - sum(moves.values())
        if rest > 1e-12:  # below that, rounding of chances that sum to 1
            moves[0] = rest
        return dict(sorted(moves.items()))


_FORKED: DealLaws | None = None
"""The laws a forked worker of :meth:`DealLaws.compute` computes for (set before the fork)."""


def _forked_law(shoot: int) -> tuple[DealLaw, str, tuple[float, dict[int, float]]]:
    assert _FORKED is not None
    return _FORKED._keyed_law(shoot)


def _fingerprint(rows: PunterRows, draws) -> str:
    """A digest of everything a deal's law depends on: the rows (observations with their bets, cards,
    payoffs) and the banker's decisions."""
    digest = hashlib.sha256(repr(rows.observations).encode())
    for array in (rows.obs_index, rows.counts, rows.payoff, rows.peek_payoff, rows.all_settled):
        digest.update(np.ascontiguousarray(array).tobytes())
    for level in sorted(draws):
        digest.update(np.ascontiguousarray(draws[level]).tobytes())
    return digest.hexdigest()


def deal_law(rules: Rules, punter: Policy | PunterPolicy, banker: Policy, shoot: int) -> DealLaw:
    """The law of one heads-up deal of ``punter`` against ``banker`` at a Shoot of ``shoot`` chips."""
    return DealLaws(rules, punter, banker)(shoot)


__all__ = ["DealLaw", "DealLaws", "box_bet", "check_law_rules", "deal_law"]
