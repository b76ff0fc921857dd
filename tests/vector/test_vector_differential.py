"""The batched engine equals the scalar env: the same cards and actions give the same observation,
reward, mask, termination and chips at every step (the CartPole / CartPoleVectorEnv pattern).

CI plays thousands of random episodes of every preset and seat, and hypothesis-drawn Rules and table
variations; ``pytest -m slow`` plays many more."""

from __future__ import annotations

import pytest
from differential import run_differential
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shoot_pontoon_env.engine.table import Table
from shoot_pontoon_env.rules import (
    BANKER_FIVE_CARD_KINDS, CASINO, DRAW_ON_21_KINDS, PLAYTECH, SHOOT, SHOOT_BET_POINTS, Rules, RulesError,
)
from shoot_pontoon_env.players.strategies import DealerRulesBanker, ShootAwareBanker, ThresholdPunter, TipsPunter

PRESET_CONFIGS = [
    ("ShootPontoon-v0", {}),
    ("ShootPontoon-v0", {"deals_per_episode": 5, "banker": "shoot_aware", "agent_banker": "shoot_aware"}),
    ("ShootPontoon-Playtech-v0", {}),
    ("ShootPontoon-Casino-v0", {}),
    ("ShootPontoon-v0", {"observation": "compact", "deals_per_episode": 3, "rules": {"preset": "shoot", "shoe": "persistent"}}),
    ("ShootPontoonBanker-v0", {}),
    ("ShootPontoonBanker-v0", {"deals_per_episode": 5, "punters": ["tips", "threshold", "shoot_aware"]}),
]
DETERMINISTIC_PLAYERS = ["tips", "threshold", "stand17", "dealer", "shoot_aware"]


def _id(config) -> str:
    env_id, kwargs = config
    return env_id + "".join(f"-{k}" for k in kwargs)


@pytest.mark.parametrize("config", PRESET_CONFIGS, ids=_id)
def test_thousands_of_random_episodes_per_preset_match_the_scalar_env(config):
    env_id, kwargs = config
    episodes = 2000 if kwargs.get("deals_per_episode", 1) == 1 else 400
    diff = run_differential(env_id, kwargs, tables=32, episodes=episodes, seed=11)
    assert diff.episodes >= episodes


@pytest.mark.slow
@pytest.mark.parametrize("config", PRESET_CONFIGS, ids=_id)
def test_many_more_episodes_per_preset_match_the_scalar_env(config):
    env_id, kwargs = config
    run_differential(env_id, kwargs, tables=64, episodes=100_000, seed=12)


