"""What outside clients read from the envs: infos of fixed keys and dtypes (TorchRL fixes its specs from
the first info; Gymnasium's SyncVectorEnv batches by type), the compact observation under Gymnasium's
vector wrapper, the shuffle keys' full width, the install hints, and TorchRL itself where it is
installed (its autoreset, info and mask paths; docs/ECOSYSTEM.md shows the same)."""

import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import VectorizeTransformObservation

import shoot_pontoon_env.envs  # noqa: F401
from shoot_pontoon_env.envs.features import CompactObservation
from shoot_pontoon_env.vector.tables import KEY_RANGE, TableBatch, first_key
from shoot_pontoon_env.vector.layout import T_KEY_HI, T_KEY_LO

ROOT = Path(__file__).resolve().parents[2]
INFO_DTYPES = {"action_mask": np.bool_, "illegal_action": np.bool_, "deal": np.int64}


def assert_fixed_info(info: dict, n: int) -> None:
    assert set(info) == set(INFO_DTYPES), sorted(info)
    for key, dtype in INFO_DTYPES.items():
        assert isinstance(info[key], np.ndarray) and info[key].dtype == dtype, (key, type(info[key]))
    assert info["action_mask"].shape == (n,) and info["illegal_action"].shape == info["deal"].shape == ()


@pytest.mark.parametrize("engine", ["batched", "table"])
@pytest.mark.parametrize("env_id", ["ShootPontoon-v0", "ShootPontoonBanker-v0"])
def test_every_info_has_the_same_keys_as_numpy_values_of_fixed_dtypes(env_id, engine):
    env = gym.make(env_id, engine=engine)
    n = env.action_space.n
    rng = np.random.default_rng(0)
    illegal = 0
    for seed in range(40):
        _, info = env.reset(seed=seed)
        assert_fixed_info(info, n)
        assert int(info["deal"]) == 1 and not info["illegal_action"]
        terminated = False
        while not terminated:
            action = int(rng.integers(n))  # unmasked: illegal actions too
            _, _, terminated, _, info = env.step(action)
            assert_fixed_info(info, n)
            message = env.unwrapped.last_message
            assert bool(info["illegal_action"]) == bool(message)
            if info["illegal_action"]:
                illegal += 1
                assert f"illegal action {action} " in message and terminated
    assert illegal > 10


def test_sync_vector_env_batches_the_infos_into_their_dtypes_and_checkers_pass():
    envs = gym.make_vec("ShootPontoon-v0", num_envs=3, vectorization_mode="sync")
    _, info = envs.reset(seed=0)
    for _ in range(6):
        _, _, _, _, info = envs.step(envs.action_space.sample())  # unmasked: illegal actions, autoresets
        assert info["illegal_action"].dtype == np.bool_ and info["deal"].dtype == np.int64
        assert info["action_mask"].dtype == np.bool_ and info["action_mask"].shape == (3, 15)
    envs.close()
    check_env(gym.make("ShootPontoon-v0").unwrapped)
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(gym.make("ShootPontoonBanker-v0"))
    sb3_checker.check_env(CompactObservation(gym.make("ShootPontoon-v0")))


def test_the_whole_table_infos_are_fixed_and_its_message_is_an_attribute():
    from shoot_pontoon_env.multiagent import raw_env

    table = raw_env(num_players=3)
    table.reset(seed=0, options={"stacked": "TS 9H TD 8H 7C 7D KS"})
    expected = {"deal": np.int64, "banker": np.bool_, "illegal_action": np.bool_}
    for agent in table.agents:
        assert {k: v.dtype for k, v in table.infos[agent].items()} == expected and table.last_message == ""
    table.step(8)  # seat 1 sticks while it must stake: illegal
    assert table.infos["seat_1"]["illegal_action"] and not table.infos["seat_2"]["illegal_action"]
    assert "seat_1: illegal action 8 (stick)" in table.last_message
    assert bool(table.infos["seat_0"]["banker"]) and not table.infos["seat_1"]["banker"]
    _, mask = table.episode.observe(table.seat_of[table.agent_selection])
    table.step(int(np.flatnonzero(mask)[0]))  # a legal action: the message is the last step's
    assert table.last_message == "" and not any(bool(i["illegal_action"]) for i in table.infos.values())
    for agent in table.agents:
        assert {k: v.dtype for k, v in table.infos[agent].items()} == expected


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED])  # what Gymnasium's take
def test_compact_observation_vectorizes_like_the_kernels_compact_rows(mode):
    wrapped = VectorizeTransformObservation(gym.make_vec("ShootPontoon-v0", num_envs=4, autoreset_mode=mode),
                                            CompactObservation)
    direct = gym.make_vec("ShootPontoon-v0", num_envs=4, autoreset_mode=mode, observation="compact")
    assert wrapped.single_observation_space == direct.single_observation_space
    obs, info = wrapped.reset(seed=3)
    assert np.array_equal(obs, direct.reset(seed=3)[0])
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, _, terminated, _, info = wrapped.step(actions)
        assert np.array_equal(obs, direct.step(actions)[0])
        if mode == AutoresetMode.DISABLED and terminated.any():
            obs, reset_info = wrapped.reset(options={"reset_mask": terminated})
            assert np.array_equal(obs, direct.reset(options={"reset_mask": terminated})[0])
            info["action_mask"][terminated] = reset_info["action_mask"][terminated]
        episodes += int(terminated.sum())
    assert episodes > 4


