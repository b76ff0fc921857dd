"""The kernel's array indices never count from the end, so its code is compiled without numba's
negative-index wraparound.

numba lowers every signed integer index ``a[i]`` with a select that adds the array's length when
``i < 0`` (Python's ``a[-1]``). The kernel computes its indices from offsets and fields that are never
negative, so the select never changes an index there, yet it sits on the address of nearly every load
and store: without it a batched step takes 12-24% less time (``docs/RESULTS.md``). numba has no
option for this, so :func:`install` wraps numba's ``fix_integer_index`` (where basic indexing applies
the wraparound) so that a signed index is used as it is in the functions of the given modules only,
recognised by their mangled names. Every function of another module, a user's included, keeps
Python's semantics, except code that numba inlines into one of those functions before lowering it
(``inline="always"``; the kernel inlines none from other modules), which is lowered as theirs. A call
whose arguments are not the five this numba passes goes to numba's own function unchanged.

A negative index in the kernel would read outside its array, as an index past the end already would
(the kernel has no bounds checks). ``tests/vector/test_indexing.py`` runs the engine's differential
tests in a subprocess compiled with ``NUMBA_BOUNDSCHECK=1``, which turns any such index into an
IndexError (``pytest -m slow``).
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_prefixes: tuple[str, ...] = ()
"""The mangled-name prefixes of the modules compiled without wraparound (replaced whole, never changed
in place: a compile in another thread reads it without the lock)."""
_installed = False


def symbol_prefix(module: str) -> str:
    """The start of the mangled name numba gives every function of ``module`` (Itanium ABI, as numba
    mangles: ``_ZN`` and each dotted part with its length)."""
    from numba.core.itanium_mangler import mangle_identifier

    return "_ZN" + "".join(mangle_identifier(part) for part in module.split("."))


def install(module: str) -> bool:
    """Compile the functions of ``module`` from now on without negative-index wraparound; False (and
    nothing changed) where this numba has no ``fix_integer_index`` to wrap."""
    global _installed, _prefixes
    try:
        from numba.core import types
        from numba.np import arrayobj

        prefix = symbol_prefix(module)
    except Exception:  # noqa: BLE001 - a numba whose internals moved: compile with the wraparound
        return False
    original = getattr(arrayobj, "fix_integer_index", None)
    if original is None:
        return False
    with _lock:
        if prefix not in _prefixes:
            _prefixes = (*_prefixes, prefix)
        if _installed:
            return True

        def fix_integer_index(*args: Any, **kwargs: Any) -> Any:
            if len(args) == 5 and not kwargs:
                context, builder, idxty, idx, _size = args
                function = getattr(builder, "function", None)
                if getattr(idxty, "signed", False) and getattr(function, "name", "").startswith(_prefixes):
                    return context.cast(builder, idx, idxty, types.intp)
            return original(*args, **kwargs)

        fix_integer_index.wrapped = original  # type: ignore[attr-defined]
        arrayobj.fix_integer_index = fix_integer_index
        _installed = True
    return True


def is_installed(module: str) -> bool:
    """Whether functions of ``module`` compiled now are compiled without wraparound."""
    try:
        return _installed and symbol_prefix(module) in _prefixes
    except Exception:  # noqa: BLE001 - as install
        return False
