"""``OptimalPunter``: the solver's policy as a table player (the only implementation of it).

It reads a :class:`SeatView` (its own cards, the up card where one is shown, its stakes) and looks
the decision up in the solved tables; it stakes ``rules.base_stake`` in one box.
"""

from __future__ import annotations

import numpy as np

from ..actions import Action, ActionKind
from ..cards import value_of
from ..engine.view import HandView, SeatView
from ..rules import Rules
from ..players.policy import Policy
from .dp import LevelResult
from .shoot import play_tables, split_decision, wants_bet
from .solution import Solution, node_index
from .solve import solve
from .space import BUY_BASE, DOUBLE, SPLIT, STICK, TWIST


class OptimalPunter(Policy):
    """Plays a :class:`Solution` (solved on first use when given Rules or a preset name).

    Args:
        solution: a solved game, or the rules to solve.
        shoot_bets: place the solution's optimal Shoot bets (needs ``solve(..., shoot_ratio=...)``);
            otherwise never bet the Shoot. Each bet is the allowance it was solved for
            (``shoot_bet_chips``: the ratio times the base stake), or the Shoot's room where less is left:
            never more, since its play after the bet is the optimum for that allowance riding.
    """

    name = "optimal"

    def __init__(self, solution: Solution | Rules | str, *, shoot_bets: bool = False) -> None:
        self.solution = solution if isinstance(solution, Solution) else solve(solution)
        if shoot_bets and self.solution.shoot is None:
            raise ValueError("shoot_bets=True needs a solution made with solve(..., shoot_ratio=...)")
        self.shoot_bets = shoot_bets
        shoot = self.solution.shoot
        self.shoot_bet_chips = (max(1, round(shoot.ratio * self.solution.rules.base_stake))
                                if shoot_bets and shoot is not None else 0)

    def __repr__(self) -> str:
        return f"OptimalPunter({self.solution.rules.name!r}, decks={self.solution.num_decks})"

    # ------------------------------------------------------------------ decisions
    def stake(self, view: SeatView, rng: np.random.Generator) -> Action:
        if any(m.low == 0 for m in view.legal):
            return Action(ActionKind.STAKE, 0)
        rules = view.rules
        return Action(ActionKind.STAKE, min(max(rules.base_stake, rules.min_stake), rules.max_stake))

    def shoot_bet(self, view: SeatView, rng: np.random.Generator) -> Action:
        move = next(m for m in view.legal if m.kind == ActionKind.SHOOT_BET)
        if not self.shoot_bets:
            return Action(ActionKind.SHOOT_BET, 0)
        hand = view.current_hand
        bet = wants_bet(self.solution, view.shoot_bet_point, self._up(view),
                        hand.cards if hand is not None else (), hand, view)
        return Action(ActionKind.SHOOT_BET, min(move.high, self.shoot_bet_chips) if bet else 0)

    def punter_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        assert hand is not None
        sol = self.solution
        up = self._up(view)
        values = tuple(sorted(value_of(c) - 1 for c in hand.cards))
        pair = values[0] if len(values) == 2 and values[0] == values[1] else None
        can_split = any(m.kind == ActionKind.SPLIT for m in view.legal)
        if can_split and pair is not None and self._splits(view, hand, up, pair):
            return Action(ActionKind.SPLIT)
        table = self._table(view, hand)
        ctx = sol.context(up, self._split_of(hand))
        flag = sol.flags.index[sol.flags.key(hand.stake // hand.original_stake, hand.buys,
                                             bool(hand.twists), hand.doubled, view.rules)]
        code = int(table[len(values) - 1].act[ctx, node_index(values), flag])
        return self._action(code, hand, view)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _up(view: SeatView) -> int | None:
        if view.rules.dealer_shows_first_card and view.banker_cards:
            return value_of(view.banker_cards[0]) - 1
        return None

    @staticmethod
    def _split_of(hand: HandView) -> int | None:
        return value_of(hand.cards[0]) - 1 if hand.from_split else None

    def _splits(self, view: SeatView, hand: HandView, up: int | None, pair: int) -> bool:
        """Split a dealt pair, or resplit a split hand's pair, as the solution planned."""
        sol = self.solution
        if self.shoot_bets and sol.shoot is not None:
            return split_decision(sol, view, hand, up, pair)
        plan = sol.splits[(up, pair)]
        return plan.resplit if hand.from_split else plan.split

    def _table(self, view: SeatView, hand: HandView) -> list[LevelResult]:
        sol = self.solution
        if self.shoot_bets and sol.shoot is not None:
            return play_tables(sol, view, hand)
        return sol.closed

    @staticmethod
    def _action(code: int, hand: HandView, view: SeatView) -> Action:
        if code == STICK:
            action = Action(ActionKind.STICK)
        elif code == TWIST:
            action = Action(ActionKind.TWIST)
        elif code == DOUBLE:
            action = Action(ActionKind.DOUBLE)
        elif code == SPLIT:
            action = Action(ActionKind.SPLIT)
        else:
            action = Action(ActionKind.BUY, (code - BUY_BASE) * hand.original_stake)
        if not any(m.allows(action) for m in view.legal):
            raise RuntimeError(f"solver policy chose {action} but the engine allows "
                               f"{', '.join(map(str, view.legal))} (hand {hand.cards})")
        return action


__all__ = ["OptimalPunter"]
