"""The theme's icon fonts, cut to the icons the site shows.

pydata-sphinx-theme draws its icons with the Font Awesome webfonts: every
page that shows one downloads the whole font, 115 kB for the solid icons and
110 kB for the brands (the GitHub button alone), of the 400 kB a first view
may weigh (issue 23). After the build, each font in
``_static/vendor/fontawesome/webfonts`` keeps only the glyphs of

- the icon classes (``fa-github``) written anywhere in the built pages and
  scripts, looked up in the theme's stylesheet (``.fa-github{--fa:"\\f09b"}``);
- every icon character the stylesheets use otherwise (the admonitions' and
  buttons' icons, as ``--pst-icon-bell:"<U+F0F3>"`` or ``content:"\\f105"``).

fontTools' subsetter writes the fonts; a class name that the stylesheet
lacks (a misspelt icon) is reported, as the icon would not show.
"""

from __future__ import annotations

import re
from pathlib import Path

from fontTools import subset
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

FONTS = Path("_static") / "vendor" / "fontawesome" / "webfonts"
# A stylesheet rule with no braces inside it: selector, declarations.
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
ICON_CLASS = re.compile(r"\.(fa-[a-z0-9-]+)")
# Font Awesome's icons are in Unicode's private use area, written in CSS as
# an escape ("\f09b") or as the character itself.
ESCAPE = re.compile(r"\\([ef][0-9a-f]{3})")
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
# Font Awesome's own script names every icon; no page loads it
# (docs/_templates/static/webpack-macros.html).
NOT_LOADED = frozenset({"fontawesome.js"})
# Classes of Font Awesome that are styles, sizes or effects, not icons.
NOT_ICONS = re.compile(
    r"fa-(solid|regular|brands|classic|sharp|fw|lg|xs|sm|xl|[0-9]+x|spin|pulse"
    r"|beat|fade|bounce|flip|shake|rotate-[0-9a-z-]+|stack(-[0-9]x)?|inverse"
    r"|border|pull-(left|right|start|end)|li|ul|width-auto|custom)$"
)


def icon_codepoints(css: str) -> tuple[dict[str, set[int]], set[int]]:
    """The stylesheet's icon classes, each with its character, and the icon
    characters it uses outside those class rules.

    >>> by_class, other = icon_codepoints(
    ...     '.fa-github{--fa:"\\\\f09b"}.fa-search,.fa-magnifying-glass{--fa:"\\\\f002"}'
    ...     ':root{--pst-icon-bell:"\\uf0f3"}.x:after{content:"\\\\f105"}'
    ... )
    >>> sorted(by_class), hex(by_class["fa-search"].pop()), sorted(map(hex, other))
    (['fa-github', 'fa-magnifying-glass', 'fa-search'], '0xf002', ['0xf0f3', '0xf105'])
    """
    by_class: dict[str, set[int]] = {}
    other: set[int] = set()
    for selector, declarations in RULE.findall(css):
        found = {int(code, 16) for code in ESCAPE.findall(declarations)}
        found |= {ord(char) for char in PRIVATE_USE.findall(declarations)}
        if not found:
            continue
        selectors = [part.strip() for part in selector.split(",")]
        if all(re.fullmatch(r"\.fa-[a-z0-9-]+", part) for part in selectors):
            for part in selectors:
                by_class.setdefault(part[1:], set()).update(found)
        else:
            other |= found
    return by_class, other


def used_icon_classes(texts: list[str]) -> set[str]:
    """The Font Awesome icon classes named in pages and scripts."""
    names = {match for text in texts for match in re.findall(r"\bfa-[a-z0-9-]+", text)}
    return {name for name in names if not NOT_ICONS.match(name)}


def subset_icon_fonts(app: Sphinx, exception: Exception | None) -> None:
    fonts = Path(app.outdir) / FONTS
    if exception is not None or app.builder.format != "html" or not fonts.is_dir():
        return
    static = Path(app.outdir) / "_static"
    css = "\n".join(path.read_text(encoding="utf-8") for path in static.rglob("*.css"))
    by_class, other = icon_codepoints(css)
    shown = [
        path.read_text(encoding="utf-8")
        for pattern in ("*.html", "_static/**/*.js")
        for path in Path(app.outdir).glob(pattern)
        if path.name not in NOT_LOADED
    ]
    used = used_icon_classes(shown)
    unknown = sorted(name for name in used if name not in by_class)
    if unknown:
        logger.warning(
            "icon classes that Font Awesome does not have (they will not show): %s",
            ", ".join(unknown),
            type="jaxguide",
            subtype="icons",
        )
    codepoints = other | {
        code for name in used & by_class.keys() for code in by_class[name]
    }
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    for font_path in sorted(fonts.glob("*.woff2")):
        font = subset.load_font(str(font_path), options)
        try:
            subsetter = subset.Subsetter(options)
            subsetter.populate(unicodes=codepoints)
            subsetter.subset(font)
            subset.save_font(font, str(font_path), options)
        finally:
            font.close()


def setup(app: Sphinx) -> dict[str, bool]:
    app.connect("build-finished", subset_icon_fonts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
