"""What a page makes a phone wait for (issue 33): images that keep their room
and, below the first, load as the reader scrolls; no script in <head> that
stops the page but the one the inline scripts read; no theme template
published under _static; icon fonts that say how to show text meanwhile.

A small project built with the site's conf.py: a figure in the introduction,
an SVG image and a notebook's plot (an executed output, stored in an .ipynb)
further down.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from browser import serve_directory
from helpers import build_project
from jaxguide_site.image_sizes import NO_SCALED_LINK
from jaxguide_site.page_loading import RUN_AT_ONCE, script_name

INDEX = """# Images

The introduction's figure:

```{figure} intro.png
:alt: A red rectangle.

A caption.
```

## Further down

```{image} mark.svg
:alt: A mark.
```

```{toctree}
plots
```
"""
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="32"'
    ' viewBox="0 0 48 32"><rect width="48" height="32" fill="red"/></svg>'
)


def png(width: int, height: int) -> bytes:
    """A red PNG of the given size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def notebook_with_a_plot(width: int, height: int) -> str:
    """An executed notebook whose one cell's output is a PNG, as myst-nb
    writes a plot's."""
    output = {
        "output_type": "display_data",
        "data": {
            "image/png": base64.b64encode(png(width, height)).decode(),
            "text/plain": ["<Figure>"],
        },
        "metadata": {},
    }
    cell = {
        "cell_type": "code",
        "execution_count": 1,
        "id": "plot",
        "metadata": {},
        "outputs": [output],
        "source": ["plot()"],
    }
    heading = {
        "cell_type": "markdown",
        "id": "title",
        "metadata": {},
        "source": ["# Plots\n", "\n", "## A plot\n"],
    }
    return json.dumps(
        {
            "cells": [heading, cell],
            "metadata": {
                "kernelspec": {
                    "name": "python3",
                    "display_name": "Python 3",
                    "language": "python",
                }
            },
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's HTML output (English)."""
    root = tmp_path_factory.mktemp("page-loading")
    src = root / "src"
    src.mkdir()
    (src / "index.md").write_text(INDEX, encoding="utf-8")
    (src / "intro.png").write_bytes(png(40, 30))
    (src / "mark.svg").write_text(SVG, encoding="utf-8")
    (src / "plots.ipynb").write_text(notebook_with_a_plot(1200, 300), encoding="utf-8")
    result = build_project(
        src, root / "out", lang="en", cache=root / "cache", execute=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "out" / "html"


def images(html: str) -> list[str]:
    """The page's content images (not the sidebar's logo)."""
    return [
        tag for tag in re.findall(r"<img\b[^>]*>", html) if "logo__image" not in tag
    ]


def attribute(tag: str, name: str) -> str | None:
    found = re.search(rf'\s{name}="([^"]*)"', tag)
    return found.group(1) if found else None


def test_images_have_their_files_size_and_only_the_first_loads_at_once(
    project: Path,
) -> None:
    index = images((project / "index.html").read_text(encoding="utf-8"))
    assert len(index) == 2, index
    intro, mark = index
    assert (attribute(intro, "width"), attribute(intro, "height")) == ("40", "30")
    assert attribute(intro, "loading") is None  # above the fold: fetched at once
    assert (attribute(mark, "width"), attribute(mark, "height")) == ("48", "32")
    assert attribute(mark, "loading") == "lazy"
    [plot] = images((project / "plots.html").read_text(encoding="utf-8"))
    assert "_images/" in (attribute(plot, "src") or "")
    assert (attribute(plot, "width"), attribute(plot, "height")) == ("1200", "300")
    assert attribute(plot, "loading") == "lazy"  # under the page's first section


def test_sized_images_are_not_wrapped_in_links_to_their_files(project: Path) -> None:
    html = (project / "index.html").read_text(encoding="utf-8")
    assert NO_SCALED_LINK in images(html)[0]
    assert "image-reference" not in html


_LOADED_SIZE_JS = """async (image) => {
  image.scrollIntoView();
  if (!image.complete) await new Promise((done) => image.addEventListener("load", done));
  const box = image.getBoundingClientRect();
  return [box.width, box.height, image.naturalWidth, image.naturalHeight];
}"""


def test_a_plot_shrunk_to_a_phone_keeps_its_shape(
    project: Path, browser: Browser
) -> None:
    """The plot's height follows its width where a phone's column shrinks it
    (docs/_static/jaxguide.css): the height attribute alone would keep it tall."""
    with serve_directory(project) as base:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            page = context.new_page()
            page.goto(f"{base}/plots.html")
            image = page.locator("img[src*='_images/']")
            width, height, natural_width, natural_height = image.evaluate(
                _LOADED_SIZE_JS
            )
        finally:
            context.close()
    assert width < natural_width
    assert height == pytest.approx(width * natural_height / natural_width, abs=1)


def head_scripts(html: str) -> list[str]:
    head = html.split("</head>", 1)[0]
    return re.findall(r"<script\b[^>]*>", head)


@pytest.mark.parametrize("page", ["index", "plots", "search"])
def test_no_script_in_head_blocks_the_page_but_the_options(
    project: Path, page: str
) -> None:
    """Every script file in <head> is deferred (or async), except
    documentation_options.js, which the inline scripts after it read."""
    blocking = [
        script_name(attribute(tag, "src") or "")
        for tag in head_scripts((project / f"{page}.html").read_text(encoding="utf-8"))
        if attribute(tag, "src")
        and not re.search(r"\s(defer|async)\b", tag)
        and attribute(tag, "type") != "module"
    ]
    assert blocking == sorted(RUN_AT_ONCE)


@pytest.mark.parametrize("page", ["index", "search"])
def test_the_first_paint_waits_for_no_imported_stylesheet_or_preloaded_script(
    project: Path, page: str
) -> None:
    """Sphinx's basic.css is linked, not imported by the theme's theme.css
    (docs/_templates/static/webpack-macros.html), and the theme's deferred
    scripts are not preloaded ahead of the stylesheets."""
    head = (project / f"{page}.html").read_text(encoding="utf-8").split("</head>")[0]
    stylesheets = re.findall(r'<link\b[^>]*rel="stylesheet"[^>]*>', head)
    assert [s for s in stylesheets if "basic.css" in s]
    assert [s for s in stylesheets if "styles/theme.css" in s] == []
    assert re.findall(r'<link\b[^>]*rel="preload"[^>]*>', head) == []
    assert "bootstrap.js" in (project / f"{page}.html").read_text(encoding="utf-8")


def test_no_theme_template_is_published(project: Path) -> None:
    assert sorted(p.name for p in (project / "_static").rglob("*.html")) == []


def test_every_font_face_says_how_text_shows_while_it_loads(project: Path) -> None:
    """Each @font-face of the published stylesheets (the icon fonts) has a
    font-display: without one, a browser's default hides text until then."""
    faces = [
        face
        for css in (project / "_static").rglob("*.css")
        for face in re.findall(r"@font-face\s*\{[^}]*\}", css.read_text("utf-8"))
    ]
    assert len(faces) >= 3
    assert [face for face in faces if "font-display" not in face] == []
