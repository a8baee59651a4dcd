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

The theme's stylesheet names every Font Awesome icon (some 2,000 rules like
``.fa-github``'s, 19 of its 64 kB gzipped, in the way of every page's first
paint): the rules of the icons no page shows, which the cut
fonts no longer draw, are removed from it too. The ``@font-face`` rules say
``font-display: block`` (an icon's private character never shows as text);
the tests check that every font face keeps one.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import re
from pathlib import Path

from fontTools import subset
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

FONTS = Path("_static") / "vendor" / "fontawesome" / "webfonts"
# Font Awesome's own script names every icon; no page loads it
# (docs/_templates/static/webpack-macros.html).
NOT_LOADED = frozenset({"fontawesome.js"})
# A stylesheet rule with no braces inside it: selector, declarations.
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
FA_CLASS = re.compile(r"\.(fa-[a-z0-9-]+)")
ONLY_FA_CLASSES = re.compile(r"\.fa-[a-z0-9-]+(\s*,\s*\.fa-[a-z0-9-]+)*")
QUOTED = r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'"""  # a CSS string, quotes included
STRING = re.compile(QUOTED, re.DOTALL)
ICON = re.compile(rf"(?<![-\w])--fa\s*:\s*({QUOTED})", re.DOTALL)
# CSS escapes: a code point in hex (one optional space ends it), or any
# other character standing for itself ("\+" is "+").
ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.DOTALL)


def css_text(string: str) -> str:
    r"""The characters a quoted CSS string stands for.

    >>> [css_text(s) for s in (r'"\f09b"', r'"\30 "', r'"\+"', '"A"')]
    ['\uf09b', '0', '+', 'A']
    """
    body = string[1:-1]
    return ESCAPE.sub(lambda m: chr(int(m[1], 16)) if m[1] else m[2], body)


def strings_in(declarations: str) -> str:
    return "".join(css_text(match) for match in STRING.findall(declarations))


class IconStyles:
    r"""What the stylesheets say about icons: each icon class's characters
    (``.fa-github{--fa:"\f09b"}``, ``.fa-plus{--fa:"\+"}``), every Font Awesome
    class (icons, and styles such as ``fa-lg`` or ``fa-spin``), and the
    characters of the strings in every other rule, which include the icons
    the stylesheets draw themselves (``--pst-icon-bell:"<U+F0F3>"``).

    >>> styles = IconStyles(
    ...     r'.fa-github{--fa:"\f09b"}.fa-search,.fa-magnifying-glass{--fa:"\f002"}'
    ...     r'.fa-lg{font-size:1.25em}.x:after{content:"\f105"}'
    ... )
    >>> sorted(styles.icons), sorted(styles.classes - styles.icons.keys())
    (['fa-github', 'fa-magnifying-glass', 'fa-search'], ['fa-lg'])
    >>> hex(ord(styles.icons["fa-search"])), styles.other == chr(0xF105)
    ('0xf002', True)
    """

    def __init__(self, css: str) -> None:
        self.icons: dict[str, str] = {}
        self.classes: set[str] = set()
        other: list[str] = []
        for selector, declarations in RULE.findall(css):
            names = FA_CLASS.findall(selector)
            self.classes.update(names)
            if not ONLY_FA_CLASSES.fullmatch(selector.strip()):
                other.append(strings_in(declarations))
                continue
            icon = ICON.search(declarations)
            if icon is not None:
                for name in names:
                    self.icons[name] = self.icons.get(name, "") + css_text(icon[1])
        self.other = "".join(other)


def without_unused_icons(css: str, used: set[str]) -> str:
    r"""``css`` without the rules that only give unused icon classes their
    character.

    >>> without_unused_icons(
    ...     r'.fa-a{--fa:"\f001"}.fa-b,.fa-c{--fa:"\f002"}.fa-d{color:red}', {"fa-c"}
    ... )
    '.fa-b,.fa-c{--fa:"\\f002"}.fa-d{color:red}'
    """

    def kept(rule: re.Match[str]) -> str:
        selector, declarations = rule[1].strip(), rule[2]
        if not ONLY_FA_CLASSES.fullmatch(selector) or ICON.search(declarations) is None:
            return rule[0]
        return rule[0] if used & set(FA_CLASS.findall(selector)) else ""

    return RULE.sub(kept, css)


def used_fa_classes(texts: list[str]) -> set[str]:
    """The Font Awesome classes named in pages and scripts."""
    return {match for text in texts for match in re.findall(r"\bfa-[a-z0-9-]+", text)}


def subset_icon_fonts(app: Sphinx, exception: Exception | None) -> None:
    fonts = Path(app.outdir) / FONTS
    if exception is not None or app.builder.format != "html" or not fonts.is_dir():
        return
    static = Path(app.outdir) / "_static"
    styles = IconStyles(
        "\n".join(path.read_text(encoding="utf-8") for path in static.rglob("*.css"))
    )
    shown = [
        path.read_text(encoding="utf-8")
        for pattern in ("*.html", "_static/**/*.js")
        for path in Path(app.outdir).glob(pattern)
        if path.name not in NOT_LOADED
    ]
    used = used_fa_classes(shown)
    unknown = sorted(used - styles.classes)
    if unknown:
        logger.warning(
            "icon classes that Font Awesome does not have (they will not show): %s",
            ", ".join(unknown),
            type="jaxguide",
            subtype="icons",
        )
    characters = styles.other + "".join(
        styles.icons[name] for name in used & styles.icons.keys()
    )
    codepoints = {ord(character) for character in characters}
    for stylesheet in static.rglob("*.css"):
        css = stylesheet.read_text(encoding="utf-8")
        cut = without_unused_icons(css, used)
        if cut != css:
            stylesheet.write_text(cut, encoding="utf-8")
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
