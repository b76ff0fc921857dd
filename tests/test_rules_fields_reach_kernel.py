"""Every field of ``Rules`` reaches the batched engine's configuration, and the differential test's
generator of rules draws every field away from its default.

The kernel reads the rules only from its config arrays (``vector/layout.py``: the int64 ``c``, the
float64 ``f`` and the settlement bytes ``tab`` that ``vector/engine.batch_config`` builds), so a field
that changes none of their rule parts is a rule the batched engine ignores. And a field the
differential generator (``tests/vector/test_vector_differential.py::table_variations``) never draws
away from its default is a rule the kernel is never compared on.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import Phase, find, settings

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.rules import CASINO, SHOOT, SHOOT_BET_POINTS, Rules
from shoot_pontoon_env.vector.tables import TableBatch
from shoot_pontoon_env.vector.layout import C_FIELDS, F_FIELDS

sys.path.insert(0, str(Path(__file__).parent / "vector"))
try:
    from test_vector_differential import table_variations
finally:
    sys.path.pop(0)

SPECIAL = (("A*", "JC"),)
EXEMPT = {"name": "a label: a table plays no differently under another name"}


def _values(base: Rules, field: str, *others: Any) -> tuple[Rules, list[dict[str, Any]]]:
    """The base, then the base with ``field`` set to each of ``others`` (legal values all)."""
    return base, [{}] + [{field: value} for value in others]


VARIATIONS: dict[str, tuple[Rules, list[dict[str, Any]]]] = {
    "num_decks": _values(SHOOT, "num_decks", 2, 8),
    "pack": _values(SHOOT, "pack", "piquet", "euchre"),
    "shoe": _values(SHOOT, "shoe", "persistent"),
    "penetration": _values(SHOOT.replace(shoe="persistent"), "penetration", 0.5, 0.95),
    "base_stake": _values(SHOOT, "base_stake", 1, 5),
    "min_stake": _values(SHOOT, "min_stake", 1, 5),
    "max_stake": _values(SHOOT, "max_stake", 20),
    "max_boxes": _values(SHOOT, "max_boxes", 2, 3),
    # a table with a Shoot posts one: the two change together
    "shoot": (CASINO, [{}, {"shoot": True, "initial_shoot": 50}]),
    "initial_shoot": _values(SHOOT, "initial_shoot", 60),
    "shoot_cap": _values(SHOOT, "shoot_cap", 60, 100),
    "shoot_bet_points": _values(SHOOT, "shoot_bet_points", (), ("before_second_card",),
                                ("before_fourth_card",), SHOOT_BET_POINTS),
    "max_shoot_bet": _values(SHOOT, "max_shoot_bet", 4, 10),
    "reserved_shoot_percent": _values(SHOOT, "reserved_shoot_percent", 10, 50),
    "progressive_shoot_chips": _values(SHOOT, "progressive_shoot_chips", 1, 2),
    "bank_sale": _values(SHOOT, "bank_sale", False),
    "bank_sale_price": _values(SHOOT, "bank_sale_price", 5),
    "banker_peek": _values(SHOOT, "banker_peek", False),
    "banker_pontoon_multiple": _values(SHOOT, "banker_pontoon_multiple", 1, 3),
    "banker_play": _values(SHOOT, "banker_play", "dealer"),
    "dealer_stands_on": _values(SHOOT.replace(banker_play="dealer"), "dealer_stands_on", 16, 18),
    "dealer_hits_soft_17": _values(SHOOT.replace(banker_play="dealer"), "dealer_hits_soft_17", False),
    "dealer_shows_first_card": _values(SHOOT, "dealer_shows_first_card", True),
    "banker_five_cards": _values(SHOOT, "banker_five_cards", "total", "draw_on"),
    "punter_trick_beats_banker_trick": _values(SHOOT, "punter_trick_beats_banker_trick", True),
    "ties": _values(SHOOT, "ties", "push"),
    "stick_minimum": _values(SHOOT, "stick_minimum", 2, 16),
    "punter_loses_at_or_below": _values(SHOOT, "punter_loses_at_or_below", None, 16),
    "draw_on_21": _values(SHOOT, "draw_on_21", "soft", "no"),
    "buy_min_multiple": _values(SHOOT, "buy_min_multiple", 2),
    "buy_max_multiple": _values(SHOOT, "buy_max_multiple", 1, 3),
    "max_buys": _values(SHOOT, "max_buys", 0, 1, 3),
    "buy_after_twist": _values(SHOOT, "buy_after_twist", True),
    "max_stake_multiple": _values(SHOOT, "max_stake_multiple", None, 3, 20),
    "buy_face_down": _values(SHOOT, "buy_face_down", False),
    "double_stakes": _values(SHOOT, "double_stakes", True),
    "split_match": _values(SHOOT, "split_match", "value"),
    "max_split_hands": _values(SHOOT, "max_split_hands", 1, 2),
    "pontoon_after_split": _values(SHOOT, "pontoon_after_split", False),
    "split_bust_pays_double": _values(SHOOT, "split_bust_pays_double", True),
    "win_pays": _values(SHOOT, "win_pays", 2),
    "twenty_one_pays": _values(SHOOT, "twenty_one_pays", 2),
    "pontoon_pays": _values(SHOOT, "pontoon_pays", 3),
    "five_card_trick_pays": _values(SHOOT, "five_card_trick_pays", 3),
    "special_pontoons": _values(SHOOT, "special_pontoons", SPECIAL, (("AS", "J*"),)),
    # pays only where a special Pontoon is named
    "special_pontoon_pays": _values(SHOOT.replace(special_pontoons=SPECIAL), "special_pontoon_pays", 4),
}
FIELDS = [field.name for field in dataclasses.fields(Rules)]


def kernel_rules_config(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rule parts of the batched engine's config for a heads-up punter table under ``rules``: the
    fixed fields of ``c`` and ``f`` (not the action table and the players that follow them) and the
    settlement bytes."""
    env = gym.make("ShootPontoon-v0", rules=rules, num_players=2, engine="table").unwrapped
    config = TableBatch(env.config, 1).config
    return config.c[:C_FIELDS].copy(), config.f[:F_FIELDS].copy(), config.tab.copy()


