"""The execution cache: one folder per state of the code pages run against
(src/jaxguide_site/execution/cache.py), filled by one process at a time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from helpers import REPO, run_sphinx, site_app, tiny_project
from jaxguide_site.execution.cache import CACHE_ENV, KEPT, keyed_cache_folder

StartSphinx = Callable[[], SphinxTestApp]


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
    # Four folders were used (the reader's too): the newest, at least, are kept.
    kept = set((repo_copy / "build" / "jupyter_cache").iterdir())
    assert third in kept
    assert len(kept) == KEPT


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
        apps.append(site_app(srcdir, tmp_path / "out", lang="en"))
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
def test_parallel_readers_refuse_to_execute_a_page(tmp_path: Path) -> None:
    """Pages execute before Sphinx reads them (execution/prefill.py), or in
    Sphinx's own process: readers executing side by side raced for the
    cache's tables and its trim, and shared the cores with measuring pages."""
    srcdir = tiny_project(tmp_path / "src", pages=2)
    cache = tmp_path / "cache"
    # In its own process: the readers are forked, and forking this one, where
    # other tests have started JAX's threads, could deadlock.
    result = run_sphinx(srcdir, tmp_path / "out", lang="en", cache=cache, jobs=2)
    assert result.returncode != 0
    assert "-j 2: a build with parallel readers executes no page" in result.stderr
    serial = run_sphinx(srcdir, tmp_path / "out", lang="en", cache=cache)
    assert serial.returncode == 0, serial.stdout + serial.stderr
    assert "2 notebook page(s) read: 2 executed" in serial.stdout


def test_a_forked_reader_that_still_executes_a_page_is_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The backstop where the check at the build's start was passed (told
    that the pre-step ran) but a page still executes in a reader."""
    import nbformat  # noqa: PLC0415

    from jaxguide_site.execution import kernels  # noqa: PLC0415

    monkeypatch.setattr(kernels._Readers, "main_pid", os.getpid() + 1)
    with pytest.raises(RuntimeError, match="a parallel reader was about to execute"):
        kernels.execute(nbformat.v4.new_notebook())
