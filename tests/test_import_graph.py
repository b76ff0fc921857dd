"""The installed package's import graph: no cycle among ``shoot_pontoon_env`` modules, and nothing of the
checkout-only folders (``agents/``, ``train/``, ``evaluate/``) imported by it.

The graph is read statically with :mod:`ast`, from every ``.py`` file under ``shoot_pontoon_env/``:
every ``import`` and ``from ... import`` statement anywhere in a file (at the top, inside functions and
methods, under ``try``), and ``importlib.import_module("...")`` / ``__import__("...")`` of a literal
name. Relative imports are resolved against the importing module's package.

Which edges count, as Python runs them (module ``A`` importing ``T``):

- ``import a.b.c`` imports ``a``, ``a.b`` and ``a.b.c``: ``A`` gets an edge to each of them, except to
  the packages ``A`` itself lies in (Python has begun those before ``A``, and the statement needs only
  their module objects: no edge, or every package that imports its own submodules would be a cycle).
- ``from x.y import n`` imports ``x`` and ``x.y`` the same way, and then ``n``: if ``x.y.n`` is a
  module, the edge goes to it; else ``n`` is a name that ``x/y/__init__.py`` (or ``x/y.py``) must have
  defined, and the edge goes to ``x.y`` even where it is a package ``A`` lies in (a name not yet bound
  by a half-run ``__init__`` is the classic circular ImportError).
- Imports inside functions count: they run later, so they do not fail at load time, but they are still
  a dependency each way, which the layering forbids. The message says where each edge is, and whether
  it is a function-level one.
- Imports under ``if TYPE_CHECKING:`` are left out of the cycle check: they never run, and annotations
  are strings (``from __future__ import annotations``), so a type-only reference back up the layers is
  not a cycle Python can hit. They do count for the checkout-only folders: installed code must not
  name ``agents``, ``train`` or ``evaluate`` even for a type checker, which would not find them.

A cycle is a strongly connected component of more than one module; each is reported with its members
and one concrete cycle through them, every edge with its file and line. The cycle finder and the edge
reader are tested here on synthetic graphs and a synthetic package, so that the check can fail.
"""

from __future__ import annotations

import ast
import textwrap
from collections import deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "shoot_pontoon_env"
CHECKOUT_ONLY = ("agents", "train", "evaluate")
"""Top-level folders of the checkout that are not installed (pyproject: packages ``shoot_pontoon_env*``)."""


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    path: str
    """The importing file, relative to the root the package was read from."""
    line: int
    lazy: bool
    """Inside a function or method: runs when it is called, not when the module loads."""
    type_only: bool
    """Under ``if TYPE_CHECKING:``: never runs."""

    def where(self) -> str:
        return f"{self.path}:{self.line}" + (" (in a function)" if self.lazy else "")


# --------------------------------------------------------------------------- reading the imports
def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root``: dotted name -> file (a package is its ``__init__``)."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if all(part.isidentifier() for part in parts):
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


class _Imports(ast.NodeVisitor):
    """Every import of one module: (imported names, line, lazy, type_only) as Python would import them."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: list[tuple[str, str | None, int, bool, bool]] = []
        """(module imported, name taken from it or None, line, lazy, type_only)."""
        self.depth = 0
        self.type_only = 0

    def _add(self, target: str, name: str | None, line: int) -> None:
        self.found.append((target, name, line, self.depth > 0, self.type_only > 0))

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            self.type_only += 1
            for child in node.body:
                self.visit(child)
            self.type_only -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def _function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, None, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            if node.level > 1:
                base = base[:-(node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        for alias in node.names:
            self._add(target, None if alias.name == "*" else alias.name, node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        function = node.func
        called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
        first = node.args[0] if node.args else None
        if called in ("import_module", "__import__") and isinstance(first, ast.Constant) \
                and isinstance(first.value, str) and not first.value.startswith("."):
            self._add(first.value, None, node.lineno)
        self.generic_visit(node)


def import_edges(root: Path, package: str = PACKAGE) -> tuple[dict[str, Path], list[Edge], list[Edge]]:
    """The package's modules, the edges among them, and every import of a checkout-only folder (as
    edges to the top-level name imported)."""
    modules = module_names(root, package)
    edges: list[Edge] = []
    outside: list[Edge] = []
    for module, path in modules.items():
        visitor = _Imports(module, path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(), filename=str(path)))
        ancestors = set(_prefixes(module)[:-1])
        where = str(path.relative_to(root))
        for target, name, line, lazy, type_only in visitor.found:
            top = target.split(".")[0]
            submodule = f"{target}.{name}" if name else None
            if top in CHECKOUT_ONLY:
                outside.append(Edge(module, target, where, line, lazy, type_only))
                continue
            if top != package:
                continue
            targets = [p for p in _prefixes(target) if p not in ancestors]
            if name is not None:
                if submodule in modules:
                    targets.append(submodule)
                elif target in ancestors:  # a name of a package __init__ this module lies in
                    targets.append(target)
            for found in dict.fromkeys(targets):
                if found != module and found in modules:
                    edges.append(Edge(module, found, where, line, lazy, type_only))
    return modules, list(dict.fromkeys(edges)), list(dict.fromkeys(outside))  # one per line, not per name


# --------------------------------------------------------------------------- cycles
def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted; only those of two or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return sorted(components)


def one_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """A shortest cycle through the component's first member, staying inside it: [a, b, ..., a]."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph.get(node, ())):
            if child not in members:
                continue
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if child not in previous:
                previous[child] = node
                queue.append(child)
    raise AssertionError(f"{component} is not strongly connected")


