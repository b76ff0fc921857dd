"""A bad ``gym.make_vec`` argument gives its one-line error and nothing else: the half-built vector env
that ``__init__`` leaves behind closes quietly (Gymnasium 1.2's ``VectorEnv.__del__``, Ray's Gymnasium,
closes it at collection; before the fix that printed an ``AttributeError: ... 'single_env'`` traceback)."""

import gc
import sys

import gymnasium as gym
import pytest

import shoot_pontoon_env.envs  # noqa: F401
from shoot_pontoon_env.envs.vector_env import PontoonVectorEnv

BAD = [
    ("ShootPontoon-v0", {"num_players": 99}, r"num_players = 99: expected an int 2\.\.10"),
    ("ShootPontoon-v0", {"copy": "yes"}, r"copy = 'yes': expected True or False"),
    ("ShootPontoon-v0", {"num_envs": 0}, r"num_envs = 0: expected an int"),
    ("ShootPontoonBanker-v0", {"render_mode": "human"}, r"render_mode = 'human': expected None or one of"),
]


def half_built(excinfo: pytest.ExceptionInfo) -> PontoonVectorEnv:
    """The object whose ``__init__`` raised, from the traceback's frames: what ``__del__`` closes."""
    tb = excinfo.tb
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("self")
        if isinstance(candidate, PontoonVectorEnv):
            return candidate
        tb = tb.tb_next
    raise AssertionError("no vector env in the traceback")


@pytest.mark.parametrize(("env_id", "kwargs", "message"), BAD)
def test_a_bad_argument_raises_its_error_and_nothing_else(env_id, kwargs, message, capfd, monkeypatch):
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with pytest.raises(ValueError, match=message) as excinfo:
        gym.make_vec(env_id, **{"num_envs": 2, **kwargs})
    env = half_built(excinfo)
    assert not env.closed
    env.close()  # what Gymnasium 1.2's __del__ does with it
    assert env.closed
    del env, excinfo
    gc.collect()
    assert unraisable == []
    assert capfd.readouterr() == ("", "")
