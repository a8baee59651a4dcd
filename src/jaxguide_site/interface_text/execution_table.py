"""Korean column headers for myst-nb's execution table (``{nb-exec-table}``).

myst-nb writes the table's headers in English, with no catalog to translate
them. On the Korean site this post-transform, which runs right after
myst-nb's own (priority 8), replaces them.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

HEADERS = {
    "ko": {
        "Document": "페이지",
        "Modified": "실행 시각",
        "Method": "방식",
        "Run Time (s)": "실행 시간(초)",
        "Status": "결과",
    }
}


class TranslateExecTableHeaders(SphinxPostTransform):
    default_priority = 9

    def run(self, **_kwargs: object) -> None:
        names = HEADERS.get(self.config.language)
        if names is None:
            return
        for head in self.document.findall(nodes.thead):
            cells = list(head.findall(nodes.paragraph))
            if [cell.astext() for cell in cells] != list(names):
                continue
            for cell in cells:
                cell.replace(cell[0], nodes.Text(names[cell.astext()]))


def setup(app: Sphinx) -> None:
    app.add_post_transform(TranslateExecTableHeaders)
