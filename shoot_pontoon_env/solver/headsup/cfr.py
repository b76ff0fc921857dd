"""CFR+ on the heads-up game of ``equilibrium_game``: regret matching+ at every information set,
alternating updates, linearly weighted averages.

Both players' decision graphs merge histories whose futures are the same (the punter's hidden cards
by multiset, the banker's cards by multiset). Every merged copy of a node has the same
counterfactual values (they are per ordered line of play and joint with the chance, which depends
only on the multiset), so regret matching on the merged node is CFR+ on the unmerged tree with its
copies kept identical; the averages are weighted by each node's whole own-reach flow, the
realization plan the average strategy is.

The punter's information sets are what its flat observation shows (it cannot tell which of its
cards it twisted), a coarsening of its states; CFR's guarantee holds where that loses nothing.
The result is certified not by this loop but by exact best responses (``equilibrium``); the gap
printed here uses the same algebra (a perfect-recall punter best response, the banker's best
response on the observation) and is an upper bound of the true exploitability in either game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .equilibrium_game import HeadsUpGame


@dataclass
class Profile:
    """Behaviour strategies of both players."""

    punter: np.ndarray
    """(n_ia,) the chance of each (information set, action)."""
    banker: dict[int, np.ndarray]
    """Level m -> (n_m, n_O): the chance the banker draws at hand b facing observation O (0 where it
    may not draw)."""


@dataclass
class CFRResult:
    profile: Profile
    """The average strategies."""
    iterations: int
    seconds: float
    value: float
    """The punter's value of the average profile, per unit stake."""
    punter_best: float
    """The punter's best value against the average banker (a perfect-recall punter)."""
    banker_best: float
    """The punter's value against the banker's best response to the average punter."""
    history: list[tuple[int, float, float]]
    """(iteration, seconds, gap) at each check."""

    @property
    def gap(self) -> float:
        """(punter_best - banker_best) / 2: the exploitability of the average profile."""
        return (self.punter_best - self.banker_best) / 2


