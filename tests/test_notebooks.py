"""Executed notebooks to download, Open-in-Colab links (src/jaxguide_site/notebooks/downloads.py).

Every page of both languages that is a notebook has ``<page>.ipynb`` beside
its HTML in the site: its cells, prose in the page's language, the outputs the
page shows, and a first cell that installs jaxguide in Colab only. One
notebook is downloaded from the served site and executed end to end.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import nbformat
import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from myst_nb.core.read import read_myst_markdown_notebook
from nbclient import NotebookClient

from helpers import DOCS, GUIDE_PAGES, REPO, written_in_each_language
from jaxguide_site.execution.kernels import KERNEL_RECORD
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.notebooks.downloads import COLAB, SETUP_TAG, _install_ref
from jaxguide_site.notebooks.reader import build_only


def front_matter(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text.split("---\n", 2)[1] if text.startswith("---\n") else ""


# Pages whose front matter names a kernel are notebooks (myst-nb executes them).
NOTEBOOK_PAGES = sorted(
    {
        name
        for lang in LANGUAGES
        for name in GUIDE_PAGES.written[lang]
        if "kernelspec:" in front_matter(GUIDE_PAGES.source(lang, name))
    }
)
HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Markdown as Jupyter renders it (CommonMark and dollar math), and what of
# MyST would show there as written: a role (``{func}`` before a code span, or
# before a backtick it could not pair), a ``(label)=`` target, a directive's
# fence (a code block in language "{name}", or a ::: paragraph), a glue role.
JUPYTER_MARKDOWN = MarkdownIt("commonmark").use(dollarmath_plugin)
CODE = re.compile(
    r"<pre><code[^>]*>.*?</code></pre>|(?<!\})<code>.*?</code>", re.DOTALL
)
MYST_SYNTAX = {
    "role": re.compile(r"\{[\w:+-]+\}(?:<code>|`)"),
    "label": re.compile(r"^(?:<p>)?\([^()\s]+\)=(?:</p>)?$", re.MULTILINE),
    "fence": re.compile(r'class="language-\{|:::+\{'),
    "glue": re.compile(r"\{glue"),
}
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")
SITE_LINK = re.compile(r'<a href="(?P<url>[^"]+)"')


def manifest(site: Path, lang: str, version: str) -> dict[str, Any]:
    path = site / lang / version / "jaxguide-build.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def version() -> str:
    from helpers import built_version  # noqa: PLC0415

    return built_version()


def page_code_cells(lang: str, page: str) -> list[str]:
    """The page's code cells a reader gets: all but the build-only ones."""
    text = (DOCS / lang / f"{page}.md").read_text(encoding="utf-8")
    notebook = read_myst_markdown_notebook(text)
    return [
        cell.source
        for cell in notebook.cells
        if cell.cell_type == "code" and not build_only(cell)
    ]


def test_the_guide_has_notebook_pages() -> None:
    assert len(NOTEBOOK_PAGES) >= 19
    assert "jit" in NOTEBOOK_PAGES


@pytest.mark.parametrize(("lang", "page"), written_in_each_language(NOTEBOOK_PAGES))
def test_every_notebook_page_has_its_executed_notebook(
    site: Path, version: str, lang: str, page: str
) -> None:
    path = site / lang / version / f"{page}.ipynb"
    assert path.is_file(), f"no {path.relative_to(site)}"
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    setup, *cells = notebook.cells
    assert SETUP_TAG in setup.metadata.get("tags", [])
    assert "google.colab" in setup.source
    code = [cell.source for cell in cells if cell.cell_type == "code"]
    assert code == page_code_cells(lang, page)
    assert not any("myst_nb" in source or "glue(" in source for source in code)
    prose = [cell.source for cell in cells if cell.cell_type == "markdown"]
    assert not any("{glue" in source for source in prose), "glue left in the prose"
    assert any(cell.get("outputs") for cell in cells if cell.cell_type == "code"), (
        "no outputs: not the executed notebook"
    )
    prose = " ".join(cell.source for cell in cells if cell.cell_type == "markdown")
    # A link's text may be another page's title, which can name both languages
    # ("Glossary (용어집)").
    prose = MARKDOWN_LINK.sub("", prose)
    assert bool(HANGUL.search(prose)) == (lang == "ko"), (
        "prose not in the page's language"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_executed_in_a_readers_python(site: Path, lang: str) -> None:
    """The build's kernel is what a download runs in (nox -s docs installs it
    in build/reader-kernel): jaxguide and ipykernel, none of the toolchain."""
    del site
    record = json.loads(
        (REPO / "build" / "doctrees" / lang / KERNEL_RECORD).read_text("utf-8")
    )
    assert record["toolchain"] == [], record
    assert Path(record["python"]).is_relative_to(REPO / "build" / "reader-kernel"), (
        f"{lang}: the pages executed in {record['python']}, not a reader's kernel"
    )


@pytest.mark.parametrize(("lang", "page"), written_in_each_language(NOTEBOOK_PAGES))
def test_every_notebook_page_links_its_download_and_colab(
    site: Path, version: str, lang: str, page: str
) -> None:
    html = (site / lang / version / f"{page}.html").read_text(encoding="utf-8")
    repository = manifest(site, lang, version)["repository"]
    colab = COLAB.format(repository=repository, lang=lang, version=version, page=page)
    assert f'href="{colab}"' in html
    assert f'href="{page}.ipynb"' in html
    assert "jaxguide-run-note" in html  # where it ran; timings differ elsewhere


def myst_left(markdown: str) -> dict[str, list[str]]:
    """What of MyST a cell shows as written in Jupyter, by kind."""
    html = JUPYTER_MARKDOWN.render(markdown)
    prose = CODE.sub("", html)  # code spans and blocks may show MyST
    found = {kind: pattern.findall(prose) for kind, pattern in MYST_SYNTAX.items()}
    found["fence"] = MYST_SYNTAX["fence"].findall(html)
    return {kind: matches for kind, matches in found.items() if matches}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_notebooks_show_no_myst_syntax_in_jupyter(
    site: Path, version: str, lang: str
) -> None:
    notebooks = sorted((site / lang / version).glob("*.ipynb"))
    assert len(notebooks) >= 19
    left = {
        f"{path.name} cell {index}": found
        for path in notebooks
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells)
        if cell.cell_type == "markdown" and (found := myst_left(cell.source))
    }
    assert not left, f"MyST left in {len(left)} cell(s): {left}"


