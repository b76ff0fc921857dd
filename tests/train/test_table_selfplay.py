"""Self-play at whole tables (``train/table_selfplay.py``): every chip a learner seat wins reaches
that seat's own samples, through the league's frozen seats and the kernel's anchors (rule-based
and the solver's policy); the saved
models load as single-seat models; bad settings are one-line errors."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from train.seat_samples import SeatSamples  # noqa: E402
from train.table_selfplay import (LEARNER, TableSelfPlay, load_table_selfplay_config,  # noqa: E402
                                  main, normalise_by_legal_actions)

SMALL = ["total_decisions=20000", "generations=1", "rollout_steps=8", "eval_hands=200",
         "groups=[{tables: 24, first_banker: random, frozen_share: 0.6}, "
         "{tables: 8, players: {0: stand17, 2: tips, 3: tips}}, {tables: 8, players: {1: optimal, 2: optimal}}, "
         "{tables: 8, players: {0: dealer}}]"]


class Recorder:
    """A group's env that notes, for every episode it ends, each seat's chip change (from the
    table's wealth, not from the rewards) and who held each seat."""

    def __init__(self, env, selfplay: TableSelfPlay, group: int) -> None:
        self.env, self.selfplay, self.group = env, selfplay, group
        self.ended: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def __getattr__(self, name):
        return getattr(self.env, name)

    def step(self, actions):
        out = self.env.step(actions)
        tables = self.selfplay.tables
        first = tables.first[self.group]
        start = self.env.settings.config.starting_chips
        base = self.env.rules.base_stake
        for i in np.flatnonzero(out[2] | out[3]):
            t = first + int(i)
            change = np.array([self.env.batch.facts(int(i), s).wealth - start for s in range(self.env.num_players)])
            held = (tables.owners[t] == LEARNER) & ~tables.fixed[t]
            self.ended[(t, int(self.selfplay.samples.episode[t]))] = (change / base, held)
        return out


def recorded_run(steps: int, seed: int = 0):
    config = load_table_selfplay_config(None, SMALL + [f"seed={seed}"])
    selfplay = TableSelfPlay(config)
    selfplay.snapshots.append({role: selfplay.learners[role].frozen() for role in ("punter", "banker")})
    selfplay.draw_owners(np.arange(selfplay.tables.num_tables))
    recorders = [Recorder(env, selfplay, g) for g, env in enumerate(selfplay.tables.envs)]
    selfplay.tables.envs = recorders
    state = [env.reset(seed=seed + g) for g, env in enumerate(recorders)]
    selfplay.collect(steps, state)
    ended = {key: value for r in recorders for key, value in r.ended.items()}
    return selfplay, ended


def test_every_learner_chip_reaches_its_seats_samples():
    selfplay, ended = recorded_run(160)
    batches = selfplay.samples.take_finished((0.7, 0.95))
    credited: dict[tuple[int, int, int], float] = defaultdict(float)
    for batch in batches:
        for t, e, s, r in zip(batch.tables, batch.episodes, batch.seats, batch.rewards):
            credited[(int(t), int(e), int(s))] += float(r)
    assert len(ended) > 500
    frozen_seen = learner_seen = 0
    owed_unasked = np.zeros(selfplay.config.num_players)
    for (t, e), (change, held) in ended.items():
        for s in range(len(change)):
            key = (t, e, s)
            if not held[s]:
                assert key not in credited, f"table {t} episode {e}: seat {s} was not the learner's but has samples"
                frozen_seen += 1
            elif key in credited:
                assert credited[key] == pytest.approx(change[s], abs=1e-9), f"table {t} episode {e} seat {s}"
                learner_seen += 1
            else:
                owed_unasked[s] += change[s]
    assert frozen_seen > 100 and learner_seen > 1000
    np.testing.assert_allclose(selfplay.samples.unasked, owed_unasked, atol=1e-9)
    # every finished sample belongs to an episode the recorder saw end
    assert set((t, e) for t, e, _ in credited) <= set(ended)


def test_advantages_follow_each_seats_own_chain():
    """Three decisions of one seat and one of another, one episode: with lambda 1 each advantage is
    the seat's chips from that decision on minus the value."""
    samples = SeatSamples(1, 2, (1, 1), (2, 2))
    one = np.ones((1, 1), np.float32)
    yes = np.ones((1, 2), bool)

    def decide(seat, value):
        samples.add(np.array([0]), np.array([seat]), 0, one, yes, np.array([0]), np.zeros(1, np.float32),
                    np.array([value], np.float32))

    samples.credit(0, np.array([[0.0, 2.0]]), np.ones((1, 2), bool))  # before seat 1's first decision: held
    decide(0, 0.5)
    samples.tick()
    samples.credit(0, np.array([[1.0, -1.0]]), np.ones((1, 2), bool))
    decide(1, 0.25)
    samples.tick()
    samples.credit(0, np.array([[-3.0, 3.0]]), np.ones((1, 2), bool))
    decide(0, -1.0)
    samples.tick()
    samples.credit(0, np.array([[4.0, -4.0]]), np.ones((1, 2), bool))
    samples.end_episodes(np.array([0]))
    (batch, banker) = samples.take_finished((1.0, 1.0))
    assert len(banker) == 0 and samples.n == 0
    # seat 1 holds 2 - 1 until it decides, then wins 3 and loses 4; seat 0's samples split at its second
    np.testing.assert_allclose(batch.rewards, [1.0 - 3.0, 2.0 - 1.0 + 3.0 - 4.0, 4.0])
    np.testing.assert_allclose(batch.returns, [-2.0 + 4.0, 0.0, 4.0])
    np.testing.assert_allclose(batch.advantages, [2.0 - 0.5, 0.0 - 0.25, 4.0 + 1.0])


def test_advantages_are_normalised_within_each_set_of_legal_actions():
    masks = np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [1, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=bool)
    advantages = np.array([1.0, 3.0, 100.0, 5.0, 300.0, 7.0])
    normalised = normalise_by_legal_actions(advantages, masks)
    np.testing.assert_allclose(normalised, [-1.0, 0.0, -0.70710678, 1.0, 0.70710678, 0.0], atol=1e-6)


def test_running_episodes_wait_for_a_later_update():
    selfplay, _ = recorded_run(5)
    running = int((~selfplay.samples.finished()).sum())
    batches = selfplay.samples.take_finished((0.7, 0.95))
    assert running > 0 and selfplay.samples.n == running
    assert not selfplay.samples.finished().any()
    assert all(len(b) == len(b.returns) for b in batches)


def test_a_run_saves_models_that_load_as_single_seat_models(tmp_path, capsys):
    from agents import make_agent
    import gymnasium as gym

    assert main(["--set", *SMALL, f"log_dir={tmp_path}", "run_name=tiny"]) == 0
    run = tmp_path / "tiny-seed0"
    for role, env_id in (("punter", "ShootPontoon-v0"), ("banker", "ShootPontoonBanker-v0")):
        env = gym.make(env_id)
        agent = make_agent(str(run / role / "model.zip"), env)
        obs, info = env.reset(seed=1)
        assert info["action_mask"][agent.choose(obs, info["action_mask"], np.random.default_rng(0))]
    assert (run / "history.json").is_file() and (run / "table_selfplay.png").is_file()
    assert "table self-play:" in capsys.readouterr().out

    from train import table_measure

    assert table_measure.main([str(run), "--hands", "300", "--punters", "zoo:shoot_punter"]) == 0
    measured = json.loads((run / "measure.json").read_text())
    for key in ("punter_vs_optimal", "banker_vs_dealer_tips", "banker_vs_dealer_zoo:shoot_punter"):
        assert measured[key]["hands" if "hands" in measured[key] else "deals"] == 300
        assert np.isfinite(measured[key]["paired"]) and measured[key]["ci"] > 0
    assert table_measure.main([str(run), "--curves", str(tmp_path / "curves.png")]) == 0
    assert (tmp_path / "curves.png").stat().st_size > 10_000
    assert table_measure.main([str(tmp_path), "--hands", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "table_selfplay.yaml" in err[0]


@pytest.mark.parametrize("override, words", [
    ("punter.observation=pixels", "punter.observation = 'pixels'"),
    ("banker.observation=compact", "banker.observation = 'compact'"),
    ("groups=[{tables: 4, players: {1: tips, 2: tips, 3: tips}}]", "every episode must ask a learner"),
    ("groups=[{tables: 4, frozen_share: 1.0}]", "frozen_share = 1.0"),
    ("total_decisions=0", "total_decisions = 0"),
    ("nonsense=1", "unknown self-play field"),
])
def test_bad_settings_are_one_line(override, words, capsys):
    assert main(["--set", override]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and words in err, err


def test_a_saved_banker_reads_the_raw_row_as_the_learner_read_the_scaled_one(tmp_path):
    """The banker learns on chip counts scaled down; its saved model folds the scale into its first
    layers, so the env's own row gives the same logits and value."""
    import gymnasium as gym
    import torch

    from agents import make_agent

    selfplay = TableSelfPlay(load_table_selfplay_config(None, SMALL))
    learner = selfplay.learners["banker"]
    with torch.no_grad():  # a trained-looking network: every weight away from its initial scale
        for parameter in learner.policy.parameters():
            parameter.add_(0.3 * torch.randn_like(parameter))
    path = learner.save(tmp_path / "banker", selfplay.config, 1)
    env = gym.make("ShootPontoonBanker-v0")
    agent = make_agent(str(path), env)
    rows = np.random.default_rng(1).normal(0, 20, size=(64, env.observation_space.shape[0])).astype(np.float32)
    masks = np.ones((64, env.action_space.n), dtype=bool)
    space = learner.space
    assert space.scale is not None and (space.scale < 1).any()
    with torch.no_grad():
        trained = learner.policy.get_distribution(torch.as_tensor(space.inputs(rows)), action_masks=masks)
        saved = agent.policy.get_distribution(torch.as_tensor(rows), action_masks=masks)
        np.testing.assert_allclose(saved.distribution.probs.numpy(), trained.distribution.probs.numpy(), atol=1e-5)
        np.testing.assert_allclose(agent.policy.predict_values(torch.as_tensor(rows)).numpy(),
                                   learner.policy.predict_values(torch.as_tensor(space.inputs(rows))).numpy(),
                                   rtol=1e-4, atol=1e-4)


def test_bankers_meet_the_same_deals():
    """The whole-table banker measurement pairs by the shuffle: a banker against itself differs by
    nothing, and a banker that always sticks and the ``dealer`` (who sticks on 17 or more) agree on
    every deal where the dealer's first two cards stand."""
    from train.table_measure import banker_returns

    def stick_first(rows, masks):  # stake the minimum, no Shoot bet, stick; the banker sticks
        return np.array([8 if m[8] else int(np.flatnonzero(m)[0]) for m in masks])

    first = banker_returns(stick_first, stick_first, 600, 5, num_tables=128)
    np.testing.assert_array_equal(first, banker_returns(stick_first, stick_first, 600, 5, num_tables=128))
    dealer = banker_returns("dealer", stick_first, 600, 5, num_tables=128)
    same = np.mean(dealer == first)
    assert len(dealer) == 600 and 0.3 < same < 1.0, same
