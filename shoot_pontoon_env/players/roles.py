"""A seat's two roles and the pairing of one-role policies: a model trained to punt (or to bank) is seated
only in its own role, beside a rule-based policy for the other (``in_own_role``), because the bank passes
between seats under the Shoot rules."""

from __future__ import annotations

import numpy as np

from ..actions import Action
from ..engine.view import SeatView
from .policy import Policy
from .strategies import make_strategy

ROLES = ("punter", "banker")
"""A seat's two roles: it punts, or it holds the bank (which passes between seats under the Shoot rules)."""
ROLE_FALLBACKS = {"punter": "tips", "banker": "stand17"}
"""Who plays the role a one-role model was not trained for, unless the user names another: a punter
model banks as ``stand17``, a banker model punts as ``tips`` (``python -m shoot_pontoon_env.play``'s
choice for a model among its opponents)."""


class RolePlayers(Policy):
    """One seat's two players: ``punter`` while it punts, ``banker`` while it holds the bank. A trained
    model is seated only in the role its action table plays (a punter model cannot keep the bank, a
    banker model cannot stake), so a seat whose bank may come and go pairs it with the other role's
    player. The batched engine plays such a seat in the kernel where at most one of the two is a
    rule-based or solver player (``role_players``)."""

    def __init__(self, punter: Policy, banker: Policy, name: str | None = None) -> None:
        for role, player in zip(ROLES, (punter, banker)):
            if not isinstance(player, Policy) or isinstance(player, RolePlayers):
                raise ValueError(f"RolePlayers {role} = {player!r}: expected a Policy of one seat")
        self.punter, self.banker = punter, banker
        self.name = name or f"{player_name(punter)}/{player_name(banker)}"

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        return (self.banker if view.is_banker else self.punter).act(view, rng)

    def role_players(self) -> tuple[Policy, Policy]:
        """The players of the seat's two roles, in ``ROLES`` order (what the batched engine reads)."""
        return self.punter, self.banker

    def __repr__(self) -> str:
        return f"RolePlayers(punter={self.punter!r}, banker={self.banker!r})"


def player_name(player: Policy) -> str:
    return str(getattr(player, "name", type(player).__name__))


def in_own_role(player: Policy) -> Policy:
    """``player`` as a seat's player whose bank may come and go: a model of one role paired with
    ``ROLE_FALLBACKS``' player of the other (a :class:`RolePlayers`), any other player as it is."""
    if len(player.roles) != 1:
        return player
    own = player.roles[0]
    other = ROLES[1 - ROLES.index(own)]
    fallback = make_strategy(ROLE_FALLBACKS[other])
    verb = "banks" if other == "banker" else "punts"
    parts = (player, fallback) if own == "punter" else (fallback, player)
    return RolePlayers(*parts, f"{player.name} ({verb} as {ROLE_FALLBACKS[other]})")
