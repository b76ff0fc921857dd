"""The strategy as printed tables: by number of cards and hard or soft total (the banker's cards
are hidden, or only the up card shows), one column per stake/twist state or per up card.

Play is composition dependent, so one (cards, total) cell may cover hands played differently: the
cell shows the action of the likelier hands and a ``*`` when some hand of that cell differs.
"""

from __future__ import annotations

from math import factorial

import numpy as np

from ..cards import FIVE_CARDS
from .deck import Deck
from .dp import LevelResult
from .solution import INITIAL_FLAG, Solution
from .space import LEVELS, NUM_VALUES, action_letter

UP_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]


def reachable_flags(sol: Solution) -> list[set[int]]:
    """Flag states a hand of k cards (index k-1) can be in."""
    flags = sol.flags
    reach: list[set[int]] = [set() for _ in range(FIVE_CARDS)]
    reach[1] = {INITIAL_FLAG} | {int(d) for d in flags.double_to if d >= 0}
    for k in range(2, FIVE_CARDS):
        for f in reach[k - 1]:
            targets = [flags.twist_to[f], *flags.buy_to[f]]
            reach[k].update(int(t) for t in targets if t >= 0)
    return reach


def flag_name(sol: Solution, f: int) -> str:
    s, _, t, d = sol.flags.states[f]
    text = f"stake {s}"
    if t:
        text += " twisted"
    if d:
        text += " doubled"
    return text


def hand_weights(sol: Solution, lv_index: int, ctx: int) -> np.ndarray:
    """Chance of each multiset of the level as a hand (all orders), from the context's shoe."""
    deck = Deck(sol.num_decks, sol.rules.pack)
    lv = LEVELS[lv_index]
    base = np.array(sol.contexts[ctx].base, dtype=np.float64)
    L, den = deck.log_factors(base[None, :])
    out = np.empty(lv.n)
    for i, counts in enumerate(lv.counts):
        logp = sum(L[0, v, c - 1] for v, c in enumerate(counts) if c > 0) - den[0, lv.size - 1]
        orders = factorial(lv.size) / np.prod([factorial(int(c)) for c in counts])
        out[i] = orders * np.exp(logp)
    return out


def cell_actions(sol: Solution, results: list[LevelResult], ctx: int, k: int, flag: int,
                 skip_pairs: bool = True) -> dict[tuple[bool, int], str]:
    """(soft, total) -> action letter (with ``*`` when composition dependent) for k-card hands."""
    lv = LEVELS[k - 1]
    weights = hand_weights(sol, k - 1, ctx)
    acts = results[k - 1].act[ctx, :, flag]
    auto = sol.static.auto_stand[k - 1][ctx]
    cells: dict[tuple[bool, int], dict[int, float]] = {}
    for i in range(lv.n):
        if auto[i] or weights[i] <= 0:
            continue
        if skip_pairs and k == 2 and lv.counts[i].max() == 2:
            continue
        key = (bool(lv.soft[i]), int(lv.total[i]))
        cells.setdefault(key, {}).setdefault(int(acts[i]), 0.0)
        cells[key][int(acts[i])] += weights[i]
    out = {}
    for key, by_act in cells.items():
        best = max(by_act, key=lambda a: by_act[a])
        out[key] = action_letter(best) + ("*" if len(by_act) > 1 else "")
    return out


def strategy_table(sol: Solution, results: list[LevelResult] | None = None) -> str:
    """The whole table as text."""
    results = results if results is not None else sol.closed
    ups = sorted(sol.up_probs, key=lambda u: -1 if u is None else (u + 9) % 10)
    reach = reachable_flags(sol)
    lines = []
    shown_up = ups != [None]
    if shown_up:
        header_cols = [f"{UP_NAMES[u]:>4}" for u in ups]
        groups = [(f"by the banker's up card, {flag_name(sol, f)}", f) for f in sorted(set().union(*reach[1:4]))]
    else:
        groups = [("", None)]
    for title, fixed_flag in groups:
        if shown_up:
            lines.append(f"-- {title}")
            lines.append(f"{'cards':>5} {'total':>6} " + "".join(header_cols))
        else:
            flags_shown = sorted(set().union(*reach[1:4]), key=lambda f: (sol.flags.states[f][2], sol.flags.states[f][0]))
            lines.append("columns: " + ", ".join(f"{i}={flag_name(sol, f)}" for i, f in enumerate(flags_shown)))
            lines.append(f"{'cards':>5} {'total':>6} " + "".join(f"{i:>4}" for i in range(len(flags_shown))))
        for k in range(2, FIVE_CARDS):
            if shown_up:
                col_specs = [(sol.context(u, None), fixed_flag) for u in ups]
                if fixed_flag not in reach[k - 1]:
                    continue
            else:
                col_specs = [(sol.context(None, None), f) for f in flags_shown]
            cells = [cell_actions(sol, results, ctx, k, f) if f in reach[k - 1] else {} for ctx, f in col_specs]
            keys = sorted(set().union(*cells), key=lambda sk: (sk[0], sk[1]))
            for soft, total in keys:
                label = f"{'soft' if soft else 'hard'} {total}"
                row = "".join(f"{c.get((soft, total), ''):>4}" for c in cells)
                lines.append(f"{k:>5} {label:>8}" + row)
    lines.append("pairs (P = split, R = split and resplit, - = play on):")
    for u in ups:
        row = []
        for pair in range(NUM_VALUES):
            plan = sol.splits.get((u, pair))
            mark = "-" if plan is None or not plan.split else ("R" if plan.resplit else "P")
            row.append(f"{UP_NAMES[pair]}{UP_NAMES[pair]}:{mark}")
        prefix = f"up {UP_NAMES[u]}: " if u is not None else ""
        lines.append("  " + prefix + " ".join(row))
    return "\n".join(lines)
