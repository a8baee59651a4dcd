"""A page's MyST prose as Markdown Jupyter renders (src/jaxguide_site/notebooks/markdown.py).

Each conversion on a small input; the build's links, titles and glued values
are stand-ins here (tests/test_notebooks.py checks the built notebooks).
"""

from __future__ import annotations

import pytest

from jaxguide_site.notebooks.markdown import Conversion, Link, for_jupyter

SITE = "https://example.org/guide/en/dev/"
JAX = "https://docs.jax.dev/en/latest/"
TARGETS = {
    ("py", "func", "jax.grad"): Link(f"{JAX}jax.grad.html#jax.grad"),
    ("py", "class", "jax.Array"): Link(f"{JAX}jax.Array.html#jax.Array"),
    ("py", "mod", "jaxguide.timing"): Link(f"{SITE}api.html#module-jaxguide.timing"),
    ("std", "ref", "jit-cache"): Link(f"{SITE}jit.html#jit-cache", "When it compiles"),
    ("std", "doc", "pytrees"): Link(f"{SITE}pytrees.html", "Pytrees"),
    ("std", "term", "tracer"): Link(f"{SITE}glossary.html#term-tracer", "tracer"),
}


def convert(markdown: str, **parts: object) -> tuple[str, list[str]]:
    problems: list[str] = []
    conversion = Conversion(
        link=lambda domain, role, target: TARGETS.get((domain, role, target)),
        titles={"note": "참고"},
        problem=problems.append,
        **parts,  # type: ignore[arg-type]
    )
    return for_jupyter(markdown, conversion), problems


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("{func}`jax.grad`", f"[`jax.grad()`]({JAX}jax.grad.html#jax.grad)"),
        ("{py:func}`jax.grad()`", f"[`jax.grad()`]({JAX}jax.grad.html#jax.grad)"),
        ("{class}`~jax.Array`", f"[`Array`]({JAX}jax.Array.html#jax.Array)"),
        ("{func}`grad <jax.grad>`", f"[`grad`]({JAX}jax.grad.html#jax.grad)"),
        ("{class}`!jax.Array`", "`jax.Array`"),
        (
            "{mod}`jaxguide.timing`",
            f"[`jaxguide.timing`]({SITE}api.html#module-jaxguide.timing)",
        ),
        ("{ref}`jit-cache`", f"[When it compiles]({SITE}jit.html#jit-cache)"),
        ("{ref}`the cache <jit-cache>`", f"[the cache]({SITE}jit.html#jit-cache)"),
        ("{doc}`pytrees`", f"[Pytrees]({SITE}pytrees.html)"),
        ("{doc}`a *pytree* <pytrees>`", rf"[a \*pytree\*]({SITE}pytrees.html)"),
        ("{term}`tracer`", f"[tracer]({SITE}glossary.html#term-tracer)"),
        ("{math}`e^{x}`", "$e^{x}$"),
        ("{abbr}`MSE (mean squared error)`", "`MSE (mean squared error)`"),
        ("{sub}`2`", "<sub>2</sub>"),
    ],
)
def test_a_role_becomes_markdown(markdown: str, expected: str) -> None:
    assert convert(f"See {markdown}.\n") == (f"See {expected}.\n", [])


def test_a_role_without_a_target_is_code_and_reported() -> None:
    text, problems = convert("{func}`jax.nowhere` and {ref}`the end <nowhere>`\n")
    assert text == "`jax.nowhere()` and the end\n"
    assert len(problems) == 2


def test_code_spans_and_code_blocks_keep_roles_as_written() -> None:
    markdown = (
        "Write `{note}` or ``{func}`f` `` in MyST.\n\n"
        "```markdown\n{func}`jax.grad`\n(label)=\n```\n"
    )
    assert convert(markdown) == (markdown, [])


def test_a_role_spanning_lines_and_roles_in_tables_and_headings() -> None:
    markdown = (
        "# With {func}`jax.grad`\n\n"
        "| a | {doc}`pytrees` |\n|---|---|\n\n"
        "A {ref}`long\ntitle <jit-cache>` here.\n"
    )
    assert convert(markdown)[0] == (
        f"# With [`jax.grad()`]({JAX}jax.grad.html#jax.grad)\n\n"
        f"| a | [Pytrees]({SITE}pytrees.html) |\n|---|---|\n\n"
        f"A [long title]({SITE}jit.html#jit-cache) here.\n"
    )


