"""The translation checker's structure and markup checks (translation/
structure.py, translation/markup.py), on real pages.

Each test copies a real page pair (docs/en/<page>.md and its Korean
translation) into a docs folder of its own, with a stub page for each page
and label it links to, breaks the Korean page as a translator might (a
paragraph, list item or admonition left out; a glued value typed; a formula,
code span, link or role target changed) and shows the one finding: the
Korean file, the line and what to do. The unbroken pair finds nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jaxguide_site.translation.consistency import check
from jaxguide_site.translation.stamps import stamp
from translation_docs import errors, line, real_pair


def mutate(docs: Path, page: str, old: str, new: str = "") -> None:
    """Replace ``old`` (found once) in the Korean ``page`` by ``new``."""
    path = docs / "ko" / f"{page}.md"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def finding(docs: Path) -> tuple[str, str]:
    """The one error: (file:line, message)."""
    (found,) = errors(check(docs))
    where, message = found.split(": ", 1)
    return where, message


def test_real_pairs_find_nothing(tmp_path: Path) -> None:
    """The Korean pages word things their own way: `jit` named where English
    says "jitted", a variable named where the grammar needs it ($x$가), a
    formula repeated, the paragraph around a formula reordered."""
    for name in ("jit", "state"):
        assert errors(check(real_pair(tmp_path / name, name))) == []


RECOMPILE = "section '## `jit`이 다시 컴파일하는 경우' after code cell 6"
DROPPED = """

