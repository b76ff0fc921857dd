"""Compiling the batched engine's kernel: lazily, by group, into numba's on-disk cache, and so that a
cache that cannot be written or read never stops the env.

The kernel's modules (``kernel.KERNEL_MODULES``) register each function here
(:meth:`KernelCompiler.jit`) instead of compiling it at import. A group (the env's steps, or an
evaluation's own player and records) is compiled on the first call of one of its entry points, in the
order its functions were registered (a module after those it imports), each bound as it is compiled
into every kernel module that holds its stand-in, so that its callers find it. So importing the kernel
is instant, a ``gym.make`` compiles only what an env steps with, and ``python -m evaluate`` adds its
part when it first plays.

numba keys each function's cache entry on the function's own file, yet compiles into it the code and
constants of the other kernel modules it calls: the compiler adds the kernel's fingerprint
(``kernel.fingerprint``) to every key, so that a change to any of them compiles the kernel again.

The first compile takes a while (a line on stderr as each group starts and ends, with its time;
``python -m shoot_pontoon_env.compile`` compiles them all ahead); later processes load the machine
code from the cache. numba reads a cache's index files with ``pickle``, so a folder that another user
can write would run their code: the cache is used only in a place that no other user can write
(:func:`_folder_problem`, checked again before each function is loaded). Where numba has no such place
beside the package or in the user's cache, this user's private folder under the system's temporary
directory is used (mode 0700, owned by the user); where that name is taken by someone else, a fresh
folder of this process's; and where there is none, the kernel is compiled in memory for this process:
one warning says which and why. A cache entry that cannot be read (a truncated or corrupt file) is
thrown away and compiled again.
"""

from __future__ import annotations

import atexit
import importlib
import inspect
import os
import shutil
import stat
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import numba
from numba import njit
from numba.core.caching import FunctionCache

from . import indexing

ENV, POLICY, EVALUATION, WHOLE_TABLE = "env", "policy", "evaluation", "whole_table"
GROUPS = (ENV, POLICY, EVALUATION, WHOLE_TABLE)
"""In compile order: the env's functions first, which every other group's entry points call; the
solver's policy tables (no entry point), which an evaluation and the whole table call; then each of
the others, alone (:data:`NEEDS`)."""
NEEDS = {EVALUATION: (ENV, POLICY), WHOLE_TABLE: (ENV, POLICY)}
"""The groups compiled before each group with entry points (each needs the env's)."""
GROUP_CPU_SECONDS = {ENV: "17-23", POLICY: "1", EVALUATION: "7-11", WHOLE_TABLE: "14-23"}
"""Each group's cold compile, measured (``docs/RESULTS.md``, "The compile command": CPU seconds on a
2-core AMD EPYC, quiet to busy; a slower machine takes several times as long)."""
COMPILE_CPU_SECONDS = "40-60"
COMPILE_COMMAND = "python -m shoot_pontoon_env.compile"
COMPILING_MESSAGE = ("shoot-pontoon-env: compiling the batched engine's {group} part ({number} of {count}), once: "
                     "about {cpu} CPU-s, a few minutes on a slow or busy machine (the machine code is {where}; "
                     f"`{COMPILE_COMMAND}` compiles every part ahead; engine='table' plays without it)")
COMPILED_MESSAGE = "shoot-pontoon-env: the batched engine's {group} part compiled in {cpu:.1f} CPU-s ({wall:.1f} s)"
_PER_PROCESS: set[str] = set()
"""The fresh folders of this process (:func:`_private_cache_dir`), removed at its exit."""


class KernelCacheWarning(RuntimeWarning):
    """numba's cache of the kernel could not be used where it normally lives (the message says why)."""


class _Registered(NamedTuple):
    name: str
    function: Callable
    signature: tuple
    options: dict
    group: str
    stand_in: Any
    """What the function's name is bound to until it is compiled (``_EntryPoint``, ``_NotCompiled``)."""


def disabled_reason() -> str | None:
    """Why the kernel cannot run here (None: it can): under NUMBA_DISABLE_JIT the kernel would run as
    plain Python on numpy scalars, whose fixed-width arithmetic it was not written for."""
    if numba.config.DISABLE_JIT:
        return ("NUMBA_DISABLE_JIT=1 is set: the batched engine needs numba's compiler; unset it, or use the "
                "Table (gym.make(..., engine='table'))")
    return None


