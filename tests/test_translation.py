"""The translation checker (src/jaxguide_site/translation/checker.py).

Each test builds a tiny two-language docs folder, breaks one thing and shows
that the checker names the file and the line (or cell) where it differs. The
last tests run the checker on the real pages: `nox -s tests` covers what
`nox -s i18n -- --strict` checks.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import DOCS, NOTEBOOK_FRONT_MATTER, REPO
from jaxguide_site.translation.checker import Report, check, main, prose_sha, stamp
from jaxguide_site.translation.parity import read_source

FRONT = NOTEBOOK_FRONT_MATTER
EN_INTRO = (
    FRONT
    + """
(intro)=
# Introduction

Read {doc}`index` first, or {doc}`the home page <index>`.

```{code-cell} ipython3
x = 1
print(x)
```

(intro-more)=
## More

![A straight line](line.png)

```{code-cell} ipython3
y = x + 1
```
"""
)
KO_INTRO = (
    FRONT
    + """
(intro)=
# 소개

먼저 {doc}`index`를, 또는 {doc}`첫 페이지 <index>`를 읽으세요. 합성곱도 다룹니다.

```{code-cell} ipython3
x = 1
print(x)
```

(intro-more)=
## 더 보기

![직선](line.png)

```{code-cell} ipython3
y = x + 1
```
"""
)
PAGES = {
    "en": {"intro": EN_INTRO, "index": "# Home\n\nStart with {doc}`intro`.\n"},
    "ko": {"intro": KO_INTRO, "index": "# 홈\n\n{doc}`intro`부터 읽으세요.\n"},
}
GLOSSARY = """
[[term]]
en = "convolution"
ko = "합성곱"
avoid = ["컨볼루션"]
en_def = "Sliding a kernel over a signal."
ko_def = "커널을 신호 위로 밀며 곱해 더하는 연산입니다."
"""
IN_PROGRESS = "[in_progress]\nko = {ko}\nen = {en}\n"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A consistent two-language docs folder, every Korean page stamped."""
    docs = tmp_path / "docs"
    (docs / "_data").mkdir(parents=True)
    (docs / "_data" / "glossary.toml").write_text(GLOSSARY, encoding="utf-8")
    (docs / "_data" / "translations.toml").write_text(
        IN_PROGRESS.format(ko=[], en=[]), encoding="utf-8"
    )
    for lang, pages in PAGES.items():
        (docs / lang).mkdir()
        for name, text in pages.items():
            (docs / lang / f"{name}.md").write_text(text, encoding="utf-8")
    for name in PAGES["ko"]:
        stamp(docs / "ko" / f"{name}.md")
    return docs


def edit(docs: Path, page: str, old: str, new: str, *, restamp: bool = True) -> None:
    """Replace ``old`` in docs/<page>.md; restamp the Korean page (not stale)."""
    path = docs / f"{page}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if restamp:
        stamp(docs / "ko" / path.name)


def line(docs: Path, page: str, text: str) -> int:
    """The number of the first line of docs/<page>.md that contains ``text``."""
    lines = (docs / f"{page}.md").read_text(encoding="utf-8").splitlines()
    return next(number for number, row in enumerate(lines, 1) if text in row)


def errors(report: Report) -> list[str]:
    assert not report.warnings, report.warnings
    return [str(problem) for problem in report.errors]


def test_consistent_pages_pass_as_translated(docs: Path) -> None:
    report = check(docs)
    assert errors(report) == []
    assert [(page.name, page.state, page.languages) for page in report.pages] == [
        ("index", "translated", ("ko", "en")),
        ("intro", "translated", ("ko", "en")),
    ]
    assert all(page.last_update is None for page in report.pages)  # not in git


def test_page_in_one_language_only_is_an_error(docs: Path) -> None:
    (docs / "en" / "extra.md").write_text("# Extra\n", encoding="utf-8")
    report = check(docs)
    (message,) = errors(report)
    assert message.startswith("docs/en/extra.md: docs/ko/extra.md is missing")
    assert "[in_progress] ko in docs/_data/translations.toml" in message
    assert report.pages[0].name == "extra"
    assert report.pages[0].state == "missing"


def test_page_in_progress_is_accepted_and_may_be_linked(docs: Path) -> None:
    (docs / "en" / "extra.md").write_text("# Extra\n", encoding="utf-8")
    (docs / "_data" / "translations.toml").write_text(
        IN_PROGRESS.format(ko=["extra"], en=[]), encoding="utf-8"
    )
    edit(docs, "ko/index", "읽으세요.", "읽으세요. {doc}`extra`도 있습니다.")
    edit(docs, "en/index", "`intro`.", "`intro`. There is {doc}`extra` too.")
    report = check(docs)
    assert errors(report) == []
    assert (report.pages[0].state, report.pages[0].languages) == (
        "in progress",
        ("en",),
    )


