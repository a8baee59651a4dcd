"""Every notebook page as an executed ``.ipynb``, a download and an Open-in-Colab link.

After each HTML build, each page that myst-nb reads as a notebook is written
next to its HTML as ``<page>.ipynb``: the page's own cells (its prose in the
page's language), with the outputs of the execution the page shows (from the
shared jupyter-cache, so a page that was not re-read gets one too), without
the cells only the build needs (:mod:`.reader`); a rebuild writes again only
the notebooks whose inputs changed (:mod:`.unchanged`). Its first
cell, added here, installs ``jaxguide`` from the repository at this version
when it runs in Colab without it, and does nothing anywhere else.

The publish step copies the notebooks with the pages, so they are on the
``gh-pages`` branch as ``<lang>/<version>/<page>.ipynb``, which is where the
Colab button points: Colab opens notebooks from GitHub. The repository is
``jaxguide_repository`` (docs/conf.py; the JAXGUIDE_REPOSITORY or
GITHUB_REPOSITORY environment variable in a fork).

Under each notebook page's title are two labelled buttons, "Open in Colab"
and "Download this notebook", and a short note: the first cell shows where it
was executed, and timings differ on the reader's own device. A page a preview
shows without outputs has the preview's banner instead of the note.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import nbformat
from jupyter_cache import get_cache
from myst_nb.core.read import create_nb_reader
from sphinx.application import Sphinx
from sphinx.util import logging

from ..execution.preview import shown_without_outputs
from ..interface_text.catalog import _
from ..output_labels import Labels, notebook_in_language, page_labels
from ..publishing.build_info import git_commit
from ..publishing.site_address import DEV
from .links import PageLinks, admonition_titles, site_root
from .markdown import Conversion
from .reader import BUILD_ONLY_TAG, for_readers, needs_build_only_names
from .unchanged import Unchanged, forget_keys

logger = logging.getLogger(__name__)

COLAB = "https://colab.research.google.com/github/{repository}/blob/gh-pages/{lang}/{version}/{page}.ipynb"
SETUP_TAG = "jaxguide-colab-setup"
SETUP_CELL = """\
# In Colab: install this guide's helpers (jaxguide) at the version of this page.
# Anywhere else, or where jaxguide is installed already, this cell does nothing.
import importlib.util
import sys

if "google.colab" in sys.modules and importlib.util.find_spec("jaxguide") is None:
    %pip install --quiet "jaxguide @ git+https://github.com/{repository}@{ref}"
