"""The engine's contract: legality, errors, forfeits, event log, copies and replay."""

import copy
import pickle

import numpy as np
import pytest
from scripted import new_table, play

from shoot_pontoon_env.actions import STICK, TWIST, Action, ActionKind, IllegalActionError, shoot_bet, stake
from shoot_pontoon_env.engine import RESERVE_ACCOUNT, SHOOT_ACCOUNT, TABLE_ACCOUNT, EventKind, Phase, Table
from shoot_pontoon_env.rules import CASINO
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.players.strategies import RandomPlayer


def test_table_arguments_are_checked():
    with pytest.raises(ValueError, match=r"num_players = 11: expected an int in 2..10"):
        Table("shoot", 11)
    with pytest.raises(ValueError, match=r"banker = 3: expected a seat in 0..2"):
        Table("shoot", 3, banker=3)
    with pytest.raises(ValueError, match=r"num_players = 10: 27 boxes.*1-deck shoe"):
        Table(CASINO.replace(num_decks=1), 10)
    with pytest.raises(ValueError, match=r"starting_chips"):
        Table("shoot", 3, starting_chips=[1, 2])


def test_no_action_is_accepted_between_deals_or_after_a_hand_ends():
    table = play(new_table(), "TS 9C TD 9H 7D 8C",
                 [(1, stake(2)), (2, stake(2)), (1, shoot_bet(0)), (2, shoot_bet(0)), (1, STICK)])
    before = pickle.dumps(table)
    assert table.to_act == 2
    with pytest.raises(IllegalActionError):
        table.apply(Action(ActionKind.KEEP_BANK))
    assert pickle.dumps(table) == before
    for action in (STICK, STICK, Action(ActionKind.KEEP_BANK)):
        table.apply(action)
    assert table.phase == Phase.DEAL_OVER and table.legal_moves() == ()
    with pytest.raises(IllegalActionError, match="legal now: none"):
        table.apply(STICK)
    with pytest.raises(IllegalActionError, match="no deal is in progress"):
        table.misdeal()


def test_start_deal_refuses_while_a_deal_is_running():
    table = new_table()
    table.start_deal()
    with pytest.raises(IllegalActionError, match="the current deal is not over"):
        table.start_deal()


def test_non_actions_are_rejected_naming_the_legal_ones():
    table = new_table()
    table.start_deal()
    with pytest.raises(IllegalActionError, match=r"illegal action stick \(not an Action\); legal now: stake 2..10"):
        table.apply("stick")  # type: ignore[arg-type]


def test_forfeit_loses_the_hands_in_play_like_a_bust():
    table = play(new_table(), "TS 9C TD 9H 7D 8C", [(1, stake(4)), (2, stake(2)), (1, shoot_bet(5)), (2, shoot_bet(0))])
    table.forfeit()
    assert table.hands[0].settled and table.balances[1] == 91 and table.shoot == 55 and table.to_act == 2
    assert any(e.kind == EventKind.FORFEIT for e in table.events)


def test_forfeit_while_staking_and_as_banker():
    table = new_table()
    table.start_deal(stacked="TS 9C 9H 7D 8C 5S")
    table.forfeit()  # seat 1 forfeits a minimum stake before any card
    assert table.balances[1] == 98 and table.hands[0].settled and table.to_act == 2
    table.apply(stake(2))
    table.apply(shoot_bet(0))
    table.apply(STICK)  # seat 2: 9C 7D... = 16 (cards shift: seat 2 is the only hand dealt)
    table.forfeit()  # the banker gives up: counts as bust, the stood hand wins
    assert table.balances == [50 + 2 - 2, 98, 102]


def test_event_log_records_cards_actions_and_payments():
    table = play(new_table(), "TS 9C TD 6H 8D 7C 9S",
                 [(1, stake(3)), (2, stake(2)), (1, shoot_bet(4)), (2, shoot_bet(0)), (1, TWIST)])
    kinds = [e.kind for e in table.events]
    assert kinds[:2] == [EventKind.DEAL_START, EventKind.STAKE]
    cards = [e for e in table.events if e.kind == EventKind.CARD]
    assert [e.face_up for e in cards] == [False] * 6 + [True]
    payments = [(e.amount, e.src, e.dst) for e in table.events if e.kind == EventKind.PAYMENT]
    assert payments == [(3, TABLE_ACCOUNT, 0), (4, TABLE_ACCOUNT, SHOOT_ACCOUNT)]
    assert EventKind.BUST in kinds
    assert RESERVE_ACCOUNT == -2


def test_same_seed_replays_the_same_session():
    def session(seed):
        table = Table("shoot", 4, rng=np.random.default_rng(seed))
        rng = np.random.default_rng(seed + 1)
        players = [RandomPlayer()] * 4
        for _ in range(30):
            play_deal(table, players, rng)
        return table.balances, table.shoot, [e for e in table.events]

    assert session(5) == session(5)
    assert session(5) != session(6)


def test_pickle_and_deepcopy_continue_identically():
    table = Table("shoot", 4, rng=np.random.default_rng(9))
    rng = np.random.default_rng(10)
    players = [RandomPlayer()] * 4
    play_deal(table, players, rng)
    table.start_deal()
    clones = [copy.deepcopy(table), pickle.loads(pickle.dumps(table))]
    results = []
    for t in [table, *clones]:
        r = np.random.default_rng(11)
        for _ in range(5):
            play_deal(t, players, r)
        results.append((t.balances, t.shoot, t.banker, t.events))
    assert results[0] == results[1] == results[2]


def test_cards_put_back_by_a_mid_deal_restock_leave_the_count():
    """With ten seats on one pack the stock can run dry mid-deal: cards of settled hands go back into
    it, so no seat may count them as seen any more."""
    from shoot_pontoon_env.engine.view import seat_view
    from shoot_pontoon_env.rules import SHOOT as SHOOT_RULES
    from shoot_pontoon_env.players.strategies import StandOnBanker

    table = Table(SHOOT_RULES.replace(shoe="persistent"), 10, rng=np.random.default_rng(0))
    players = [StandOnBanker()] + [RandomPlayer()] * 9
    rng = np.random.default_rng(0)
    restocks = 0
    for _ in range(40):
        table.start_deal()
        while table.to_act is not None:
            seat = table.to_act
            table.apply(players[seat].act(seat_view(table, seat), rng))
            if any(e.kind == EventKind.SHUFFLE and e.note == "restock" for e in table.events):
                restocks += 1
            stock = np.bincount(table.shoe.order[table.shoe.position:] // 4, minlength=13)
            assert np.all(seat_view(table, 0).seen_counts + stock <= 4)
    assert restocks > 0
