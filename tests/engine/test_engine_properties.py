"""Properties over random rule configurations and random legal play (hypothesis)."""

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shoot_pontoon_env.actions import Action, ActionKind, IllegalActionError
from shoot_pontoon_env.cards import best_total
from shoot_pontoon_env.engine import Phase, Table
from shoot_pontoon_env.rules import CASINO, PLAYTECH, SHOOT, SHOOT_BET_POINTS
from shoot_pontoon_env.shoe import ShoeExhaustedError


@st.composite
def rule_sets(draw):
    base = draw(st.sampled_from([SHOOT, CASINO, PLAYTECH]))
    changes = dict(
        num_decks=draw(st.integers(1, 4)),
        shoe=draw(st.sampled_from(["reshuffle", "persistent"])),
        banker_peek=draw(st.booleans()),
        ties=draw(st.sampled_from(["banker", "push"])),
        draw_on_21=draw(st.sampled_from(["no", "soft", "any"])),
        double_stakes=draw(st.booleans()),
        max_split_hands=draw(st.integers(1, 4)),
        split_match=draw(st.sampled_from(["rank", "value"])),
        max_boxes=draw(st.integers(1, 3)),
        banker_five_cards=draw(st.sampled_from(["trick", "total", "draw_on"])),
        punter_trick_beats_banker_trick=draw(st.booleans()),
        split_bust_pays_double=draw(st.booleans()),
        special_pontoons=draw(st.sampled_from([(), (("A*", "JC"),)])),
    )
    if base.shoot:
        changes.update(
            shoot_bet_points=tuple(p for p in SHOOT_BET_POINTS if draw(st.booleans())),
            shoot_cap=draw(st.sampled_from([None, 60, 200])),
            reserved_shoot_percent=draw(st.sampled_from([0, 10, 50])),
            progressive_shoot_chips=draw(st.integers(0, 2)),
            max_shoot_bet=draw(st.sampled_from([None, 5])),
            bank_sale_price=draw(st.integers(0, 20)),
            max_buys=draw(st.sampled_from([None, 1, 2])),
        )
    return base.replace(**changes)


def random_action(table, rng):
    moves = table.legal_moves()
    move = moves[int(rng.integers(len(moves)))]
    high = min(move.high, move.low + 25)
    return Action(move.kind, int(rng.integers(move.low, high + 1)))


def fits(rules, players):
    return 5 * (players - 1) * rules.max_boxes + rules.banker_card_limit <= 52 * rules.num_decks


def fits_with_splits(rules, players):
    """A shoe that cannot run dry even if every box splits to the limit and draws five cards."""
    return 5 * (players - 1) * rules.max_boxes * rules.max_split_hands + rules.banker_card_limit <= 52 * rules.num_decks


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_invariant(rules, players, seed):
    assume(fits(rules, players))
    rng = np.random.default_rng(seed)
    table = Table(rules, players, rng=np.random.default_rng(seed + 1), starting_chips=500)
    total = table.total_chips
    for _ in range(15):
        table.start_deal()
        steps = 0
        while table.to_act is not None:
            try:
                if rng.random() < 0.02:
                    table.forfeit()
                else:
                    table.apply(random_action(table, rng))
            except ShoeExhaustedError:
                assert not fits_with_splits(rules, players)
                return
            steps += 1
            assert steps < 2000
            assert table.total_chips == total, "chips created or lost"
            assert table.shoot >= 0 and table.reserve >= 0
            if rules.shoot_cap is not None:
                assert table.shoot + table.reserve <= max(rules.shoot_cap, rules.initial_shoot)
            assert table.outstanding_shoot_bets <= table.shoot
            for hand in table.hands:
                assert len(hand.cards) <= 5
                if rules.max_stake_multiple is not None and not hand.doubled:
                    assert hand.stake <= rules.max_stake_multiple * hand.original_stake
                if rules.max_buys is not None:
                    assert hand.buys <= rules.max_buys
                if hand.settled and hand.cards and best_total(hand.cards)[0] > 21:
                    assert all(hand.face_up)
            assert len(table.banker_cards) <= rules.banker_card_limit
            if len(table.banker_cards) > 5:  # only a banker that draws on, and never after a bust
                assert not rules.banker_stops_at_five and best_total(table.banker_cards[:-1])[0] <= 21
        assert table.phase == Phase.DEAL_OVER
        assert all(h.settled for h in table.hands)
        try:
            table.apply(Action(ActionKind.STICK))
            raise AssertionError("an action was accepted after the deal ended")
        except IllegalActionError:
            pass


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets(), players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_the_same_seed_replays_the_same_deals(rules, players, seed):
    assume(fits_with_splits(rules, players))
    def run():
        rng = np.random.default_rng(seed)
        table = Table(rules, players, rng=np.random.default_rng(seed + 1))
        for _ in range(5):
            table.start_deal()
            while table.to_act is not None:
                table.apply(random_action(table, rng))
        return table.balances, table.shoot, table.events

    assert run() == run()


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_an_illegal_action_leaves_the_state_unchanged(rules, seed):
    import pickle

    rng = np.random.default_rng(seed)
    table = Table(rules, 3, rng=np.random.default_rng(seed + 1))
    table.start_deal()
    for _ in range(int(rng.integers(0, 12))):
        if table.to_act is None:
            break
        table.apply(random_action(table, rng))
    before = pickle.dumps(table)
    candidates = [Action(kind, amount) for kind in ActionKind for amount in (0, 1, 3, 10**6)]
    for action in candidates:
        if not table.is_legal(action):
            try:
                table.apply(action)
                raise AssertionError(f"{action} accepted")
            except IllegalActionError as error:
                assert str(action) in str(error)
            assert pickle.dumps(table) == before