def test_a_wrapped_env_records_its_wrapper_and_remakes_from_its_spec():
    env = CompactObservation(gym.make("ShootPontoon-v0"))
    remade = gym.make(env.spec)
    assert isinstance(remade, CompactObservation) and remade.observation_space == env.observation_space
    assert np.array_equal(remade.reset(seed=5)[0], env.reset(seed=5)[0])
    with pytest.raises(ValueError, match="CompactObservation needs a flat ShootPontoon observation"):
        CompactObservation(gym.make("CartPole-v1"))


def table_keys(batch: TableBatch) -> np.ndarray:
    return batch.t[:, T_KEY_LO].astype(np.int64) | (batch.t[:, T_KEY_HI].astype(np.int64) << 31)


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64,
                                           np.random.MT19937])
def test_the_keys_drawn_are_the_generators_integers_for_every_bit_generator(bit_generator):
    """In Python at a reset (draw_keys), in the kernel at a step's autoresets (kernel_deals.draw_key)."""
    from shoot_pontoon_env.vector.tables import draw_keys

    which = np.random.default_rng(3).random(500) < 0.3
    keys = draw_keys(np.random.Generator(bit_generator(9)), which, np.empty(500, dtype=np.int64))
    expected = np.random.Generator(bit_generator(9)).integers(0, KEY_RANGE, size=int(which.sum()))
    assert np.array_equal(keys[which], expected) and (keys[~which] == -1).all()
    env = gym.make("ShootPontoon-v0", engine="table")
    batch = TableBatch(env.unwrapped.config, 500)
    batch.reset(np.random.default_rng(0), carry=False)
    batch.step(np.zeros(500, dtype=np.int64), which, np.random.Generator(bit_generator(9)))
    assert np.array_equal(table_keys(batch)[which], expected)
    assert (batch._no_keys == -1).all()  # the buffer a step hands the kernel, as it was


def test_shuffle_keys_are_full_width_integers_from_the_generator():
    env = gym.make("ShootPontoon-v0", engine="table")
    batch = TableBatch(env.unwrapped.config, 64)
    batch.reset(np.random.default_rng(7), carry=False)
    expected = np.random.default_rng(7).integers(0, KEY_RANGE, size=64)  # the Generator's first 64 draws
    assert np.array_equal(table_keys(batch), expected)
    assert (table_keys(batch) % 512 != 0).any()  # not a float's 53 bits scaled: those are multiples of 512
    which = np.zeros(64, dtype=np.bool_)
    which[[3, 40]] = True
    rng = np.random.default_rng(11)
    batch.step(np.zeros(64, dtype=np.int64), which, rng)  # autoresets draw their keys before the step
    keys = table_keys(batch)
    assert np.array_equal(keys[[3, 40]], np.random.default_rng(11).integers(0, KEY_RANGE, size=2))
    assert np.array_equal(np.delete(keys, [3, 40]), np.delete(expected, [3, 40]))
    scalar = gym.make("ShootPontoon-v0", engine="batched").unwrapped
    scalar.reset(seed=123)
    assert table_keys(scalar.episode.batch)[0] == first_key(123)


