"""The modules of src/ import one way: no circle, not even one an import
inside a function or under ``TYPE_CHECKING`` closes. A circle means two
modules that cannot be read, tested or moved apart."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

from helpers import REPO

SRC = REPO / "src"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports, wherever it does."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names} & modules
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = (
                ".".join([*base, *filter(None, [node.module])])
                if node.level
                else node.module or ""
            )
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found |= {submodule if submodule in modules else target} & modules
    return found - {name}


def import_graph() -> dict[str, set[str]]:
    paths = sorted(SRC.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports(path, modules) for path in paths}


def test_src_has_no_import_circle() -> None:
    try:
        tuple(graphlib.TopologicalSorter(import_graph()).static_order())
    except graphlib.CycleError as error:
        pytest.fail(f"an import circle: {' -> '.join(error.args[1])}")


def test_a_circle_would_be_found() -> None:
    graph = import_graph()
    assert (
        "jaxguide_site.translation.report"
        in graph["jaxguide_site.translation.consistency"]
    )
    graph["jaxguide_site.translation.command"].add("jaxguide_site.translation.checker")
    with pytest.raises(graphlib.CycleError):
        tuple(graphlib.TopologicalSorter(graph).static_order())


def test_relative_imports_resolve_to_modules() -> None:
    graph = import_graph()
    assert graph["jaxguide.timing"] >= {"jaxguide._render", "jaxguide.ratios"}
    # `from . import x` and `from ..languages import y` both resolve.
    assert "jaxguide_site.languages" in graph["jaxguide_site.translation.report"]


# The translation check's stages, in the order its pipeline runs them.
STAGES = [
    f"jaxguide_site.translation.{stage}"
    for stage in ("reading", "states", "page_checks", "consistency")
]


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for module in graph[todo.pop()] - seen:
            seen.add(module)
            todo.append(module)
    return seen


def test_the_translation_checks_stages_run_one_way() -> None:
    """A stage uses what the stages before it made (their types), never a
    later stage: the data of the check flows one way."""
    graph = import_graph()
    for number, stage in enumerate(STAGES):
        later = set(STAGES[number + 1 :]) & _reaches(graph, stage)
        assert not later, f"{stage} reaches a later stage: {sorted(later)}"
    assert STAGES[0] in _reaches(graph, STAGES[-1])
