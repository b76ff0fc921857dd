"""docs/ARCHITECTURE.md's layer list is the package's import graph, folder by folder: a module's layer is
its folder's (the root folder's modules are the core), and no module imports one from a layer above its
own (imports under ``TYPE_CHECKING`` aside, as in the cycle check). A ``__main__.py`` and the package's
own ``__init__`` are front doors: they may import anything. The list is the fenced ``layers`` block of
the document, lowest layer first, one line per layer: ``N name: folder folder ...`` (``.`` is the root,
``solver/headsup`` a subfolder); it names folders only."""

from __future__ import annotations

import re

from test_import_graph import PACKAGE, ROOT, import_edges

DOC = ROOT / "docs" / "ARCHITECTURE.md"
FRONT_DOOR = "front door"


def documented_layers(text: str) -> list[tuple[str, list[str]]]:
    """(layer name, folders) from the ``layers`` block: lines ``N name: folder folder ...``."""
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    assert block, f"{DOC}: no ```layers block"
    layers = []
    for line in block.group(1).strip().splitlines():
        head, folders = line.split(":", 1)
        layers.append((head.split(None, 1)[1].strip(), folders.split()))
    return layers


def folder_of(module: str, is_package: bool) -> str | None:
    """The folder a module's file lies in, relative to the package (``.`` for the root); None for a
    front door (a ``__main__`` module or the package itself)."""
    parts = module.split(".")[1:]
    if module == PACKAGE or parts[-1] == "__main__":
        return None
    folder = parts if is_package else parts[:-1]
    return "/".join(folder) or "."


def layer_of(module: str, layers: list[tuple[str, list[str]]], is_package: bool) -> list[int]:
    folder = folder_of(module, is_package)
    if folder is None:
        return [len(layers)]  # above every layer
    return [i for i, (_, folders) in enumerate(layers) if folder in folders]


def _is_package(module: str, files: dict) -> bool:
    return files[module].name == "__init__.py"


def test_the_layers_block_names_folders_only_and_each_folder_once():
    layers = documented_layers(DOC.read_text())
    named = [folder for _, folders in layers for folder in folders]
    assert len(named) == len(set(named)), f"a folder in two layers: {named}"
    missing = [f for f in named if not (ROOT / PACKAGE / f).is_dir()]
    assert not missing, f"the layers block names what is not a folder of the package: {missing}"


def test_every_module_is_in_exactly_one_documented_layer():
    layers = documented_layers(DOC.read_text())
    modules, _, _ = import_edges(ROOT)
    files = modules
    wrong = {m: folder_of(m, _is_package(m, files)) for m in modules
             if len(layer_of(m, layers, _is_package(m, files))) != 1}
    assert not wrong, f"modules whose folder is in no layer, in {DOC.name}'s layers block: {wrong}"


def test_no_module_imports_from_a_layer_above_its_own():
    layers = documented_layers(DOC.read_text())
    modules, edges, _ = import_edges(ROOT)
    files = modules
    names = [name for name, _ in layers] + [FRONT_DOOR]

    def layer(module: str) -> int:
        return layer_of(module, layers, _is_package(module, files))[0]

    upward = [f"{e.source} ({names[layer(e.source)]}) -> {e.target} ({names[layer(e.target)]}) at {e.where()}"
              for e in edges if not e.type_only and layer(e.target) > layer(e.source)]
    assert not upward, "imports up the documented layers:\n" + "\n".join(upward)


def test_the_layer_reader_finds_an_upward_import():
    layers = documented_layers("```layers\n1 low: . a\n2 high: b b/c\n```")
    assert [name for name, _ in layers] == ["low", "high"]
    assert layer_of(f"{PACKAGE}.a.x", layers, False) == [0] and layer_of(f"{PACKAGE}.b", layers, True) == [1]
    assert layer_of(f"{PACKAGE}.rules", layers, False) == [0]
    assert layer_of(f"{PACKAGE}.b.c.d", layers, False) == [1]
    assert layer_of(f"{PACKAGE}.c.x", layers, False) == []
    assert layer_of(f"{PACKAGE}.b.__main__", layers, False) == [2] and layer_of(PACKAGE, layers, True) == [2]
