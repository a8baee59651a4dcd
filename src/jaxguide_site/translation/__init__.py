"""Translation: the checker comparing the two languages page by page, the
glossary (``glossary-table``) and the state of every page's translation
(``translation-status``) as tables.

The checker, ``python -m jaxguide_site.translation.checker`` (:mod:`.checker`):

- :mod:`.consistency`: the check of the docs folder, a pipeline of stages:
  :mod:`.reading` (the pages, paired) → :mod:`.states` (each pair's stamp and
  state) → :mod:`.page_checks` (structure, prose, glossary) → the report;
- :mod:`.pages`: which pages each language has, and those in progress;
- :mod:`.parity`: a page read from its source, and its code cells, kernelspec
  and figures compared with the other language's;
- :mod:`.headings`: a page's headings, aligned with its translation's;
- :mod:`.sections`: a page's sections, paragraphs and stretches, and which of
  its translation's stand for them;
- :mod:`.blocks`: a page's prose read into paragraphs, list items,
  admonitions and the structure around them;
- :mod:`.structure`: a paragraph, list item or admonition a translation lost
  or gained;
- :mod:`.marks`: the markup a translation keeps (glued values, role targets,
  links, formulas, code spans);
- :mod:`.markup`: that markup compared, and the structure and markup drift of
  a page;
- :mod:`.labels`: the ``(label)=`` targets a translation lacks or renamed;
- :mod:`.output_labels`: the labels of measured code (timing tables' rows) a
  translation gives in its language, or lacks;
- :mod:`.prose`: one page's prose (links, targets, the glossary's terms,
  the language, split paragraphs);
- :mod:`.korean_prose`: Korean prose still in English;
- :mod:`.stamps`: a translation's stamp, and what changed in git since;
- :mod:`.changes`: the word-by-word changes ``diff`` shows, and where the
  translation says the same;
- :mod:`.copy_code`: ``copy-code``, the source's code cells copied into the
  translation;
- :mod:`.lookup`: ``glossary WORD``, a term looked up;
- :mod:`.report`: what the checks report.
- :mod:`.command`: how a translator runs the checker, as the messages quote it.

The glossary is read by :mod:`.glossary` and rendered by
:mod:`.glossary_table`; :mod:`.status` renders the translation-status table;
:mod:`.tables` builds their tables.

Importing this package imports no Sphinx: the checker runs without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    # Imported here: the checker imports this package without Sphinx.
    from . import glossary_table, status  # noqa: PLC0415

    glossary_table.setup(app)
    status.setup(app)
    return PARALLEL_SAFE
