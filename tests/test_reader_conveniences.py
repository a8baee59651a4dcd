"""Reader conveniences (issue 23, item 6): the repository, edit and issue
buttons, the translator credit (from the page's front matter, never from git)
with "suggest a translation", last-updated dates from git, the logo, favicon
and OpenGraph image, the announcement, print styles that wrap long code, one
search box.

tests/roots/reader-conveniences is built in process from a git repository
made here (three commits, two authors, fixed dates), from a copy outside git
and from a shallow clone; the browser tests open the first in Chromium.
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image
from sphinx.errors import ConfigError

from browser import serve_directory, site_page
from helpers import DOCS, build_project, sample_project
from jaxguide_site.brand import mark_svg
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.reader_conveniences import announcement

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPOSITORY = "https://github.com/jaxguide/jaxguide"
# (author, UTC date) of each commit; the last two change ko/page.md. The last
# is late in the day: in Seoul's time zone it would be the next day.
COMMITS = (
    ("Alice Translator", "2025-01-10T09:00:00Z"),
    ("김번역", "2025-02-01T09:00:00Z"),
    ("김번역", "2025-03-05T23:30:00Z"),
)


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(
        ["git", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        env={**os.environ, **(env or {})},
    )


def _commit(repo: Path, author: str, date: str) -> None:
    identity = {"GIT_AUTHOR_NAME": author, "GIT_AUTHOR_EMAIL": "t@example.com"}
    identity |= {"GIT_COMMITTER_NAME": author, "GIT_COMMITTER_EMAIL": "t@example.com"}
    dates = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    _git(repo, "add", "-A")
    _git(
        repo,
        "-c",
        "commit.gpgsign=false",
        "commit",
        "-q",
        "-m",
        date,
        env=identity | dates,
    )


def _build(root: Path, out: Path, langs: tuple[str, ...] = LANGUAGES) -> Path:
    for lang in langs:
        result = build_project(root / lang, out / lang, lang=lang, cache=out / "cache")
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stderr == ""  # no warning at all
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample project as a git repository with the three commits."""
    root = sample_project("reader-conveniences", tmp_path_factory.mktemp("rc") / "src")
    _git(root, "init", "-q", "-b", "main")
    for n, (author, date) in enumerate(COMMITS):
        if n:
            with (root / "ko" / "page.md").open("a", encoding="utf-8") as page:
                page.write(f"\n문단 {n}.\n")
        _commit(root, author, date)
    return root


@pytest.fixture(scope="module")
def sample(repo: Path) -> Path:
    return _build(repo, repo.parent / "out")


def read(out: Path, lang: str, name: str = "page.html") -> str:
    return (out / lang / "html" / name).read_text(encoding="utf-8")


def hrefs(html: str, css_class: str) -> list[str]:
    return re.findall(rf'<a href="([^"]*)"[^>]*\n\s*class="[^"]*\b{css_class}\b', html)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_buttons_link_to_the_page_source_in_its_language(
    sample: Path, lang: str
) -> None:
    page = read(sample, lang)
    assert hrefs(page, "btn-source-repository-button") == [REPOSITORY]
    assert hrefs(page, "btn-source-edit-button") == [
        f"{REPOSITORY}/edit/main/docs/{lang}/page.md"
    ]
    [issue] = hrefs(page, "btn-source-issues-button")
    assert issue.startswith(f"{REPOSITORY}/issues/new?")


def test_buttons_speak_korean(sample: Path) -> None:
    page = read(sample, "ko")
    labels = re.findall(r'<span class="btn__text-container">([^<]*)</span>', page)
    assert {"저장소", "수정 제안", "이슈 열기"} <= set(labels)
    assert 'aria-label="저장소"' in page  # the menu's button


def _credit(html: str) -> str:
    found = re.search(
        r'<p class="jaxguide-translation-credit">(.*?)</p>', html, re.DOTALL
    )
    assert found, "no translator credit"
    return found[1]


def _suggestion(credit: str) -> str:
    [suggest] = re.findall(r'href="([^"]*)">번역 제안하기</a>', credit)
    return suggest.replace("&amp;", "&")


def test_a_translation_naming_no_translator_credits_no_one(sample: Path) -> None:
    # ko/page.md names no translator; git knows two authors of it, whose
    # account names are no credit.
    credit = _credit(read(sample, "ko"))
    assert "번역:" not in credit
    assert "Alice Translator" not in credit
    assert "김번역" not in credit
    assert "/commits/" not in credit  # nor a pointer to git's history instead
    url = urlsplit(_suggestion(credit))
    assert f"{url.scheme}://{url.netloc}{url.path}" == f"{REPOSITORY}/issues/new"
    query = parse_qs(url.query)
    assert query["title"] == ["번역 제안: page"]
    assert query["body"][0].startswith(
        "페이지: https://jaxguide.github.io/jaxguide/ko/dev/page.html\n"
        "번역: docs/ko/page.md\n"
    )
    # Untranslated pages (the English source, an index without
    # translated_from) have none.
    assert "jaxguide-translation-credit" not in read(sample, "en")
    assert "jaxguide-translation-credit" not in read(sample, "ko", "index.html")


def _name_translators(root: Path, names: str) -> None:
    page = root / "ko" / "page.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(
        text.replace("translated_from:", f"translators: {names}\ntranslated_from:", 1),
        encoding="utf-8",
    )


def test_translator_credit_is_what_the_translation_names(tmp_path: Path) -> None:
    root = sample_project("reader-conveniences", tmp_path / "src")
    _name_translators(root, "[김번역, Alice Translator, 김번역]")
    credit = _credit(read(_build(root, tmp_path / "out", ("ko",)), "ko"))
    # As written, each once, and the suggestion link still there.
    assert "<span>번역: 김번역, Alice Translator</span>" in credit
    assert _suggestion(credit).startswith(f"{REPOSITORY}/issues/new?")


