"""Executed outputs as a reader reads them (src/jaxguide_site/tracebacks.py):
a traceback folded behind its exception, no build machine's paths on the
site, the real traceback in the downloaded notebook. On tests/roots/tracebacks,
built in process in both languages, and on the built site."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from browser import serve_directory, site_page
from helpers import build_each_language, built_page, sample_project
from jaxguide_site.languages import LANGUAGES

if TYPE_CHECKING:
    from playwright.sync_api import Browser

EXCEPTION = "JSONDecodeError: Expecting property name enclosed in double quotes"
HINTS = {"en": "Full traceback", "ko": "전체 트레이스백"}
BUILD_PATHS = re.compile(r"site-packages/|/lib/python3\.\d+/|ipykernel_\d+")
OUTPUT_BLOCK = re.compile(r'<div class="output [^"]*"[^>]*>.*?</pre>', re.DOTALL)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tracebacks") / "root"
    return build_each_language(sample_project("tracebacks", root), LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_traceback_is_folded_behind_its_exception(out: Path, lang: str) -> None:
    page = built_page(out, lang, "index")
    folds = re.findall(
        r'<details class="jaxguide-traceback"><summary>(.*?)</summary>\s*'
        r'<div class="output traceback',
        page,
        re.DOTALL,
    )
    assert len(folds) == 1, page
    assert EXCEPTION in folds[0]
    assert HINTS[lang] in folds[0]
    # The frames stay in the fold, the file named as its package names it.
    assert "json/decoder.py" in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_outputs_show_no_build_paths(out: Path, lang: str) -> None:
    outputs = OUTPUT_BLOCK.findall(built_page(out, lang, "index"))
    assert len(outputs) == 2
    assert [BUILD_PATHS.findall(output) for output in outputs] == [[], []]
    assert "&lt;cell&gt;:3: UserWarning" in outputs[1]


def test_the_downloaded_notebook_keeps_the_real_traceback(out: Path) -> None:
    notebook = json.loads((out / "en" / "html" / "index.ipynb").read_text("utf-8"))
    printed = json.dumps([cell.get("outputs", []) for cell in notebook["cells"]])
    assert "Traceback" in printed
    assert re.search(r"/lib/python3\.\d+/json/decoder\.py", printed)
    assert "ipykernel_" in printed


@pytest.mark.browser
def test_on_a_phone_the_exception_shows_and_the_frames_open(
    browser: Browser, out: Path
) -> None:
    with (
        serve_directory(out / "en" / "html") as url,
        site_page(browser, url, viewport={"width": 390, "height": 844}) as page,
    ):
        page.goto(f"{url}/index.html")
        fold = page.locator("details.jaxguide-traceback")
        exception = fold.locator("code.jaxguide-exception")
        assert EXCEPTION in exception.inner_text()
        # Wrapped to the page's width, not cut at its edge.
        assert exception.evaluate("e => e.scrollWidth <= e.clientWidth")
        frames = fold.locator("div.output.traceback")
        assert not frames.is_visible()
        fold.locator("summary").click()
        assert frames.is_visible()
        assert "json/decoder.py" in frames.inner_text()


@pytest.mark.site
def test_every_traceback_on_the_site_is_folded(built: dict[str, Path]) -> None:
    unfolded: dict[str, int] = {}
    with_paths: dict[str, list[str]] = {}
    for lang, folder in built.items():
        for path in sorted(folder.glob("*.html")):
            page = path.read_text(encoding="utf-8")
            bare = (
                page.count('<div class="output traceback')
                - page.count('</summary>\n<div class="output traceback')
                - page.count('</summary><div class="output traceback')
            )
            if bare:
                unfolded[f"{lang}/{path.name}"] = bare
            found = [
                p for o in OUTPUT_BLOCK.findall(page) for p in BUILD_PATHS.findall(o)
            ]
            if found:
                with_paths[f"{lang}/{path.name}"] = sorted(set(found))
    assert unfolded == {}
    assert with_paths == {}