def test_no_install_hint_names_a_package_no_index_serves():
    """The package is installed from a checkout (``pip install -e ".[extra]"``), not by its name."""
    unpublished = re.compile(r"""pip install ["']?shoot-pontoon-env""")
    offenders = []
    for folder in ("shoot_pontoon_env", "docs", "train", "evaluate", "agents", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*")):
            name = str(path.relative_to(ROOT))
            if path.suffix not in (".py", ".md"):
                continue
            if unpublished.search(path.read_text(encoding="utf-8")):
                offenders.append(name)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not unpublished.search(readme) and offenders == [], offenders


def test_the_parallel_form_gives_idle_seats_pettingzoos_all_zero_mask():
    """PettingZoo's classic convention (its turn-based games, through ``turn_based_aec_to_parallel``): a
    seat not to act has no legal action, and the action it sends is ignored (docs/ECOSYSTEM.md, TorchRL)."""
    from shoot_pontoon_env.multiagent import parallel_env

    table = parallel_env(num_players=3)
    observations = table.reset(seed=0)[0]
    for _ in range(20):
        active = table.unwrapped.agent_selection
        for agent, observation in observations.items():
            assert observation["action_mask"].any() == (agent == active), agent
        actions = {agent: int(np.argmax(observations[agent]["action_mask"])) for agent in table.agents}
        observations = table.step(actions)[0]
        if not table.agents:
            observations = table.reset()[0]


def rollout_illegal(env, steps: int):
    """A rollout of unmasked random actions: the illegal ones it chose, and those its infos report."""
    env.set_seed(0)
    data = env.rollout(steps, break_when_any_done=False)
    chosen = data["action"].argmax(-1, keepdim=True)
    picked_illegal = ~data["action_mask"].gather(-1, chosen).squeeze(-1)
    return picked_illegal, data["next", "illegal_action"].reshape(picked_illegal.shape).bool()


@pytest.mark.parametrize("mode", [AutoresetMode.DISABLED, AutoresetMode.SAME_STEP])
def test_torchrl_reads_the_batched_engine_step_for_step(mode):
    torchrl_envs = pytest.importorskip("torchrl.envs")

    def tables():
        wrapped = torchrl_envs.GymWrapper(gym.make_vec("ShootPontoon-v0", num_envs=6, autoreset_mode=mode))
        if mode == AutoresetMode.DISABLED:
            wrapped.set_info_dict_reader(torchrl_envs.default_info_dict_reader())
        return wrapped

    chosen, reported = rollout_illegal(tables(), 60)
    assert chosen.sum() > 20 and bool((chosen == reported).all())  # each step's info is its own action's
    masked = torchrl_envs.TransformedEnv(tables(), torchrl_envs.ActionMask())
    # DISABLED: rollout after rollout (TorchRL resets the tables itself). SAME_STEP: one, since TorchRL's
    # VecGymEnvTransform puts the last step's data over a later full reset (CartPole's too; docs/ECOSYSTEM.md)
    for _ in range(3 if mode == AutoresetMode.DISABLED else 1):
        assert not masked.rollout(60, break_when_any_done=False)["next", "illegal_action"].any()


def test_torchrl_refuses_next_step_autoreset_and_reads_a_scalar_env_through_illegal_actions():
    torchrl_envs = pytest.importorskip("torchrl.envs")
    with pytest.raises(RuntimeError, match="SAME_STEP or DISABLED"):
        torchrl_envs.GymWrapper(gym.make_vec("ShootPontoon-v0", num_envs=2))  # NEXT_STEP, Gymnasium's default
    single = torchrl_envs.GymEnv("ShootPontoon-v0").set_info_dict_reader(torchrl_envs.default_info_dict_reader())
    chosen, reported = rollout_illegal(single, 80)  # the lazy reader sees illegal steps too: no text in infos
    assert chosen.sum() > 20 and bool((chosen == reported).all())


def test_torchrl_plays_the_whole_table_turn_by_turn():
    pytest.importorskip("pettingzoo")
    torchrl_envs = pytest.importorskip("torchrl.envs")
    from shoot_pontoon_env.multiagent import raw_env

    table = torchrl_envs.PettingZooWrapper(env=raw_env(num_players=3), use_mask=True)
    data = table.reset()
    actor = table._env.agent_selection
    illegal = int(np.flatnonzero(~data[actor, "action_mask"][0].numpy())[0])
    data = table.rand_action(data)
    data[actor, "action"] = data[actor, "action"].new_tensor([illegal])
    after = table.step(data)["next"]  # an illegal action: infos of fixed keys and dtypes, no text
    assert bool(after[actor, "info", "illegal_action"].all())
    assert "illegal action" in table._env.last_message
    rolled = table.rollout(100, break_when_any_done=False)  # masked: every seat's actions legal
    assert not any(rolled["next", seat, "info", "illegal_action"].any() for seat in table.group_map)
