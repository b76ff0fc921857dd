"""The whole-table PettingZoo env: PettingZoo's own checkers, scripted deals with exact chips, zero-sum
rewards, changing roles, and no hidden card in any seat's observation or picture."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, seed_test

from shoot_pontoon_env.actions import IllegalActionError
from shoot_pontoon_env.cards import best_total, card_code, is_pontoon_pair
from shoot_pontoon_env.engine.view import seat_view
from shoot_pontoon_env.seat.encoding import SEAT_IS_BANKER
from shoot_pontoon_env import multiagent
from shoot_pontoon_env.multiagent import env, parallel_env, raw_env
from shoot_pontoon_env.rules import PRESETS, SHOOT

# PettingZoo's checkers warn about a Dict observation and reset with options the env does not know.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning", "ignore:reset options:UserWarning")

# The shoot preset's seat actions.
NO_BOX, STAKE2, STAKE4, STAKE10, NO_BET, BET2, BET4, BET10 = range(8)
STICK, TWIST, BUY1, BUY15, BUY2, SPLIT, DOUBLE, KEEP, SELL = range(8, 17)

VARIANTS = {
    **{name: {"rules": name} for name in PRESETS},
    "shoot-3-deals-6-seats": {"num_players": 6, "deals_per_episode": 3},
    "all-shoot-bet-points": {"rules": SHOOT.replace(
        shoot_bet_points=("before_deal", "before_second_card", "before_fourth_card"), double_stakes=True,
        bank_sale_price=4), "deals_per_episode": 4, "first_banker": "random"},
    "casino-2-deals": {"rules": "casino", "num_players": 3, "deals_per_episode": 2},
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed_tests(variant):
    kwargs = VARIANTS[variant]
    api_test(env(**kwargs), num_cycles=200)
    seed_test(lambda: env(**kwargs), num_cycles=200)
    parallel_api_test(parallel_env(**kwargs), num_cycles=200)
    parallel_seed_test(lambda: parallel_env(**kwargs), num_cycles=200)


def test_max_cycles_test():
    max_cycles_test(multiagent)  # the module itself: env(max_cycles=...) and parallel_env(max_cycles=...)


def test_the_cyclic_env_passes_pettingzoos_api_test_and_lasts_its_cycles():
    api_test(env(max_cycles=60), num_cycles=200)
    table = env(max_cycles=7, rules="casino")
    table.reset(seed=0)
    turns = dict.fromkeys(table.possible_agents, 0)
    for agent in table.agent_iter():
        obs, _, termination, truncation, _ = table.last()
        turns[agent] += 1
        table.step(None if termination or truncation else int(np.argmax(obs["action_mask"])))
    assert set(turns.values()) == {7 + 1}


def test_max_cycles_truncates_after_that_many_decisions():
    table = raw_env(max_cycles=5, deals_per_episode=10)  # turns in the table's order: a cycle is a decision
    table.reset(seed=3)
    rng = np.random.default_rng(0)
    decisions = 0
    for agent in table.agent_iter():
        obs, _, termination, truncation, _ = table.last()
        if termination or truncation:
            assert truncation and not termination and decisions == 5
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    assert decisions == 5 and not table.agents


def play_script(table, cards, script, **reset_kwargs):
    """Reset on a stacked shoe and play (agent, action) pairs; return the reward sums per agent."""
    table.reset(seed=0, options={"stacked": cards}, **reset_kwargs)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent, action in script:
        assert table.agent_selection == agent, f"{table.agent_selection} to act, script says {agent}"
        assert table.observe(agent)["action_mask"][action], f"{action} not legal for {agent}"
        for other in table.agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
        table.step(action)
        assert sum(table.rewards.values()) == pytest.approx(0.0, abs=1e-12)
        for name, reward in table.rewards.items():
            totals[name] += reward
    return totals


def test_scripted_deal_exact_chips_for_every_seat():
    # seat 1: TS 8H = 18 sticks; seat 2: 9H 7C = 16 twists KS, busts; banker (seat 0): TD 7D = 17 sticks.
    # Seat 1 staked 4 and bet 2 against the Shoot: wins 4 + 2; seat 2 loses its 2; the banker -4 -2 +2.
    table = raw_env(num_players=3)
    script = [("seat_1", STAKE4), ("seat_2", STAKE2), ("seat_1", BET2), ("seat_2", NO_BET),
              ("seat_1", STICK), ("seat_2", TWIST), ("seat_0", STICK), ("seat_0", KEEP)]
    totals = play_script(table, "TS 9H TD 8H 7C 7D KS", script)
    assert totals == {"seat_0": -2.0, "seat_1": 3.0, "seat_2": -1.0}
    assert table.table.balances == [950 - 2, 1006, 998] and table.table.shoot == 48
    assert all(table.terminations.values()) and not any(table.truncations.values())


def test_a_bank_sale_makes_the_next_seat_banker_and_it_then_banks():
    table = raw_env(num_players=3, deals_per_episode=2, rules=SHOOT.replace(bank_sale_price=6))
    script = [("seat_1", STAKE4), ("seat_2", STAKE2), ("seat_1", BET2), ("seat_2", NO_BET),
              ("seat_1", STICK), ("seat_2", TWIST), ("seat_0", STICK), ("seat_0", SELL)]
    totals = play_script(table, "TS 9H TD 8H 7C 7D KS", script)
    assert totals == {"seat_0": -2.0 + 3.0, "seat_1": 3.0 - 3.0, "seat_2": -1.0}  # the price: 6 chips
    assert table.table.banker == 1 and table.infos["seat_1"]["banker"]
    assert table.observe("seat_1")["observation"][SEAT_IS_BANKER] == 1.0
    assert table.observe("seat_0")["observation"][SEAT_IS_BANKER] == 0.0
    assert table.agent_selection == "seat_2"  # first to stake from the new banker's left
    rng = np.random.default_rng(0)
    banker_turns = set()
    while not table.terminations["seat_0"]:
        agent = table.agent_selection
        if seat_view(table.table, table.seat_of[agent]).is_banker:
            banker_turns.add(agent)
        table.step(int(rng.choice(np.flatnonzero(table.observe(agent)["action_mask"]))))
    assert banker_turns == {"seat_1"}


def test_an_emptied_shoot_passes_the_bank():
    # seat 1 bets the whole Shoot of 50 with 18 against the banker's 17: the bank passes to seat 1.
    table = raw_env(num_players=2, deals_per_episode=2, shoot_bet_levels=[50])
    bet50, stick = 5, 6  # the levels shift: no Shoot bet 4, Shoot bet 50 5, stick 6
    assert table.action_table.labels[bet50:stick + 1] == ["Shoot bet 50", "stick"]
    totals = play_script(table, "TS TD 8H 7C", [("seat_1", STAKE2), ("seat_1", bet50), ("seat_1", stick),
                                               ("seat_0", stick)])
    assert totals == {"seat_0": -26.0, "seat_1": 26.0}
    assert table.table.banker == 1 and table.table.turnovers == 1 and table.table.shoot == 50
    assert table.agent_selection == "seat_0" and table.infos["seat_1"]["banker"]


def random_legal_episode(table, rng, seed):
    table.reset(seed=seed)
    total = table.facts().total_chips
    totals = dict.fromkeys(table.possible_agents, 0.0)
    bankers = set()
    for agent in table.agent_iter():
        obs, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        bankers.add(table.facts().banker)
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert table.facts().total_chips == total
        assert sum(table.rewards.values()) == pytest.approx(0.0, abs=1e-9)
        for name, reward in table.rewards.items():
            totals[name] += reward
    return totals, bankers


@pytest.mark.parametrize("engine", ["batched", "table"])
@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_rewards_sum_to_zero_and_to_each_seats_net_chips(rules, engine):
    table = raw_env(rules=rules, num_players=4, deals_per_episode=8, engine=engine)
    rng = np.random.default_rng(1)
    changed_roles = False
    for seed in range(6):
        totals, bankers = random_legal_episode(table, rng, seed)
        changed_roles |= len(bankers) > 1
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)
        for agent, total in totals.items():
            net = (table.facts(agent).wealth - table.starting_chips) / table.rules.base_stake  # net_position
            assert total == pytest.approx(net, abs=1e-9)
    if PRESETS[rules].shoot:
        assert changed_roles, "random play sells or empties the bank within 48 deals"


def hidden_positions(table, viewer):
    """(owner, hand index or None for the banker, position) of every card ``viewer`` may not see."""
    hidden = []
    for index, hand in enumerate(table.hands):
        if hand.seat != viewer:
            hidden += [(index, p) for p, up in enumerate(hand.face_up) if not up]
    if viewer != table.banker:
        hidden += [(None, p) for p, up in enumerate(table.banker_face_up) if not up]
    return hidden


def replace_hidden(table, viewer, rng):
    """A copy of the table with every card hidden from ``viewer`` replaced by another card that keeps
    the state possible (no hidden bust, no hidden Pontoon pair). Returns (copy, cards replaced)."""
    other = copy.deepcopy(table)
    replaced = 0
    for index, position in hidden_positions(other, viewer):
        cards = other.hands[index].cards if index is not None else other.banker_cards
        for _ in range(50):
            candidate = int(rng.integers(52 * other.rules.num_decks)) % 52
            trial = list(cards)
            trial[position] = candidate
            if candidate != cards[position] and best_total(trial)[0] <= 21 and not (
                    len(trial) == 2 and is_pontoon_pair(trial)):
                cards[position] = candidate
                replaced += 1
                break
    return other, replaced


def test_hidden_cards_never_reach_an_observation_or_the_picture():
    # on the Table, whose hidden cards the test swaps (the batched engine's observations equal the
    # Table's for every seat at every step: test_batched_differential.py)
    table = raw_env(num_players=4, deals_per_episode=3, render_mode="ansi",
                    rules=SHOOT.replace(buy_face_down=True), engine="table")
    rng = np.random.default_rng(5)
    replaced_total = 0
    for seed in range(25):
        table.reset(seed=seed)
        for agent in table.agent_iter():
            obs, _, termination, truncation, _ = table.last()
            if termination or truncation:
                table.step(None)
                continue
            engine = table.episode.table
            for viewer in table.possible_agents:
                seat = table.seat_of[viewer]
                mine = table.observe(viewer)
                changed, replaced = replace_hidden(engine, seat, rng)
                replaced_total += replaced
                table.episode.table = changed
                theirs = table.observe(viewer)
                table.episode.table = engine
                assert np.array_equal(mine["observation"], theirs["observation"]), (viewer, seed)
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            # one pack: a hidden card's code appears nowhere in the picture of the seat to act
            text = table.render()
            seat = table.seat_of[agent]
            for index, position in hidden_positions(engine, seat):
                card = (engine.hands[index].cards if index is not None else engine.banker_cards)[position]
                assert card_code(card) not in text, (card_code(card), text)
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert replaced_total > 500


def test_the_seat_sees_what_the_single_seat_env_shows_it():
    """Seat 1 at the whole table and the agent of ShootPontoon-v0 get the same observations and
    rewards when the other seats play the env's table strategies on the same cards."""
    import gymnasium as gym

    import shoot_pontoon_env.envs  # noqa: F401
    from shoot_pontoon_env.players.strategies import StandOnBanker, TipsPunter

    cards = "TS 9H 5C TD 8H 7C 7D KS 4D 3C 2H"
    single = gym.make("ShootPontoon-v0", num_players=4).unwrapped
    obs, info = single.reset(seed=0, options={"stacked": cards})
    table = raw_env(num_players=4)
    table.reset(seed=0, options={"stacked": cards})
    players = {"seat_0": StandOnBanker(), "seat_2": TipsPunter(), "seat_3": TipsPunter()}
    rng = np.random.default_rng(0)
    seat_total = 0.0
    single_total = 0.0
    terminated = False
    while not table.terminations["seat_1"]:
        agent = table.agent_selection
        view = table.seat_view(agent)
        if agent == "seat_1" and not terminated:
            mine = table.observe(agent)
            assert np.array_equal(mine["observation"], obs)
            punter_part = mine["action_mask"][: len(info["action_mask"])].astype(bool)
            assert np.array_equal(punter_part, info["action_mask"]) and not mine["action_mask"][len(punter_part):].any()
            action = int(np.flatnonzero(info["action_mask"])[-1])
            obs, reward, terminated, _, info = single.step(action)
            single_total += reward
        else:
            action = table.action_table.to_index(players.get(agent, StandOnBanker()).act(view, rng), view)
        table.step(action)
        seat_total += table.rewards["seat_1"]
    assert terminated and seat_total == pytest.approx(single_total)


