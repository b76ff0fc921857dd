"""Deals at the engine's table for the whole-table solver: each deal's punters' net chips, and beside it the
exact expected net of the deals that show the banker the same table (``TableBestBanker.conditional_net``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...engine import Phase, Table
from ...engine.view import seat_view
from ...players.policy import Policy
from ...players.session import play_until
from ...rules import Rules
from .best_banker import TableBestBanker, UnmodelledTable

BANKER = 0


@dataclass(frozen=True)
class TableSample:
    """Deals at new tables (a full shoe each), one entry each, in chips summed over the punters' boxes."""

    punter_net: np.ndarray
    """(deals, punters): each punter seat's net chips (seat ``1 + column``)."""
    conditional: np.ndarray | None
    """The exact expected net given the table the banker met (its net where the banker did not play:
    a Pontoon at the peek, every box bust; NaN at a table the rows cannot show); None where the banker
    is not a :class:`TableBestBanker` or ``conditional`` was not asked for."""
    reference: np.ndarray | None
    """The same for the best response's reference banker (``TableBestBanker.reference``)."""

    @property
    def net(self) -> np.ndarray:
        """The punters' net chips, summed over their seats."""
        return self.punter_net.sum(axis=1)

    @staticmethod
    def mean(values: np.ndarray) -> tuple[float, float]:
        """A mean and its standard error."""
        n = len(values)
        return float(values.mean()), float(values.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


def play_tables(rules: Rules, banker: Policy, punters: Sequence[Policy], deals: int, seed: int,
                conditional: bool = True) -> TableSample:
    """``deals`` deals, each at a new table of ``1 + len(punters)`` seats, the banker at seat 0; the
    chips are checked every deal. Deal ``i``'s shuffle and the players' Generator depend on ``seed`` and
    ``i`` only, so two bankers played with one seed meet the same cards and punters (a paired sample)."""
    streams = np.random.default_rng(seed).integers(2**63, size=(deals, 2))
    players = [banker, *punters]
    punter_net = np.zeros((deals, len(punters)))
    exact = conditional and isinstance(banker, TableBestBanker)
    cond = np.zeros(deals) if exact else None
    reference = np.zeros(deals) if exact else None
    for i in range(deals):
        table = Table(rules, len(players), rng=np.random.default_rng(streams[i, 0]), banker=BANKER)
        rng = np.random.default_rng(streams[i, 1])
        chips = table.total_chips
        table.start_deal()
        play_until(table, players, rng, lambda t: t.to_act == BANKER and t.phase == Phase.BANKER)
        asked = table.to_act == BANKER and table.phase == Phase.BANKER
        if exact and asked:
            try:
                cond[i], reference[i] = banker.conditional_net(seat_view(table, BANKER))
            except UnmodelledTable:
                cond[i] = reference[i] = np.nan
        play_until(table, players, rng, lambda t: t.phase in (Phase.BANK_DECISION, Phase.DEAL_OVER))
        if table.total_chips != chips:
            raise AssertionError(f"chips not conserved at the table: {table.total_chips} != {chips}")
        for h in table.hands:
            punter_net[i, h.seat - 1] += h.result  # the banker holds no hand
        if exact and not asked:
            cond[i] = reference[i] = punter_net[i].sum()
    return TableSample(punter_net, cond, reference)
