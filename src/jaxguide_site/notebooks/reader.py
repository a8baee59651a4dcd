"""The notebook a reader takes home: the page's cells, without what only the build needs.

A page's code that only feeds the site (``glue(...)`` of a figure or a measured
figure for the prose, which needs myst-nb) stands in cells tagged
``remove-cell``: the build executes them, the page hides them, and the
downloaded notebook and its Colab copy leave them out, so that they run where
myst-nb is not installed. What those cells glued is written into the prose
instead: ``{glue:text}`name:.1f``` becomes the value the page shows,
``{glue}`name``` of a jaxguide output that speaks both languages (a
measurement's verdict) becomes its words in the notebook's language, and a
``{glue:figure}`` directive becomes the figure (embedded) over its caption,
or its caption alone under the cell whose output is that figure already (the
figure's cell is tagged ``remove-output`` on the page, where the captioned
figure stands in for it). The rest of the prose's MyST becomes Markdown
Jupyter renders (:mod:`.markdown`).

The build executes the build-only cells with the others, so it would not see
a kept cell that needs them: :func:`needs_build_only_names` reads the code
for names only those cells define.
"""

from __future__ import annotations

import ast
import base64
import copy
import dataclasses
import html
import re
import symtable
from collections.abc import Callable

import nbformat
from IPython.core.inputtransformer2 import TransformerManager
from myst_nb.core.variables import format_plain_text
from myst_nb.ext.glue import extract_glue_data_cell

from .markdown import Conversion, for_jupyter

BUILD_ONLY_TAG = "remove-cell"
# {glue} (any) is used for outputs in both languages (jaxguide.Ratio), whose
# HTML carries <span lang="en">...</span><span lang="ko" hidden>...</span>.
LANGUAGE_SPAN = r'<span lang="{lang}"(?: hidden)?>(?P<words>.*?)</span>'
CODE_TAG = re.compile(r"<code>(.*?)</code>")
FIGURE_TYPES = ("image/png", "image/jpeg", "image/svg+xml")


def build_only(cell: nbformat.NotebookNode) -> bool:
    return BUILD_ONLY_TAG in cell.get("metadata", {}).get("tags", [])


def _statements(source: str) -> list[ast.stmt]:
    """A cell's top-level statements (IPython's ``%magics`` read as the calls
    they become, their arguments as strings; code that does not parse, none)."""
    try:
        code = TransformerManager().transform_cell(source)  # type: ignore[no-untyped-call]
        return ast.parse(code).body
    except SyntaxError:
        return []


def _names(statement: ast.stmt) -> tuple[set[str], set[str]]:
    """The module-level names ``statement`` binds, and those it reads, itself
    or in a function, class or comprehension of its own (their local names
    and arguments are theirs, not the notebook's)."""
    table = symtable.symtable(ast.unparse(statement), "<cell>", "exec")
    bound = {
        s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()
    }
    read: set[str] = set()
    scopes = [table]
    while scopes:
        scope = scopes.pop()
        scopes.extend(scope.get_children())
        read |= {
            symbol.get_name()
            for symbol in scope.get_symbols()
            if symbol.is_referenced() and (scope is table or symbol.is_global())
        }
    return bound, read


def needs_build_only_names(
    cells: list[nbformat.NotebookNode],
) -> list[tuple[int, list[str]]]:
    """Each kept code cell (by its index in ``cells``) that reads a name only
    build-only cells defined before it, with those names: the downloaded
    notebook leaves those cells out, so it would stop there with a NameError.
    (What a build-only cell changes in place, such as JAX's configuration,
    no check sees: such cells only glue.)

    >>> cell = nbformat.v4.new_code_cell
    >>> needs_build_only_names([
    ...     cell("x = 1; env = 2", metadata={"tags": [BUILD_ONLY_TAG]}),
    ...     cell("x = 3; f = lambda env: [env]"),
    ...     cell("print(x, env, [env for _ in f(x)])"),
    ...     cell("print(env); env = 4"),
    ... ])
    [(2, ['env']), (3, ['env'])]
    """
    by_build: set[str] = set()
    by_kept: set[str] = set()
    needs: list[tuple[int, list[str]]] = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        missing: set[str] = set()
        for statement in _statements(cell.source):
            bound, read = _names(statement)
            if build_only(cell):
                by_build |= bound
                continue
            missing |= read & by_build - by_kept
            by_kept |= bound
        if missing:
            needs.append((index, sorted(missing)))
    return needs


