"""Multi-deal self-play (``train/configs/table_selfplay/session.yml``): networks blind to the episode's
clock and the banker's chips (saved so), each bank's tenure an episode of its own to the learners, the
pair played over whole sessions (``train/session_play.py``), and the session check's comparisons
(``train/session_check.py``) against the exact chain."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from shoot_pontoon_env.seat import encoding as enc  # noqa: E402
from shoot_pontoon_env.seat.features import CF_EPISODE  # noqa: E402
from train.table_selfplay import TableSelfPlay, load_table_selfplay_config, main  # noqa: E402

CONFIG = "train/configs/table_selfplay/session.yml"
TINY = ["total_decisions=4096", "generations=1", "rollout_steps=16", "eval_hands=50", "deals_per_episode=4",
        "groups=[{tables: 32, first_banker: random, frozen_share: 0.5}]"]


def tiny(tmp_path, *more: str) -> TableSelfPlay:
    return TableSelfPlay(load_table_selfplay_config(CONFIG, TINY + [f"log_dir={tmp_path}", *more]))


def test_blind_parts_have_zero_scale_and_the_saved_models_ignore_them(tmp_path):
    import gymnasium as gym
    import torch

    from agents import make_agent

    selfplay = tiny(tmp_path)
    punter, banker = selfplay.learners["punter"], selfplay.learners["banker"]
    assert punter.space.scale[CF_EPISODE] == 0 and (np.delete(punter.space.scale, CF_EPISODE) == 1).all()
    assert banker.space.scale[enc.EPISODE.start] == 0 and banker.space.scale[enc.CHIP_BALANCE] == 0
    rng = np.random.default_rng(3)
    for learner, env_id, columns in ((punter, "ShootPontoon-v0", [CF_EPISODE]),  # it reads the compact row
                                     (banker, "ShootPontoonBanker-v0", [enc.EPISODE.start, enc.CHIP_BALANCE])):
        with torch.no_grad():  # a trained-looking network: weights away from their initial scale
            for parameter in learner.policy.parameters():
                parameter.add_(0.3 * torch.randn_like(parameter))
        path = learner.save(tmp_path / learner.space.role, selfplay.config, 1)
        env = gym.make(env_id, **learner.space.env_kwargs)
        agent = make_agent(str(path), env)
        rows = rng.uniform(0, 1, size=(64, agent.policy.observation_space.shape[0])).astype(np.float32)
        moved = rows.copy()
        moved[:, columns] = rng.uniform(0, 5, size=(64, len(columns)))
        masks = np.ones((64, env.action_space.n), dtype=bool)
        with torch.no_grad():
            trained = learner.policy.get_distribution(torch.as_tensor(rows * learner.space.scale),
                                                      action_masks=masks).distribution.probs.numpy()
            saved = [agent.policy.get_distribution(torch.as_tensor(r), action_masks=masks).distribution.probs.numpy()
                     for r in (rows, moved)]
        np.testing.assert_allclose(saved[0], trained, atol=1e-5)
        np.testing.assert_array_equal(saved[0], saved[1])  # the blind parts change nothing
        assert not np.allclose(saved[0], saved[0][::-1])  # the rows themselves do


def test_a_flat_rows_chips_are_read_at_the_chip_scale_and_the_saved_model_reads_the_raw_row(tmp_path):
    import gymnasium as gym
    import torch

    from agents import make_agent
    from train.seat_roles import CHIP_SCALE

    selfplay = tiny(tmp_path, "banker.chip_scale=1.5")
    banker = selfplay.learners["banker"]
    scale = banker.space.scale
    assert scale[enc.CHIP_SHOOT] == scale[enc.CHIP_CAPACITY] == 1.5 and scale[enc.CHIP_BALANCE] == 0  # still blind
    assert scale[enc.PHASE.start] == 1.0 and CHIP_SCALE != 1.5
    default = tiny(tmp_path / "default").learners["banker"].space.scale
    assert default[enc.CHIP_SHOOT] == CHIP_SCALE  # where chip_scale is not set
    with torch.no_grad():
        for parameter in banker.policy.parameters():
            parameter.add_(0.3 * torch.randn_like(parameter))
    path = banker.save(tmp_path / "banker", selfplay.config, 1)
    agent = make_agent(str(path), gym.make("ShootPontoonBanker-v0", **banker.space.env_kwargs))
    rng = np.random.default_rng(4)
    rows = rng.uniform(0, 1, size=(64, agent.policy.observation_space.shape[0])).astype(np.float32)
    rows[:, enc.CHIP_SHOOT] = rng.uniform(0, 5, size=64)
    masks = np.ones((64, 4), dtype=bool)
    with torch.no_grad():
        trained = banker.policy.get_distribution(torch.as_tensor(rows * scale),
                                                 action_masks=masks).distribution.probs.numpy()
        saved = agent.policy.get_distribution(torch.as_tensor(rows), action_masks=masks).distribution.probs.numpy()
    np.testing.assert_allclose(saved, trained, atol=1e-5)


def test_a_group_posting_another_shoot_starts_its_sessions_there_and_plays_the_same_rows(tmp_path):
    """``groups[].initial_shoot``: an exploring start. The group's new banks post that Shoot; the other
    group's the rules'; the rows, actions and chips of a Shoot are the same game's."""
    groups = ("groups=[{tables: 8, first_banker: random, frozen_share: 0.5}, "
              "{tables: 8, first_banker: random, initial_shoot: 40}]")
    selfplay = tiny(tmp_path, groups)
    (plain, obs_a), (started, obs_b) = [(env, env.reset(seed=3)[0]) for env in selfplay.tables.envs]
    from shoot_pontoon_env.rules import get_rules

    unit = get_rules(selfplay.config.rules).base_stake
    assert plain.action_table.labels == started.action_table.labels and obs_a.shape == obs_b.shape
    assert (np.rint(obs_a[:, enc.CHIP_SHOOT] * unit) == 50).all()  # the shoot preset posts 50
    assert (np.rint(obs_b[:, enc.CHIP_SHOOT] * unit) == 40).all()
    state = [env.reset(seed=5) for env in selfplay.tables.envs]
    selfplay.collect(16, state)  # both groups train together
    assert selfplay.samples.n > 0
    for bad, words in ((0, "groups[1].initial_shoot = 0: expected a whole number of chips >= 1"),
                       (True, "groups[1].initial_shoot = True"), (500, "groups[1]: ")):
        with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
            tiny(tmp_path, groups.replace("initial_shoot: 40", f"initial_shoot: {bad}"))


