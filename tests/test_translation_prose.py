"""The translation checker's checks of one page's prose (translation/prose.py).

Links and targets that do not exist in the page's language, the glossary's
avoided variants (as words, near spellings, English leftovers, exceptions a
page allows), Hangul in English prose, and paragraphs that a stray blank line
split mid-sentence. Each test breaks one thing in the tiny docs folder of
tests/translation_docs.py and shows the line the checker names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxguide_site.translation.consistency import check
from jaxguide_site.translation.stamps import stamp
from translation_docs import GLOSSARY, edit, errors, line, make_docs, write

# The glossary's entries the tests need: an avoided Korean variant of four
# syllables (and its near spellings), a short one, and an English word.
TERMS = (
    GLOSSARY
    + """
[[term]]
en = "gradient"
ko = "기울기"
avoid = ["그래디언트", "그레이디언트", "gradient"]
en_def = "The vector of partial derivatives."
ko_def = "편미분을 모은 벡터입니다."

[[term]]
en = "layer"
ko = "층"
avoid = ["레이어"]
en_def = "One stage of a network."
ko_def = "신경망의 한 단계입니다."

[[term]]
en = "median"
ko = "중앙값"
avoid = ["중간값"]
en_def = "The middle value."
ko_def = "가운데 값입니다."
"""
)
ALLOW_HINT = (
    "; where it means something else, list it under glossary_allow in the front "
    "matter, with the reason"
)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return make_docs(tmp_path, TERMS)


def say(docs: Path, korean: str, english: str = "") -> None:
    """Add a paragraph to the intro pages (English: the same words unless given)."""
    edit(docs, "ko/intro", "## 더 보기", f"## 더 보기\n\n{korean}")
    edit(docs, "en/intro", "## More", f"## More\n\n{english or korean}")


def test_doc_link_to_a_missing_page_names_the_closest(docs: Path) -> None:
    edit(docs, "ko/index", "읽으세요.", "읽으세요. {doc}`이 페이지 <intr>`도 보세요.")
    assert errors(check(docs)) == [
        (
            f"docs/ko/index.md:{line(docs, 'ko/index', 'intr>')}: {{doc}} link to "
            "'intr': docs/ko/intr.md does not exist: did you mean docs/ko/intro.md?"
        )
    ]


def test_misspelt_ref_target_names_the_closest_label(docs: Path) -> None:
    say(docs, "{ref}`더 보기 <intro-more>`를 보세요.", "See {ref}`intro-more`.")
    assert errors(check(docs)) == []
    edit(docs, "ko/intro", "<intro-more>", "<intro-mroe>")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', 'intro-mroe')}: {{ref}} target "
            "'intro-mroe' is not a label on any page of docs/ko/: did you mean "
            "'intro-more'?"
        )
    ]


def test_roles_in_code_are_not_links(docs: Path) -> None:
    """As in the contributing page: "a `{doc}` link or a `{ref}` target"."""
    say(
        docs,
        "`{doc}` 링크나 `{ref}` 대상, `` {doc}`gone` ``은 코드입니다.",
        "A `{doc}` link or a `{ref}` target, `` {doc}`gone` ``: code.",
    )
    assert errors(check(docs)) == []


def test_ref_to_a_directive_name_is_a_target(docs: Path) -> None:
    figure = "```{glue:figure} fig\n:name: fig-line\n:alt: {alt}\n```\n\n{see}"
    say(
        docs,
        figure.replace("{alt}", "직선").replace(
            "{see}", "{ref}`그림 <fig-line>`을 보세요."
        ),
        figure.replace("{alt}", "A line").replace(
            "{see}", "See {ref}`the figure <fig-line>`."
        ),
    )
    assert errors(check(docs)) == []


def test_avoided_variant_is_named_with_its_line(docs: Path) -> None:
    say(docs, "컨볼루션을 씁니다.", "We convolve.")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '컨볼루션')}: '컨볼루션': the "
            f"glossary's Korean for 'convolution' is '합성곱'{ALLOW_HINT}"
        )
    ]


def test_avoided_variant_is_a_word_not_a_substring(docs: Path) -> None:
    """레이어 (layer) inside 플레이어 (player) is another word."""
    say(docs, "플레이어가 이깁니다. 레이어를 쌓습니다.", "The player wins.")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '플레이어')}: '레이어': the "
            f"glossary's Korean for 'layer' is '층'{ALLOW_HINT}"
        )
    ]


def test_near_spelling_of_an_avoided_variant_is_caught(docs: Path) -> None:
    say(docs, "그레디언트를 구합니다.", "We take the gradient.")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', '그레디언트')}: '그레디언트': a "
            "spelling of '그래디언트', which the glossary avoids; its Korean for "
            f"'gradient' is '기울기'{ALLOW_HINT}"
        )
    ]


def test_english_variant_is_caught_except_where_it_glosses_the_korean(
    docs: Path,
) -> None:
    say(docs, '기울기(gradient)를, 즉 "gradient"를 구합니다.', "We take the gradient.")
    assert errors(check(docs)) == []
    edit(docs, "ko/intro", "즉", "gradients의 합인 Gradient를, 즉")
    at = line(docs, "ko/intro", "gradients의")
    message = f"the glossary's Korean for 'gradient' is '기울기'{ALLOW_HINT}"
    assert errors(check(docs)) == [
        f"docs/ko/intro.md:{at}: 'gradients': {message}",
        f"docs/ko/intro.md:{at}: 'Gradient': {message}",
    ]


def test_page_allows_a_variant_that_means_something_else(docs: Path) -> None:
    say(docs, "중간값을 저장합니다.", "It stores intermediate values.")
    (message,) = errors(check(docs))
    assert "'중간값': the glossary's Korean for 'median' is '중앙값'" in message
    edit(
        docs,
        "ko/intro",
        "translated_from:",
        "glossary_allow:\n  중간값: intermediate values, not the median\n"
        "translated_from:",
    )
    assert errors(check(docs)) == []
    edit(docs, "ko/intro", "중간값을", "중간 결과를")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', 'glossary_allow')}: "
            "glossary_allow: '중간값' allows nothing on this page: remove it"
        )
    ]


def test_page_allows_an_english_variant_in_any_case(docs: Path) -> None:
    say(docs, "Gradient Tape는 TensorFlow의 이름입니다.", "Gradient Tape: a name.")
    assert len(errors(check(docs))) == 1
    edit(
        docs,
        "ko/intro",
        "translated_from:",
        "glossary_allow:\n  gradient: TensorFlow's name\ntranslated_from:",
    )
    assert errors(check(docs)) == []


def test_glossary_allow_without_a_reason_is_an_error(docs: Path) -> None:
    edit(
        docs,
        "ko/intro",
        "translated_from:",
        "glossary_allow: [중간값]\ntranslated_from:",
    )
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{line(docs, 'ko/intro', 'glossary_allow')}: "
            "glossary_allow must map each allowed variant to the reason, e.g. "
            "'중간값: intermediate values, not the median'"
        )
    ]


def test_avoided_variant_is_allowed_in_code_and_on_the_glossary_page(
    docs: Path,
) -> None:
    say(docs, "`컨볼루션`이라는 이름은 쓰지 않습니다.", "We never write `컨볼루션`.")
    for page in ("en/intro", "ko/intro"):
        edit(docs, page, "print(x)", 'print(x, "컨볼루션")')
    edit(docs, "ko/intro", "## 더 보기", "## 더 보기\n\n```text\n컨볼루션\n```")
    write(docs, "en/glossary", "# Glossary (용어집)\n\nNot 컨볼루션.\n")
    stamp(write(docs, "ko/glossary", "# 용어집\n\n컨볼루션은 쓰지 않습니다.\n"))
    assert errors(check(docs)) == []


def test_hangul_in_english_prose_is_reported(docs: Path) -> None:
    say(docs, "직선을 봅니다.", "We look at the 직선 line.")
    assert errors(check(docs)) == [
        (
            f"docs/en/intro.md:{line(docs, 'en/intro', '직선 line')}: Hangul in "
            "English prose: '직선': translate it (Korean quoted on purpose goes in "
            "code: `...`)"
        )
    ]


# Paragraphs split mid-sentence, as four Korean pages had them (issue 22).
SPLIT = {
    "control-flow": ("실행할 때는", "`pred`가 고른 쪽 하나만 호출합니다."),
    "autodiff": ("여러 번 호출하는", "함수를 `@jax.jit`으로 컴파일합니다."),
    "parallelism": ("입력 가운데 각 장치의", "**블록**을 받습니다."),
    "gradient-descent": ("맞춘 직선과 실제", "직선은 거의 겹쳐 보입니다."),
}


@pytest.mark.parametrize(("end", "start"), SPLIT.values(), ids=list(SPLIT))
def test_paragraph_split_mid_sentence_is_found(
    docs: Path, end: str, start: str
) -> None:
    first = f"처음 문장입니다. 그리고 {end}"
    say(docs, f"{first}\n\n{start}", "One.\n\nTwo.")
    at, then = line(docs, "ko/intro", end), line(docs, "ko/intro", start)
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{at}: this paragraph ends mid-sentence "
            f"({first[-20:]!r}) and the next one, at line {then}, goes on "
            f"with it ({start[:20]!r}): remove the blank line between them, or end "
            "the sentence"
        )
    ]


def test_english_paragraph_split_mid_sentence_is_found(docs: Path) -> None:
    say(
        docs, "하나입니다.\n\n둘입니다.", "The branch that\n\nthe predicate picks runs."
    )
    at = line(docs, "en/intro", "branch that")
    (message,) = errors(check(docs))
    assert message.startswith(f"docs/en/intro.md:{at}: this paragraph ends mid-")


# Each English says the same in as many paragraphs, list items and formulas:
# the checker compares them (translation/structure.py, markup.py).
TWO = "One.\n\nTwo."
CODE = "```{code-cell} ipython3\nz = 0\n```"


@pytest.mark.parametrize(
    ("korean", "english"),
    [
        (f"다음과 같습니다:\n\n{CODE}", f"Code:\n\n{CODE}"),  # code between
        ("- 첫째 항목\n\n- 둘째 항목", "- One\n\n- Two"),  # list items
        ("| 표 |\n| --- |\n| 칸 |\n\n이어지는 문단입니다.", "One."),  # a table
        ("$$\nx^2\n$$\n\n식은 위와 같습니다.", "$$\nx^2\n$$\n\nAs above."),  # math
        ("문장은 마침표로 끝납니다.\n\n(다음)은 새 문단입니다.", TWO),
        ("괄호로 끝나는 문장입니다(예: `x`).\n\n다음 문단입니다.", TWO),
        ("**굵게 끝나는 문장입니다.**\n\n다음 문단입니다.", TWO),
    ],
)
def test_paragraphs_that_end_or_are_not_text_are_not_split(
    docs: Path, korean: str, english: str
) -> None:
    say(docs, korean, english)
    assert errors(check(docs)) == []


def test_paragraph_split_mid_sentence_in_a_note_is_found(docs: Path) -> None:
    """The paragraphs are the structure check's (translation/blocks.py): the
    note's opening fence is not part of its first paragraph."""
    note = "```{{note}}\n{}\n```"
    say(docs, note.format("노트의 이 문장은\n\n둘로 나뉘었습니다."), note.format(TWO))
    at, then = line(docs, "ko/intro", "이 문장은"), line(docs, "ko/intro", "둘로")
    assert errors(check(docs)) == [
        (
            f"docs/ko/intro.md:{at}: this paragraph ends mid-sentence ('노트의 이 "
            f"문장은') and the next one, at line {then}, goes on with it ('둘로 "
            "나뉘었습니다.'): remove the blank line between them, or end the sentence"
        )
    ]
