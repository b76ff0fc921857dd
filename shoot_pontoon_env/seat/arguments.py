"""Checks of the envs' constructor arguments: each error names the argument and what is allowed.

NumPy scalars are accepted wherever a Python int, float or bool is (``num_players=np.int64(4)``),
and come back as the Python type, so nothing downstream meets a NumPy chip count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..actions import is_int
from ..engine.table import MAX_PLAYERS, MIN_PLAYERS
from ..rules import CHIP_LIMIT, PRESETS, Rules, RulesError, get_rules
from ..players.policy import Policy
from ..players.strategies import STRATEGIES, make_strategy

RENDER_MODES = ("ansi", "human", "rgb_array")
ENGINES = ("auto", "batched", "table")
"""What plays a scalar env's episodes: the batched engine at one table (fast), the Table (the
readable reference, which renders and keeps the event log), or ``auto``: the batched engine
wherever it can play the table and nothing asks for a picture."""
PENALTY_LIMIT = float(CHIP_LIMIT)
"""The largest ``illegal_action_penalty`` (base stakes): with chip amounts bounded by the rules'
CHIP_LIMIT, no reward can leave the float32 range."""


def is_number(value: Any) -> bool:
    """A real number (a Python or NumPy int or float), not a bool: an amount that may be fractional,
    as ``actions.is_int`` is a whole one."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def check_rules(rules: Any) -> Rules:
    try:
        return get_rules(rules)
    except RulesError as error:
        if isinstance(rules, dict):  # a spec's own error names the bad option and what is allowed
            raise ValueError(f"rules = {rules!r}: {error}") from None
        raise ValueError(f"rules = {rules!r}: expected a preset name {sorted(PRESETS)}, a Rules instance, "
                         "or a preset with changes such as {'preset': 'shoot', 'max_shoot_bet': 2}") from None
    except TypeError:
        raise ValueError(
            f"rules = {rules!r}: expected a preset name {sorted(PRESETS)} or a Rules instance") from None


def check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    if not is_int(value) or value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} = {value!r}: expected an int {allowed}")
    return int(value)


def check_seed(value: Any, name: str = "seed") -> int | None:
    """A reset seed: None or a non-negative int (Python or NumPy; a bool is no seed, though Python
    counts it an int and Gymnasium's seeding takes it)."""
    if value is not None and (not is_int(value) or value < 0):
        raise ValueError(f"{name} = {value!r}: expected None or a non-negative int")
    return None if value is None else int(value)


MAX_DEALS_PER_EPISODE = 10**6
"""The longest episode, in deals: far past any session, and a bound the chip checks can add up."""


def check_deals_per_episode(value: Any) -> int:
    return check_int("deals_per_episode", value, 1, MAX_DEALS_PER_EPISODE)


MAX_CYCLES = 10**12
"""The most decisions ``max_cycles`` may name: far past the longest episode's (a million deals)."""


def check_max_cycles(value: Any, deals_per_episode: Any) -> int | None:
    """PettingZoo's ``max_cycles`` (None: no truncation). With ``deals_per_episode=None`` an episode
    has ``max_cycles + 1`` deals, so the deals' limit bounds it (and the error says so, not naming
    a deal count the user did not give)."""
    if value is None:
        return None
    if deals_per_episode is not None:
        return check_int("max_cycles", value, 1, MAX_CYCLES)
    high = MAX_DEALS_PER_EPISODE - 1
    if not is_int(value) or not 1 <= value <= high:
        raise ValueError(f"max_cycles = {value!r}: expected an int 1..{high} (with deals_per_episode=None an "
                         f"episode has max_cycles + 1 deals, at most {MAX_DEALS_PER_EPISODE})")
    return int(value)


def check_starting_chips(value: Any) -> int:
    """Each seat's chips at an episode's start: at most the rules' CHIP_LIMIT, as every amount."""
    return check_int("starting_chips", value, 0, CHIP_LIMIT)


def check_players(num_players: Any) -> int:
    return check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)


def check_strategy(name: str, spec: Any) -> Policy:
    if isinstance(spec, Policy) or (isinstance(spec, str) and spec in STRATEGIES):
        return make_strategy(spec)
    raise ValueError(
        f"{name} = {spec!r}: expected a strategy name {sorted(STRATEGIES)} or a Policy instance")


def check_strategies(name: str, spec: Any, count: int) -> list[Policy]:
    """One strategy for every seat (a name or object), or a sequence of exactly ``count``."""
    if isinstance(spec, (str, Policy)):
        return [check_strategy(name, spec) for _ in range(count)]
    if isinstance(spec, Sequence) and len(spec) == count:
        return [check_strategy(f"{name}[{i}]", s) for i, s in enumerate(spec)]
    raise ValueError(
        f"{name} = {spec!r}: expected a strategy name {sorted(STRATEGIES)}, a Policy, or a sequence "
        f"of {count} of them (one per seat, in seat order)"
    )


def check_penalty(value: Any) -> float:
    """A penalty is subtracted from the reward: negative would pay for an illegal action, and one
    beyond the float32 range would make the reward -inf."""
    if not is_number(value) or not math.isfinite(value) or not 0 <= value <= PENALTY_LIMIT:
        raise ValueError(f"illegal_action_penalty = {value!r}: expected a finite number in "
                         f"0..{PENALTY_LIMIT:g} (base stakes)")
    return float(value)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} = {value!r}: expected True or False")
    return bool(value)


def check_engine(value: Any) -> str:
    if not isinstance(value, str) or value not in ENGINES:
        raise ValueError(f"engine = {value!r}: expected one of {ENGINES}")
    return value


OBSERVATIONS = ("flat", "compact")
"""A punter seat's observation: the flat encoding of its SeatView (``encoding.py``), or the compact
features training uses (``features.py``), written by either engine."""


def check_observation(value: Any) -> str:
    if value not in OBSERVATIONS:
        raise ValueError(f"observation = {value!r}: expected one of {OBSERVATIONS}")
    return value


def check_render_mode(value: Any) -> str | None:
    if value is not None and value not in RENDER_MODES:
        raise ValueError(f"render_mode = {value!r}: expected None or one of {RENDER_MODES}")
    return value