def test_a_bank_changing_hands_ends_every_seats_trajectory_there(tmp_path):
    selfplay = tiny(tmp_path)
    ended: list[np.ndarray] = []
    selfplay.samples.end_episodes = lambda tables: ended.append(np.asarray(tables).copy())
    ended_now = np.zeros(4, dtype=bool)
    selfplay.end_sessions(0, np.array([0, 1, 0, 1]), ended_now)  # a new episode's bankers: nothing ends
    selfplay.end_sessions(0, np.array([0, 0, 0, 1]), ended_now)  # table 1's bank passed to seat 0
    selfplay.end_sessions(0, np.array([1, 0, 0, 1]), np.array([True, False, False, False]))  # table 0's episode ends
    selfplay.end_sessions(0, np.array([0, 0, 0, 1]), ended_now)  # table 0's next episode: no session end
    assert [e.tolist() for e in ended] == [[], [1], [], []]
    assert selfplay.sessions == 1


def test_a_session_run_ends_sessions_within_episodes_and_its_pair_plays_whole_sessions(tmp_path, capsys):
    from train.session_play import KEPT, PASSED, SOLD, play_pair
    from train.table_selfplay import read_run_config

    assert main(["--config", CONFIG, "--set", *TINY, f"log_dir={tmp_path}"]) == 0
    run = tmp_path / "table_selfplay_session-seed0"
    history = __import__("json").loads((run / "history.json").read_text())
    assert history[-1]["sessions"] > 0  # banks changed hands within episodes and ended sessions there
    config = read_run_config(run)
    play = play_pair(run, config, 96, seed=5, tables=64)
    assert len(play.first_net) == 96 and np.isfinite(play.first_net).all()
    assert set(np.unique(play.first_end)) <= {KEPT, PASSED, SOLD}
    assert ((play.first_deals >= 1) & (play.first_deals <= 4)).all()
    assert (play.first_deals[play.first_end == KEPT] == 4).all()
    assert ((play.bank_left >= 0) & (play.bank_left <= 3)).all()
    assert (play.bank_shoot >= 1).all() and set(np.unique(play.bet_chips)) <= {0, 10, 20}
    assert len(play.bet_shoot) >= 96  # a betting point before every deal at least
    # the lone card's rank before the second card (point 1), none before the deal (point 0)
    assert (play.bet_rank[play.bet_point == 1] >= 0).all() and (play.bet_rank[play.bet_point == 0] == -1).all()
    assert (play.bet_point == 1).any() and play.bet_rank.max() <= 12
    again = play_pair(run, config, 96, seed=5, tables=64)
    np.testing.assert_array_equal(again.first_net, play.first_net)  # the same seed plays the same sessions
    # the banker's sales replaced by a rule of the Shoot (the chain's question to it), the rest as it plays
    always = play_pair(run, config, 96, seed=5, tables=64, sells=lambda shoot: True)
    assert len(always.bank_sold) and always.bank_sold.all() and set(np.unique(always.first_end)) <= {PASSED, SOLD}
    assert (always.first_deals == 1).all()  # sold after its first deal, or passed in it
    never = play_pair(run, config, 96, seed=5, tables=64, sells=lambda shoot: False)
    assert not never.bank_sold.any() and SOLD not in set(np.unique(never.first_end))
    # each decision's chips to its banker until the next: a kept deal's, none after the last deal, a sale's price
    assert len(never.bank_deal) == len(never.bank_shoot) and (never.bank_deal[never.bank_left == 0] == 0).all()
    assert (never.bank_deal[never.bank_left > 0] != 0).mean() > 0.5
    assert len(always.bank_deal) == len(always.bank_sold) and (always.bank_deal == 0).all()  # sold for 0
    # as in training, each answer drawn from the policy with the Generator: the seed replays it
    drawn = play_pair(run, config, 96, seed=5, tables=64, sampled=("punter", "banker"))
    np.testing.assert_array_equal(play_pair(run, config, 96, seed=5, tables=64, sampled=("punter", "banker")).first_net,
                                  drawn.first_net)
    assert not np.array_equal(drawn.bet_chips[:50], play.bet_chips[:50]) or not np.array_equal(drawn.first_net,
                                                                                               play.first_net)
    with pytest.raises(ValueError, match=r"sampled roles \['dealer'\]: expected punter, banker"):
        play_pair(run, config, 96, seed=5, tables=64, sampled=("dealer",))