class KernelCompiler:
    """The registry of the kernel's functions and the compiler of its groups. ``modules``: the modules
    that register them, imported before the first compile; ``fingerprint``: the digest added to every
    function's cache key (None: numba's own key)."""

    def __init__(self, modules: Sequence[str] = (), fingerprint: Callable[[], str] | None = None) -> None:
        self._modules = tuple(modules)
        self._fingerprint = fingerprint
        self._key: str | None = None
        """The fingerprint, computed at the first compile."""
        self._imported = False
        self._registered: list[_Registered] = []
        self._compiled: set[str] = set()
        self._lock = threading.RLock()
        self._cache_dir: str | None | bool = None
        """None: not decided yet; "": numba's own place; a path: NUMBA_CACHE_DIR's stand-in, a folder of
        this user's only (:func:`_private_cache_dir`); False: none, compiled in memory."""
        self._group_start = (0.0, 0.0)
        self._group_announced = False
        self.compiled_now: set[str] = set()
        """The groups that numba compiled (rather than loaded from its cache) in this process."""
        self._indexing_decided = False

    # ------------------------------------------------------------------ registration
    def jit(self, signature: tuple, options: dict, entry: bool,
            group: str = ENV) -> Callable[[Callable], Any]:
        """A decorator: register the function in ``group``; an entry point gets a callable stand-in that
        compiles its group on first use, any other function a stand-in that only its callers' compile
        replaces. Names are unique across the kernel's modules (a module imports its callees by name)."""

        def register(function: Callable) -> Any:
            name = function.__name__
            if any(item.name == name for item in self._registered):
                raise ValueError(f"{function.__module__}.{name}: a kernel function of that name is "
                                 "registered already")
            stand_in = _EntryPoint(self, function, group) if entry else _NotCompiled(name)
            self._registered.append(_Registered(name, function, signature, options, group, stand_in))
            return stand_in

        return register

    def registered(self) -> list[_Registered]:
        """Every function of the kernel, in the order registered (its modules imported first)."""
        if not self._imported:
            for module in self._modules:
                importlib.import_module(module)
            self._imported = True
        return list(self._registered)

    # ------------------------------------------------------------------ compiling
    def compile(self, group: str | None = None) -> None:
        """Compile ``group`` after the groups it calls (``NEEDS``; None, the default: every group), once."""
        reason = disabled_reason()
        if reason is not None:
            raise RuntimeError(reason)
        with self._lock:
            registered = self.registered()
            if not self._indexing_decided:  # the kernel's indices never count from the end
                modules = dict.fromkeys([*self._modules, *(item.function.__module__ for item in registered)])
                for module in modules:
                    indexing.install(module)
                self._indexing_decided = True
            if self._key is None and self._fingerprint is not None:
                self._key = self._fingerprint()
            for name in (GROUPS if group is None else dict.fromkeys((*NEEDS.get(group, (ENV,)), group))):
                if name not in self._compiled:
                    self._compile_group(name)

    def is_compiled(self, group: str) -> bool:
        return group in self._compiled

    def _compile_group(self, group: str) -> None:
        """Load or compile every function of ``group``; where numba had to compile, one line on stderr as
        it starts (at the first function not in the cache) and one as it ends, with the time it took."""
        self._group_start = (time.process_time(), time.perf_counter())
        self._group_announced = False
        namespaces = list({id(item.function.__globals__): item.function.__globals__
                           for item in self._registered}.values())
        for item in self._registered:
            if item.group == group:
                compiled = self._compile_one(item)
                for namespace in namespaces:  # its own module's, and every module that imported it by name
                    if namespace.get(item.name) is item.stand_in:
                        namespace[item.name] = compiled
        self._compiled.add(group)
        if self._group_announced:
            self.compiled_now.add(group)
            cpu, wall = time.process_time() - self._group_start[0], time.perf_counter() - self._group_start[1]
            print(COMPILED_MESSAGE.format(group=group, cpu=cpu, wall=wall), file=sys.stderr, flush=True)

    def _compile_one(self, item: _Registered) -> Any:
        if item.options.get("inline") == "always":
            return njit(**item.options)(item.function)  # inlined into its callers' code, never compiled alone
        with self._cache_place():
            cache = self._cache_dir is not False
            dispatcher = njit(cache=cache, **item.options)(item.function)
            if cache and self._key is not None:
                dispatcher._cache = _FingerprintedCache(item.function, self._key)
            if cache and not self._safe_place(dispatcher, item.function):
                cache = False
                dispatcher = njit(cache=False, **item.options)(item.function)
            try:
                self._load_or_compile(dispatcher, item)
            except Exception:  # an unreadable cache entry: rebuild it (a real error recurs)
                if not cache:
                    raise
                dispatcher._cache.flush()  # numba's FunctionCache: an empty index, so the entry is rebuilt
                self._load_or_compile(dispatcher, item)
        dispatcher.disable_compile()  # exactly this signature: a caller's other types are an error
        return dispatcher

    def _safe_place(self, dispatcher: Any, function: Callable) -> bool:
        """Check the folder numba will read this function's cache from, before it reads anything (its
        index files are pickles): numba's own place as :func:`_own_place_problem`, the private folder
        and each folder below it as private. A folder that fails (changed since it was chosen) ends
        caching for this process, with one warning; the function is compiled in memory."""
        path = dispatcher._cache.cache_path
        if self._cache_dir == "":
            problem = _own_place_problem(path, function)
        else:
            problem = _private_chain_problem(path, str(self._cache_dir))
        if problem is None:
            return True
        warnings.warn(f"the batched engine's compiled code is no longer cached ({problem}): the rest is compiled "
                      "in memory for this process; set NUMBA_CACHE_DIR to a folder of your own to keep it",
                      KernelCacheWarning, stacklevel=6)
        self._cache_dir = False
        return False

    def _load_or_compile(self, dispatcher: Any, item: _Registered) -> None:
        """Load or compile one function; the first of its group that numba had to compile says so on
        stderr (the functions come smallest first, so the line appears before the long part)."""
        dispatcher.compile(item.signature)
        if not self._group_announced and dispatcher.stats.cache_misses:
            self._group_announced = True
            print(COMPILING_MESSAGE.format(group=item.group, number=GROUPS.index(item.group) + 1, count=len(GROUPS),
                                           cpu=GROUP_CPU_SECONDS[item.group], where=self.cache_place()),
                  file=sys.stderr, flush=True)

    def cache_place(self) -> str:
        """Where the compiled code goes, in words (the compile line's and the compile command's)."""
        if self._cache_dir is False:
            return "compiled in memory, for this process only"
        if self._cache_dir in _PER_PROCESS:
            return f"cached in {self._cache_dir}, for this process only"
        place = self._cache_dir or numba.config.CACHE_DIR or "__pycache__ beside the package (or numba's user cache)"
        return f"cached in {place}"

    def cache_place_kept(self) -> bool:
        """Whether the compiled code is kept for later processes (False: in memory or a per-process folder)."""
        return self._cache_dir is not False and self._cache_dir not in _PER_PROCESS

    @contextmanager
    def _cache_place(self):
        """numba's cache place for this compile: its own, or the stand-in decided on the first call."""
        if self._cache_dir is None:
            self._cache_dir = _choose_cache_dir(self._registered[0].function)
        if not self._cache_dir:
            yield
            return
        saved = numba.config.CACHE_DIR
        numba.config.CACHE_DIR = self._cache_dir
        try:
            yield
        finally:
            numba.config.CACHE_DIR = saved