def glued_values(
    notebook: nbformat.NotebookNode, lang: str = "en"
) -> tuple[dict[str, str], dict[str, str]]:
    """Each glued name's text (``text/plain``, for ``{glue:text}``) and its
    Markdown in ``lang`` (for ``{glue}``), from the executed cells."""
    values: dict[str, str] = {}
    words: dict[str, str] = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for key, output in extract_glue_data_cell(copy.deepcopy(cell)):
            data = output["data"]
            values[key] = data.get("text/plain", "")
            words[key] = _in_language(data, lang) or values[key]
    return values, words


def _in_language(data: dict[str, str], lang: str) -> str | None:
    """The Markdown of a two-language jaxguide output in ``lang``, if it is one.

    >>> _in_language({"text/html": '<span lang="en"><code>a</code> ran</span>'
    ...     '<span lang="ko" hidden><code>a</code> 쪽이</span>'}, "ko")
    '`a` 쪽이'
    """
    match = re.search(
        LANGUAGE_SPAN.format(lang=re.escape(lang)), data.get("text/html", "")
    )
    if match is None:
        return data.get("text/markdown")
    return html.unescape(CODE_TAG.sub(r"`\1`", match["words"]))


def glued_figures(notebook: nbformat.NotebookNode) -> dict[str, tuple[str, str]]:
    """Each glued figure's MIME type and data (base64, or SVG text)."""
    figures: dict[str, tuple[str, str]] = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for key, output in extract_glue_data_cell(copy.deepcopy(cell)):
            for mime in FIGURE_TYPES:
                if mime in output["data"]:
                    figures[key] = (mime, _joined(output["data"][mime]))
                    break
    return figures


def _joined(data: str | list[str]) -> str:
    return data if isinstance(data, str) else "".join(data)


def _shown(cells: list[nbformat.NotebookNode]) -> set[str]:
    """The images the cells' outputs show."""
    return {
        _joined(output["data"][mime])
        for cell in cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        for mime in FIGURE_TYPES
        if mime in output.get("data", {})
    }


def _data_uri(mime: str, data: str) -> str:
    if mime == "image/svg+xml":
        data = base64.b64encode(data.encode("utf-8")).decode("ascii")
    return f"data:{mime};base64,{''.join(data.split())}"


def glue_values(
    values: dict[str, str],
    problem: Callable[[str], None],
    words: dict[str, str] | None = None,
) -> Callable[[str, str], str | None]:
    """A glue role's value as the page writes it: ``{glue:text}`` formatted
    as myst-nb does, ``{glue}`` (and ``{glue:md}``) by ``words`` where given;
    ``problem(message)`` hears of a name never glued or a value its format
    does not fit (the role then stays as written)."""

    def value(role: str, key: str) -> str | None:
        if role != "glue:text":
            found = (words or values).get(key)
            if found is None:
                problem(f"the prose uses glue name {key!r}, which no cell glued")
            return found
        # As myst-nb reads the role: the format follows the last colon.
        head, colon, tail = key.rpartition(":")
        key, fmt = (head, tail) if colon else (tail, "")
        if key not in values:
            problem(f"the prose uses glue name {key!r}, which no cell glued")
            return None
        try:
            return str(format_plain_text(values[key], fmt))
        except ValueError as error:
            problem(f"glue name {key!r} cannot be formatted as {fmt!r}: {error}")
            return None

    return value


def resolve_glue(
    markdown: str,
    values: dict[str, str],
    problem: Callable[[str], None],
    words: dict[str, str] | None = None,
) -> str:
    """``markdown`` with its glue roles replaced by their values, a glued
    figure by its caption (see :func:`glue_values`)."""
    glue = glue_values(values, problem, words)
    return for_jupyter(markdown, Conversion(glue=glue, problem=problem))


def for_readers(
    notebook: nbformat.NotebookNode,
    problem: Callable[[str], None],
    lang: str = "en",
    conversion: Conversion | None = None,
) -> nbformat.NotebookNode:
    """The executed ``notebook`` without its build-only cells, its prose as
    Markdown Jupyter renders (:mod:`.markdown`, with ``conversion``'s links
    and titles): glue resolved (two-language outputs in ``lang``), a glued
    figure embedded over its caption unless a cell's output shows it."""
    values, words = glued_values(notebook, lang)
    figures = glued_figures(notebook)
    notebook.cells = [cell for cell in notebook.cells if not build_only(cell)]
    shown = _shown(notebook.cells)

    def figure(key: str) -> str | None:
        if key not in figures:
            problem(f"the prose shows glued figure {key!r}, which no cell glued")
            return None
        mime, data = figures[key]
        return None if data in shown else _data_uri(mime, data)

    conversion = dataclasses.replace(
        conversion or Conversion(problem=problem),
        glue=glue_values(values, problem, words),
        figure=figure,
    )
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = for_jupyter(cell.source, conversion)
    return notebook
