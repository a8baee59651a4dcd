"""Math is MathML made at build time (src/jaxguide_site/math_mathml.py): the
pages load no MathJax and no script from another host, and a formula the
converter cannot show fails the strict build, naming it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import NOTEBOOK_FRONT_MATTER, build_project
from jaxguide_site.math_mathml import to_mathml

PAGE = (
    NOTEBOOK_FRONT_MATTER
    + r"""
# Math

Inline $\nabla_w L = \tfrac{2}{n} X^\top (X w - y)$ and a display formula:

$$
f(x) = \begin{cases} x^2 & x < 1, \\ 2x - 1 & x \ge 1. \end{cases}
$$
"""
)


def build(tmp_path: Path, page: str):  # type: ignore[no-untyped-def]
    srcdir = tmp_path / "src"
    srcdir.mkdir()
    (srcdir / "index.md").write_text(page, encoding="utf-8")
    return build_project(
        srcdir, tmp_path / "out", lang="en", cache=tmp_path / "cache", execute=False
    )


def test_formulas_are_mathml_and_no_math_script_loads(tmp_path: Path) -> None:
    result = build(tmp_path, PAGE)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "out" / "html" / "index.html").read_text(encoding="utf-8")
    assert html.count('<math xmlns="http://www.w3.org/1998/Math/MathML"') == 2
    assert 'display="inline"' in html
    assert 'display="block"' in html
    assert "<mtable>" in html  # the cases, as a table
    scripts = re.findall(r'<script[^>]*src="([^"]*)"', html)
    assert not [src for src in scripts if "mathjax" in src.lower()]
    assert not [src for src in scripts if re.match(r"(https?:)?//", src)]


def test_a_formula_it_cannot_show_fails_the_build_naming_it(tmp_path: Path) -> None:
    page = (
        NOTEBOOK_FRONT_MATTER
        + "# Math\n\n$$\n\\begin{aligned} a &= b \\end{aligned}\n$$\n"
    )
    result = build(tmp_path, page)
    assert result.returncode != 0
    assert "index.md" in result.stderr
    assert "math cannot be shown as MathML" in result.stderr
    assert r"\begin{aligned} a &= b \end{aligned}" in result.stderr


@pytest.mark.parametrize(
    ("latex", "shown"),
    [
        (r"\texttt{dimension\_numbers}", ">dimension_numbers<"),
        ("(a,\\\n b)", "<mi>b</mi>"),  # a backslash ending a line is a space
        (r"\sqrt{x}", "<msqrt>"),
    ],
)
def test_tex_is_read_as_tex_reads_it(latex: str, shown: str) -> None:
    mathml = to_mathml(latex, display="inline")
    assert shown in mathml
    assert "\\" not in mathml


def test_unconverted_tex_is_an_error() -> None:
    with pytest.raises(ValueError, match="unconverted"):
        to_mathml(r"\begin{aligned} a &= b \end{aligned}", display="block")
