"""The short packs (``Rules.pack``: piquet, 32 cards; euchre, 24): the rule's checks, the engine deals only
the pack's cards, and the solver's exact values of a short pack match engine Monte Carlo.

The batched engine plays short packs as the Table does: the differential test (``pack`` is one of the
options its rule generator draws) feeds it the Table's shoe orders, and
:func:`test_keyed_shoes_deal_alike_on_both_engines` has each engine shuffle by the same key itself;
``tests/openspiel`` checks the solver's best responses against OpenSpiel's on the euchre pack's reduced game.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from shoot_pontoon_env.cards import RANKS
from shoot_pontoon_env.cli import run
from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.rules import PACKS, SHOOT, Rules, RulesError
from shoot_pontoon_env.solver import OptimalPunter, solve
from shoot_pontoon_env.solver.__main__ import main
from shoot_pontoon_env.solver.deck import Deck
from shoot_pontoon_env.solver.headsup.best_response import exploitability, pair_value
from shoot_pontoon_env.solver.headsup.equilibrium_game import equilibrium_rules
from shoot_pontoon_env.solver.space import ACE, TEN


def test_a_pack_outside_the_list_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match=r"Rules.pack = 'stripped' is not allowed: expected one of \('full', "
                                         r"'piquet', 'euchre'\)"):
        SHOOT.replace(pack="stripped")


@pytest.mark.parametrize("pack, size, values", [
    ("full", 52, (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)),
    ("piquet", 32, (4, 0, 0, 0, 0, 0, 4, 4, 4, 16)),
    ("euchre", 24, (4, 0, 0, 0, 0, 0, 0, 0, 4, 16)),
])
def test_pack_sizes_and_values(pack: str, size: int, values: tuple[int, ...]) -> None:
    rules = SHOOT.replace(pack=pack, num_decks=2)
    assert rules.shoe_size == 2 * size
    assert rules.value_counts == tuple(2 * n for n in values)
    assert Deck.of(rules).full().tolist() == [2 * n for n in values]
    assert np.isclose(Deck.of(rules, infinite=True).full().sum(), 1.0)


def test_every_pack_holds_the_ace_and_the_four_ten_ranks() -> None:
    """The solver's split chances count ten-value ranks as four of 4 x num_decks cards each."""
    for ranks in PACKS.values():
        assert {"A", "T", "J", "Q", "K"} <= set(ranks)
        assert "".join(sorted(ranks, key=RANKS.index)) == ranks
    assert ACE == 0 and TEN == 9


def test_a_table_too_big_for_the_shoe_is_refused() -> None:
    rules = SHOOT.replace(pack="euchre")
    Table(rules, 3)  # 2 boxes of five and the banker's five: 15 of 24 cards
    with pytest.raises(ValueError, match=r"num_players = 5: 4 boxes of up to five cards and the banker's 5 need "
                                         r"more than the 1-deck shoe holds \(24 cards of the euchre pack\)"):
        Table(rules, 5)


@pytest.mark.parametrize("pack", ["piquet", "euchre"])
def test_the_engine_deals_only_the_packs_cards(pack: str) -> None:
    rules = SHOOT.replace(pack=pack, shoe="persistent", penetration=0.95)
    allowed = set(rules.pack_cards)
    rng = np.random.default_rng(3)
    players = [make_strategy("stand17"), make_strategy("tips"), make_strategy("threshold14")]
    table = Table(rules, 3, rng=np.random.default_rng(4), starting_chips=0)
    dealt: list[int] = []
    for _ in range(300):
        play_deal(table, players, rng)
        dealt += table.banker_cards + [c for h in table.hands for c in h.cards]
    assert set(dealt) == allowed  # every card of the pack, and none other
    assert sum(table.balances) + table.shoot + table.reserve == 0


