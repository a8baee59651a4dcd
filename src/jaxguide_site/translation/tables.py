"""The docutils pieces our directives build tables from (glossary, translations)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from docutils import nodes
from sphinx import addnodes


def cell(*children: nodes.Node) -> nodes.entry:
    """A table cell holding one paragraph of ``children``."""
    paragraph = nodes.paragraph()
    paragraph.extend(children)
    return nodes.entry("", paragraph)


def doc_link(target: str, text: str, refdoc: str) -> addnodes.pending_xref:
    """A link to the page ``target``, shown with that page's title."""
    return addnodes.pending_xref(
        "",
        nodes.inline(text=text),
        refdomain="std",
        reftype="doc",
        reftarget=target,
        refdoc=refdoc,
        refexplicit=False,
    )


def table(
    headers: Sequence[str],
    widths: Sequence[int],
    rows: Iterable[Sequence[nodes.entry]],
    css_class: str,
) -> nodes.table:
    """A table with a header row of ``headers`` and one row per item of ``rows``."""
    result = nodes.table(classes=[css_class])
    group = nodes.tgroup(cols=len(headers))
    result += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += nodes.row("", *(cell(nodes.Text(title)) for title in headers))
    group += head
    body = nodes.tbody()
    for row in rows:
        body += nodes.row("", *row)
    group += body
    return result
