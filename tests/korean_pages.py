"""tests/roots/korean-pages built in process in both languages, and the
section anchors of a built page (test_korean_interface.py,
test_section_anchors.py)."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import build_project, sample_project
from jaxguide_site.languages import LANGUAGES

# Sphinx writes a section's first id on <section> and each other one as an
# empty <span> before its heading.
SECTION = re.compile(
    r'<section\b[^>]*\bid="(?P<first>[^"]*)">\s*'
    r'(?P<spans>(?:<span id="[^"]*"></span>\s*)*)<h[1-6]\b'
)


def build_korean_pages(dest: Path) -> Path:
    """The sample project built into ``dest/out/<lang>/html``, its code cells
    not executed; ``dest/out``."""
    root = sample_project("korean-pages", dest / "src")
    out = dest / "out"
    for lang in LANGUAGES:
        result = build_project(
            root / lang, out / lang, lang=lang, cache=dest / "cache", execute=False
        )
        assert result.returncode == 0, result.stdout + result.stderr
    return out


def section_ids(html: str) -> list[list[str]]:
    """Each section's ids in a built page, in order, its first id first."""
    return [
        [match["first"], *re.findall(r'id="([^"]*)"', match["spans"])]
        for match in SECTION.finditer(html)
    ]
