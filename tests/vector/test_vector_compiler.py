"""The kernel's compile step (vector/compiler.py): lazy, announced once on stderr, and never stopped
by numba's cache: no writable cache place, or a corrupt cache file, still gives a working kernel.
NUMBA_DISABLE_JIT is refused by name. A toy function stands in for the kernel where the cache itself
is tried, so these tests compile in milliseconds."""

from __future__ import annotations

import glob
import os
import re
import warnings

import gymnasium as gym
import numba
import numba.core.caching
import numpy as np
import pytest
from numba import types

from shoot_pontoon_env.vector import compiler, kernel, kernel_seat
from shoot_pontoon_env.vector.compiler import ENV, EVALUATION, POLICY, WHOLE_TABLE, KernelCacheWarning, KernelCompiler


def toy_twice(x):
    return 2 * x


def toy_entry(x):
    return toy_twice(x) + 1


def toy_compiler() -> tuple[KernelCompiler, dict]:
    """A compiler of this module's two toy functions, as kernel.py registers its own."""
    namespace = globals()
    toy = KernelCompiler()
    options = dict(nogil=True, no_cpython_wrapper=False, _nrt=True, forceinline=False)
    namespace["toy_twice"] = toy.jit((types.int64,), options, entry=False)(TOY_TWICE)
    namespace["toy_entry"] = toy.jit((types.int64,), options, entry=True)(TOY_ENTRY)
    return toy, namespace


TOY_TWICE, TOY_ENTRY = toy_twice, toy_entry


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    yield tmp_path
    globals().update(toy_twice=TOY_TWICE, toy_entry=TOY_ENTRY)


def test_importing_the_kernel_compiles_nothing_and_an_evaluation_compiles_after_the_env():
    assert isinstance(kernel.COMPILER, KernelCompiler)
    assert [group for group in compiler.GROUPS] == [ENV, POLICY, EVALUATION, WHOLE_TABLE]
    assert all(compiler.NEEDS[group][0] == ENV for group in (EVALUATION, WHOLE_TABLE))
    kernel.compile(ENV)
    assert kernel.COMPILER.is_compiled(ENV)
    assert hasattr(kernel_seat.play_tables, "signatures")  # the compiled dispatcher took the stand-in's place


def test_an_entry_point_compiles_its_group_on_first_call_and_announces_it_once(cache_dir, capsys):
    toy, namespace = toy_compiler()
    assert not toy.is_compiled(ENV)
    assert namespace["toy_entry"](20) == 41
    assert toy.is_compiled(ENV)
    assert namespace["toy_entry"](1) == 3
    lines = [line for line in capsys.readouterr().err.splitlines() if line]
    assert lines[0] == compiler.COMPILING_MESSAGE.format(group=ENV, number=1, count=4, cpu="17-23",
                                                    where=f"cached in {cache_dir}")
    assert len(lines) == 2 and re.fullmatch(r"shoot-pontoon-env: the batched engine's env part compiled in "
                                            r"\d+\.\d CPU-s \(\d+\.\d s\)", lines[1])
    assert toy.compiled_now == {ENV}
    assert glob.glob(str(cache_dir / "**" / "*toy_entry*.nbi"), recursive=True)
    again, namespace = toy_compiler()
    assert namespace["toy_entry"](2) == 5  # from the cache this time: nothing to announce
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("damage", [b"", b"\x80\x04garbage", b"not a pickle at all"])
def test_a_corrupt_cache_file_is_rebuilt(cache_dir, damage):
    toy, namespace = toy_compiler()
    namespace["toy_entry"](1)
    files = glob.glob(str(cache_dir / "**" / "*toy_*"), recursive=True)
    assert files
    for path in files:
        with open(path, "wb") as handle:
            handle.write(damage)
    again, namespace = toy_compiler()
    assert namespace["toy_entry"](4) == 9
    third, namespace = toy_compiler()  # and the rebuilt entry loads
    assert namespace["toy_entry"](5) == 11


def no_place_but_numba_cache_dir(monkeypatch) -> None:
    """As a read-only install with no writable home: numba's only place left is NUMBA_CACHE_DIR, unset."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(numba.core.caching.CacheImpl, "_locator_classes",
                        [numba.core.caching.UserProvidedCacheLocator])


def test_without_a_cache_place_the_kernel_is_cached_under_the_temporary_directory(tmp_path, monkeypatch):
    no_place_but_numba_cache_dir(monkeypatch)
    monkeypatch.setattr(compiler.tempfile, "gettempdir", lambda: str(tmp_path))
    toy, namespace = toy_compiler()
    try:
        with pytest.warns(KernelCacheWarning, match="cached in .*cannot cache"):
            assert namespace["toy_entry"](3) == 7
        assert toy._cache_dir.startswith(str(tmp_path))
        assert glob.glob(os.path.join(toy._cache_dir, "**", "*toy_entry*.nbi"), recursive=True)
    finally:
        globals().update(toy_twice=TOY_TWICE, toy_entry=TOY_ENTRY)


def test_with_no_writable_place_at_all_the_kernel_is_compiled_in_memory(tmp_path, monkeypatch):
    no_place_but_numba_cache_dir(monkeypatch)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setattr(compiler.tempfile, "gettempdir", lambda: str(blocked))  # no folder can be made in it
    toy, namespace = toy_compiler()
    try:
        with pytest.warns(KernelCacheWarning, match="compiled in memory"):
            assert namespace["toy_entry"](3) == 7
    finally:
        globals().update(toy_twice=TOY_TWICE, toy_entry=TOY_ENTRY)


def test_numba_disable_jit_is_refused_by_name_and_auto_plays_on_the_table(monkeypatch):
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    with pytest.raises(ValueError, match="NUMBA_DISABLE_JIT=1 is set: the batched engine needs numba"):
        gym.make_vec("ShootPontoon-v0", num_envs=2)
    with pytest.raises(ValueError, match="NUMBA_DISABLE_JIT"):
        gym.make("ShootPontoon-v0", engine="batched")
    env = gym.make("ShootPontoon-v0")
    assert env.unwrapped.engine_in_use == "table"
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_no_kernel_warning_where_the_cache_works():
    with warnings.catch_warnings():
        warnings.simplefilter("error", KernelCacheWarning)
        kernel.compile(ENV)