def test_illegal_actions_forfeit_with_a_penalty_and_the_table_plays_on():
    table = raw_env(num_players=3)
    table.reset(seed=0, options={"stacked": "TS 9H TD 8H 7C 7D KS"})
    table.step(STICK)  # seat 1 must stake: a minimum stake is placed and lost
    assert table.rewards["seat_1"] == -1.0 - 1.0 and table.rewards["seat_0"] == 1.0
    assert table.infos["seat_1"]["illegal_action"] and "illegal action 8 (stick)" in table.unwrapped.last_message
    assert table.agent_selection == "seat_2" and not any(table.terminations.values())


def test_strict_mode_raises_and_changes_nothing():
    table = raw_env(num_players=3, strict=True, engine="table")
    table.reset(seed=0)
    before = copy.deepcopy(table.table.__dict__)
    with pytest.raises(IllegalActionError, match="stick"):
        table.step(STICK)
    assert table.table.balances == before["balances"] and table.agent_selection == "seat_1"


def test_strict_mode_on_the_batched_engine_raises_and_changes_nothing():
    table = raw_env(num_players=3, strict=True, engine="batched")
    table.reset(seed=0)
    before, observation = table.facts(), table.observe("seat_1")
    with pytest.raises(IllegalActionError, match="stick"):
        table.step(STICK)
    after = table.observe("seat_1")
    assert table.facts() == before and table.agent_selection == "seat_1"
    assert all(np.array_equal(observation[k], after[k]) for k in observation)


