"""A trained model plays only the role it was trained for (issue 35, item 3): a punter model whose seat
takes the bank (a turnover or a sale) banks by its fallback, a banker model's seat punts by its
fallback, on the Table and in the kernel alike; a model given for a role it cannot play is refused
in one line; and a seeded fuzz of network seats over turnovers and sales runs clean."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from whole_table_differential import (
    RecordingShoe,
    WholeTableDifferential,
    random_network_player,
    run_whole_table_differential,
)

from shoot_pontoon_env.actions import ActionKind
from shoot_pontoon_env.engine import table as table_module
from shoot_pontoon_env.players.roles import ROLE_FALLBACKS, RolePlayers
from shoot_pontoon_env.multiagent import batched_env
from shoot_pontoon_env.multiagent.config import seat_action_table, whole_table_settings
from shoot_pontoon_env.rules import SHOOT, Rules
from shoot_pontoon_env.seat.action_table import banker_action_table, punter_action_table
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.players.strategies import StandOnBanker, TipsPunter
from shoot_pontoon_env.vector.tables import network_arrays

SALES = SHOOT.replace(bank_sale_price=4)


def _punter(rules: Rules = SALES, seats: int = 3, seed: int = 1, **kwargs):
    table = punter_action_table(rules)
    return random_network_player(rules, seats, table, seed, name="punter model", **kwargs)


def _banker(rules: Rules = SALES, seats: int = 3, seed: int = 2, **kwargs):
    return random_network_player(rules, seats, banker_action_table(), seed, name="banker model", **kwargs)


def test_a_one_role_model_is_paired_with_the_other_roles_fallback():
    punter, banker = _punter(SHOOT, 4), _banker(SHOOT, 4)
    both = random_network_player(SHOOT, 4, seat_action_table(SHOOT), 3)
    assert (punter.roles, banker.roles, both.roles) == (("punter",), ("banker",), ("punter", "banker"))
    players = whole_table_settings(players={1: punter, 2: banker, 3: both}, first_banker=1).config.players
    seat1, seat2 = players[1], players[2]
    assert isinstance(seat1, RolePlayers) and seat1.punter is punter and type(seat1.banker) is StandOnBanker
    assert isinstance(seat2, RolePlayers) and type(seat2.punter) is TipsPunter and seat2.banker is banker
    assert players[3] is both  # a model of both roles plays both
    assert (seat1.name, seat2.name) == ("punter model (banks as stand17)", "banker model (punts as tips)")
    assert ROLE_FALLBACKS == {"punter": "tips", "banker": "stand17"}
    config = whole_table_settings(players={1: {"punter": punter, "banker": banker}, 2: banker, 3: both},
                                  first_banker=1).config
    assert network_arrays(config).of_seat.tolist() == [[-1, 0, -1, 2], [-1, 1, 1, 2]]  # punting; banking


class _Spy(Policy):
    """Records every decision it is asked (the Table only: the kernel plays the player it wraps)."""

    def __init__(self, inner: Policy, label: str, log: list) -> None:
        self.inner, self.label, self.log = inner, label, log
        self.name = label

    def act(self, view, rng):
        action = self.inner.act(view, rng)
        self.log.append((self.label, view.is_banker, action.kind))
        return action


class _SellingLearners(WholeTableDifferential):
    """Every learner's decision is its first legal index, but a learner holding the bank sells it."""

    def _choose(self, ref):
        _, mask = ref.observe(ref.to_act)
        legal = np.flatnonzero(mask)
        entries = ref.config.action_table.entries
        sell = [i for i in legal if entries[i].kind == ActionKind.SELL_BANK]
        return int(sell[0] if sell else legal[0]), False