"""
TEXT = {
    "colab": _("Open in Colab"),
    "download": _("Download this notebook"),
    # Short: on a phone the longer note put the lesson 480 px down.
    "note": _(
        "Every cell ran when the site was built; the first output names the "
        "JAX and the device. Timings are that device's: run it yourself with "
        "the buttons above."
    ),
}


def _text() -> dict[str, str]:
    return {name: str(message) for name, message in TEXT.items()}


def colab_url(app: Sphinx, page: str) -> str:
    """Colab's address for this build's notebook of ``page``: always its own
    version's folder, so a ``stable/`` copy of release 0.2 opens 0.2's
    notebook (the same file as its download), and dev's opens dev's."""
    return COLAB.format(
        repository=app.config.jaxguide_repository,
        lang=app.config.language,
        version=app.config.release,
        page=page,
    )


def _install_ref(app: Sphinx) -> str:
    """The git ref a reader's Colab installs jaxguide from: the release tag,
    or on dev the commit that was built (main where git is unavailable)."""
    if app.config.release != DEV:
        return f"v{app.config.release}"
    return git_commit(Path(app.confdir)) or "main"


def _read(app: Sphinx, docname: str) -> nbformat.NotebookNode | None:
    """The page as myst-nb reads it, or None if it is not a notebook."""
    env: Any = app.env  # myst-nb keeps its configuration on the environment
    path = env.doc2path(docname)
    text = Path(path).read_text(encoding="utf-8")
    reader = create_nb_reader(str(path), env.myst_config, env.mystnb_config, text)
    return None if reader is None else reader.read(text)


def executed_notebook(
    app: Sphinx, docname: str
) -> tuple[nbformat.NotebookNode, bool] | None:
    """The page as a notebook with the outputs of its execution, and whether
    they were found (None if the page is not a notebook).

    In cache mode (the site's) they come from the shared jupyter-cache, which
    has them whether or not this build re-read the page; otherwise (a forced
    execution) from the executed copy myst-nb writes beside the output folder.
    """
    notebook = _read(app, docname)
    if notebook is None:
        return None
    env: Any = app.env
    if env.mystnb_config.execution_mode != "cache":
        executed = Path(app.outdir).parent / "jupyter_execute" / f"{docname}.ipynb"
        if executed.is_file():
            forced: nbformat.NotebookNode = nbformat.read(executed, as_version=4)
            return forced, True
    else:
        cache = get_cache(env.mystnb_config.execution_cache_path)
        try:
            _, merged = cache.merge_match_into_notebook(notebook)
        except KeyError:
            pass
        else:
            return merged, True
    return notebook, False


def with_setup_cell(
    app: Sphinx, notebook: nbformat.NotebookNode
) -> nbformat.NotebookNode:
    source = SETUP_CELL.format(
        repository=app.config.jaxguide_repository, ref=_install_ref(app)
    )
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": [SETUP_TAG]})
    notebook.cells.insert(0, cell)
    notebook.metadata.pop("source_map", None)
    return notebook


def _myst_extensions(app: Sphinx) -> set[str]:
    env: Any = app.env  # myst-parser keeps its configuration on the environment
    extensions: set[str] = env.myst_config.enable_extensions
    return extensions


def _warn(docname: str, message: str, warned: list[str]) -> None:
    warned.append(message)
    logger.warning(
        "%s: %s",
        docname,
        message,
        location=docname,
        type="jaxguide",
        subtype="downloads",
    )


def write_notebooks(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    lang = app.config.language
    unchanged = Unchanged(
        app,
        [
            site_root(app),
            app.config.jaxguide_repository,
            _install_ref(app),
            lang,
            sorted(admonition_titles().items()),
        ],
    )
    for docname in sorted(app.env.found_docs):
        if not app.env.metadata[docname].get("kernelspec"):
            continue  # not a notebook
        # Measured code's labels and jaxguide's outputs in the page's language.
        labels = Labels.of(page_labels(app.env.metadata[docname]), lang)
        key = unchanged.key(docname, sorted(labels.mapping.items()))
        if unchanged.is_current(docname, key) or _write_notebook(app, docname, labels):
            unchanged.written(docname, key)
    unchanged.save()


def _write_notebook(app: Sphinx, docname: str, labels: Labels) -> bool:
    """Write the page's notebook, if it is one; whether it wrote one without a
    warning (one that warned is written again next time, warning again)."""
    executed = executed_notebook(app, docname)
    if executed is None:
        return False
    notebook, found = executed
    warned: list[str] = []

    def problem(message: str) -> None:
        _warn(docname, f"{message}; its .ipynb keeps it as written", warned)

    if not found:
        _warn(
            docname,
            "no executed copy found; its .ipynb download has no outputs",
            warned,
        )
    for index, names in needs_build_only_names(notebook.cells):
        opening = notebook.cells[index].source.strip().splitlines()[0]
        _warn(
            docname,
            f"the cell {opening!r} reads {', '.join(names)}, which only cells "
            f"tagged {BUILD_ONLY_TAG} define: the downloaded notebook leaves "
            "those out and would fail there; define them in a cell readers keep",
            warned,
        )
    lang = app.config.language
    notebook = notebook_in_language(notebook, lang, labels)
    conversion = Conversion(
        link=PageLinks(app, docname),
        titles=admonition_titles(),
        problem=problem,
        extensions=frozenset(_myst_extensions(app)),
    )
    notebook = for_readers(notebook, problem, lang=lang, conversion=conversion)
    notebook = with_setup_cell(app, notebook)
    # nbformat 4.5 wants cell ids; the readers' are random, and the same
    # page must give the same notebook in every build.
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{index}"
    target = Path(app.outdir) / f"{docname}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(nbformat.writes(notebook), encoding="utf-8")
    return not warned


def run_buttons(colab: str, notebook: str) -> str:
    """The page's labelled "Open in Colab" and "Download this notebook"
    buttons: text a reader sees, not icons in a closed menu. The notebook is a
    download (``download``), not JSON opened in a tab; Pagefind leaves the
    buttons out of the index (the same words on every notebook page)."""
    text = _text()
    filename = notebook.rsplit("/", 1)[-1]
    return (
        '<div class="jaxguide-run-buttons" data-pagefind-ignore="all">'
        f'<a class="jaxguide-run-button" href="{escape(colab)}" target="_blank"'
        ' rel="noopener">'
        '<span class="fa-solid fa-rocket" aria-hidden="true"></span>'
        f"{escape(text['colab'])}</a>"
        f'<a class="jaxguide-run-button" href="{escape(notebook)}"'
        f' download="{escape(filename)}">'
        '<span class="fa-solid fa-download" aria-hidden="true"></span>'
        f"{escape(text['download'])}</a>"
        "</div>"
    )


def _add_buttons(
    app: Sphinx,
    pagename: str,
    _templatename: str,
    context: dict[str, Any],
    doctree: Any,
) -> None:
    """Under a notebook page's title, before its first paragraph: the run
    buttons and the note on where the page ran. The theme's header keeps no
    launch menu (its Colab logo loaded on every page, inside a closed menu)."""
    if doctree is None or not app.env.metadata.get(pagename, {}).get("kernelspec"):
        return
    top = run_buttons(
        colab_url(app, pagename), context["pathto"](f"{pagename}.ipynb", 1)
    )
    if not shown_without_outputs(app.env, pagename):
        # A preview's banner says the code did not run.
        top += f'<aside class="jaxguide-run-note"><p>{_text()["note"]}</p></aside>'
    body = context.get("body", "")
    end = body.find("</h1>")
    at = end + len("</h1>") if end != -1 else 0
    context["body"] = body[:at] + top + body[at:]


def setup(app: Sphinx) -> None:
    app.add_config_value("jaxguide_repository", "jaxguide/jaxguide", "html", str)
    app.connect("html-page-context", _add_buttons, priority=900)
    app.connect("env-before-read-docs", forget_keys)
