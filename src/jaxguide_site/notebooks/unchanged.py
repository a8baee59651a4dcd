"""Which notebook downloads a rebuild can leave as they are.

Writing a page's notebook reads the page and its cached outputs again and
converts its prose: about a quarter of a second a page, 7 of the 9 seconds of
a rebuild in which nothing changed. A notebook is left alone when its file is
there and its key is the one it was written with. The key covers what reaches
the notebook: the page's source and labels, the execution cache's records,
the build's settings (the site's address, the repository and the ref Colab
installs), the language's interface text, and the code that writes it. A
build that read a page or lost one writes every notebook: a page's links
resolve against the labels of every page, so reading one removes the keys
(on disk: a build that fails after reading, or a doctest build reading into
the same doctree folder, leaves none behind). A notebook whose writing warned
is written again next time, so that its warning is not lost.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from jupyter_cache import get_cache
from sphinx.application import Sphinx

from .. import output_labels, page_structure
from ..interface_text import messages

KEYS_FILE = "notebook-downloads.json"  # in the doctree folder, not published
# What converts a page into its notebook, besides this package's modules.
CODE = (output_labels, page_structure, messages)
PACKAGES = (
    "sphinx",  # resolves the links
    "myst-nb",
    "myst-parser",
    "markdown-it-py",
    "mdit-py-plugins",
    "nbformat",
    "jupyter-cache",
)


def forget_keys(app: Sphinx, _env: object, docnames: list[str]) -> None:
    """At ``env-before-read-docs``: a build that reads a page writes every
    notebook again."""
    if docnames:
        (Path(app.doctreedir) / KEYS_FILE).unlink(missing_ok=True)


@cache
def _code() -> str:
    """The sources that write a notebook, and the versions of what they call."""
    sources = sorted(Path(__file__).parent.glob("*.py"))
    sources += [Path(str(module.__file__)) for module in CODE]
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.read_bytes())
    for package in PACKAGES:
        digest.update(version(package).encode())
    return digest.hexdigest()


def _earlier_keys(file: Path) -> dict[str, str]:
    """The keys the last build wrote; none where it wrote none or the file
    does not read (a build stopped while writing it)."""
    try:
        keys = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return keys if isinstance(keys, dict) else {}


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
        # Outputs from myst-nb's executed copies (a forced execution): always
        # written, no keys kept.
        self.keyed = config.execution_mode == "cache"
        if not self.keyed:
            self.shared = ""
            return
        records = sorted(
            (record.pk, record.hashkey, str(record.created))
            for record in get_cache(config.execution_cache_path).list_cache_records()
        )
        self.shared = _digest([_code(), records, sorted(app.env.found_docs), *settings])
        self.earlier = _earlier_keys(self.file)

    def key(self, docname: str, *page: object) -> str:
        source = Path(self.env.doc2path(docname)).read_bytes()
        return _digest([self.shared, docname, source, *page])

    def is_current(self, docname: str, key: str) -> bool:
        notebook = self.outdir / f"{docname}.ipynb"
        return self.earlier.get(docname) == key and notebook.is_file()

    def written(self, docname: str, key: str) -> None:
        if self.keyed:
            self.keys[docname] = key

    def save(self) -> None:
        if self.keyed:
            partial = self.file.with_suffix(".partial")
            partial.write_text(json.dumps(self.keys, indent=1), encoding="utf-8")
            partial.replace(self.file)
