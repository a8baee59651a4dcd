"""A `(label)=` that differs between a page and its translation: one finding,
at the translation's line where the label belongs (translation/labels.py).

A label renamed on either side is one finding ("rename it to match"), not a
label missing on each side plus a `{ref}` finding on every page linking to
it; a label deleted from the translation is found at the heading (or the
paragraph) it stood before. The `{ref}` links to a label that only the
source has are left to that finding (translation/prose.py); links the source
itself breaks are still its own findings. The tiny docs folder of
tests/translation_docs.py shows each case; a copy of the real pages shows
the links of other pages.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from helpers import DOCS
from jaxguide_site.translation.consistency import check
from translation_docs import edit, errors, in_progress, line, make_docs, write

RENAMED = (
    "label ({new})= here, the English page has ({old})= at {at}: rename it to match"
)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return make_docs(tmp_path)


def test_label_renamed_in_the_translation_is_one_finding_without_its_links(
    docs: Path,
) -> None:
    edit(docs, "en/index", "`intro`.", "`intro`. See {ref}`intro-more`.")
    edit(
        docs, "ko/index", "읽으세요.", "읽으세요. {ref}`더 보기 <intro-more>`도 보세요."
    )
    edit(docs, "ko/intro", "(intro-more)=", "(intro-moer)=")
    at = line(docs, "en/intro", "(intro-more)=")
    assert errors(check(docs)) == [
        f"docs/ko/intro.md:{line(docs, 'ko/intro', '(intro-moer)=')}: "
        + RENAMED.format(
            new="intro-moer", old="intro-more", at=f"docs/en/intro.md:{at}"
        )
    ]


def test_label_renamed_in_the_source_leaves_the_sources_links_to_it(
    docs: Path,
) -> None:
    """The translation follows the rename; the source's links to the old
    name are broken in the source, and found there."""
    edit(docs, "en/index", "`intro`.", "`intro`. See {ref}`intro-more`.")
    edit(docs, "en/intro", "(intro-more)=", "(intro-further)=")
    edit(
        docs, "ko/index", "읽으세요.", "읽으세요. {ref}`더 보기 <intro-more>`도 보세요."
    )
    assert errors(check(docs)) == [
        f"docs/ko/intro.md:{line(docs, 'ko/intro', '(intro-more)=')}: "
        + RENAMED.format(
            new="intro-more",
            old="intro-further",
            at=f"docs/en/intro.md:{line(docs, 'en/intro', '(intro-further)=')}",
        ),
        (
            f"docs/en/index.md:{line(docs, 'en/index', 'See')}: {{ref}} target "
            "'intro-more' is not a label on any page of docs/en/: did you mean "
            "'intro-further'?"
        ),
    ]


def test_label_deleted_from_the_translation_is_found_at_its_heading(
    docs: Path,
) -> None:
    edit(docs, "ko/intro", "(intro-more)=\n", "")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '## 더 보기')}: label "
            "(intro-more)= is missing before heading '## 더 보기': the English page "
            f"has (intro-more)= at docs/en/intro.md:"
            f"{line(docs, 'en/intro', '(intro-more)=')}: add it"
        )
    ]


def test_label_of_a_paragraph_deleted_from_the_translation_is_found_there(
    docs: Path,
) -> None:
    for page, image in (("en/intro", "![A"), ("ko/intro", "![직선")):
        edit(docs, page, image, f"(intro-figure)=\n{image}")
    edit(docs, "ko/intro", "(intro-figure)=\n", "")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '![직선')}: label "
            "(intro-figure)= is missing here (section '## 더 보기', paragraph 1): "
            "the English page has (intro-figure)= at docs/en/intro.md:"
            f"{line(docs, 'en/intro', '(intro-figure)=')}: add it"
        )
    ]


def test_label_only_the_translation_has_is_named(docs: Path) -> None:
    edit(docs, "ko/intro", "먼저", "(intro-first)=\n먼저")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '(intro-first)=')}: label "
            "(intro-first)= is not in docs/en/intro.md"
        )
    ]


def test_link_to_a_label_of_a_page_being_translated_is_still_found(
    docs: Path,
) -> None:
    """Only a page both languages have gets the label's finding."""
    write(docs, "en/extra", "(extra-label)=\n# Extra\n\nMore to read.\n")
    in_progress(docs, ko=["extra"], en=[])
    edit(docs, "en/index", "intro\n```", "intro\nextra\n```")
    edit(docs, "en/index", "`intro`.", "`intro`. See {ref}`extra-label`.")
    edit(docs, "ko/index", "읽으세요.", "읽으세요. {ref}`extra-label`도 보세요.")
    assert errors(check(docs)) == [
        (
            f"docs/ko/index.md:{line(docs, 'ko/index', 'extra-label')}: {{ref}} target "
            "'extra-label' is not a label on any page of docs/ko/"
        )
    ]


@pytest.fixture
def real(tmp_path: Path) -> Path:
    """A copy of the guide's data, its jit pages and the pages linking to
    jit's (jit-cache)= (the other pages' findings are left out below)."""
    shutil.copytree(DOCS / "_data", tmp_path / "docs" / "_data")
    for lang in ("en", "ko"):
        (tmp_path / "docs" / lang).mkdir()
        for path in (DOCS / lang).glob("*.md"):
            text = path.read_text(encoding="utf-8")
            if path.stem == "jit" or "jit-cache" in text:
                shutil.copy(path, tmp_path / "docs" / lang)
    return tmp_path / "docs"


def about(found: list[str], label: str) -> list[str]:
    return [message for message in found if label in message]


def test_real_page_label_renamed_in_korean_is_one_finding(real: Path) -> None:
    """Not one per Korean page linking to it (gradient-descent, sharp-bits)."""
    linked = [
        p for p in (real / "ko").glob("*.md") if "{ref}`jit-cache`" in p.read_text()
    ]
    assert len(linked) >= 2
    edit(real, "ko/jit", "(jit-cache)=", "(jit-cachee)=")
    at = line(real, "en/jit", "(jit-cache)=")
    assert about([str(p) for p in check(real).errors], "jit-cache") == [
        f"docs/ko/jit.md:{line(real, 'ko/jit', '(jit-cachee)=')}: "
        + RENAMED.format(new="jit-cachee", old="jit-cache", at=f"docs/en/jit.md:{at}")
    ]


def test_real_page_label_renamed_in_english_names_the_english_links(
    real: Path,
) -> None:
    edit(real, "en/jit", "(jit-cache)=", "(jit-cache2)=", restamp=False)
    links = [
        f"{path.relative_to(real.parent).as_posix()}:{number}: {{ref}} target "
        "'jit-cache' is not a label on any page of docs/en/: did you mean "
        "'jit-cache2'?"
        for path in sorted((real / "en").glob("*.md"))
        for number, text in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\{ref\}`(?:[^`]*<)?jit-cache>?`", text)
    ]
    assert len(links) >= 2
    report = check(real)
    renamed = RENAMED.format(
        new="jit-cache",
        old="jit-cache2",
        at=f"docs/en/jit.md:{line(real, 'en/jit', '(jit-cache2)=')}",
    )
    assert sorted(about([str(p) for p in report.errors], "jit-cache")) == links
    # The rename made the translation stale: its label is part of that warning.
    at_ko = line(real, "ko/jit", "(jit-cache)=")
    stale = "(the source changed since the stamp)"
    assert about([str(p) for p in report.warnings], "jit-cache2") == [
        f"docs/ko/jit.md:{at_ko}: {renamed} {stale}"
    ]
