"""ARCHITECTURE.md's map cannot go stale: it names every module of
src/jaxguide_site and every feature the extension sets up, and docs/conf.py
loads the site's tooling as one extension."""

from __future__ import annotations

import ast
import importlib
import re
from typing import TYPE_CHECKING, cast

import jaxguide_site
from helpers import REPO

if TYPE_CHECKING:
    from sphinx.application import Sphinx

TOOLING = REPO / "src" / "jaxguide_site"
MAP = REPO / "ARCHITECTURE.md"


def _mapped() -> set[str]:
    """The module paths the map's table names in its first column
    (``notebooks/`` for a package, ``notebooks/links.py`` for a module)."""
    names: set[str] = set()
    for line in MAP.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            first_column = line.split(" | ")[0]
            names |= set(re.findall(r"`([^`]+)`", first_column))
    return names


def _modules() -> set[str]:
    found = set()
    for path in TOOLING.rglob("*.py"):
        relative = path.relative_to(TOOLING)
        if path.name == "__init__.py" and relative.parent.parts:
            found.add(f"{relative.parent.as_posix()}/")
        else:
            found.add(relative.as_posix())
    return found


def test_the_map_names_every_module() -> None:
    missing = sorted(_modules() - _mapped())
    assert not missing, (
        f"ARCHITECTURE.md's map lacks {missing}: add a row saying what each does"
    )


def test_the_map_names_nothing_that_is_gone() -> None:
    gone = sorted(
        name for name in _mapped() - _modules() if not (TOOLING / name).exists()
    )
    assert not gone, f"ARCHITECTURE.md's map names modules that no longer exist: {gone}"


class _Recorder:
    """Stands in for Sphinx's application: records the extensions set up."""

    def __init__(self) -> None:
        self.extensions: list[str] = []

    def setup_extension(self, name: str) -> None:
        self.extensions.append(name)


def _set_up() -> list[str]:
    """The extensions ``jaxguide_site.setup()`` sets up, in order."""
    app = _Recorder()
    jaxguide_site.setup(cast("Sphinx", app))
    return app.extensions


def test_the_extension_sets_up_its_features_in_order() -> None:
    expected = [f"jaxguide_site.{feature}" for feature in jaxguide_site.FEATURES]
    assert _set_up() == expected, (
        "jaxguide_site.setup() must set up exactly jaxguide_site.FEATURES, "
        "which ARCHITECTURE.md maps: add a feature there, not beside it"
    )


def test_every_feature_is_a_mapped_module_with_its_own_setup() -> None:
    mapped = _mapped()
    for name in _set_up():
        feature = name.removeprefix("jaxguide_site.").replace(".", "/")
        assert f"{feature}/" in mapped or f"{feature}.py" in mapped, (
            f"ARCHITECTURE.md's map lacks the feature {name}: add its row"
        )
        assert callable(getattr(importlib.import_module(name), "setup", None)), (
            f"{name} has no setup(app)"
        )


def test_conf_py_loads_the_tooling_as_one_extension() -> None:
    conf = ast.parse((REPO / "docs" / "conf.py").read_text(encoding="utf-8"))
    extensions = next(
        ast.literal_eval(node.value)
        for node in conf.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "extensions" for t in node.targets)
    )
    ours = [name for name in extensions if name.split(".")[0] == "jaxguide_site"]
    assert ours == ["jaxguide_site"], (
        f"docs/conf.py loads {ours}: name only jaxguide_site, and add a feature "
        "to jaxguide_site.FEATURES"
    )
