"""``python_shoot_pontoon``, the OpenSpiel game: OpenSpiel's own random-simulation test, Shimmy's PettingZoo
conversion through PettingZoo's api_test, the Table engine's chips on the same cards and actions over
thousands of deals of drawn rule sets, the chance of every card, and each seat's observation equal to
the whole-table env's."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")

from shoot_pontoon_env.engine.table import Phase, Table  # noqa: E402
from shoot_pontoon_env.engine.view import seat_view  # noqa: E402
from shoot_pontoon_env.openspiel import GAME_NAME, ShootPontoonGame, load_game  # noqa: E402
from shoot_pontoon_env.openspiel.params import rules_parameter  # noqa: E402
from shoot_pontoon_env.shoe import FULL_PACK  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1] / "vector"))
from test_vector_differential import table_variations  # noqa: E402  (every option the engine has)

SPECS = ["python_shoot_pontoon(players=2)", "python_shoot_pontoon(players=4,rules=shoot num_decks:2 max_buys:1)",
         "python_shoot_pontoon(players=2,seats=4,deals=3)", "python_shoot_pontoon(players=3,rules=casino,deals=2)",
         "python_shoot_pontoon(players=2,reduced=True)",
         "python_shoot_pontoon(players=3,chance=values,splits=False,rules=shoot pack:piquet)"]


@pytest.mark.parametrize("spec", SPECS)
def test_openspiel_random_simulation_test(spec):
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=10, serialize=True, verbose=False)


@pytest.mark.parametrize("config", [{"players": 2}, {"players": 4, "deals": 3}, {"players": 2, "seats": 4}])
def test_shimmy_turns_it_into_a_pettingzoo_env_that_passes_api_test(config):
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    # Shimmy loads the game again by name and config at every reset: pass those, not a Game.
    api_test(OpenSpielCompatibilityV0(game_name=GAME_NAME, config=config), num_cycles=300)


def test_the_game_registered_under_its_name_with_its_parameters():
    game = pyspiel.load_game("python_shoot_pontoon(players=3,deals=2)")
    assert game.num_players() == 3 and game.get_type().short_name == GAME_NAME
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_parameters()["deals"] == 2 and game.max_chance_outcomes() == 52
    fixed = load_game(players=2, seats=4)
    assert fixed.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize("params, message", [
    ({"players": 1}, "players = 1: expected an int 2..10"),
    ({"players": 4, "seats": 3}, "seats = 3"),
    ({"rules": "poker"}, "unknown preset 'poker'"),
    ({"rules": "shoot num_decks:0"}, "num_decks"),
    ({"rules": "shoot num_decks"}, "'num_decks' is not field:value"),
    ({"rules": "shoot colour:red"}, "unknown option(s) ['colour']"),
    ({"deals": 0}, "deals = 0"),
    ({"fixed": "nobody", "seats": 3}, "nobody"),
    ({"max_buys": 9}, "max_buys = 9"),
    ({"colour": "red"}, "unknown parameter(s) ['colour']"),
    ({"chance": "suits"}, "chance = 'suits': expected one of ('cards', 'values')"),
    ({"chance": "values"}, "chance = 'values': the rules split by rank"),
    ({"chance": "values", "splits": False, "rules": "shoot special_pontoons:A*+JC"},
     "chance = 'values': the rules' special Pontoons"),
])
def test_a_bad_parameter_is_one_error_naming_it(params, message):
    with pytest.raises(ValueError, match=None) as error:
        ShootPontoonGame(params)
    assert message in str(error.value)


def test_chance_by_value_deals_each_value_of_the_pack_with_its_count():
    """A short pack's values, each as its stand-in card with the pack's share: the euchre pack's 4 aces, 4
    nines and 16 ten-value cards of 24; the stock's counts go down by value as the cards are dealt."""
    state = load_game(players=2, chance="values", splits=False, rules="shoot pack:euchre").new_initial_state()
    while not state.is_chance_node():  # the stake and the Shoot bet before the deal
        state.apply_action(state.legal_actions()[0])
    assert state.chance_outcomes() == [(0, 4 / 24), (32, 4 / 24), (36, 16 / 24)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 36) == "deal value 10"
    state.apply_action(36)
    assert state.chance_outcomes() == [(0, 4 / 23), (32, 4 / 23), (36, 15 / 23)]
    with pytest.raises(ValueError, match="card 37 is not in the stock"):
        state.apply_action(37)


def test_a_fixed_seat_that_draws_random_numbers_is_refused_by_name():
    game = load_game(players=2, seats=3, fixed="random")
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="seat 2's player 'random' draws random numbers"):
        while not state.is_terminal():
            outcomes = state.chance_outcomes() if state.is_chance_node() else None
            state.apply_action(outcomes[0][0] if outcomes else state.legal_actions()[0])


