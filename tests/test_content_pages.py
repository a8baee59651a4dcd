"""What every teaching page has, in both languages (sources and the built site).

A teaching page states what executed it, links the JAX functions it
introduces to JAX's reference, shows the errors it teaches as real executed
errors, and ends with a summary and exercises whose solutions are executed
but hidden until the reader opens them.
"""

from __future__ import annotations

import re
from pathlib import Path

import jax
import pytest

from helpers import DOCS, GUIDE_PAGES, written_in_each_language
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.myst_notebook import code_cells

NOT_TEACHING = {
    "index",
    "api",
    "sharp-bits",
    "glossary",
    "status",
    "contributing",
}  # landing and reference
TEACHING_PAGES = sorted(set(GUIDE_PAGES.names()) - NOT_TEACHING)
HEADINGS = {
    "ko": {"summary": "## 정리", "exercises": "## 연습 문제"},
    "en": {"summary": "## What you learned", "exercises": "## Exercises"},
}
SOLUTION_TOGGLE = {"ko": "풀이 보기", "en": "Show solution"}
PARTS = {
    "ko": [
        "시작하기",
        "배열",
        "변환",
        "실전 예제",
        "실무 도구",
        "규모 키우기",
        "참고 자료",
    ],
    "en": [
        "Getting started",
        "Arrays",
        "Transformations",
        "Worked examples",
        "Toolkit for real work",
        "Scaling up",
        "Reference",
    ],
}
# The errors each page teaches, shown by cells tagged raises-exception.
TAUGHT_ERRORS = {
    "intro": ["TypeError"],
    "setup": ["RuntimeError"],
    "numpy-api": ["TypeError", "IndexError", "TracerArrayConversionError"],
    "random": ["TypeError"],
    "pytrees": ["ValueError", "TypeError"],
    "pure-functions": ["TypeError", "TracerBoolConversionError"],
    "jit": ["TypeError", "ValueError"],
    "control-flow": [
        "TracerBoolConversionError",
        "TracerIntegerConversionError",
        "NonConcreteBooleanIndexError",
        "ValueError",
    ],
    "autodiff": ["TypeError", "AssertionError"],
    "vmap": ["ValueError"],
    "parallelism": ["ValueError", "RuntimeError", "ShardingTypeError"],
    "lax": ["TypeError", "TracerBoolConversionError"],
    "state": ["UnexpectedTracerError", "ValueError"],
    "debugging": ["JaxRuntimeError", "FloatingPointError", "ConcretizationTypeError"],
    "compilation": ["TypeError"],
    "export": ["ValueError", "InconclusiveDimensionOperation", "NotImplementedError"],
    "callbacks": ["NotImplementedError", "ValueError", "JaxRuntimeError"],
    "checkpointing": ["ValueError"],
    "collectives": ["ValueError"],
    "pallas": ["ValueError", "NotImplementedError"],
}
TOCTREE = re.compile(
    r"```\{toctree\}\n:caption: (?P<caption>[^\n]+)\n(?P<body>.*?)```", re.DOTALL
)


def source(lang: str, name: str) -> str:
    return (DOCS / lang / f"{name}.md").read_text(encoding="utf-8")


def built_page(built: dict[str, Path], lang: str, name: str) -> str:
    return (built[lang] / f"{name}.html").read_text(encoding="utf-8")


def toctree_parts(lang: str) -> list[tuple[str, list[str]]]:
    return [
        (
            match["caption"],
            [line for line in match["body"].split("\n") if line and ":" not in line],
        )
        for match in TOCTREE.finditer(source(lang, "index"))
    ]


def test_table_of_contents_follows_the_parts_in_both_languages() -> None:
    """Each language lists its pages in the same parts, in the same order; a
    page in progress only where it is written (as the checker has it)."""
    parts = {lang: toctree_parts(lang) for lang in LANGUAGES}
    in_progress = {name for lang in LANGUAGES for name in GUIDE_PAGES.in_progress[lang]}
    for lang in LANGUAGES:
        assert [caption for caption, _ in parts[lang]] == PARTS[lang]
        listed = [page for _, pages in parts[lang] for page in pages]
        assert sorted(listed) == sorted(set(GUIDE_PAGES.written[lang]) - {"index"})
    translated = {
        lang: [
            [page for page in pages if page not in in_progress]
            for _, pages in parts[lang]
        ]
        for lang in LANGUAGES
    }
    assert translated["ko"] == translated["en"]
    assert set(GUIDE_PAGES.in_every_language()) >= NOT_TEACHING