def test_listing_a_page_that_exists_as_in_progress_is_a_warning(docs: Path) -> None:
    (docs / "_data" / "translations.toml").write_text(
        IN_PROGRESS.format(ko=["intro"], en=[]), encoding="utf-8"
    )
    report = check(docs)
    assert [str(p) for p in report.warnings] == [
        (
            "docs/_data/translations.toml: [in_progress] ko lists 'intro', "
            "which exists: remove it"
        )
    ]


def test_different_code_cell_names_the_cell_and_both_lines(docs: Path) -> None:
    edit(docs, "ko/intro", "print(x)", "print(x + 0)")
    ko, en = line(docs, "ko/intro", "print(x"), line(docs, "en/intro", "print(x")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{ko}: code cell 1 differs from docs/en/intro.md:{en}: "
            "'print(x + 0)' here, 'print(x)' there"
        )
    ]


def test_different_cell_options_are_a_difference(docs: Path) -> None:
    edit(docs, "ko/intro", "ipython3\ny = x", "ipython3\n:tags: [hide-input]\ny = x")
    (message,) = errors(check(docs))
    # Found at the cell's fence, with the options as myst-nb reads them.
    fence = line(docs, "ko/intro", ":tags:") - 1
    assert message.startswith(f"docs/ko/intro.md:{fence}: code cell 2 differs")
    assert """'options {"tags": ["hide-input"]}' here, 'options {}' there""" in message


def test_extra_code_cell_is_found_where_it_is(docs: Path) -> None:
    extra = "y = x + 1\n```\n\n```{code-cell} ipython3\nz = 3\n```\n"
    edit(docs, "en/intro", "y = x + 1\n```\n", extra)
    assert errors(check(docs)) == [
        (
            f"docs/en/intro.md:{line(docs, 'en/intro', 'z = 3') - 1}: "
            "code cells: 3 here, 2 in docs/ko/intro.md; code cell 3 has no counterpart"
        )
    ]


def test_code_cell_inserted_in_the_middle_is_found_where_it_is(docs: Path) -> None:
    inserted = "```{code-cell} ipython3\nz = 3\n```\n\n(intro-more)="
    edit(docs, "en/intro", "(intro-more)=", inserted)
    ko, en = line(docs, "ko/intro", "y = x + 1"), line(docs, "en/intro", "z = 3")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{ko}: code cell 2 differs from docs/en/intro.md:{en}: "
            "'y = x + 1' here, 'z = 3' there"
        ),
        (
            f"docs/en/intro.md:{en - 1}: code cells: 3 here, 2 in docs/ko/intro.md; "
            "code cell 2 has no counterpart"
        ),
    ]


def test_different_kernelspec_is_an_error(docs: Path) -> None:
    edit(docs, "ko/intro", "name: python3", "name: python2")
    (message,) = errors(check(docs))
    assert message.startswith("docs/ko/intro.md:3: kernelspec {'name': 'python2'")
    assert "in docs/en/intro.md" in message


def test_different_heading_level_names_the_heading(docs: Path) -> None:
    edit(docs, "ko/intro", "## 더 보기", "### 더 보기")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '더 보기')}: heading 2 is level 3 "
            "here, level 2 in docs/en/intro.md (2 headings here, 2 there)"
        )
    ]


def test_missing_heading_is_an_error(docs: Path) -> None:
    edit(docs, "en/intro", "![A straight", "## Plot\n\n![A straight")
    (message,) = errors(check(docs))
    assert message.endswith(
        "heading 3 is missing here, level 2 in docs/en/intro.md "
        "(2 headings here, 3 there)"
    )
    assert message.startswith("docs/ko/intro.md:")


def test_headings_in_code_are_not_headings(docs: Path) -> None:
    for page in ("en/intro", "ko/intro"):
        edit(docs, page, "print(x)", "# a comment\nprint(x)")
    edit(docs, "en/intro", "## More", "## More\n\n```bash\n# a shell comment\n```")
    assert errors(check(docs)) == []


def test_missing_figure_is_an_error(docs: Path) -> None:
    edit(docs, "ko/intro", "![직선](line.png)", "")
    assert errors(check(docs)) == [
        (
            f"docs/en/intro.md:{line(docs, 'en/intro', '![')}: figures: 1 here, "
            "0 in docs/ko/intro.md; figure 1 has no counterpart"
        )
    ]


def test_figure_directives_count_as_figures(docs: Path) -> None:
    edit(
        docs,
        "en/intro",
        "## More",
        "## More\n\n```{glue:figure} fig\n:alt: A plot\n```",
    )
    edit(
        docs, "ko/intro", "## 더 보기", "## 더 보기\n\n:::{figure} plot.png\n그림\n:::"
    )
    assert errors(check(docs)) == []
    edit(docs, "ko/intro", ":::{figure} plot.png", ":::{note}")
    (message,) = errors(check(docs))
    assert message.startswith(f"docs/en/intro.md:{line(docs, 'en/intro', 'glue')}:")
    assert (
        "figures: 2 here, 1 in docs/ko/intro.md; figure 1 has no counterpart" in message
    )


