"""What a volunteer meets in the translation checker beyond a page's
problems: drafts (translation/states.py), reviews (translation/
reviews.py), the work to pick up (translation/checker.py), the glossary's
terms held section by section (translation/term_pairs.py) and front matter
that does not read.

The drafts and the glossary's terms are shown on real page pairs, broken as
a translator might break them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import DOCS
from jaxguide_site.translation.consistency import check
from jaxguide_site.translation.parity import read_source
from translation_docs import (
    as_clone,
    edit,
    errors,
    in_progress,
    line,
    make_docs,
    real_pair,
    run_command,
)

ENGLISH = "Each cache miss costs a compilation"
KOREAN = "캐시 미스가 날 때마다 컴파일 비용을 치르고"


def _starts(docs: Path, page: str, text: str) -> int:
    """The first line of the paragraph of docs/<page>.md holding ``text``."""
    lines = (docs / f"{page}.md").read_text("utf-8").splitlines()
    number = line(docs, page, text)
    while number > 1 and lines[number - 2].strip():
        number -= 1
    return number


def _paragraph(text: str, start: str) -> str:
    """The paragraph of ``text`` that starts with ``start``."""
    found = re.search(
        rf"^{re.escape(start)}.*?(?=\n\n)", text, re.MULTILINE | re.DOTALL
    )
    assert found, start
    return found[0]


def _unstamp(page: Path) -> None:
    """Remove the ``translated_from`` block of ``page``'s front matter."""
    text = page.read_text("utf-8")
    block = re.search(r"translated_from:\n(?:  .*\n)+", text)
    assert block
    page.write_text(text.replace(block[0], ""), "utf-8")


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tiny two-language docs, committed, worked in as in a clone."""
    return as_clone(make_docs(tmp_path).parent, monkeypatch)


@pytest.fixture
def half_done(tmp_path: Path) -> Path:
    """The real jit pair, one Korean paragraph put back in English."""
    docs = real_pair(tmp_path, "jit")
    ko = docs / "ko" / "jit.md"
    english = _paragraph((docs / "en" / "jit.md").read_text("utf-8"), ENGLISH)
    text = ko.read_text("utf-8")
    ko.write_text(text.replace(_paragraph(text, KOREAN), english), "utf-8")
    return docs


def test_a_paragraph_left_in_english_fails_unless_the_page_is_a_draft(
    half_done: Path,
) -> None:
    at = line(half_done, "ko/jit", ENGLISH)
    assert errors(check(half_done)) == [
        (
            f"docs/ko/jit.md:{at}: this paragraph is still in English ('Each cache "
            "miss costs a'...): translate it (English quoted on purpose goes in "
            "quotes or code), or, to share the page unfinished, list it under "
            "[in_progress] ko in docs/_data/translations.toml as a draft"
        )
    ]
    in_progress(half_done, ko=["jit"], en=[])
    report = check(half_done)
    assert (errors(report), report.warnings) == ([], [])
    assert [page.state for page in report.pages if page.name == "jit"] == ["draft"]
    assert [str(note) for note in report.notes] == [
        (
            f"docs/ko/jit.md: draft (1 paragraph still in English, the first at line "
            f"{at}; the site shows the page with a banner saying it is partly "
            "translated). Once it is translated, remove 'jit' from [in_progress] ko "
            "in docs/_data/translations.toml and stamp it: 'python -m nox -s i18n -- "
            "stamp docs/ko/jit.md'"
        )
    ]


def test_a_draft_needs_no_stamp_but_its_code_is_checked(half_done: Path) -> None:
    in_progress(half_done, ko=["jit"], en=[])
    _unstamp(half_done / "ko" / "jit.md")
    assert errors(check(half_done)) == []
    edit(half_done, "ko/jit", "selu_jit = jax.jit(selu)", "selu_jit = jax.jit(selu) ")
    (message,) = errors(check(half_done))
    assert "code cell" in message
    assert message.endswith("copy-code docs/ko/jit.md'")


def test_a_finished_draft_is_told_how_to_stop_being_one(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "jit")
    in_progress(docs, ko=["jit"], en=[])
    (note,) = [str(note) for note in check(docs).notes]
    assert note.startswith(
        "docs/ko/jit.md: draft (no paragraph is left in English). Once it is "
        "translated, remove 'jit' from [in_progress] ko"
    )


def test_a_term_said_otherwise_is_named_with_the_source_line(tmp_path: Path) -> None:
    """추적자 for *tracer*: a variant nobody listed in the glossary."""
    docs = real_pair(tmp_path, "pure-functions")
    assert errors(check(docs)) == []
    edit(
        docs,
        "ko/pure-functions",
        "값이 아니라 트레이서를 출력합니다",
        "값이 아니라 추적자를 출력합니다",
    )
    ko = _starts(docs, "ko/pure-functions", "추적자를")
    en = line(docs, "en/pure-functions", "tracer, not a value")  # the term's line
    (message,) = errors(check(docs))
    assert message.startswith(f"docs/ko/pure-functions.md:{ko}: section '")
    assert message.endswith(
        f": 'tracer' in docs/en/pure-functions.md:"
        f"{en} is not said here as the glossary's '트레이서': use it (or, where "
        "the word means something else, list it under glossary_omit with the reason)"
    )


def test_glossary_omit_lets_a_term_out_and_is_reported_once_unused(
    tmp_path: Path,
) -> None:
    docs = real_pair(tmp_path, "pure-functions")
    edit(
        docs,
        "ko/pure-functions",
        "값이 아니라 트레이서를 출력합니다",
        "값이 아니라 추적자를 출력합니다",
    )
    omit = "glossary_omit:\n  tracer: 'a test: the word is left out'\ntranslated_from:"
    edit(docs, "ko/pure-functions", "translated_from:", omit)
    assert errors(check(docs)) == []
    edit(
        docs,
        "ko/pure-functions",
        "값이 아니라 추적자를 출력합니다",
        "값이 아니라 트레이서를 출력합니다",
    )
    at = line(docs, "ko/pure-functions", "glossary_omit")
    assert errors(check(docs)) == [
        (
            f"docs/ko/pure-functions.md:{at}: glossary_omit: 'tracer' leaves out "
            "nothing on this page: remove it"
        )
    ]


def test_an_everyday_word_is_not_held_to_the_term(tmp_path: Path) -> None:
    """*step* is marked everyday in the glossary; *tracer* is not."""
    docs = real_pair(tmp_path, "pure-functions")
    glossary = docs / "_data" / "glossary.toml"
    text = glossary.read_text("utf-8")
    assert 'en = "tracer"\nko = "트레이서"\n' in text
    glossary.write_text(
        text.replace(
            'en = "tracer"\nko = "트레이서"\n',
            'en = "tracer"\nko = "트레이서"\neveryday = true\n',
        ),
        "utf-8",
    )
    edit(
        docs,
        "ko/pure-functions",
        "값이 아니라 트레이서를 출력합니다",
        "값이 아니라 추적자를 출력합니다",
    )
    assert errors(check(docs)) == []


def test_front_matter_that_does_not_read_is_reported_alone(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "pure-functions")
    edit(
        docs,
        "ko/pure-functions",
        "translated_from:",
        'glossary_omit:\n  tracer: "a" reason\ntranslated_from:',
        restamp=False,
    )
    report = check(docs)
    at = line(docs, "ko/pure-functions", 'tracer: "a" reason')
    assert errors(report) == [
        (
            f"docs/ko/pure-functions.md:{at}: front matter is not valid YAML: expected "
            "<block end>, but found '<scalar>'. This page's other checks wait until its "
            "front matter is valid YAML (a value with a colon, or one starting with a "
            "quote, goes in single quotes)"
        )
    ]
    states = {page.name: page.state for page in report.pages}
    assert states["pure-functions"] == "broken"  # not "stale": nothing to update


def test_reviews_are_work_to_pick_up_until_recorded(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = clone
    status, out, _ = run_command(capsys, "check", "--strict")
    assert status == 0
    waiting = [row for row in out if "waiting for a review" in row]
    assert waiting == [
        (
            "- translations waiting for a review (2; none recorded, or changed since): "
            "read one beside its source, fix or suggest what reads wrong, then record "
            "it: 'python -m nox -s i18n -- reviewed docs/ko/index.md'. They are: "
            "index, intro"
        )
    ]
    status, out, _ = run_command(capsys, "reviewed", "docs/ko/intro.md")
    assert status == 0
    sha = read_source(root / "docs" / "ko" / "intro.md").meta["reviewed"]
    assert out == [f"docs/ko/intro.md: reviewed as its prose reads now ({sha})"]
    _, out, _ = run_command(capsys, "check", "--strict")
    waiting = [row for row in out if "waiting for a review" in row]
    assert [row.rsplit(". ", 1)[1] for row in waiting] == ["They are: index"]
    edit(root / "docs", "ko/intro", "# 소개", "# 소개하는 글")
    _, out, _ = run_command(capsys, "check", "--strict")
    waiting = [row for row in out if "waiting for a review" in row]
    assert [row.rsplit(". ", 1)[1] for row in waiting] == ["They are: index, intro"]


def test_an_unstamped_translation_cannot_be_reviewed(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ko = clone / "docs" / "ko" / "intro.md"
    _unstamp(ko)
    status, _, err = run_command(capsys, "reviewed", "docs/ko/intro.md")
    assert status == 1
    assert err == [
        (
            "error: docs/ko/intro.md is not stamped yet: a review reads a finished "
            "translation. Stamp it first"
        )
    ]
    assert "reviewed" not in ko.read_text("utf-8")


def test_drafts_and_stale_pages_are_listed_as_work(
    half_done: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    in_progress(half_done, ko=["jit"], en=[])
    as_clone(half_done.parent, monkeypatch)
    status, out, _ = run_command(capsys, "check", "--strict")
    assert status == 0
    assert "- drafts to finish (their English paragraphs) (1): jit" in out
    assert ", 1 draft, " in out[-1]  # the summary stays the last line
    assert out[-1].endswith(": 0 error(s), 0 warning(s)")


def test_a_stale_translation_cannot_be_reviewed(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = clone
    edit(
        root / "docs", "en/intro", "# Introduction", "# An introduction", restamp=False
    )
    status, _, err = run_command(capsys, "reviewed", "docs/ko/intro.md")
    assert (status, err) == (
        1,
        [
            (
                "error: docs/ko/intro.md is stale: its source changed since it was "
                "stamped, so a review now would be of an old translation. Update and "
                "stamp it first"
            )
        ],
    )


@pytest.mark.usefixtures("clone")
def test_reviewing_the_source_names_its_translation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run_command(capsys, "reviewed", "docs/en/intro.md")
    assert (status, err) == (
        1,
        [
            (
                "error: docs/en/intro.md is the source; review its translation: "
                "python -m nox -s i18n -- reviewed docs/ko/intro.md"
            )
        ],
    )


def test_the_status_tables_states_are_the_full_checks(tmp_path: Path) -> None:
    """The status table asks for the states alone (check(states_only=True),
    about a third of the time); they are those the full check finds, in every
    state a page can be in."""
    docs = real_pair(tmp_path, "jit")
    for name in ("pure-functions", "random", "vmap", "state"):
        for lang in ("ko", "en"):
            text = (DOCS / lang / f"{name}.md").read_text("utf-8")
            (docs / lang / f"{name}.md").write_text(text, "utf-8")
    (docs / "en" / "vmap.md").write_text("# Only English\n", "utf-8")
    (docs / "ko" / "vmap.md").unlink()
    (docs / "en" / "extra.md").write_text("# Not listed\n", "utf-8")
    in_progress(docs, ko=["jit", "vmap"], en=[])  # a draft, a page in progress
    edit(docs, "en/random", "# ", "# A ", restamp=False)  # stale
    _unstamp(docs / "ko" / "pure-functions.md")  # unstamped
    edit(docs, "ko/state", "---\n", "---\nbad: 'x' y\n", restamp=False)  # broken
    full = [(p.name, p.state, p.review) for p in check(docs).pages]
    assert {state for _, state, _ in full} >= {
        "broken",
        "draft",
        "in progress",
        "missing",
        "stale",
        "unstamped",
        "translated",
    }
    assert [
        (p.name, p.state, p.review) for p in check(docs, states_only=True).pages
    ] == full
