"""The column headers of myst-nb's execution table (``{nb-exec-table}``) in
the site's language.

myst-nb writes the table's headers in English, with no catalog to translate
them. This post-transform, which runs right after myst-nb's own (priority 8),
replaces them with their translations in the ``jaxguide`` messages.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from .catalog import _

# myst-nb's headers, each with its translation ("Modified": when it ran).
HEADERS = {
    "Document": _("Document"),
    "Modified": _("Modified"),
    "Method": _("Method"),
    "Run Time (s)": _("Run Time (s)"),
    "Status": _("Status"),
}


class TranslateExecTableHeaders(SphinxPostTransform):
    default_priority = 9

    def run(self, **_kwargs: object) -> None:
        names = {english: str(translated) for english, translated in HEADERS.items()}
        if all(english == text for english, text in names.items()):
            return
        for head in self.document.findall(nodes.thead):
            cells = list(head.findall(nodes.paragraph))
            if [cell.astext() for cell in cells] != list(names):
                continue
            for cell in cells:
                cell.replace(cell[0], nodes.Text(names[cell.astext()]))


def setup(app: Sphinx) -> None:
    app.add_post_transform(TranslateExecTableHeaders)
