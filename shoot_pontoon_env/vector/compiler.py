"""Compiling the batched engine's kernel: lazily, by group, into numba's on-disk cache, and so that a
cache that cannot be written or read never stops the env.

``kernel.py`` registers each function here (:meth:`KernelCompiler.jit`) instead of compiling it at
import. A group (the env's steps, or an evaluation's own player and records) is compiled on the first
call of one of its entry points, in the order its functions were defined, each bound into the
kernel's namespace as it is compiled so that its callers find it. So ``import kernel`` is instant, a
``gym.make`` compiles only what an env steps with, and ``python -m evaluate`` adds its part when it
first plays.

The first compile takes a while (a line on stderr says so, once); later processes load the machine
code from the cache. Where numba has no writable cache place beside the package or in the user's
cache, a folder under the system's temporary directory is used, and where there is none, the kernel
is compiled in memory for this process: one warning says which and why. A cache entry that cannot
be read (a truncated or corrupt file) is thrown away and compiled again.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any, NamedTuple

import numba
from numba import njit

from . import indexing

ENV, POLICY, EVALUATION, WHOLE_TABLE = "env", "policy", "evaluation", "whole_table"
GROUPS = (ENV, POLICY, EVALUATION, WHOLE_TABLE)
"""In compile order: the env's functions first, which every other group's entry points call; the
solver's policy tables (no entry point), which an evaluation and the whole table call; then each of
the others, alone (:data:`NEEDS`)."""
NEEDS = {EVALUATION: (ENV, POLICY), WHOLE_TABLE: (ENV, POLICY)}
"""The groups compiled before each group with entry points (each needs the env's)."""
COMPILING_MESSAGE = ("shoot-pontoon-env: compiling the batched engine, once: about 15-30 s (numba caches the "
                     "machine code in {where}; engine='table' plays without it)")


class KernelCacheWarning(RuntimeWarning):
    """numba's cache of the kernel could not be used where it normally lives (the message says why)."""


class _Registered(NamedTuple):
    name: str
    function: Callable
    signature: tuple
    options: dict
    group: str


def disabled_reason() -> str | None:
    """Why the kernel cannot run here (None: it can): under NUMBA_DISABLE_JIT the kernel would run as
    plain Python on numpy scalars, whose fixed-width arithmetic it was not written for."""
    if numba.config.DISABLE_JIT:
        return ("NUMBA_DISABLE_JIT=1 is set: the batched engine needs numba's compiler; unset it, or use the "
                "Table (gym.make(..., engine='table'))")
    return None


class KernelCompiler:
    """The registry of one kernel module's functions and the compiler of its groups."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace
        self._registered: list[_Registered] = []
        self._compiled: set[str] = set()
        self._lock = threading.RLock()
        self._cache_dir: str | None | bool = None
        """None: not decided yet; "": numba's own place; a path: NUMBA_CACHE_DIR's stand-in; False: none."""
        self._announced = False
        self._indexing_decided = False
        self.group = ENV
        """The group that functions registered now belong to (kernel.py switches it once)."""

    # ------------------------------------------------------------------ registration
    def jit(self, signature: tuple, options: dict, entry: bool) -> Callable[[Callable], Any]:
        """A decorator: register the function; an entry point gets a callable stand-in that compiles
        its group on first use, any other function a stand-in that only its callers' compile replaces."""

        def register(function: Callable) -> Any:
            self._registered.append(_Registered(function.__name__, function, signature, options, self.group))
            return _EntryPoint(self, function.__name__, self.group) if entry else _NotCompiled(function.__name__)

        return register

    # ------------------------------------------------------------------ compiling
    def compile(self, group: str | None = None) -> None:
        """Compile ``group`` after the groups it calls (``NEEDS``; None, the default: every group), once."""
        reason = disabled_reason()
        if reason is not None:
            raise RuntimeError(reason)
        with self._lock:
            if not self._indexing_decided:  # the kernel's indices never count from the end
                indexing.install(self._namespace["__name__"])
                self._indexing_decided = True
            for name in (GROUPS if group is None else dict.fromkeys((*NEEDS.get(group, (ENV,)), group))):
                if name not in self._compiled:
                    for item in self._registered:
                        if item.group == name:
                            self._namespace[item.name] = self._compile_one(item)
                    self._compiled.add(name)

    def is_compiled(self, group: str) -> bool:
        return group in self._compiled

    def _compile_one(self, item: _Registered) -> Any:
        if item.options.get("inline") == "always":
            return njit(**item.options)(item.function)  # inlined into its callers' code, never compiled alone
        with self._cache_place():
            cache = self._cache_dir is not False
            dispatcher = njit(cache=cache, **item.options)(item.function)
            try:
                self._load_or_compile(dispatcher, item.signature)
            except Exception:  # noqa: BLE001 - an unreadable cache entry: rebuild it (a real error recurs)
                if not cache:
                    raise
                dispatcher._cache.flush()  # numba's FunctionCache: an empty index, so the entry is rebuilt
                self._load_or_compile(dispatcher, item.signature)
        dispatcher.disable_compile()  # exactly this signature: a caller's other types are an error
        return dispatcher

    def _load_or_compile(self, dispatcher: Any, signature: tuple) -> None:
        """Load or compile one function; the first that numba had to compile says so on stderr (the
        functions come smallest first, so the line appears before the long part of the compile)."""
        dispatcher.compile(signature)
        if not self._announced and dispatcher.stats.cache_misses:
            self._announced = True
            where = self._cache_dir or numba.config.CACHE_DIR or "__pycache__ beside the package (or numba's user cache)"
            print(COMPILING_MESSAGE.format(where=where), file=sys.stderr, flush=True)

    @contextmanager
    def _cache_place(self):
        """numba's cache place for this compile: its own, or the stand-in decided on the first call."""
        if self._cache_dir is None:
            self._cache_dir = _choose_cache_dir(self._registered[0].function)
            if self._cache_dir is False:
                self._announced = True  # the warning says it compiles now
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
    """"" where numba can cache beside the package or in the user's cache; else a writable folder
    under the temporary directory; else False (compiled in memory), each fallback with one warning."""
    try:
        njit(cache=True)(function)  # numba picks its cache place here, and raises if it has none
        return ""
    except RuntimeError as error:
        reason = str(error)
    folder = os.path.join(tempfile.gettempdir(), f"shoot-pontoon-env-numba-{os.getuid() if hasattr(os, 'getuid') else 0}")
    try:
        os.makedirs(folder, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=folder)
        probe.close()
    except OSError as problem:
        warnings.warn(f"the batched engine's compiled code cannot be cached ({reason}; and {folder}: {problem}): "
                      "it is compiled in memory for this process, which takes 15-30 s each time; set "
                      "NUMBA_CACHE_DIR to a writable folder to keep it", KernelCacheWarning, stacklevel=4)
        return False
    warnings.warn(f"the batched engine's compiled code is cached in {folder}, because numba cannot cache it "
                  f"beside the package or in the user's cache ({reason}); set NUMBA_CACHE_DIR to choose the "
                  "place", KernelCacheWarning, stacklevel=4)
    return folder


class _EntryPoint:
    """What ``kernel.NAME`` is for an entry point until its group is compiled: the first call
    compiles the group, which binds the compiled function in the kernel's place."""

    def __init__(self, compiler: KernelCompiler, name: str, group: str) -> None:
        self._compiler, self.__name__, self._group = compiler, name, group

    def __call__(self, *args: Any) -> Any:
        self._compiler.compile(self._group)
        return self._compiler._namespace[self.__name__](*args)

    def __repr__(self) -> str:
        return f"<kernel entry point {self.__name__} (not compiled yet)>"


class _NotCompiled:
    """What ``kernel.NAME`` is for a kernel-only function until its group is compiled."""

    def __init__(self, name: str) -> None:
        self.__name__ = name

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError(f"kernel.{self.__name__} is called from compiled kernel code only")
