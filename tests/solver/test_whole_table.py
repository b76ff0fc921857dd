"""The whole table as a game (issue 38, item 3): the banker's best response reading every box.

- The punters' rows carry the chance of their plays (``mass``: summing to 1 over every deal), and the rows
  that show split hands as the engine does refine the heads-up model's one split observation (the same
  rows, split by what the banker sees).
- Two boxes' rows combine as the product of their plays (against a brute-force sum).
- With one box (no splits, where the two models of a split box are one) the table's best response is the
  heads-up one (``best_banker.evaluate``, another code path): the same decisions, and the paired estimate
  of its value within 3 standard errors of the exact value. Rows that lump split boxes are refused.
- At three seats: each table's exact conditional value is what the engine's deals at that table average
  (paired, within 3 standard errors), the best response is never worse than the reference banker at any
  table, and the reference's conditional values average to its exact value (the sum of its heads-up pair
  values).
- A punter that reads the other boxes is reported as not modelled, the NashConv as a lower bound.
- ``table-exploitability --json`` answers with ``exploitability``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest

from shoot_pontoon_env.actions import Action
from shoot_pontoon_env.cards import best_total, parse_cards
from shoot_pontoon_env.engine import Phase, Table
from shoot_pontoon_env.engine.view import SeatView, seat_view
from shoot_pontoon_env.players.session import play_until
from shoot_pontoon_env.players.policy import Policy, stick_or_draw
from shoot_pontoon_env.players.strategies import TipsPunter, make_strategy
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.solver.__main__ import main as solver_main
from shoot_pontoon_env.solver.dealer import NUM_OUTCOMES
from shoot_pontoon_env.solver.headsup.best_banker import evaluate
from shoot_pontoon_env.solver.headsup.best_response import pair_value, two_hand_rules
from shoot_pontoon_env.solver.headsup.game_banker import JointChance
from shoot_pontoon_env.solver.headsup.game_punter import is_split_observation, punter_rows, strategy_policy
from shoot_pontoon_env.solver.whole_table.best_banker import Subtree, TableBestBanker
from shoot_pontoon_env.solver.whole_table.deals import TableSample, play_tables
from shoot_pontoon_env.solver.whole_table.exploitability import table_exploitability
from shoot_pontoon_env.solver.whole_table.joint import Rows, combine

RULES = two_hand_rules(SHOOT)
TIPS = make_strategy("tips")
NOTHING = np.zeros((1, 10), dtype=np.int64)


@pytest.fixture(scope="module")
def lumped():
    return punter_rows(RULES, strategy_policy(TIPS))


@pytest.fixture(scope="module")
def detailed():
    return punter_rows(RULES, strategy_policy(TIPS), split_detail=True)


def test_masses_sum_to_one_and_split_detail_refines_the_rows(lumped, detailed):
    joint = JointChance.of(RULES)
    for rows in (lumped, detailed):
        chance = joint.chance(rows.counts, NOTHING)[0]
        assert (chance * rows.mass).sum() == pytest.approx(1.0, abs=1e-12)
    totals = [joint.chance(rows.counts, NOTHING)[0] @ rows.payoff for rows in (lumped, detailed)]
    np.testing.assert_allclose(totals[1], totals[0], atol=1e-12)
    split = [o for o in detailed.observations if any(getattr(h, "from_split", False) for h in o)]
    assert len(split) > 1000 and not any(is_split_observation(o) for o in detailed.observations)
    assert all(len(o) == 2 for o in split)
    # the same (observation-free) rows: each value count's mass and payoff agree
    def by_counts(rows):
        out = {}
        for k, m, w in zip(map(tuple, rows.counts), rows.mass, rows.payoff):
            acc = out.setdefault(k, [0.0, np.zeros(NUM_OUTCOMES)])
            acc[0] += m
            acc[1] = acc[1] + w
        return out

    a, b = by_counts(lumped), by_counts(detailed)
    assert a.keys() == b.keys()
    for k in list(a)[::97]:
        assert b[k][0] == pytest.approx(a[k][0], rel=1e-12)
        np.testing.assert_allclose(b[k][1], a[k][1], rtol=1e-10, atol=1e-14)


def test_combine_is_the_product_of_the_boxes_plays():
    rng = np.random.default_rng(3)
    full = np.array([4] * 9 + [16])

    def rows(n):
        counts = rng.integers(0, 3, size=(n, 10))
        return Rows(counts, rng.normal(size=(n, NUM_OUTCOMES)), rng.random(n))

    a, b = rows(7), rows(5)
    b.counts[0] = a.counts[0]  # a sum shared by two pairs
    b.counts[1, 9] = 15  # a pair the shoe cannot deal
    got = combine(a, b, full)
    want: dict[tuple, list] = {}
    for i in range(7):
        for j in range(5):
            k = tuple(a.counts[i] + b.counts[j])
            if any(np.array(k) > full):
                continue
            acc = want.setdefault(k, [0.0, np.zeros(NUM_OUTCOMES)])
            acc[0] += a.mass[i] * b.mass[j]
            acc[1] = acc[1] + a.payoff[i] * b.mass[j] + a.mass[i] * b.payoff[j]
    assert sorted(map(tuple, got.counts)) == sorted(want)
    for k, m, w in zip(map(tuple, got.counts), got.mass, got.payoff):
        assert m == pytest.approx(want[k][0], rel=1e-12)
        np.testing.assert_allclose(w, want[k][1], rtol=1e-12)


def test_one_box_decides_as_the_heads_up_best_response():
    rules = RULES.replace(max_split_hands=1)  # without splits the two models of a split box are one
    lumped = punter_rows(rules, strategy_policy(TIPS), split_detail=True)
    heads_up = evaluate(lumped)
    banker = TableBestBanker(rules, [lumped], [1])
    space = banker.space
    counts = np.bincount(lumped.obs_index)
    live = np.nonzero(~lumped.all_settled)[0]
    picked = list(live[np.argsort(-counts[live])[:6]]) + list(np.random.default_rng(0).choice(live, 6, replace=False))
    compared = 0
    for o in picked:
        observation = lumped.observations[o]
        for start in np.nonzero(space.start > 0)[0][::3]:
            subtree = Subtree(space, int(start))
            for (m, node), at in banker.solve((observation,), int(start)).items():
                if not (space.levels[m].can_draw[node] and m + 1 in subtree.nodes):
                    continue
                if abs(at.stick - at.drawn) > 1e-9 * abs(at.stick):  # a tie may fall either way
                    assert at.draw == bool(heads_up.draws[m][node, o]), (observation, space.levels[m].values[node])
                    compared += 1
    assert compared > 500


class KingReader(Policy):
    """Stands on 17, but draws on 17 when its first card is a King: it reads a rank, as a trained banker may."""

    name = "king_reader"

    def banker_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        total = best_total(view.banker_cards)[0]
        return stick_or_draw(view, total >= 17 and not (view.banker_cards[0] // 4 == 12 and total == 17))


def test_a_reference_that_reads_the_table_is_valued_at_each_view():
    rules = RULES.replace(max_split_hands=1)
    rows = punter_rows(rules, strategy_policy(TIPS), split_detail=True)

    def view_for(first: str) -> SeatView:  # the punter stands on 9, 9; the banker holds ``first`` and a 7
        table = Table(rules, 2, rng=np.random.default_rng(0), banker=0)
        table.start_deal(stacked=parse_cards(f"9S {first} 9H 7D"))
        play_until(table, [KingReader(), TIPS], np.random.default_rng(0),
                   lambda t: t.to_act == 0 and t.phase == Phase.BANKER)
        return seat_view(table, 0)

    king, queen = view_for("KS"), view_for("QS")
    alone = [TableBestBanker(rules, [rows], [1], reference=KingReader()).conditional_net(v)[1] for v in (king, queen)]
    shared = TableBestBanker(rules, [rows], [1], reference=KingReader())
    assert alone[0] != alone[1]
    assert [shared.conditional_net(v)[1] for v in (king, queen)] == alone


def test_lumped_split_rows_are_refused(lumped):
    with pytest.raises(ValueError, match="split_detail=True"):
        TableBestBanker(RULES, [lumped], [1])


def test_one_box_estimate_is_the_heads_up_value():
    rules = RULES.replace(max_split_hands=1)  # without splits the two models of a split box are one
    rows = punter_rows(rules, strategy_policy(TIPS), split_detail=True)
    exact = evaluate(rows).value
    sample = play_tables(rules, TableBestBanker(rules, [rows], [1]), [TIPS], 3000, seed=11)
    assert (sample.conditional <= sample.reference + 1e-9).all()
    gain = TableSample.mean((sample.conditional - sample.reference) / rows.stake)
    estimate = pair_value(rows, Policy(), rules).value + gain[0]
    assert gain[0] < -0.01 and abs(estimate - exact) < 3 * gain[1], (estimate, exact, gain)


def test_three_seats_conditional_values_are_what_the_engine_averages(detailed, lumped):
    banker = TableBestBanker(RULES, [detailed, detailed], [1, 2], reference=make_strategy("dealer"))
    sample = play_tables(RULES, banker, [TIPS, TIPS], 1500, seed=5)
    assert not np.isnan(sample.conditional).any() and banker.unmodelled == 0
    assert (sample.conditional <= sample.reference + 1e-9).all()
    assert (sample.conditional < sample.reference - 1e-9).mean() > 0.05
    off, se = TableSample.mean(sample.net - sample.conditional)  # the same deals: E[net | table] = conditional
    assert abs(off) < 3 * se, (off, se)
    exact = 2 * pair_value(lumped, make_strategy("dealer"), RULES).value * detailed.stake
    mean, se = TableSample.mean(sample.reference)
    assert abs(mean - exact) < 3 * se, (mean, exact, se)


@dataclass(repr=True)
class ReadsTheTable(TipsPunter):
    """``tips``, but it twists on 17 to 20 once another box shows a face-up card (busts tips never shows)."""

    name = "reads_the_table"

    def punter_play(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        others = any(h.seat != view.seat and h.cards for h in view.hands)
        if hand is not None and others and 17 <= hand.total <= 20 and len(hand.cards) < 5:
            return stick_or_draw(view, stick=False)
        return super().punter_play(view, rng)


def test_a_punter_that_reads_the_other_boxes_is_not_modelled():
    rules = RULES.replace(max_split_hands=1)  # no split boxes: quicker rows
    result = table_exploitability(rules, ReadsTheTable(), make_strategy("stand17"), players=3, deals=300, seed=2)
    assert not result.modelled and result.banker_gain is None and result.punter_gains is None
    assert result.nash_conv_is_lower_bound and result.nash_conv == result.engine_gain.value
    assert json.loads(json.dumps(result.to_dict()))["punters_modelled"] is False


def test_bad_table_sizes_are_refused_by_name():
    with pytest.raises(ValueError, match="players = 1: expected 2"):
        table_exploitability(RULES, TIPS, make_strategy("stand17"), players=1, deals=100)
    with pytest.raises(ValueError, match="deals = 1: expected 2 or more"):
        table_exploitability(RULES, TIPS, make_strategy("stand17"), players=3, deals=1)


def test_table_exploitability_json(capsys):
    assert solver_main(["table-exploitability", "--players", "3", "--punter", "tips", "--banker", "stand17",
                        "--deals", "300", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["players"] == 3 and out["punters_modelled"] and not out["nash_conv_is_lower_bound"]
    assert out["profile_value_exact"] and out["banker_gain"]["value"] > 0 and len(out["punter_gains"]) == 2
    assert out["exploitability"] == pytest.approx(out["nash_conv"] / 3)
    assert out["nash_conv"] == pytest.approx(out["banker_gain"]["value"] + sum(out["punter_gains"]))
    assert "stage 4 of 4" in captured.err
    certified = out["certified"]
    assert 0 <= certified["banker_gain"]["low"] <= out["banker_gain"]["value"] <= certified["banker_gain"]["high"]
    assert certified["nash_conv"]["low"] <= out["nash_conv"] <= certified["nash_conv"]["high"]
    best = out["banker_best_response_value"]["value"]
    assert certified["banker_best_response_value"]["low"] <= best <= certified["banker_best_response_value"]["high"]