@pytest.mark.parametrize("override, words", [
    ("punter.ignores=[balance]", "punter.ignores = ['balance']"),
    ("banker.ignores=[clock]", "banker.ignores = ['clock']"),
    ("session_per_bank=maybe", "session_per_bank = 'maybe'"),
    ("banker.chip_scale=0", "banker.chip_scale = 0"),
    ("banker.chip_scale=true", "banker.chip_scale = True"),
    ("punter.chip_scale=1.0", "punter.chip_scale = 1.0: a compact row"),
    ("banker.bank_gae_lambda=1.5", "banker.bank_gae_lambda = 1.5"),
    ("punter.bank_gae_lambda=0.0", "punter.bank_gae_lambda = 0.0: only the banker"),
    ("banker.advantage_norm=batch", "banker.advantage_norm = 'batch'"),
    ("banker.bank_deal_window=0", "banker.bank_deal_window = 0"),
    ("banker.bank_ent_coef=-1", "banker.bank_ent_coef = -1"),
    ("punter.bank_ent_coef=0.1", "punter.bank_ent_coef = 0.1: only the banker"),
    ("punter.bank_deal_window=1000", "punter.bank_deal_window = 1000: only the banker"),
    ("banker.bank_deal_window=1000 banker.bank_gae_lambda=1.0", "set one of the two"),
])
def test_bad_session_settings_are_one_line(override, words, capsys):
    assert main(["--config", CONFIG, "--set", *override.split()]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and words in err, err


def test_the_keep_or_sell_decision_has_its_own_lambda(tmp_path):
    """With ``bank_gae_lambda`` 0 a keep/sell decision's advantage is its reward and the value at the
    seat's next decision, less its own value (a sale, which ends the tenure, has no next); a punter's
    are as the role's lambda gives them."""
    selfplay = tiny(tmp_path, "banker.bank_gae_lambda=0.0", "banker.advantage_norm=legal_actions")
    selfplay.snapshots.append({role: selfplay.learners[role].frozen() for role in ("punter", "banker")})
    selfplay.draw_owners(np.arange(selfplay.tables.num_tables))
    state = [env.reset(seed=3) for env in selfplay.tables.envs]
    selfplay.collect(64, state)
    samples = selfplay.samples
    lambdas = tuple(selfplay.settings[role].gae_lambda for role in ("punter", "banker"))
    own, _ = samples.advantages(lambdas, selfplay.bank_decision)
    shared, _ = samples.advantages(lambdas)
    n = samples.n
    banker = np.flatnonzero((samples.role[:n] == 1) & samples.finished())
    at_bank = banker[samples.masks[1][samples.row[banker]][:, list(selfplay.bank_decision.actions)].any(axis=1)]
    assert selfplay.bank_decision.actions == (2, 3) and len(at_bank) > 50
    nxt, done = samples.next[at_bank], samples.done[at_bank]
    go_on = (nxt >= 0) & ~done
    value = samples.value[:n].astype(np.float64)
    expected = samples.reward[at_bank] + np.where(go_on, value[np.maximum(nxt, 0)], 0.0) - value[at_bank]
    np.testing.assert_allclose(own[at_bank], expected, atol=1e-9)
    assert go_on.any() and (~go_on).any()
    assert not np.allclose(own[at_bank], shared[at_bank])
    # a punter's chain holds no keep/sell decision (a tenure's end ends every seat's trajectory)
    punter = np.flatnonzero((samples.role[:n] == 0) & samples.finished())
    assert len(punter) > 100
    np.testing.assert_array_equal(own[punter], shared[punter])
    # and the banker learns from them with its advantages normalised per set of legal actions
    before = [w.detach().clone() for w in selfplay.learners["banker"].policy.parameters()]
    selfplay._update(samples.take_finished(lambdas, selfplay.bank_decision))
    after = list(selfplay.learners["banker"].policy.parameters())
    assert any(not np.allclose(a.detach().numpy(), b.numpy()) for a, b in zip(after, before))


def walk(samples, start: int) -> list[int]:
    """A seat's samples from ``start`` to the end of its episode, in order."""
    chain = [start]
    while samples.next[chain[-1]] >= 0 and not samples.done[chain[-1]]:
        chain.append(int(samples.next[chain[-1]]))
    return chain


def test_the_keep_or_sell_decision_learns_from_the_mean_chips_of_the_deals_it_keeps(tmp_path):
    """With ``bank_deal_window`` a keep/sell decision's return is, over it and the keep/sell decisions
    after it in the tenure, each one's chips to the next, a kept deal's being its mean at the decision's
    Shoot, reserve and last-deal flag once that rests on enough deals; a sale's its own chips. Before
    any mean is known it is every chip of the rest of the tenure; a keep after the last deal plays none."""
    from train.seat_samples import DealMeans

    selfplay = tiny(tmp_path, "banker.bank_deal_window=50", "deals_per_episode=6")
    selfplay.snapshots.append({role: selfplay.learners[role].frozen() for role in ("punter", "banker")})
    selfplay.draw_owners(np.arange(selfplay.tables.num_tables))
    state = [env.reset(seed=5) for env in selfplay.tables.envs]
    selfplay.collect(96, state)
    samples, bank = selfplay.samples, selfplay.bank_decision
    assert selfplay.deal_means is bank.deal_means and bank.gae_lambda is None and bank.deal_means.table == {}
    lambdas = tuple(selfplay.settings[role].gae_lambda for role in ("punter", "banker"))
    n = samples.n
    value = samples.value[:n].astype(np.float64)
    banker = np.flatnonzero((samples.role[:n] == 1) & samples.finished())
    at_bank = banker[samples.masks[1][samples.row[banker]][:, list(bank.actions)].all(axis=1)]
    kept = at_bank[samples.action[at_bank] == bank.keep]
    assert len(at_bank) > 50 and len(kept) > 20 and (samples.action[at_bank] == bank.sell).any()

    def deal_chips(i: int) -> float:  # the chips from a keep/sell decision to the next one
        chain = walk(samples, i)
        stop = next((k for k, j in enumerate(chain[1:], 1) if j in set(at_bank.tolist())), len(chain))
        return float(samples.reward[chain[:stop]].sum())

    def kept_deal(i: int) -> float:  # less what reached a tenure's first decision before it
        return deal_chips(i) - samples.held[i]

    # no mean known yet: the rest of the tenure's chips, as GAE with lambda 1 along the banker's chain
    advantage, returns = samples.advantages(lambdas, bank)
    for i in at_bank:
        np.testing.assert_allclose(returns[i], samples.reward[walk(samples, i)].sum(), atol=1e-9)
    last = kept[samples.key[kept, 2] == 1.0]
    assert len(last) > 0 and all(kept_deal(i) == 0.0 for i in last)  # after the last deal: no deal played
    assert any(samples.held[i] != 0.0 for i in at_bank)  # the chips of a deal before the tenure's first decision
    assert any(kept_deal(i) != 0.0 for i in kept[samples.key[kept, 2] == 0.0])
    np.testing.assert_array_equal(samples.key[kept, 0], samples.obs[1][samples.row[kept], enc.CHIP_SHOOT]
                                  / selfplay.spaces["banker"].scale[enc.CHIP_SHOOT])
    # made-up means at every key the kept decisions met: each kept deal is worth its key's mean
    keys = {tuple(k) for k in samples.key[kept].tolist()}
    made_up = {key: 0.25 * (1 + index) for index, key in enumerate(sorted(keys))}
    bank.deal_means.table = {key: [50, mean] for key, mean in made_up.items()}
    advantage, returns = samples.advantages(lambdas, bank)
    bank_set = set(at_bank.tolist())
    for i in at_bank:
        expected = sum(samples.held[j] + made_up[tuple(samples.key[j].tolist())] if samples.action[j] == bank.keep
                       else deal_chips(j) for j in walk(samples, i) if j in bank_set)
        np.testing.assert_allclose(returns[i], expected, atol=1e-9)
        np.testing.assert_allclose(advantage[i], expected - value[i], atol=1e-9)
    # a mean on too few deals is not used: that key's kept deals are their own chips again
    key = tuple(samples.key[kept[0]].tolist())
    bank.deal_means.table[key][0] = bank.deal_means.min_count - 1
    _, partly = samples.advantages(lambdas, bank)
    assert partly[kept[0]] != returns[kept[0]]
    # taking the samples adds their kept deals to the means (a fresh one: count and mean per key)
    fresh = DealMeans(window=50, min_count=1)
    bank = type(bank)(bank.keep, bank.sell, None, fresh)
    chips = {}
    for i in kept:
        chips.setdefault(tuple(samples.key[i].tolist()), []).append(kept_deal(i))
    selfplay._update(samples.take_finished(lambdas, bank))
    assert len(chips) > 3 and all(len(values) <= 50 for values in chips.values())
    for key, values in chips.items():
        count, mean = fresh.table[key]
        assert count == len(values)
        np.testing.assert_allclose(mean, np.mean(values), atol=1e-9)
    restored = DealMeans(window=50)
    restored.restore(fresh.state())
    assert restored.table == fresh.table
    # the plain means since the last look, beside the running ones (here the same: no key passed 50)
    recent = {tuple(r[:3]): r[3:] for r in fresh.take_recent()}
    assert recent.keys() == fresh.table.keys()
    for key, (count, mean) in recent.items():
        assert count == fresh.table[key][0]
        np.testing.assert_allclose(mean, fresh.table[key][1], atol=1e-9)
    assert fresh.take_recent() == []


def test_a_running_deal_mean_forgets_past_its_window_and_the_plain_mean_of_a_generation_does_not():
    """The running mean weighs each deal past the window's count alike (1/window); the plain mean since
    the last look (a history row's ``kept_deals``) is every deal alike: a Shoot met by fewer deals than
    the window has a running mean over the whole run."""
    from train.seat_samples import DealMeans

    means = DealMeans(window=2, min_count=1)
    key = np.array([[3.25, 0.0, 0.0]])
    for chips in (0.0, 0.0, 3.0):
        means.update(key, np.array([chips]))
    assert means.table[(3.25, 0.0, 0.0)] == [3, 1.5]  # 0, 0, then halfway to 3
    assert means.take_recent() == [[3.25, 0.0, 0.0, 3, 1.0]]
    wide = DealMeans(window=100, min_count=1)
    wide.update(np.repeat(key, 3, axis=0), np.array([0.0, 0.0, 3.0]))
    assert wide.table[(3.25, 0.0, 0.0)] == [3, 1.0]


def test_the_keep_or_sell_decision_has_its_own_entropy_weight(tmp_path):
    """``bank_ent_coef`` weighs the entropy of the keep/sell decision apart from the draws': equal to
    ``ent_coef`` it updates the network as before; large, with no advantage to follow, it raises that
    decision's entropy more than the draws' weight alone does."""
    import dataclasses

    import torch

    from train.table_selfplay import Learner

    selfplay = tiny(tmp_path, "banker.advantage_norm=legal_actions")
    selfplay.draw_owners(np.arange(selfplay.tables.num_tables))
    state = [env.reset(seed=7) for env in selfplay.tables.envs]
    selfplay.collect(64, state)
    lambdas = tuple(selfplay.settings[role].gae_lambda for role in ("punter", "banker"))
    batch = selfplay.samples.take_finished(lambdas)[1]
    at_bank = batch.masks[:, [2, 3]].all(axis=1)
    assert at_bank.sum() > 30 and (~at_bank).sum() > 30
    batch.advantages[:] = 0.0  # the entropy and value losses alone move the network
    space, settings = selfplay.spaces["banker"], selfplay.settings["banker"]

    def updated(**change) -> Learner:
        learner = Learner(space, dataclasses.replace(settings, **change), seed=3)
        with torch.no_grad():  # a banker that all but always keeps: its keep/sell entropy is low
            learner.policy.action_net.bias[2] += 4.0
        learner.update(batch, 0.0, np.random.default_rng(0))
        return learner

    def entropy(learner: Learner) -> np.ndarray:
        with torch.no_grad():
            logits, _ = learner.forward(torch.as_tensor(batch.obs), torch.as_tensor(batch.masks))
            log_p = torch.log_softmax(logits, dim=1)
            return (-(log_p.exp() * log_p).sum(dim=1)).numpy()

    shared = updated()
    assert shared.bank_actions == []
    same = updated(bank_ent_coef=settings.ent_coef)
    assert same.bank_actions == [2, 3]
    for a, b in zip(shared.policy.parameters(), same.policy.parameters()):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=1e-6)
    large = updated(bank_ent_coef=5.0)
    assert entropy(shared)[at_bank].mean() < 0.2
    assert entropy(large)[at_bank].mean() > entropy(shared)[at_bank].mean() + 0.05