@pytest.mark.parametrize("model_role", ["punter", "banker"])
def test_a_model_seat_that_changes_role_is_played_by_its_fallback_on_both_engines(model_role):
    """Seat 0 (a learner) banks first and sells the bank after every deal, so seat 1, the model's,
    buys it: a punter model punts in deal 1 and its seat banks from deal 2 by the fallback (a banker
    model the other way round). The Table's players are spied on; the kernel (the real players) is
    held equal to the Table at every step, so it played each role by the same player."""
    model = _punter() if model_role == "punter" else _banker()
    kwargs = {"rules": SALES, "num_players": 3, "first_banker": 0, "deals_per_episode": 3,
              "players": {1: model}}
    original = table_module.Shoe
    table_module.Shoe = RecordingShoe
    try:
        diff = _SellingLearners(kwargs, 4, seed=3, illegal_rate=0.0)
        seat = diff.settings.config.players[1]
        fallback = seat.banker if model_role == "punter" else seat.punter
        log: list = []
        spied = RolePlayers(*[_Spy(part, "model" if part is model else "fallback", log)
                              for part in (seat.punter, seat.banker)])
        for ref in diff.refs:
            players = tuple(spied if s == 1 else p for s, p in enumerate(ref.config.players))
            ref.config = dataclasses.replace(ref.config, players=players)
        diff.run(episodes=8)
    finally:
        table_module.Shoe = original
    model_banks = model_role == "banker"
    asked = {(label, banks) for label, banks, _ in log}
    assert asked == {("model", model_banks), ("fallback", not model_banks)}, asked  # each only in its role
    kinds = {kind for label, banks, kind in log if banks}
    assert kinds & {ActionKind.KEEP_BANK, ActionKind.SELL_BANK}  # seat 1 held the bank after a deal
    assert type(fallback) is (StandOnBanker if model_role == "punter" else TipsPunter)
    assert diff.episodes >= 8


@pytest.mark.parametrize("spec", ["zoo:shoot_punter", "zoo:shoot_banker"])
@pytest.mark.parametrize("seat", [0, 2])
def test_the_issues_zoo_placements_play_with_turnovers_and_sales(spec, seat):
    """The issue's repro: a zoo model at a four-seat table of five deals a episode stopped the batch
    with 'a table player chose an action the rules do not allow' once its seat changed role."""
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from shoot_pontoon_env.models.resolve import make_policy

    role = "punter" if spec.endswith("punter") else "banker"
    player = make_policy(spec, rules=SHOOT, num_players=4, starting_chips=1000, role=role)
    env = batched_env(16, players={seat: player}, deals_per_episode=5)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    banked = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        _, rewards, _, _, info = env.step(actions)
        banked += int((info["banker"] == seat).sum())
        assert (env.batch.total_chips() == 4 * 1000).all()
    other_role = banked if spec.endswith("punter") else 400 * 16 - banked
    assert other_role > 0  # the model's seat was in the role its fallback plays


