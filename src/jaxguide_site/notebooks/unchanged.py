"""Which notebook downloads a rebuild can leave as they are.

Writing a page's notebook reads the page and its cached outputs again and
converts its prose: about a quarter of a second a page, 7 of the 9 seconds of
a rebuild in which nothing changed. A notebook is left alone when its file is
there and its key is the one it was written with. The key covers what reaches
the notebook: the page's source and labels, the execution cache's records,
the build's settings (the site's address, the repository and the ref Colab
installs), the language's interface text, and the code that writes it. A
build that read a page or lost one writes every notebook: a page's links
resolve against the labels of every page. A notebook whose writing warned is
written again next time, so that its warning is not lost.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from jupyter_cache import get_cache
from sphinx.application import Sphinx

from .. import output_labels

KEYS_FILE = "notebook-downloads.json"  # in the doctree folder, not published
_PAGES_READ: WeakKeyDictionary[Sphinx, bool] = WeakKeyDictionary()


def note_pages_read(app: Sphinx, _env: object, docnames: list[str]) -> None:
    """At ``env-before-read-docs``: whether this build reads any page."""
    _PAGES_READ[app] = bool(docnames)


@cache
def _code() -> str:
    """The sources that write a notebook, and the versions of what they call."""
    sources = sorted(Path(__file__).parent.glob("*.py"))
    sources.append(Path(output_labels.__file__))
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.read_bytes())
    for package in ("myst-nb", "nbformat", "jupyter-cache"):
        digest.update(version(package).encode())
    return digest.hexdigest()


def _digest(parts: Iterable[object]) -> str:
    return hashlib.sha256(repr(tuple(parts)).encode()).hexdigest()


class Unchanged:
    """The keys of the notebooks one build writes, and those it may skip."""

    def __init__(self, app: Sphinx, settings: Iterable[object]) -> None:
        env: Any = app.env  # myst-nb keeps its configuration on the environment
        config = env.mystnb_config
        self.env = app.env
        self.file = Path(app.doctreedir) / KEYS_FILE
        self.outdir = Path(app.outdir)
        self.keys: dict[str, str] = {}
        self.earlier: dict[str, str] = {}
        if config.execution_mode != "cache":
            self.shared = ""
            return  # outputs from myst-nb's executed copies: always written
        records = sorted(
            (record.pk, record.hashkey, str(record.created))
            for record in get_cache(config.execution_cache_path).list_cache_records()
        )
        self.shared = _digest([_code(), records, sorted(app.env.found_docs), *settings])
        if not _PAGES_READ.get(app, True) and self.file.is_file():
            self.earlier = json.loads(self.file.read_text(encoding="utf-8"))

    def key(self, docname: str, *page: object) -> str:
        source = Path(self.env.doc2path(docname)).read_bytes()
        return _digest([self.shared, docname, source, *page])

    def is_current(self, docname: str, key: str) -> bool:
        notebook = self.outdir / f"{docname}.ipynb"
        return self.earlier.get(docname) == key and notebook.is_file()

    def written(self, docname: str, key: str) -> None:
        if self.shared:
            self.keys[docname] = key

    def save(self) -> None:
        if self.shared:
            self.file.write_text(json.dumps(self.keys, indent=1), encoding="utf-8")