def test_the_sales_are_compared_with_the_best_sale_rule_of_the_chain():
    from shoot_pontoon_env.players.strategies import make_strategy
    from shoot_pontoon_env.rules import SHOOT
    from shoot_pontoon_env.solver.session.chain import BankChain
    from train.session_check import bank_check, sales_check, summary
    from train.session_play import KEPT, SessionPlay

    chain = BankChain(SHOOT, make_strategy("tips"), make_strategy("shoot_aware"))  # tips never bets under 100
    keep3 = chain.keep_value(50, 3)
    assert keep3 == pytest.approx(3 * chain.laws(50).banker_gain) and keep3 > 0  # worth more than the price, 0
    empty = np.zeros(0)
    play = SessionPlay(deals=4, episodes=4, bank_shoot=np.array([50, 50, 50, 50]), bank_left=np.array([3, 3, 1, 0]),
                       bank_sold=np.array([False, True, False, True]), bet_shoot=empty, bet_point=empty,
                       bet_chips=empty, first_net=chain.value(50, 4).value + np.array([-1.0, 1.0, -2.0, 2.0]),
                       first_end=np.full(4, KEPT), first_deals=np.full(4, 4))
    sales = sales_check(chain, play, price=0)
    # selling with 3 deals left gives away a bank worth keep3 > 0; after the last deal either is right
    assert sales["agree"] == 0.75 and sales["exact_sells"] == 0.0 and sales["sold"] == 0.5
    assert sales["shoots_met"] == 1 and sales["shoots_agreeing"] == 0.0  # 75% of the decisions at 50: under 90%
    # the one wrong answer gives away keep3 (of four decisions); never selling is right everywhere here
    assert sales["regret"] == pytest.approx(keep3 / 4) and sales["regret_always_keep"] == 0.0
    assert sales["regret_always_sell"] == pytest.approx((2 * keep3 + chain.keep_value(50, 1)) / 4)
    assert sales["by_shoot"][50]["blind_best"] == 1.0 and sales["blind_best_shoots_agreeing"] == 1.0
    # at a price between the bank's worth with 1 and 3 deals left the rule turns with the clock: a banker
    # reading the Shoot alone is right at half of these decisions at best
    keep1 = chain.keep_value(50, 1)
    split = sales_check(chain, play, price=(keep1 + keep3) / 2)
    assert split["exact_sells"] == 0.5 and split["by_shoot"][50]["blind_best"] == 0.5
    assert split["blind_best_shoots_agreeing"] == 0.0
    # its answers there agree at 50%, the most a banker blind to the clock can: at that ceiling
    assert split["agree"] == 0.5 and split["shoots_agreeing_to_the_blind_ceiling"] == 1.0
    assert sales["shoots_agreeing_to_the_blind_ceiling"] == 0.0  # 75% where 100% was open to it
    assert sales["shoots_met_often"] == 1 and sales["shoots_met_often_agreeing"] == 0.0
    assert sales["as_the_chain_asks"] == 0.5  # shoot_aware keeps a bank of 50 when the chain asks it
    bank = bank_check(chain, play, 50, as_itself=play)
    assert bank["z"] == pytest.approx(0.0, abs=1e-12) and bank["exact"] == pytest.approx(4 * chain.laws(50).banker_gain)
    assert bank["engine_as_itself"] == bank["engine"] and bank["engine_as_itself_sale_chance"] == 0.0
    text = summary({"bank": bank, "sales": sales, "bets": {"buckets": []}}).splitlines()[1]
    assert f"chips given up a decision {keep3 / 4:.4f}" in text and "clock at 100.00% at best" in text, text


