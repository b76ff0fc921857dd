"""The certified interval of the whole-table best response (``solver.whole_table.bounds``).

- The empirical Bernstein interval holds the true mean of a known law in every one of 2,000 samples (its
  stated chance of missing is 0.001, and it is conservative), is wider than a normal 3-standard-error
  interval, and narrows as the sample grows.
- Two bankers' exact conditional values at a table differ by at most the boxes' swing (what the bound
  takes as the range of each table's difference).
- Bad inputs are refused by name.
"""

from __future__ import annotations

import numpy as np
import pytest

from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.solver.headsup.best_response import two_hand_rules
from shoot_pontoon_env.solver.headsup.game_punter import punter_rows, strategy_policy
from shoot_pontoon_env.solver.whole_table.best_banker import TableBestBanker
from shoot_pontoon_env.solver.whole_table.bounds import box_swing, empirical_bernstein
from shoot_pontoon_env.solver.whole_table.deals import play_tables


def test_the_interval_holds_a_known_mean_every_time():
    rng = np.random.default_rng(3)
    width = 6.0
    mean = 0.1 * width  # a skewed law, as the best response's gains are (mostly 0, now and then large)
    misses = 0
    for _ in range(2000):
        values = width * (rng.random(400) < 0.1)
        interval = empirical_bernstein(values, 0.0, width)
        misses += not interval.low <= mean <= interval.high
    assert misses == 0
    normal = 3 * values.std(ddof=1) / np.sqrt(len(values))
    assert interval.high - interval.low > 2 * normal
    wide = empirical_bernstein(values[:100], 0.0, width)
    assert wide.high - wide.low > interval.high - interval.low


def test_two_bankers_differ_at_a_table_by_at_most_the_boxes_swing():
    rules = two_hand_rules(SHOOT).replace(max_split_hands=1)
    tips = make_strategy("tips")
    rows = punter_rows(rules, strategy_policy(tips), split_detail=True)
    swing = box_swing(rows)
    assert 2 <= swing < np.inf
    sample = play_tables(rules, TableBestBanker(rules, [rows, rows], [1, 2]), [tips, tips], 300, seed=4)
    differences = (sample.reference - sample.conditional) / rows.stake
    assert (differences >= -1e-9).all() and (differences <= 2 * swing + 1e-9).all()
    assert differences.max() > 0


@pytest.mark.parametrize("values, low, high, confidence, says", [
    ([0.5], 0, 1, 0.999, "1 samples: a certified interval needs two"),
    ([0.5, 0.6], 0, 1, 1.0, "confidence = 1.0: expected a chance strictly between 0 and 1"),
    ([0.5, 0.6], 1, 0, 0.999, r"range \[1, 0\]: expected low <= high"),
    ([0.5, 1.5], 0, 1, 0.999, r"outside the stated range \[0, 1\]"),
])
def test_bad_inputs_are_refused_by_name(values, low, high, confidence, says):
    with pytest.raises(ValueError, match=says):
        empirical_bernstein(np.array(values), low, high, confidence)
