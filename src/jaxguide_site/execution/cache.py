"""The shared execution cache: which folder.

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

Only one process at a time executes pages and stores them (the pre-step,
:mod:`.prefill`, then Sphinx's main process, :mod:`.kernels`), so
jupyter-cache creates its tables and trims its records as it does on its
own: no parallel reader races another for them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

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


def setup(app: Sphinx) -> None:
    app.connect("config-inited", _choose_folder)
