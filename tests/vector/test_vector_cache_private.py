"""The kernel's cache is read only from a folder no other user can write (vector/compiler.py): numba
unpickles the index files it finds, so a folder planted at the fallback's predictable name, or one that
numba's own user-wide place resolves to in a shared folder, must never be read. Each plant here is a
pickle that makes a marker folder when it is loaded; a control shows numba itself would load it. Toy
functions stand in for the kernel (milliseconds to compile); one slow test plants the real kernel's
index files and plays a step in a fresh process, as the report did."""

from __future__ import annotations

import glob
import os
import pickle
import re
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import numba.core.caching
import pytest
from numba import njit, types

from shoot_pontoon_env.vector import compiler, kernel
from shoot_pontoon_env.vector.compiler import KernelCacheWarning, KernelCompiler
from tests.hang_guard import HANG_GUARD_S

OTHER_UID = 65534
"""Another user (nobody): a test run as root may give a folder away."""
SELF = os.geteuid() if hasattr(os, "geteuid") else 0
pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owners and modes")
needs_root = pytest.mark.skipif(SELF != 0, reason="planting another user's folder needs root (chown)")


def toy_half(x):
    return x // 2


def toy_run(x):
    return toy_half(x) + 3


TOY_HALF, TOY_RUN = toy_half, toy_run


class Plant:
    """A pickle that makes ``marker`` when it is loaded: the code another user would run."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return os.makedirs, (str(self.marker), 0o755, True)


@pytest.fixture
def toys():
    """A compiler of this module's two toy functions, as kernel.py registers its own (restored after)."""
    def build() -> tuple[KernelCompiler, dict]:
        namespace = globals()
        toy = KernelCompiler()
        options = {"nogil": True, "no_cpython_wrapper": False, "_nrt": True, "forceinline": False}
        namespace["toy_half"] = toy.jit((types.int64,), options, entry=False)(TOY_HALF)
        namespace["toy_run"] = toy.jit((types.int64,), options, entry=True)(TOY_RUN)
        return toy, namespace

    yield build
    globals().update(toy_half=TOY_HALF, toy_run=TOY_RUN)


@pytest.fixture
def no_own_place(tmp_path, monkeypatch) -> Path:
    """As a read-only install with no usable home: numba has no place of its own, so the compiler falls
    back to the temporary directory, here a fresh sticky folder like /tmp (returned)."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(numba.core.caching.CacheImpl, "_locator_classes",
                        [numba.core.caching.UserProvidedCacheLocator])
    temp = tmp_path / "tmp"
    temp.mkdir()
    temp.chmod(0o1777)
    monkeypatch.setattr(compiler.tempfile, "gettempdir", lambda: str(temp))
    return temp


def index_files(folder: Path, monkeypatch, functions=(TOY_HALF, TOY_RUN)) -> list[Path]:
    """Where numba would read each function's index under the cache folder ``folder`` (made there)."""
    with monkeypatch.context() as patch:
        patch.setattr(numba.config, "CACHE_DIR", str(folder))
        patch.setattr(numba.core.caching.CacheImpl, "_locator_classes",
                      [numba.core.caching.UserProvidedCacheLocator])
        return [Path(njit(cache=True)(function)._cache._cache_file._index_path) for function in functions]


def plant(folder: Path, marker: Path, monkeypatch, owner: int, mode: int, functions=(TOY_HALF, TOY_RUN)) -> None:
    """Another user's cache folder at ``folder``: an index for each function that runs the plant."""
    folder.mkdir(exist_ok=True)
    for index in index_files(folder, monkeypatch, functions):
        index.write_bytes(pickle.dumps(Plant(marker)))
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, owner, owner)
        path.chmod(mode if path.is_dir() else 0o644)