캐시 미스가 날 때마다 컴파일 비용을 치르고, 대부분은 트레이싱 비용도 함께
치릅니다. 아래의 시간 측정 표는 각 함수의 첫 호출을 이후 호출과 따로
잽니다({ref}`async-dispatch-how-to-time` 참고). 첫 호출은 한 번뿐인 호출을 한 번 잰 값이므로,
대략적인 크기로만 보세요. 첫 호출 시간에 트레이싱과 컴파일 비용이 들어가는 것은 함수가 그
인자들의 모양을 처음 만날 때뿐입니다. 다음 표의 `selu_jit`이 그렇습니다. 뒤에 나오는 `wave`
표의 `NumPy`와 `jax.jit(wave)`는 표를 재기 전에 이미 호출되었으므로, 두 행의 첫 호출은 이후
호출과 다를 바 없습니다. `jnp (eager)` 행의 첫 호출에는 그 모양과 자료형으로 아직 실행한
적이 없는 연산(`sin`, `cos` 등)마다 작은 프로그램을 컴파일하는 시간이 들어갑니다.
"""


@pytest.mark.parametrize(
    ("old", "new"),
    [(DROPPED, "\n"), ("포함됩니다.\n\n캐시 미스가", "포함됩니다.\n캐시 미스가")],
    ids=["deleted", "merged"],
)
def test_paragraph_deleted_or_merged_is_found(
    tmp_path: Path, old: str, new: str
) -> None:
    docs = real_pair(tmp_path, "jit")
    mutate(docs, "jit", old, new)
    assert finding(docs) == (
        f"docs/ko/jit.md:{line(docs, 'ko/jit', '`double(1.0)` 다음에')}",
        (
            f"{RECOMPILE} has 1 paragraph, docs/en/jit.md has 2 there (from line "
            f"{line(docs, 'en/jit', '`double(1.0)` then')}): a paragraph is missing "
            "or two were merged: translate the missing one, or split them as the "
            "source does. The source's paragraphs there start: '`double(1.0)` then "
            f"`double(jnp.float32(1.0))` traces twice:' (line "
            f"{line(docs, 'en/jit', '`double(1.0)` then')}), 'Each cache miss costs "
            f"a' (line {line(docs, 'en/jit', 'Each cache miss costs')})"
        ),
    )


def test_list_item_deleted_is_found(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "jit")
    item = line(docs, "ko/jit", "- `jit`은 연산을 융합하고")
    lines = (docs / "ko" / "jit.md").read_text(encoding="utf-8").splitlines()
    mutate(docs, "jit", "\n".join(lines[item - 1 : item + 1]) + "\n")
    where, message = finding(docs)
    assert where == f"docs/ko/jit.md:{line(docs, 'ko/jit', '- `jax.jit(f)`(또는')}"
    assert message.startswith(
        "section '## 정리' has 5 list items, docs/en/jit.md has 6 there (from "
        f"line {line(docs, 'en/jit', '- `jax.jit(f)` (or')}): a list item is "
        "missing or two were merged: translate the missing one, or split them "
        "as the source does. The source's list items there start: "
    )
    lost = line(docs, "en/jit", "- `jit` fuses operations")
    assert f"'- `jit` fuses operations and' (line {lost})" in message


def _second(docs: Path, page: str, text: str) -> int:
    """The line of the second line of docs/<page>.md that holds ``text``."""
    lines = (docs / f"{page}.md").read_text(encoding="utf-8").splitlines()
    return [n for n, row in enumerate(lines, 1) if text in row][1]


# The second "from the notes" aside of async-dispatch, in Korean.
ASIDE = ":::{admonition} 노트에서\n:class: from-the-notes\n\n노트 000은"


def _aside_changed(tmp_path: Path, old: str, new: str) -> tuple[Path, int, int]:
    """The real async-dispatch pair, ``old`` changed to ``new`` in that aside;
    the lines of its fence in Korean and in English."""
    docs = real_pair(tmp_path, "async-dispatch")
    at = line(docs, "ko/async-dispatch", "노트 000은") - 3
    mutate(docs, "async-dispatch", ASIDE, ASIDE.replace(old, new))
    return docs, at, _second(docs, "en/async-dispatch", "From the notes")


def test_translated_directive_option_is_found(tmp_path: Path) -> None:
    docs, at, source = _aside_changed(tmp_path, "from-the-notes", "노트에서")
    where, message = finding(docs)
    assert where == f"docs/ko/async-dispatch.md:{at}"
    assert message.endswith(
        "this {admonition}'s option :class: is '노트에서', 'from-the-notes' in "
        f"docs/en/async-dispatch.md:{source}: "
        "options stay as in the source (only the title and the text are translated)"
    )


def test_translated_directive_name_is_found_at_its_fence(tmp_path: Path) -> None:
    docs, at, source = _aside_changed(tmp_path, "{admonition}", "{경고}")
    assert finding(docs) == (
        f"docs/ko/async-dispatch.md:{at}",
        (
            "{경고} is not a directive: directive names stay as in the source, here "
            f"{{admonition}} (docs/en/async-dispatch.md:{source})"
        ),
    )


def test_admonition_deleted_is_found(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "jit")
    text = (docs / "ko" / "jit.md").read_text(encoding="utf-8")
    note = re.search(r":::\{note\}\n.*?\n:::\n\n", text, re.DOTALL)
    assert note
    mutate(docs, "jit", note[0])
    where, message = finding(docs)
    assert where == f"docs/ko/jit.md:{line(docs, 'ko/jit', '개를 할당합니다.') - 1}"
    assert message == (
        "section '## 가장 바깥 함수를 `jit`으로 컴파일하기' between code cells 23 "
        "and 24 has 0 admonitions, docs/en/jit.md has 1 there: its {note} at "
        f"line {line(docs, 'en/jit', ':::{note}')} is missing here: translate it"
    )


def test_glued_value_typed_is_found_where_it_was(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "jit")
    mutate(
        docs, "jit", "약 {glue:text}`jit-later-call` 걸렸습니다", "약 3 µs 걸렸습니다"
    )
    assert finding(docs) == (
        f"docs/ko/jit.md:{line(docs, 'ko/jit', '`jit-first-call`')}",
        (
            "{glue:text} 'jit-later-call' of docs/en/jit.md:"
            f"{line(docs, 'en/jit', '`jit-later-call`')} is missing between here and "
            f"line {line(docs, 'ko/jit', '`jit-eager-first-call`')} (a typed value in "
            "its place? glue it: {glue:text}`jit-later-call`)"
        ),
    )


def test_changed_formula_is_found(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "jit")
    mutate(docs, "jit", r"\alpha e^x - \alpha & x", r"\alpha e^x & x")
    where, message = finding(docs)
    assert where == f"docs/ko/jit.md:{line(docs, 'ko/jit', 'operatorname') - 1}"
    assert message.startswith(r"formula $\operatorname{selu}(x) = \lambda")
    assert (
        f" here, where docs/en/jit.md:{line(docs, 'en/jit', 'operatorname') - 1} has "
        in message
    )
    assert r"\alpha e^x - \alpha & x \le 0 \end{cases}$: formulas stay" in message
    # The translation's formula is cut short, but not where it differs.
    assert r"\alpha e^x & x \le 0" in message.split(" here, ")[0]


def test_formula_left_open_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    """Its closing $$ deleted, the build shows the formula as a paragraph of
    LaTeX (markdown-it reads no math block without its closing $$), and so
    does the checker: that paragraph, at the formula's line, is not Korean,
    and its section has more paragraphs than the source's."""
    docs = real_pair(tmp_path, "jit")
    mutate(docs, "jit", "\\end{cases}\n$$\n\n이 함수를", "\\end{cases}\n\n이 함수를")
    formula = line(docs, "ko/jit", "\\operatorname") - 1
    # Each side's stretch is named by its first paragraph, below the heading.
    section = line(docs, "ko/jit", "## 새 함수를 돌려주는") + 2
    assert errors(check(docs)) == [
        (
            f"docs/ko/jit.md:{section}: section '## 새 함수를 돌려주는 `jax.jit`' "
            "before code cell 2 has 3 paragraphs, docs/en/jit.md has 1 there "
            f"(from line {line(docs, 'en/jit', '## `jax.jit` returns') + 2}): a paragraph "
            "was added or one was split: keep the source's paragraphs (a blank "
            "line separates two)"
        ),
        (
            f"docs/ko/jit.md:{formula}: this paragraph is still in English "
            "('$$ \\\\operatorname{selu}(x) = \\\\lambda \\\\begin{cases}'...): translate "
            "it (English quoted on purpose goes in quotes or code), or, to share the "
            "page unfinished, list it under [in_progress] ko in "
            "docs/_data/translations.toml as a draft"
        ),
    ]


