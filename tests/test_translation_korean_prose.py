"""Korean prose still in English (translation/korean_prose.py, issue 32).

A real page pair, copied into a docs folder with the real glossary, is
changed as a beginner would change it: the English page copied and stamped,
one paragraph left in English, a glossary term written in English. The
checker names the page, or the line, and the next step; the pair as it is
reports nothing, nor does English that is not left untranslated: glosses,
dotted names, quoted English, terms that are their own Korean.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import DOCS
from jaxguide_site.translation.consistency import check
from jaxguide_site.translation.stamps import stamp
from test_translation_prose import ALLOW_HINT
from translation_docs import edit, errors, in_progress, line

GLOSSARY = (DOCS / "_data" / "glossary.toml").read_text(encoding="utf-8")
PAGE = "api"  # a real pair with no link to another page: it is checked alone
ENGLISH = (
    "translate it (English quoted on purpose goes in quotes or code), or, to "
    "share the page unfinished, list it under [in_progress] ko in "
    "docs/_data/translations.toml as a draft"
)


def gloss(korean: str, english: str) -> str:
    """The message's reminder that the English may gloss the Korean term."""
    return f" (the English may follow it in parentheses: '{korean}({english})')"


@pytest.fixture
def pair(tmp_path: Path) -> Path:
    """A docs folder holding the real pair PAGE and the real glossary."""
    docs = tmp_path / "docs"
    (docs / "_data").mkdir(parents=True)
    (docs / "_data" / "glossary.toml").write_text(GLOSSARY, encoding="utf-8")
    in_progress(docs, ko=[], en=[])
    for lang in ("ko", "en"):
        (docs / lang).mkdir()
        text = (DOCS / lang / f"{PAGE}.md").read_text(encoding="utf-8")
        (docs / lang / f"{PAGE}.md").write_text(text, encoding="utf-8")
    return docs


def paragraph(docs: Path, page: str, label: str) -> str:
    """The paragraph under the heading that ``(label)=`` marks in docs/<page>.md."""
    text = (docs / f"{page}.md").read_text(encoding="utf-8")
    after = text.split(f"({label})=\n", 1)[1].split("\n\n")
    return after[1]  # after[0] is the heading


def add(docs: Path, korean: str, english: str = "One more paragraph.") -> int:
    """Add a paragraph to both pages of the pair (the Korean one stamped again),
    after the same paragraph; the line of the Korean one."""
    for page, text in ((f"en/{PAGE}", english), (f"ko/{PAGE}", korean)):
        training = paragraph(docs, page, "api-training")
        edit(docs, page, training, f"{training}\n\n{text}")
    return line(docs, f"ko/{PAGE}", korean.splitlines()[0])


def test_the_real_pair_reports_nothing(pair: Path) -> None:
    report = check(pair)
    assert errors(report) == []
    assert [page.state for page in report.pages] == ["translated"]


def test_a_stamped_copy_of_the_english_page_is_not_translated(pair: Path) -> None:
    english = (pair / "en" / f"{PAGE}.md").read_text(encoding="utf-8")
    (pair / "ko" / f"{PAGE}.md").write_text(english, encoding="utf-8")
    stamp(pair / "ko" / f"{PAGE}.md")
    found = errors(check(pair))
    assert found[0] == (
        f"docs/ko/{PAGE}.md: this page is not translated: 0% of the letters of its "
        "prose are Hangul (a Korean page has 50% or more): translate it, or list "
        "it under [in_progress] ko in docs/_data/translations.toml to share it as "
        "a draft until it is"
    )
    first = line(pair, f"ko/{PAGE}", "The pages of this guide import")
    assert found[1] == (
        f"docs/ko/{PAGE}.md:{first}: this paragraph is still in English ('The "
        f"pages of this guide'...): {ENGLISH}"
    )
    # Each English paragraph, and nothing else (not each term in them).
    assert len(found) > 10
    assert all("this paragraph is still in English" in f for f in found[1:])


def test_one_paragraph_left_in_english_is_named_at_its_line(pair: Path) -> None:
    korean = paragraph(pair, f"ko/{PAGE}", "api-environment")
    english = paragraph(pair, f"en/{PAGE}", "api-environment")
    edit(pair, f"ko/{PAGE}", korean, english, restamp=False)
    at = line(pair, f"ko/{PAGE}", english.splitlines()[0])
    # The code span is not prose: the words start after it.
    assert errors(check(pair)) == [
        (
            f"docs/ko/{PAGE}.md:{at}: this paragraph is still in English ('describes "
            f"the JAX installation, its'...): {ENGLISH}"
        )
    ]


def test_a_glossary_term_in_english_is_named_with_its_korean(pair: Path) -> None:
    at = add(pair, "매 스텝 gradient를 따라 내려갑니다.")
    assert errors(check(pair)) == [
        (
            f"docs/ko/{PAGE}.md:{at}: 'gradient': the glossary's Korean for "
            f"'gradient' is '기울기'{gloss('기울기', 'gradient')}{ALLOW_HINT}"
        )
    ]
    edit(pair, f"ko/{PAGE}", "gradient를", "기울기(gradient)를", restamp=False)
    assert errors(check(pair)) == []


def test_a_term_is_found_in_any_case_plural_and_longest_first(pair: Path) -> None:
    at = add(pair, "Gradients를 모아 Gradient Descent로 내려갑니다.")
    assert errors(check(pair)) == [
        (
            f"docs/ko/{PAGE}.md:{at}: 'Gradients': the glossary's Korean for "
            f"'gradient' is '기울기'{gloss('기울기', 'gradient')}{ALLOW_HINT}"
        ),
        (
            f"docs/ko/{PAGE}.md:{at}: 'Gradient Descent': the glossary's Korean for "
            f"'gradient descent' is '경사 하강법'"
            f"{gloss('경사 하강법', 'gradient descent')}{ALLOW_HINT}"
        ),
    ]


@pytest.mark.parametrize(
    "korean",
    [
        '기울기(gradient)를, 즉 "gradient"를 구합니다.',  # glosses
        "키는 jax.random.split으로 나눕니다.",  # a dotted name
        "`split`과 `key`는 코드입니다.",  # code
        "jaxpr을 보고 scan으로 돌리며 XLA가 컴파일합니다.",  # their own Korean
        '오류는 "the key was used twice, which is not allowed"라고 합니다.',
        '"The key was used twice, which is not allowed."',  # a quote alone
        "JAX와 NumPy",  # short English, not a paragraph
    ],
)
def test_english_that_is_not_left_untranslated_is_not_reported(
    pair: Path, korean: str
) -> None:
    add(pair, korean)
    assert errors(check(pair)) == []


def test_page_allows_a_term_that_means_something_else(pair: Path) -> None:
    add(pair, "Gradient Tape는 TensorFlow의 이름입니다.")
    (message,) = errors(check(pair))
    assert "'Gradient': the glossary's Korean for 'gradient' is '기울기'" in message
    allow = "glossary_allow:\n  gradient: TensorFlow's name\ntranslated_from:"
    edit(pair, f"ko/{PAGE}", "translated_from:", allow, restamp=False)
    assert errors(check(pair)) == []


def test_an_english_list_item_is_a_paragraph(pair: Path) -> None:
    items = "- 첫째 항목입니다.\n- Take the gradient of the loss with jax.grad."
    at = add(pair, items, "- One.\n- Two.")
    assert errors(check(pair)) == [
        (
            f"docs/ko/{PAGE}.md:{at + 1}: this paragraph is still in English ('Take the "
            f"gradient of the'...): {ENGLISH}"
        )
    ]
