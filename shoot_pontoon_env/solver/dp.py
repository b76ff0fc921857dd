"""Optimal play of one punter hand: backward induction over card multisets and flag states.

Values are expectations *joint with 'the banker has no Pontoon'* when the banker peeks: decisions
are taken after the peek, and comparing unnormalised values at one decision point compares the
conditional ones (same denominator), while the draws themselves stay unconditional. Every hand
in a batch of *contexts* (the cards known to be out of the shoe besides the hand: the up card, a
split partner) is solved at once, as one array per hand size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import FIVE_CARDS
from ..rules import Rules
from .dealer import NUM_OUTCOMES, PONTOON, BankerRule, dealer_paths, outcome_probs
from .deck import Deck
from .payoff import SPECIAL_PONTOON, bust_payoff, payoff_matrices, punter_row
from .space import BUY_BASE, DOUBLE, LEVELS, NUM_VALUES, STICK, TWIST, Flags

NO_ACTION = -1


@dataclass(frozen=True)
class Context:
    """A batch member: cards out of the shoe besides the hand's own, and how the hand counts."""

    up: int | None
    """The banker's up card (value index), part of ``base``."""
    split_of: int | None
    """The pair value (index) for a hand from a split; None for the hand as dealt."""
    base: tuple[int, ...]

    @property
    def from_split(self) -> bool:
        return self.split_of is not None


@dataclass
class Static:
    """What the decisions do not change: draw chances and stand values per context and hand."""

    contexts: list[Context]
    probs: list[np.ndarray]
    """Per level (C, n, 10): chance of each value as the next card."""
    stand_g: list[np.ndarray]
    stand_h: list[np.ndarray]
    """Per level (C, n): the stake multiple and Shoot result of standing (joint with no Pontoon)."""
    no_pontoon: list[np.ndarray]
    """Per level (C, n): chance that the banker has no Pontoon (1 without a peek)."""
    bust_no_pontoon: list[np.ndarray]
    """Per level (C, n, 10): the same once the drawn card (which busts the hand) is out."""
    auto_stand: list[np.ndarray]
    """Per level (C, n): the hand stands without a decision (five cards, Pontoon, 21 when drawing
    on 21 is not allowed)."""
    can_stick: list[np.ndarray]
    can_draw: list[np.ndarray]
    bust: tuple[int, int] = (-1, -1)
    """The stake multiple and Shoot result of a hand that busts (``payoff.bust_payoff``)."""


def build_static(rules: Rules, deck: Deck, rule: BankerRule, contexts: list[Context],
                 special_share: float) -> Static:
    base = np.array([c.base for c in contexts], dtype=np.float64)
    ncx = len(contexts)
    pontoon_ctx = np.array([not c.from_split or rules.pontoon_after_split for c in contexts])
    ups = [c.up for c in contexts]
    groups = {up: [i for i, u in enumerate(ups) if u == up] for up in dict.fromkeys(ups)}
    removed_by_level = [base[:, None, :] + lv.counts[None, :, :] for lv in LEVELS]
    dists = _banker_outcomes(rules, deck, rule, contexts, groups, removed_by_level)
    pay = {split: payoff_matrices(rules, split) for split in (False, True)}
    probs, stand_g, stand_h, no_bp, bust_bp, auto, stick, draw = [], [], [], [], [], [], [], []
    for k, lv in enumerate(LEVELS):
        removed = removed_by_level[k]
        probs.append(deck.draw_probs(removed))
        nb = np.ones((ncx, lv.n))
        bust = np.ones((ncx, lv.n, NUM_VALUES))
        if rules.banker_peek:
            for up, rows in groups.items():
                nb[rows] = deck.no_pontoon(removed[rows], up)
                if lv.size < FIVE_CARDS:
                    extra = removed[rows][:, :, None, :] + np.eye(NUM_VALUES)[None, None, :, :]
                    bust[rows] = deck.no_pontoon(extra, up)
        no_bp.append(nb)
        bust_bp.append(bust)
        g = np.zeros((ncx, lv.n))
        h = np.zeros((ncx, lv.n))
        if lv.size >= 2:
            classes = {counts: np.array([punter_row(int(t), lv.size, bool(p and counts))
                                         for t, p in zip(lv.total, lv.pontoon)])
                       for counts in (False, True)}  # by whether a Pontoon counts in the context
            for i, ctx in enumerate(contexts):
                gm, hm = pay[ctx.from_split]
                cls = classes[bool(pontoon_ctx[i])]
                gcol, hcol = gm[cls].T, hm[cls].T
                if special_share and pontoon_ctx[i]:
                    is_p = cls == PONTOON
                    gcol[:, is_p] = ((1 - special_share) * gm[PONTOON][:, None]
                                     + special_share * gm[SPECIAL_PONTOON][:, None])
                    if not np.array_equal(hm[PONTOON], hm[SPECIAL_PONTOON]):
                        hcol[:, is_p] = ((1 - special_share) * hm[PONTOON][:, None]
                                         + special_share * hm[SPECIAL_PONTOON][:, None])
                g[i] = np.einsum("no,on->n", dists[k][i], gcol)
                h[i] = np.einsum("no,on->n", dists[k][i], hcol)
        stand_g.append(g)
        stand_h.append(h)
        may_draw = rules.may_draw_on(lv.total, lv.soft)
        term = (lv.size >= FIVE_CARDS) | ~may_draw
        auto.append(term[None, :] | (lv.pontoon[None, :] & pontoon_ctx[:, None]))
        stick.append(lv.total >= rules.stick_minimum)
        draw.append(may_draw)
    return Static(contexts, probs, stand_g, stand_h, no_bp, bust_bp, auto, stick, draw, bust_payoff(rules))


