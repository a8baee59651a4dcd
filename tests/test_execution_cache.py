"""The execution cache follows the code pages run against, not only their cells."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

import pytest

from helpers import REPO


def cache_path(repo: Path) -> Path:
    """Where docs/conf.py of ``repo`` points myst-nb's cache."""
    return Path(
        runpy.run_path(str(repo / "docs" / "conf.py"))["nb_execution_cache_path"]
    )


@pytest.fixture
def repo_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("JAXGUIDE_NB_CACHE", raising=False)
    (tmp_path / "docs").mkdir()
    shutil.copy2(REPO / "docs" / "conf.py", tmp_path / "docs" / "conf.py")
    shutil.copytree(REPO / "src" / "jaxguide", tmp_path / "src" / "jaxguide")
    shutil.copytree(REPO / ".ci", tmp_path / ".ci")
    return tmp_path


def test_changing_the_package_or_the_pins_starts_a_new_cache(repo_copy: Path) -> None:
    first = cache_path(repo_copy)
    assert first.parent == repo_copy / "build" / "jupyter_cache"
    assert cache_path(repo_copy) == first  # nothing changed: same cache

    timing = repo_copy / "src" / "jaxguide" / "timing.py"
    timing.write_text(timing.read_text() + "\n# changed\n")
    second = cache_path(repo_copy)
    assert second != first

    pins = repo_copy / ".ci" / "constraints.txt"
    pins.write_text(pins.read_text().replace("jax==", "jax>="))
    third = cache_path(repo_copy)
    assert third not in {first, second}
    assert {first, second, third} <= set(
        (repo_copy / "build" / "jupyter_cache").iterdir()
    )


def test_only_the_three_most_recent_caches_are_kept(repo_copy: Path) -> None:
    timing = repo_copy / "src" / "jaxguide" / "timing.py"
    seen = []
    for n in range(5):
        timing.write_text(timing.read_text() + f"\n# change {n}\n")
        seen.append(cache_path(repo_copy))
    kept = set((repo_copy / "build" / "jupyter_cache").iterdir())
    assert kept == set(seen[-3:])


def test_an_explicit_cache_folder_wins(
    repo_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JAXGUIDE_NB_CACHE", str(repo_copy / "mine"))
    assert cache_path(repo_copy) == repo_copy / "mine"