def test_the_sales_read_among_the_shoots_met_often():
    """A Shoot met by one decision of 1,001 counts as much as the other in the bar; among the Shoots met by
    at least 0.1% of the decisions it is left out."""
    from shoot_pontoon_env.players.strategies import make_strategy
    from shoot_pontoon_env.rules import SHOOT
    from shoot_pontoon_env.solver.session.chain import BankChain
    from train.session_check import sales_check
    from train.session_play import KEPT, SessionPlay

    chain = BankChain(SHOOT, make_strategy("tips"), make_strategy("shoot_aware"))
    chain.laws(60)  # known to the chain: tips bets nothing under 100, so keeping at 60 is worth its edge
    assert chain.keep_value(60, 3) > 0 and chain.keep_value(50, 3) > 0
    shoots = np.array([50] * 1000 + [60])
    play = SessionPlay(deals=4, episodes=1001, bank_shoot=shoots, bank_left=np.full(1001, 3),
                       bank_sold=shoots == 60, bet_shoot=np.zeros(0), bet_point=np.zeros(0), bet_chips=np.zeros(0),
                       first_net=np.zeros(1001), first_end=np.full(1001, KEPT), first_deals=np.full(1001, 4))
    sales = sales_check(chain, play, price=0)
    assert sales["shoots_met"] == 2 and sales["shoots_agreeing"] == 0.5  # the sale at 60 gives a bank away
    assert sales["shoots_met_often"] == 1 and sales["shoots_met_often_agreeing"] == 1.0
    assert sales_check(chain, play, price=0, often=0.0005)["shoots_met_often_agreeing"] == 0.5