class RecordingTable:
    """A Table of real shuffles whose every card drawn is recorded with the stock it came from."""

    def __init__(self, rules, seats, banker, rng) -> None:
        self.table = Table(rules, seats, rng=rng, banker=banker)
        self.cards: list[tuple[int, np.ndarray]] = []
        shoe, draw = self.table.shoe, self.table.shoe.draw

        def recording_draw() -> int:
            stock = np.bincount(shoe.order[shoe.position:], minlength=52) if shoe.position < shoe.size else None
            card = draw()
            self.cards.append((card, stock))
            return card

        shoe.draw = recording_draw


def play_both(game: ShootPontoonGame, rng: np.random.Generator) -> int:
    """One episode on the reference Table (random legal actions for the players, the fixed seats' players
    for the others) and on the game fed the same cards and actions; every seat's chips compared at the
    end, the game's chance of each card compared with the Table's stock. Returns the deals played."""
    settings_ = game.settings
    config = settings_.table.config
    ref = RecordingTable(config.rules, config.num_players, settings_.table.first_banker, rng)
    table, deals = ref.table, 1
    table.start_deal()
    state, fed = game.new_initial_state(), 0
    while True:
        while table.to_act is not None and (table.phase == Phase.DEAL_OVER or table.to_act >= settings_.players):
            if table.phase == Phase.DEAL_OVER:  # not the last deal (its to_act is None)
                table.start_deal()
                deals += 1
            else:
                seat = table.to_act
                table.apply(config.players[seat].act(seat_view(table, seat), rng))
        if table.phase == Phase.DEAL_OVER and deals < config.deals_per_episode:
            table.start_deal()
            deals += 1
            continue
        while state.is_chance_node():
            card, stock = ref.cards[fed]
            outcomes = dict(state.chance_outcomes())
            if stock is not None:  # the game's chance of each card is the real shoe's stock
                expected = {c: n / stock.sum() for c, n in enumerate(stock) if n}
                assert outcomes.keys() == expected.keys()
                assert all(abs(outcomes[c] - p) < 1e-12 for c, p in expected.items())
            state.apply_action(card)
            fed += 1
        assert fed == len(ref.cards)
        if table.to_act is None:
            break
        assert state.current_player() == table.to_act
        mask = config.action_table.mask(seat_view(table, table.to_act))
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        index = int(rng.choice(np.flatnonzero(mask)))
        table.apply(config.action_table.to_action(index, seat_view(table, table.to_act)))
        state.apply_action(index)
    assert state.is_terminal()
    mine = state.table
    assert mine.balances == table.balances and (mine.shoot, mine.reserve, mine.banker) == (
        table.shoot, table.reserve, table.banker)
    unit = config.rules.base_stake
    assert state.returns() == [(table.wealth(p) - config.starting_chips) / unit for p in range(settings_.players)]
    assert abs(sum(state.returns())) < 1e-9 or settings_.players < settings_.seats
    return deals


def game_of(rules, seats: int, deals: int, players: int, fixed: str = "tips/stand17") -> ShootPontoonGame:
    parameter = rules_parameter(rules)
    assert "," not in parameter and "=" not in parameter
    game = pyspiel.load_game(GAME_NAME, {"rules": parameter, "players": players, "seats": seats, "deals": deals,
                                         "fixed": fixed})
    assert game.settings.rules == rules.replace(name=parameter)  # the parameter holds every field
    return game


@pytest.mark.parametrize("rules, seats, players", [
    (rules, seats, players) if rules == "shoot" or seats == 2 else
    pytest.param(rules, seats, players, marks=pytest.mark.slow)  # 10-30 s each: `make benchmark`
    for seats, players in [(2, 2), (4, 4), (5, 2)] for rules in ["shoot", "casino", "playtech"]])
def test_the_table_engine_and_the_game_agree_on_every_chip_per_preset(rules, seats, players):
    """9 tables x 280 episodes x 4 deals: 10,080 deals, each seat's chips equal at every episode's end."""
    game = ShootPontoonGame({"rules": rules, "players": players, "seats": seats, "deals": 4})
    rng = np.random.default_rng(seats * 10 + players)
    assert sum(play_both(game, rng) for _ in range(280)) == 280 * 4


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=table_variations(), seed=st.integers(0, 10_000), fixed=st.booleans())
def test_the_table_engine_and_the_game_agree_on_drawn_rule_sets(config, seed, fixed):
    _, kwargs = config
    rules, seats = kwargs["rules"], kwargs["num_players"]
    players = 2 if fixed and seats > 2 else seats
    if rules.banker_play == "dealer" or rules.shoot is False:
        fixed_player = "tips/dealer"
    else:
        fixed_player = "tips/stand17"
    game = game_of(rules, seats, kwargs["deals_per_episode"], players, fixed_player)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        play_both(game, rng)


