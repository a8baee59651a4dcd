"""Math as MathML, converted when the site is built: no MathJax, no CDN.

Sphinx's default renderer loads MathJax from a CDN, so offline, behind a
firewall or in print a page shows raw TeX. Every current browser renders
MathML Core itself, so each formula is converted once here, with
latex2mathml, and the pages load no script for math. The notebooks keep the
TeX, which Jupyter and Colab render themselves.

A formula latex2mathml cannot convert, or converts to something broken (an
alignment ``&`` left as a character), is a warning naming the page and the
formula, which the strict build turns into a failure.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes
from latex2mathml.converter import convert
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

from .extension import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata
    from sphinx.writers.html5 import HTML5Translator

logger = logging.getLogger(__name__)

RENDERER = "mathml"
# What latex2mathml leaves behind when it does not understand the TeX: an
# error element, an alignment mark, or a backslash shown as text.
_BROKEN = re.compile(r"<merror|<mi>&</mi>|>[^<]*\\")
# Text-mode arguments, where latex2mathml keeps an escaped underscore as is.
_TEXT_ARGUMENT = re.compile(r"\\(text|texttt|mathrm)\{([^}]*)\}")


def _prepare(latex: str) -> str:
    """TeX's own reading of what latex2mathml takes literally: a line break
    is a space (so a trailing backslash is a control space), and an escaped
    underscore in text is an underscore."""
    latex = " ".join(latex.splitlines())
    return _TEXT_ARGUMENT.sub(
        lambda m: f"\\{m[1]}{{{m[2].replace(chr(92) + '_', '_')}}}", latex
    )


def to_mathml(latex: str, *, display: str) -> str:
    """The MathML of one formula; ``ValueError`` if it would render wrongly."""
    try:
        mathml = convert(_prepare(latex), display=display)
    except Exception as error:  # latex2mathml raises many kinds
        message = f"{type(error).__name__}: {error}"
        raise ValueError(message) from error
    if _BROKEN.search(mathml):
        message = "latex2mathml left part of it unconverted"
        raise ValueError(message)
    return mathml


def _convert_or_warn(
    translator: HTML5Translator, node: nodes.Element, latex: str, display: str
) -> str:
    try:
        return to_mathml(latex, display=display)
    except ValueError as error:
        logger.warning(
            "math cannot be shown as MathML (%s): %s; rewrite the formula "
            "with commands latex2mathml supports",
            error,
            latex,
            location=node,
            type="jaxguide",
            subtype="math",
        )
        return f"<code>{translator.encode(latex)}</code>"


def visit_inline(translator: HTML5Translator, node: nodes.math) -> None:
    translator.body.append(
        translator.starttag(node, "span", "", CLASS="math notranslate nohighlight")
    )
    translator.body.append(_convert_or_warn(translator, node, node.astext(), "inline"))
    translator.body.append("</span>")
    raise nodes.SkipNode


def visit_block(translator: HTML5Translator, node: nodes.math_block) -> None:
    translator.body.append(
        translator.starttag(node, "div", CLASS="math notranslate nohighlight")
    )
    if node.get("number"):
        number = get_node_equation_number(translator, node)
        translator.body.append(f'<span class="eqno">({number})')
        translator.add_permalink_ref(node, _("Link to this equation"))
        translator.body.append("</span>")
    # As Sphinx's own renderers do: formulas separated by a blank line are
    # shown one below the other.
    parts = [part for part in node.astext().split("\n\n") if part.strip()]
    for part in parts:
        translator.body.append(_convert_or_warn(translator, node, part, "block"))
    translator.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_html_math_renderer(
        RENDERER,
        inline_renderers=(visit_inline, None),
        block_renderers=(visit_block, None),
    )
    return PARALLEL_SAFE