def test_session_check_refuses_a_run_it_cannot_value_in_one_line(tmp_path, capsys):
    import dataclasses

    import yaml

    from train import session_check

    def run_with(*more: str):
        config = load_table_selfplay_config(CONFIG, TINY + list(more))
        folder = tmp_path / "-".join(more or ("plain",))
        folder.mkdir()
        (folder / "table_selfplay.yaml").write_text(yaml.safe_dump(dataclasses.asdict(config), sort_keys=False))
        return str(folder)

    for argv, words in (([run_with("punter.ignores=[]")], "punter.ignores = []"),
                        ([run_with("num_players=3")], "num_players = 3"),
                        ([run_with("session_per_bank=false")], "session_per_bank = false"),
                        ([run_with()], "no final punter"),
                        ([str(tmp_path / "nowhere")], "nowhere"),
                        ([str(tmp_path), "--episodes", "1"], "--episodes: 1"),
                        ([str(tmp_path), "--seed", "-1"], "--seed: -1")):
        assert session_check.main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and err.startswith("error:") and words in err, (argv, err)


def test_the_optimum_weighs_the_largest_bet_the_shoots_room_allows():
    from dataclasses import replace

    from shoot_pontoon_env.rules import SHOOT
    from shoot_pontoon_env.models.player import shoot_allowance

    levels = (5, 40)  # train/configs/table_selfplay/session_keep.yml: a box bets 40 only from a Shoot of 40
    assert [shoot_allowance(SHOOT, levels, shoot) for shoot in (4, 5, 35, 40, 100)] == [0, 5, 5, 40, 40]
    assert shoot_allowance(replace(SHOOT, max_shoot_bet=20), levels, 100) == 5