REFUSED = {
    "a punter model given as the banker": (
        lambda: {"punter": "tips", "banker": _punter(SHOOT, 4)}, "players[1]['banker']", "punter's role"),
    "a banker model given as the punter": (
        lambda: {"punter": _banker(SHOOT, 4), "banker": "stand17"}, "players[1]['punter']", "banker's role"),
    "one role left out": (lambda: {"punter": _punter(SHOOT, 4)}, "players[1]", "one player for each role"),
    "an unknown role": (
        lambda: {"punter": "tips", "dealer": "stand17"}, "players[1]", "one player for each role"),
    "an unknown player of a role": (
        lambda: {"punter": _punter(SHOOT, 4), "banker": "nobody"}, "players[1]['banker'] = 'nobody'",
        "strategy"),
    "two rule-based players of one seat": (
        lambda: {"punter": "tips", "banker": "dealer"}, "players[1]",
        "only where one of them is a trained network"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_seat_whose_roles_do_not_fit_is_refused_in_one_line(case):
    make, names, says = REFUSED[case]
    with pytest.raises(ValueError) as error:
        batched_env(2, players={1: make()}, deals_per_episode=3)
    message = str(error.value)
    assert names in message and says in message and "\n" not in message, message


# --------------------------------------------------------------------------- the fuzz
def _fuzz_config(rng: np.random.Generator) -> tuple[dict, list[int]]:
    """A random whole table whose bank moves often (a small Shoot empties, a price to sell it), its
    fixed seats random networks of one role or both, alone or paired with a player of the other role;
    and the seats whose model plays one role only (their fallback plays the other)."""
    seats = int(rng.integers(3, 6))
    every_point = ("before_deal", "before_second_card", "before_fourth_card")
    points = (("before_deal",), every_point)[int(rng.integers(2))]
    rules = SHOOT.replace(initial_shoot=int(rng.choice([4, 10, 50])), bank_sale_price=int(rng.choice([0, 4])),
                          shoe=str(rng.choice(["reshuffle", "persistent"])), shoot_bet_points=points)
    first_banker: int | str = "random" if rng.random() < 0.5 else int(rng.integers(seats))
    learners = {int(s) for s in rng.choice(seats, size=2, replace=False)}  # two: one punts, whoever banks
    players: dict[int, object] = {}
    one_role = []
    for s in range(seats):
        if s in learners:
            continue
        seed = int(rng.integers(2**31))
        observation = str(rng.choice(["flat", "compact"]))
        punter = random_network_player(rules, seats, punter_action_table(rules), seed,
                                       observation=observation)
        banker = random_network_player(rules, seats, banker_action_table(), seed + 1)
        kind = int(rng.integers(6))
        if kind == 0:
            players[s] = punter
        elif kind == 1:
            players[s] = banker
        elif kind == 2:
            players[s] = random_network_player(rules, seats, seat_action_table(rules), seed,
                                               observation=observation)
        elif kind == 3:
            fallback = str(rng.choice(["stand17", "dealer", "shoot_aware", "random"]))
            players[s] = {"punter": punter, "banker": fallback}
        elif kind == 4:
            players[s] = {"punter": str(rng.choice(["tips", "threshold", "random"])), "banker": banker}
        else:
            players[s] = {"punter": punter, "banker": banker}
        if kind in (0, 1, 3, 4):
            one_role.append(s)
    kwargs = {"rules": rules, "num_players": seats, "first_banker": first_banker,
              "deals_per_episode": int(rng.integers(3, 7)), "players": players}
    return kwargs, one_role


FUZZ_CONFIGS = 8


def test_a_fuzz_of_network_seats_over_turnovers_and_sales_runs_clean():
    """No crash and every chip kept, over random tables of model seats whose bank moves; the seats of
    one-role models held the bank (so their fallbacks banked) at many steps."""
    rng = np.random.default_rng(35)
    one_role_banked = 0
    for n in range(FUZZ_CONFIGS):
        kwargs, one_role = _fuzz_config(rng)
        env = batched_env(16, **kwargs)
        _, info = env.reset(seed=n)
        total = kwargs["num_players"] * 1000
        for _ in range(150):
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
            _, _, _, _, info = env.step(actions)
            assert (env.batch.total_chips() == total).all(), (n, kwargs)
            one_role_banked += int(np.isin(info["banker"], one_role).sum())
    assert one_role_banked > 100


@pytest.mark.parametrize("n", range(2))
def test_fuzzed_network_seats_play_in_the_kernel_as_on_the_table(n):
    """The fuzz's first tables, step by step against the Table (RolePlayers.act), cards and actions
    the same."""
    rng = np.random.default_rng(350 + n)
    kwargs, one_role = _fuzz_config(rng)
    while not one_role:
        kwargs, one_role = _fuzz_config(rng)
    diff = run_whole_table_differential(kwargs, tables=8, episodes=40, seed=n)
    assert diff.episodes >= 40


def test_a_single_seat_env_seats_a_one_role_model_in_its_own_role():
    """``ShootPontoon-v0``'s ``punters``: a punter model whose seat takes the bank by turnover or sale
    banks by its fallback (the Table asks it nothing as banker), and the pairing is made once, so the
    episode's configuration is kept from one reset to the next."""
    import gymnasium as gym

    import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)

    rules = SALES.replace(initial_shoot=4)  # a Shoot soon emptied: the bank passes on
    model = _punter(rules, 4, seed=5)
    env = gym.make("ShootPontoon-v0", rules=rules, punters=[model, "tips"], deals_per_episode=8, strict=True)
    seated = env.unwrapped.config.players[2]
    assert isinstance(seated, RolePlayers) and seated.punter is model and type(seated.banker) is StandOnBanker
    config, rng, banked = env.unwrapped.config, np.random.default_rng(0), 0
    for episode in range(12):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = terminated or truncated
            banked += env.unwrapped.episode.table.banker == 2
        assert env.unwrapped.config is config
    assert banked > 0  # the model's seat did hold the bank, played by its fallback
