"""Where a translator edits: `diff` places each change of the source in the
translation, and `stamp` warns when the edits are elsewhere
(translation/changes.py, translation/sections.py).

Sections are aligned by heading, paragraphs within a section by order; the
tiny docs folder of tests/translation_docs.py shows the exact lines, and a
copy of the real jit page pair, changed in one section, shows them on a page
of the guide's own size.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import DOCS
from jaxguide_site.translation.stamps import prose_sha
from translation_docs import as_clone, commit, edit, line, make_docs, run_command

KO = "docs/ko/intro.md"
HEADER_END = "and the glossary's terms in it:"
NEXT = f"Update {KO} to match, then run: python -m nox -s i18n -- stamp {KO}"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tiny docs folder, committed, the working directory."""
    make_docs(tmp_path)
    return as_clone(tmp_path, monkeypatch)


@pytest.fixture
def jit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The real jit pages and glossary, committed, the working directory."""
    for part in ("en/jit.md", "ko/jit.md", "_data/glossary.toml"):
        (tmp_path / "docs" / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DOCS / part, tmp_path / "docs" / part)
    return as_clone(tmp_path, monkeypatch)


def after_heading(path: Path, label: str) -> tuple[int, str]:
    """The first line of text after the heading that ``(label)=`` names: its
    number and its text."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"({label})=") + 2  # the label, then its heading
    number = next(n for n in range(start, len(lines)) if lines[n].strip())
    return number + 1, lines[number]


def heading(path: Path, label: str) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines[lines.index(f"({label})=") + 1]


