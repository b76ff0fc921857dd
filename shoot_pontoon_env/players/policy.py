"""The one policy interface: a :class:`Policy` answers a seat's :class:`SeatView` with an :class:`Action`.

Every engine and tool asks the same object: the Table (``players.session``, the single-seat envs'
opponents, terminal play), the batched engine (which plays rule-based, solver and network policies in
its kernel and asks any other through the agent's seat), the solver's best responses (which ask it
through the views of its game tree) and the whole table. Rule-based policies are in ``strategies``,
the solver's ``optimal`` in ``solver.player``, policies over an env's observations (trained models,
users' callables) in ``models.player``; ``models.resolve.make_policy`` turns a name into one.

Subclasses override ``act``, or one of the per-decision methods it dispatches to (``stake``,
``shoot_bet``, ``bank``, ``punter_play``, ``banker_play``), whose defaults play a plain game: the
minimum stake, no Shoot bet, keep the bank, stick or stand on 17.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..actions import Action, ActionKind, LegalMove
from ..cards import best_total
from ..engine.view import SeatView


def move_of(view: SeatView, kind: ActionKind) -> LegalMove | None:
    return next((m for m in view.legal if m.kind == kind), None)


def has_move(view: SeatView, kind: ActionKind) -> bool:
    return move_of(view, kind) is not None


def nearest_amount(view: SeatView, kind: ActionKind, wanted: int) -> Action:
    """The legal amount of ``kind`` nearest to ``wanted``."""
    moves = [m for m in view.legal if m.kind == kind]
    best = min((min(max(wanted, m.low), m.high) for m in moves), key=lambda a: abs(a - wanted))
    return Action(kind, best)


def stick_or_draw(view: SeatView, stick: bool) -> Action:
    """Stick if asked and allowed; otherwise twist, or buy the least when twisting is not allowed."""
    if stick and has_move(view, ActionKind.STICK):
        return Action(ActionKind.STICK)
    if has_move(view, ActionKind.TWIST):
        return Action(ActionKind.TWIST)
    if has_move(view, ActionKind.BUY):
        return nearest_amount(view, ActionKind.BUY, 0)
    return Action(ActionKind.STICK)


class Policy:
    """What decides for a seat, everywhere: ``act(view, rng)`` returns a legal :class:`Action` for the
    seat to act, from its :class:`SeatView` (what the seat may see) and a Generator (its only randomness).

    A seat keeps its strategy when the bank moves, so every strategy plays both roles: a punter
    strategy banks by standing on 17, a banker strategy punts by sticking on 17, unless they
    override the other role too.
    """

    name = "policy"
    roles: tuple[str, ...] = ("punter", "banker")
    """The roles it can decide in (a model trained for one role has one: ``players.roles``)."""

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        if not view.legal:
            raise ValueError(f"{self.name}: seat {view.seat} has no decision pending")
        kinds = {m.kind for m in view.legal}
        if ActionKind.STAKE in kinds:
            return self.stake(view, rng)
        if ActionKind.SHOOT_BET in kinds:
            return self.shoot_bet(view, rng)
        if ActionKind.KEEP_BANK in kinds:
            return self.bank(view, rng)
        if view.is_banker:
            return self.banker_play(view, rng)
        return self.punter_play(view, rng)

    def act_batch(self, views: Sequence[SeatView]) -> list[Action] | None:
        """Its actions at many views at once, where it decides by one deterministic computation over
        them all (a network: one batch through it), each what :meth:`act` returns there; None (this
        base class): ask :meth:`act` view by view. The solver asks a trained banker so, a million
        views a deal's law."""
        return None

    def stake(self, view: SeatView, rng: np.random.Generator) -> Action:
        """One box at the minimum stake."""
        if any(m.low == 0 for m in view.legal):
            return Action(ActionKind.STAKE, 0)
        return Action(ActionKind.STAKE, view.rules.min_stake)

    def shoot_bet(self, view: SeatView, rng: np.random.Generator) -> Action:
        return Action(ActionKind.SHOOT_BET, 0)

    def bank(self, view: SeatView, rng: np.random.Generator) -> Action:
        return Action(ActionKind.KEEP_BANK)

    def punter_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        """Default for a seat that is not the banker: stick on 17 or more."""
        hand = view.current_hand
        assert hand is not None
        return stick_or_draw(view, hand.total >= 17)

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        """Default when the bank reaches this seat: stand on 17 or more."""
        return stick_or_draw(view, banker_total(view) >= 17)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def banker_total(view: SeatView) -> int:
    return best_total(view.banker_cards)[0]