def numba_itself_loads(folder: Path, monkeypatch) -> None:
    """The control: numba, asked to cache in ``folder`` with no check, unpickles the plant."""
    with monkeypatch.context() as patch:
        patch.setattr(numba.config, "CACHE_DIR", str(folder))
        patch.setattr(numba.core.caching.CacheImpl, "_locator_classes",
                      [numba.core.caching.UserProvidedCacheLocator])
        njit(cache=True)(TOY_HALF).compile((types.int64,))


@pytest.mark.parametrize("owner, mode", [
    pytest.param(OTHER_UID, 0o755, id="another user's", marks=needs_root),
    pytest.param(OTHER_UID, 0o777, id="another user's, world-writable", marks=needs_root),
    pytest.param(SELF, 0o777, id="world-writable"),
    pytest.param(SELF, 0o770, id="group-writable"),
])
def test_a_planted_folder_at_the_fallback_name_is_never_read(toys, no_own_place, tmp_path, monkeypatch,
                                                             owner, mode):
    predicted = no_own_place / f"shoot-pontoon-env-numba-{os.geteuid()}"
    marker = tmp_path / "the-plant-ran"
    plant(predicted, marker, monkeypatch, owner, mode)
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning, match=f"for this process only.*{re.escape(str(predicted))}"):
        assert namespace["toy_run"](20) == 13
    assert not marker.exists()
    used = Path(toy._cache_dir)
    assert used.parent == no_own_place and used != predicted
    assert used.stat().st_uid == os.geteuid() and stat.S_IMODE(used.stat().st_mode) == 0o700
    assert glob.glob(str(used / "**" / "*toy_run*.nbi"), recursive=True)  # cached there, for this process
    numba_itself_loads(predicted, monkeypatch)
    assert marker.exists()  # the plant was live


@needs_root
def test_a_symbolic_link_at_the_fallback_name_is_never_followed(toys, no_own_place, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    marker = tmp_path / "the-plant-ran"
    plant(elsewhere, marker, monkeypatch, SELF, 0o700)  # even a folder of this user's, reached by a link
    predicted = no_own_place / f"shoot-pontoon-env-numba-{os.geteuid()}"
    predicted.symlink_to(elsewhere)
    os.lchown(predicted, OTHER_UID, OTHER_UID)
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning, match="is a symbolic link"):
        assert namespace["toy_run"](4) == 5
    assert not marker.exists() and Path(toy._cache_dir) != predicted


def test_the_private_folder_is_made_0700_and_reused_by_the_next_process(toys, no_own_place, capsys):
    predicted = no_own_place / f"shoot-pontoon-env-numba-{os.geteuid()}"
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning, match=f"cached in {predicted}"):
        assert namespace["toy_run"](6) == 6
    assert toy._cache_dir == str(predicted)
    info = predicted.lstat()
    assert info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) == 0o700
    assert "compiling the batched engine's env part" in capsys.readouterr().err
    again, namespace = toys()
    with pytest.warns(KernelCacheWarning, match=f"cached in {predicted}"):
        assert namespace["toy_run"](8) == 7
    assert capsys.readouterr().err == "" and again.compiled_now == set()  # loaded from it


def test_a_folder_of_this_user_that_no_one_else_can_write_is_kept_and_made_0700(toys, no_own_place):
    predicted = no_own_place / f"shoot-pontoon-env-numba-{os.geteuid()}"
    predicted.mkdir(mode=0o755)  # as an earlier version made it
    predicted.chmod(0o755)
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning, match=f"cached in {predicted}"):
        assert namespace["toy_run"](2) == 4
    assert toy._cache_dir == str(predicted) and stat.S_IMODE(predicted.stat().st_mode) == 0o700


