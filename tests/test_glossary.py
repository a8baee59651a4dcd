"""The glossary file (docs/_data/glossary.toml), its checks and its pages.

That the Korean pages avoid the variants the glossary rules out is checked by
the translation checker (tests/test_translation.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import DOCS, GUIDE_PAGES
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.translation.glossary import load_glossary

GLOSSARY = DOCS / "_data" / "glossary.toml"
GOOD = """
[[term]]
en = "convolution"
ko = "합성곱"
avoid = ["컨볼루션"]
page = "vmap"
en_def = "Sliding a kernel over a signal."
ko_def = "커널을 신호 위로 밀며 곱해 더하는 연산입니다."
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "glossary.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_real_glossary_loads_and_links_existing_pages() -> None:
    terms = load_glossary(GLOSSARY)
    assert len(terms) >= 40
    # Both languages' glossary tables link the page: a page in progress
    # would be a link to a missing page in one of them.
    pages = set(GUIDE_PAGES.in_every_language())
    assert {term.page for term in terms if term.page} <= pages
    assert any(term.en == "convolution" and term.ko == "합성곱" for term in terms)


def test_good_entry_is_read(tmp_path: Path) -> None:
    (term,) = load_glossary(write(tmp_path, GOOD))
    assert (term.en, term.ko, term.avoid, term.page) == (
        "convolution",
        "합성곱",
        ("컨볼루션",),
        "vmap",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD.replace('ko = "합성곱"\n', ""),
            "term 1 ('convolution'): missing or empty ko",
        ),
        (GOOD.replace("page =", "pages ="), "unknown key(s) pages"),
        (GOOD + GOOD, "term 2 ('convolution'): duplicate term"),
        (GOOD.replace('["컨볼루션"]', '"컨볼루션"'), "'avoid' must be a list"),
        ("[[term]\n", "not valid TOML"),
        ('title = "no terms"\n', "expected a list of [[term]] tables"),
    ],
)
def test_bad_file_is_reported_with_the_entry(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        load_glossary(write(tmp_path, text))


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="glossary file not found"):
        load_glossary(tmp_path / "nope.toml")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_page_shows_every_term_in_its_language(
    built: dict[str, Path], lang: str
) -> None:
    html = (built[lang] / "glossary.html").read_text(encoding="utf-8")
    header = "뜻" if lang == "ko" else "Meaning"
    assert f"<p>{header}</p>" in html
    for term in load_glossary(GLOSSARY):
        assert (
            f'id="{re.sub(r"[^a-z0-9]+", "-", ("term-" + term.en).lower()).strip("-")}"'
            in html
        )
        assert term.ko in html
        definition = term.ko_def if lang == "ko" else term.en_def
        assert max(re.findall(r"\w+", definition), key=len) in html  # quotes get curled
