"""Render small tables and one-line reports as HTML, Markdown and plain text,
with the numbers in them written the same way everywhere (units, speed-ups).

The pages of both languages share one execution (see ``docs/conf.py``), so an
executed output cannot be in the page's language by itself. The HTML forms
therefore carry every label in both languages, as ``<span lang="en">`` and
``<span lang="ko" hidden>``: the site's stylesheet (``docs/_static``) shows the
Korean span and hides the English one on the Korean site, and anywhere else
(Jupyter, Colab) the ``hidden`` attribute keeps the English text alone. The
Markdown and plain-text forms are in English.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "TableOutput",
    "Text",
    "format_ratio",
    "html_line",
    "html_table",
    "markdown_table",
    "plain_table",
    "unit_for",
]

CSS_CLASS = "jaxguide-output"

_UNITS = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))


def unit_for(seconds: float) -> tuple[float, str]:
    """The unit (scale in seconds, symbol) that writes ``seconds`` as 1 to 999."""
    return next(((s, u) for s, u in _UNITS if seconds >= s), _UNITS[-1])


def format_ratio(ratio: float) -> str:
    """Write a speed-up such as ``12.3×`` (three significant digits, at most
    two decimals; two significant digits below 0.1).

    Examples:
        >>> format_ratio(1.0), format_ratio(0.5612), format_ratio(123.4)
        ('1.00×', '0.56×', '123×')
        >>> format_ratio(0.001998)  # a 500× slowdown is not 0.00×
        '0.0020×'
    """
    if 0 < ratio < 0.1:
        return f"{ratio:#.2g}×"
    digits = 0 if ratio >= 100 else 1 if ratio >= 10 else 2
    return f"{ratio:.{digits}f}×"


@dataclass(frozen=True)
class Text:
    """A label in English and Korean."""

    en: str
    ko: str

    def __str__(self) -> str:
        return self.en


Cell = str | Text


def _html(cell: Cell) -> str:
    if isinstance(cell, Text):
        return (
            f'<span lang="en">{html.escape(cell.en)}</span>'
            f'<span lang="ko" hidden>{html.escape(cell.ko)}</span>'
        )
    return html.escape(cell)


def html_table(
    header: Sequence[Cell],
    rows: Sequence[Sequence[Cell]],
    *,
    caption: Sequence[Cell] = (),
    numeric_from: int = 1,
) -> str:
    """An HTML table; columns from ``numeric_from`` on are right-aligned."""
    right = ' style="text-align: right"'

    def row(cells: Sequence[Cell], tag: str) -> str:
        return "<tr>" + "".join(
            f"<{tag}{right if i >= numeric_from else ''}>{_html(cell)}</{tag}>"
            for i, cell in enumerate(cells)
        )

    parts = [f'<table class="{CSS_CLASS} jaxguide-table">']
    if caption:
        parts.append(f"<caption>{''.join(_html(c) for c in caption)}</caption>")
    parts.append(f"<thead>{row(header, 'th')}</tr></thead><tbody>")
    parts.extend(f"{row(cells, 'td')}</tr>" for cells in rows)
    parts.append("</tbody></table>")
    return "".join(parts)


def html_line(items: Sequence[Sequence[Cell]]) -> str:
    """One line of items (each a run of cells) separated by middle dots."""
    body = " · ".join("".join(_html(cell) for cell in item) for item in items)
    return f'<p class="{CSS_CLASS} jaxguide-line">{body}</p>'


def markdown_table(
    header: Sequence[Cell],
    rows: Sequence[Sequence[Cell]],
    *,
    caption: Sequence[Cell] = (),
    numeric_from: int = 1,
) -> str:
    """A GitHub-flavoured Markdown table in English, caption below it."""

    def row(cells: Sequence[Cell]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    rule = [":--" if i < numeric_from else "--:" for i in range(len(header))]
    lines = [row(header), "| " + " | ".join(rule) + " |"]
    lines.extend(row(cells) for cells in rows)
    if caption:
        lines.extend(["", "".join(str(c) for c in caption)])
    return "\n".join(lines)


def plain_table(
    header: Sequence[Cell],
    rows: Sequence[Sequence[Cell]],
    *,
    caption: Sequence[Cell] = (),
    numeric_from: int = 1,
) -> str:
    """Columns aligned with spaces, in English, caption below."""
    table = [[str(c) for c in header], *([str(c) for c in cells] for cells in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [
        "  ".join(
            text.rjust(width) if i >= numeric_from else text.ljust(width)
            for i, (text, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in table
    ]
    if caption:
        lines.append("".join(str(c) for c in caption))
    return "\n".join(lines)


Table = tuple[Sequence[Cell], Sequence[Sequence[Cell]], Sequence[Cell]]


class TableOutput:
    """Mixin: printing and notebook display of whatever ``_table()`` returns."""

    def _table(self) -> Table:
        """Header, rows and caption."""
        raise NotImplementedError

    def __str__(self) -> str:
        header, rows, caption = self._table()
        return plain_table(header, rows, caption=caption)

    def _repr_markdown_(self) -> str:
        header, rows, caption = self._table()
        return markdown_table(header, rows, caption=caption)

    def _repr_html_(self) -> str:
        header, rows, caption = self._table()
        return html_table(header, rows, caption=caption)