@st.composite
def table_variations(draw) -> tuple[str, dict]:
    """A Rules drawn around a preset (every option the engine has) and a table for one seat."""
    base = draw(st.sampled_from([SHOOT, CASINO, PLAYTECH]))
    shoot = draw(st.booleans()) if base is SHOOT else False
    buy_min = draw(st.integers(1, 2))
    changes: dict = {
        "num_decks": draw(st.integers(1, 8)),
        "pack": draw(st.sampled_from(["full", "full", "piquet", "euchre"])),
        "shoe": draw(st.sampled_from(["reshuffle", "persistent"])),
        "penetration": draw(st.sampled_from([0.5, 0.75, 0.95])),
        "max_boxes": draw(st.integers(1, 3)),
        "banker_peek": draw(st.booleans()),
        "banker_pontoon_multiple": draw(st.integers(1, 3)),
        "banker_play": draw(st.sampled_from(["free", "dealer"])),
        "dealer_stands_on": draw(st.integers(15, 18)),
        "dealer_hits_soft_17": draw(st.booleans()),
        "dealer_shows_first_card": draw(st.booleans()),
        "banker_five_cards": draw(st.sampled_from(BANKER_FIVE_CARD_KINDS)),
        "punter_trick_beats_banker_trick": draw(st.booleans()),
        "ties": draw(st.sampled_from(["banker", "push"])),
        "stick_minimum": draw(st.sampled_from([2, 12, 15, 16])),
        "punter_loses_at_or_below": draw(st.sampled_from([None, 15, 16])),
        "draw_on_21": draw(st.sampled_from(DRAW_ON_21_KINDS + (True, False))),
        "buy_min_multiple": buy_min,
        "buy_max_multiple": draw(st.integers(buy_min, 3)),
        "max_buys": draw(st.sampled_from([None, 0, 1, 2])),
        "buy_after_twist": draw(st.booleans()),
        "max_stake_multiple": draw(st.sampled_from([None, 1 + buy_min, 3, 5])),
        "buy_face_down": draw(st.booleans()),
        "double_stakes": draw(st.booleans()),
        "split_match": draw(st.sampled_from(["rank", "value"])),
        "max_split_hands": draw(st.integers(1, 4)),
        "pontoon_after_split": draw(st.booleans()),
        "split_bust_pays_double": draw(st.booleans()),
        "win_pays": draw(st.integers(1, 2)),
        "twenty_one_pays": draw(st.integers(1, 2)),
        "pontoon_pays": draw(st.integers(1, 3)),
        "five_card_trick_pays": draw(st.integers(1, 3)),
        "special_pontoons": draw(st.sampled_from([(), (("A*", "JC"),), (("AS", "J*"), ("A*", "QH"))])),
        "special_pontoon_pays": draw(st.integers(1, 5)),
    }
    if shoot:
        changes.update(
            shoot=True, initial_shoot=draw(st.sampled_from([4, 20, 50])), bank_sale=draw(st.booleans()),
            shoot_cap=draw(st.sampled_from([None, 60, 120])),
            shoot_bet_points=tuple(p for p in SHOOT_BET_POINTS if draw(st.booleans())),
            max_shoot_bet=draw(st.sampled_from([None, 4, 10])),
            reserved_shoot_percent=draw(st.sampled_from([0, 10, 50])),
            progressive_shoot_chips=draw(st.sampled_from([0, 1, 2])), bank_sale_price=draw(st.sampled_from([0, 7])),
            min_stake=2, max_stake=10, base_stake=2,
        )
    else:
        changes.update(shoot=False, initial_shoot=0, shoot_bet_points=(), shoot_cap=None, max_shoot_bet=None,
                       reserved_shoot_percent=0, progressive_shoot_chips=0, bank_sale=False)
    try:
        rules = Rules(**{**base.to_dict(), **changes, "name": "drawn"})
    except RulesError:
        rules = base
    num_players = draw(st.integers(2, 6))
    try:
        Table(rules, num_players)
    except ValueError:
        num_players = 2
    deals = draw(st.integers(1, 4))
    if rules.banker_play == "free" and draw(st.booleans()):
        punters = [draw(st.sampled_from(DETERMINISTIC_PLAYERS)) for _ in range(num_players - 1)]
        return "ShootPontoonBanker-v0", {"rules": rules, "num_players": num_players, "punters": punters,
                                         "deals_per_episode": deals}
    seat = draw(st.integers(1, num_players - 1))
    others = [draw(st.sampled_from(DETERMINISTIC_PLAYERS + ["tips_object"])) for _ in range(num_players - 2)]
    others = [TipsPunter(big_shoot_bet=3, large_shoot=2) if p == "tips_object" else p for p in others]
    banker = draw(st.sampled_from(["stand17", "dealer", "shoot_aware", "threshold"]))
    banker = {"threshold": ThresholdPunter(15), "dealer": DealerRulesBanker(16, False),
              "shoot_aware": ShootAwareBanker(sell_at=1.5)}.get(banker, banker)
    return "ShootPontoon-v0", {
        "rules": rules, "num_players": num_players, "seat": seat, "punters": others, "banker": banker,
        "agent_banker": draw(st.sampled_from(DETERMINISTIC_PLAYERS)), "deals_per_episode": deals,
        "illegal_action_penalty": draw(st.sampled_from([0.0, 1.0, 2.5])),
        "starting_chips": draw(st.sampled_from([0, 1000])),
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=table_variations(), seed=st.integers(0, 10_000))
def test_drawn_rules_and_tables_match_the_scalar_env(config, seed):
    env_id, kwargs = config
    run_differential(env_id, kwargs, tables=8, steps=40, seed=seed)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=table_variations(), seed=st.integers(0, 10_000))