def test_the_shoot_bets_are_measured_against_the_optimum_at_each_shoots_room():
    from dataclasses import replace

    from shoot_pontoon_env.models.resolve import make_policy
    from shoot_pontoon_env.rules import SHOOT
    from shoot_pontoon_env.solver.headsup.deal_law import DealLaws
    from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS
    from train.session_check import bets_check
    from train.session_play import KEPT, SessionPlay

    rules = replace(SHOOT, pack="euchre", shoot_bet_points=("before_second_card",))  # a short pack: fast
    seat = {"rules": rules, "num_players": 2, "starting_chips": STARTING_CHIPS}
    punter, banker = make_policy("optimal", shoot_bet_levels=(5,), **seat), make_policy("stand17", **seat)
    shoots = np.array([10, 10, 50])  # the buckets under 40 and 40-59, each valued at its most frequent Shoot
    play = SessionPlay(deals=1, episodes=1, bank_shoot=np.zeros(0), bank_left=np.zeros(0), bank_sold=np.zeros(0),
                       bet_shoot=shoots, bet_point=np.ones(3, dtype=int), bet_chips=np.array([5, 0, 5]),
                       first_net=np.zeros(1), first_end=np.full(1, KEPT), first_deals=np.ones(1))
    rows = bets_check(rules, punter, banker, play, (5, 40), DealLaws(rules, punter, banker))["buckets"]
    assert [(row["shoot"], row["optimum_bet"]) for row in rows] == [(10, 5), (50, 40)]
    # under 40 the optimum may bet only 5, as this punter does: all of its part; at 50 it bets 40
    assert rows[0]["captured"] == pytest.approx(1.0, abs=1e-12)
    assert rows[1]["optimum_shoot_part_vs_stand17"] > 5 * rows[1]["shoot_part_vs_stand17"] > 0