def cycle_report(edges: list[Edge]) -> list[str]:
    """One paragraph per cycle: its members, one cycle with every edge's file and line, and every other
    edge inside the component (what has to go for the cycle to break)."""
    runtime = [e for e in edges if not e.type_only]
    graph: dict[str, set[str]] = {}
    for edge in runtime:
        graph.setdefault(edge.source, set()).add(edge.target)
    by_pair: dict[tuple[str, str], list[Edge]] = {}
    for edge in runtime:
        by_pair.setdefault((edge.source, edge.target), []).append(edge)
    reports = []
    for component in strongly_connected(graph):
        cycle = one_cycle(graph, component)
        lines = [f"cycle of {len(component)} modules: {', '.join(component)}", "  for example:"]
        for source, target in zip(cycle, cycle[1:]):
            places = ", ".join(e.where() for e in by_pair[source, target])
            lines.append(f"    {source} -> {target}   ({places})")
        inside = sorted({pair for pair in by_pair if pair[0] in component and pair[1] in component}
                        - set(zip(cycle, cycle[1:])))
        if inside:
            lines.append("  other imports inside it:")
            for source, target in inside:
                places = ", ".join(e.where() for e in by_pair[source, target])
                lines.append(f"    {source} -> {target}   ({places})")
        reports.append("\n".join(lines))
    return reports


# --------------------------------------------------------------------------- the package
def test_no_import_cycle_in_the_package():
    modules, edges, _ = import_edges(ROOT)
    assert len(modules) > 30 and any(e.source == f"{PACKAGE}.play.terminal" for e in edges)  # read the whole package
    reports = cycle_report(edges)
    assert not reports, (f"{len(reports)} import cycle(s) among {PACKAGE} modules (imports under "
                         "TYPE_CHECKING left out):\n\n" + "\n\n".join(reports))


def test_installed_code_imports_nothing_of_the_checkout_only_folders():
    _, _, outside = import_edges(ROOT)
    assert not outside, (f"{PACKAGE} imports the checkout-only {'/'.join(CHECKOUT_ONLY)} (not installed, see "
                         "pyproject's package list):\n" + "\n".join(
                             f"  {e.source} imports {e.target}   ({e.where()}"
                             + (", under TYPE_CHECKING)" if e.type_only else ")") for e in outside))


# --------------------------------------------------------------------------- the check itself
def test_the_cycle_finder_on_synthetic_graphs():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d", "f"}, "f": set(), "g": {"g"},
             "h": {"a"}}
    assert strongly_connected(graph) == [["a", "b", "c"], ["d", "e"]]  # a self-import is no cycle here
    assert one_cycle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert one_cycle(graph, ["d", "e"]) == ["d", "e", "d"]
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    # a shortest cycle, inside the component: a -> c -> a, not a -> b -> c -> a
    assert one_cycle({"a": {"b", "c"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c"]) == ["a", "c", "a"]
    # deep chains do not hit the recursion limit
    chain = {str(i): {str(i + 1)} for i in range(5000)} | {"5000": {"0"}}
    assert len(strongly_connected(chain)[0]) == 5001


def write_package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_the_edge_reader_on_a_synthetic_package(tmp_path):
    write_package(tmp_path, {
        "pkg/__init__.py": "from .core import thing\n",
        "pkg/core.py": "from .sub.leaf import helper\n",
        "pkg/sub/__init__.py": "X = 1\n",
        "pkg/sub/leaf.py": """\
            from __future__ import annotations
            from typing import TYPE_CHECKING
            from .. import core            # a submodule: the edge goes to pkg.core, not pkg
            from . import X                # a name of the package this module lies in
            if TYPE_CHECKING:
                from pkg.other import Other
            def helper():
                import pkg.other.deep
                from agents.base import Agent
            """,
        "pkg/other/__init__.py": "",
        "pkg/other/deep.py": "import importlib\nimportlib.import_module('train.config')\n",
    })
    modules, edges, outside = import_edges(tmp_path, "pkg")
    assert set(modules) == {"pkg", "pkg.core", "pkg.sub", "pkg.sub.leaf", "pkg.other", "pkg.other.deep"}
    found = {(e.source, e.target, e.lazy, e.type_only) for e in edges}
    assert found == {
        ("pkg", "pkg.core", False, False),
        ("pkg.core", "pkg.sub", False, False), ("pkg.core", "pkg.sub.leaf", False, False),
        ("pkg.sub.leaf", "pkg.core", False, False), ("pkg.sub.leaf", "pkg.sub", False, False),
        ("pkg.sub.leaf", "pkg.other", False, True),
        ("pkg.sub.leaf", "pkg.other", True, False), ("pkg.sub.leaf", "pkg.other.deep", True, False),
    }
    assert {(e.source, e.target, e.line, e.lazy) for e in outside} == {
        ("pkg.sub.leaf", "agents.base", 9, True), ("pkg.other.deep", "train.config", 2, False)}
    reports = cycle_report(edges)
    assert len(reports) == 1 and reports[0].startswith("cycle of 2 modules: pkg.core, pkg.sub.leaf\n")
    assert "pkg.core -> pkg.sub.leaf   (pkg/core.py:1)" in reports[0]
    assert "pkg.sub.leaf -> pkg.core   (pkg/sub/leaf.py:3)" in reports[0]
    # the type-only import alone closes no cycle
    type_only = [Edge("a", "b", "a.py", 1, False, False), Edge("b", "a", "b.py", 1, False, True)]
    assert cycle_report(type_only) == []