def test_label_in_one_language_only_is_named(docs: Path) -> None:
    edit(docs, "ko/intro", "(intro-more)=", "(intro-further)=")
    at = (
        line(docs, "ko/intro", "(intro-further)="),
        line(docs, "en/intro", "(intro-more)="),
    )
    assert errors(check(docs)) == [
        f"docs/ko/intro.md:{at[0]}: label (intro-further)= is not in docs/en/intro.md",
        f"docs/en/intro.md:{at[1]}: label (intro-more)= is not in docs/ko/intro.md",
    ]


@pytest.mark.parametrize("link", ["{doc}`gone`", "{doc}`이 페이지 <gone>`"])
def test_doc_link_to_missing_page_is_an_error(docs: Path, link: str) -> None:
    edit(docs, "ko/index", "읽으세요.", f"읽으세요. {link}도 보세요.")
    assert errors(check(docs)) == [
        (
            f"docs/ko/index.md:{line(docs, 'ko/index', 'gone')}: {{doc}} link to 'gone': "
            "docs/ko/gone.md does not exist"
        )
    ]


def test_avoided_korean_variant_is_named_with_its_line(docs: Path) -> None:
    edit(docs, "ko/intro", "합성곱도", "컨볼루션도")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '컨볼루션')}: '컨볼루션': "
            "the glossary's Korean for 'convolution' is '합성곱'"
        )
    ]


def test_avoided_variant_is_allowed_in_code_and_on_the_glossary_page(
    docs: Path,
) -> None:
    for page in ("en/intro", "ko/intro"):
        edit(docs, page, "print(x)", 'print(x, "컨볼루션")')
    edit(docs, "ko/intro", "## 더 보기", "## 더 보기\n\n```text\n컨볼루션\n```")
    (docs / "en" / "glossary.md").write_text("# Glossary\n", encoding="utf-8")
    (docs / "ko" / "glossary.md").write_text(
        "# 용어집\n\n컨볼루션은 쓰지 않습니다.\n", encoding="utf-8"
    )
    stamp(docs / "ko" / "glossary.md")
    assert errors(check(docs)) == []


def test_both_versions_without_translated_from_is_an_error(docs: Path) -> None:
    (docs / "ko" / "index.md").write_text(PAGES["ko"]["index"], encoding="utf-8")
    report = check(docs)
    assert errors(report) == [
        (
            "docs/ko/index.md: neither of this page and docs/en/index.md declare "
            "translated_from: the translation must, its source must not"
        )
    ]
    assert report.pages[0].state == "stale"


def test_both_versions_with_translated_from_is_an_error(docs: Path) -> None:
    stamped = (docs / "ko" / "index.md").read_text(encoding="utf-8")
    (docs / "en" / "index.md").write_text(
        stamped.replace("lang: en", "lang: ko").replace(
            PAGES["ko"]["index"], PAGES["en"]["index"]
        ),
        encoding="utf-8",
    )
    assert errors(check(docs)) == [
        (
            "docs/ko/index.md: both of this page and docs/en/index.md declare "
            "translated_from: the translation must, its source must not"
        )
    ]


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("lang: ko", "lang must be the other language, not 'ko'"),
        ("prose_sha: 12ab", "prose_sha must be a string of 12 hex digits"),
    ],
)
def test_malformed_translated_from_is_an_error(
    docs: Path, block: str, message: str
) -> None:
    path = docs / "ko" / "index.md"
    text = path.read_text(encoding="utf-8")
    key = block.partition(":")[0]
    old = next(row for row in text.splitlines() if row.strip().startswith(key))
    path.write_text(text.replace(old, f"  {block}"), encoding="utf-8")
    assert errors(check(docs)) == [f"docs/ko/index.md:2: translated_from: {message}"]


def test_translated_from_a_missing_source_is_an_error(docs: Path) -> None:
    (docs / "ko" / "only.md").write_text(
        "---\ntranslated_from:\n  lang: en\n  prose_sha: 0123456789ab\n---\n# 하나\n",
        encoding="utf-8",
    )
    assert errors(check(docs)) == [
        "docs/ko/only.md:2: translated_from names docs/en/only.md, which does not exist",
        (
            "docs/ko/only.md: docs/en/only.md is missing: translate the page, or "
            "list it under [in_progress] en in docs/_data/translations.toml"
        ),
    ]


