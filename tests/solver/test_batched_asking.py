"""Asking a trained banker a level's questions as one batch (``Policy.act_batch``, the solver's
``observation_draws``) gives exactly its answers one view at a time, and the laws of a session's Shoots
computed in forked workers (``DealLaws.compute``) are the ones computed in turn."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.solver.headsup.banker_views import banker_view, batches, observation_draws
from shoot_pontoon_env.solver.headsup.deal_law import DealLaws
from shoot_pontoon_env.solver.headsup.game_banker import banker_space
from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS, punter_rows, strategy_policy

SEAT = {"rules": SHOOT, "num_players": 2, "starting_chips": STARTING_CHIPS}


def trained_banker():
    return make_policy("zoo:shoot_banker_headsup", role="banker", **SEAT)


@pytest.fixture(scope="module")
def rows():
    return punter_rows(SHOOT, strategy_policy(make_strategy("tips")))


def test_a_network_answers_a_batch_of_views_as_it_answers_each(rows):
    banker = trained_banker()
    space = banker_space(SHOOT)
    pick = np.random.default_rng(0).choice(len(rows.observations), 20, replace=False)
    views = [banker_view(SHOOT, values, rows.observations[o]) for o in pick for values in space.levels[2].values[::6]]
    batch = banker.act_batch(views)
    rng = np.random.default_rng(0)
    assert batch == [banker.act(view, rng) for view in views]
    assert len({a.kind for a in batch}) == 2  # it both sticks and twists on these
    assert make_strategy("stand17").act_batch(views) is None  # a rule asks view by view


def test_observation_draws_in_batches_equal_one_view_at_a_time(rows):
    keep = np.random.default_rng(1).choice(len(rows.observations), 40, replace=False)
    observations = [rows.observations[i] for i in keep]
    live = ~rows.all_settled[keep]
    space = banker_space(SHOOT)
    batched, single = trained_banker(), trained_banker()
    single.act = single.act  # replaced on the object (as a Progress counting it does): asked one by one
    assert batches(batched) and not batches(single)
    one = observation_draws(batched, SHOOT, observations, live, space, shoot=60)
    two = observation_draws(single, SHOOT, observations, live, space, shoot=60)
    assert one.keys() == two.keys() and all(np.array_equal(one[m], two[m]) for m in one)
    assert any(one[m].any() for m in one) and not all(one[m][:, live].all() for m in one)


def test_laws_computed_in_forked_workers_equal_laws_computed_in_turn():
    punter, banker = make_strategy("tips"), make_strategy("stand17")
    shoots = [98, 100, 104]
    rules = dataclasses.replace(SHOOT, pack="euchre")  # a short pack: the same code, quicker laws
    forked = DealLaws(rules, punter, banker)
    forked.compute(shoots, workers=2)
    in_turn = DealLaws(rules, punter, banker)
    for shoot in shoots:
        assert forked(shoot) == in_turn(shoot)
    assert forked.classes == in_turn.classes == 2  # tips bets from a Shoot of 100
