"""Labels of measured code in the page's language, and the other language's
words kept out of the search.

A timing table's rows and a verdict's candidates are named by the page's
code (``compare({"naive loop": ...})``), which is the same in both languages,
so the label is English on both sites. A translation gives its own labels in
its front matter, label as the code writes it → label as its readers read
it::

    jaxguide:
      labels:
        naive loop: 단순한 반복문
        "{N} calls, one wait": "{N}번 호출, 한 번 기다림"

(``{N}`` stands for whatever an f-string put there, and is carried over.)
The site shows those labels in the page's executed outputs (a post-processing
of their HTML, :func:`html_in_language`) and so does the page's downloaded
notebook (:func:`notebook_in_language`, which also shows the notebook's
language of the labels jaxguide writes in both). The translation checker
(:mod:`.translation.output_labels`) names a label with words and no
translation. A label made only of code names (``jax.jit(f)``, ``vmap, jit``)
needs none.

The outputs carry jaxguide's own labels in both languages, one of them hidden
(``src/jaxguide/_render.py``); on the site, the other language's span is
marked ``data-pagefind-ignore`` so that the search neither finds nor quotes
it. Imports no Sphinx but in :func:`setup`.
"""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .extension import PARALLEL_SAFE
from .interface_text.messages import N_, translations

if TYPE_CHECKING:
    import nbformat
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = [
    "Labels",
    "html_in_language",
    "notebook_in_language",
    "page_labels",
]

OUTPUT_CLASS = "jaxguide-output"  # src/jaxguide/_render.py's CSS_CLASS
LABELS = "labels"  # under the front matter's jaxguide:
PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
TAG = re.compile(r"(<[^>]*>)")
SPAN_LANG = re.compile(r'^<span\b[^>]*\blang="([^"]+)"')
# Labels jaxguide itself adds to a page's label; the catalogs translate them.
BUILT_IN = (N_("{label} (not blocked)"),)


def page_labels(front: Mapping[str, Any]) -> dict[str, str]:
    """``jaxguide: labels:`` of a page's front matter (as YAML reads it, or as
    Sphinx's metadata keeps it, JSON); ValueError if it is not label → label.

    >>> page_labels({"jaxguide": '{"labels": {"naive loop": "단순한 반복문"}}'})
    {'naive loop': '단순한 반복문'}
    >>> page_labels({"jaxguide": {"measures": True}})
    {}
    """
    settings = front.get("jaxguide", {})
    if isinstance(settings, str):
        settings = json.loads(settings)
    labels = settings.get(LABELS, {}) if isinstance(settings, dict) else {}
    if not isinstance(labels, dict) or not all(
        isinstance(key, str) and isinstance(value, str) and value.strip()
        for key, value in labels.items()
    ):
        msg = (
            f"'jaxguide: {LABELS}:' must map each label as the code writes it to "
            f"its translation, got {labels!r}"
        )
        raise ValueError(msg)
    for key, value in labels.items():
        if missing := set(PLACEHOLDER.findall(value)) - set(PLACEHOLDER.findall(key)):
            msg = (
                f"label {key!r}: its translation uses {sorted(missing)}, which it lacks"
            )
            raise ValueError(msg)
    return dict(labels)


def _pattern(key: str, tail: str) -> tuple[re.Pattern[str], list[str]]:
    """``key`` as a regular expression, its placeholders as groups g0, g1..."""
    parts = PLACEHOLDER.split(key)  # text, name, text, name, ...
    names = parts[1::2]
    body = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<g{i // 2}>.+?)"
        for i, part in enumerate(parts)
    )
    return re.compile(f"^{body}{tail}"), names


