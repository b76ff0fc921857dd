"""Rules: presets, validation errors that name the field, the value and what is allowed."""

import pytest

from shoot_pontoon_env.rules import CASINO, PLAYTECH, PRESETS, SHOOT, Rules, RulesError, get_rules


def test_presets_by_name():
    assert set(PRESETS) == {"shoot", "casino", "playtech"}
    assert get_rules("playtech") is PLAYTECH and get_rules(SHOOT) is SHOOT
    with pytest.raises(RulesError, match=r"unknown rules preset 'blackjack'.*casino.*playtech.*shoot"):
        get_rules("blackjack")


def test_preset_values_follow_the_seeds():
    assert SHOOT.shoot and SHOOT.banker_play == "free" and SHOOT.num_decks == 1
    assert SHOOT.stick_minimum == 15 and SHOOT.max_stake_multiple == 5 and not SHOOT.buy_after_twist
    assert CASINO.max_boxes == 3 and CASINO.dealer_hits_soft_17 and CASINO.max_split_hands == 3
    assert PLAYTECH.num_decks == 8 and PLAYTECH.banker_peek and PLAYTECH.banker_pontoon_multiple == 1
    assert PLAYTECH.max_buys == 1 and PLAYTECH.buy_after_twist and PLAYTECH.split_match == "value"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"num_decks": 0}, r"Rules.num_decks = 0 is not allowed: expected an int in 1..8"),
        ({"num_decks": 2.0}, r"Rules.num_decks = 2.0"),
        ({"shoe": "infinite"}, r"Rules.shoe = 'infinite'.*one of \('reshuffle', 'persistent'\)"),
        ({"penetration": 1.5}, r"Rules.penetration = 1.5.*0.25..0.95"),
        ({"max_stake": 1}, r"Rules.max_stake = 1.*2\.\.1000000000"),
        ({"max_stake": 10**40}, r"Rules.max_stake = 10{40}.*2\.\.1000000000"),  # a -inf float32 reward
        ({"base_stake": 10**10}, r"Rules.base_stake = 10000000000.*1\.\.1000000000"),
        ({"shoot_bet_points": ("before_river",)}, r"Rules.shoot_bet_points"),
        ({"shoot_cap": 10}, r"Rules.shoot_cap = 10.*50\.\.1000000000"),
        ({"banker_play": "robot"}, r"Rules.banker_play = 'robot'"),
        ({"ties": "punter"}, r"Rules.ties = 'punter'.*\('banker', 'push'\)"),
        ({"buy_max_multiple": 0}, r"Rules.buy_max_multiple = 0"),
        ({"max_split_hands": 5}, r"Rules.max_split_hands = 5.*1..4"),
        ({"special_pontoons": (("AS", "XX"),)}, r"Rules.special_pontoons"),
        ({"banker_peek": "yes"}, r"Rules.banker_peek = 'yes'.*True or False"),
        ({"reserved_shoot_percent": 100}, r"Rules.reserved_shoot_percent = 100.*0..99"),
    ],
)
def test_bad_options_name_the_field_value_and_range(changes, message):
    with pytest.raises(RulesError, match=message):
        SHOOT.replace(**changes)


def test_casino_rules_refuse_shoot_options():
    with pytest.raises(RulesError, match=r"Rules.shoot_bet_points = \('before_deal',\).*shoot=False"):
        CASINO.replace(shoot_bet_points=("before_deal",))


def test_rules_are_frozen_and_hashable():
    with pytest.raises(AttributeError):
        SHOOT.num_decks = 2  # type: ignore[misc]
    assert hash(SHOOT) == hash(Rules(name="shoot"))
    assert SHOOT.to_dict()["name"] == "shoot"