def test_many_drawn_rules_and_tables_match_the_scalar_env(config, seed):
    env_id, kwargs = config
    run_differential(env_id, kwargs, tables=16, steps=200, seed=seed)


DEALER_SHOWN = {"preset": "shoot", "max_shoot_bet": 6, "ties": "push", "banker_play": "dealer", "dealer_stands_on": 15,
                "dealer_shows_first_card": True}

AGENT_CONFIGS = [
    ("ShootPontoon-v0", {}, "tips"), ("ShootPontoon-v0", {"deals_per_episode": 3}, "shoot_aware"),
    ("ShootPontoon-Casino-v0", {}, "threshold"), ("ShootPontoon-Playtech-v0", {"num_players": 2}, "optimal"),
    ("ShootPontoon-Casino-v0", {"num_players": 2}, "basic"), ("ShootPontoon-v0", {"num_players": 2}, "optimal"),
    ("ShootPontoonBanker-v0", {}, "shoot_aware"), ("ShootPontoonBanker-v0", {}, "dealer"),
    ("ShootPontoon-v0", {"stake_levels": [2], "rules": {"preset": "shoot", "max_shoot_bet": 2, "shoot_bet_points": [
        "before_second_card", "before_fourth_card"]}}, "optimal_shoot"),
    ("ShootPontoon-v0", {"num_players": 3, "rules": {"preset": "shoot", "max_shoot_bet": 6, "shoot_bet_points": [
        "before_deal", "before_second_card", "before_fourth_card"]}}, "optimal_shoot"),
    # the dealer's first card shown (the up-card rows of the Shoot tables), and a table where the optimum
    # bets before the deal
    ("ShootPontoon-v0", {"num_players": 3, "rules": {**DEALER_SHOWN, "shoot_bet_points": ["before_deal"]}},
     "optimal_shoot"),
    ("ShootPontoon-v0", {"num_players": 3, "rules": {**DEALER_SHOWN, "shoot_bet_points": [
        "before_second_card", "before_fourth_card"]}}, "optimal_shoot"),
    # solved for one stake riding, with the whole Shoot (50) in reach: both engines bet the one stake
    ("ShootPontoon-v0", {"num_players": 3, "rules": {"preset": "shoot", "shoot_bet_points": [
        "before_second_card", "before_fourth_card"]}}, "optimal_shoot_one_stake"),
]


@pytest.mark.parametrize(("env_id", "kwargs", "name"), AGENT_CONFIGS, ids=lambda v: v if isinstance(v, str) else "")
def test_the_kernel_plays_an_agent_seat_as_the_strategy_does_on_the_real_view(env_id, kwargs, name):
    """The batched evaluation lets the kernel play rule-based and solver agents: at every step it
    chooses the index the strategy itself chooses from the table's SeatView."""
    import gymnasium as gym

    from shoot_pontoon_env.solver import solve
    from shoot_pontoon_env.solver.player import OptimalPunter
    from shoot_pontoon_env.players.strategies import make_strategy

    if name in ("optimal", "basic"):
        rules = gym.make(env_id, **kwargs).unwrapped.rules
        agent = OptimalPunter(solve(rules, infinite=name == "basic"))
    elif name == "optimal_shoot":  # the solver's Shoot bets at every point the rules have
        rules = gym.make(env_id, **kwargs).unwrapped.rules
        agent = OptimalPunter(solve(rules, shoot_ratio=rules.max_shoot_bet / rules.base_stake), shoot_bets=True)
    elif name == "optimal_shoot_one_stake":
        rules = gym.make(env_id, **kwargs).unwrapped.rules
        agent = OptimalPunter(solve(rules, shoot_ratio=1.0), shoot_bets=True)
        assert agent.shoot_bet_chips == rules.base_stake < rules.initial_shoot
    else:
        agent = make_strategy(name)
    diff = run_differential(env_id, kwargs, tables=16, episodes=600, seed=21, agent=agent)
    assert diff.episodes >= 600