@pytest.mark.parametrize(("lang", "name"), written_in_each_language(TEACHING_PAGES))
def test_page_ends_with_summary_and_exercises_with_a_hidden_solution(
    lang: str, name: str
) -> None:
    text = source(lang, name)
    summary, exercises = (
        text.find(HEADINGS[lang][key] + "\n") for key in ("summary", "exercises")
    )
    assert summary != -1, f"{lang}/{name}.md: no '{HEADINGS[lang]['summary']}' section"
    assert exercises > summary, f"{lang}/{name}.md: no exercises after the summary"
    solutions = [cell for cell in code_cells(text) if "hide-cell" in cell.tags]
    assert solutions, (
        f"{lang}/{name}.md: exercises without a solution cell tagged hide-cell"
    )
    assert "hide-cell" in text[exercises:], (
        f"{lang}/{name}.md: solution before the exercises"
    )


@pytest.mark.parametrize(("lang", "name"), written_in_each_language(TEACHING_PAGES))
def test_built_page_states_its_jax_and_hides_solutions_in_its_language(
    built: dict[str, Path], lang: str, name: str
) -> None:
    html = built_page(built, lang, name)
    # environment_report()'s line, or jax.print_environment_info() on the setup page
    shown = re.search(
        rf"JAX {re.escape(jax.__version__)}|jax: +{re.escape(jax.__version__)}", html
    )
    assert shown, f"{lang}/{name}: no JAX version shown"
    assert SOLUTION_TOGGLE[lang] in html, f"{lang}/{name}: solution toggle not labelled"
    other = SOLUTION_TOGGLE["en" if lang == "ko" else "ko"]
    assert other not in html


# A role naming a JAX object, which the build links to JAX's reference
# (the offline inventory in docs/_inventories: an unresolved one fails it).
JAX_ROLE = re.compile(r"\{(?:func|class|mod|meth|attr|data|obj|exc)\}`~?jax[.\w]*`")


@pytest.mark.parametrize(("lang", "name"), written_in_each_language(TEACHING_PAGES))
def test_a_teaching_page_names_jax_objects_by_their_role(lang: str, name: str) -> None:
    """In the fast loop (the page's source, no build): a page that teaches
    links what it teaches to JAX's reference, with a role such as
    {func}`jax.jit` or {mod}`jax.numpy` (the contributing page's examples)."""
    source = (DOCS / lang / f"{name}.md").read_text(encoding="utf-8")
    assert JAX_ROLE.search(source), (
        f"docs/{lang}/{name}.md names no JAX object with a role: link what the "
        "page teaches to JAX's reference, e.g. {func}`jax.jit` or {mod}`jax.numpy`"
    )


@pytest.mark.parametrize(("lang", "name"), written_in_each_language(TEACHING_PAGES))
def test_jax_functions_link_to_jax_reference(
    built: dict[str, Path], lang: str, name: str
) -> None:
    """The roles became links to entries of JAX's reference (its API pages,
    a module's page, its errors page), each to the object's anchor."""
    html = built_page(built, lang, name)
    # Intersphinx's links (a page may also link one of JAX's guides by hand,
    # such as profiling.html, with no title and no anchor).
    links = re.findall(
        r'href="(https://docs\.jax\.dev/en/latest/[^"]*)" title="\((?:in )?JAX', html
    )
    assert links, f"{lang}/{name}: no link into JAX's reference"
    assert all("#" in link for link in links), f"{lang}/{name}: {links}"


@pytest.mark.parametrize(
    ("lang", "name"), written_in_each_language(sorted(TAUGHT_ERRORS))
)
def test_taught_errors_are_executed_and_shown(
    built: dict[str, Path], lang: str, name: str
) -> None:
    html = built_page(built, lang, name)
    for error in TAUGHT_ERRORS[name]:
        assert re.search(rf"{error}</span>|{error}:", html), (
            f"{lang}/{name}: {error} not shown"
        )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["parallelism", "collectives", "checkpointing"])
def test_multi_device_pages_ran_on_eight_devices(
    built: dict[str, Path], lang: str, name: str
) -> None:
    html = built_page(built, lang, name)
    # The environment report under the page's first cell: "8 × cpu".
    assert "8 × cpu" in html, f"{lang}/{name}: not run on 8 CPU devices"


def test_no_page_code_needs_the_build_toolchain() -> None:
    """A page's source, downloaded or opened in Colab, runs where only jaxguide
    is installed: its cells glue through jaxguide.glue, never myst-nb's."""
    needs_toolchain = [
        f"{lang}/{name}.md"
        for lang in LANGUAGES
        for name in GUIDE_PAGES.written[lang]
        if any(
            re.search(r"\b(myst_nb|sphinx)\b", cell.source)
            for cell in code_cells(source(lang, name))
        )
    ]
    assert needs_toolchain == []
