"""The translation checker (src/jaxguide_site/translation/): the two languages.

Each test builds a tiny two-language docs folder (tests/translation_docs.py),
breaks one thing and shows that the checker names the file and the line (or
cell) where it differs. The policy: the strict check (`--strict`: these
tests, `nox -s lint`, CI) fails on errors and on stale translations; a page
being translated is allowed, and named, while `[in_progress]` lists it and
the other language neither lists it in a toctree nor links to it. The last
tests run the strict check on the real pages. The prose checks are in
tests/test_translation_prose.py; diff and stamp in
tests/test_translation_stamps.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import DOCS, REPO
from jaxguide_site.translation.checker import main
from jaxguide_site.translation.consistency import check
from jaxguide_site.translation.parity import read_source
from jaxguide_site.translation.report import EXPLAINED
from jaxguide_site.translation.stamps import prose_sha, stamp
from translation_docs import (
    FRONT,
    PAGES,
    edit,
    errors,
    in_progress,
    line,
    make_docs,
    write,
)

# What a failing check prints last: the next command.
NEXT = (
    "Fix each line above, then check again: python -m nox -s i18n -- --strict "
    "(explained in docs/en/contributing.md, 'Checking both languages' and "
    "docs/ko/contributing.md, '두 언어 맞춰 보기')"
)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return make_docs(tmp_path)


def entry_line(docs: Path, name: str, lang: str = "ko") -> int:
    """The line of the index page's toctree entry ``name``."""
    lines = (docs / lang / "index.md").read_text(encoding="utf-8").splitlines()
    return lines.index(name) + 1


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


