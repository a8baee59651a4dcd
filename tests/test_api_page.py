"""The API reference page, and that the pages really use the helper package."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest

import jaxguide
from helpers import DOCS, GUIDE_PAGES
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.myst_notebook import code_cells

# Names a page reaches through another one rather than by name.
REACHED_INDIRECTLY = {
    "Timing": "returned by benchmark()",
    "Comparison": "returned by compare()",
    "Ratio": "returned by Comparison.ratio()",
    "EnvironmentReport": "returned by environment_report()",
    "FitResult": "returned by gradient_descent()",
    "plot_comparison": "called by Comparison.plot()",
    "glue": "imported by name (from jaxguide import glue) in build-only cells",
}
PUBLIC = sorted(set(jaxguide.__all__) - {"__version__"})


def api_page(built: dict[str, Path], lang: str) -> str:
    return (built[lang] / "api.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_public_name_is_documented(built: dict[str, Path], lang: str) -> None:
    html = api_page(built, lang)
    for name in PUBLIC:
        anchor = f'id="jaxguide.{jaxguide._EXPORTS[name]}.{name}"'
        assert anchor in html, f"{lang}/api.html does not document {name}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_signatures_show_public_type_names(built: dict[str, Path], lang: str) -> None:
    signatures = " ".join(
        re.findall(r'<dt class="sig[^"]*"(.*?)</dt>', api_page(built, lang), re.DOTALL)
    )
    text = re.sub(r"<[^>]+>", "", signatures)
    assert "ArrayLike" in text
    assert "jaxlib._jax" not in text
    assert "numpy.number" not in text
    assert "<factory>" not in text
    assert "PjitFunction" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_timing_tables_are_executed_and_carry_both_languages(
    built: dict[str, Path], lang: str
) -> None:
    html = api_page(built, lang)
    tables = re.findall(
        r'<table class="jaxguide-output jaxguide-table">.*?</table>', html, re.DOTALL
    )
    assert len(tables) >= 3  # benchmark, compare, and the blocked / unblocked pair
    # Both languages' words, the one this page does not show kept out of search.
    both = {
        "en": '<span lang="en">median</span>'
        '<span lang="ko" hidden data-pagefind-ignore>중앙값</span>',
        "ko": '<span lang="en" data-pagefind-ignore>median</span>'
        '<span lang="ko" hidden>중앙값</span>',
    }[lang]
    for table in tables:
        assert both in table
        assert "JAX " in table  # the caption says what ran it
    assert "(not blocked)" in html
    assert '<p class="jaxguide-output jaxguide-line">JAX ' in html


def test_the_site_css_shows_each_site_its_own_language(built: dict[str, Path]) -> None:
    css = (built["ko"] / "_static" / "jaxguide.css").read_text(encoding="utf-8")
    assert 'html[lang="ko"] .jaxguide-output [lang="en"]' in css
    assert 'html[lang="ko"] .jaxguide-output [lang="ko"][hidden]' in css


def test_glued_figures_show_the_measured_values_without_quotes(
    built: dict[str, Path],
) -> None:
    for lang in LANGUAGES:
        html = api_page(built, lang)
        glued = re.findall(r'<span class="pasted-text">([^<]*)</span>', html)
        durations = [
            text for text in glued if re.fullmatch(r"\d+(\.\d+)? (ns|µs|ms|s)", text)
        ]
        assert len(durations) == 2, f"{lang}: glued durations {glued}"
        # the comparison, as a verdict in words, both languages
        assert '<span class="jaxguide-output jaxguide-verdict">' in html
        assert re.search(
            r"<code>jit</code> ran [\d.]+× as fast as <code>NumPy</code>", html
        )
        assert re.search(
            r"<code>jit</code> 쪽이 <code>NumPy</code>보다 [\d.]+배 빨랐습니다", html
        )


def test_every_public_helper_is_used_by_a_page() -> None:
    source = "\n".join(
        cell.source
        for lang in LANGUAGES
        for name in GUIDE_PAGES.written[lang]
        for cell in code_cells(
            GUIDE_PAGES.source(lang, name).read_text(encoding="utf-8")
        )
    )
    imported = {
        name.strip()
        for line in re.findall(r"^from jaxguide import (.+)$", source, re.MULTILINE)
        for name in line.split(",")
    }
    unused = [
        name
        for name in PUBLIC
        if name not in REACHED_INDIRECTLY
        and name not in imported
        and f"jaxguide.{name}" not in source
    ]
    assert not unused, f"public helpers no page uses: {unused}"


# The names the reference's table says live only in their module.
NOT_AT_THE_TOP = {"median_interval", "recorded", "rerun_range"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_of_helpers_names_every_public_helper_and_where_it_lives(
    lang: str,
) -> None:
    """The reference's table: a row for every function a reader calls, and
    the sentence above it true of each name in it (importable from
    ``jaxguide``, but for NOT_AT_THE_TOP)."""
    source = (DOCS / lang / "api.md").read_text(encoding="utf-8")
    rows = [line for line in source.splitlines() if line.startswith("| {")]
    named = {
        (module, name)
        for row in rows
        for module, name in re.findall(r"`~jaxguide\.(\w+)\.(\w+)`", row)
    }
    assert named, f"{lang}/api.md has no table of helpers"
    for module, name in named:
        assert hasattr(import_module(f"jaxguide.{module}"), name), (
            f"no jaxguide.{module}.{name}"
        )
        at_top = name not in NOT_AT_THE_TOP
        assert hasattr(jaxguide, name) == at_top, (
            f"{lang}/api.md says {name} is {'' if at_top else 'not '}"
            "importable from jaxguide"
        )
    callables = {name for name in PUBLIC if callable(getattr(jaxguide, name))}
    missing = (
        callables - {name for _, name in named} - {"EnvironmentReport", "FitResult"}
    )
    assert not missing, f"{lang}/api.md's table has no row for {sorted(missing)}"