def test_labels_comments_and_breaks_are_left_out() -> None:
    markdown = (
        "(top)=\n# Title\n\n% a comment\nText.\n\n+++\n\n- item\n  (inner)=\n  more\n"
    )
    assert convert(markdown)[0] == "# Title\n\nText.\n\n- item\n  more\n"


def test_an_admonition_is_a_block_quote_under_its_title() -> None:
    markdown = "Before.\n\n:::{note}\nSee {doc}`pytrees`.\n\n- a list\n:::\n\nAfter.\n"
    assert convert(markdown)[0] == (
        "Before.\n\n"
        f"> **참고**\n>\n> See [Pytrees]({SITE}pytrees.html).\n>\n> - a list\n"
        "\nAfter.\n"
    )


def test_an_admonition_with_its_own_title_and_one_not_translated() -> None:
    # A backtick fence's first line has no backticks: a role there needs :::.
    markdown = ":::{admonition} On {math}`x`\n:class: tip\nBody.\n:::\n\n```{warning} Hot.\n```\n"
    assert convert(markdown)[0] == (
        "> **On $x$**\n>\n> Body.\n\n> **Warning**\n>\n> Hot.\n"
    )


def test_a_nested_directive_keeps_its_indentation() -> None:
    markdown = "- item\n\n  :::{note}\n  Inside.\n  :::\n"
    assert convert(markdown)[0] == "- item\n\n  > **참고**\n  >\n  > Inside.\n"


def test_a_glued_figure_is_an_image_over_its_caption() -> None:
    markdown = (
        "```{glue:figure} fit\n:alt: A [rising] line.\n:name: fig-fit\n\n"
        "The fitted *line*, {math}`y = wx`.\n```\n"
    )
    figure = {"fit": "data:image/png;base64,iVBORw0KGgo="}.get
    assert convert(markdown, figure=figure)[0] == (
        r"![A \[rising\] line.](data:image/png;base64,iVBORw0KGgo=)"
        "\n\nThe fitted *line*, $y = wx$.\n"
    )
    # Where a cell's output shows the figure already: its caption alone.
    assert convert(markdown)[0] == "The fitted *line*, $y = wx$.\n"


def test_glue_roles_ask_for_their_value() -> None:
    values = {("glue:text", "ratio:.1f"): "2.5", ("glue", "verdict"): "`a` won"}
    text, _ = convert(
        "{glue:text}`ratio:.1f` and {glue}`verdict`\n",
        glue=lambda role, key: values.get((role, key)),
    )
    assert text == "2.5 and `a` won\n"


def test_a_definition_list_is_a_bullet_list() -> None:
    markdown = "Interpreter\n: runs line by line, with {func}`jax.grad`\n  and more.\n\nJIT\n: compiles.\n"
    assert convert(markdown)[0] == (
        f"- **Interpreter**: runs line by line, with [`jax.grad()`]({JAX}jax.grad.html#jax.grad)\n"
        "  and more.\n- **JIT**: compiles.\n\n"
    )


def test_other_directives_become_their_content() -> None:
    markdown = (
        "```{doctest}\n>>> 1 + 1\n2\n```\n\n"
        "```{math}\n:label: eq\nx^2\n```\n\n"
        "```{eval-rst}\n.. automodule:: jaxguide.timing\n   :members:\n```\n\n"
        "```{gpu-record} jit-log-exp\n```\n\n"
        "::::{dropdown} More\n:open:\nHidden {math}`x`.\n::::\n"
    )
    assert convert(markdown)[0] == (
        "```pycon\n>>> 1 + 1\n2\n```\n\n"
        "$$\nx^2\n$$\n\n"
        f"- [`jaxguide.timing`]({SITE}api.html#module-jaxguide.timing)\n\n"
        "More\n\nHidden $x$.\n"
    )


def test_a_math_block_keeps_no_label() -> None:
    assert convert("$$\nx^2\n$$ (eq-square)\n")[0] == "$$\nx^2\n$$\n"
