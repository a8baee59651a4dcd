"""The guide's source notes appear on a page only in its "From the notes" asides.

Readers cannot see the five notes the guide grew from: the index introduces
them once, and any other page keeps a figure or claim of theirs in an
admonition of class ``from-the-notes``, titled the same on every page of a
language (the contributing guide, written for contributors, may name them).
"""

from __future__ import annotations

import re

import pytest

from helpers import GUIDE_PAGES
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.translation.parity import read_source

CLASS = "from-the-notes"
TITLES = {"en": "From the notes", "ko": "노트에서"}
MAY_NAME_THEM = {"index", "contributing"}
# "note 003", "the notes", "노트 003", "노트" (not 노트북, a notebook).
MENTION = re.compile(
    r"\b[Nn]otes? 00[0-4]\b|\bthe (?:source |study )?notes\b|노트(?!북)", re.IGNORECASE
)


def asides(path: str) -> tuple[list[range], list[str]]:
    """The lines of each from-the-notes aside of a page, and their titles."""
    page = read_source(GUIDE_PAGES.docs / path)
    found = [
        d
        for d in page.structure.directives
        if d.name == "admonition" and CLASS in str(d.options.get("class", ""))
    ]
    return [range(d.line, d.end + 1) for d in found], [d.argument for d in found]


PAGES = [
    pytest.param(lang, name, id=f"{name}-{lang}")
    for lang in LANGUAGES
    for name in GUIDE_PAGES.written[lang]
    if name not in MAY_NAME_THEM
]


@pytest.mark.parametrize(("lang", "name"), PAGES)
def test_a_page_names_the_notes_only_in_its_asides(lang: str, name: str) -> None:
    path = f"{lang}/{name}.md"
    page = read_source(GUIDE_PAGES.docs / path)
    inside, titles = asides(path)
    outside = [
        f"{path}:{number}: {line.strip()}"
        for number, line in page.prose
        if MENTION.search(line) and not any(number in lines for lines in inside)
    ]
    assert not outside, "\n".join(outside)
    assert set(titles) <= {TITLES[lang]}, titles


def test_the_index_introduces_the_notes_in_each_language() -> None:
    for lang in LANGUAGES:
        text = (GUIDE_PAGES.docs / lang / "index.md").read_text(encoding="utf-8")
        for first_and_last in ("000", "004"):
            assert re.search(rf"\b{first_and_last}\b", text), lang
