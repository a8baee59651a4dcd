"""The name of myst-nb's toggle over a hidden cell (the exercises' solutions).

myst-nb writes the toggle as ``<summary aria-label="Toggle hidden content">``
around its visible prompt, "Show solution" or "풀이 보기" (docs/conf.py). The
English label replaces the prompt for a screen reader, in every language.
Without it the toggle is named by the prompt it shows, which is translated
and says whether it shows or hides the solution.

Its two prompts are ``<p>`` elements, which a ``<summary>`` may not hold (the
Nu HTML checker's error on every page with a solution): they are written as
``<span>``, and jaxguide.css gives them myst-nb's styles for the ``<p>``.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import re

from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

LABELLED = '<summary aria-label="Toggle hidden content">\n'
PROMPT = re.compile(
    r'^<p (class="(?:collapsed|expanded) admonition-title">.*)</p>$', re.DOTALL
)


def visit_toggle(self: HTML5Translator, node: HideCodeCellNode) -> None:
    start = len(self.body)
    visit_HideCellInput(self, node)
    self.body[start:] = [
        "<summary>\n" if part == LABELLED else PROMPT.sub(r"<span \1</span>", part)
        for part in self.body[start:]
    ]


def setup(app: Sphinx) -> None:
    app.add_node(
        HideCodeCellNode, override=True, html=(visit_toggle, depart_HideCellInput)
    )