def test_every_observation_equals_the_whole_table_envs_on_the_same_cards():
    from shoot_pontoon_env.multiagent import raw_env

    rng = np.random.default_rng(5)
    for params in ({"players": 4}, {"players": 3, "rules": "casino"}, {"players": 2, "reduced": True}):
        game = load_game(**params)
        for _ in range(30):
            state, moves = game.new_initial_state(), []
            while not state.is_terminal():  # random play, recording the cards and the actions
                if state.is_chance_node():
                    cards, chances = zip(*state.chance_outcomes())
                    move = int(rng.choice(cards, p=chances))
                else:
                    move = int(rng.choice(state.legal_actions()))
                moves.append((state.current_player(), move))
                state.apply_action(move)
            cards = [move for player, move in moves if player == pyspiel.PlayerId.CHANCE]
            env = raw_env(rules=params.get("rules", "shoot"), num_players=params["players"], engine="table")
            if params.get("reduced"):
                env = raw_env(rules=game.settings.rules, num_players=2, engine="table")
            env.reset(options={"stacked": cards})
            replay = game.new_initial_state()
            for player, move in moves:
                if player >= 0:
                    for seat in range(params["players"]):  # every seat's view, the one to act's and the others'
                        assert np.array_equal(np.asarray(replay.observation_tensor(seat), np.float32),
                                              env.observe(f"seat_{seat}")["observation"])
                    assert env.agent_selection == f"seat_{player}"
                    env.step(move)
                replay.apply_action(move)


def test_the_information_state_recalls_each_decision_and_shows_no_hidden_card():
    game = load_game(players=3)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    decisions = {0: 0, 1: 0, 2: 0}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        player = state.current_player()
        text = state.information_state_string(player)
        assert text.count(" -> ") == decisions[player]  # one line per earlier decision of its own
        for other in range(3):
            view = seat_view(state.table, other)
            hidden = {c for hand in state.table.hands if hand.seat != other
                      for c, up in zip(hand.cards, hand.face_up) if not up}
            shown = {c for hand in view.hands for c in hand.cards} | set(view.banker_cards)
            assert not hidden & shown - {c for h in state.table.hands if h.seat == other for c in h.cards}
        state.apply_action(int(rng.choice(state.legal_actions())))
        decisions[player] += 1


def test_a_state_survives_serialisation_and_clone_mid_chance():
    game = load_game(players=3, deals=2, rules="shoot shoe:persistent shoot_bet_points:before_deal/before_second_card")
    state, rng = game.new_initial_state(), np.random.default_rng(3)
    while not state.is_terminal():
        if state.is_chance_node() and len(state.history()) > 6:
            text = pyspiel.serialize_game_and_state(game, state)
            _, again = pyspiel.deserialize_game_and_state(text)
            copy = state.clone()
            for other in (again, copy):
                assert other.history() == state.history() and str(other) == str(state)
                assert other.chance_outcomes() == state.chance_outcomes()
        if state.is_chance_node():
            cards, chances = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(cards, p=chances)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.clone().returns() == state.returns()


def test_the_fast_table_copy_copies_everything_a_move_changes():
    import pickle

    from shoot_pontoon_env.engine.hand import Hand
    from shoot_pontoon_env.openspiel.chance import ChanceShoe
    from shoot_pontoon_env.openspiel.game import TABLE_ATTRIBUTES, copy_table

    game, rng = load_game(players=4, deals=3, rules="shoot shoe:persistent"), np.random.default_rng(2)
    table = game.new_initial_state().table
    assert set(vars(table)) == TABLE_ATTRIBUTES  # a new attribute must be added to copy_table too
    mutable = (list, dict, set, np.ndarray)
    hand = Hand(seat=1, box=0, original_stake=2, stake=2)
    assert {k for k, v in vars(hand).items() if isinstance(v, mutable)} == {"cards", "face_up"}
    assert {k for k, v in vars(ChanceShoe(1, FULL_PACK)).items() if isinstance(v, mutable)} == {"order", "counts", "supplied"}
    state = game.new_initial_state()
    while not state.is_terminal():  # at every resting point a copy played on leaves the original as it was
        if not state.is_chance_node():
            before = pickle.dumps(state.table)
            scratch = state.clone()
            while not scratch.is_terminal():
                outcomes = scratch.chance_outcomes() if scratch.is_chance_node() else None
                scratch.apply_action(outcomes[-1][0] if outcomes else scratch.legal_actions()[-1])
            assert pickle.dumps(state.table) == before and pickle.dumps(copy_table(state.table)) == before
        if state.is_chance_node():
            cards, chances = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(cards, p=chances)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
