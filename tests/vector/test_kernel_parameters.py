"""Every parameter of every kernel function is read in its body: an argument passed and never read is
work at every call site and a reader's false lead (0.9.1 had 171 such call sites)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from shoot_pontoon_env.vector import kernel


def unread_parameters(source: str) -> list[str]:
    """``function.parameter`` for each parameter that no name in its function's body reads."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            read = {name.id for statement in node.body for name in ast.walk(statement)
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Load)}
            found += [f"{node.name}.{arg.arg}" for arg in node.args.args if arg.arg not in read]
    return found


def test_the_check_finds_an_unread_parameter() -> None:
    assert unread_parameters("def f(t, c, unused):\n    return t[c]\n") == ["f.unused"]
    assert unread_parameters("def f(t):\n    t[0] = 1\n") == []


def test_no_kernel_function_has_an_unread_parameter() -> None:
    unread = {name: unread_parameters(Path(importlib.import_module(name).__file__).read_text())
              for name in kernel.KERNEL_MODULES}
    assert {name: found for name, found in unread.items() if found} == {}
