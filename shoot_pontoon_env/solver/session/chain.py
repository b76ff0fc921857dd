"""The value of the bank: the Shoot as a Markov chain across the deals of a session, heads-up, exactly.

A bank is held from a Shoot of ``s`` chips for a session of at most ``deals`` deals. Each deal moves
the Shoot by the Shoot bets the punter loses (in) and wins (out), by the law of
``headsup.deal_law`` at the Shoot it starts with; chips that would lift the Shoot past a bank limit
(``shoot_cap``) go to the banker instead. The bank passes when a deal empties the Shoot; after every
other deal but the session's last the banker keeps it or sells it (for ``bank_sale_price``, taking its
Shoot back), as its own rule says at the new Shoot (after the last deal nobody is left to buy it). The banker's profit (its Shoot counted as its own chips) is summed until
the bank passes, is sold, or the session ends.

Why a session of a given length, not "until the bank passes": with the library's punters the
preset's bank never passes. ``tips`` bets the Shoot only before the deal and only once it holds ten
maximum stakes (100 chips), two chips at a time, so a Shoot under 100 never moves and one above
stops moving the first time it falls under 100; a banker who does not sell then holds the bank for
ever, its expected profit until the bank passes unbounded (docs/RULES.md, "The value of the bank").

Exact, with no truncation: the values are sums over every Shoot the session can reach, by backward
induction (:func:`bank_value`'s ``value``) and forward over the chances of each Shoot after each deal
(the chances of passing and selling at each deal); the two give the same value. Heads-up only: at more
seats the law of a deal is the joint law of every box against one banker hand, which this model does
not compute (the session Monte Carlo, ``sessions``, plays any table).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...actions import Action, ActionKind
from ...engine.view import SeatView
from ...players.policy import Policy
from ...rules import Rules
from .sessions import sells_at
from ..headsup.deal_law import DealLaws


@dataclass(frozen=True)
class BankValue:
    """The bank held from ``shoot`` chips for a session of at most ``deals`` deals."""

    shoot: int
    deals: int
    value: float
    """The banker's expected net chips over the session."""
    passed: tuple[float, ...]
    """``passed[t]``: the chance the bank passes (its Shoot emptied) in deal ``t + 1``."""
    sold: tuple[float, ...]
    """``sold[t]``: the chance the banker sells after deal ``t + 1``."""
    kept: float
    """The chance the banker still holds the bank when the session's deals are played."""
    expected_deals: float
    """The deals the banker expects to play."""
    forward_value: float
    """The value summed forward over each deal's Shoots: equal to ``value`` (a check of the two sums)."""
    states: int
    """The Shoots (chips) the session can reach."""
    seconds: float

    @property
    def pass_chance(self) -> float:
        return sum(self.passed)

    @property
    def sale_chance(self) -> float:
        return sum(self.sold)

    def to_dict(self) -> dict:
        return {"shoot": self.shoot, "deals": self.deals, "value": self.value, "pass_chance": self.pass_chance,
                "sale_chance": self.sale_chance, "kept_chance": self.kept, "expected_deals": self.expected_deals,
                "passes_by_deal": list(self.passed), "sales_by_deal": list(self.sold),
                "forward_value": self.forward_value, "states": self.states, "seconds": self.seconds}


