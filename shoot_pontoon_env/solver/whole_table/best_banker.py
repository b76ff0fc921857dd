"""The banker's exact best response at a whole table: it reads every box, and the punters' policies are fixed.

Facing observations ``O = (O_1, ..., O_k)`` of the boxes (``joint``), the banker's problem is the
heads-up one (``headsup.best_banker``) on the table's rows: at a banker hand ``b`` the punters' net if
it stands is ``S_O(b) = sum_r chance(K_r, b) W_r[outcome(b)]`` (every chance joint with reaching ``O``),
and ``A_O(b) = min(S_O(b), sum_v A_O(b + v))``. Here it is solved where a table is met, for the banker
hands reachable from its two cards, not for every joint observation (there are about ``n_O ** k``:
``tips`` shows 190,264 observations of its box, split hands as the engine shows them). So each decision is the exact best response's, and
the best response's value is estimated over dealt tables: given the table the banker meets (``O`` and
its two cards ``b``), ``A_O(b) / P(O, b)`` is the exact expected net of every deal that shows it
(:meth:`TableBestBanker.conditional_net`), so the estimate's only error is the sampling of ``O`` and
``b`` (``exploitability``). Beside it, on the same tables, the same expectation for a reference banker
that draws by a rule on its own cards, whose value at the table is exact (the sum of its heads-up pair
values): the best response's value is that exact value plus the mean of the differences, each of them
``>= 0`` (the best response is best at every table it meets) and of a small spread. A reference banker
that reads the table (``shoot_aware``, a trained one) is asked at the engine's view with the hand's
cards in its place, only where its own choices take it: the drawn cards as their values in ascending
order (a ten-value card as the Ten), as the heads-up model asks a banker, so its value is exact for a
banker that reads values (every rule-based one), not for one that reads ranks or the order of its draws
(a trained network); it is then estimated as the best response's, and their difference is what the
best response gains on it.

The banker reads a split box by its two hands as the engine shows them (rows built with
``split_detail``), and its choice depends on its cards' values, not their ranks.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ...actions import Action, ActionKind, LegalMove
from ...cards import best_total
from ...engine.view import SeatView
from ...players.policy import Policy
from ...rules import Rules
from ..dealer import BankerRule, own_cards_only, strategy_rule
from ..headsup.game_banker import BankerSpace, JointChance, banker_space
from ..headsup.game_punter import (
    Observation,
    PunterRows,
    card_of,
    is_split_observation,
    observation_of,
    value_index,
)
from .joint import Rows, TableRows


def box_observations(view: SeatView, punter_seats: Sequence[int]) -> tuple[Observation, ...]:
    """What a banker's view shows of each punter seat's box, in seat order."""
    return tuple(observation_of(tuple(h for h in view.hands if h.seat == seat), split_detail=True)
                 for seat in punter_seats)


class Node(NamedTuple):
    """The best response at one banker hand facing one table (values joint with reaching it)."""

    draw: bool
    value: float
    """``A_O(b)``: the punters' net from here on, the best response playing."""
    reference: float
    """The same, the reference banker playing."""
    stick: float
    """``S_O(b)``: the punters' net if the banker stands here."""
    drawn: float
    """The punters' net if it draws here and plays on as the best response (NaN where it cannot draw)."""


class Subtree:
    """The banker hands reachable from one two-card hand, level by level."""

    def __init__(self, space: BankerSpace, start: int) -> None:
        self.nodes: dict[int, np.ndarray] = {2: np.array([start])}
        m = 2
        while m + 1 in space.levels:
            level = space.levels[m]
            at = self.nodes[m]
            children = level.child[at[level.can_draw[at]]].ravel()
            children = np.unique(children[children >= 0])
            if len(children) == 0:
                break
            self.nodes[m + 1] = children
            m += 1


class UnmodelledTable(ValueError):
    """A table showing a box its punter's policy, played on its own box, cannot show: the punter reads
    something else (the other boxes), and the rows do not model it."""


