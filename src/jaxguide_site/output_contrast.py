"""Coloured text in executed HTML outputs, made readable.

Some outputs colour their text on a coloured background:
``jax.debug.visualize_array_sharding`` (through rich) writes each shard as
``<span style="color: #ffffff; ...; background-color: #8ca252">``, choosing
white or black text by its own rule, and several of its colours give white
text less than WCAG's 4.5:1 (2.1:1 on its pink; axe's color-contrast, a
serious finding). Where a span's text and background fall short, its text
becomes black or white, whichever reads better; the backgrounds, which say
which device holds which shard, stay as the output drew them.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE

WCAG_AA = 4.5
HEX = r"#[0-9a-fA-F]{6}"
STYLE = re.compile(r'style="([^"]*)"')
TEXT = re.compile(rf"(?<![-\w])(color|text-decoration-color):\s*({HEX})")
BACKGROUND = re.compile(rf"background-color:\s*({HEX})")


def luminance(colour: str) -> float:
    """WCAG's relative luminance of ``#rrggbb``."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two colours.

    >>> round(contrast("#ffffff", "#de9ed6"), 2), round(contrast("#000000", "#ffffff"))
    (2.11, 21)
    """
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable_style(style: str) -> str:
    """``style`` with its text colour replaced where it reads poorly on its
    background.

    >>> readable_style("color: #ffffff; text-decoration-color: #ffffff; "
    ...                "background-color: #de9ed6")
    'color: #000000; text-decoration-color: #000000; background-color: #de9ed6'
    >>> readable_style("color: #ffffff; background-color: #393b79")
    'color: #ffffff; background-color: #393b79'
    """
    background = BACKGROUND.search(style)
    text = TEXT.search(style)
    if background is None or text is None:
        return style
    if contrast(text.group(2), background.group(1)) >= WCAG_AA:
        return style
    best = max(("#000000", "#ffffff"), key=lambda c: contrast(c, background.group(1)))
    return TEXT.sub(lambda m: f"{m.group(1)}: {best}", style)


def readable_html(html: str) -> str:
    return STYLE.sub(lambda m: f'style="{readable_style(m.group(1))}"', html)


class ReadableOutputColours(SphinxPostTransform):
    """Apply :func:`readable_html` to the HTML outputs of executed cells."""

    default_priority = 400
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:  # noqa: ARG002 (Sphinx passes none)
        for raw in self.document.findall(nodes.raw):
            if (
                "html" not in raw.get("format", "").split()
                or "background-color" not in raw.astext()
            ):
                continue
            html = raw.astext()
            readable = readable_html(html)
            if readable != html:
                raw.children = [nodes.Text(readable)]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_post_transform(ReadableOutputColours)
    return PARALLEL_SAFE
