"""What a downloaded notebook's prose becomes (src/jaxguide_site/notebooks/reader.py)."""

from __future__ import annotations

import nbformat

from jaxguide_site.notebooks.reader import for_readers, resolve_glue

VALUES = {"speedup": "392.2371", "label": "'1.2 ms'", "name:with:colons": "7"}


def resolve(markdown: str) -> tuple[str, list[str]]:
    problems: list[str] = []
    return resolve_glue(markdown, VALUES, problems.append), problems


def test_glued_values_are_written_as_the_page_formats_them() -> None:
    text, problems = resolve(
        "ran {glue:text}`speedup:.1f` times, took {glue:text}`label`"
    )
    assert text == "ran 392.2 times, took 1.2 ms"
    assert problems == []


def test_the_format_follows_the_last_colon_as_in_myst_nb() -> None:
    assert resolve("{glue:text}`name:with:colons:d`")[0] == "7"


def test_a_glued_figure_becomes_its_caption() -> None:
    markdown = (
        "Before.\n\n```{glue:figure} fig\n:alt: A line.\n:name: fig-line\n\n"
        "The fitted *line*.\n```\n\nAfter."
    )
    assert resolve(markdown)[0] == "Before.\n\nThe fitted *line*.\n\nAfter."


def test_unknown_names_and_unfit_formats_are_reported_and_kept() -> None:
    text, problems = resolve("{glue:text}`nowhere` and {glue:text}`label:.1f`")
    assert text == "{glue:text}`nowhere` and {glue:text}`label:.1f`"
    assert len(problems) == 2
    assert "'nowhere'" in problems[0]
    assert "'label'" in problems[1]


def test_build_only_cells_are_left_out_and_their_values_used() -> None:
    glue_output = nbformat.v4.new_output(
        "display_data",
        data={"application/papermill.record/text/plain": "2.5"},
        metadata={
            "scrapbook": {
                "name": "ratio",
                "mime_prefix": "application/papermill.record/",
            }
        },
    )
    build_only = nbformat.v4.new_code_cell(
        'glue("ratio", 2.5, display=False)', metadata={"tags": ["remove-cell"]}
    )
    build_only.outputs = [glue_output]
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("ratio = 2.5"),
            build_only,
            nbformat.v4.new_markdown_cell("A ratio of {glue:text}`ratio:.1f`."),
        ]
    )
    problems: list[str] = []
    reader = for_readers(notebook, problems.append)
    assert [cell.source for cell in reader.cells] == ["ratio = 2.5", "A ratio of 2.5."]
    assert problems == []


def test_a_verdict_is_written_in_the_notebooks_language() -> None:
    html = (
        '<span class="jaxguide-output jaxguide-verdict">'
        '<span lang="en"><code>loop</code> took 27× as long as <code>scan</code></span>'
        '<span lang="ko" hidden><code>loop</code> 쪽이 <code>scan</code>보다 27배 '
        "오래 걸렸습니다</span></span>"
    )
    words = {
        "ko": "`loop` 쪽이 `scan`보다 27배 오래 걸렸습니다",
        "en": "`loop` took 27× as long as `scan`",
    }
    for lang, expected in words.items():
        glue = nbformat.v4.new_code_cell(
            "glue('v', ratio)", metadata={"tags": ["remove-cell"]}
        )
        glue.outputs = [
            nbformat.v4.new_output(
                "display_data",
                data={"text/plain": "'loop' took …", "text/html": html},
                metadata={"scrapbook": {"name": "v", "mime_prefix": ""}},
            )
        ]
        notebook = nbformat.v4.new_notebook(
            cells=[glue, nbformat.v4.new_markdown_cell("Here {glue}`v`.")]
        )
        problems: list[str] = []
        reader = for_readers(notebook, problems.append, lang=lang)
        assert reader.cells[0].source == f"Here {expected}."
        assert problems == []


def test_a_gpu_record_directive_is_left_out_of_the_notebook() -> None:
    markdown = "Before.\n\n```{gpu-record} jit-log-exp\n```\n\nObserved on a GPU."
    assert resolve(markdown)[0] == "Before.\n\nObserved on a GPU."


def figure_notebook(shown_by_a_cell: bool) -> nbformat.NotebookNode:
    png = "iVBORw0KGgo=\n"
    plot = nbformat.v4.new_code_cell(
        "ax = plot(x)", metadata={"tags": ["remove-output"]}
    )
    if shown_by_a_cell:
        plot.outputs = [nbformat.v4.new_output("display_data", data={"image/png": png})]
    glue = nbformat.v4.new_code_cell(
        'glue("fit", ax.figure, display=False)', metadata={"tags": ["remove-cell"]}
    )
    glue.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"application/papermill.record/image/png": png},
            metadata={
                "scrapbook": {
                    "name": "fit",
                    "mime_prefix": "application/papermill.record/",
                }
            },
        )
    ]
    caption = "```{glue:figure} fit\n:alt: A line.\n\nThe fit.\n```\n"
    return nbformat.v4.new_notebook(
        cells=[plot, glue, nbformat.v4.new_markdown_cell(caption)]
    )


def test_a_glued_figure_is_embedded_over_its_caption() -> None:
    problems: list[str] = []
    reader = for_readers(figure_notebook(shown_by_a_cell=False), problems.append)
    assert reader.cells[-1].source == (
        "![A line.](data:image/png;base64,iVBORw0KGgo=)\n\nThe fit.\n"
    )
    assert problems == []


def test_a_figure_a_cell_shows_already_keeps_its_caption_alone() -> None:
    problems: list[str] = []
    reader = for_readers(figure_notebook(shown_by_a_cell=True), problems.append)
    assert reader.cells[-1].source == "The fit.\n"
    assert problems == []


def test_a_figure_never_glued_is_reported() -> None:
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("```{glue:figure} nowhere\nCaption.\n```\n")
        ]
    )
    problems: list[str] = []
    assert for_readers(notebook, problems.append).cells[0].source == "Caption.\n"
    assert "'nowhere'" in problems[0]
