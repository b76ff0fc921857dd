"""The kernel's randomness: a ``numpy.random.Generator``'s own bit generator, reached through its C
interface (``BitGenerator.ctypes``) rather than passed to numba as a Generator.

Why: numba's unboxing of a Generator allocates a small record that only its reference counting frees,
so every entry point taking one had to be compiled with reference counting on; and reference counting
in the entry points slows the compiled game by about a third once the game's layers are inlined into
them (which is what shortens the first compile). A two-word handle (the address of the bit
generator's ``next_double`` and of its state, and its ``next_uint64``'s) costs nothing to pass, and
``random(handle)`` in the kernel is exactly ``Generator.random()``: the same C function on the same
state, so the two may be interleaved and the stream is the one numpy would give. ``next_uint64`` is the
64-bit draw ``Generator.integers`` takes: the kernel draws the autoresets' shuffle keys with it, the values
``Generator.integers(0, 2**62)`` gives (``tables.draw_keys``).
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

HANDLE = types.Array(types.uint64, 1, "C")
"""The numba type of a handle: uint64[3], (next_double's address, the state's address, next_uint64's
address)."""


class GeneratorHandle:
    """The handle of one Generator, remade only when a different Generator is asked for. It keeps a
    reference to its Generator, so the addresses stay valid while the handle is in use."""

    def __init__(self) -> None:
        self._generator: np.random.Generator | None = None
        self._handle = np.zeros(3, dtype=np.uint64)

    def __reduce__(self) -> tuple:
        """A copy or an unpickled handle starts empty: addresses are valid in this process, for this
        Generator only."""
        return (GeneratorHandle, ())

    def __call__(self, generator: np.random.Generator) -> np.ndarray:
        if generator is not self._generator:
            if not isinstance(generator, np.random.Generator):
                raise TypeError(f"expected a numpy.random.Generator, got {type(generator).__name__}")
            interface = generator.bit_generator.ctypes
            double = ctypes.cast(interface.next_double, ctypes.c_void_p).value
            uint64 = ctypes.cast(interface.next_uint64, ctypes.c_void_p).value
            self._handle = np.array([double, interface.state_address, uint64], dtype=np.uint64)
            self._generator = generator
        return self._handle


@intrinsic
def next_double(typingctx, function, state):  # noqa: ARG001 - numba's intrinsic signature
    """``function(state)`` for the addresses of a bit generator's ``double (*)(void *)`` and its state."""
    signature = types.float64(types.uint64, types.uint64)

    def codegen(context, builder, sig, args):  # noqa: ARG001
        void_pointer = ir.IntType(8).as_pointer()
        pointer = builder.inttoptr(args[0], ir.FunctionType(ir.DoubleType(), [void_pointer]).as_pointer())
        return builder.call(pointer, [builder.inttoptr(args[1], void_pointer)])

    return signature, codegen


@intrinsic
def next_uint64(typingctx, function, state):  # noqa: ARG001 - numba's intrinsic signature
    """``function(state)`` for the addresses of a bit generator's ``uint64_t (*)(void *)`` and its state."""
    signature = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, sig, args):  # noqa: ARG001
        void_pointer = ir.IntType(8).as_pointer()
        pointer = builder.inttoptr(args[0], ir.FunctionType(ir.IntType(64), [void_pointer]).as_pointer())
        return builder.call(pointer, [builder.inttoptr(args[1], void_pointer)])

    return signature, codegen
