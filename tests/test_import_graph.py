"""No circle of imports among the project's modules, at run time or for type checking.

The graph is read from the source with ``ast``: every ``import`` and ``from … import``, wherever it
stands (at the top, inside a function, under ``if TYPE_CHECKING:``), counts as an edge. ``from x
import y`` where ``y`` is a module of package ``x`` imports ``x.y``; relative imports are resolved
against the importing module's package. Each strongly connected component of more than one module
(Tarjan) is a circle, listed with the lines that close it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "bot", "cogs")

Graph = dict[str, dict[str, int]]


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_sources(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, tuple[str, bool]]:
    """Module name -> (source, whether it is a package's ``__init__``)."""
    return {
        module_name(path, root): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }


def imported(module: str, source: str, is_package: bool, known: Iterable[str]) -> dict[str, int]:
    """The project's modules ``module`` imports, each with the first line that does."""
    modules = set(known)

    def in_project(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for name in names:
            target = in_project(name)
            if target is not None and target != module:
                found.setdefault(target, node.lineno)
    return found


def import_graph(sources: Mapping[str, tuple[str, bool]]) -> Graph:
    return {module: imported(module, source, is_package, sources) for module, (source, is_package) in sources.items()}


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, {})))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
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
                        found.append(sorted(component))
    return sorted(found)


def described(component: list[str], graph: Graph) -> str:
    edges = [f"  {a}:{line} imports {b}" for a in component for b, line in sorted(graph[a].items()) if b in component]
    return "\n".join([" <-> ".join(component), *edges])


def test_no_module_is_in_a_circle_of_imports() -> None:
    graph = import_graph(project_sources())
    assert "bot.adapter.delivery" in graph and "rules.core" in graph and "cogs.commands" in graph
    found = circles(graph)
    assert found == [], "circles of imports:\n" + "\n".join(described(c, graph) for c in found)


def test_every_form_of_import_is_an_edge(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "from pkg import a\n",
        "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n",
        "pkg/b.py": "def late():\n    from . import c\n",
        "pkg/c.py": "import pkg.sub.d\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/d.py": "from .. import a\nfrom pkg.sub import e as other\n",
        "pkg/sub/e.py": "from pkg import A_NAME\nimport os\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = import_graph(project_sources(tmp_path, ["pkg"]))
    assert graph == {
        "pkg": {"pkg.a": 1},
        "pkg.a": {"pkg.b": 3},
        "pkg.b": {"pkg.c": 2},
        "pkg.c": {"pkg.sub.d": 1},
        "pkg.sub": {},
        "pkg.sub.d": {"pkg.a": 1, "pkg.sub.e": 2},
        "pkg.sub.e": {"pkg": 1},
    }
    assert circles(graph) == [["pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.sub.d", "pkg.sub.e"]]
    assert circles({"x": {"y": 1}, "y": {}, "z": {"z": 1}}) == []
