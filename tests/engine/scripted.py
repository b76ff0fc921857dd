"""Scripted deals: a stacked shoe, a list of (seat, action) and the table afterwards."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shoot_pontoon_env.actions import Action
from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.rules import SHOOT, Rules


def new_table(rules: Rules = SHOOT, players: int = 3, chips: int = 100, **kwargs) -> Table:
    return Table(rules, players, rng=np.random.default_rng(0), starting_chips=chips, **kwargs)


def play(table: Table, cards: str, script: Sequence[tuple[int, Action]]) -> Table:
    """Deal from ``cards`` (dealing order: each punter hand, then the banker, twice; then draws in
    playing order) and apply the script, checking that each action comes from the seat to act."""
    total = table.total_chips
    table.start_deal(stacked=cards)
    for step, (seat, action) in enumerate(script):
        assert table.to_act == seat, f"step {step} ({action}): seat {table.to_act} is to act, not {seat}"
        table.apply(action)
        assert table.total_chips == total
    return table
