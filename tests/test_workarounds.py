"""The workarounds list (src/jaxguide_site/workarounds.toml) is whole and
current: every copied or filtered template is on it, every entry names real
places, and the upstream code each was written against has not changed.

Run as a script, it prints the [sha256] table for the installed upstream:
``.nox/tests/bin/python tests/test_workarounds.py``.
"""

from __future__ import annotations

import ast
import hashlib
import sys
import tomllib
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
LIST = REPO / "src" / "jaxguide_site" / "workarounds.toml"
TEMPLATES = REPO / "docs" / "_templates"


def _list() -> dict[str, Any]:
    return tomllib.loads(LIST.read_text(encoding="utf-8"))


def _entries() -> list[dict[str, Any]]:
    return list(_list()["workaround"])


def _origin(module: str) -> Path:
    spec = find_spec(module)
    if spec is None or spec.origin is None:
        pytest.fail(f"{module} is not installed: install the test environment")
    return Path(spec.origin)


def upstream_text(key: str) -> str:
    """The text of ``file:<package>:<path>`` or ``source:<module>:<name>``."""
    kind, module, name = key.split(":", 2)
    if kind == "file":
        return (_origin(module).parent / name).read_text(encoding="utf-8")
    # Read from the module's file, not the live object: a workaround may
    # have replaced it in this process (jupyter-cache's truncate_caches).
    source = _origin(module).read_text(encoding="utf-8")
    scope: list[ast.stmt] = ast.parse(source).body
    found: ast.stmt | None = None
    for part in name.split("."):
        found = next(
            (
                node
                for node in scope
                if isinstance(
                    node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
                )
                and node.name == part
            ),
            None,
        )
        assert found is not None, f"{module} has no {name}: upstream changed"
        scope = found.body  # type: ignore[attr-defined]
    segment = ast.get_source_segment(source, found) if found else None
    assert segment is not None
    return segment


def _keys(entry: dict[str, Any]) -> list[str]:
    return [f"file:{f}" for f in entry.get("files", [])] + [
        f"source:{s}" for s in entry.get("sources", [])
    ]


def sha256(key: str) -> str:
    return hashlib.sha256(upstream_text(key).encode()).hexdigest()


@pytest.mark.parametrize("entry", _entries(), ids=lambda entry: entry["id"])
def test_upstream_is_what_the_workaround_was_written_against(
    entry: dict[str, Any],
) -> None:
    recorded = _list()["sha256"]
    for key in _keys(entry):
        assert key in recorded, f"{entry['id']}: no sha256 recorded for {key}"
        assert sha256(key) == recorded[key], (
            f"{entry['id']}: {key} changed upstream since {entry['upstream']}. "
            f"Check {', '.join(entry['where'])} against it (re-copy a template and "
            "re-apply our change; check that a patch still fits), then record the "
            "new hash printed by `python tests/test_workarounds.py`"
        )


@pytest.mark.parametrize("entry", _entries(), ids=lambda entry: entry["id"])
def test_each_entry_names_real_places_and_a_drift_check(entry: dict[str, Any]) -> None:
    for field in ("id", "where", "works_around", "upstream"):
        assert entry.get(field), f"{entry.get('id')}: no {field}"
    for place in entry["where"]:
        assert (REPO / place).is_file(), f"{entry['id']}: {place} does not exist"
    assert _keys(entry) or entry.get("tests"), f"{entry['id']}: nothing catches a drift"
    for test in entry.get("tests", []):
        path, _, name = test.partition("::")
        assert (REPO / path).is_file(), f"{entry['id']}: {path} does not exist"
        if name:
            tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
            defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            assert name in defined, f"{entry['id']}: {path} has no {name}"


def test_every_template_is_ours_or_on_the_list() -> None:
    listed = {place for entry in _entries() for place in entry["where"]}
    own = {f"docs/_templates/{name}" for name in _list()["own_templates"]}
    templates = {p.relative_to(REPO).as_posix() for p in TEMPLATES.rglob("*.html")}
    unlisted = sorted(templates - listed - own)
    assert not unlisted, (
        f"{unlisted}: a template copied or filtered from a theme goes on "
        "src/jaxguide_site/workarounds.toml with its drift check; one of our "
        "own goes in its own_templates"
    )


def test_no_hash_is_recorded_for_nothing() -> None:
    used = {key for entry in _entries() for key in _keys(entry)}
    assert set(_list()["sha256"]) == used


if __name__ == "__main__":
    keys = sorted({key for entry in _entries() for key in _keys(entry)})
    sys.stdout.write("[sha256]\n")
    sys.stdout.writelines(f'"{key}" = "{sha256(key)}"\n' for key in keys)
