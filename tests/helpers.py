"""Paths and a Sphinx runner shared by the tests (importable: tests/ is on pythonpath)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sphinx.testing.util import SphinxTestApp

from jaxguide_site.languages import LANGUAGES
from jaxguide_site.site_build import STRICT as SPHINX_STRICT  # the site's flags
from jaxguide_site.translation.pages import guide_pages

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

REPO = Path(__file__).resolve().parents[1]
# The project's docs folder: the site's configuration (conf.py), with which
# every build is made, and where the project's scripts write.
PROJECT_DOCS = REPO / "docs"
# The docs folder whose pages the tests read: the project's, or a copy of it
# named by this variable (tests/test_page_in_progress.py runs the tests that
# walk the pages over a copy with a page in progress).
DOCS_VARIABLE = "JAXGUIDE_TEST_DOCS"
DOCS = Path(os.environ.get(DOCS_VARIABLE) or PROJECT_DOCS).resolve()
# Each language's pages, as the translation checker and the site see them:
# take every page list from here, never from a glob of docs/<lang>.
GUIDE_PAGES = guide_pages(DOCS)
# `nox -s docs` writes one Sphinx build per language into build/sphinx/<lang>/html
# (myst-nb's executed notebooks beside it, in build/sphinx/<lang>/jupyter_execute),
# then lays them out as the published site in build/html: /<lang>/<version>/
# (/<lang>/stable/ only once a release is published), the root page
# (src/jaxguide_site/publishing/publish.py).
SITE = REPO / "build" / "html"
ROOTS = Path(__file__).resolve().parent / "roots"  # sample projects (README there)
BUILT = REPO / "build" / "sphinx"
# The front matter of a MyST text notebook, as every page of the site has it.
NOTEBOOK_FRONT_MATTER = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
  language: python
---
"""


def written_in_each_language(names: Iterable[str]) -> list[ParameterSet]:
    """pytest's parameters ``lang, name``: each of ``names`` in each language
    it is written in (a page in progress has only a stand-in in the other,
    which is not a teaching page), with the ids ``<name>-<lang>``."""
    return [
        pytest.param(lang, name, id=f"{name}-{lang}")
        for name in names
        for lang in LANGUAGES
        if name in GUIDE_PAGES.written[lang]
    ]


def built_version(built: Path = BUILT) -> str:
    """The guide version the last `nox -s docs` built ("dev" unless released)."""
    manifest = built / "ko" / "html" / "jaxguide-build.json"
    return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])


def run_sphinx(
    srcdir: Path,
    outdir: Path,
    *,
    lang: str,
    cache: Path,
    builder: str = "html",
    env: dict[str, str] | None = None,
    jobs: int = 1,
    extra: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """Build ``srcdir`` with the site's real docs/conf.py, as noxfile.py does;
    ``env`` adds environment variables (JAXGUIDE_VERSION, ...); ``jobs``
    parallel readers; ``extra``: more sphinx-build arguments."""
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        builder,
        "-c",
        str(PROJECT_DOCS),
        "-D",
        f"language={lang}",
        "-D",
        f"nb_execution_cache_path={cache}",
        "-d",
        str(outdir / ".doctrees"),
        *SPHINX_STRICT,
        *(["-j", str(jobs)] if jobs > 1 else []),
        *extra,
        str(srcdir),
        str(outdir / builder),
    ]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


@dataclass(frozen=True)
class BuildResult:
    """What a build reports, named as a finished ``sphinx-build`` process's."""

    returncode: int
    stdout: str  # Sphinx's status messages
    stderr: str  # its warnings and errors


# A sample project's conf.py: the site's real one, run as if it were there.
SITE_CONF = f"""\
from pathlib import Path

__file__ = {str(PROJECT_DOCS / "conf.py")!r}
exec(compile(Path(__file__).read_text(encoding="utf-8"), __file__, "exec"))
"""


def site_app(
    srcdir: Path,
    builddir: Path,
    *,
    lang: str,
    builder: str = "html",
    jobs: int = 1,
    overrides: dict[str, str] | None = None,
) -> SphinxTestApp:
    """A Sphinx application (sphinx.testing's) for ``srcdir`` with the site's
    docs/conf.py and strictness: a warning fails the build, as ``-W -n
    --keep-going`` do. Call its ``cleanup()`` when done: it undoes what the
    extensions registered globally, so the next application starts clean."""
    (srcdir / "conf.py").write_text(SITE_CONF, encoding="utf-8")
    return SphinxTestApp(
        builder,
        srcdir=srcdir,
        builddir=builddir,
        confoverrides={"language": lang, **(overrides or {})},
        warningiserror=True,
        parallel=jobs if jobs > 1 else 0,
    )


def build_project(
    srcdir: Path,
    outdir: Path,
    *,
    lang: str,
    cache: Path,
    builder: str = "html",
    jobs: int = 1,
    execute: bool = True,
    env: dict[str, str] | None = None,
) -> BuildResult:
    """Build ``srcdir`` in this process with the site's configuration
    (:func:`site_app`). ``execute=False`` renders code cells without running
    them; ``jobs`` parallel readers; ``env`` sets environment variables while
    conf.py reads them (JAXGUIDE_VERSION, ...). The output goes to
    ``outdir / builder``, where :func:`run_sphinx` writes it too."""
    overrides = {"nb_execution_cache_path": str(cache)}
    if not execute:
        overrides["nb_execution_mode"] = "off"
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        app = site_app(
            srcdir, outdir, lang=lang, builder=builder, jobs=jobs, overrides=overrides
        )
    try:
        app.build()
    finally:
        app.cleanup()
    return BuildResult(app.statuscode, app.status.getvalue(), app.warning.getvalue())


def sample_project(name: str, dest: Path) -> Path:
    """A copy of the sample project ``tests/roots/<name>`` in ``dest``, to build
    and edit without touching the original."""
    shutil.copytree(ROOTS / name, dest)
    return dest


def build_each_language(
    root: Path, langs: Iterable[str], env: dict[str, str] | None = None
) -> Path:
    """A sample project copied to ``root`` (:func:`sample_project`) built in
    each of ``langs`` into ``root.parent / "out" / <lang>``, one execution
    cache for all; a failed build fails the test. Returns the ``out`` folder."""
    out = root.parent / "out"
    for lang in langs:  # every source folder exists: each build sees the others
        result = build_project(
            root / lang, out / lang, lang=lang, cache=root.parent / "cache", env=env
        )
        assert result.returncode == 0, result.stdout + result.stderr
    return out


def built_page(out: Path, lang: str, page: str) -> str:
    """The HTML of ``page`` in ``lang``'s build under ``out``
    (:func:`build_each_language`)."""
    return (out / lang / "html" / f"{page}.html").read_text(encoding="utf-8")


def tiny_project(srcdir: Path, pages: int) -> Path:
    """A project of ``pages`` notebook pages with one quick cell each (an
    index with a toctree and ``page1`` ...), in ``srcdir``."""
    srcdir.mkdir(parents=True, exist_ok=True)
    names = [f"page{n}" for n in range(1, pages)]
    toctree = "```{toctree}\n" + "\n".join(names) + "\n```\n"
    for name in ["index", *names]:
        title = "Tiny" if name == "index" else name
        text = (
            f"{NOTEBOOK_FRONT_MATTER}\n# {title}\n\n"
            f"```{{code-cell}} ipython3\nprint({name!r})\n```\n"
        )
        if name == "index":
            text += "\n" + toctree
        (srcdir / f"{name}.md").write_text(text, encoding="utf-8")
    return srcdir