def test_changed_source_prose_makes_the_translation_stale_until_stamped(
    docs: Path,
) -> None:
    recorded = prose_sha(docs / "en" / "intro.md")
    edit(docs, "en/intro", "first", "before anything else", restamp=False)
    report = check(docs)
    assert report.errors == []
    (warning,) = report.warnings
    assert str(warning) == (
        f"docs/ko/intro.md:{line(docs, 'ko/intro', 'translated_from')}: stale "
        f"translation of docs/en/intro.md: translated at prose_sha {recorded}, the "
        f"source's prose is now {prose_sha(docs / 'en' / 'intro.md')}; "
        "update this page, then stamp it"
    )
    assert [page.state for page in report.pages] == ["translated", "stale"]
    stamp(docs / "ko" / "intro.md")
    report = check(docs)
    assert (report.errors, report.warnings) == ([], [])
    assert [page.state for page in report.pages] == ["translated", "translated"]


def test_prose_sha_ignores_code_cells_front_matter_and_line_breaks(
    tmp_path: Path,
) -> None:
    page = tmp_path / "page.md"
    page.write_text(EN_INTRO, encoding="utf-8")
    before = prose_sha(page)
    assert len(before) == 12
    assert int(before, 16) >= 0
    page.write_text(
        EN_INTRO.replace("print(x)", "print(x * 2)")
        .replace("name: python3", "name: other")
        .replace("first, or", "first,\n   or"),
        encoding="utf-8",
    )
    assert prose_sha(page) == before
    page.write_text(EN_INTRO.replace("first", "last"), encoding="utf-8")
    assert prose_sha(page) != before


def test_stamp_changes_only_the_front_matter(docs: Path) -> None:
    index = docs / "ko" / "index.md"
    assert index.read_text(encoding="utf-8") == (
        "---\ntranslated_from:\n  lang: en\n"
        f"  prose_sha: {prose_sha(docs / 'en' / 'index.md')}\n---\n"
        + PAGES["ko"]["index"]
    )
    intro = docs / "ko" / "intro.md"
    body = intro.read_bytes().split(b"\n---\n", 1)[1]
    edit(docs, "en/intro", "first", "at the start", restamp=False)
    stamp(intro)
    stamp(intro)  # a second stamp changes nothing
    text = intro.read_text(encoding="utf-8")
    assert intro.read_bytes().split(b"\n---\n", 1)[1] == body
    assert text.startswith(FRONT.removesuffix("---\n"))
    assert text.count("translated_from:") == 1
    assert read_source(intro).meta["translated_from"] == {
        "lang": "en",
        "prose_sha": prose_sha(docs / "en" / "intro.md"),
    }


def test_stamp_refuses_a_page_without_a_source_or_a_source_page(docs: Path) -> None:
    (docs / "ko" / "only.md").write_text("# 하나\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no page of that name in the other"):
        stamp(docs / "ko" / "only.md")
    with pytest.raises(ValueError, match="is the translation"):
        stamp(docs / "en" / "intro.md")


def test_real_pages_pass_with_no_errors_and_no_warnings() -> None:
    report = check(DOCS)
    problems = [str(p) for p in report.errors + report.warnings]
    assert not problems, "\n".join(problems)
    assert {page.state for page in report.pages} == {"translated"}


def test_command_line_passes_on_the_real_pages_with_strict() -> None:
    """What `nox -s i18n -- --strict` runs: the installed console script."""
    script = Path(sys.executable).with_name("jaxguide-i18n")
    result = subprocess.run(
        [str(script), "check", "--strict"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].endswith(": 0 error(s), 0 warning(s)")
    assert not result.stderr


def test_command_line_fails_on_stale_pages_only_with_strict(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = prose_sha(docs / "en" / "index.md")
    edit(docs, "en/index", "Start", "Begin", restamp=False)
    assert main(["check", "--docs", str(docs)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        (
            "docs/ko/index.md:2: warning: stale translation of docs/en/index.md: "
            f"translated at prose_sha {recorded}, the source's prose is now "
            f"{prose_sha(docs / 'en' / 'index.md')}; update this page, then stamp it"
        ),
        (
            "2 pages (1 translated, 1 stale, 0 in progress, 0 missing): "
            "0 error(s), 1 warning(s)"
        ),
    ]
    assert main(["check", "--strict", "--docs", str(docs)]) == 1
    assert main(["stamp", str(docs / "ko" / "index.md")]) == 0
    assert main(["check", "--strict", "--docs", str(docs)]) == 0
    assert main(["stamp", str(docs / "en" / "index.md")]) == 1
    assert "is the translation" in capsys.readouterr().err


def test_command_line_reports_errors_and_fails(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(docs, "ko/intro", "print(x)", "print(y)")
    assert main(["check", "--docs", str(docs)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("docs/ko/intro.md:")
    assert "code cell 1 differs" in out[0]
    assert out[-1] == (
        "2 pages (2 translated, 0 stale, 0 in progress, 0 missing): "
        "1 error(s), 0 warning(s)"
    )
