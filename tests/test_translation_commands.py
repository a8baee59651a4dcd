"""The checker's `copy-code` and `glossary` commands
(translation/copy_code.py, translation/lookup.py).

copy-code puts the source's code cells, options and source, into the
translation, paired by order, and leaves the prose byte for byte; it copies
nothing where the two pages have different numbers of cells, naming the
section where they differ. glossary looks a term up by its English, its
Korean or a variant it avoids, and names the closest terms where nothing
matches.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import DOCS
from jaxguide_site.translation.checker import main
from jaxguide_site.translation.consistency import check
from jaxguide_site.translation.parity import read_source
from translation_docs import GLOSSARY, edit, errors, line, make_docs, run_command

KO = "docs/ko/intro.md"


@pytest.fixture
def docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return make_docs(tmp_path, GLOSSARY + TERMS)


def test_copy_code_copies_changed_cells_and_leaves_the_prose(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first cell's options and the last cell's source, at the end of
    the file."""
    before = (docs / "ko/intro.md").read_bytes()
    cells = [cell.line for cell in read_source(docs / "ko/intro.md").cells]
    edit(docs, "ko/intro", "ipython3\nx = 1", "ipython3\n:tags: [hide-input]\n\nx = 1")
    edit(docs, "ko/intro", "y = x + 1", "y = x + 2")
    assert len(errors(check(docs))) == 2
    assert run_command(capsys, "copy-code", KO) == (
        0,
        [
            (
                f"{KO}: copied 2 of 2 code cells from docs/en/intro.md, the prose "
                f"untouched: cells 1 (line {cells[0]}) and 2 (line {cells[1]})"
            )
        ],
        [],
    )
    assert (docs / "ko/intro.md").read_bytes() == before
    assert run_command(capsys, "copy-code", KO) == (
        0,
        [f"{KO}: its 2 code cells match docs/en/intro.md's"],
        [],
    )


def test_copy_code_on_the_real_jit_page_restores_its_cells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for lang in ("en", "ko"):
        (tmp_path / "docs" / lang).mkdir(parents=True)
        shutil.copy(DOCS / lang / "jit.md", tmp_path / "docs" / lang)
    monkeypatch.chdir(tmp_path)
    page = tmp_path / "docs/ko/jit.md"
    before = page.read_bytes()
    cells = read_source(page).cells
    plain = next(k for k, cell in enumerate(cells) if not cell.metadata and k > 1)
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[cells[plain].line - 1] += ":tags: [hide-output]\n\n"
    lines[cells[1].source_line - 1] = "print('바뀐 코드')\n"
    page.write_text("".join(lines), encoding="utf-8")
    first, second = sorted((1, plain))
    assert run_command(capsys, "copy-code", "docs/ko/jit.md") == (
        0,
        [
            (
                f"docs/ko/jit.md: copied 2 of {len(cells)} code cells from "
                f"docs/en/jit.md, the prose untouched: cells {first + 1} (line "
                f"{cells[first].line}) and {second + 1} (line {cells[second].line})"
            )
        ],
        [],
    )
    assert page.read_bytes() == before


def test_copy_code_refuses_pages_with_different_numbers_of_cells(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(docs, "ko/intro", "```{code-cell} ipython3\ny = x + 1\n```\n", "")
    edit(docs, "ko/intro", "x = 1", "x = 2")
    before = (docs / "ko/intro.md").read_bytes()
    assert run_command(capsys, "copy-code", KO) == (
        1,
        [],
        [
            (
                f"error: {KO} has 1 code cell and docs/en/intro.md has 2: section "
                f"'## 더 보기' (line {line(docs, 'ko/intro', '## 더 보기')}) has 0, "
                "section '## More' (docs/en/intro.md:"
                f"{line(docs, 'en/intro', '## More')}) has 1; copy-code pairs the "
                "cells by order: add or remove cells there to match, then run it again"
            )
        ],
    )
    assert (docs / "ko/intro.md").read_bytes() == before


@pytest.mark.usefixtures("docs")
@pytest.mark.parametrize(
    ("page", "message"),
    [
        (
            "docs/en/intro.md",
            (
                "docs/en/intro.md is the source; copy-code its translation: "
                f"python -m nox -s i18n -- copy-code {KO}"
            ),
        ),
        ("docs/ko/intr.md", f"docs/ko/intr.md does not exist: did you mean {KO}?"),
    ],
)
def test_copy_code_of_a_wrong_page_says_which(
    capsys: pytest.CaptureFixture[str], page: str, message: str
) -> None:
    assert run_command(capsys, "copy-code", page) == (1, [], [f"error: {message}"])


TERMS = """
[[term]]
en = "gradient"
ko = "기울기"
avoid = ["그래디언트", "gradient"]
page = "autodiff"
en_def = "The vector of partial derivatives."
ko_def = "편미분을 모은 벡터입니다."

[[term]]
en = "batch axis"
ko = "배치 축"
en_def = "The axis of the examples."
ko_def = "샘플의 축입니다."
"""
GRADIENT = [
    "gradient → 기울기",
    "  avoid: 그래디언트, gradient",
    "  en: The vector of partial derivatives.",
    "  ko: 편미분을 모은 벡터입니다.",
    "  taught in: docs/ko/autodiff.md, docs/en/autodiff.md",
]
BATCH_AXIS = [
    "batch axis → 배치 축",
    "  en: The axis of the examples.",
    "  ko: 샘플의 축입니다.",
]


@pytest.mark.usefixtures("docs")
@pytest.mark.parametrize(
    ("word", "out"),
    [
        ("Gradient", GRADIENT),
        ("기울기", GRADIENT),
        (
            "그래디언트",
            [
                (
                    "'그래디언트' is a variant the glossary avoids: its Korean for "
                    "'gradient' is '기울기'"
                ),
                *GRADIENT,
            ],
        ),
        ("배치축", BATCH_AXIS),
        ("axis", ["No glossary term is 'axis'; the terms with it:", *BATCH_AXIS]),
    ],
)
def test_glossary_finds_a_term_in_either_language(
    capsys: pytest.CaptureFixture[str], word: str, out: list[str]
) -> None:
    assert run_command(capsys, "glossary", word) == (0, out, [])


@pytest.mark.usefixtures("docs")
@pytest.mark.parametrize(
    ("word", "hint"),
    [
        ("gradiant", "did you mean gradient (기울기)?"),  # codespell:ignore gradiant
        ("기울기를", "did you mean gradient (기울기)?"),
        ("convolutions", "did you mean convolution (합성곱)?"),
        (
            "zzz",
            (
                "the glossary pages list them all: docs/ko/glossary.md, "
                "docs/en/glossary.md"
            ),
        ),
    ],
)
def test_glossary_without_a_match_names_the_closest_terms(
    capsys: pytest.CaptureFixture[str], word: str, hint: str
) -> None:
    assert run_command(capsys, "glossary", word) == (
        1,
        [],
        [f"error: no term of docs/_data/glossary.toml is or contains {word!r}: {hint}"],
    )


def test_glossary_outside_the_repository_says_where_to_run_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["glossary", "gradient"])
    assert "run from the repository root or pass --docs" in capsys.readouterr().err


def test_glossary_reads_the_guides_glossary(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_command(capsys, "glossary", "그래디언트", "--docs", str(DOCS))
    assert (status, out[1]) == (0, "gradient → 기울기")