def test_diff_names_the_translation_section_line_and_glossary_terms(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two changes, one per section; one of them uses a glossary term."""
    docs = repo / "docs"
    more = "Then read on, one section after the other, in the order they come."
    edit(docs, "en/intro", "<index>`.\n", f"<index>`. {more}\n", restamp=False)
    edit(docs, "ko/intro", "다룹니다.\n", "다룹니다. 차례대로 읽으세요.\n")
    commit(repo, "both: one sentence more")
    edit(docs, "en/intro", "first,", "before anything else,", restamp=False)
    edit(docs, "en/intro", "A straight line", "A convolution kernel", restamp=False)
    commit(repo, "en: reword")
    status, out, err = run_command(capsys, "diff", KO)
    assert (status, err) == (0, [])
    assert out[0].endswith(HEADER_END)
    at = [line(docs, "en/intro", "before anything"), line(docs, "en/intro", "![")]
    assert out[1:] == [
        (
            f"docs/en/intro.md:{at[0]}: (intro)= # Introduction Read {{doc}}`index` "
            "[-first,-] {+before anything else,+} or {doc}`the home page <index>`. "
            "Then read on,"
        ),
        f"  → {KO}:{line(docs, 'ko/intro', '먼저')} (section '# 소개', paragraph 1)",
        (
            f"docs/en/intro.md:{at[1]}: the order they come. (intro-more)= ## More "
            "![A [-straight line](line.png)-] {+convolution kernel](line.png)+}"
        ),
        f"  → {KO}:{line(docs, 'ko/intro', '![')} (section '## 더 보기', paragraph 1)",
        "  glossary: convolution → 합성곱",
        NEXT,
    ]


def test_diff_places_a_paragraph_added_at_a_sections_end_after_its_last(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not at the next section's heading, which follows the added words."""
    docs = repo / "docs"
    for page in ("en/intro", "ko/intro"):
        edit(docs, page, "(intro-more)=\n", "")  # the heading follows the words
    commit(repo, "both: no label")
    new = "home page <index>`.\n\nAnd more.\n"
    edit(docs, "en/intro", "home page <index>`.\n", new, restamp=False)
    commit(repo, "en: add a paragraph")
    status, out, _ = run_command(capsys, "diff", KO)
    end = line(docs, "ko/intro", "먼저") + 1
    assert status == 0
    assert out[2] == f"  → {KO}:{end} (section '# 소개', after its last paragraph (1))"


def test_diff_counts_paragraphs_as_the_structure_check_does(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A display formula does not split the sentence's paragraph, however the
    blank lines around it fall: the English one has them, the Korean one not."""
    docs = repo / "docs"
    english = "The line\n\n$$\ny = 2x\n$$\n\ngoes through zero.\n\nIt is straight.\n"
    korean = "직선\n$$\ny = 2x\n$$\n은 원점을 지납니다.\n\n이 선은 곧습니다.\n"
    edit(docs, "en/intro", "<index>`.\n", f"<index>`.\n\n{english}", restamp=False)
    edit(docs, "ko/intro", "다룹니다.\n", f"다룹니다.\n\n{korean}")
    commit(repo, "both: a formula in a sentence, then a paragraph")
    edit(docs, "en/intro", "It is straight.", "It is a straight line.", restamp=False)
    commit(repo, "en: reword the paragraph after the formula")
    status, out, _ = run_command(capsys, "diff", KO)
    assert status == 0
    assert out[2] == (
        f"  → {KO}:{line(docs, 'ko/intro', '이 선은')} (section '# 소개', paragraph 3)"
    )


def test_diff_names_a_section_the_translation_lacks(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = repo / "docs"
    edit(docs, "ko/intro", "(intro-more)=\n## 더 보기\n", "")
    edit(docs, "en/intro", "A straight line", "A line", restamp=False)
    commit(repo, "ko: no heading; en: reword")
    assert run_command(capsys, "diff", KO)[1][2] == (
        f"  → {KO}: no section here stands for section '## More' of "
        "docs/en/intro.md: 'python -m nox -s i18n -- --strict' names where its "
        "heading goes"
    )


def test_diff_on_the_real_jit_page_points_at_the_korean_paragraph(
    jit: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    en, ko = jit / "docs/en/jit.md", jit / "docs/ko/jit.md"
    number, text = after_heading(en, "jit-cache")
    added = "Each gradient of a pytree is cached too."
    edit(jit / "docs", "en/jit", text, f"{added} {text}", restamp=False)
    commit(jit, "en: one sentence more")
    status, out, err = run_command(capsys, "diff", "docs/ko/jit.md")
    assert (status, err, len(out)) == (0, [], 5)
    assert out[1].startswith(f"docs/en/jit.md:{number}: ")
    assert f"{{+{added}+}}" in out[1]
    assert out[2:4] == [
        (
            f"  → docs/ko/jit.md:{after_heading(ko, 'jit-cache')[0]} "
            f"(section {heading(ko, 'jit-cache')!r}, paragraph 1)"
        ),
        "  glossary: gradient → 기울기, pytree → 파이트리",
    ]


def test_stamp_warns_when_the_edits_are_in_another_section(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = repo / "docs"
    edit(docs, "en/intro", "A straight line", "A line", restamp=False)
    commit(repo, "en: reword the figure")
    edit(docs, "ko/intro", "먼저", "무엇보다 먼저", restamp=False)
    status, out, err = run_command(capsys, "stamp", KO)
    assert (status, out) == (
        0,
        [f"{KO}: translated_from prose_sha {prose_sha(docs / 'en/intro.md')}"],
    )
    assert err == [
        (
            f"{KO}: warning: the English changes are in section '## More' "
            f"(docs/en/intro.md:{line(docs, 'en/intro', '![')}), but this page's "
            f"edits are in section '# 소개' (line {line(docs, 'ko/intro', '먼저')}): "
            "check that the change was translated where it belongs"
        )
    ]


def test_stamp_says_nothing_when_the_edits_are_in_the_same_section(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = repo / "docs"
    edit(docs, "en/intro", "A straight line", "A line", restamp=False)
    commit(repo, "en: reword the figure")
    edit(docs, "ko/intro", "![직선]", "![선]", restamp=False)
    assert run_command(capsys, "stamp", KO)[::2] == (0, [])


def test_stamp_on_the_real_jit_page_names_both_sections(
    jit: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    en, ko = jit / "docs/en/jit.md", jit / "docs/ko/jit.md"
    number, text = after_heading(en, "jit-cache")
    edit(jit / "docs", "en/jit", text, f"Each call is cached. {text}", restamp=False)
    commit(jit, "en: one sentence more")
    edited, korean = after_heading(ko, "jit-static")
    edit(jit / "docs", "ko/jit", korean, f"한 문장 더. {korean}", restamp=False)
    status, _, err = run_command(capsys, "stamp", "docs/ko/jit.md")
    assert (status, err) == (
        0,
        [
            (
                "docs/ko/jit.md: warning: the English changes are in section "
                f"{heading(en, 'jit-cache')!r} (docs/en/jit.md:{number}), but this "
                f"page's edits are in section {heading(ko, 'jit-static')!r} "
                f"(line {edited}): check that the change was translated where it "
                "belongs"
            )
        ],
    )
