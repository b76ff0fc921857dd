"""Each cause of a kernel error has its own code and message (``layout.ERRORS``), and each code is
raised somewhere in the kernel: a failing batch says what went wrong, not one of several things."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from shoot_pontoon_env.vector import kernel, layout

CODES = {name: value for name, value in vars(layout).items() if re.fullmatch(r"E_[A-Z_]+", name)}


def test_every_error_code_is_distinct_and_has_a_message_of_its_own() -> None:
    assert len(set(CODES.values())) == len(CODES)
    assert set(layout.ERRORS) == set(CODES.values()) - {layout.E_NONE}
    assert len(set(layout.ERRORS.values())) == len(layout.ERRORS)


def test_every_error_code_is_raised_by_the_kernel() -> None:
    text = "".join(Path(importlib.import_module(name).__file__).read_text() for name in kernel.KERNEL_MODULES)
    for name in set(CODES) - {"E_NONE"}:
        assert re.search(rf"\bfail\(\w+, [^)]*\b{name}\b", text), name