def _choose_cache_dir(function: Callable) -> str | bool:
    """"" where numba's own place is safe (:func:`_own_place_problem`); else this user's private folder
    under the temporary directory; else a fresh folder of this process's; else False (compiled in
    memory), each fallback with one warning."""
    try:
        probe = njit(cache=True)(function)  # numba picks its cache place here, and raises if it has none
    except RuntimeError as error:
        reason = str(error)
    else:
        reason = _own_place_problem(probe._cache.cache_path, function)
        if reason is None:
            return ""
        reason = f"numba's place is not safe: {reason}"
    return _private_cache_dir(reason)


def _own_place_problem(path: str, function: Callable) -> str | None:
    """Why numba's chosen cache folder could hold another user's files (None: it cannot).
    ``__pycache__`` beside the package is as writable as the kernel's source itself: trusted. The
    folder numba made under NUMBA_CACHE_DIR (``/tmp``, say, a common recipe) and numba's user-wide
    place (``XDG_CACHE_HOME`` or ``~/.cache``) are checked, since numba builds them from whatever the
    environment says: with ``HOME`` unset and no password entry, ``~/.cache`` is relative to the
    working directory."""
    if os.path.normpath(path) == os.path.join(os.path.dirname(os.path.abspath(inspect.getfile(function))),
                                              "__pycache__"):
        return None
    return _folder_problem(path, private=False)


