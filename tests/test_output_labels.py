"""What a Korean reader sees (issue 33): measured code's labels in the page's
language (site and downloaded notebook), the other language's words kept out
of the search, the checker naming an untranslated label or a figure's words
(src/jaxguide_site/output_labels.py, src/jaxguide_site/translation/output_labels.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from jaxguide._render import Text, html_table
from jaxguide.ratios import Ratio
from jaxguide_site.notebooks.reader import for_readers
from jaxguide_site.output_labels import (
    Labels,
    html_in_language,
    notebook_in_language,
    page_labels,
)
from jaxguide_site.translation.output_labels import figure_words, untranslated_labels
from jaxguide_site.translation.parity import parse_source

KOREAN = {
    "naive loop": "단순한 반복문",
    "by hand": "직접 작성",
    "{N} calls, one wait": "{N}번 호출, 한 번 기다림",
}


def table() -> str:
    """A comparison table as jaxguide renders one (timing.py's cells)."""
    return html_table(
        [
            Text("code", "코드"),
            Text("speed-up vs naive loop", "naive loop 대비 속도 향상"),
        ],
        [
            ["naive loop", "1.00×"],
            [Text("by hand (not blocked)", "by hand (기다리지 않음)"), "2.0×"],
            ["vmap, jit", "3.0×"],
        ],
        caption=["Intel, ", Text("2 cores", "코어 2개")],
    )


def verdict(label: str, reference: str) -> str:
    ratio = Ratio.of(label, [2.0] * 8, reference, [1.0] * 8)
    return ratio._repr_html_()


def cells(markup: str) -> list[str]:
    return re.findall(r"<td>(.*?)</td>", markup)


def test_a_korean_table_shows_the_korean_labels() -> None:
    shown = html_in_language(table(), "ko", Labels.of(KOREAN, "ko"))
    assert cells(shown)[0] == "단순한 반복문"
    assert ">직접 작성 (기다리지 않음)</span>" in shown
    assert ">단순한 반복문 대비 속도 향상</span>" in shown
    assert "<td>vmap, jit</td>" in shown  # code names: no translation needed
    # The hidden English is left as it was, but out of the search.
    assert '<span lang="en" data-pagefind-ignore>speed-up vs naive loop</span>' in shown


def test_an_english_table_keeps_its_labels_and_hides_korean_from_the_search() -> None:
    shown = html_in_language(table(), "en", Labels.of({}, "en"))
    assert "<td>naive loop</td>" in shown
    assert '<span lang="ko" hidden data-pagefind-ignore>코어 2개</span>' in shown
    assert '<span lang="en">2 cores</span>' in shown


def test_a_verdict_names_the_candidates_as_the_table_does() -> None:
    labels = Labels.of(KOREAN, "ko")
    shown = html_in_language(verdict("naive loop", "100 calls, one wait"), "ko", labels)
    korean = re.search(r'<span lang="ko" hidden>(.*?)</span></span>', shown)
    assert korean is not None
    assert "<code>단순한 반복문</code>" in korean[1]
    assert "<code>100번 호출, 한 번 기다림</code>" in korean[1]  # {N} carried over
    # jaxguide's own "(not blocked)" is Korean on a Korean page too.
    unblocked = html_in_language(
        verdict("by hand (not blocked)", "by hand"), "ko", labels
    )
    assert "<code>직접 작성 (기다리지 않음)</code>" in unblocked


def test_labels_come_from_the_front_matter() -> None:
    front = {"jaxguide": {"measures": True, "labels": {"naive loop": "단순한 반복문"}}}
    assert page_labels(front) == {"naive loop": "단순한 반복문"}
    with pytest.raises(ValueError, match="must map each label"):
        page_labels({"jaxguide": {"labels": ["naive loop"]}})
    with pytest.raises(ValueError, match="lacks"):
        page_labels({"jaxguide": {"labels": {"calls": "{N}번 호출"}}})


GLUE = "application/papermill.record/"  # myst-nb's prefix of a glued output


def notebook() -> nbformat.NotebookNode:
    timed = nbformat.v4.new_code_cell("table")
    timed.outputs = [
        nbformat.v4.new_output(
            "execute_result", {"text/html": table(), "text/plain": "table"}
        )
    ]
    glued = nbformat.v4.new_code_cell("glue(...)", metadata={"tags": ["remove-cell"]})
    glued.outputs = [
        nbformat.v4.new_output(
            "display_data",
            {  # as glue(..., display=False) records it
                f"{GLUE}text/html": verdict("naive loop", "by hand"),
                f"{GLUE}text/plain": "ratio",
            },
            metadata={"scrapbook": {"name": "verdict", "mime_prefix": GLUE}},
        )
    ]
    prose = nbformat.v4.new_markdown_cell("여기서는 {glue}`verdict`.")
    return nbformat.v4.new_notebook(cells=[timed, glued, prose])


def test_the_korean_notebook_shows_korean_labels_and_words() -> None:
    korean = notebook_in_language(notebook(), "ko", Labels.of(KOREAN, "ko"))
    shown = korean.cells[0].outputs[0]["data"]["text/html"]
    # Jupyter and Colab show the spans that are not hidden: the Korean ones.
    assert '<span lang="ko">코드</span><span lang="en" hidden>' not in shown
    assert '<span lang="en" hidden>code</span><span lang="ko">코드</span>' in shown
    assert "<td>단순한 반복문</td>" in shown
    read = for_readers(korean, problem=pytest.fail, lang="ko")
    assert "`단순한 반복문`의 실행 시간이 `직접 작성`의" in read.cells[-1].source


def test_the_english_notebook_is_unchanged() -> None:
    english = notebook_in_language(notebook(), "en", Labels.of({}, "en"))
    assert english.cells[0].outputs == notebook().cells[0].outputs


PAGE = """---
jaxguide:
  measures: true
  labels:
{labels}---

# 페이지

```{{code-cell}} ipython3
N = 100
g = jax.jit(jax.vmap(k))
table = compare({{"naive loop": f, "vmap, jit": g, f"{{N}} calls, one wait": h}})
one = benchmark(f, label="by hand")
```
"""


def findings(labels: str) -> list[str]:
    page = parse_source(PAGE.format(labels=labels))
    return [message for _, _, message in untranslated_labels("ko/p.md", page)]


def test_the_checker_names_a_label_with_no_translation() -> None:
    given = '    "naive loop": "단순한 반복문"\n'
    found = findings(given)
    assert len(found) == 2
    assert (
        "'{N} calls, one wait' (a row of its timing table) has no translation"
        in (found[0])
    )
    assert "'by hand'" in found[1]
    every = given + '    "{N} calls, one wait": "{N}번 호출"\n    "by hand": "직접"\n'
    assert findings(every) == []  # 'vmap, jit' is code names: none needed


def test_the_checker_names_a_translation_of_no_label() -> None:
    every = '    "naive loop": "단순"\n    "{N} calls, one wait": "호출"\n    "by hand": "직접"\n'
    [found] = findings(every + '    "naive loops": "단순"\n')
    assert "translates 'naive loops', which no compare or benchmark" in found


FIGURE = """# Page

```{{code-cell}} ipython3
plot_history({{{legend}: gd_losses}}, xlabel={xlabel}, ylabel="MSE", ax=right)
ax.plot(xs, ys, label="$f'(x)$")
```
"""


def test_the_checker_names_words_on_a_figure() -> None:
    def words(legend: str, xlabel: str) -> list[str]:
        page = parse_source(FIGURE.format(legend=legend, xlabel=xlabel))
        return [message.split(" has ")[0] for _, _, message in figure_words("p", page)]

    assert words('"gradient descent"', '"step"') == [
        "the figure's text 'step'",
        "the figure's text 'gradient descent'",
    ]
    assert words('"gd_losses"', '"$k$"') == []  # math and code names


# The built site (nox -s docs): build/sphinx/<lang>/html.


def test_built_pages_show_each_languages_labels(built: dict[str, Path]) -> None:
    korean = (built["ko"] / "vmap.html").read_text(encoding="utf-8")
    english = (built["en"] / "vmap.html").read_text(encoding="utf-8")
    assert "<td>단순한 반복문</td>" in korean
    assert "<td>naive loop</td>" not in korean
    assert "<code>단순한 반복문</code>의 실행 시간이" in korean  # the glued verdict
    assert "<td>naive loop</td>" in english
    assert "단순한 반복문" not in english


@pytest.mark.parametrize(("lang", "other"), [("ko", "en"), ("en", "ko")])
def test_the_search_ignores_the_other_languages_words(
    built: dict[str, Path], lang: str, other: str
) -> None:
    for page in ("vmap", "jit", "api"):
        html = (built[lang] / f"{page}.html").read_text(encoding="utf-8")
        spans = re.findall(rf'<span lang="{other}"[^>]*>', html)
        assert spans, page
        assert all("data-pagefind-ignore" in span for span in spans), (page, spans)


def test_the_korean_notebook_download_shows_korean(built: dict[str, Path]) -> None:
    korean = nbformat.read(built["ko"] / "vmap.ipynb", as_version=4)
    outputs = [
        output["data"]["text/html"]
        for cell in korean.cells
        for output in cell.get("outputs", [])
        if "jaxguide-table" in output.get("data", {}).get("text/html", "")
    ]
    assert outputs
    assert all("<td>단순한 반복문</td>" in html for html in outputs[:1])
    assert all('<span lang="ko" hidden>' not in html for html in outputs)
    prose = "".join(
        cell.source for cell in korean.cells if cell.cell_type == "markdown"
    )
    assert "`단순한 반복문`의 실행 시간이" in prose
