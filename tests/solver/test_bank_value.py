"""The value of the bank (issue 38, item 4): the Shoot as a Markov chain across a session, heads-up.

- A deal's law: its mean Shoot move is exactly the Shoot part of the pair's value (the same punter without
  bets against a banker on its own cards), and the engine's deals fall on each move within 3 standard errors.
- The chain: against every path of a small made-up chain, to 1e-12 (values, chances of passing and selling
  at each deal, deals expected); forward and backward sums agree.
- Against sessions at the engine (passes, sales, a bank limit), within 3 standard errors.
- The best sale rule (``keep_value``) is worth at least any rule's value; ``ValueSeller`` sells exactly where the
  price beats it, and its sessions at the engine are worth the chain's value within 3 standard errors.
- ``bank-value --json`` answers with ``value``; more seats without ``--monte-carlo`` is one line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest

from shoot_pontoon_env.actions import Action, ActionKind
from shoot_pontoon_env.engine.view import SeatView
from shoot_pontoon_env.players.policy import nearest_amount
from shoot_pontoon_env.players.strategies import StandOnBanker, TipsPunter, make_strategy
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.solver.__main__ import main as solver_main
from shoot_pontoon_env.solver.session.sessions import PASSED, SOLD, play_sessions, table_at_shoot
from shoot_pontoon_env.solver.session.chain import BankChain, ValueSeller
from shoot_pontoon_env.solver.headsup.best_response import pair_value
from shoot_pontoon_env.solver.headsup.deal_law import DealLaw, DealLaws
from shoot_pontoon_env.solver.headsup.game_punter import punter_rows, strategy_policy
from shoot_pontoon_env.players.session import play_until
from shoot_pontoon_env.engine import Phase

SECOND = SHOOT.replace(name="shoot-second", shoot_bet_points=("before_deal", "before_second_card"))
"""Bets before the second card too: ``tips`` bets 4 chips on an ace or a ten-value first card at any Shoot."""


@dataclass(repr=True)
class NoBets(TipsPunter):
    """``tips`` who never bets the Shoot (its play does not depend on its bets)."""

    def shoot_bet(self, view: SeatView, rng: np.random.Generator) -> Action:
        return Action(ActionKind.SHOOT_BET, 0)


@dataclass(repr=True)
class SellerAt(StandOnBanker):
    """``stand17`` who sells the bank once the Shoot holds ``sell_at`` chips."""

    sell_at: int = 20

    def bank(self, view: SeatView, rng: np.random.Generator) -> Action:
        return Action(ActionKind.SELL_BANK if view.shoot >= self.sell_at else ActionKind.KEEP_BANK)


def test_a_deals_mean_move_is_the_shoot_part_of_the_pairs_value():
    banker = make_strategy("stand17")
    small = SECOND.replace(name="euchre-second", pack="euchre")
    for shoot in (3, 120):  # the room limits the bet at 3; tips bets before the deal too from 100 chips
        law = DealLaws(small, make_strategy("tips"), banker)(shoot)
        with_bets = pair_value(punter_rows(small, strategy_policy(make_strategy("tips")), shoot=shoot), banker, small)
        without = pair_value(punter_rows(small, strategy_policy(NoBets()), shoot=shoot), banker, small)
        shoot_part = (with_bets.value - without.value) * with_bets.rows.stake
        assert -sum(m * p for m, p in law.moves.items()) == pytest.approx(shoot_part, abs=1e-12)
        if shoot == 3:  # a bet (on an ace or a ten-value first card: 20 of the 24 cards) always moves the Shoot
            assert law.moves[0] == pytest.approx(4 / 24, abs=1e-12) and set(law.moves) == {-3, 0, 3}
        assert law.banker_gain == pytest.approx(-with_bets.value * with_bets.rows.stake, abs=1e-12)
        assert len(law.moves) > 1
    preset = DealLaws(SHOOT, make_strategy("tips"), banker)
    assert preset(99).moves == {0: 1.0}  # the preset's tips bets only from ten maximum stakes (docs/RULES.md)
    assert set(preset(100).moves) == {-2, 2}


def test_the_engines_deals_fall_on_each_move_within_3_standard_errors():
    punter, banker, shoot, n = make_strategy("tips"), make_strategy("shoot_aware"), 3, 6000  # 3: the room limits
    law = DealLaws(SECOND, punter, banker)(shoot)
    rng = np.random.default_rng(11)
    moves, gains = [], []
    for _ in range(n):
        table = table_at_shoot(SECOND, shoot, np.random.default_rng(rng.integers(2**63)))
        wealth = table.wealth(0)
        table.start_deal()
        play_until(table, [banker, punter], rng, lambda t: t.phase == Phase.BANK_DECISION)
        moves.append(-shoot if table.turnovers else table.shoot - shoot)
        gains.append((table.balances[0] if table.turnovers else table.wealth(0)) - wealth)
    moves = np.array(moves)
    assert set(np.unique(moves)) <= set(law.moves)
    for move, chance in law.moves.items():
        seen = float((moves == move).mean())
        assert abs(seen - chance) < 3 * np.sqrt(chance * (1 - chance) / n), (move, seen, chance)
    assert abs(np.mean(gains) - law.banker_gain) < 3 * np.std(gains) / np.sqrt(n)


@dataclass(repr=True)
class BetsOnAJack(TipsPunter):
    """``tips`` who bets the Shoot only before its second card and only on a Jack: it reads ranks, as a
    network seeing the ranks dealt may, so a ten-value first card is not one answer."""

    def shoot_bet(self, view: SeatView, rng: np.random.Generator) -> Action:
        hand = view.current_hand
        jack = view.shoot_bet_point == "before_second_card" and hand is not None and len(hand.cards) == 1 \
            and hand.cards[0] // 4 == 10
        return nearest_amount(view, ActionKind.SHOOT_BET, 3 if jack else 0)


def test_a_punter_that_reads_ranks_bets_on_a_ten_value_first_card_as_often_as_at_the_engine():
    """The model asks a lone ten-value card at every ten-value rank, each in proportion to its cards: a
    Jack is 4 of the euchre pack's 24 cards, so the bet is placed on one deal in six (asked as one rank,
    the King or the Ten, it would never be or always be)."""
    small = SECOND.replace(name="euchre-second", pack="euchre")
    punter, banker, shoot = BetsOnAJack(), make_strategy("stand17"), 3
    law = DealLaws(small, punter, banker)(shoot)
    assert law.moves[0] == pytest.approx(5 / 6, abs=1e-12) and set(law.moves) == {-3, 0, 3}
    rng, n, moved = np.random.default_rng(5), 3000, 0
    for _ in range(n):
        table = table_at_shoot(small, shoot, np.random.default_rng(rng.integers(2**63)))
        table.start_deal()
        play_until(table, [banker, punter], rng, lambda t: t.phase == Phase.BANK_DECISION)
        moved += table.turnovers > 0 or table.shoot != shoot
    assert abs(moved / n - 1 / 6) < 3 * np.sqrt(1 / 6 * 5 / 6 / n)


class _MadeUpLaws:
    """A small chain: at Shoot s the punter bets min(s, 3); it wins with chance 0.3 + s / 100."""

    classes = 0

    def __call__(self, shoot: int) -> DealLaw:
        bet, win = min(shoot, 3), 0.3 + shoot / 100
        return DealLaw(shoot, banker_gain=0.5 + bet * (1 - 2 * win) - shoot / 50, moves={-bet: win, bet: 1 - win})


def _every_path(chain: BankChain, shoot: int, deals: int, price: int):
    """(value, passes by deal, sales by deal) summed over every path of the chain."""
    value, passed, sold = 0.0, [0.0] * deals, [0.0] * deals

    def walk(s: int, t: int, chance: float) -> None:
        nonlocal value
        if t == deals:
            return
        law = chain.laws(s)
        value += chance * law.banker_gain
        for move, p in law.moves.items():
            after = chain.after(s, move)
            if after == 0:
                passed[t] += chance * p
            elif t < deals - 1 and chain.sells(after):
                sold[t] += chance * p
                value += chance * p * price
            else:
                walk(after, t + 1, chance * p)

    walk(shoot, 0, 1.0)
    return value, passed, sold


def test_the_chain_is_the_sum_over_every_path_of_a_small_chain():
    rules = SHOOT.replace(initial_shoot=4, shoot_cap=9, bank_sale_price=3)
    chain = BankChain(rules, make_strategy("tips"), make_strategy("stand17"))
    chain.laws = _MadeUpLaws()
    chain.sells = lambda s: s >= 8
    for shoot, deals in ((4, 1), (4, 6), (2, 7), (7, 5)):
        result = chain.value(shoot, deals)
        value, passed, sold = _every_path(chain, shoot, deals, 3)
        assert result.value == pytest.approx(value, abs=1e-12)
        assert result.forward_value == pytest.approx(value, abs=1e-12)
        assert result.passed == pytest.approx(passed, abs=1e-12)
        assert result.sold == pytest.approx(sold, abs=1e-12)
        assert result.kept == pytest.approx(1 - sum(passed) - sum(sold), abs=1e-12)
        assert deals < 6 or result.pass_chance > 0.01 and result.sale_chance > 0.01
    assert chain.after(8, 3) == 9  # the bank limit keeps the excess out of the Shoot


def _best_over_every_history(chain: BankChain, shoot: int, deals: int, price: int) -> float:
    """The best sale rule's value by walking every path, choosing at each node (any rule of the history)."""
    def walk(s: int, left: int) -> float:
        law = chain.laws(s)
        value = law.banker_gain
        for move, p in law.moves.items():
            after = chain.after(s, move)
            if after > 0 and left > 1:
                value += p * max(price, walk(after, left - 1))
        return value

    return walk(shoot, deals)