def _private_cache_dir(reason: str) -> str | bool:
    """This user's folder ``shoot-pontoon-env-numba-<uid>`` under the temporary directory, made with mode
    0700 and used only while :func:`_folder_problem` finds it private; where it is not (another user
    made it first, say), a fresh folder of this process's (``mkdtemp``: mode 0700, an unpredictable
    name, removed at exit); where the temporary directory itself is not safe or nothing can be made in
    it, False."""
    base = os.path.abspath(tempfile.gettempdir())
    problem = _folder_problem(base, private=False, owned=False)
    if problem is None:
        folder = os.path.join(base, f"shoot-pontoon-env-numba-{os.geteuid() if hasattr(os, 'geteuid') else 'user'}")
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError as error:
            problem = f"{folder}: {error.strerror}"
        problem = problem or _folder_problem(folder, private=True)
        if problem is None:
            _tighten(folder)
            warnings.warn(f"the batched engine's compiled code is cached in {folder}, because numba cannot cache it "
                          f"beside the package or in the user's cache ({reason}); set NUMBA_CACHE_DIR to choose "
                          "the place", KernelCacheWarning, stacklevel=5)
            return folder
        try:
            fresh = tempfile.mkdtemp(prefix="shoot-pontoon-env-numba-", dir=base)
        except OSError as error:
            problem = f"{problem}; {base}: {error.strerror}"
        else:
            atexit.register(shutil.rmtree, fresh, True)
            _PER_PROCESS.add(fresh)
            warnings.warn(f"the batched engine's compiled code is cached for this process only, in {fresh} (removed "
                          f"at exit): numba cannot cache it beside the package or in the user's cache ({reason}), "
                          f"and {problem}; set NUMBA_CACHE_DIR to a folder of your own to keep it",
                          KernelCacheWarning, stacklevel=5)
            return fresh
    warnings.warn(f"the batched engine's compiled code cannot be cached ({reason}; and {problem}): it is compiled "
                  f"in memory for this process, which takes {COMPILE_CPU_SECONDS} CPU-s each time; set "
                  "NUMBA_CACHE_DIR to a folder of your own to keep it", KernelCacheWarning, stacklevel=5)
    return False


def _folder_problem(path: str, private: bool, owned: bool = True) -> str | None:
    """Why another user could have written into the folder ``path`` (None: no one could): numba unpickles
    the index files it finds there, so a folder someone else can write would run their code. The folder
    must be this user's (``owned``) and writable by no other user (``private``: by no group either; else
    by this user's private group at most, as a umask of 002 makes folders); every folder on the way to
    it (each link's and its target's too) must belong to this user or root and be writable by no other
    user, unless sticky (``/tmp``: no one can rename or remove what this user made there)."""
    if not os.path.isabs(path):
        return f"{path} is relative to the working directory"
    if not hasattr(os, "geteuid"):  # Windows: the temporary and cache folders are per user
        return None
    euid = os.geteuid()
    try:
        here = os.lstat(path)
        if stat.S_ISLNK(here.st_mode):
            return f"{path} is a symbolic link"
        if not stat.S_ISDIR(here.st_mode):
            return f"{path} is not a folder"
        if owned and here.st_uid != euid:
            return f"{path} belongs to uid {here.st_uid}, not to this user ({euid})"
        if private and here.st_mode & 0o022:
            return f"{path} is writable by other users (mode {stat.S_IMODE(here.st_mode):o})"
        for folder in _folders_on_the_way(path):
            info = os.lstat(folder)
            if info.st_uid not in (0, euid):
                return f"{folder} belongs to uid {info.st_uid}"
            if stat.S_ISDIR(info.st_mode) and _others_may_write(info) and not info.st_mode & stat.S_ISVTX:
                return f"{folder} is writable by other users (mode {stat.S_IMODE(info.st_mode):o})"
    except OSError as error:
        return f"{path}: {error.strerror}"
    if owned and not private and _others_may_write(here):
        return f"{path} is writable by other users (mode {stat.S_IMODE(here.st_mode):o})"
    return None


def _others_may_write(info: os.stat_result) -> bool:
    """Whether a user other than this one (or root) may write in a folder: every user's write bit, or the
    group's where the group is not this user's private group."""
    return bool(info.st_mode & 0o002) or bool(info.st_mode & 0o020) and not _private_group(info.st_gid)