@dataclass(frozen=True)
class Labels:
    """A page's labels (the language's built-in ones after its own)."""

    mapping: Mapping[str, str]

    @classmethod
    def of(cls, labels: Mapping[str, str], lang: str) -> Labels:
        catalog = translations(lang)
        built_in = {label: catalog.gettext(label) for label in BUILT_IN}
        translated = {label: text for label, text in built_in.items() if text != label}
        return cls({**translated, **labels})

    def _apply(self, text: str, tail: str) -> str | None:
        # The longest key first: "by hand, jit" before "by hand".
        for key in sorted(self.mapping, key=len, reverse=True):
            pattern, names = _pattern(key, tail)
            match = pattern.match(text)
            if match is None:
                continue
            words = self.mapping[key]
            for index, name in enumerate(names):
                inner = match[f"g{index}"]
                words = words.replace(f"{{{name}}}", self.translate(inner) or inner)
            return words + text[match.end() :]
        return None

    def translate(self, text: str) -> str | None:
        """The translation of the whole of ``text``, or None.

        >>> Labels({"naive loop": "단순한 반복문"}).translate("naive loop")
        '단순한 반복문'
        >>> Labels.of({"{N} calls": "{N}번 호출"}, "ko").translate("100 calls (not blocked)")
        '100번 호출 (기다리지 않음)'
        """
        return self._apply(text, "$")

    def translate_start(self, text: str) -> str | None:
        """``text`` with a label that starts it, before a space, translated.

        >>> Labels({"naive loop": "단순한 반복문"}).translate_start("naive loop 대비")
        '단순한 반복문 대비'
        """
        return self._apply(text, "(?= )")


def _text(segment: str, labels: Labels, in_own_span: bool) -> str:
    """A text segment of HTML with its label translated."""
    text = html.unescape(segment)
    found = labels.translate(text.strip())
    if found is not None:
        return html.escape(text.replace(text.strip(), found), quote=False)
    if in_own_span and (found := labels.translate_start(text)) is not None:
        return html.escape(found, quote=False)
    return segment


def _rewrite(markup: str, lang: str, labels: Labels, *, site: bool) -> str:
    """Translate labels outside the other language's spans; on the site mark
    those spans for the search to ignore, in a notebook show ``lang``'s."""
    pieces = TAG.split(markup)
    languages: list[str | None] = []  # the language of each open span
    for index, piece in enumerate(pieces):
        if index % 2 == 0:  # text between tags
            if piece and (not languages or languages[-1] in (lang, None)):
                pieces[index] = _text(
                    piece, labels, bool(languages) and languages[-1] == lang
                )
            continue
        if piece.startswith("</span"):
            if languages:
                languages.pop()
        elif piece.startswith("<span"):
            own = SPAN_LANG.match(piece)
            languages.append(own[1] if own else (languages[-1] if languages else None))
            if own and site and own[1] != lang:
                pieces[index] = piece[:-1] + " data-pagefind-ignore>"
            elif own and not site:
                shown = piece.replace(" hidden", "")
                pieces[index] = shown if own[1] == lang else shown[:-1] + " hidden>"
    return "".join(pieces)


def html_in_language(markup: str, lang: str, labels: Labels) -> str:
    """A jaxguide output's HTML as ``lang``'s site shows it: labels translated,
    the other language's spans ignored by the search.

    >>> print(html_in_language('<p class="jaxguide-output"><code>naive loop</code>'
    ...     '<span lang="en">a</span><span lang="ko" hidden>naive loop 대비</span>',
    ...     "ko", Labels({"naive loop": "단순한 반복문"})).replace("<span", "\\n<span"))
    <p class="jaxguide-output"><code>단순한 반복문</code>
    <span lang="en" data-pagefind-ignore>a</span>
    <span lang="ko" hidden>단순한 반복문 대비</span>
    """
    if OUTPUT_CLASS not in markup:
        return markup
    return _rewrite(markup, lang, labels, site=True)


def notebook_in_language(
    notebook: nbformat.NotebookNode, lang: str, labels: Labels
) -> nbformat.NotebookNode:
    """``notebook`` whose jaxguide outputs show ``lang`` (Jupyter and Colab
    show the span that is not ``hidden``) with the page's labels."""
    notebook = copy.deepcopy(notebook)
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            # A glued output's keys carry glue's prefix: .../text/html.
            for key in [key for key in data if key.endswith("text/html")]:
                markup = data[key]
                if isinstance(markup, list):
                    markup = "".join(markup)
                if isinstance(markup, str) and OUTPUT_CLASS in markup:
                    data[key] = _rewrite(markup, lang, labels, site=False)
    return notebook


def _outputs_in_language(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    from docutils import nodes  # noqa: PLC0415 (this module imports no Sphinx)

    lang = app.config.language
    labels = Labels.of(page_labels(app.env.metadata.get(docname, {})), lang)
    for raw in doctree.findall(nodes.raw):
        if "html" in raw.get("format", "").split() and OUTPUT_CLASS in raw.astext():
            raw.children = [nodes.Text(html_in_language(raw.astext(), lang, labels))]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("doctree-resolved", _outputs_in_language)
    return PARALLEL_SAFE
