"""Labels of measured code a translation must give in its own language.

A timing table names its rows with the labels of the page's code
(``compare({"naive loop": ...})``, ``benchmark(..., label="...")``), in
English in both languages; a translation gives its own under ``jaxguide:
labels:`` in its front matter (:mod:`jaxguide_site.output_labels` shows them).
A label with an English word in it needs one; a label made of the page's code
names (``jax.jit(f)``, ``vmap, jit``) and the names below, written alike in
every language, needs none. An f-string's ``{N}`` stays a placeholder, to be
carried into the translation. A translated label no code of the page has is
reported too (renamed or gone). Imports no Sphinx.
"""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Callable, Iterator

from ..output_labels import LABELS, PLACEHOLDER, page_labels
from .parity import Found, Source

# Names and abbreviations Korean prose writes as English does.
PROPER_NAMES = {
    "NumPy",
    "JAX",
    "Python",
    "XLA",
    "CPU",
    "GPU",
    "TPU",
    "Adam",
    "MLP",
    "MSE",
}
# Where a figure's text comes from: keywords, methods of Axes and Figure, and
# the legend's dictionary (its position) of jaxguide's plotting helpers.
FIGURE_KEYWORDS = {"label", "xlabel", "ylabel", "title", "data_label"}
FIGURE_METHODS = {
    "set_xlabel",
    "set_ylabel",
    "set_title",
    "suptitle",
    "text",
    "annotate",
}
FIGURE_LEGENDS = {"plot_fit": 2, "plot_history": 0}
MATH = re.compile(r"\$[^$]*\$")
WORD = re.compile(r"[A-Za-z][\w.]*")
MAGIC = re.compile(r"^[ \t]*[%!].*$", re.MULTILINE)  # IPython, not Python


def _label(node: ast.expr) -> str | None:
    """A label as the code writes it: an f-string's values as ``{name}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            str(part.value)
            if isinstance(part, ast.Constant)
            else f"{{{ast.unparse(part.value)}}}"  # type: ignore[attr-defined]
            for part in node.values
        )
    return None


def _called(node: ast.Call) -> str:
    function = node.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def _labels(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line in the cell, label) of each ``compare`` and ``benchmark`` call."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if (
            _called(node) == "compare"
            and node.args
            and isinstance(table := node.args[0], ast.Dict)
        ):
            for key in table.keys:
                if key is not None and (label := _label(key)) is not None:
                    yield key.lineno, label
        for argument in node.keywords:
            label = _label(argument.value) if argument.arg == "label" else None
            if _called(node) == "benchmark" and label is not None:
                yield argument.value.lineno, label


def _figure_texts(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line in the cell, text) of each string a figure draws."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _called(node) == "benchmark":
            continue
        called, found = _called(node), []
        found += [k.value for k in node.keywords if k.arg in FIGURE_KEYWORDS]
        if called in FIGURE_METHODS and node.args:
            found.append(node.args[0])
        legend = FIGURE_LEGENDS.get(called)
        table = (
            node.args[legend]
            if legend is not None and len(node.args) > legend
            else None
        )
        if isinstance(table, ast.Dict):
            found += [key for key in table.keys if key is not None]
        for expression in found:
            if (text := _label(expression)) is not None:
                yield expression.lineno, text


def _names(tree: ast.AST) -> set[str]:
    """Every name the code defines or uses: variables, attributes, modules."""
    names = set(keyword.kwlist)  # lambda, True, None...
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.update(node.name.split("."))
            names.add(node.asname or "")
    return names


def code_labels(
    source: Source, texts: Callable[[ast.AST], Iterator[tuple[int, str]]] = _labels
) -> tuple[list[tuple[int, str]], set[str]]:
    """The labels of the page's code (or its other ``texts``), each with its
    line in the page, and the code's names."""
    labels: list[tuple[int, str]] = []
    names: set[str] = set()
    for cell in source.cells:
        try:
            tree = ast.parse(MAGIC.sub("", cell.source))
        except SyntaxError:
            continue
        labels += [(cell.source_line + line - 1, label) for line, label in texts(tree)]
        names |= _names(tree)
    return labels, names


def needs_translation(label: str, names: set[str]) -> bool:
    """Whether ``label`` has a word that is no code name.

    >>> needs_translation("naive loop", {"naive_loop"})
    True
    >>> needs_translation("jax.jit(add_one), devices[:1]", {"jit", "devices"})
    False
    >>> needs_translation("{N} calls", set())
    True
    """
    words = WORD.findall(PLACEHOLDER.sub("", MATH.sub("", label)))
    return any(
        len(word) > 1
        and word.isalpha()
        and word not in names
        and word not in PROPER_NAMES
        for word in words
    )


def untranslated_labels(rel: str, page: Source) -> list[Found]:
    """A translation's labels: those its code needs and it lacks, and those
    it gives for no label of its code."""
    line = page.meta_lines.get("jaxguide")
    try:
        given = page_labels(page.meta)
    except ValueError as error:
        return [(rel, line, str(error))]
    labels, names = code_labels(page)
    found: list[Found] = []
    first: dict[str, int] = {}
    for where, label in labels:
        first.setdefault(label, where)
    for label, where in first.items():
        if label not in given and needs_translation(label, names):
            message = (
                f"the label {label!r} (a row of its timing table) has no "
                f"translation: give one in the front matter, under 'jaxguide:', "
                f"'{LABELS}:', as '{label}: <translation>'"
            )
            found.append((rel, where, message))
    written = {label for _, label in labels}
    for label in sorted(set(given) - written):
        message = (
            f"'jaxguide: {LABELS}:' translates {label!r}, which no compare or "
            "benchmark of this page's code labels: rename or remove it"
        )
        found.append((rel, line, message))
    return found


def figure_words(rel: str, page: Source) -> list[Found]:
    """Words on the page's figures that are neither math nor code names: a
    figure is drawn once for both languages, so its words are the caption's."""
    texts, names = code_labels(page, _figure_texts)
    return [
        (
            rel,
            line,
            (
                f"the figure's text {text!r} has words that are neither math nor "
                "code names: both languages show the same figure, so keep its text "
                "to math and code names and say the rest in the caption"
            ),
        )
        for line, text in texts
        if needs_translation(text, names)
    ]
