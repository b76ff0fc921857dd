"""Monte Carlo of the engine playing the solver's policy: the check of the solver's values.

A table of two seats: the banker (the solved free-banker strategy, or the dealer rule) and one
:class:`OptimalPunter` staking ``base_stake``. Each deal's result is the punter's net chips over
``base_stake``, so its mean estimates the expected return per unit of initial stake.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np

from ..engine import Table
from ..rules import Rules, get_rules
from ..players.session import play_deal
from ..players.policy import Policy
from ..players.strategies import StandOnBanker
from .player import OptimalPunter
from .solution import Solution
from .solve import solve


@dataclass(frozen=True)
class Estimate:
    hands: int
    mean: float
    std_error: float
    seconds: float

    def z(self, value: float) -> float:
        """(mean - value) in standard errors."""
        return (self.mean - value) / self.std_error if self.std_error > 0 else 0.0


def forced_start(values: tuple[int, int], up: int | None, rules: Rules) -> Callable[[np.random.Generator], list[int]]:
    """A shoe order maker that deals the punter two cards of the given value indices (and the
    banker the up card): each forced card is drawn uniformly from the cards of its value, the rest
    of the shoe is shuffled (the engine deals punter, banker, punter, banker)."""

    def make(rng: np.random.Generator) -> list[int]:
        shoe = list(rules.pack_cards) * rules.num_decks
        front: list[int | None] = []
        for value in (values[0], up, values[1]):
            if value is None:
                front.append(None)
                continue
            matching = [i for i, c in enumerate(shoe) if min(c // 4, 9) == value]
            if not matching:
                raise ValueError(f"forced start: the {rules.pack} pack has no card of value index {value}")
            front.append(shoe.pop(matching[int(rng.integers(len(matching)))]))
        rest = [int(c) for c in rng.permutation(shoe)]
        return [int(c) if c is not None else rest.pop() for c in front] + rest

    return make


def play_hands(solution: Solution, hands: int, seed: int, *, shoot_bets: bool = False,
               stacker: Callable[[np.random.Generator], list[int]] | None = None) -> np.ndarray:
    """Per-deal results (punter's net chips / base stake) of ``hands`` deals."""
    rules = solution.rules
    rng = np.random.default_rng(seed)
    table = Table(rules, 2, rng=np.random.default_rng(rng.integers(2**63)), starting_chips=0)
    banker: Policy = solution.banker_strategy or StandOnBanker()
    players = [banker, OptimalPunter(solution, shoot_bets=shoot_bets)]
    out = np.empty(hands)
    for i in range(hands):
        table.start_deal(stacker(rng) if stacker is not None else None)
        play_deal(table, players, rng)
        out[i] = sum(h.result for h in table.hands if h.seat == 1) / rules.base_stake
    return out


def _worker(args: tuple) -> tuple[float, float, int]:
    rules, banker, ratio, hands, seed, start = args
    sol = solve(rules, banker=banker, shoot_ratio=ratio)
    stacker = forced_start(start[0], start[1], rules) if start is not None else None
    res = play_hands(sol, hands, seed, shoot_bets=ratio is not None, stacker=stacker)
    return float(res.sum()), float((res ** 2).sum()), hands


def estimate(rules: Rules | str, hands: int, *, seed: int = 0, workers: int = 1,
             banker: Policy | None = None, shoot_ratio: float | None = None,
             start: tuple[tuple[int, int], int | None] | None = None) -> Estimate:
    """Mean and standard error over ``hands`` deals, split over ``workers`` processes with
    independent seeds. ``shoot_ratio``: play the optimal Shoot bets of that allowance.
    ``start``: ((value, value), up) deals every hand that start (value indices)."""
    import time

    rules = get_rules(rules)
    begin = time.perf_counter()
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(workers)]
    shares = [hands // workers + (i < hands % workers) for i in range(workers)]
    jobs = [(rules, banker, shoot_ratio, n, s, start) for n, s in zip(shares, seeds)]
    if workers == 1:
        parts = [_worker(jobs[0])]
    else:
        with get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_worker, jobs)
    total = sum(p[0] for p in parts)
    squares = sum(p[1] for p in parts)
    mean = total / hands
    var = max(squares / hands - mean * mean, 0.0) * hands / max(hands - 1, 1)
    return Estimate(hands, mean, float(np.sqrt(var / hands)), time.perf_counter() - begin)