def _banker_outcomes(rules: Rules, deck: Deck, rule: BankerRule, contexts: list[Context],
                     groups: dict, removed_by_level: list[np.ndarray]) -> list[np.ndarray]:
    """Per level (C, n, outcomes): the banker's outcome chances for every hand that can stand,
    each distinct removed-card composition computed once (a split hand holds its pair card)."""
    out = [np.zeros((len(contexts), lv.n, NUM_OUTCOMES)) for lv in LEVELS]
    for up, rows in groups.items():
        paths = dealer_paths(rule, rules, up)
        wanted = []
        for k, lv in enumerate(LEVELS):
            if lv.size < 2:
                continue
            for i in rows:
                pair = contexts[i].split_of
                nodes = np.arange(lv.n) if pair is None else np.nonzero(lv.counts[:, pair] > 0)[0]
                wanted.append((k, i, nodes))
        stacked = np.concatenate([removed_by_level[k][i, nodes] for k, i, nodes in wanted])
        unique, inverse = np.unique(stacked, axis=0, return_inverse=True)
        dist = outcome_probs(deck, paths, unique)[inverse.reshape(-1)]
        at = 0
        for k, i, nodes in wanted:
            out[k][i, nodes] = dist[at:at + len(nodes)]
            at += len(nodes)
    return out


@dataclass
class LevelResult:
    """Per (context, hand, flag state): expected stake result ``eg`` and Shoot result ``es`` (in
    original stakes, joint with no banker Pontoon) and the chosen action code."""

    eg: np.ndarray
    es: np.ndarray
    act: np.ndarray

    @property
    def value(self) -> np.ndarray:
        return self.eg + self.es


def solve_hands(static: Static, flags: Flags, beta_stand: float = 0.0, beta_bust: float | None = None,
                top: LevelResult | None = None) -> list[LevelResult]:
    """Backward induction for every context at once. ``beta_stand``/``beta_bust``: a Shoot bet (in
    original stakes) riding on the hand at a showdown/bust. ``top``: given results for three-card
    hands (the before-fourth-card betting point), solving only two cards and less."""
    beta_bust = beta_stand if beta_bust is None else beta_bust
    stake = flags.stake.astype(np.float64)
    results: list[LevelResult | None] = [None] * FIVE_CARDS
    first = FIVE_CARDS
    if top is not None:
        results[2] = top
        first = 2
    for k in range(first, 1, -1):
        results[k - 1] = _level(static, flags, k, results[k] if k < FIVE_CARDS else None, stake,
                                beta_stand, beta_bust)
    nxt = results[1]
    assert nxt is not None
    p = static.probs[0]
    child = LEVELS[0].child
    eg = np.einsum("cnv,cnvf->cnf", p, nxt.eg[:, child, :])
    es = np.einsum("cnv,cnvf->cnf", p, nxt.es[:, child, :])
    results[0] = LevelResult(eg, es, np.full(eg.shape, NO_ACTION, dtype=np.int8))
    return results  # type: ignore[return-value]