def test_every_field_has_variations_or_an_exemption():
    assert set(VARIATIONS) | set(EXEMPT) == set(FIELDS)
    assert not set(VARIATIONS) & set(EXEMPT)


@pytest.mark.parametrize("field", sorted(VARIATIONS))
def test_every_value_of_a_field_gives_the_kernel_another_config(field):
    base, variants = VARIATIONS[field]
    rules = [base.replace(**changes) for changes in variants]
    assert len({getattr(r, field) for r in rules}) == len(rules), "the variations differ in the field"
    configs = [kernel_rules_config(r) for r in rules]
    for (a, config_a), (b, config_b) in itertools.combinations(zip(variants, configs), 2):
        assert any(not np.array_equal(x, y) for x, y in zip(config_a, config_b)), (
            f"Rules.{field}: {a or 'the base'} and {b} give the batched engine the same config")


def test_the_exempt_fields_change_nothing_the_kernel_reads():
    for field in EXEMPT:
        base = kernel_rules_config(SHOOT)
        other = kernel_rules_config(SHOOT.replace(**{field: "another"}))
        assert all(np.array_equal(x, y) for x, y in zip(base, other)), field


@pytest.mark.parametrize("field", [f for f in FIELDS if f not in EXEMPT])
def test_the_differential_generator_draws_every_field_away_from_its_default(field):
    default = getattr(Rules(), field)
    find(table_variations(), lambda config: getattr(config[1]["rules"], field) != default,
         settings=settings(max_examples=5000, database=None, phases=[Phase.generate], deadline=None))
