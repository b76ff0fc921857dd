"""The batched engine's kernel: ``Table``'s state machine, the seat's env, the table players, the
observation encoders, an evaluation's hands and the whole table, compiled by numba and run table after
table. This module is the kernel's front: what its modules share (the compiler, the fingerprint that
keys numba's cache, the numba types of a table's rows and config, ``jit``). The kernel's functions lie
in its siblings, one job each (``KERNEL_MODULES``):

- ``kernel_hands``: a table's rows and its hands: cards, totals and classes, legal moves, whose turn;
- ``kernel_deals``: the shoe, the chips and a deal's stages, up to ``Table.apply`` and ``Table.forfeit``;
- ``kernel_players``: the rule-based table players;
- ``kernel_encoders``: the seat's observation, flat or compact;
- ``kernel_seat``: the seat's env (reset, step, mask) and its batch's entry point;
- ``kernel_evaluation``: an evaluation's hands and the solver's player;
- ``kernel_whole_table``: the whole table and the network player.

Most functions mirror a function or method of the scalar code, their scalar twin, which the docstring
names as ``module:Qualified.name`` (``tests/vector/test_kernel_twins.py`` resolves every one), so that the
differential tests (``tests/vector``, ``tests/multiagent``) can hold the two to the same observation,
reward, mask and chips at every step. A table is two rows: ``t`` (int32: the Table's and the env's
scalars, the balances, the hands) and ``k8`` (int8: cards, face-up flags, seen counts, the shoe); ``c``,
``f`` and ``tab`` are the batch's config (``layout.py``). Passing rows rather than whole batches keeps
every call cheap.

Randomness: every episode's shuffle key (62 bits) comes from Python: drawn from the env's
``numpy.random.Generator`` (``tables.draw_keys``), or from a seed (``tables.first_key``; an
evaluation's hand h: ``kernel_evaluation.hand_key``). The kernel's own bit generator shuffles from it:
the shoe is shuffled lazily, a Fisher-Yates step per card drawn, whose uniform number is a SplitMix64
hash of the key, the shuffle's number and the position (``kernel_deals.keyed_uniform``), so that an
episode's cards depend on its key alone. The Generator itself reaches the kernel, as a handle
(``bitgen.py``), only for the draws of the random table player and of an evaluation's uniform player.
In fed mode (tests) every shuffle takes the next order given instead.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path
from types import ModuleType

import numpy as np
from numba import types

from .bitgen import HANDLE
from .compiler import ENV, KernelCompiler

KERNEL_MODULES = tuple(f"{__package__}.{name}" for name in (
    "kernel", "kernel_hands", "kernel_deals", "kernel_players", "kernel_encoders", "kernel_seat",
    "kernel_evaluation", "kernel_whole_table"))
"""The kernel's modules, each after those it calls: every function the compiler compiles is in one."""
COMPILED_IN = ("..rules", "..seat.encoding", "..seat.features", "..solver.space", ".layout", ".policy")
"""The other modules whose constants the kernel compiles in."""


def fingerprint() -> str:
    """A digest of what numba compiles into a kernel function from beyond the function itself: the
    text of every kernel module, and every plain upper-case constant (an int, float, bool, str or
    slice, a tuple of them, or a numpy array or scalar) of those modules and of ``COMPILED_IN``.
    numba keys a function's cache entry on its own file alone; the compiler adds this digest to every
    key (``compiler.py``), so that a change to any kernel module, or to a constant compiled in,
    compiles the whole kernel again instead of loading stale machine code."""
    kernel = [importlib.import_module(name) for name in KERNEL_MODULES]
    digest = hashlib.sha256()
    for module in (*(importlib.import_module(name, __package__) for name in COMPILED_IN), *kernel):
        for name, value in sorted(vars(module).items()):
            if name.isupper() and _plain(value):
                digest.update(f"{module.__name__}.{name}={_printed(value)};".encode())
    for module in kernel:
        digest.update(f"{module.__name__}:".encode() + source(module))
    return digest.hexdigest()[:16]


def source(module: ModuleType) -> bytes:
    """The text of a kernel module."""
    return Path(module.__file__).read_bytes()


