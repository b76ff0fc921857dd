"""Trained networks as seats the kernel plays at whole tables: what is packed, what is refused (in one
line naming the seat), and the chip bound that counts their Shoot bets. That the kernel plays them as
the Table does is test_batched_differential.py's."""

from __future__ import annotations

import numpy as np
import pytest
from whole_table_differential import random_actor, random_network_player

from shoot_pontoon_env.models.mlp import ActorArrays
from shoot_pontoon_env.models.player import ActorPlayer, EnvContext, ObservationPolicy
from shoot_pontoon_env.multiagent import batched_env
from shoot_pontoon_env.multiagent.config import seat_action_table, whole_table_settings
from shoot_pontoon_env.rules import CASINO, SHOOT
from shoot_pontoon_env.seat.action_table import punter_action_table
from shoot_pontoon_env.seat.encoding import ObservationEncoder
from shoot_pontoon_env.vector.tables import network_arrays, player_code
from shoot_pontoon_env.vector.layout import N_COMPACT, N_INPUTS, N_LAYERS, S_NETWORK, UnbatchableStrategy


def _network(seed: int = 1, **kwargs) -> ActorPlayer:
    return random_network_player(SHOOT, 4, seat_action_table(SHOOT), seed, **kwargs)


def test_seats_share_a_network_only_where_they_share_its_player():
    flat, compact = _network(1), _network(2, observation="compact", hidden=(8, 8, 8))
    players = {1: flat, 2: compact, 3: flat}
    config = whole_table_settings(players=players, first_banker=1).config
    packed = network_arrays(config)
    assert packed.ints[0] == 2 and packed.of_seat.tolist() == [[-1, 0, 1, 0]] * 2  # both roles: seat networks
    base = packed.ints[2]
    assert packed.ints[base + N_COMPACT] == 1 and packed.ints[base + N_LAYERS] == 4
    assert packed.ints[base + N_INPUTS] == compact.actor.num_inputs
    env = batched_env(3, players=players, first_banker=1)
    assert env.batch.net_of.tolist() == [[-1, 0, 1, 0] * 2] * 3  # punting, then banking
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs, rewards, terminations, truncations, info = env.step(actions)
        assert (info["current_seat"][~terminations] == 0).all()  # the learner's seat, or over
    assert (env.batch.total_chips() == 4 * 1000).all()


class _Chooser(ObservationPolicy):
    """A policy the kernel cannot read (no numpy actor)."""

    def choose(self, observation, action_mask, rng):
        return int(np.flatnonzero(action_mask)[0])


class _Overriding(ActorPlayer):
    def choose(self, observation, action_mask, rng):
        return int(np.flatnonzero(action_mask)[-1])


def _unchained() -> ActorPlayer:
    """An actor whose first layer's outputs are not the head's inputs (ActorPlayer checks only its ends)."""
    inputs, actions = ObservationEncoder(SHOOT, 4).size, len(seat_action_table(SHOOT))
    rng = np.random.default_rng(0)
    actor = ActorArrays((rng.normal(size=(inputs, 16)), rng.normal(size=(8, actions))),
                        (np.zeros(16), np.zeros(actions)), True)
    return ActorPlayer(actor, SHOOT, 4, 1000, seat_action_table(SHOOT))


def _not_finite() -> ActorPlayer:
    player = _network(3)
    player.actor.weights[0][0, 0] = np.nan
    return player


REFUSED = {
    "an ObservationPolicy without a numpy actor": (
        lambda: _Chooser(EnvContext(SHOOT, seat_action_table(SHOOT), 1000, 4), "chooser"), "numpy actor"),
    "an ActorPlayer that decides otherwise": (
        lambda: _Overriding(random_actor(ObservationEncoder(SHOOT, 4).size, (4,), len(seat_action_table(SHOOT)), 0),
                            SHOOT, 4, 1000, seat_action_table(SHOOT)), "numpy actor"),
    "a network of another table size": (
        lambda: random_network_player(SHOOT, 3, seat_action_table(SHOOT), 1), "3 seats"),
    "a network of other rules": (
        lambda: random_network_player(CASINO, 4, punter_action_table(CASINO), 1, observation="compact"), "rules"),
    "an actor whose layers do not chain": (_unchained, "each layer's outputs"),
    "an actor of weights not finite": (_not_finite, "not all finite"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_player_the_kernel_cannot_play_is_refused_in_one_line_naming_the_seat(case):
    make, says = REFUSED[case]
    with pytest.raises(ValueError) as error:
        batched_env(2, players={2: make()})
    message = str(error.value)
    assert "players[2]" in message and says in message and "\n" not in message, message


def test_an_actor_that_does_not_fit_its_seat_is_refused_when_built():
    actor = random_actor(10, (4,), len(seat_action_table(SHOOT)), 0)
    with pytest.raises(ValueError, match="10 inputs"):
        ActorPlayer(actor, SHOOT, 4, 1000, seat_action_table(SHOOT))
    with pytest.raises(ValueError, match="observation"):
        ActorPlayer(actor, SHOOT, 4, 1000, seat_action_table(SHOOT), observation="pixels")


def test_a_network_is_played_only_at_a_whole_table():
    config = whole_table_settings(players={1: _network()}).config
    assert player_code("players[1]", config.players[1], True, config)[0] == S_NETWORK
    with pytest.raises(UnbatchableStrategy, match="only at a whole table"):
        player_code("players[1]", config.players[1], False, config)


def test_the_chip_bound_counts_the_networks_shoot_bets():
    big = random_network_player(SHOOT, 4, punter_action_table(SHOOT, shoot_bet_levels=(1, 10**9)), 1,
                                observation="compact")
    small = random_network_player(SHOOT, 4, punter_action_table(SHOOT), 1, observation="compact")
    batched_env(1, deals_per_episode=40, players={2: small})
    with pytest.raises(ValueError, match="int32"):
        batched_env(1, deals_per_episode=40, players={2: big})


def test_an_unmasked_networks_illegal_choice_stops_the_batch_as_it_stops_the_table():
    player = _network(5, masked=False)
    env = batched_env(8, players={2: player})
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    with pytest.raises(RuntimeError, match="table player chose an action"):
        for _ in range(500):
            env.step(np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]]))