@needs_root
def test_another_users_folder_inside_the_private_one_is_never_read(toys, no_own_place, tmp_path, monkeypatch):
    predicted = no_own_place / f"shoot-pontoon-env-numba-{os.geteuid()}"
    predicted.mkdir(mode=0o700)
    marker = tmp_path / "the-plant-ran"
    indexes = index_files(predicted, monkeypatch)  # numba's folder for this module, inside the private one
    for index in indexes:
        index.write_bytes(pickle.dumps(Plant(marker)))
    inner = indexes[0].parent
    for path in [inner, *inner.iterdir()]:
        os.chown(path, OTHER_UID, OTHER_UID)
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning) as caught:
        assert namespace["toy_run"](10) == 8
    assert not marker.exists() and toy._cache_dir is False
    assert any("no longer cached" in str(warning.message) and str(inner) in str(warning.message)
               for warning in caught)


def test_numbas_user_cache_in_the_working_directory_is_not_trusted(toys, tmp_path, monkeypatch):
    """With HOME unset and no password entry numba's ``~/.cache`` is relative: the working directory's."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(numba.core.caching.CacheImpl, "_locator_classes",  # numba's, less the package's place
                        [numba.core.caching.UserProvidedCacheLocator, numba.core.caching.UserWideCacheLocator])
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(compiler.tempfile, "gettempdir", lambda: str(temp))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", "~/.cache")  # what expanduser leaves when it finds no home
    marker = tmp_path / "the-plant-ran"
    for index in index_files(tmp_path / "unused", monkeypatch):  # the same file names, at numba's place
        planted = tmp_path / "~" / ".cache" / "numba" / index.parent.name / index.name
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.write_bytes(pickle.dumps(Plant(marker)))
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning, match="relative to the working directory"):
        assert namespace["toy_run"](0) == 3
    assert not marker.exists() and toy._cache_dir == str(temp / f"shoot-pontoon-env-numba-{os.geteuid()}")


@needs_root
def test_numbas_user_cache_owned_by_another_user_is_not_trusted(toys, tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(numba.core.caching.CacheImpl, "_locator_classes",  # numba's, less the package's place
                        [numba.core.caching.UserProvidedCacheLocator, numba.core.caching.UserWideCacheLocator])
    monkeypatch.setattr(compiler.tempfile, "gettempdir", lambda: str(tmp_path))
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared / "cache"))  # HOME=/tmp, say: another user made it first
    (shared / "cache").mkdir()
    os.chown(shared / "cache", OTHER_UID, OTHER_UID)
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning, match=f"{shared / 'cache'} belongs to uid {OTHER_UID}"):
        assert namespace["toy_run"](1) == 3
    assert toy._cache_dir == str(tmp_path / f"shoot-pontoon-env-numba-{os.geteuid()}")


def test_a_temporary_directory_anyone_can_rename_in_gives_no_cache(toys, tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(numba.core.caching.CacheImpl, "_locator_classes",
                        [numba.core.caching.UserProvidedCacheLocator])
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    open_dir.chmod(0o777)  # world-writable without the sticky bit
    monkeypatch.setattr(compiler.tempfile, "gettempdir", lambda: str(open_dir))
    toy, namespace = toys()
    with pytest.warns(KernelCacheWarning, match=re.escape(f"{open_dir} is writable by other users (mode 777)): it is compiled")):
        assert namespace["toy_run"](12) == 9
    assert toy._cache_dir is False and os.listdir(open_dir) == []


def test_the_users_own_places_are_trusted_and_numba_cache_dir_is_checked(tmp_path, monkeypatch):
    """The package's ``__pycache__`` is as writable as its code; the folder numba makes under
    NUMBA_CACHE_DIR is checked like any other (``NUMBA_CACHE_DIR=/tmp`` is a common recipe, and the
    name numba makes there is predictable)."""
    function = kernel.COMPILER.registered()[0].function
    beside = os.path.join(os.path.dirname(kernel.__file__), "__pycache__")
    assert compiler._own_place_problem(beside, function) is None
    mine = tmp_path / "mine"
    (mine / "vector_0123").mkdir(parents=True, mode=0o700)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(mine))
    assert compiler._own_place_problem(str(mine / "vector_0123"), function) is None
    open_dir = tmp_path / "open"
    (open_dir / "vector_0123").mkdir(parents=True)
    open_dir.chmod(0o777)  # anyone may rename the folder numba made there away and put another in
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(open_dir))
    assert "writable by other users" in compiler._own_place_problem(str(open_dir / "vector_0123"), function)
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    assert "writable by other users" in compiler._own_place_problem(str(open_dir), function)


def test_the_private_folder_caches_under_a_umask_of_002(toys, no_own_place, monkeypatch):
    """numba makes its folders inside the private one with the user's umask (0775 under 002): inside a
    0700 folder of this user's no one else can reach them, so they are used, and the next process loads."""
    previous = os.umask(0o002)
    try:
        toy, namespace = toys()
        with pytest.warns(KernelCacheWarning, match="cached in"):
            assert namespace["toy_run"](6) == 6
        assert toy.cache_place_kept() and toy.compiled_now == {"env"}
        again, namespace = toys()
        with pytest.warns(KernelCacheWarning, match="cached in"):
            assert namespace["toy_run"](8) == 7
        assert again.cache_place_kept() and again.compiled_now == set()
    finally:
        os.umask(previous)


