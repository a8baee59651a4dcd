"""The execution cache: one folder per state of the code pages run against,
created before Sphinx's parallel readers start (src/jaxguide_site/
execution_cache.py)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from jupyter_cache import get_cache
from jupyter_cache.cache.main import JupyterCacheBase
from sphinx.testing.util import SphinxTestApp

from helpers import REPO, run_sphinx, site_app, tiny_project
from jaxguide_site.execution.cache import (
    CACHE_ENV,
    _trim_to_limit,
    create_cache,
    keyed_cache_folder,
)

StartSphinx = Callable[[], SphinxTestApp]
RACE = Path(__file__).with_name("cache_race.py")
TABLES = {"settings", "nbcache", "nbproject"}


@pytest.fixture
def repo_copy(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "src" / "jaxguide", tmp_path / "src" / "jaxguide")
    shutil.copytree(REPO / ".ci", tmp_path / ".ci")
    return tmp_path


def test_changing_the_package_or_the_pins_starts_a_new_cache(repo_copy: Path) -> None:
    first = keyed_cache_folder(repo_copy)
    assert first.parent == repo_copy / "build" / "jupyter_cache"
    assert keyed_cache_folder(repo_copy) == first  # nothing changed: same cache
    # A reader's kernel keeps its outputs apart from the toolchain's.
    assert keyed_cache_folder(repo_copy, "reader").name == f"{first.name}-reader"

    timing = repo_copy / "src" / "jaxguide" / "timing.py"
    timing.write_text(timing.read_text() + "\n# changed\n")
    second = keyed_cache_folder(repo_copy)
    assert second != first

    pins = repo_copy / ".ci" / "constraints.txt"
    pins.write_text(pins.read_text().replace("jax==", "jax>="))
    third = keyed_cache_folder(repo_copy)
    assert third not in {first, second}
    assert {first, second, third} <= set(
        (repo_copy / "build" / "jupyter_cache").iterdir()
    )


def test_ci_keys_its_saved_cache_with_the_builds_folder_name(tmp_path: Path) -> None:
    """CI runs cache_key.py as a script before anything is installed (-I: no
    site-packages, no PYTHONPATH) and keys its saved cache with what it
    prints: the name of the folder the build uses."""
    script = REPO / "src" / "jaxguide_site" / "execution" / "cache_key.py"
    shutil.copytree(REPO / "src" / "jaxguide", tmp_path / "src" / "jaxguide")
    shutil.copytree(REPO / ".ci", tmp_path / ".ci")
    copied = tmp_path / "src" / "jaxguide_site" / "execution" / "cache_key.py"
    copied.parent.mkdir(parents=True)
    shutil.copy(script, copied)
    printed = subprocess.run(
        [sys.executable, "-I", str(copied)], capture_output=True, text=True, check=True
    ).stdout
    assert printed == f"digest={keyed_cache_folder(tmp_path).name}\n"


def test_only_the_three_most_recent_caches_are_kept(repo_copy: Path) -> None:
    timing = repo_copy / "src" / "jaxguide" / "timing.py"
    seen = []
    for n in range(5):
        timing.write_text(timing.read_text() + f"\n# change {n}\n")
        seen.append(keyed_cache_folder(repo_copy))
    kept = set((repo_copy / "build" / "jupyter_cache").iterdir())
    assert kept == set(seen[-3:])


@pytest.fixture
def start_sphinx(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[StartSphinx]:
    """Starts a Sphinx application on a tiny project with the site's conf.py,
    up to the point where a build would fork its parallel readers. Its cache
    is ``tmp_path / "cache"`` unless the test named one."""
    apps: list[SphinxTestApp] = []

    def start() -> SphinxTestApp:
        if not os.environ.get(CACHE_ENV):
            monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
        srcdir = tiny_project(tmp_path / "src", pages=2)
        apps.append(site_app(srcdir, tmp_path / "out", lang="en", jobs=4))
        return apps[-1]

    yield start
    for app in apps:
        app.cleanup()


def test_the_environment_variable_names_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start_sphinx: StartSphinx
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    app = start_sphinx()
    assert app.config.nb_execution_cache_path == str(tmp_path / "mine")


@pytest.mark.slow
@pytest.mark.parametrize("attempt", range(3))
def test_parallel_readers_find_the_cache_created(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    start_sphinx: StartSphinx,
    attempt: int,
) -> None:
    """On a cold build, 16 processes opening the cache at one instant and
    each storing a notebook (what -j readers do) all succeed, and every
    notebook is in the cache afterwards.

    Without the main process creating the cache first, jupyter-cache creates
    its tables in whichever process comes first, and they fail with "table
    settings already exists" in nearly every attempt. Without deferring the
    trimming, a store deletes another's fresh record ("Notebook file does not
    exist for cache record") in most attempts.
    """
    del attempt
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    start_sphinx()
    race = subprocess.run(
        [sys.executable, str(RACE), str(cache), "--store", "--as-the-build"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert race.returncode == 0, race.stdout + race.stderr

    database = sqlite3.connect(f"file:{cache / 'global.db'}?mode=ro", uri=True)
    with closing(database) as db:
        tables = {row[0] for row in db.execute("select name from sqlite_master")}
    assert tables >= TABLES, "the cache was not created before the readers start"


def test_readers_store_without_trimming(
    monkeypatch: pytest.MonkeyPatch, start_sphinx: StartSphinx
) -> None:
    # An earlier Sphinx application in this process deferred it already.
    monkeypatch.setattr(JupyterCacheBase, "truncate_caches", _trim_to_limit)
    start_sphinx()
    assert JupyterCacheBase.truncate_caches is not _trim_to_limit


@pytest.mark.slow
def test_a_cold_build_with_four_readers_stores_every_page_then_trims(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "cache"
    create_cache(cache)
    get_cache(cache).change_cache_limit(4)
    srcdir = tiny_project(tmp_path / "src", pages=6)
    # In its own process: the readers are forked, and forking this one, where
    # other tests have started JAX's threads, could deadlock.
    result = run_sphinx(srcdir, tmp_path / "out", lang="en", cache=cache, jobs=4)
    log = result.stdout + result.stderr
    assert result.returncode == 0, log
    assert "6 notebook page(s) read: 6 executed" in log
    assert len(get_cache(cache).list_cache_records()) == 4  # trimmed at the end