@pytest.mark.parametrize("action", [-1, 17, 2.5, "stick", None])
def test_actions_outside_the_space_are_errors(action):
    table = raw_env()
    table.reset(seed=0)
    with pytest.raises(ValueError, match="not in the action space"):
        table.step(action)


@pytest.mark.parametrize("kwargs, message", [
    ({"num_players": 11}, "num_players = 11"),
    ({"first_banker": 4}, "first_banker = 4"),
    ({"first_banker": "left"}, "first_banker = 'left'"),
    ({"max_cycles": 0}, "max_cycles = 0"),
    ({"rules": "bridge"}, "rules = 'bridge'"),
    ({"render_mode": "rgb"}, "render_mode = 'rgb'"),
    ({"stake_levels": [3, 1]}, "stake_levels"),
])
def test_bad_arguments_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)


def test_action_table_labels_and_a_random_first_banker():
    table = raw_env()
    assert table.action_table.labels[-2:] == ["keep bank", "sell bank"] and len(table.action_table) == 17
    bankers = set()
    table = raw_env(first_banker="random")
    for seed in range(30):
        table.reset(seed=seed)
        bankers.add(table.facts().banker)
    assert bankers == {0, 1, 2, 3}


def test_rgb_array_render_is_the_picture_of_the_seat_to_act():
    table = raw_env(render_mode="rgb_array")
    table.reset(seed=0)
    picture = table.render()
    assert isinstance(picture, np.ndarray) and picture.ndim == 3 and picture.shape[2] == 3


def test_human_render_prints_and_ansi_returns_text(capsys):
    table = raw_env(render_mode="human")
    table.reset(seed=0)
    assert "you are seat 1 (punter)" in capsys.readouterr().out
    table = raw_env(render_mode="ansi")
    table.reset(seed=0)
    assert "your legal actions: 1 (stake 2), 2 (stake 4), 3 (stake 10)" in table.render()