def test_the_check_finds_myst_syntax() -> None:
    markdown = (
        "(jit)=\n# T\n\n{func}`jax.grad` and {glue:text}`x:.1f`\n\n"
        ":::{note}\nA note.\n:::\n\n```{admonition} T\nBody.\n```\n\n"
        "Shown as code: `{func}` and\n\n```\n{doc}`x`\n(label)=\n```\n"
    )
    assert {kind: len(found) for kind, found in myst_left(markdown).items()} == {
        "role": 2,
        "label": 1,
        "fence": 2,
        "glue": 1,
    }


def on_site(folder: Path, root: str, url: str) -> bool:
    """Whether ``url`` names a page of ``folder`` (published at ``root``)
    and, after ``#``, an anchor on that page."""
    page, _, anchor = url.removeprefix(root).partition("#")
    path = folder / page
    if not url.startswith(root) or not path.is_file():
        return False
    return not anchor or f'id="{anchor}"' in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_notebook_links_reach_the_page_and_section_they_name(
    site: Path, version: str, lang: str
) -> None:
    """A role's link to this site names a page of the same language and
    version that exists, and an anchor that page has; one to JAX's reference
    is absolute."""
    base = manifest(site, lang, version)["base_url"]
    root = f"{base}{lang}/{version}/"
    links = [
        match["url"]
        for path in sorted((site / lang / version).glob("*.ipynb"))
        for cell in nbformat.read(path, as_version=4).cells
        if cell.cell_type == "markdown"
        for match in SITE_LINK.finditer(JUPYTER_MARKDOWN.render(cell.source))
    ]
    ours = [url for url in links if url.startswith(base)]
    assert len(ours) > 100
    assert any(url.startswith("https://docs.jax.dev/") for url in links)
    missing = [
        url
        for url in sorted(set(ours))
        if not on_site(site / lang / version, root, url)
    ]
    assert not missing


def test_pages_without_code_offer_no_notebook(site: Path, version: str) -> None:
    """Nor does a stand-in for a page in progress: it is not the notebook."""
    for lang in LANGUAGES:
        for name in GUIDE_PAGES.on_site(lang):
            if name not in NOTEBOOK_PAGES or name in GUIDE_PAGES.in_progress[lang]:
                assert not (site / lang / version / f"{name}.ipynb").exists()


def test_dev_notebooks_install_the_commit_that_was_built(
    site: Path, version: str
) -> None:
    info = manifest(site, "en", version)
    notebook = nbformat.read(site / "en" / version / "jit.ipynb", as_version=4)
    expected = f"v{version}" if version != "dev" else (info["commit"] or "main")
    assert (
        f"git+https://github.com/{info['repository']}@{expected}"
        in notebook.cells[0].source
    )


def test_releases_install_their_tag() -> None:
    config = SimpleNamespace(release="0.2")
    app = SimpleNamespace(config=config, confdir=".")
    assert _install_ref(app) == "v0.2"  # type: ignore[arg-type]


def test_a_downloaded_notebook_runs_end_to_end(
    served_site: str, version: str, tmp_path: Path
) -> None:
    """As a reader does: download, then run every cell in a fresh kernel
    (the cells the page shows failing are tagged raises-exception)."""
    url = f"{served_site}/en/{version}/pure-functions.ipynb"
    with urllib.request.urlopen(url, timeout=30) as response:
        notebook = nbformat.reads(response.read().decode("utf-8"), as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    client = NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    code = [cell for cell in notebook.cells[1:] if cell.cell_type == "code"]
    assert "JAX " in str(code[0].outputs)  # the environment line
    failed = [
        cell for cell in code if any(o.output_type == "error" for o in cell.outputs)
    ]
    expected = [
        cell for cell in code if "raises-exception" in cell.metadata.get("tags", [])
    ]
    assert failed == expected
    assert expected, "the page shows no error: pick a page that does"