def test_translated_code_span_is_found(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "jit")
    mutate(docs, "jit", "`selu_jit`은 원래", "`셀루_jit`은 원래")
    assert finding(docs) == (
        f"docs/ko/jit.md:{line(docs, 'ko/jit', '`셀루_jit`은')}",
        (
            "inline code `셀루_jit` here, where docs/en/jit.md:"
            f"{line(docs, 'en/jit', '`selu_jit` is a new')} has `selu_jit`: a "
            "translated name? code stays as in the source"
        ),
    )


def test_changed_link_address_is_found(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "state")
    mutate(docs, "state", "(https://optax.readthedocs.io)", "(https://optax.org)")
    assert finding(docs) == (
        f"docs/ko/state.md:{line(docs, 'ko/state', 'https://optax.org')}",
        (
            "link 'https://optax.org' here, where docs/en/state.md:"
            f"{line(docs, 'en/state', '(https://optax')} has "
            "https://optax.readthedocs.io: addresses stay as in the source"
        ),
    )


def test_changed_role_target_is_found(tmp_path: Path) -> None:
    docs = real_pair(tmp_path, "jit")
    mutate(docs, "jit", "{func}`jax.jit`은 파이썬", "{func}`jax.jitt`은 파이썬")
    assert finding(docs) == (
        f"docs/ko/jit.md:{line(docs, 'ko/jit', '`jax.jitt`')}",
        (
            "{func} 'jax.jitt' here, where docs/en/jit.md:"
            f"{line(docs, 'en/jit', '{func}`jax.jit` compiles')} has {{func}}`jax.jit`: "
            "targets stay as in the source"
        ),
    )


def test_a_source_change_is_part_of_the_stale_warning_until_stamped(
    tmp_path: Path,
) -> None:
    """A sentence added to the source (with a code span) is missing from the
    stale translation: that is what the stale warning says, so the plain
    check passes, as the contributing page promises. Stamped without the
    sentence, the translation is no longer stale and its markup an error."""
    docs = real_pair(tmp_path, "jit")
    english = docs / "en" / "jit.md"
    text = english.read_text(encoding="utf-8")
    sentence = "compiles and runs. It keeps `selu` as it is."
    english.write_text(text.replace("compiles and runs.", sentence, 1), "utf-8")
    report = check(docs)
    assert report.errors == []
    drift_warnings = [str(w) for w in report.warnings if "`selu`" in w.message]
    assert len(drift_warnings) == 1
    assert drift_warnings[0].endswith("(the source changed since the stamp)")
    stamp(docs / "ko" / "jit.md")
    (error,) = errors(check(docs))
    assert "`selu`" in error
    assert "since the stamp" not in error


@pytest.mark.parametrize("fence", ["colon", "backtick"])
def test_an_unclosed_fence_is_the_one_finding(tmp_path: Path, fence: str) -> None:
    """issue 46: a ``:::`` whose closing line went missing made the checker
    blame 34 correct lines (paragraphs "in English", missing headings and
    labels). Now the fence is named, with the fence holding it, and nothing
    else: every other finding would follow from it."""
    docs = real_pair(tmp_path, "vmap")
    page = docs / "ko" / "vmap.md"
    text = page.read_text(encoding="utf-8")
    opening = ":::{admonition}" if fence == "colon" else "```{code-cell}"
    first = text.index(f"\n{opening}")
    closing = "\n:::\n" if fence == "colon" else "\n```\n"
    end = text.index(closing, first + 1)
    page.write_text(text[:end] + "\n\n" + text[end + len(closing) :], "utf-8")
    opened = line(docs, "ko/vmap", opening)
    found = errors(check(docs))
    assert len(found) == 1, found
    if fence == "colon":  # the next admonition's closing line closed this one
        assert "never closed" in found[0]
        assert f"inside the fence opened at line {opened}" in found[0]
    else:  # the next cell's closing line closes this one
        assert found[0].startswith(f"docs/ko/vmap.md:{opened}: the fence")
        rows = page.read_text(encoding="utf-8").splitlines()
        next_cell = next(
            number
            for number, row in enumerate(rows, 1)
            if number > opened and row.startswith(opening)
        )
        assert f"has no closing line before line {next_cell}," in found[0]
