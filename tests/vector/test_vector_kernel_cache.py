"""numba keys each kernel function's cache entry on the function's own file alone, yet compiles into it
the code and constants of the other kernel modules and the constants of the modules they read: the
kernel's fingerprint covers them all and is part of every entry's key, so that a change to any of them
compiles the kernel again rather than loading stale machine code."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import types

from shoot_pontoon_env.seat import encoding, features
from shoot_pontoon_env.vector import kernel, kernel_deals, kernel_encoders, kernel_seat, layout
from shoot_pontoon_env.vector.compiler import ENV, KernelCompiler


@pytest.fixture(scope="module")
def fingerprint() -> str:
    return kernel.fingerprint()


@pytest.mark.parametrize("module, name", [(layout, "T_STAGE"), (layout, "HANDS"), (encoding, "HAND_SIZE"),
                                          (features, "CF_CHIPS")])
def test_a_changed_compiled_in_constant_changes_the_fingerprint(monkeypatch, fingerprint, module,
                                                                name) -> None:
    monkeypatch.setattr(module, name, getattr(module, name) + 1)
    assert kernel.fingerprint() != fingerprint


@pytest.mark.parametrize("module, name", [(kernel_encoders, "O_PHASE"), (kernel_deals, "KEY_BITS"),
                                          (kernel_seat, "VIEW_FIELDS"), (kernel_deals, "GOLDEN")])
def test_a_changed_constant_of_a_kernel_module_changes_the_fingerprint(monkeypatch, fingerprint, module,
                                                                       name) -> None:
    monkeypatch.setattr(module, name, getattr(module, name) + 1)
    assert kernel.fingerprint() != fingerprint


def test_a_changed_table_of_a_kernel_module_changes_the_fingerprint(monkeypatch, fingerprint) -> None:
    changed = kernel_encoders.TOTAL_SCALED.copy()
    changed[3] = np.nextafter(changed[3], 1.0)
    monkeypatch.setattr(kernel_encoders, "TOTAL_SCALED", changed)
    assert kernel.fingerprint() != fingerprint


@pytest.mark.parametrize("changed", kernel.KERNEL_MODULES)
def test_a_changed_kernel_module_changes_the_fingerprint(monkeypatch, fingerprint, changed) -> None:
    text = kernel.source

    def edited(module):
        return text(module) + (b"\n# edited\n" if module.__name__ == changed else b"")

    monkeypatch.setattr(kernel, "source", edited)
    assert kernel.fingerprint() != fingerprint


def test_every_kernel_function_is_cached_under_the_fingerprint(fingerprint) -> None:
    kernel.compile()
    if not kernel.COMPILER.cache_place_kept():
        pytest.skip("the kernel is not cached here")
    checked = 0
    for item in kernel.COMPILER.registered():
        if item.options.get("inline") == "always":
            continue  # inlined into its callers before typing: no machine code of its own
        compiled = item.function.__globals__[item.name]
        signature = next(iter(compiled.overloads))
        key = compiled._cache._index_key(signature, compiled.targetctx.codegen())
        assert key[-1] == fingerprint, item.name
        checked += 1
    assert checked > 100


def toy_twice(x):
    return 2 * x


def toy_entry(x):
    return toy_twice(x) + 1


TOY_TWICE, TOY_ENTRY = toy_twice, toy_entry


def toy_compiler(fingerprint: str) -> tuple[KernelCompiler, dict]:
    """A compiler of this module's two toy functions under the given fingerprint."""
    namespace = globals()
    toy = KernelCompiler((), lambda: fingerprint)
    options = dict(nogil=True, no_cpython_wrapper=False, _nrt=True, forceinline=False)
    namespace["toy_twice"] = toy.jit((types.int64,), options, entry=False)(TOY_TWICE)
    namespace["toy_entry"] = toy.jit((types.int64,), options, entry=True)(TOY_ENTRY)
    return toy, namespace


def test_a_changed_fingerprint_compiles_again_and_the_same_one_loads(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    try:
        for fingerprint, compiled in (("one", {ENV}), ("one", set()), ("two", {ENV}), ("one", set())):
            toy, namespace = toy_compiler(fingerprint)
            assert namespace["toy_entry"](20) == 41
            assert toy.compiled_now == compiled, fingerprint
    finally:
        globals().update(toy_twice=TOY_TWICE, toy_entry=TOY_ENTRY)


def test_a_kernel_function_name_is_registered_once() -> None:
    toy = KernelCompiler()
    toy.jit((types.int64,), {}, entry=False)(TOY_TWICE)
    with pytest.raises(ValueError, match="registered already"):
        toy.jit((types.int64,), {}, entry=False)(TOY_TWICE)
