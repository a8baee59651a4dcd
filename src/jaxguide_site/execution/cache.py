"""The shared execution cache: which folder, and created before any reader starts.

Both languages point myst-nb at one jupyter-cache folder. jupyter-cache keys a
notebook on its code cells alone, so a change to the jaxguide package or to
the pinned versions would otherwise leave pages showing outputs of the old
code: each such state gets a folder of its own (a hash of ``src/jaxguide``
and ``.ci/constraints.txt``), and the few most recently used are kept, so
switching branches back and forth stays cheap. A build whose pages run in a
reader's Python (``JAXGUIDE_KERNEL=reader``, :mod:`.kernels`) has a folder
of its own, ``<digest>-reader``: it never shows outputs that another kernel
(``nox -s serve``'s, with the whole toolchain) produced. ``JAXGUIDE_NB_CACHE`` or
``-D nb_execution_cache_path=...`` name a folder instead.

jupyter-cache creates its SQLite database and tables lazily, in whichever
process opens the cache first. Under ``sphinx-build -j`` that is every
parallel reader at once, and on an empty cache two of them race to create
the same tables ("table settings already exists"). So the main process
creates the database completely at ``builder-inited``, before Sphinx forks
its readers; they then only open it.

Each store into the cache then also trims it to its size limit, in two
queries that are not atomic: a reader trimming while another stores deletes
the other's fresh record, and fails when that record's notebook is not yet on
disk ("Notebook file does not exist for cache record"). The readers therefore
store without trimming, and the main process trims once at the end of the
build, when no reader is left.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from jupyter_cache import get_cache
from jupyter_cache.cache.db import create_db
from jupyter_cache.cache.main import JupyterCacheBase
from sphinx.application import Sphinx
from sphinx.config import Config

from .cache_key import KERNEL_ENV, cache_digest

CACHE_ENV = "JAXGUIDE_NB_CACHE"
KEPT = 3  # cache folders kept: the current one and the two used before it


def keyed_cache_folder(repo: Path, kernel: str = "") -> Path:
    """``build/jupyter_cache/<digest>[-<kernel>]`` of ``repo``, marked as most
    recently used; older folders beyond the ``KEPT`` most recent are deleted."""
    root = repo / "build" / "jupyter_cache"
    current = root / "-".join(filter(None, [cache_digest(repo), kernel]))
    current.mkdir(parents=True, exist_ok=True)
    current.touch()
    others = sorted(
        (p for p in root.iterdir() if p.is_dir() and p != current),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for stale in others[KEPT - 1 :]:
        shutil.rmtree(stale, ignore_errors=True)
    return current


def create_cache(path: str | Path) -> None:
    """Create the cache folder, its database and every table, then close it.

    Safe to call on an existing cache (nothing is changed). The engine is
    disposed so that no SQLite connection is inherited by forked readers.
    """
    Path(path).mkdir(parents=True, exist_ok=True)
    create_db(path).dispose()


_trim_to_limit = JupyterCacheBase.truncate_caches


def defer_truncation() -> None:
    """Make every store into a jupyter-cache in this process (and in the
    readers it forks) skip the trimming; :func:`trim` does it later."""
    JupyterCacheBase.truncate_caches = lambda _cache: None


def trim(path: str | Path) -> None:
    """Trim the cache to its size limit (oldest records first), as
    jupyter-cache would after each store. Only safe with no reader running."""
    _trim_to_limit(get_cache(path))


def cache_folder(repo: Path) -> Path:
    """The cache a build of ``repo`` uses: ``JAXGUIDE_NB_CACHE`` if set, else
    the folder keyed on the helpers, the pins and the kernel."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return keyed_cache_folder(repo, os.environ.get(KERNEL_ENV, ""))


def _choose_folder(app: Sphinx, config: Config) -> None:
    if config.nb_execution_cache_path:
        return  # named on the command line (-D) or in conf.py
    config.nb_execution_cache_path = str(cache_folder(Path(app.confdir).parent))


def _create_before_readers(app: Sphinx) -> None:
    env = app.env
    nb_config = getattr(env, "mystnb_config", None)  # set by myst-nb just before
    if nb_config is None or nb_config.execution_mode != "cache":
        return
    create_cache(nb_config.execution_cache_path)


def trim_after_build(app: Sphinx, exception: Exception | None) -> None:
    nb_config = getattr(app.env, "mystnb_config", None)
    if exception is None and nb_config and nb_config.execution_mode == "cache":
        trim(nb_config.execution_cache_path)


def setup(app: Sphinx) -> None:
    defer_truncation()
    app.connect("config-inited", _choose_folder)
    # myst-nb resolves its configuration at builder-inited, priority 500.
    app.connect("builder-inited", _create_before_readers, priority=600)