class Solver:
    """The CFR+ state of one game: regrets and averages of both players."""

    def __init__(self, game: HeadsUpGame) -> None:
        self.game = g = game
        self.n_s = len(g.states)
        self.n_ia = len(g.ia_info)
        self.n_info = len(g.infos)
        self.n_obs = len(g.observations)
        self.levels = sorted(g.space.levels)
        self.can = {m: g.space.levels[m].can_draw for m in self.levels}
        self.regret_p = np.zeros(self.n_ia)
        self.avg_p = np.zeros(self.n_ia)
        self.actions_per_info = np.bincount(g.ia_info, minlength=self.n_info).astype(np.float64)
        shape = {m: (len(g.space.levels[m].values), self.n_obs) for m in self.levels}
        self.regret_stick = {m: np.zeros(shape[m]) for m in self.levels}
        self.regret_draw = {m: np.zeros(shape[m]) for m in self.levels}
        self.avg_draw = {m: np.zeros(shape[m]) for m in self.levels}
        self.avg_reach = {m: np.zeros(shape[m]) for m in self.levels}
        # per level of the punter's states: its (state, action) pairs and their edges
        top = int(g.state_level.max())
        self.p_levels = list(range(int(g.state_level.min()), top + 1))
        sa_level = g.state_level[g.sa_state]
        edge_level = sa_level[g.edge_sa]
        self.sa_at = {k: np.nonzero(sa_level == k)[0] for k in self.p_levels}
        self.edge_at = {k: np.nonzero(edge_level == k)[0] for k in self.p_levels}
        self.obs_of_live = g.row_obs[:g.live]
        self.seg = g.obs_seg[:-1]
        self.t = 0
        self.up: dict[int, np.ndarray] = {}
        """Level m -> (n_{m+1}, k): the parents of each hand of m + 1 cards (one per drawn value that
        leads to it; n_m where there are fewer)."""
        for m in self.levels[:-1]:
            child = g.space.levels[m].child
            n_next = len(g.space.levels[m + 1].values)
            lists: list[list[int]] = [[] for _ in range(n_next)]
            for i, val in zip(*np.nonzero(child >= 0)):
                lists[child[i, val]].append(int(i))
            if any(not parents for parents in lists):
                raise AssertionError(f"a banker hand of {m + 1} cards has no parent")
            width = max(len(parents) for parents in lists)
            table = np.full((n_next, width), child.shape[0], dtype=np.int64)
            for j, parents in enumerate(lists):
                table[j, :len(parents)] = parents
            self.up[m] = table
        self.sa_lines = self.flows(np.ones(self.n_ia))[0]
        """(n_sa,) n(s) of each (state, action)'s state: the ordered lines reaching it (every action
        weight 1). Q and V are per ordered line, so a state's counterfactual value is n(s) times them."""

    # ------------------------------------------------------------------ strategies
    def punter_current(self) -> np.ndarray:
        """(n_ia,) the punter's current strategy: regret matching+ (uniform where no regret is positive)."""
        g = self.game
        r = self.regret_p
        total = np.bincount(g.ia_info, weights=r, minlength=self.n_info)
        per = total[g.ia_info]
        return np.where(per > 0, r / np.where(per > 0, per, 1.0), 1.0 / self.actions_per_info[g.ia_info])

    def banker_current(self) -> dict[int, np.ndarray]:
        """Level -> (n_m, n_O) the banker's current chance of drawing: regret matching+ (0.5 where no
        regret is positive; 0 where it may not draw)."""
        out = {}
        for m in self.levels:
            rs, rd = self.regret_stick[m], self.regret_draw[m]
            total = rs + rd
            empty = total <= 0
            total[empty] = 1.0
            p = np.divide(rd, total, out=total)
            p[empty] = 0.5
            p *= self.can[m][:, None]
            out[m] = p
        return out

    # ------------------------------------------------------------------ punter side
    def flows(self, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(flow of each (state, action), flow of each row): ordered lines times own reach."""
        g = self.game
        state_flow = np.zeros(self.n_s)
        np.add.at(state_flow, g.start_state, g.start_orders)
        row_flow = np.zeros(len(g.row_obs))
        np.add.at(row_flow, g.start_row, g.start_row_orders)
        sa_flow = np.zeros(len(g.sa_state))
        for k in self.p_levels:
            sa = self.sa_at[k]
            sa_flow[sa] = state_flow[g.sa_state[sa]] * sigma[g.sa_ia[sa]]
            e = self.edge_at[k]
            w = sa_flow[g.edge_sa[e]]
            rows = g.edge_row[e]
            np.add.at(row_flow, g.edge_child[e][rows], w[rows])
            np.add.at(state_flow, g.edge_child[e][~rows], w[~rows])
        return sa_flow, row_flow

    def punter_values(self, row_value: np.ndarray, sigma: np.ndarray | None
                      ) -> tuple[np.ndarray, np.ndarray, float]:
        """(Q of each (state, action), V of each state, the root value): counterfactual values given
        each row's value; ``sigma`` None: the best response (V the max over actions)."""
        g = self.game
        q = np.zeros(len(g.sa_state))
        v = np.zeros(self.n_s)
        for k in reversed(self.p_levels):
            e = self.edge_at[k]
            rows = g.edge_row[e]
            child = np.empty(len(e))
            child[rows] = row_value[g.edge_child[e][rows]]
            child[~rows] = v[g.edge_child[e][~rows]]
            np.add.at(q, g.edge_sa[e], child)
            sa = self.sa_at[k]
            if sigma is None:
                best = np.full(self.n_s, -np.inf)
                np.maximum.at(best, g.sa_state[sa], q[sa])
                states = np.unique(g.sa_state[sa])
                v[states] = best[states]
            else:
                np.add.at(v, g.sa_state[sa], q[sa] * sigma[g.sa_ia[sa]])
        root = float(g.start_orders @ v[g.start_state] + g.start_row_orders @ row_value[g.start_row])
        return q, v, root + g.constant

    def row_values(self, banker: dict[int, np.ndarray]) -> np.ndarray:
        """Each row's value per ordered line against the banker's behaviour ``banker``."""
        g = self.game
        space = g.space
        reach = np.repeat(space.start[:, None], self.n_obs, axis=1)
        live = np.zeros(g.live)
        for m in self.levels:
            p = banker[m]
            stand = np.ascontiguousarray((reach * (1 - p)).T)
            live += np.einsum("ij,ij->i", g.matrix[m], stand[self.obs_of_live])
            if m + 1 in space.levels:
                reach = self.push_up(m, reach * p)
        return np.concatenate([live, g.bust_value])

    def push_up(self, m: int, moving: np.ndarray) -> np.ndarray:
        """The banker's flow into each hand of level m + 1 from ``moving`` (n_m, n_O) drawing at
        level m: a sum over each child's parents (a sorted reduce, not a scatter)."""
        pad = np.vstack([moving, np.zeros((1, moving.shape[1]))])
        parents = self.up[m]
        out = pad[parents[:, 0]]
        for k in range(1, parents.shape[1]):
            out += pad[parents[:, k]]
        return out

    # ------------------------------------------------------------------ banker side
    def stick_sums(self, row_flow: np.ndarray) -> dict[int, np.ndarray]:
        """S_O(b): the punter's net if the banker stands on b facing O, joint with chance and the
        punter's reach."""
        g = self.game
        f = row_flow[:g.live]
        return {m: np.ascontiguousarray(np.add.reduceat(g.matrix[m] * f[:, None], self.seg, axis=0).T)
                for m in self.levels}

    def banker_values(self, stick: dict[int, np.ndarray], banker: dict[int, np.ndarray] | None
                      ) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray], float]:
        """(A, D) per level and the banker's part of the value: A the value from each (b, O) on, D the
        value of drawing; ``banker`` None: the best response (the banker minimises)."""
        space = self.game.space
        a_next = None
        out_a, out_d = {}, {}
        for m in reversed(self.levels):
            lv = space.levels[m]
            s = stick[m]
            if a_next is None or not lv.can_draw.any():
                d = s
            else:
                pad = np.vstack([a_next, np.zeros((1, self.n_obs))])
                child = lv.child  # -1 (no child) reads the zero row
                d = pad[child[:, 0]]
                for val in range(1, child.shape[1]):
                    d += pad[child[:, val]]
            if banker is None:
                a = np.where(lv.can_draw[:, None], np.minimum(s, d), s)
            else:
                p = banker[m]
                a = s + p * (d - s)
            out_a[m], out_d[m] = a, d
            a_next = a
        return out_a, out_d, float(space.start @ out_a[2].sum(axis=1))

    def bust_part(self, row_flow: np.ndarray) -> float:
        """The value of the punter's bust rows (the banker does not play them) under ``row_flow``."""
        g = self.game
        return float(row_flow[g.live:] @ g.bust_value)

    # ------------------------------------------------------------------ iterations
    def iterate(self) -> None:
        """One CFR+ iteration: the punter, then the banker against the punter's new strategy."""
        g = self.game
        self.t += 1
        weight = float(self.t)
        banker = self.banker_current()
        sigma = self.punter_current()
        q, v, _ = self.punter_values(self.row_values(banker), sigma)
        inst = np.bincount(g.sa_ia, weights=self.sa_lines * (q - v[g.sa_state]), minlength=self.n_ia)
        self.regret_p = np.maximum(self.regret_p + inst, 0.0)
        sigma = self.punter_current()
        sa_flow, row_flow = self.flows(sigma)
        self.avg_p += weight * np.bincount(g.sa_ia, weights=sa_flow, minlength=self.n_ia)
        stick = self.stick_sums(row_flow)
        a, d, _ = self.banker_values(stick, banker)
        for m in self.levels:
            can = self.can[m][:, None]
            self.regret_stick[m] = np.maximum(self.regret_stick[m] + (a[m] - stick[m]) * can, 0.0)
            self.regret_draw[m] = np.maximum(self.regret_draw[m] + (a[m] - d[m]) * can, 0.0)
        banker = self.banker_current()
        reach = np.repeat(g.space.start[:, None], self.n_obs, axis=1)
        for m in self.levels:
            self.avg_reach[m] += weight * reach
            self.avg_draw[m] += weight * reach * banker[m]
            if m + 1 in g.space.levels:
                reach = self.push_up(m, reach * banker[m])

    def average(self) -> Profile:
        """The average strategies (reach-weighted; uniform / 0 where never reached)."""
        g = self.game
        total = np.bincount(g.ia_info, weights=self.avg_p, minlength=self.n_info)[g.ia_info]
        punter = np.where(total > 0, self.avg_p / np.where(total > 0, total, 1.0),
                          1.0 / self.actions_per_info[g.ia_info])
        banker = {}
        for m in self.levels:
            r = self.avg_reach[m]
            share = np.where(r > 0, self.avg_draw[m] / np.where(r > 0, r, 1.0), 0.0)
            banker[m] = share * self.can[m][:, None]
        return Profile(punter, banker)

    def measure(self, profile: Profile) -> tuple[float, float, float]:
        """(value, the punter's best value against the banker, the value against the banker's best)."""
        rows = self.row_values(profile.banker)
        _, _, value = self.punter_values(rows, profile.punter)
        _, _, punter_best = self.punter_values(rows, None)
        _, row_flow = self.flows(profile.punter)
        _, _, part = self.banker_values(self.stick_sums(row_flow), None)
        banker_best = part + self.bust_part(row_flow) + self.game.constant
        return value, punter_best, banker_best


def solve_cfr(game: HeadsUpGame, iterations: int, check_every: int = 50, target_gap: float | None = None,
              log: Callable[[str], None] | None = None) -> CFRResult:
    """Run CFR+ for ``iterations`` (stopping early once the gap is at most ``target_gap``, checked
    every ``check_every`` iterations)."""
    begin = time.perf_counter()
    solver = Solver(game)
    history = []
    measured = None
    for t in range(1, iterations + 1):
        solver.iterate()
        if t % check_every == 0 or t == iterations:
            measured = solver.measure(solver.average())
            gap = (measured[1] - measured[2]) / 2
            history.append((t, time.perf_counter() - begin, float(gap)))
            if log is not None:
                log(f"iteration {t}: value {measured[0]:+.6f}, gap {gap:.6f}, "
                    f"{time.perf_counter() - begin:.1f} s")
            if target_gap is not None and gap <= target_gap:
                break
    profile = solver.average()
    if measured is None or history[-1][0] != solver.t:
        measured = solver.measure(profile)
    return CFRResult(profile, solver.t, time.perf_counter() - begin, float(measured[0]), float(measured[1]),
                     float(measured[2]), history)


__all__ = ["CFRResult", "Profile", "Solver", "solve_cfr"]
