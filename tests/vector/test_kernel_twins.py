"""Every kernel function that mirrors scalar code names it in its docstring, after the words "scalar
twin:" (or "scalar twins:", several joined by "and"), as ``module:Qualified.name``; each such name must
import, so that a twin that moves or is renamed fails here rather than leaving the docstring wrong."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from shoot_pontoon_env.vector import kernel

PHRASE = re.compile(r"scalar\s+twins?:", re.IGNORECASE)
REFERENCES = re.compile(r"\s*``([^`]*)``(?:\s*(?:,|and)\s*``([^`]*)``)*")
REFERENCE = re.compile(r"``([^`]*)``")
TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def twins(text: str) -> list[str]:
    """The twins ``text`` names; a ValueError for a mention of a twin that is not in the convention."""
    found = []
    for phrase in PHRASE.finditer(text):
        listed = REFERENCES.match(text, phrase.end())
        if listed is None:
            raise ValueError(f"not ``module:Qualified.name``: {text[phrase.start():][:80]!r}")
        for target in REFERENCE.findall(listed.group(0)):
            if not TARGET.fullmatch(target):
                raise ValueError(f"{target!r}: not ``module:Qualified.name``")
            found.append(target)
    return found


def resolve(target: str) -> object:
    """The object ``module:Qualified.name`` names (ImportError or AttributeError where there is none)."""
    module, qualified = target.split(":")
    found: object = importlib.import_module(module)
    for part in qualified.split("."):
        found = getattr(found, part)
    return found


def kernel_docstrings() -> list[tuple[str, str]]:
    """(where, docstring) of every module, function and constant documented in the kernel's modules."""
    found = []
    for name in kernel.KERNEL_MODULES:
        path = Path(importlib.import_module(name).__file__)
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(
                    node.value.value, str):
                found.append((f"{name}:{node.lineno}", node.value.value))
    return found


DOCSTRINGS = kernel_docstrings()


def test_the_finder_reads_the_convention() -> None:
    text = ("The table's phase. Scalar twin: ``shoot_pontoon_env.engine.table:Table.phase``. Then "
            "scalar twins:\n    ``a.b:C.d`` and ``e:f``.")
    assert twins(text) == ["shoot_pontoon_env.engine.table:Table.phase", "a.b:C.d", "e:f"]
    assert twins("No twin here.") == []
    for malformed in ("Scalar twin: Table.phase.", "Scalar twin: ``engine.table.Table.phase``.",
                      "scalar twin: `engine.table:Table.phase`"):
        with pytest.raises(ValueError):
            twins(malformed)


def test_a_misspelt_twin_does_not_resolve() -> None:
    assert resolve("shoot_pontoon_env.engine.table:Table.phase") is not None
    (target,) = twins("Scalar twin: ``shoot_pontoon_env.engine.table:Table._after_crad``.")
    with pytest.raises(AttributeError):
        resolve(target)
    with pytest.raises(ImportError):
        resolve("shoot_pontoon_env.engine.tabel:Table.phase")


def test_the_kernel_names_its_twins() -> None:
    named = [target for _, text in DOCSTRINGS for target in twins(text)]
    assert len(named) >= 60, "the kernel's docstrings name their scalar twins"


WITH_TWINS = [item for item in DOCSTRINGS if PHRASE.search(item[1])]


@pytest.mark.parametrize("where, text", WITH_TWINS, ids=[where for where, _ in WITH_TWINS])
def test_every_twin_resolves(where: str, text: str) -> None:
    for target in twins(text):
        assert resolve(target) is not None, f"{where}: {target}"