def _private_group(gid: int) -> bool:
    """This user's own group (the user private group of most Linux systems): this process's group, with
    no member listed but this user."""
    if gid != os.getegid():
        return False
    try:
        import grp
        import pwd

        members = set(grp.getgrgid(gid).gr_mem)
        return members <= {pwd.getpwuid(os.geteuid()).pw_name}
    except (ImportError, KeyError):
        return False


def _folders_on_the_way(path: str) -> list[str]:
    """Every folder above ``path`` as written and as resolved, and for each link on the way the link
    and every folder above its target, link after link (at most 40, as the kernel's own limit)."""
    found: list[str] = []
    pending, links = [os.path.dirname(path), os.path.realpath(path)], 0
    while pending:
        for folder in _ancestors(pending.pop()):
            if folder in found:
                continue
            found.append(folder)
            if os.path.islink(folder):
                links += 1
                if links > 40:
                    raise OSError(40, "too many symbolic links", folder)
                pending.append(os.path.normpath(os.path.join(os.path.dirname(folder), os.readlink(folder))))
    return found


def _ancestors(path: str) -> list[str]:
    """``path`` and every folder above it, up to the root."""
    found = [path]
    while os.path.dirname(found[-1]) != found[-1]:
        found.append(os.path.dirname(found[-1]))
    return found


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.normpath(os.path.abspath(path)), os.path.normpath(os.path.abspath(folder))
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _private_chain_problem(path: str, root: str) -> str | None:
    """Why the cache folder ``path`` that numba chose under the private folder ``root`` may not be used
    (None: it may): ``root`` must be private and mode 0700, and every folder from it down to ``path``
    this user's and no link (numba makes them with the user's umask: 0775 under a umask of 002)."""
    if not _inside(path, root):
        return f"{path} is not inside {root}"
    folder = os.path.normpath(path)
    chain = [folder]
    while folder != os.path.normpath(root):
        folder = os.path.dirname(folder)
        chain.append(folder)
    *below, top = chain
    problem = _folder_problem(top, private=True)
    if problem is None and stat.S_IMODE(os.lstat(top).st_mode) & 0o077:
        problem = f"{top} is not mode 0700 (mode {stat.S_IMODE(os.lstat(top).st_mode):o})"
    if problem is not None:
        return problem
    euid = os.geteuid() if hasattr(os, "geteuid") else None
    for folder in reversed(below):  # in a 0700 folder of this user's only this user (or root) can write:
        try:                        # what numba made there is checked for its owner, whatever its mode
            info = os.lstat(folder)
        except OSError as error:
            return f"{folder}: {error.strerror}"
        if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
            return f"{folder} is not a folder"
        if euid is not None and info.st_uid != euid:
            return f"{folder} belongs to uid {info.st_uid}, not to this user ({euid})"
    return None


def _tighten(folder: str) -> None:
    """Mode 0700 for a folder already checked to be this user's and writable by no one else (one that an
    earlier version made 0755, say): nothing else can be read or listed in it either."""
    try:
        if stat.S_IMODE(os.lstat(folder).st_mode) != 0o700:
            os.chmod(folder, 0o700)
    except OSError:
        pass


class _FingerprintedCache(FunctionCache):
    """numba's cache of one function, its entries keyed on the kernel's fingerprint too."""

    def __init__(self, function: Callable, fingerprint: str) -> None:
        super().__init__(function)
        self._fingerprint = fingerprint

    def _index_key(self, sig: Any, codegen: Any) -> tuple:
        return (*super()._index_key(sig, codegen), self._fingerprint)


class _EntryPoint:
    """What an entry point's name is until its group is compiled: the first call compiles the group,
    which binds the compiled function in its module in this stand-in's place."""

    def __init__(self, compiler: KernelCompiler, function: Callable, group: str) -> None:
        self._compiler, self.__name__, self._group = compiler, function.__name__, group
        self._module = function.__globals__

    def __call__(self, *args: Any) -> Any:
        self._compiler.compile(self._group)
        return self._module[self.__name__](*args)

    def __repr__(self) -> str:
        return f"<kernel entry point {self.__name__} (not compiled yet)>"


class _NotCompiled:
    """What a kernel-only function's name is until its group is compiled."""

    def __init__(self, name: str) -> None:
        self.__name__ = name

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError(f"kernel.{self.__name__} is called from compiled kernel code only")