def _plain(value: object) -> bool:
    if type(value) is tuple:
        return all(_plain(item) for item in value)
    return type(value) in (int, float, bool, str, slice) or isinstance(value, (np.ndarray, np.generic))


def _printed(value: object) -> str:
    """``repr``, but a numpy value as its type, shape and bytes (its repr differs between numpy versions)."""
    if type(value) is tuple:
        return f"({','.join(_printed(item) for item in value)})"
    if isinstance(value, (np.ndarray, np.generic)):
        return f"{value.dtype.str}{np.shape(value)}{value.tobytes().hex()}"
    return repr(value)


COMPILER = KernelCompiler(KERNEL_MODULES, fingerprint)
"""Compiles the kernel's functions on first use (``compile()`` compiles them all, e.g. at install)."""
compile = COMPILER.compile  # noqa: A001 - kernel.compile(): the kernel's own compile step

I, B, F = types.int64, types.boolean, types.float64
I32ROW = types.Array(types.int32, 1, "C")
I8ROW = types.Array(types.int8, 1, "C")
I64 = types.Array(types.int64, 1, "C")
F64 = types.Array(types.float64, 1, "C")
F32ROW = types.Array(types.float32, 1, "C")
BOOLS = types.Array(types.boolean, 1, "C")
I32ROWS = types.Array(types.int32, 2, "C")
I8ROWS = types.Array(types.int8, 2, "C")
I64ROWS = types.Array(types.int64, 2, "C")
F32ROWS = types.Array(types.float32, 2, "C")
BOOLROWS = types.Array(types.boolean, 2, "C")
F32 = types.Array(types.float32, 1, "C")
I32 = types.Array(types.int32, 1, "C")
I8S = types.Array(types.int8, 1, "C")
F64S = types.Array(types.float64, 1, "C")
RNG = HANDLE
"""A Generator's bit generator (``bitgen.py``): the draws of the random players."""
CFG = (I64, F64, I8ROW)
"""c, f, tab: the batch's config."""
ROWS = (I32ROW, I8ROW)
"""t, k8: one table."""


def jit(*arg_types, entry: bool = False, call: bool = False, ir: bool = False, group: str = ENV):
    """Compiled once, for exactly these argument types (so constants do not make new versions), and
    cached on disk beside its module; only ``entry`` points are callable from Python. Compiled lazily
    (``compiler.py``): ``group`` on the first call of one of its entry points. Nothing is compiled with
    numba's reference counting (``_nrt``): the kernel allocates nothing, and the Generator, whose
    unboxing would need it, reaches the kernel as a handle (``bitgen.py``). Nor with numba's
    negative-index wraparound (``indexing.py``): no index of the kernel counts from the end.

    Every other function is inlined into its callers by LLVM (``forceinline``): a numba call passes
    each array as seven words, so the game's many small functions cost more in calls than in work
    (inlining them cut the time per step by a third to a half: ``docs/HISTORY.md``, 0.2.0). ``call``
    functions stay calls: the rare stages (a deal's start and settlement, splits, restocks, the bank,
    forfeits), which would otherwise be copied into every caller and lengthen the compile (inlining
    those too took 2.5x the compile for about 15% more speed).

    ``ir`` functions are the layers above the game (a table's turn, its reset and step, the table
    players' loop): numba inlines them into their one caller before typing (``inline="always"``), so
    they have no machine code of their own. numba compiles every function with all that it calls, so
    each of these layers, had it been a function of its own, would have compiled the whole game once
    more; and each is called from one place only (a reset and a step share one path through
    ``env_turn``), so the game is in each entry point once (the first compile 34.1 -> 17.4 CPU-s,
    ``docs/HISTORY.md``, 0.3.3). Numba's inlining is kept to these: on the game's many small functions with
    many callers it compiles far slower than LLVM's."""
    flat = []
    for item in arg_types:
        flat.extend(item if isinstance(item, tuple) else (item,))
    options = dict(nogil=True, no_cpython_wrapper=not entry, _nrt=False, forceinline=not (entry or call))
    if ir:
        options = dict(nogil=True, no_cpython_wrapper=True, _nrt=False, inline="always")
    return COMPILER.jit(tuple(flat), options, entry, group)
