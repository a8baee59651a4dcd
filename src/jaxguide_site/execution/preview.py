"""Prose-only builds: pages take their outputs from the execution cache and
are never executed (``-D jaxguide_execute=0``, what ``jaxguide-build
--preview`` sets).

A translator who changed a paragraph wants to see it in seconds. The normal
build executes every page the cache does not hold, which on a fresh clone is
every page (minutes). In a preview a page the cache holds shows its outputs;
one it does not hold is shown without them, and its glued figures are left
out, with one line saying so instead of a warning per figure.

Such a page says so in a banner under its title, in its language (in place
of the note that says the page's code ran when the site was built), so that a
missing output or glued value is never taken for code that prints nothing,
and the preview lists those pages when it ends (it writes them to
:data:`~jaxguide_site.site_build.PREVIEW_REPORT`, which ``jaxguide-build
--preview`` prints). Once the cache holds more (a full build ran), the next
preview reads them again. The real build executes every page the cache
lacks, so it never shows the banner.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from jupyter_cache import get_cache
from myst_nb import sphinx_ as myst_nb_sphinx
from myst_nb.core.execute import NotebookClientBase
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment.collectors import EnvironmentCollector

from ..interface_text.catalog import _
from ..site_build import PREVIEW_REPORT

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

CONFIG_NAME = "jaxguide_execute"
BANNER_CLASS = "jaxguide-not-executed"
BANNER_TITLE = _("Not executed in this preview")
BANNER_TEXT = _(
    "The outputs of this page's code are not shown, nor the values it computes "
    "for the text (glued numbers and figures are left out, so a sentence may "
    "have a gap): the execution cache has none for its code as it is now (a "
    "fresh clone, or code changed since the last full build). `python -m nox "
    "-s docs` executes the pages and fills the cache; the next preview shows "
    "their outputs."
)
PAGES = "jaxguide_not_executed"  # env: the pages shown without outputs
RECORDS = "jaxguide_cache_records"  # env: what the cache held when last read

_create_client = myst_nb_sphinx.create_client
# The sources this process read without outputs. myst-nb has no place to say
# so on the page: the source is added while it parses the page and taken out
# when the same process finishes reading it (NotExecutedPages.process_doc).
_without_outputs: set[Path] = set()


def _cached_outputs_only(
    notebook: Any, source: str, nb_config: Any, logger: Any, *args: Any, **kwargs: Any
) -> Any:
    """myst-nb's own cache client where the cache holds this notebook (it
    merges the cached outputs); otherwise a client that executes nothing."""
    if nb_config.execution_mode == "cache":
        cache = get_cache(nb_config.execution_cache_path)
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            logger.info("preview: not in the execution cache, shown without outputs")
            if any(cell.cell_type == "code" for cell in notebook.cells):
                _without_outputs.add(Path(source))
            return NotebookClientBase(notebook, Path(source), nb_config, logger)
    return _create_client(notebook, source, nb_config, logger, *args, **kwargs)


def with_code(text: str) -> list[nodes.Node]:
    """``text`` as nodes, each part between backticks as inline code."""
    parts = re.split(r"`([^`]+)`", text)
    return [
        nodes.literal(text=part) if index % 2 else nodes.Text(part)
        for index, part in enumerate(parts)
        if part
    ]


def banner() -> nodes.admonition:
    """The banner of a page shown without its outputs, in the build's language."""
    return nodes.admonition(
        "",
        nodes.title("", str(BANNER_TITLE)),
        nodes.paragraph("", "", *with_code(str(BANNER_TEXT))),
        classes=["warning", BANNER_CLASS],
    )


def under_title(body: str, html: str) -> str:
    """``body`` (a page's HTML) with ``html`` right after its title.

    >>> under_title("<h1>Jit</h1><p>Text</p>", "<aside/>")
    '<h1>Jit</h1><aside/><p>Text</p>'
    """
    end = body.find("</h1>")
    at = end + len("</h1>") if end != -1 else 0
    return body[:at] + html + body[at:]


def shown_without_outputs(env: BuildEnvironment, docname: str) -> bool:
    """Whether this preview shows ``docname`` without outputs (with the banner)."""
    return docname in getattr(env, PAGES, ())


def _pages(env: BuildEnvironment) -> set[str]:
    if not hasattr(env, PAGES):
        setattr(env, PAGES, set())
    pages: set[str] = getattr(env, PAGES)
    return pages


def _cache_records(app: Sphinx) -> tuple[str, ...]:
    cache = get_cache(app.config.nb_execution_cache_path)
    return tuple(sorted(record.hashkey for record in cache.list_cache_records()))


class NotExecutedPages(EnvironmentCollector):
    """The pages a preview shows without outputs, each with its banner."""

    def clear_doc(self, _app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _pages(env).discard(docname)

    def merge_other(
        self,
        _app: Sphinx,
        env: BuildEnvironment,
        docnames: AbstractSet[str],
        other: BuildEnvironment,
    ) -> None:
        _pages(env).update(_pages(other) & docnames)

    def process_doc(self, app: Sphinx, _doctree: nodes.document) -> None:
        source = Path(app.env.doc2path(app.env.docname))
        if source in _without_outputs:
            _without_outputs.discard(source)
            _pages(app.env).add(app.env.docname)

    def get_outdated_docs(
        self,
        app: Sphinx,
        env: BuildEnvironment,
        _added: AbstractSet[str],
        _changed: AbstractSet[str],
        _removed: AbstractSet[str],
    ) -> list[str]:
        """The pages shown without outputs, once the cache holds other records."""
        if app.config[CONFIG_NAME]:
            return []
        records = _cache_records(app)
        if records == getattr(env, RECORDS, None):
            return []
        setattr(env, RECORDS, records)
        return sorted(_pages(env) & env.found_docs)


def _apply(_app: Sphinx, config: Config) -> None:
    if config[CONFIG_NAME]:
        return
    myst_nb_sphinx.create_client = _cached_outputs_only
    # A page shown without outputs has no glued figures and no executed
    # download: each would be a warning, burying those a translator needs.
    config.suppress_warnings = [
        *config.suppress_warnings,
        "mystnb.glue",
        "jaxguide.downloads",
    ]


def _add_banner(
    app: Sphinx, pagename: str, _template: str, context: dict[str, Any], _doc: Any
) -> None:
    # notebooks/downloads.py leaves out its note on where the page ran
    # (it would say the code ran), so the banner is first under the title.
    builder = app.builder
    if pagename in _pages(app.env) and isinstance(builder, StandaloneHTMLBuilder):
        html = builder.render_partial(banner())["fragment"]
        context["body"] = under_title(context.get("body", ""), html)


def report_preview(app: Sphinx, exception: Exception | None) -> None:
    """Write which pages this preview shows without outputs; undo :func:`_apply`
    (a later build in the same process, as in the tests, executes again)."""
    if app.config[CONFIG_NAME]:
        return
    myst_nb_sphinx.create_client = _create_client
    if exception is None:
        report = {
            "not_executed": sorted(_pages(app.env) & app.env.found_docs),
            "cache_empty": not _cache_records(app),
        }
        path = Path(app.doctreedir) / PREVIEW_REPORT
        path.write_text(json.dumps(report, indent=1), encoding="utf-8")


def setup(app: Sphinx) -> None:
    app.add_config_value(CONFIG_NAME, True, "env", bool)
    app.connect("config-inited", _apply)
    app.add_env_collector(NotExecutedPages)
    app.connect("html-page-context", _add_banner, priority=950)
