"""The package's layers hold: every module imports, the modules import each other without a
circle, and no import hides inside a function (the usual way to dodge a circle)."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Dict, List, Set

import catfacts

PACKAGE = Path(catfacts.__file__).parent
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py"))


def tree(module: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{module}.py").read_text(), filename=f"{module}.py")


def package_imports(module: str) -> Set[str]:
    """The package's modules that ``module`` imports, wherever the import stands (under
    ``if TYPE_CHECKING:`` too: such an import still ties the two modules together)."""
    found: Set[str] = set()
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module is None:  # from . import _call
                found.update(alias.name for alias in node.names)
            else:
                found.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("catfacts."):
            found.add((node.module or "").split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[1] for alias in node.names if alias.name.startswith("catfacts."))
    return found - {module}


def cycle(graph: Dict[str, Set[str]]) -> List[str]:
    """A circle of imports in ``graph`` (the modules in it, the first repeated at the end), or []."""
    done: Set[str] = set()
    path: List[str] = []

    def visit(module: str) -> List[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        path.append(module)
        for imported in sorted(graph[module]):
            found = visit(imported)
            if found:
                return found
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        found = visit(module)
        if found:
            return found
    return []


def test_every_module_of_the_package_imports() -> None:
    assert {"client", "aio", "lists", "search", "_convert", "_config", "_pages", "_mailbox"} <= set(MODULES)
    for module in MODULES:
        importlib.import_module(f"catfacts.{module}" if module != "__init__" else "catfacts")


def test_the_modules_import_each_other_without_a_circle() -> None:
    graph = {module: package_imports(module) for module in MODULES}
    assert all(imported in graph for imports in graph.values() for imported in imports), graph
    assert cycle(graph) == []


def test_the_cycle_check_finds_a_circle() -> None:
    assert cycle({"client": {"lists"}, "lists": {"search"}, "search": {"client"}}) == [
        "client", "lists", "search", "client"]
    assert cycle({"client": {"lists", "search"}, "lists": {"_convert"}, "search": {"_convert"}, "_convert": set()}) == []


def test_the_leaves_import_nothing_above_them() -> None:
    """Conversion and configuration sit under every front: they know only errors and models."""
    assert package_imports("_convert") <= {"errors", "models"}
    assert package_imports("_config") <= {"_convert"}
    assert package_imports("models") <= {"errors"}


def test_lists_and_searches_are_built_without_the_client() -> None:
    for module in ("lists", "search", "_pages", "_mailbox", "_call", "_connection"):
        assert not package_imports(module) & {"client", "aio"}, module


def test_no_import_stands_inside_a_function() -> None:
    inside = [f"{module}.py:{node.lineno}"
              for module in MODULES
              for function in ast.walk(tree(module)) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
              for node in ast.walk(function) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert inside == []
