"""The one reader of the pages' structure (src/jaxguide_site/page_structure.py).

Its cells must be myst-nb's, read with the site's extensions, as the build
reads them; the rest must be what myst-parser's markdown-it reads, where the
line-by-line regular expressions it replaced read something else (each
``test_tokens_...`` below is such a case).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from myst_nb.core.read import read_myst_markdown_notebook
from myst_parser.config.main import MdParserConfig

from helpers import GUIDE_PAGES
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.page_structure import SITE_EXTENSIONS, PageError, read
from jaxguide_site.translation.blocks import pieces
from jaxguide_site.translation.parity import parse_source, targets, toctrees
from jaxguide_site.translation.prose import _text_lines
from jaxguide_site.translation.report import Page

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    GUIDE_PAGES.source(lang, name)
    for lang in LANGUAGES
    for name in GUIDE_PAGES.written[lang]
]


def test_the_build_enables_the_extensions_the_tools_read_with() -> None:
    """docs/conf.py takes its MyST extensions from page_structure: one list."""
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"))
    enabled = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(getattr(t, "id", "") == "myst_enable_extensions" for t in node.targets)
    )
    assert ast.unparse(enabled) == "sorted(SITE_EXTENSIONS)"


@pytest.mark.parametrize(
    "path", PAGES, ids=lambda path: f"{path.parent.name}/{path.stem}"
)
def test_cells_are_the_builds(path: Path) -> None:
    """myst-nb's reading, with the site's parser configuration (the build's)."""
    text = path.read_text(encoding="utf-8")
    config = MdParserConfig(enable_extensions=set(SITE_EXTENSIONS))
    notebook = read_myst_markdown_notebook(text, config=config, add_source_map=True)
    theirs = [
        ("code" if cell.cell_type == "code" else "markdown", cell.source, cell.metadata)
        for cell in notebook.cells
    ]
    cells = read(text).cells
    assert [(cell.kind, cell.source, cell.metadata) for cell in cells] == theirs
    starts = zip(notebook.metadata["source_map"], notebook.cells, strict=True)
    fences = [line for line, cell in starts if cell.cell_type == "code"]
    assert [cell.line for cell in cells if cell.kind == "code"] == fences


def test_front_matter_keys_are_where_yaml_reads_them() -> None:
    page = read("---\nkernelspec:\n  name: python3\nglossary_allow: {}\n---\n# T\n")
    assert page.front_matter.key_lines == {"kernelspec": 2, "glossary_allow": 4}
    broken = parse_source("---\nkey: [\n---\n# T\n")
    assert broken.meta == {}
    assert (broken.meta_error or "").startswith("front matter is not valid YAML")


def test_cell_options_that_are_not_yaml_name_the_line() -> None:
    with pytest.raises(PageError, match=r"^line 3: the code cell's options"):
        read("# T\n\n```{code-cell} ipython3\n:tags: [a\n\nx = 1\n```\n")


def test_tokens_a_code_cell_inside_a_colon_directive_is_not_a_cell() -> None:
    """The build reads no cell there (colon_fence holds the directive's text)."""
    text = "# T\n\n:::{note}\n```{code-cell} ipython3\nx = 1\n```\n:::\n"
    assert [cell.kind for cell in read(text).cells] == ["markdown"]


def test_tokens_indented_code_and_colon_code_blocks_are_not_prose() -> None:
    text = (
        "# T\n\nProse.\n\n    indented = code\n\n:::{code-block} python\n"
        "fenced = code\n:::\n\nMore prose.\n"
    )
    prose = [line for _, line in parse_source(text).prose if line.strip()]
    assert prose == ["# T", "Prose.", "More prose."]


def test_tokens_targets_indented_labels_and_code_block_names() -> None:
    text = (
        "# T\n\n (indented)=\n## A\n\n```{code-block} python\n:name: listing\n\n"
        "x = 1\n```\n\n```{figure} a.png\n:alt: a V-shaped: curve\n:name: fig-a\n\n"
        "Caption.\n```\n"
    )
    assert targets(parse_source(text)) == {"indented": 3, "listing": 7, "fig-a": 14}


def test_tokens_figures_are_images_not_code_spans() -> None:
    """A reference-style image is a figure; ``![x](y)`` in a code span is not."""
    page = read("# T\n\n`![x](y.png)` and\n![b][ref]\n\n[ref]: b.png\n")
    assert page.images == [4]


def test_toctree_entries_skip_options_self_and_addresses() -> None:
    text = (
        "# T\n\n```{toctree}\n---\nmaxdepth: 1\n---\nintro\nJIT <jit.md>\nself\n"
        "https://jax.dev\n```\n"
    )
    (toctree,) = toctrees(parse_source(text))
    assert toctree.entries == ((7, "intro"), (8, "jit"))


def test_tokens_math_blocks_are_not_text() -> None:
    """An amsmath block and a labelled $$ block are formulas, not prose."""
    text = (
        "# T\n\n\\begin{align}\nx &= 1\n\\end{align}\n\n$$\ny = 2\n$$ (eq)\n\nText.\n"
    )
    page = Page("docs/en/t.md", "en", "t", parse_source(text))
    assert [line for _, line in _text_lines(page) if line.strip()] == ["# T", "Text."]


def _pieces(text: str) -> list[tuple[str, list[int]]]:
    return [(p.kind, [n for n, _ in p.lines]) for p in pieces(parse_source(text))]


def test_pieces_are_the_blocks_markdown_it_reads() -> None:
    """A list item's first paragraph is the item, its next one a paragraph;
    an unindented "2." after an indented paragraph starts the list's next
    item, as the build reads it; a term and its definition are one paragraph;
    a toctree's entries and a directive's options are not prose."""
    text = (
        "# T\n\n1. First\n   wrapped.\n\n   More of it.\n2. Second.\n\n"
        "Term\n: its meaning\n  goes on.\n\n"
        ":::{note} Title\n:class: x\n\nInside.\n:::\n\n```{toctree}\nintro\n```\n"
    )
    assert _pieces(text) == [
        ("heading", [1]),
        ("item", [3, 4]),
        ("paragraph", [6]),
        ("item", [7]),
        ("paragraph", [9, 10, 11]),
        ("note", [13]),
        ("paragraph", [16]),
        ("fence", [19]),
    ]


def test_pieces_text_after_a_formula_goes_on_with_its_block() -> None:
    """Once: the text after a second formula is a paragraph of its own."""
    text = "Take\n\n$$\nx\n$$\n\nwhich is\n\n$$\ny\n$$\n\nand so.\n"
    assert _pieces(text) == [
        ("paragraph", [1, 7]),
        ("math", [3, 4, 5]),
        ("math", [9, 10, 11]),
        ("paragraph", [13]),
    ]
