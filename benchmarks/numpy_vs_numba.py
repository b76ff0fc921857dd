"""The measurement that chose numba for the batched engine: one small Pontoon game written twice, as
NumPy operations over N tables and as a numba loop over the same arrays, timed side by side.

Run: ``.venv/bin/python benchmarks/numpy_vs_numba.py [--tables 4096]``

The probe game is the smallest piece of the real one: heads-up against a dealer, infinite deck, the
punter sticks on 17 or more (one decision per step), the dealer draws to 17, five cards stop both,
the banker wins ties. A step takes every table's decision, deals, and for tables whose hand ended
plays the dealer, settles and deals a new hand. The real game (as both engines play it) adds stakes,
Shoot bets, buys, splits, several seats, bank turnover and an observation of ~550 values per
decision, each of them more branching per table; the NumPy form pays a fixed cost per operation and
per branch (a masked sub-batch each), which is why the ratio below only grows with the real game.
Results are in ``docs/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

VALUES = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], dtype=np.int64)


def best(hard: np.ndarray, ace: np.ndarray) -> np.ndarray:
    return np.where(ace & (hard + 10 <= 21), hard + 10, hard)


class NumpyTables:
    """The probe game as NumPy operations over every table."""

    def __init__(self, n: int, rng: np.random.Generator) -> None:
        self.rng = rng
        self.hard = np.zeros(n, np.int64)
        self.ace = np.zeros(n, bool)
        self.cards = np.zeros(n, np.int64)
        self.deal(np.ones(n, bool))

    def card(self, k: int) -> np.ndarray:
        return VALUES[self.rng.integers(0, 13, size=k)]

    def deal(self, rows: np.ndarray) -> None:
        k = int(rows.sum())
        a, b = self.card(k), self.card(k)
        self.hard[rows] = a + b
        self.ace[rows] = (a == 1) | (b == 1)
        self.cards[rows] = 2

    def step(self) -> float:
        total = best(self.hard, self.ace)
        twist = total < 17
        drawn = self.card(int(twist.sum()))
        self.hard[twist] += drawn
        self.ace[twist] |= drawn == 1
        self.cards[twist] += 1
        total = best(self.hard, self.ace)
        over = ~twist | (total > 21) | (self.cards >= 5)
        rows = np.flatnonzero(over)
        dealer_hard = self.card(len(rows)) + self.card(len(rows))
        dealer_ace = np.zeros(len(rows), bool)
        dealer_cards = np.full(len(rows), 2)
        while True:
            dealer = best(dealer_hard, dealer_ace)
            draw = (dealer < 17) & (dealer_cards < 5) & (total[rows] <= 21)
            if not draw.any():
                break
            more = self.card(int(draw.sum()))
            dealer_hard[draw] += more
            dealer_ace[draw] |= more == 1
            dealer_cards[draw] += 1
        dealer = best(dealer_hard, dealer_ace)
        mine = total[rows]
        win = (mine <= 21) & ((dealer > 21) | (mine > dealer))
        result = float(np.where(win, 1.0, -1.0).sum())
        self.deal(over)
        return result


@njit(cache=True)
def _best(hard, ace):
    return hard + 10 if ace and hard + 10 <= 21 else hard


@njit(cache=True)
def numba_step(hard, ace, cards, rng):
    """The same step, table after table."""
    result = 0.0
    for i in range(hard.shape[0]):
        total = _best(hard[i], ace[i])
        if total < 17:
            v = min(int(rng.random() * 13) + 1, 10)
            hard[i] += v
            ace[i] |= v == 1
            cards[i] += 1
            total = _best(hard[i], ace[i])
            if total <= 21 and cards[i] < 5:
                continue
        dh = min(int(rng.random() * 13) + 1, 10) + min(int(rng.random() * 13) + 1, 10)
        da = False
        dn = 2
        while total <= 21 and _best(dh, da) < 17 and dn < 5:
            v = min(int(rng.random() * 13) + 1, 10)
            dh += v
            da |= v == 1
            dn += 1
        dealer = _best(dh, da)
        result += 1.0 if total <= 21 and (dealer > 21 or total > dealer) else -1.0
        a = min(int(rng.random() * 13) + 1, 10)
        b = min(int(rng.random() * 13) + 1, 10)
        hard[i] = a + b
        ace[i] = a == 1 or b == 1
        cards[i] = 2
    return result


def rate(step, n: int, steps: int) -> float:
    step()  # compile / warm up
    start = time.process_time()
    for _ in range(steps):
        step()
    return n * steps / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args(argv)
    n = args.tables
    tables = NumpyTables(n, np.random.default_rng(0))
    numpy_rate = rate(tables.step, n, args.steps)
    hard, ace, cards = np.full(n, 10, np.int64), np.zeros(n, bool), np.full(n, 2, np.int64)
    rng = np.random.default_rng(0)
    numba_rate = rate(lambda: numba_step(hard, ace, cards, rng), n, args.steps)
    print(f"probe game, {n} tables, decisions per second of CPU:")
    print(f"  numpy: {numpy_rate:>14,.0f}")
    print(f"  numba: {numba_rate:>14,.0f}   ({numba_rate / numpy_rate:.1f}x numpy)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
