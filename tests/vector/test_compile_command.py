"""``python -m shoot_pontoon_env.compile`` (shoot_pontoon_env/compile.py): every part of the kernel into
numba's cache, one line per part, exit 0; a later process then compiles nothing. The test session has
compiled the kernel already (conftest.py), so here every part loads; the cold run is a slow test."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from shoot_pontoon_env.vector.compiler import GROUPS
from tests.hang_guard import HANG_GUARD_S

PART = r"part (\d) of 4 \((\w+)\): (compiled|loaded from the cache) in \d+\.\d CPU-s \(\d+\.\d s\)"
FIRST_USE = """
import numpy as np, gymnasium as gym, shoot_pontoon_env.envs
from shoot_pontoon_env.multiagent import batched_env
from shoot_pontoon_env.vector import kernel
env = gym.make("ShootPontoon-v0", engine="batched")
obs, info = env.reset(seed=0)
env.step(int(np.flatnonzero(info["action_mask"])[0]))
tables = batched_env(num_tables=2)
tables.reset(seed=0)
kernel.compile()  # an evaluation's part too
print(sorted(kernel.COMPILER.compiled_now))
"""


def command(*args: str, **environ: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shoot_pontoon_env.compile", *args], capture_output=True,
                          text=True, env={**os.environ, **environ}, check=False, timeout=HANG_GUARD_S)


def parts(stdout: str) -> list[tuple[str, str, str]]:
    return [re.fullmatch(PART, line).groups() for line in stdout.splitlines()[:-1]]


def test_every_part_is_loaded_from_a_warm_cache_and_the_command_exits_0():
    done = command()
    assert done.returncode == 0, done.stderr
    assert parts(done.stdout) == [(str(n), group, "loaded from the cache") for n, group in enumerate(GROUPS, 1)]
    assert re.fullmatch(r"the batched engine is ready: \d+\.\d CPU-s in all \(\d+\.\d s\); cached in .+",
                        done.stdout.splitlines()[-1])
    assert "compiling" not in done.stderr


@pytest.mark.parametrize("args, environ, message", [
    (("--group", "env"), {}, "error: unrecognized arguments: --group env"),
    ((), {"NUMBA_DISABLE_JIT": "1"}, "error: NUMBA_DISABLE_JIT=1 is set: the batched engine needs numba's compiler"),
])
def test_a_bad_call_is_one_line_and_exit_2(args, environ, message):
    done = command(*args, **environ)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(message) and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_from_an_empty_cache_it_compiles_every_part_and_the_first_use_then_compiles_nothing(tmp_path):
    done = command(NUMBA_CACHE_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert parts(done.stdout) == [(str(n), group, "compiled") for n, group in enumerate(GROUPS, 1)]
    assert done.stderr.count("compiling the batched engine's") == 4
    first = subprocess.run([sys.executable, "-c", FIRST_USE], capture_output=True, text=True, check=False,
                           env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}, timeout=HANG_GUARD_S)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "[]" and "compiling" not in first.stderr