def test_keep_value_is_the_best_sale_rule_of_a_small_chain():
    rules = SHOOT.replace(initial_shoot=4, shoot_cap=9, bank_sale_price=3)
    chain = BankChain(rules, make_strategy("tips"), make_strategy("stand17"))
    chain.laws = _MadeUpLaws()
    for shoot, deals in ((4, 1), (4, 5), (2, 6), (9, 4)):
        assert chain.keep_value(shoot, deals) == pytest.approx(_best_over_every_history(chain, shoot, deals, 3),
                                                               abs=1e-12)
    seller = ValueSeller(make_strategy("stand17"), make_strategy("tips"), look_ahead=1)
    seller._chains[rules] = chain  # the made-up laws
    chain_of_seller = BankChain(rules, make_strategy("tips"), seller, chain.laws)
    for shoot in (2, 4, 7):  # a session of two deals: after the first, one is left, the seller's look-ahead
        assert chain_of_seller.value(shoot, 2).value == pytest.approx(chain.keep_value(shoot, 2), abs=1e-12)


def test_the_chain_against_sessions_at_the_engine():
    rules = SECOND.replace(name="euchre-second", pack="euchre", initial_shoot=10, bank_sale_price=5, shoot_cap=24)
    punter, banker = make_strategy("tips"), SellerAt(sell_at=20)
    chain = BankChain(rules, punter, banker)
    result = chain.value(10, 8)
    assert result.value == pytest.approx(result.forward_value, abs=1e-9)
    assert result.pass_chance > 0.05 and result.sale_chance > 0.01
    sample = play_sessions(rules, punter, banker, 10, 8, 3000, seed=4)
    mean, se = sample.mean()
    assert abs(mean - result.value) < 3 * se
    n = len(sample.profit)
    for ended, chance in ((PASSED, result.pass_chance), (SOLD, result.sale_chance)):
        seen = float((sample.ended == ended).mean())
        assert abs(seen - chance) < 3 * np.sqrt(chance * (1 - chance) / n), (ended, seen, chance)
    assert abs(sample.deals.mean() - result.expected_deals) < 3 * sample.deals.std() / np.sqrt(n)