def _level(static: Static, flags: Flags, k: int, nxt: LevelResult | None, stake: np.ndarray,
           beta_stand: float, beta_bust: float) -> LevelResult:
    lv = LEVELS[k - 1]
    ncx, n, nf = len(static.contexts), lv.n, flags.n
    st_eg = static.stand_g[k - 1][:, :, None] * stake[None, None, :]
    st_es = np.broadcast_to(beta_stand * static.stand_h[k - 1][:, :, None], (ncx, n, nf))
    cands_eg = [st_eg]
    cands_es = [st_es]
    avail = [np.broadcast_to(static.can_stick[k - 1][None, :, None], (ncx, n, nf))]
    codes = [STICK]
    if nxt is not None:
        p = static.probs[k - 1]
        child = lv.child
        bust = child < 0
        safe = np.where(bust, 0, child)
        ceg = nxt.eg[:, safe, :]
        ces = nxt.es[:, safe, :]
        bnb = static.bust_no_pontoon[k - 1]
        bust_g, bust_h = static.bust
        ceg = np.where(bust[None, :, :, None], bust_g * bnb[:, :, :, None] * stake[None, None, None, :], ceg)
        ces = np.where(bust[None, :, :, None], bust_h * beta_bust * bnb[:, :, :, None], ces)
        exp_eg = np.einsum("cnv,cnvf->cnf", p, ceg)
        exp_es = np.einsum("cnv,cnvf->cnf", p, ces)
        draw = static.can_draw[k - 1][None, :, None]
        targets = [(TWIST, flags.twist_to, flags.doubled)]
        targets += [(BUY_BASE + a, flags.buy_to[:, a], np.zeros(nf, bool)) for a in range(1, 6)]
        for code, to, always in targets:
            if (to < 0).all():
                continue
            safe_to = np.where(to < 0, 0, to)
            ok = (to >= 0)[None, None, :] & (draw | always[None, None, :])
            cands_eg.append(exp_eg[:, :, safe_to])
            cands_es.append(exp_es[:, :, safe_to])
            avail.append(np.broadcast_to(ok, (ncx, n, nf)))
            codes.append(code)
    eg, es, act = _choose(cands_eg, cands_es, avail, codes)
    if k == 2 and (flags.double_to >= 0).any():
        src = np.where(flags.double_to >= 0)[0]
        dst = flags.double_to[src]
        dj = eg[:, :, dst] + es[:, :, dst]
        better = dj > eg[:, :, src] + es[:, :, src]
        eg[:, :, src] = np.where(better, eg[:, :, dst], eg[:, :, src])
        es[:, :, src] = np.where(better, es[:, :, dst], es[:, :, src])
        act[:, :, src] = np.where(better, DOUBLE, act[:, :, src])
    forced = static.auto_stand[k - 1][:, :, None] | flags.terminal[None, None, :]
    eg = np.where(forced, st_eg, eg)
    es = np.where(forced, st_es, es)
    act = np.where(forced, STICK, act).astype(np.int8)
    return LevelResult(eg, np.ascontiguousarray(es), act)


def _choose(cands_eg: list[np.ndarray], cands_es: list[np.ndarray], avail: list[np.ndarray],
            codes: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The best available candidate (the first on ties: stick before twist before buys)."""
    eg = np.stack(cands_eg)
    es = np.stack([np.broadcast_to(x, eg.shape[1:]) for x in cands_es])
    ok = np.stack(avail)
    value = np.where(ok, eg + es, -np.inf)
    best = np.argmax(value, axis=0)
    none = ~ok.any(axis=0)
    best = np.where(none, 0, best)  # nothing allowed (cannot happen in play): stand
    pick = best[None]
    return (np.take_along_axis(eg, pick, 0)[0], np.take_along_axis(es, pick, 0)[0],
            np.asarray(codes, dtype=np.int8)[best])