@pytest.mark.parametrize("pack, decks", [("piquet", 1), ("euchre", 1), ("euchre", 2)])
def test_keyed_shoes_deal_alike_on_both_engines(pack: str, decks: int) -> None:
    """Each engine builds its own shoe of the pack (``Shoe`` on the Table, ``PACK_ORDERS`` and ``PACK_HOLDS``
    in the kernel) and shuffles it by the episode's key, through cut cards and restocks of a persistent
    shoe dealt to 95%: every observation, mask and reward equal over 30 episodes of 6 deals."""
    import gymnasium as gym

    import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)

    rules = SHOOT.replace(name=f"shoot-{pack}", pack=pack, num_decks=decks, shoe="persistent", penetration=0.95)
    kwargs = {"rules": rules, "num_players": 4, "deals_per_episode": 6}
    table, batched = (gym.make("ShootPontoon-v0", engine=engine, **kwargs) for engine in ("table", "batched"))
    rng = np.random.default_rng(5)
    for episode in range(30):
        options = {"shuffle_key": 1_000 + episode}
        obs, info = table.reset(seed=episode, options=options)
        other, other_info = batched.reset(seed=episode, options=options)
        terminated = False
        while True:
            assert np.array_equal(obs, other) and np.array_equal(info["action_mask"], other_info["action_mask"])
            if terminated:
                break
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, _, info = table.step(action)
            other, other_reward, other_terminated, _, other_info = batched.step(action)
            assert (reward, terminated) == (other_reward, other_terminated)


def engine_mean(rules: Rules, banker: str, punter, deals: int, seed: int) -> tuple[float, float]:
    """The punter's mean net per unit of initial stake over ``deals`` heads-up engine deals, and its SE."""
    rng = np.random.default_rng(seed)
    table = Table(rules, 2, rng=np.random.default_rng(rng.integers(2**63)), starting_chips=0)
    players = [make_strategy(banker), punter]
    out = np.empty(deals)
    for i in range(deals):
        play_deal(table, players, rng)
        out[i] = sum(h.result + 0.0 for h in table.hands if h.seat == 1) / table.hands[0].original_stake
    return float(out.mean()), float(out.std(ddof=1) / np.sqrt(deals))


@pytest.mark.parametrize("pack", ["piquet", "euchre"])
def test_the_pair_value_on_a_short_pack_matches_the_engine(pack: str) -> None:
    """The heads-up model's exact value of tips against stand17 (buys and all; no splits, which the model
    bounds) within 3 standard errors of 20,000 engine deals."""
    rules = SHOOT.replace(pack=pack, max_split_hands=1)
    exact = pair_value(make_strategy("tips"), make_strategy("stand17"), rules).value
    mean, se = engine_mean(rules, "stand17", make_strategy("tips"), 20_000, seed=21)
    assert abs(mean - exact) < 3 * se, (pack, mean, se, exact)


def test_the_optimum_on_a_short_pack_matches_the_engine() -> None:
    """The solver's optimal punter against the dealer-rule banker, exact against 20,000 engine deals."""
    rules = SHOOT.replace(pack="piquet", banker_play="dealer")
    solution = solve(rules)
    mean, se = engine_mean(rules, "dealer", OptimalPunter(solution), 20_000, seed=22)
    assert abs(mean - solution.expected_return) < 3 * se, (mean, se, solution.ev)


def test_the_solver_commands_take_the_pack(capsys: pytest.CaptureFixture[str]) -> None:
    """``--pack`` (and ``--max-buys``) give the commands the short pack's games: the pair's exploitability
    as the API computes it, and the reduced game's equilibrium (the game of tests/openspiel's cross-check)."""
    argv = ["exploitability", "--punter", "tips", "--banker", "stand17", "--pack", "euchre", "--max-buys", "0",
            "--json"]
    assert run(main, argv) == 0
    out = json.loads(capsys.readouterr().out)
    rules = SHOOT.replace(pack="euchre", max_buys=0)
    expected = exploitability(make_strategy("tips"), make_strategy("stand17"), rules, {})
    assert out["rules"] == "shoot-euchre-max_buys0"
    assert out["exploitability"] == pytest.approx(expected.exploitability, abs=1e-12)
    assert run(main, ["equilibrium", "--pack", "euchre", "--max-buys", "0", "--iterations", "200", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exploitability"] < 1e-4
    assert equilibrium_rules(SHOOT.replace(pack="euchre")).pack == "euchre"


def test_a_stacked_card_outside_the_pack_is_refused_by_name() -> None:
    table = Table(SHOOT.replace(pack="euchre"), 2)
    with pytest.raises(ValueError, match=r"stacked card 2C is not in the shoe's pack \(its cards: AC AD AH AS 9C"):
        table.start_deal("AS 2C KD QH")
