"""The directive ``glossary-table``: the glossary rendered in the page's language::

    ```{glossary-table}
    ```

The file is read and checked once per build; a malformed entry is reported
with its number and term, never as a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ConfigError
from sphinx.util.docutils import SphinxDirective

from ..interface_text.catalog import _
from .glossary import load_glossary
from .tables import cell, doc_link, table

HEADERS = (_("English"), _("Korean"), _("Meaning"), _("Not used"))


class GlossaryTable(SphinxDirective):
    """Render the glossary file as a table in the page's language."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        path = Path(self.config.jaxguide_glossary)
        self.env.note_dependency(str(path))
        try:
            terms = load_glossary(path)
        except ValueError as error:
            return [self.state.document.reporter.error(str(error), line=self.lineno)]
        lang = "ko" if self.config.language == "ko" else "en"
        rows = []
        for term in terms:
            target = nodes.target("", "", ids=[nodes.make_id(f"term-{term.en}")])
            meaning: list[nodes.Node] = [
                nodes.Text(term.ko_def if lang == "ko" else term.en_def)
            ]
            if term.page:
                link = doc_link(term.page, term.page, self.env.docname)
                meaning += [nodes.Text(" → "), link]
            rows.append(
                [
                    cell(target, nodes.strong(text=term.en)),
                    cell(nodes.Text(term.ko)),
                    cell(*meaning),
                    cell(nodes.Text(", ".join(term.avoid))),
                ]
            )
        headers = tuple(str(header) for header in HEADERS)
        return [table(headers, (20, 16, 52, 12), rows, "jaxguide-glossary")]


def _check_file(app: Sphinx) -> None:
    try:
        load_glossary(Path(app.config.jaxguide_glossary))
    except ValueError as error:
        raise ConfigError(str(error)) from None


def setup(app: Sphinx) -> None:
    app.add_config_value("jaxguide_glossary", "", "env", str)
    app.add_directive("glossary-table", GlossaryTable)
    app.connect("builder-inited", _check_file)
