"""A page that measures executes alone: no other page executes meanwhile.

The build reads pages in parallel (``sphinx-build -j``), and each reader may
run a notebook kernel, so timing tables measured during a build would share
the cores with other pages' kernels. A page that times code says so in its
front matter::

    jaxguide:
      measures: true

Every page holds a lock on one file beside the execution cache while it is
read (from Sphinx's ``source-read`` to its ``doctree-read``, which is when
myst-nb executes it): shared for an ordinary page, exclusive for a measuring
one (``fcntl.flock``). A measuring page therefore waits for the pages being
executed to finish, and no other page starts until it is done; the other
pages still execute side by side. Its kernel is started with
:data:`jaxguide.site.MEASURED_ALONE_ENV` set, so that its tables' captions
say so.

Each hold is appended to ``<doctree folder>/measuring-log.jsonl`` (page,
shared or exclusive, when it was acquired and released), which each build
that reads pages starts anew: the evidence the tests read. A page that calls jaxguide's ``benchmark`` or ``compare``
without the declaration fails the build (a warning, under ``-W``), naming
the page.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from jaxguide.site import MEASURED_ALONE_ENV

from ..page_structure import PageError, PageStructure, read

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

try:
    import fcntl
except ImportError:  # Windows: Sphinx reads in one process there anyway
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

LOCK_NAME = "measuring.lock"
LOG_NAME = "measuring-log.jsonl"
TIMING_CALL = re.compile(r"\b(benchmark|compare)\(")


def declares_measuring(source: str) -> bool:
    """Whether the page's front matter says ``jaxguide: {measures: true}``.

    >>> declares_measuring("---\\njaxguide:\\n  measures: true\\n---\\n# Page\\n")
    True
    >>> declares_measuring("# Page\\n")
    False
    """
    page = _structure(source)
    settings = page.front_matter.data.get("jaxguide") if page else None
    return isinstance(settings, dict) and settings.get("measures") is True


def times_code(source: str) -> bool:
    """Whether a code cell of the page calls ``benchmark(`` or ``compare(``."""
    cells = page.cells if (page := _structure(source)) else []
    return any(c.kind == "code" and TIMING_CALL.search(c.source) for c in cells)


def _structure(source: str) -> PageStructure | None:
    """The page read, or ``None`` where it cannot be: myst-nb, reading it
    next, reports that at its line (this must not crash the build first)."""
    try:
        return read(source)
    except PageError:
        return None


class _Hold:
    """This process's hold on the lock, if any (one per reader process)."""

    fd: int | None = None
    pid: int | None = None
    page: str = ""
    exclusive: bool = False
    acquired: float = 0.0


def _paths(app: Sphinx) -> tuple[Path, Path] | None:
    """The lock file and the log, or ``None`` when this build executes nothing."""
    nb_config = getattr(app.env, "mystnb_config", None)
    if nb_config is None or nb_config.execution_mode not in {"cache", "force"}:
        return None
    cache = Path(nb_config.execution_cache_path or app.outdir)
    return cache / LOCK_NAME, Path(app.doctreedir) / LOG_NAME


def _start_log(app: Sphinx, _env: BuildEnvironment, docnames: list[str]) -> None:
    """A build that reads pages starts a new log; one that reads none (the
    doctest builder after the HTML one, sharing its doctrees) keeps it."""
    paths = _paths(app)
    if paths is not None and docnames:
        paths[0].parent.mkdir(parents=True, exist_ok=True)
        paths[1].parent.mkdir(parents=True, exist_ok=True)
        paths[1].write_text("", encoding="utf-8")


def _acquire(app: Sphinx, docname: str, source: list[str]) -> None:
    paths = _paths(app)
    if paths is None or fcntl is None:
        return
    text = source[0]
    measures = declares_measuring(text)
    if not measures and times_code(text):
        logger.warning(
            "%s times code (benchmark or compare) but its front matter does not "
            "declare it: add 'jaxguide:' with 'measures: true' so that the build "
            "executes it with no other page executing",
            app.env.doc2path(docname),
            location=docname,
        )
    if _Hold.fd is not None and _Hold.pid == os.getpid():
        _release(app)  # a page whose reading failed before doctree-read
    # Each reader process opens its own file: flock belongs to the open file,
    # and a descriptor inherited across fork would be one lock for them all.
    _Hold.fd = os.open(paths[0], os.O_RDWR | os.O_CREAT, 0o644)
    _Hold.pid = os.getpid()
    fcntl.flock(_Hold.fd, fcntl.LOCK_EX if measures else fcntl.LOCK_SH)
    _Hold.page, _Hold.exclusive, _Hold.acquired = docname, measures, time.time()
    if measures:
        os.environ[MEASURED_ALONE_ENV] = "1"  # the kernel inherits it
    else:
        os.environ.pop(MEASURED_ALONE_ENV, None)


def _release(app: Sphinx, *_: object) -> None:
    if _Hold.fd is None or _Hold.pid != os.getpid():
        return
    released = time.time()
    os.environ.pop(MEASURED_ALONE_ENV, None)
    os.close(_Hold.fd)  # closing the file releases the lock
    _Hold.fd = None
    paths = _paths(app)
    if paths is not None:
        entry = {
            "page": _Hold.page,
            "exclusive": _Hold.exclusive,
            "acquired": _Hold.acquired,
            "released": released,
            "pid": os.getpid(),
        }
        with paths[1].open("a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")


def read_log(doctree_dir: Path) -> list[dict[str, Any]]:
    """The holds a build logged in ``doctree_dir``, in the order released."""
    path = doctree_dir / LOG_NAME
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line]


def overlaps_with_measuring(holds: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Pairs (measuring page, other page) whose holds overlapped in time.

    >>> a = {"page": "a", "exclusive": True, "acquired": 0.0, "released": 2.0}
    >>> b = {"page": "b", "exclusive": False, "acquired": 1.0, "released": 3.0}
    >>> c = {"page": "c", "exclusive": False, "acquired": 2.0, "released": 4.0}
    >>> overlaps_with_measuring([a, b, c])
    [('a', 'b')]
    """
    found = []
    for alone in (hold for hold in holds if hold["exclusive"]):
        for other in holds:
            if other is alone:
                continue
            if (
                other["acquired"] < alone["released"]
                and alone["acquired"] < other["released"]
            ):
                found.append((alone["page"], other["page"]))
    return found


def _doctree_read(app: Sphinx, _doctree: object) -> None:
    _release(app)


def _env_updated(app: Sphinx, _env: BuildEnvironment) -> None:
    _release(app)  # serial reading: the last page's hold


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", _start_log)
    app.connect("source-read", _acquire)
    app.connect("doctree-read", _doctree_read)
    app.connect("env-updated", _env_updated)
