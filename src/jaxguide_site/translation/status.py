"""The translation status of every page as a table (``translation-status``).

The status page shows what :func:`.translation.check` reports for each page,
in the page's language: the page (a link, where it exists in this language),
its state, whether its translation waits for a review (:mod:`.reviews`) and
the date of the last commit that changed it, in the order of
the pages' titles in that language::

    ```{translation-status}
    ```

The docs folder is the parent of the source folder (``docs/<lang>``). The
table depends on every page file of both languages and on
``docs/_data/translations.toml``, so changing one rebuilds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

from ..interface_text.catalog import _
from ..interface_text.dates import written_date
from .report import PageState
from .tables import cell, doc_link, table

CSS_CLASS = "jaxguide-translations"
WAITING = _("Waiting")
REVIEWED = _("Reviewed")
HEADERS = (_("Page"), _("State"), _("Review"), _("Last update"))
STATES = {
    "translated": _("Translated"),
    "stale": _("Stale"),
    "unstamped": _("Not stamped"),
    "draft": _("Draft"),
    "in progress": _("In progress"),
    "missing": _("Missing"),
    "broken": _("Unreadable"),
}


class TranslationStatus(SphinxDirective):
    """Render the state of each page's translation as a table."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        # Imported here: the checker imports this
        # package first, which must not import that module before it runs.
        from ..languages import LANGUAGES  # noqa: PLC0415
        from .consistency import check  # noqa: PLC0415
        from .report import DATA  # noqa: PLC0415

        docs = Path(self.env.srcdir).parent
        files = [path for lang in LANGUAGES for path in (docs / lang).rglob("*.md")]
        # Only existing files: Sphinx re-reads a page with a missing dependency.
        for path in sorted([*files, docs / DATA]):
            if path.is_file():
                self.env.note_dependency(str(path))
        lang = self.config.language
        form = self.config.html_last_updated_fmt
        rows = []
        for page in check(docs, states_only=True).pages:
            name: nodes.Node = nodes.literal(text=page.name)
            if lang in page.languages:  # the link shows the page's title
                name = doc_link(f"/{page.name}", page.name, self.env.docname)
            rows.append(
                [
                    cell(name),
                    cell(nodes.Text(str(STATES[page.state]))),
                    cell(nodes.Text(_review(page))),
                    cell(nodes.Text(written_date(page.last_update, form, lang))),
                ]
            )
        headers = tuple(str(header) for header in HEADERS)
        return [table(headers, (40, 20, 20, 20), rows, CSS_CLASS)]


def _review(page: PageState) -> str:
    """Whether a translated page's translation was reviewed as it reads now."""
    if page.state != "translated":
        return ""
    return str(WAITING if page.review else REVIEWED)


def title_order(title: str) -> str:
    """Where a row goes: by its title, letters of either case together.
    Hangul syllables' code points are in the dictionary's 가나다 order, after
    the Latin letters, as Korean collation has them.

    >>> sorted(["자동 미분", "jit", "기울기", "JAX 소개"], key=title_order)
    ['JAX 소개', 'jit', '기울기', '자동 미분']
    """
    return title.casefold()


class SortByTitle(SphinxPostTransform):
    """Put the table's rows in the order of the titles its links show.

    The directive cannot sort them: a page's title is known only once every
    page is read, and the links show it once they are resolved.
    """

    default_priority = 20  # after the references are resolved (10)

    def run(self, **_kwargs: object) -> None:
        for found in self.document.findall(nodes.table):
            if CSS_CLASS not in found["classes"]:
                continue
            for body in found.findall(nodes.tbody):
                rows = sorted(
                    body.children, key=lambda row: title_order(row[0].astext())
                )
                body.children = []
                body.extend(rows)


def setup(app: Sphinx) -> None:
    app.add_directive("translation-status", TranslationStatus)
    app.add_post_transform(SortByTitle)
