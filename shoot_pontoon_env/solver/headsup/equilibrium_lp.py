"""A second method for the equilibrium value: a linear program over the punter's realization plans,
solved by cutting planes (Benders decomposition), with HiGHS (``scipy.optimize.linprog``).

The game value is ``max_x sum_O min_pi v_O(x, pi)`` over the punter's flows ``x`` (its realization
plan: one flow per (state, action), the flows into a state equal to its flows out) and, for each
observation ``O``, the banker's pure plans ``pi`` there; ``v_O`` is linear in ``x`` for a fixed
``pi``. The LP keeps a variable ``t_O`` per observation below the value of every plan found so far;
each round the banker's exact best response to the LP's ``x`` (the min-DP of ``cfr.Solver``) gives,
for every ``O`` whose ``t_O`` exceeds it, a new cut. The LP's optimum is an upper bound of the game
value (the banker restricted to the plans found), the best response's value at its ``x`` a lower
bound; they meet at the value. It shares with CFR+ the game's arrays and ``cfr.Solver``'s value
algebra (``row_values``, ``stick_sums``, ``banker_values``: each row's value against a banker plan and
the banker's best-response DP, which ``tests/solver/test_equilibrium.py`` checks against the
best-response code to 1e-9), not CFR+'s regrets, averages or iterations: an independent optimiser
over the same model, not an independent model.

Perfect recall only (the punter's information sets are its states); scipy is an optional
dependency (the ``solver`` extra) imported here alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .cfr import Solver
from .equilibrium_game import HeadsUpGame
from .punter_tree import counts_total
from ..space import NUM_VALUES


@dataclass(frozen=True)
class LPResult:
    value: float
    """The game value (the lower bound at the last round)."""
    upper: float
    lower: float
    rounds: int
    cuts: int
    seconds: float


def solve_lp(game: HeadsUpGame, tolerance: float = 1e-7, max_rounds: int = 200) -> LPResult:
    """The value of ``game`` (perfect recall) by cutting planes; stops when the bounds meet within
    ``tolerance`` or after ``max_rounds`` rounds (then the bounds say how far it got)."""
    try:
        from scipy import sparse
        from scipy.optimize import linprog
    except ImportError as error:  # an optional dependency
        raise ImportError("the LP check needs scipy, the solver extra: "
                          "pip install -e '.[solver]' in a checkout") from error
    if len(game.infos) != len(game.states):
        raise ValueError("the LP is of the perfect-recall game: build_game(rules, perfect_recall=True)")
    begin = time.perf_counter()
    solver = Solver(game)
    n_sa, n_s, n_obs, live = len(game.sa_state), len(game.states), len(game.observations), game.live
    n_rows = len(game.row_obs)
    # flows: into each row and state, from (state, action) pairs
    e_row = game.edge_row
    into_row = sparse.csr_matrix((np.ones(int(e_row.sum())), (game.edge_child[e_row], game.edge_sa[e_row])),
                                 shape=(n_rows, n_sa))
    into_state = sparse.csr_matrix((np.ones(int((~e_row).sum())),
                                    (game.edge_child[~e_row], game.edge_sa[~e_row])), shape=(n_s, n_sa))
    out_state = sparse.csr_matrix((np.ones(n_sa), (game.sa_state, np.arange(n_sa))), shape=(n_s, n_sa))
    row0 = np.zeros(n_rows)
    np.add.at(row0, game.start_row, game.start_row_orders)
    state0 = np.zeros(n_s)
    np.add.at(state0, game.start_state, game.start_orders)
    a_eq = sparse.hstack([out_state - into_state, sparse.csr_matrix((n_s, n_obs))]).tocsr()
    bust = slice(live, n_rows)
    objective_x = into_row[bust].T @ game.bust_value
    constant = float(row0[bust] @ game.bust_value) + game.constant
    c = -np.concatenate([objective_x, np.ones(n_obs)])  # linprog minimises
    bounds = [(0, None)] * n_sa + [(None, None)] * n_obs
    group = sparse.csr_matrix((np.ones(live), (game.row_obs[:live], np.arange(live))), shape=(n_obs, live))
    into_live = into_row[:live]
    cut_rows: list = []
    cut_rhs: list[np.ndarray] = []

    def add_cuts(draws: dict[int, np.ndarray], which: np.ndarray) -> None:
        """Cuts ``t_O <= v_O(x, plan)`` for the observations ``which`` under the plan ``draws``."""
        per_row = solver.row_values(draws)[:live]
        weighted = group @ sparse.diags(per_row)
        lhs = sparse.hstack([-(weighted @ into_live), sparse.identity(n_obs, format="csr")]).tocsr()[which]
        cut_rows.append(lhs)
        cut_rhs.append((weighted @ row0[:live])[which])

    everything = np.arange(n_obs)
    for stands_on in (2, 17):  # two plans for every observation to start with: the LP is bounded
        plan = {}
        for m, lv in game.space.levels.items():
            totals = np.array([_total(v) for v in lv.values])
            plan[m] = np.repeat(((totals < stands_on) & lv.can_draw).astype(float)[:, None], n_obs, axis=1)
        add_cuts(plan, everything)
    upper = lower = np.nan
    rounds = 0
    for rounds in range(1, max_rounds + 1):
        result = linprog(c, A_ub=sparse.vstack(cut_rows).tocsr(), b_ub=np.concatenate(cut_rhs), A_eq=a_eq,
                         b_eq=state0, bounds=bounds, method="highs")
        if result.status != 0:
            raise RuntimeError(f"the LP failed in round {rounds}: {result.message}")
        x, t = result.x[:n_sa], result.x[n_sa:]
        upper = -result.fun + constant
        row_flow = into_row @ x + row0
        stick = solver.stick_sums(row_flow)
        a, d, _ = solver.banker_values(stick, None)
        per_obs = game.space.start @ a[2]
        lower = float(per_obs.sum()) + float(row_flow[bust] @ game.bust_value) + game.constant
        if upper - lower <= tolerance:
            break
        violated = np.nonzero(t > per_obs + tolerance / max(n_obs, 1))[0]
        if len(violated) == 0:
            break
        best = {m: ((d[m] < stick[m]) & game.space.levels[m].can_draw[:, None]).astype(float)
                for m in game.space.levels}
        add_cuts(best, violated)
    cuts = sum(r.shape[0] for r in cut_rows)
    return LPResult(float(lower), float(upper), float(lower), rounds, cuts, time.perf_counter() - begin)


def _total(values: tuple[int, ...]) -> int:
    """The best total of a banker hand of these card values."""
    return counts_total(tuple(values.count(v) for v in range(NUM_VALUES)))[0]


__all__ = ["LPResult", "solve_lp"]
