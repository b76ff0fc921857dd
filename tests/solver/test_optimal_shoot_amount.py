"""The optimal punter bets the Shoot allowance it was solved for, not the Shoot's whole room: its play
after the bet is the optimum for that allowance riding. Both engines place the same amount."""

import numpy as np
import pytest

from shoot_pontoon_env.actions import ActionKind, stake
from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.engine.view import seat_view
from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.rules import SHOOT

RULES = SHOOT.replace(shoot_bet_points=("before_second_card",))
"""The optimum bets on an Ace before the second card (docs/RESULTS.md); the Shoot holds 50 chips."""


def bet_on_an_ace(policy) -> int:
    """The Shoot bet ``policy`` places in seat 1 holding an Ace before its second card."""
    table = Table(RULES, 2, rng=np.random.default_rng(0), starting_chips=1000)
    table.start_deal(stacked="AS 9C TD 9H 7D 8C")
    table.apply(stake(RULES.base_stake))
    view = seat_view(table, table.to_act)
    move = next(m for m in view.legal if m.kind == ActionKind.SHOOT_BET)
    assert move.high == RULES.initial_shoot  # the room is the whole Shoot
    action = policy.act(view, np.random.default_rng(0))
    assert action.kind == ActionKind.SHOOT_BET
    return action.amount


@pytest.mark.parametrize("levels, expected", [((2,), 2), ((2, 4, 10), 10), ((2, 500), 2), (None, 50)])
def test_the_bet_is_the_largest_level_within_the_room(levels, expected):
    policy = make_policy("optimal", rules=RULES, num_players=2, shoot_bet_levels=levels)
    assert policy.shoot_bet_chips == expected
    assert bet_on_an_ace(policy) == expected


def test_the_batched_engine_bets_the_same_allowance():
    from shoot_pontoon_env.vector.policy import P_SHOOT, P_SHOOT_CHIPS, policy_table

    policy = make_policy("optimal", rules=RULES, num_players=2, shoot_bet_levels=(4,))
    table = policy_table(policy, base_stake=RULES.base_stake, min_stake=RULES.min_stake, max_stake=RULES.max_stake)
    assert table[P_SHOOT] == 1 and table[P_SHOOT_CHIPS] == 4