class BankChain:
    """The chain of one (punter, banker) pair under ``rules``: its deal laws and the banker's sales,
    each computed once, shared by the values asked of it (``laws``: deal laws to share with another
    chain of the same pair's play, such as a :class:`ValueSeller`'s)."""

    def __init__(self, rules: Rules, punter: Policy, banker: Policy, laws: DealLaws | None = None) -> None:
        self.rules = rules
        self.laws = laws or DealLaws(rules, punter, banker)
        self.banker = banker
        self._sells: dict[int, bool] = {}

    def sells(self, shoot: int) -> bool:
        """Whether the banker sells a bank of ``shoot`` chips after a deal."""
        if shoot not in self._sells:
            self._sells[shoot] = sells_at(self.rules, self.banker, shoot)
        return self._sells[shoot]

    def after(self, shoot: int, move: int) -> int:
        """The Shoot after a deal that moved it by ``move`` chips (a bank limit keeps the excess out)."""
        cap = self.rules.shoot_cap
        return min(shoot + move, cap) if move > 0 and cap is not None else shoot + move

    def steps(self, shoot: int) -> list[tuple[int, float]]:
        """(Shoot after the deal, chance) of a deal at ``shoot``: 0 where the bank passes."""
        out: dict[int, float] = {}
        for move, chance in self.laws(shoot).moves.items():
            after = self.after(shoot, move)
            out[after] = out.get(after, 0.0) + chance
        return sorted(out.items())

    def value(self, shoot: int, deals: int) -> BankValue:
        """The bank held from ``shoot`` chips for at most ``deals`` deals, sold where the banker's rule says."""
        begin = time.perf_counter()
        price = float(self.rules.bank_sale_price)
        depth = self._reachable(shoot, deals, self.sells)
        value = self._backward(depth, deals, lambda after, later: price if self.sells(after) else later(after))
        passed, sold, alive, expected, forward = [], [], {shoot: 1.0}, 0.0, 0.0
        for deal in range(1, deals + 1):
            expected += sum(alive.values())
            gone = [0.0, 0.0]
            nxt: dict[int, float] = {}
            for s, p in alive.items():
                forward += p * self.laws(s).banker_gain
                for a, q in self.steps(s):
                    if a == 0:
                        gone[0] += p * q
                    elif deal < deals and self.sells(a):
                        gone[1] += p * q
                    else:
                        nxt[a] = nxt.get(a, 0.0) + p * q
            passed.append(gone[0])
            sold.append(gone[1])
            forward += price * gone[1]
            alive = nxt
        return BankValue(shoot, deals, value[shoot], tuple(passed), tuple(sold), sum(alive.values()), expected,
                         forward, len(depth), time.perf_counter() - begin)

    def keep_value(self, shoot: int, deals: int) -> float:
        """The bank's value to a banker who holds it from ``shoot`` chips for a session of ``deals`` more
        deals and sells it after any of them but the last where the price beats keeping it: the best sale
        rule for that session (every other rule is worth at most this)."""
        price = float(self.rules.bank_sale_price)
        depth = self._reachable(shoot, deals, lambda s: False)
        return self._backward(depth, deals, lambda after, later: max(price, later(after)))[shoot]

    def _backward(self, depth: dict[int, int], deals: int,
                  then: Callable[[int, Callable[[int], float]], float]) -> dict[int, float]:
        """The value with ``deals`` deals to play at each Shoot of depth 0, by backward induction:
        ``then(after, later)`` is the worth of a bank of ``after`` chips after a deal but the session's
        last, where keeping it is worth ``later(after)`` (a bank that passes is worth nothing, one held
        after the last deal nothing more than its Shoot, already counted)."""
        if min(depth) < 1 or deals < 1:
            raise ValueError(f"shoot = {min(depth)!r}, deals = {deals!r}: expected a Shoot of at least 1 chip and "
                             "at least one deal")
        values: dict[int, float] = {}
        for left in range(1, deals + 1):  # the value with ``left`` deals to play, where a Shoot can be met
            later = values.__getitem__
            values = {s: self.laws(s).banker_gain
                      + (sum(p * then(a, later) for a, p in self.steps(s) if a > 0) if left > 1 else 0.0)
                      for s, d in depth.items() if d <= deals - left}
        return values

    def _reachable(self, shoot: int, deals: int, stops: Callable[[int], bool]) -> dict[int, int]:
        """The deal (0-based) at which each Shoot the session plays from is first met (a Shoot where the
        bank ``stops`` is not played from)."""
        depth = {shoot: 0}
        frontier = [shoot] if shoot > 0 else []
        for d in range(1, deals):
            nxt = []
            for s in frontier:
                for a, _ in self.steps(s):
                    if a > 0 and a not in depth and not stops(a):
                        depth[a] = d
                        nxt.append(a)
            frontier = nxt
        return depth


@dataclass(repr=False)
class ValueSeller(Policy):
    """A banker who plays as ``base`` and sells the bank exactly when the price on offer (the rules'
    ``bank_sale_price``) beats the bank's value to it, valued as a session of ``look_ahead`` more deals
    with the best sales (:meth:`BankChain.keep_value`, against ``punter``), asked afresh at every
    decision (a rolling look-ahead; computed once per Shoot). It is the best sale rule of a session
    wherever ``look_ahead`` is the deals the session has left; a player's view does not say how many
    that is, so in a session of fixed length it sells a little less than the best rule would."""

    base: Policy
    punter: Policy
    look_ahead: int = 20
    laws: DealLaws | None = None
    """The deal laws of (``punter``, ``base``) to share, where the caller has them."""

    def __post_init__(self) -> None:
        self.name = f"value_seller({getattr(self.base, 'name', self.base)!s}, look_ahead={self.look_ahead})"
        self._chains: dict[Rules, BankChain] = {}
        self._values: dict[tuple[Rules, int], float] = {}

    def __repr__(self) -> str:
        return self.name

    def value_at(self, rules: Rules, shoot: int) -> float:
        """The bank's value to this banker at a Shoot of ``shoot`` chips."""
        if (rules, shoot) not in self._values:
            if rules not in self._chains:
                laws = self.laws if self.laws is not None and self.laws.rules == rules else None
                self._chains[rules] = BankChain(rules, self.punter, self.base, laws)
            self._values[rules, shoot] = self._chains[rules].keep_value(shoot, self.look_ahead)
        return self._values[rules, shoot]

    def bank(self, view: SeatView, rng: np.random.Generator) -> Action:
        sell = view.rules.bank_sale_price > self.value_at(view.rules, view.shoot)
        return Action(ActionKind.SELL_BANK if sell else ActionKind.KEEP_BANK)

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        if any(move.kind == ActionKind.KEEP_BANK for move in view.legal):
            return self.bank(view, rng)
        return self.base.act(view, rng)


def bank_value(rules: Rules, punter: Policy, banker: Policy, shoot: int, deals: int) -> BankValue:
    """The value of a heads-up bank held from ``shoot`` chips for at most ``deals`` deals."""
    return BankChain(rules, punter, banker).value(shoot, deals)


__all__ = ["BankChain", "BankValue", "ValueSeller", "bank_value"]