def test_the_bet_buckets_split_where_a_level_first_fits_the_shoots_room():
    from train.session_check import bucket_edges, bucket_of

    edges = bucket_edges((10, 100))
    assert edges == (0, 10, 40, 60, 90, 100)
    # 90 allows a bet of 10 only and 130 one of 100: measured apart, each at its own optimum's bet
    assert bucket_of(95, edges) != bucket_of(130, edges) == bucket_of(100, edges)
    assert bucket_edges((5, 40)) == (0, 5, 40, 60, 90)


def test_the_bets_by_first_card_show_a_punter_that_reads_ranks():
    from dataclasses import replace

    from train.session_check import bets_by_first_card
    from train.session_play import KEPT, SessionPlay

    ranks = np.array([0, 9, 10, 12, 12, -1])  # an Ace, a Ten, a Jack, two Kings; a decision before the deal
    chips = np.array([5, 5, 5, 0, 0, 5])
    play = SessionPlay(deals=1, episodes=1, bank_shoot=np.zeros(0), bank_left=np.zeros(0), bank_sold=np.zeros(0),
                       bet_shoot=np.full(6, 35), bet_point=np.array([1, 1, 1, 1, 1, 0]), bet_chips=chips,
                       first_net=np.zeros(1), first_end=np.full(1, KEPT), first_deals=np.ones(1), bet_rank=ranks)
    assert bets_by_first_card(play, np.ones(6, dtype=bool)) == {"A": 1.0, "T": 1.0, "J": 1.0, "K": 0.0}
    assert bets_by_first_card(replace(play, bet_rank=None), np.ones(6, dtype=bool)) is None  # no ranks recorded


def test_the_keep_configuration_posts_its_shoot_just_under_the_boundary():
    from shoot_pontoon_env.rules import get_rules
    from shoot_pontoon_env.models.player import shoot_allowance

    config = load_table_selfplay_config("train/configs/table_selfplay/session_keep.yml", [])
    rules, levels = get_rules(config.rules), tuple(config.shoot_bet_levels)
    assert rules.initial_shoot == 35 and rules.base_stake == rules.min_stake == rules.max_stake == 20
    assert shoot_allowance(rules, levels, 35) == 5 and shoot_allowance(rules, levels, 40) == 40


def test_the_big_configuration_posts_its_shoot_above_the_boundary_and_is_one_the_check_values():
    from shoot_pontoon_env.rules import get_rules
    from shoot_pontoon_env.models.player import shoot_allowance
    from train.session_check import check_blind

    config = load_table_selfplay_config("train/configs/table_selfplay/session_big.yml", [])
    rules, levels = get_rules(config.rules), tuple(config.shoot_bet_levels)
    check_blind(config)  # blind where the chain needs it, heads-up, a session per bank
    assert rules.initial_shoot == 130 and rules.shoot_cap == 200 and rules.base_stake == rules.max_stake == 40
    assert shoot_allowance(rules, levels, 99) == 10 and shoot_allowance(rules, levels, 100) == 100
    assert shoot_allowance(rules, levels, rules.initial_shoot) == 100
