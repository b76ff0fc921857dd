"""Sessions at the engine: a bank held from a Shoot of ``s`` chips, deal after deal, until it passes, is
sold or the session's deals are played. The Monte Carlo beside the chain of ``chain``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...engine import Phase, Table
from ...engine.view import SeatView, seat_view
from ...actions import KEEP_BANK, SELL_BANK, LegalMove, ActionKind
from ...players.policy import Policy
from ...players.session import play_deal, play_until
from ...rules import Rules

BANKER, PUNTER = 0, 1
STARTING_CHIPS = 1000
"""Each seat's chips at the session's table (the players this module seats do not read them)."""


def table_at_shoot(rules: Rules, shoot: int, rng: np.random.Generator, num_players: int = 2) -> Table:
    """A new table, seat 0 banking, whose Shoot has grown to ``shoot`` chips: the banker posted the rules'
    Shoot, and the chips between the two came from the banker's balance (its wealth, the Shoot
    counted as its own, is its starting chips, and every chip is still at the table)."""
    table = Table(rules, num_players, rng=rng, starting_chips=STARTING_CHIPS, banker=BANKER)
    table.balances[BANKER] -= shoot - table.shoot
    table.shoot = shoot
    return table


def bank_decision_view(rules: Rules, shoot: int) -> SeatView:
    """The banker's view when it is asked to keep or sell a bank whose Shoot is ``shoot`` chips after a
    deal (of the deal's hands it shows none: the players who decide this read the Shoot)."""
    table = table_at_shoot(rules, shoot, np.random.default_rng(0))
    return seat_view(table, BANKER)._replace(
        phase=Phase.BANK_DECISION, legal=(LegalMove(ActionKind.KEEP_BANK), LegalMove(ActionKind.SELL_BANK)))


def sells_at(rules: Rules, banker: Policy, shoot: int) -> bool:
    """Whether ``banker`` sells a bank of ``shoot`` chips between deals (never where the rules allow no
    sale). A banker that plays at random is refused: the chain needs one answer."""
    if not rules.bank_sale:
        return False
    view = bank_decision_view(rules, shoot)
    answers = {banker.act(view, np.random.default_rng(seed)) for seed in (0, 1, 2)}
    if len(answers) > 1 or not answers <= {KEEP_BANK, SELL_BANK}:
        raise ValueError(f"banker {banker!r} answers {sorted(map(str, answers))} at a bank decision: expected "
                         "one fixed answer, keep or sell")
    return answers == {SELL_BANK}


@dataclass(frozen=True)
class SessionSample:
    """Sessions played at the engine, one row each."""

    profit: np.ndarray
    """The banker's net chips over its session (its Shoot counted as its own; a sale's price included)."""
    deals: np.ndarray
    """Deals the banker played before the session ended."""
    ended: np.ndarray
    """How each session ended: 0 the session's deals were played, 1 the bank passed, 2 it was sold."""

    def mean(self) -> tuple[float, float]:
        """The mean profit and its standard error."""
        n = len(self.profit)
        return float(self.profit.mean()), float(self.profit.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0


KEPT, PASSED, SOLD = 0, 1, 2


def play_sessions(rules: Rules, punter: Policy, banker: Policy, shoot: int, deals: int, sessions: int,
                  seed: int, num_players: int = 2) -> SessionSample:
    """``sessions`` sessions of up to ``deals`` deals, each at a new table of ``num_players`` seats whose
    Shoot starts at ``shoot`` chips, the banker at seat 0 and ``punter`` at every other seat. The banker
    is asked to keep or sell after every deal but the last."""
    rng = np.random.default_rng(seed)
    players = [banker] + [punter] * (num_players - 1)
    profit = np.zeros(sessions, dtype=np.int64)
    played = np.zeros(sessions, dtype=np.int64)
    ended = np.zeros(sessions, dtype=np.int64)
    for i in range(sessions):
        table = table_at_shoot(rules, shoot, np.random.default_rng(rng.integers(2**63)), num_players)
        start, chips = table.wealth(BANKER), table.total_chips
        for deal in range(1, deals + 1):
            if deal < deals:
                play_deal(table, players, rng)
            else:  # the session's last deal: nobody is left to buy the bank after it
                table.start_deal()
                play_until(table, players, rng, lambda t: t.phase == Phase.BANK_DECISION)
            if table.banker != BANKER:
                ended[i] = PASSED if table.turnovers else SOLD
                break
        if table.total_chips != chips:
            raise AssertionError(f"chips not conserved: {table.total_chips} != {chips}")
        profit[i], played[i] = table.wealth(BANKER) - start, deal
    return SessionSample(profit, played, ended)


__all__ = ["KEPT", "PASSED", "SOLD", "SessionSample", "bank_decision_view", "play_sessions", "sells_at",
           "table_at_shoot"]