def test_translators_must_be_a_list_of_names(tmp_path: Path) -> None:
    root = sample_project("reader-conveniences", tmp_path / "src")
    _name_translators(root, "김번역")
    result = build_project(
        root / "ko", tmp_path / "out", lang="ko", cache=tmp_path / "c"
    )
    assert "'translators:' must be a list of names" in result.stderr


def test_last_updated_dates_from_git_in_the_page_language(sample: Path) -> None:
    assert "마지막 수정: 2025년 3월 5일" in read(sample, "ko")
    assert "Last updated on January 10, 2025." in read(sample, "en")
    assert (
        '<meta property="article:modified_time" content="2025-03-05T23:30:00+00:00" />'
        in read(sample, "ko")
    )


def _without_history(out: Path, lang: str) -> None:
    page = read(out, lang)
    assert "마지막 수정" not in page
    assert "article:modified_time" not in page
    # The source links stay (sphinx-last-updated-by-git drops them).
    assert "btn-download-source-button" in page
    assert hrefs(page, "btn-source-edit-button")
    # The credit names no one and links nowhere but to the suggestion.
    assert "/commits/" not in _credit(page)
    assert "번역:" not in _credit(page)


def test_a_build_outside_git_has_no_dates_and_no_warning(tmp_path: Path) -> None:
    root = sample_project("reader-conveniences", tmp_path / "src")
    _without_history(_build(root, tmp_path / "out", ("ko",)), "ko")


def test_a_shallow_clone_has_no_dates_and_no_warning(
    repo: Path, tmp_path: Path
) -> None:
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", "--depth", "1", repo.as_uri(), str(clone))
    _without_history(_build(clone, tmp_path / "out", ("ko",)), "ko")


def test_logo_favicon_and_opengraph_image(sample: Path) -> None:
    page = read(sample, "ko")
    assert '<link rel="icon" href="_static/jaxguide-mark.svg"/>' in page
    # The logo's text is the title, so the image needs no alternative text.
    assert re.search(
        r'<img src="_static/jaxguide-mark.svg" class="logo__image only-light" alt=""/>'
        r'.*<p class="title logo__title">JAX 가이드</p>',
        page,
        re.DOTALL,
    )
    image = "https://jaxguide.github.io/jaxguide/ko/stable/_static/jaxguide-social.png"
    assert f'<meta property="og:image" content="{image}" />' in page
    png = sample / "ko" / "html" / "_static" / "jaxguide-social.png"
    assert png.stat().st_size <= 50_000
    with Image.open(png) as opened:
        assert opened.size == (1200, 630)
    # The committed mark is what src/jaxguide_site/brand.py writes.
    svg = (DOCS / "_static" / "jaxguide-mark.svg").read_text(encoding="utf-8")
    assert svg == mark_svg()


def test_announcement_per_language(sample: Path) -> None:
    # tests/roots/reader-conveniences/_data/announcement.toml: Korean only.
    banner = (
        '<aside class="bd-header-announcement d-print-none" aria-label="공지">\n'
        '  <div class="bd-header-announcement__content">'
        '새 페이지: <a href="page.html">페이지</a></div>'
    )
    assert banner in read(sample, "ko")
    assert "bd-header-announcement" not in read(sample, "en")


def test_the_site_has_an_announcement_setting_per_language() -> None:
    """docs/_data/announcement.toml, which CONTRIBUTING.md tells a maintainer to
    edit, names every language and reads as the build reads it."""
    path = DOCS / "_data" / "announcement.toml"
    assert set(tomllib.loads(path.read_text(encoding="utf-8"))) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert isinstance(announcement(DOCS / lang, lang), str)


def test_an_announcement_may_not_be_an_address(tmp_path: Path) -> None:
    (tmp_path / "_data").mkdir()
    (tmp_path / "_data" / "announcement.toml").write_text(
        'ko = "https://example.com/banner.html"\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="is an address"):
        announcement(tmp_path / "ko", "ko")


# Each <pre> whose text runs past its box: clipped in print.
_OVERFLOWING_JS = """() => [...document.querySelectorAll("article pre")]
  .filter((pre) => pre.scrollWidth > pre.clientWidth + 1)
  .map((pre) => pre.textContent.slice(0, 40))"""


@pytest.fixture
def served(sample: Path) -> Iterator[str]:
    with serve_directory(sample / "ko" / "html") as url:
        yield url


def _open(browser: Browser, url: str, width: int) -> Iterator[Page]:
    with site_page(browser, url, viewport={"width": width, "height": 900}) as page:
        page.goto(f"{url}/page.html")
        yield page


@pytest.fixture
def desktop(browser: Browser, served: str) -> Iterator[Page]:
    yield from _open(browser, served, 1440)


def test_print_wraps_long_code_and_outputs(desktop: Page) -> None:
    # On screen the long lines scroll inside their boxes ...
    assert len(desktop.evaluate(_OVERFLOWING_JS)) == 2  # the code and its output
    desktop.emulate_media(media="print")
    desktop.set_viewport_size({"width": 700, "height": 900})  # about A4's width
    # ... in print they wrap.
    assert desktop.evaluate(_OVERFLOWING_JS) == []


def test_one_search_box_on_a_wide_screen(desktop: Page) -> None:
    boxes = desktop.locator(".search-button, .search-button-field")
    visible = [box for box in boxes.all() if box.is_visible()]
    assert len(visible) == 1
    # It opens the search dialog.
    visible[0].click()
    assert desktop.locator("#pst-search-dialog input").is_visible()
