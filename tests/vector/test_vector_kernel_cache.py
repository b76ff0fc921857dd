"""numba caches the kernel by the text of kernel.py alone: its CONSTANTS_FINGERPRINT must follow the
constants it compiles in from other modules, or a cached kernel would run with old ones."""

from __future__ import annotations

import pytest

from shoot_pontoon_env.seat import encoding, features
from shoot_pontoon_env.vector import kernel, layout


def test_the_fingerprint_written_in_kernel_py_is_that_of_the_constants_now() -> None:
    assert kernel.constants_fingerprint() == kernel.CONSTANTS_FINGERPRINT


@pytest.mark.parametrize("module, name", [(layout, "T_STAGE"), (layout, "HANDS"), (encoding, "HAND_SIZE"),
                                          (features, "CF_CHIPS")])
def test_a_changed_compiled_in_constant_changes_the_fingerprint(monkeypatch, module, name) -> None:
    monkeypatch.setattr(module, name, getattr(module, name) + 1)
    assert kernel.constants_fingerprint() != kernel.CONSTANTS_FINGERPRINT