def test_page_in_progress_passes_the_strict_check_and_is_named(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The documented way to add a page: the source language lists it in its
    toctree and may link to it; the other language does neither yet."""
    write(docs, "en/extra", "# Extra\n\nMore to read.\n")
    in_progress(docs, ko=["extra"], en=[])
    edit(docs, "en/index", "intro\n```", "intro\nextra\n```")
    edit(docs, "en/index", "`intro`.", "`intro`. There is {doc}`extra` too.")
    report = check(docs)
    assert errors(report) == []
    assert (report.pages[0].name, report.pages[0].state) == ("extra", "in progress")
    note = (
        "in progress: docs/ko/extra.md is being translated (listed under "
        "[in_progress] ko in docs/_data/translations.toml)"
    )
    assert [str(note) for note in report.notes] == [f"docs/en/extra.md: {note}"]
    assert main(["check", "--strict", "--docs", str(docs)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"docs/en/extra.md: note: {note}"
    assert out[-1] == (
        "3 pages (2 translated, 0 stale, 0 unstamped, 0 draft, 1 in progress, 0 missing, 0 broken): "
        "0 error(s), 0 warning(s)"
    )


def test_listing_a_page_in_progress_leaves_the_other_index_translated(
    docs: Path,
) -> None:
    """As documented: the new page goes into its own language's toctree only,
    and nothing else needs stamping. The prose_sha leaves toctree entries out
    (the checker compares them on their own); a caption is prose."""
    write(docs, "en/extra", "# Extra\n\nMore to read.\n")
    in_progress(docs, ko=["extra"], en=[])
    edit(docs, "en/index", "intro\n```", "intro\nextra\n```", restamp=False)
    report = check(docs)
    assert errors(report) == []  # and no warning: ko/index.md is not stale
    assert [page.state for page in report.pages] == [
        "in progress",
        "translated",
        "translated",
    ]
    edit(docs, "en/index", ":caption: Pages", ":caption: All pages", restamp=False)
    (warning,) = check(docs).warnings
    assert warning.path == "docs/ko/index.md"


def test_page_in_progress_in_the_other_toctree_or_linked_is_an_error(
    docs: Path,
) -> None:
    """The strict build fails on both: the checker says so first."""
    write(docs, "en/extra", "# Extra\n\nMore to read.\n")
    in_progress(docs, ko=["extra"], en=[])
    edit(docs, "en/index", "intro\n```", "intro\nextra\n```")
    edit(docs, "ko/index", "intro\n```", "intro\nextra\n```")
    edit(docs, "ko/index", "읽으세요.", "읽으세요. {doc}`extra`도 있습니다.")
    link, entry = line(docs, "ko/index", "{doc}`extra`"), entry_line(docs, "extra")
    assert errors(check(docs)) == [
        (
            f"docs/ko/index.md:{link}: {{doc}} link to 'extra': docs/ko/extra.md is "
            "being translated (listed under [in_progress]), and the strict build "
            "fails on a link to it: leave the link out until the translation is in"
        ),
        (
            f"docs/ko/index.md:{entry}: toctree lists 'extra', which is being "
            "translated (listed under [in_progress] ko): the strict build fails on "
            "a toctree entry with no page, so leave it out of docs/ko/index.md "
            "until docs/ko/extra.md is in"
        ),
    ]


def test_misspelt_page_under_in_progress_is_an_error_with_the_closest_name(
    docs: Path,
) -> None:
    write(docs, "en/extra", "# Extra\n")
    in_progress(docs, ko=["exrta"], en=[])
    assert errors(check(docs)) == [
        (
            "docs/_data/translations.toml: [in_progress] ko lists 'exrta', but there "
            "is no docs/en/exrta.md to translate: did you mean 'extra'?"
        ),
        (
            "docs/en/extra.md: docs/ko/extra.md is missing: translate the page, or "
            "list it under [in_progress] ko in docs/_data/translations.toml"
        ),
    ]


def test_in_progress_under_an_unknown_language_is_an_error(docs: Path) -> None:
    (docs / "_data" / "translations.toml").write_text(
        '[in_progress]\nkr = ["intro"]\n', encoding="utf-8"
    )
    assert errors(check(docs)) == [
        (
            "docs/_data/translations.toml: [in_progress] kr = ['intro']: expected a "
            "list of page names under one of ko, en"
        )
    ]


def test_toctrees_listing_other_pages_are_an_error(docs: Path) -> None:
    write(docs, "en/extra", "# Extra\n")
    stamp(write(docs, "ko/extra", "# 더 읽기\n"))
    edit(docs, "en/index", "intro\n```", "extra\nintro\n```")
    edit(docs, "ko/index", "intro\n```", "intro\nextra\n```")
    assert errors(check(docs)) == [
        (
            f"docs/ko/index.md:{entry_line(docs, 'intro')}: toctree 1, entry 1: "
            "'intro' here, 'extra' in docs/en/index.md (both languages list the "
            "same pages in the same order)"
        )
    ]


def test_toctree_entry_without_a_page_names_the_closest(docs: Path) -> None:
    edit(docs, "en/index", "intro\n```", "intr\n```")
    edit(docs, "ko/index", "intro\n```", "intr\n```")
    assert errors(check(docs)) == [
        (
            f"docs/ko/index.md:{entry_line(docs, 'intr')}: toctree lists 'intr': "
            "docs/ko/intr.md does not exist: did you mean 'intro'?"
        ),
        (
            f"docs/en/index.md:{entry_line(docs, 'intr', 'en')}: toctree lists "
            "'intr': docs/en/intr.md does not exist: did you mean 'intro'?"
        ),
    ]


def test_listing_a_page_that_exists_makes_it_a_draft(docs: Path) -> None:
    """Not a mistake to remove: a translation shared before it is finished
    (tests/test_translation_help.py)."""
    in_progress(docs, ko=["intro"], en=[])
    report = check(docs)
    assert (report.errors, report.warnings) == ([], [])
    assert [(p.name, p.state) for p in report.pages] == [
        ("index", "translated"),
        ("intro", "draft"),
    ]


def test_different_code_cell_names_the_cell_and_both_lines(docs: Path) -> None:
    edit(docs, "ko/intro", "print(x)", "print(x + 0)")
    ko, en = line(docs, "ko/intro", "print(x"), line(docs, "en/intro", "print(x")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{ko}: code cell 1 differs from docs/en/intro.md:{en}: "
            "'print(x + 0)' here, 'print(x)' there: copy the source's code cells with "
            "'python -m nox -s i18n -- copy-code docs/ko/intro.md'"
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
            "'y = x + 1' here, 'z = 3' there: copy the source's code cells with "
            "'python -m nox -s i18n -- copy-code docs/ko/intro.md'"
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
    ko, en = line(docs, "ko/intro", "더 보기"), line(docs, "en/intro", "## More")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{ko}: heading '### 더 보기' (line {ko}) is level 3 "
            f"here, level 2 in docs/en/intro.md: '## More' (line {en})"
        )
    ]


def test_missing_heading_at_the_end_is_found_after_the_last(docs: Path) -> None:
    edit(docs, "en/intro", "![A straight", "## Plot\n\n![A straight")
    ko, en = line(docs, "ko/intro", "## 더 보기"), line(docs, "en/intro", "## Plot")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{ko}: heading '## Plot' (line {en}) of "
            "docs/en/intro.md is missing here after this heading"
        )
    ]


def test_heading_deleted_in_the_middle_is_found_where_it_was(docs: Path) -> None:
    """Not at the last heading: headings are aligned on their labels and on
    the code cells before them, which both languages share."""
    sections = {
        "en": "## First\n\nOne.\n\n```{code-cell} ipython3\nz = 0\n```\n\n"
        "## Second\n\nTwo.\n\n(intro-more)=",
        "ko": "## 첫째\n\n하나.\n\n```{code-cell} ipython3\nz = 0\n```\n\n"
        "(intro-more)=",  # ## 둘째 deleted
    }
    for lang, text in sections.items():
        edit(docs, f"{lang}/intro", "(intro-more)=", text)
    ko, en = line(docs, "ko/intro", "## 더 보기"), line(docs, "en/intro", "## Second")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{ko}: heading '## Second' (line {en}) of "
            "docs/en/intro.md is missing here before this heading"
        )
    ]


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
        "## More\n\n```{glue:figure} fig\n:alt: A plot\n\nA plot.\n```",
    )
    edit(
        docs, "ko/intro", "## 더 보기", "## 더 보기\n\n:::{figure} plot.png\n그림\n:::"
    )
    assert errors(check(docs)) == []
    edit(docs, "ko/intro", ":::{figure} plot.png\n그림\n:::", "그림")
    (message,) = errors(check(docs))
    assert message.startswith(f"docs/en/intro.md:{line(docs, 'en/intro', 'glue')}:")
    assert (
        "figures: 2 here, 1 in docs/ko/intro.md; figure 1 has no counterpart" in message
    )


def test_label_renamed_in_one_language_is_one_finding(docs: Path) -> None:
    """More in tests/test_translation_labels.py."""
    edit(docs, "ko/intro", "(intro-more)=", "(intro-further)=")
    at = (
        line(docs, "ko/intro", "(intro-further)="),
        line(docs, "en/intro", "(intro-more)="),
    )
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{at[0]}: label (intro-further)= here, the English "
            f"page has (intro-more)= at docs/en/intro.md:{at[1]}: rename it to match"
        ),
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


def test_both_versions_without_translated_from_is_an_error(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Such a page was never stamped: it is not stale, and counted apart."""
    (docs / "ko" / "index.md").write_text(PAGES["ko"]["index"], encoding="utf-8")
    report = check(docs)
    assert errors(report) == [
        (
            "docs/ko/index.md: neither this page nor docs/en/index.md declares "
            "translated_from: the translation must, its source must not. Once the "
            "translation says what its source says, stamp it: "
            "'python -m nox -s i18n -- stamp docs/ko/index.md'"
        )
    ]
    assert report.pages[0].state == "unstamped"
    assert main(["check", "--docs", str(docs)]) == 1
    assert capsys.readouterr().out.splitlines()[-2] == (
        "2 pages (1 translated, 0 stale, 1 unstamped, 0 draft, 0 in progress, 0 missing, 0 broken): "
        "1 error(s), 0 warning(s)"
    )


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
            "docs/ko/index.md: both this page and docs/en/index.md declare "
            "translated_from: the translation must, its source must not: remove it "
            "from the source"
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
        (
            "docs/ko/only.md: docs/en/only.md is missing: translate the page, or "
            "list it under [in_progress] en in docs/_data/translations.toml"
        ),
        "docs/ko/only.md:2: translated_from names docs/en/only.md, which does not exist",
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
        "translation of docs/en/intro.md: its prose changed since this page was "
        f"stamped (prose_sha {recorded}, now {prose_sha(docs / 'en' / 'intro.md')})."
        " If this page is updated, stamp it: "
        "'python -m nox -s i18n -- stamp docs/ko/intro.md'; if not, see what "
        "changed: 'python -m nox -s i18n -- diff docs/ko/intro.md'"
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
    page.write_text(PAGES["en"]["intro"], encoding="utf-8")
    before = prose_sha(page)
    assert len(before) == 12
    assert int(before, 16) >= 0
    page.write_text(
        PAGES["en"]["intro"]
        .replace("print(x)", "print(x * 2)")
        .replace("name: python3", "name: other")
        .replace("first, or", "first,\n   or"),
        encoding="utf-8",
    )
    assert prose_sha(page) == before
    page.write_text(PAGES["en"]["intro"].replace("first", "last"), encoding="utf-8")
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
    with pytest.raises(ValueError, match=r"there is no .*only\.md for it to translate"):
        stamp(docs / "ko" / "only.md")
    with pytest.raises(ValueError, match="is the source; stamp its translation"):
        stamp(docs / "en" / "intro.md")


def test_real_pages_pass_the_strict_check() -> None:
    """What CI runs (`nox -s i18n -- --strict`, the lint hook): the installed
    command, as a process. Pages in progress pass; errors and stale pages fail."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "jaxguide_site.translation.checker",
            "check",
            "--strict",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert result.returncode == 0, (
        f"{result.stdout}{result.stderr}\nThe translation checker fails on the "
        "pages (lines above). Fix each line (docs/en/contributing.md, 'Checking "
        "both languages', or docs/ko/contributing.md, '두 언어 맞춰 보기', explains "
        "them), then run: python -m nox -s i18n -- --strict"
    )
    assert result.stdout.splitlines()[-1].endswith(": 0 error(s), 0 warning(s)")
    assert not result.stderr
    assert DOCS.is_dir()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_failing_check_names_the_sections_that_explain_it(lang: str) -> None:
    page, title = EXPLAINED[lang]
    text = (REPO / page).read_text(encoding="utf-8")
    assert f"(contributing-check)=\n## {title}\n" in text
    assert f"{page}, '{title}'" in NEXT


def test_command_line_fails_on_stale_pages_only_with_strict(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = prose_sha(docs / "en" / "index.md")
    edit(docs, "en/index", "Start", "Begin", restamp=False)
    assert main(["check", "--docs", str(docs)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        "- stale translations to update ('diff' shows what changed) (1): index" in out
    )
    assert [out[0], out[-1]] == [
        (
            "docs/ko/index.md:2: warning: stale translation of docs/en/index.md: "
            "its prose changed since this page was stamped (prose_sha "
            f"{recorded}, now {prose_sha(docs / 'en' / 'index.md')}). If this page "
            "is updated, stamp it: 'python -m nox -s i18n -- stamp "
            "docs/ko/index.md'; if not, see what changed: 'python -m nox -s i18n -- "
            "diff docs/ko/index.md'"
        ),
        (
            "2 pages (1 translated, 1 stale, 0 unstamped, 0 draft, 0 in progress, 0 missing, 0 broken): "
            "0 error(s), 1 warning(s)"
        ),
    ]
    assert main(["check", "--strict", "--docs", str(docs)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == NEXT
    assert main(["stamp", str(docs / "ko" / "index.md")]) == 0
    assert main(["check", "--strict", "--docs", str(docs)]) == 0
    assert main(["stamp", str(docs / "en" / "index.md")]) == 1
    assert "is the source; stamp its translation" in capsys.readouterr().err


def test_command_line_reports_errors_and_fails(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(docs, "ko/intro", "print(x)", "print(y)")
    assert main(["check", "--docs", str(docs)]) == 1
    out = capsys.readouterr().out.splitlines()
    at = line(docs, "ko/intro", "print(y)")
    assert out[0].startswith(f"docs/ko/intro.md:{at}: error: code cell 1 differs")
    assert out[-2:] == [
        (
            "2 pages (2 translated, 0 stale, 0 unstamped, 0 draft, 0 in progress, 0 missing, 0 broken): "
            "1 error(s), 0 warning(s)"
        ),
        NEXT,
    ]
