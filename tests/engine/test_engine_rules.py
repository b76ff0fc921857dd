"""Rules: presets, validation errors that name the field, the value and what is allowed."""

import pytest

from shoot_pontoon_env.rules import CASINO, PLAYTECH, PRESETS, SHOOT, Rules, RulesError, get_rules, rules_from_spec


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
    # the published game: a soft 21 may chase the trick; the dealer's five cards are a trick,
    # which a player's trick ties in 004 ("beats every hand except Pontoon") and beats in 003
    assert SHOOT.draw_on_21 == "any" and CASINO.draw_on_21 == PLAYTECH.draw_on_21 == "soft"
    assert SHOOT.banker_five_cards == CASINO.banker_five_cards == PLAYTECH.banker_five_cards == "trick"
    assert CASINO.punter_trick_beats_banker_trick and not PLAYTECH.punter_trick_beats_banker_trick
    assert not SHOOT.punter_trick_beats_banker_trick


def test_draw_on_21_accepts_the_older_booleans():
    assert SHOOT.replace(draw_on_21=True).draw_on_21 == "any"
    assert SHOOT.replace(draw_on_21=False).draw_on_21 == "no"
    assert SHOOT.replace(draw_on_21=False) == SHOOT.replace(draw_on_21="no")
    assert [SHOOT.replace(draw_on_21=k).may_draw_on(21, True) for k in ("no", "soft", "any")] == [False, True, True]
    assert [SHOOT.replace(draw_on_21=k).may_draw_on(21, False) for k in ("no", "soft", "any")] == [False, False, True]


def test_a_banker_drawing_on_may_hold_more_cards():
    assert SHOOT.banker_card_limit == 5
    assert SHOOT.replace(banker_five_cards="draw_on").banker_card_limit == 12  # A A A A 2 2 2 2 3 3 3 + 1
    assert PLAYTECH.replace(banker_five_cards="draw_on").banker_card_limit == 22  # 21 aces + 1


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
        ({"draw_on_21": "hard"}, r"Rules.draw_on_21 = 'hard'.*\('no', 'soft', 'any'\)"),
        ({"banker_five_cards": 5}, r"Rules.banker_five_cards = 5.*\('trick', 'total', 'draw_on'\)"),
        ({"punter_trick_beats_banker_trick": 1}, r"Rules.punter_trick_beats_banker_trick = 1.*True or False"),
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


def test_a_preset_with_changes_from_plain_data():
    spec = {"preset": "shoot", "shoot_bet_points": ["before_second_card", "before_fourth_card"], "max_shoot_bet": 2}
    rules = get_rules(spec)
    assert rules == SHOOT.replace(name="shoot-custom", shoot_bet_points=("before_second_card", "before_fourth_card"),
                                  max_shoot_bet=2)
    assert rules_from_spec({"preset": "casino", "name": "mine", "special_pontoons": []}).name == "mine"
    assert get_rules({"preset": "playtech"}) == PLAYTECH.replace(name="playtech-custom")


@pytest.mark.parametrize(("spec", "message"), [
    ({"max_shoot_bet": 2}, r"expected a 'preset' key naming one of \['casino', 'playtech', 'shoot'\]"),
    ({"preset": "blackjack"}, r"'preset' key"),
    ({"preset": "shoot", "max_shot_bet": 2}, r"unknown option\(s\) \['max_shot_bet'\]"),
    ({"preset": "shoot", "max_shoot_bet": 0}, r"Rules.max_shoot_bet = 0 is not allowed"),
    ({"preset": "shoot", "shoot_bet_points": ["before_river"]}, r"Rules.shoot_bet_points"),
])
def test_a_bad_rules_spec_names_what_is_wrong(spec, message):
    with pytest.raises(RulesError, match=message):
        get_rules(spec)
