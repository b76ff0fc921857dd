"""The kernel is compiled without numba's negative-index wraparound (vector/indexing.py), and nothing
else is: a user's numba function still reads ``a[-1]`` as Python does. Where the wraparound is off, a
negative index is out of bounds, which numba's bounds checks report; the slow test runs the engine's
differential tests with them on, so that any index of the kernel that would count from the end fails."""

from __future__ import annotations

import os
import subprocess
import sys
import types as pytypes
from pathlib import Path

import gymnasium as gym
import numba
import numpy as np
import pytest
from numba import njit
from numba.np import arrayobj

from shoot_pontoon_env.multiagent.batched import batched_env
from shoot_pontoon_env.vector import indexing, kernel, kernel_seat

ROOT = Path(__file__).resolve().parents[2]


def probe_module(name: str) -> pytypes.ModuleType:
    """A module whose one function reads ``a[i]``, so that its compiled name carries the module's."""
    module = pytypes.ModuleType(name)
    exec("def read(a, i):\n    return a[i]\n", module.__dict__)  # noqa: S102 - a fixed test source
    return module


def test_the_kernel_is_compiled_without_wraparound():
    kernel.compile()
    for module in kernel.KERNEL_MODULES:
        assert indexing.is_installed(module), module
    assert {item.function.__module__ for item in kernel.COMPILER.registered()} <= set(kernel.KERNEL_MODULES)
    assert hasattr(arrayobj.fix_integer_index, "wrapped")


def test_the_symbol_prefix_is_the_one_numba_gives_the_kernels_functions():
    kernel.compile()
    compiled = kernel_seat.play_tables.overloads[next(iter(kernel_seat.play_tables.overloads))]
    assert compiled.fndesc.mangled_name.startswith(indexing.symbol_prefix(kernel_seat.__name__))


def test_other_numba_functions_keep_pythons_negative_indices():
    kernel.compile()
    read = njit(probe_module("shoot_pontoon_probe_wrapped").read)
    values = np.arange(5)
    assert read(values, -1) == 4
    assert read(values, -5) == 0


@pytest.mark.skipif(numba.config.BOUNDSCHECK == 0, reason="NUMBA_BOUNDSCHECK=0 turns bounds checks off everywhere")
def test_without_wraparound_a_negative_index_is_out_of_bounds():
    name = "shoot_pontoon_probe_unwrapped"
    assert indexing.install(name)
    read = njit(boundscheck=True)(probe_module(name).read)
    values = np.arange(5)
    assert read(values, 4) == 4
    with pytest.raises(IndexError):
        read(values, -1)


@pytest.mark.parametrize("bad", [-1, "size"])
def test_an_action_index_outside_the_table_is_a_kernel_error_not_a_read_outside_the_mask(bad):
    envs = gym.make_vec("ShootPontoon-v0", num_envs=4)
    envs.reset(seed=3)
    batch = envs.unwrapped.batch
    actions = np.zeros(4, dtype=np.int64)
    actions[2] = -1 if bad == -1 else batch.mask.shape[1]
    with pytest.raises(RuntimeError, match="table 2: an action index outside the action table"):
        batch.step(actions, np.zeros(4, dtype=np.bool_), np.random.default_rng(0))


def test_whole_table_observe_checks_its_seat_and_buffers():
    env = batched_env(2)
    env.reset(seed=1)
    batch = env.batch
    row, mask = np.zeros(batch.obs.shape[1], np.float32), np.zeros(batch.mask.shape[1], np.bool_)
    batch.observe(0, 1, row, mask)
    assert row.any()
    for seat in (-1, batch.obs.shape[0] + 9):
        with pytest.raises(ValueError, match=f"seat = {seat}"):
            batch.observe(0, seat, row, mask)
    with pytest.raises(ValueError, match="expected"):
        batch.observe(0, 1, row[:-1].copy(), mask)
    with pytest.raises(ValueError, match="expected"):
        batch.observe(0, 1, row, mask[:-1].copy())


@pytest.mark.slow
def test_the_differential_tests_pass_with_bounds_checks(tmp_path):
    """Every index the engines' differential and evaluation tests reach is within its array, with the
    kernel compiled as it ships (no wraparound) plus numba's bounds checks, in a cache of its own."""
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-n", "2", "-m", "not slow", "-p", "no:cacheprovider",
         "tests/vector", "tests/multiagent", "tests/evaluate"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600, check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
