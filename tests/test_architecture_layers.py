"""docs/ARCHITECTURE.md's layer list is the package's import graph: every module is in one layer, and
no module imports one from a layer above its own (imports under ``TYPE_CHECKING`` aside, as in the
cycle check). The list is the fenced ``layers`` block of the document, lowest layer first."""

from __future__ import annotations

import fnmatch
import re

from test_import_graph import PACKAGE, ROOT, import_edges

DOC = ROOT / "docs" / "ARCHITECTURE.md"


def documented_layers(text: str) -> list[tuple[str, list[str]]]:
    """(layer name, module patterns) from the ``layers`` block: lines ``N name: pattern pattern ...``."""
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    assert block, f"{DOC}: no ```layers block"
    layers = []
    for line in block.group(1).strip().splitlines():
        head, patterns = line.split(":", 1)
        layers.append((head.split(None, 1)[1].strip(), patterns.split()))
    return layers


def layer_of(module: str, layers: list[tuple[str, list[str]]]) -> list[int]:
    name = module.removeprefix(PACKAGE + ".") if module != PACKAGE else PACKAGE
    return [i for i, (_, patterns) in enumerate(layers) if any(fnmatch.fnmatchcase(name, p) for p in patterns)]


def test_every_module_is_in_exactly_one_documented_layer():
    layers = documented_layers(DOC.read_text())
    modules, _, _ = import_edges(ROOT)
    wrong = {m: [layers[i][0] for i in layer_of(m, layers)] for m in modules if len(layer_of(m, layers)) != 1}
    assert not wrong, f"modules in no layer or in several, in {DOC.name}'s layers block: {wrong}"


def test_no_module_imports_from_a_layer_above_its_own():
    layers = documented_layers(DOC.read_text())
    modules, edges, _ = import_edges(ROOT)
    upward = [f"{e.source} ({layers[layer_of(e.source, layers)[0]][0]}) -> {e.target} "
              f"({layers[layer_of(e.target, layers)[0]][0]}) at {e.where()}"
              for e in edges if not e.type_only and layer_of(e.target, layers)[0] > layer_of(e.source, layers)[0]]
    assert not upward, "imports up the documented layers:\n" + "\n".join(upward)


def test_the_layer_reader_finds_an_upward_import():
    layers = documented_layers("```layers\n1 low: a a.*\n2 high: b\n```")
    assert [name for name, _ in layers] == ["low", "high"]
    assert layer_of(f"{PACKAGE}.a.x", layers) == [0] and layer_of(f"{PACKAGE}.b", layers) == [1]
    assert layer_of(f"{PACKAGE}.c", layers) == []
