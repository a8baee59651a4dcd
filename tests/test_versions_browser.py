"""A reader always knows which version they read, and every link stays in it.

A two-page notebook project is built with the site's docs/conf.py as
releases 0.1 and 0.2 and as dev, in both languages (in this process, one
execution shared through the cache), and published as the gh-pages branch
would receive them: 0.2, then 0.1, then dev. A second site holds dev alone,
as this repository's own build does until its first release. Chromium then
reads every version folder of both languages and checks what it shows (the
version, the switcher, the banner) and where its links go (Colab, the
notebook download, the language switcher).
"""

from __future__ import annotations

import json
import shutil
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from browser import serve_directory, site_page
from helpers import build_project, tiny_project
from jaxguide_site.interface_text.messages import translations
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.publishing.page_rewrites import stable_label
from jaxguide_site.publishing.publish import publish

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.site  # runs in nox -s site

BASE_URL = "https://example.org/guide/"
RELEASES = ("0.1", "0.2")  # 0.2 is the newest: stable/ copies it
PAGE = "page1"
# Each folder a reader can open and the version it holds.
FOLDERS = {"dev": "dev", "0.1": "0.1", "0.2": "0.2", "stable": "0.2"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``builds/<version>/<lang>/``: the sample built as each version."""
    root = tmp_path_factory.mktemp("versions")
    for version in (*RELEASES, "dev"):
        for lang in LANGUAGES:
            tiny_project(root / "src" / version / lang, pages=2)
    for version in (*RELEASES, "dev"):
        for lang in LANGUAGES:
            out = root / "out" / version / lang
            result = build_project(
                root / "src" / version / lang,
                out,
                lang=lang,
                cache=root / "cache",
                env={"JAXGUIDE_VERSION": version, "JAXGUIDE_BASE_URL": BASE_URL},
            )
            assert result.returncode == 0, result.stderr
            shutil.move(out / "html", root / "builds" / version / lang)
    return root / "builds"


@pytest.fixture(scope="module")
def released(builds: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("released")
    for version in ("0.2", "0.1", "dev"):
        publish(builds / version, site, version)
    return site


@pytest.fixture(scope="module")
def unreleased(builds: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("unreleased")
    publish(builds / "dev", site, "dev")
    return site


@contextmanager
def reading(browser: Browser, site: Path) -> Iterator[tuple[Page, str]]:
    """A page on ``site`` served over HTTP (the switcher reads versions.json),
    failing on any script error."""
    with (
        serve_directory(site) as base,
        site_page(browser, base, locale="ko-KR") as page,
    ):
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page, base
        assert not errors


def open_page(page: Page, url: str) -> None:
    """Open ``url`` and wait until the theme has read versions.json: it fills
    the switcher, then decides on the banner, in one task."""
    page.goto(url)
    page.locator(".version-switcher__menu a").first.wait_for(state="attached")


def hrefs(page: Page, selector: str) -> list[str]:
    """The resolved addresses of the links ``selector`` finds."""
    found: list[str] = page.eval_on_selector_all(
        selector, "links => links.map(link => link.href)"
    )
    return found


def shown_version(page: Page) -> str:
    return page.locator(".jaxguide-version-number").first.inner_text().strip()


def install_ref(notebook: bytes) -> str:
    """Where the notebook's Colab cell installs jaxguide from (@<ref>)."""
    cells = json.loads(notebook)["cells"]
    setup = "".join(cells[0]["source"])
    install = setup[setup.index("git+https://") :].split('"', 1)[0]
    return install.rsplit("@", 1)[1]


@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_version_folder_says_what_it_is_and_its_links_stay_in_it(
    browser: Browser, released: Path, lang: str, folder: str
) -> None:
    version = FOLDERS[folder]
    other = next(code for code in LANGUAGES if code != lang)
    with reading(browser, released) as (page, base):
        here = f"{base}/{lang}/{folder}"
        open_page(page, f"{here}/{PAGE}.html")

        # The version shown is the folder's; stable/ names its release.
        expected = stable_label(lang, version) if folder == "stable" else version
        assert shown_version(page) == expected
        button = page.locator(".version-switcher__button").first
        assert button.get_attribute("data-active-version") == version

        # The switcher lists every version; the newest release is the stable one.
        menu = page.locator(".version-switcher__menu").first.locator("a")
        assert [
            menu.nth(i).get_attribute("data-version") for i in range(menu.count())
        ] == ["dev", "0.2", "0.1"]
        stable_entry = menu.and_(page.locator("[data-version='0.2']"))
        stable_word = translations(lang).gettext("stable")
        assert f"0.2 ({stable_word}, JAX " in str(
            stable_entry.get_attribute("data-version-name")
        )
        assert hrefs(page, ".version-switcher__menu a[data-version='0.2']")[0] == (
            f"{base}/{lang}/stable/{PAGE}.html"
        )

        # The banner on dev and the old release, pointing at stable/.
        banner = page.locator("#bd-header-version-warning")
        if version == "0.2":
            assert banner.inner_text() == ""
        else:
            link = banner.locator("a.pst-button-link-to-stable-version")
            assert link.count() == 1
            assert link.evaluate("a => a.href") == f"{base}/{lang}/stable/{PAGE}.html"

        # Colab opens this version's notebook, which the site publishes.
        colab = hrefs(page, "a[href^='https://colab.research.google.com/']")
        assert colab
        expected_colab = f"/blob/gh-pages/{lang}/{version}/{PAGE}.ipynb"
        assert all(url.endswith(expected_colab) for url in colab), colab
        assert (released / lang / version / f"{PAGE}.ipynb").is_file()

        # The download is the notebook beside the page, of this version.
        downloads = [
            url for url in hrefs(page, "a[href$='.ipynb']") if url.startswith(base)
        ]
        assert downloads
        assert set(downloads) == {f"{here}/{PAGE}.ipynb"}
        with urllib.request.urlopen(downloads[0]) as response:
            notebook = response.read()
        assert notebook == (released / lang / version / f"{PAGE}.ipynb").read_bytes()
        ref = install_ref(notebook)  # its Colab cell installs jaxguide from
        assert ref == f"v{version}" if version != "dev" else not ref.startswith("v")

        # The language switcher goes to the same folder in the other language.
        assert hrefs(page, f".jaxguide-language-switcher a[hreflang='{other}']") == [
            f"{base}/{other}/{folder}/{PAGE}.html"
        ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_before_the_first_release_dev_is_the_site_and_claims_nothing_else(
    browser: Browser, unreleased: Path, lang: str
) -> None:
    other = next(code for code in LANGUAGES if code != lang)
    assert not (unreleased / lang / "stable").exists()
    with reading(browser, unreleased) as (page, base):
        page.goto(f"{base}/index.html")  # the root page sends Korean readers on
        page.wait_for_url(f"{base}/ko/dev/index.html")
        open_page(page, f"{base}/{lang}/dev/{PAGE}.html")
        assert shown_version(page) == "dev"
        menu = page.locator(".version-switcher__menu").first.locator("a")
        assert menu.count() == 1
        assert menu.first.get_attribute("data-version") == "dev"
        assert page.locator("#bd-header-version-warning").inner_text() == ""
        colab = hrefs(page, "a[href^='https://colab.research.google.com/']")
        assert colab
        assert all(url.endswith(f"/{lang}/dev/{PAGE}.ipynb") for url in colab)
        assert hrefs(page, f".jaxguide-language-switcher a[hreflang='{other}']") == [
            f"{base}/{other}/dev/{PAGE}.html"
        ]
        canonical = page.locator("link[rel=canonical]").get_attribute("href")
        assert canonical == f"{BASE_URL}{lang}/dev/{PAGE}.html"