@needs_root
def test_group_writable_folders_and_links_on_the_way_are_not_trusted(tmp_path):
    """A folder a group of other users may write in, above the cache or as the cache, and a link on the
    way whose own folder anyone may write in: each could be swapped for another user's."""
    group = tmp_path / "group"
    (group / "cache").mkdir(parents=True, mode=0o700)
    group.chmod(0o775)
    os.chown(group, SELF, OTHER_UID)  # a group that is not this user's own
    assert "writable by other users" in compiler._folder_problem(str(group / "cache"), private=True)
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # no sticky bit: anyone may replace the link below
    real = tmp_path / "real"
    (real / "cache").mkdir(parents=True, mode=0o700)
    (shared / "hop").symlink_to(real)
    (tmp_path / "start").symlink_to(shared / "hop")
    assert compiler._folder_problem(str(real / "cache"), private=True) is None
    problem = compiler._folder_problem(str(tmp_path / "start" / "cache"), private=True)
    assert problem is not None and str(shared) in problem


@pytest.mark.slow
@needs_root
def test_the_reported_attack_runs_nothing_in_a_fresh_process(tmp_path, monkeypatch):
    """The report's repro: a read-only install (numba has no place of its own), HOME unset, another
    user's world-writable folder at the fallback name holding an index for every kernel function;
    ``gym.make("ShootPontoon-v0")`` and a step. Compiles the env's part from cold in that process."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    temp.chmod(0o1777)
    marker = tmp_path / "the-plant-ran"
    functions = [item.function for item in kernel.COMPILER.registered() if item.options.get("inline") != "always"]
    predicted = temp / f"shoot-pontoon-env-numba-{os.geteuid()}"
    plant(predicted, marker, monkeypatch, OTHER_UID, 0o777, functions)
    script = textwrap.dedent("""
        import numba.core.caching as caching, numpy as np, gymnasium as gym, shoot_pontoon_env.envs
        caching.CacheImpl._locator_classes = [caching.UserProvidedCacheLocator]  # no package or home place
        env = gym.make("ShootPontoon-v0", engine="batched")
        obs, info = env.reset(seed=0)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
        print("stepped", env.unwrapped.engine_in_use)
    """)
    environ = {key: value for key, value in os.environ.items()
               if key not in ("HOME", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    environ["TMPDIR"] = str(temp)
    done = subprocess.run([sys.executable, "-c", script], env=environ, capture_output=True, text=True,
                          cwd=tmp_path, check=False, timeout=HANG_GUARD_S)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["stepped", "batched"]
    assert "for this process only" in done.stderr and "belongs to uid 65534" in done.stderr
    assert not marker.exists()
    assert sorted(os.listdir(temp)) == [predicted.name]  # the process's own folder removed at exit