class TableBestBanker(Policy):
    """The banker's best response to fixed punters at one table (seats ``punter_seats``, their rows in
    that order), as a :class:`Policy` that plays it at the engine. At a table the rows cannot show (a
    punter that reads the other boxes), it plays as the reference banker and counts it
    (``unmodelled``): then it is a banker that reads the table, not the best response."""

    name = "table_best_banker"

    def __init__(self, rules: Rules, boxes: Sequence[PunterRows], punter_seats: Sequence[int],
                 reference: Policy | None = None, keep: int = 16) -> None:
        """``boxes``: each punter's rows, built with ``split_detail`` (the banker reads split hands);
        ``reference``: a banker valued on the same tables (:meth:`conditional_net`; the default: stand on
        17); ``keep``: the tables whose rows are kept (what matters is reuse within a deal: a table's rows
        are about 0.2 MB at four seats, 2.7 MB at six), ``64 * keep`` solved tables."""
        if len(boxes) != len(punter_seats):
            raise ValueError(f"{len(boxes)} punters' rows for {len(punter_seats)} punter seats")
        if any(is_split_observation(o) for rows in {id(r): r for r in boxes}.values() for o in rows.observations):
            raise ValueError("the punters' rows show a split box as one observation: build them with "
                             "punter_rows(..., split_detail=True), as the banker at the table reads split hands")
        self.rules = rules
        self.space = banker_space(rules)
        self.joint = JointChance.of(rules)
        self.table = TableRows(list(boxes), self.joint.full, keep)
        self.punter_seats = tuple(punter_seats)
        self.reference = reference or Policy()
        self._rule: BankerRule | None = (strategy_rule(self.reference, rules) if own_cards_only(self.reference)
                                         else None)
        self.keep = keep
        self.unmodelled = 0
        """Decisions taken at tables the rows cannot show (played as the reference banker)."""
        self._subtrees: dict[int, Subtree] = {}
        self._solved: OrderedDict[tuple, dict[tuple[int, int], Node]] = OrderedDict()

    # ----------------------------------------------------------------- the best response
    def solve(self, observations: tuple[Observation, ...], start: int, view: SeatView | None = None
              ) -> dict[tuple[int, int], Node]:
        """For every banker hand ``(level, node)`` reachable from two-card hand ``start``: whether the best
        response draws there, ``A_O(b)`` (the punters' net from there on, joint with reaching it) and
        the same for the reference banker (``view``: the banker's first view at the table, where the
        reference reads the table; its answers there depend on the view, which the cache key then holds)."""
        key = (observations, start)
        if self._rule is None and view is not None:
            key += (tuple(view.banker_cards), tuple(int(c) for c in view.seen_counts))
        hit = self._solved.get(key)
        if hit is not None:
            self._solved.move_to_end(key)
            return hit
        rows = self.table.facing(observations)
        subtree = self._subtrees.get(start) or self._subtrees.setdefault(start, Subtree(self.space, start))
        wants = self._reference_draws(subtree, view)
        out: dict[tuple[int, int], Node] = {}
        above: dict[int, Node] = {}
        for m in sorted(subtree.nodes, reverse=True):
            level, nodes = self.space.levels[m], subtree.nodes[m]
            stick = _stick_sums(rows, self.joint, level.counts[nodes], level.outcome[nodes])
            for i, node in enumerate(nodes.tolist()):
                value = reference = float(stick[i])
                draw, drawn = False, float("nan")
                if level.can_draw[node] and m + 1 in subtree.nodes:
                    children = [above[int(c)] for c in level.child[node] if c >= 0]
                    drawn = sum(c.value for c in children)
                    draw = drawn < value
                    value = drawn if draw else value
                    if wants.get((m, node), False):
                        reference = sum(c.reference for c in children)
                out[(m, node)] = Node(draw, value, reference, float(stick[i]), drawn)
            above = {node: out[(m, node)] for node in nodes.tolist()}
        self._solved[key] = out
        if len(self._solved) > 64 * self.keep:
            self._solved.popitem(last=False)
        return out

    def _reference_draws(self, subtree: Subtree, view: SeatView | None) -> dict[tuple[int, int], bool]:
        """Where the reference banker draws, at the hands of ``subtree`` its own choices reach."""
        out: dict[tuple[int, int], bool] = {}
        reach = {2: set(subtree.nodes[2].tolist())}
        for m in sorted(subtree.nodes):
            level = self.space.levels[m]
            for node in sorted(reach.get(m, ())):
                if not (level.can_draw[node] and m + 1 in subtree.nodes):
                    continue
                if self._rule is not None:
                    draw = self._rule.wants_card(level.values[node])
                else:
                    if view is None:
                        raise ValueError("a reference banker that reads the table is asked with the table's view")
                    draw = self._ask_reference(view, level.values[node])
                out[(m, node)] = draw
                if draw:
                    reach.setdefault(m + 1, set()).update(int(c) for c in level.child[node] if c >= 0)
        return out

    def _ask_reference(self, view: SeatView, values: tuple[int, ...]) -> bool:
        """The reference banker's choice at the table of ``view`` holding ``values`` (its first two cards as
        dealt, the drawn values after them in ascending order)."""
        extra = list(values)
        for card in view.banker_cards:
            extra.remove(value_index(card))
        drawn = tuple(card_of(v) for v in sorted(extra))
        cards = tuple(view.banker_cards) + drawn
        seen = np.array(view.seen_counts, dtype=np.int64)
        for card in drawn:
            seen[card >> 2] += 1
        total, soft = best_total(cards)
        legal = (LegalMove(ActionKind.STICK),) + ((LegalMove(ActionKind.TWIST),)
                                                  if self.rules.may_draw_on(total, soft) else ())
        action = self.reference.act(view._replace(banker_cards=cards, seen_counts=seen, legal=legal),
                                    np.random.default_rng(0))
        if action.kind not in (ActionKind.STICK, ActionKind.TWIST):
            raise ValueError(f"reference banker {self.reference!r} answered {action} to a stick/twist choice")
        return action.kind == ActionKind.TWIST

    def conditional_net(self, view: SeatView) -> tuple[float, float]:
        """The punters' expected net chips, summed over the boxes, over every deal that shows this
        banker the table of ``view`` (its two cards, every box) when it is first to play: the best
        response playing on, and the reference banker."""
        observations = box_observations(view, self.punter_seats)
        m, start = self._hand(view)
        if m != 2:
            raise ValueError(f"conditional_net is asked at the banker's first decision (two cards), not {m} cards")
        if not self.table.reaches(observations):
            raise UnmodelledTable(f"the table {observations} shows a box its punter's policy cannot show on its own box")
        node = self.solve(observations, start, view)[(2, start)]
        value, reference = node.value, node.reference
        rows = self.table.facing(observations)
        reach = float(self.joint.chance(rows.counts, self.space.levels[2].counts[[start]])[0] @ rows.mass)
        if reach <= 0:
            raise ValueError(f"the table {observations} with the banker's {view.banker_cards} is one the punters' "
                             "policies cannot reach")
        return value / reach, reference / reach

    # ----------------------------------------------------------------- at the engine
    def _hand(self, view: SeatView) -> tuple[int, int]:
        return self.space.index(tuple(value_index(c) for c in view.banker_cards))

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        m, node = self._hand(view)
        first = tuple(sorted(value_index(c) for c in view.banker_cards[:2]))
        start = self.space.levels[2].index[first]
        observations = box_observations(view, self.punter_seats)
        if not self.table.reaches(observations):
            self.unmodelled += 1
            return self.reference.act(view, rng)
        draw = self.solve(observations, start, _first_view(view))[(m, node)].draw
        if draw and any(move.kind == ActionKind.TWIST for move in view.legal):
            return Action(ActionKind.TWIST)
        return Action(ActionKind.STICK)


def _first_view(view: SeatView) -> SeatView:
    """The banker's view at its first decision, from a later one: its first two cards."""
    seen = np.array(view.seen_counts, dtype=np.int64)
    for card in view.banker_cards[2:]:
        seen[card >> 2] -= 1
    return view._replace(banker_cards=tuple(view.banker_cards[:2]), seen_counts=seen)


def _stick_sums(rows: Rows, joint: JointChance, hands: np.ndarray, outcomes: np.ndarray) -> np.ndarray:
    """``S_O(b)`` for banker hands ``hands`` (n, 10) standing with ``outcomes`` (n,)."""
    chance = joint.chance(rows.counts, hands)
    return np.einsum("nr,rn->n", chance, rows.payoff[:, outcomes])