def test_the_value_seller_sells_where_the_price_beats_the_best_sale_rules_value():
    rules = SECOND.replace(name="euchre-second", pack="euchre", initial_shoot=10, bank_sale_price=9)
    punter, deals = make_strategy("tips"), 6
    keeps = BankChain(rules, punter, make_strategy("stand17"))  # never sells
    best = keeps.keep_value(10, deals)
    for banker in (make_strategy("stand17"), SellerAt(sell_at=12), SellerAt(sell_at=6)):
        rule = BankChain(rules, punter, banker, keeps.laws).value(10, deals)
        assert best >= rule.value - 1e-12 and best >= rule.forward_value - 1e-12
    seller = ValueSeller(make_strategy("stand17"), punter, deals, keeps.laws)
    chain = BankChain(rules, punter, seller, keeps.laws)
    result = chain.value(10, deals)
    shoots = sorted(keeps._reachable(10, deals, lambda s: False))
    decisions = {s: chain.sells(s) for s in shoots}
    assert decisions == {s: 9 > keeps.keep_value(s, deals) for s in shoots}
    assert any(decisions.values()) and not all(decisions.values())
    assert best >= result.value - 1e-12
    sample = play_sessions(rules, punter, seller, 10, deals, 2000, seed=8)
    mean, se = sample.mean()
    assert abs(mean - result.value) < 3 * se
    seen = float((sample.ended == SOLD).mean())
    assert abs(seen - result.sale_chance) < 3 * np.sqrt(result.sale_chance * (1 - result.sale_chance) / 2000)


def test_bank_value_cli(capsys):
    assert solver_main(["bank-value", "--shoot", "102", "--deals", "1", "--banker", "stand17", "--json"]) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)
    assert out["exact"] and out["value"] > out["fair_price"] > 0 and out["kept_chance"] == pytest.approx(1.0)
    assert "bank-value: stage 1 of 2, the bank held from 102 chips" in printed.err
    assert out["value"] == pytest.approx(out["forward_value"], abs=1e-9)
    assert solver_main(["bank-value", "--shoot", "60", "--deals", "2", "--players", "3", "--monte-carlo", "40",
                        "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not out["exact"] and "value" in out and out["standard_error"] > 0 and out["monte_carlo"]["sessions"] == 40
