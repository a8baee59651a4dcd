"""Publishing versions into one site folder (src/jaxguide_site/publishing/publish.py).

Tiny two-language sites built with the real docs/conf.py as three versions
(0.1, 0.2 and dev) are published into one temporary folder, releases out of
order, as the gh-pages branch would receive them; then the merged site is
checked on disk and in the browser.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from browser import serve_directory, site_page
from helpers import run_sphinx
from jaxguide_site.publishing.publish import main, publish
from jaxguide_site.publishing.site_address import (
    SiteError,
    check_version,
    site_base_url,
)
from links import broken_links
from site_checkers import axe_violations, install_node_tools

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

BASE_URL = "https://example.org/"
VERSIONS = ("0.1", "0.2", "dev")
INDEX = "# {title}\n\n```{{toctree}}\n{pages}\n```\n"
PAGES = {
    "ko": {"index": ("홈", "both"), "both": "# 두 언어\n\n본문.\n"},
    "en": {"index": ("Home", "both"), "both": "# Both\n\nText.\n"},
}
NEW_IN_DEV = {"ko": "# 새 페이지\n\n본문.\n", "en": "# New page\n\nText.\n"}

pytestmark = pytest.mark.site  # runs in nox -s site


def _write_sources(root: Path, version: str) -> Path:
    srcroot = root / "src" / version
    for lang, pages in PAGES.items():
        folder = srcroot / lang
        folder.mkdir(parents=True)
        title, toc = pages["index"]
        if version == "dev":
            toc += "\nnew"
            (folder / "new.md").write_text(NEW_IN_DEV[lang], encoding="utf-8")
        (folder / "index.md").write_text(
            INDEX.format(title=title, pages=toc), encoding="utf-8"
        )
        (folder / "both.md").write_text(str(pages["both"]), encoding="utf-8")
    return srcroot


def _build(root: Path, version: str, lang: str) -> Path:
    """One language of one version, as build/sphinx/<lang> would hold it."""
    out = root / "out" / version / lang
    result = run_sphinx(
        root / "src" / version / lang,
        out,
        lang=lang,
        cache=root / "cache" / version / lang,
        env={"JAXGUIDE_VERSION": version, "JAXGUIDE_BASE_URL": BASE_URL},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    target = root / "builds" / version / lang
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(out / "html", target)
    return target


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``builds/<version>/<lang>/``: six real Sphinx builds, two at a time."""
    root = tmp_path_factory.mktemp("versions")
    for version in VERSIONS:
        _write_sources(root, version)
    jobs = [(version, lang) for version in VERSIONS for lang in PAGES]
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda job: _build(root, *job), jobs))
    return root / "builds"


def snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Every file under ``folder``: its modification time and content hash."""
    return {
        path.relative_to(folder).as_posix(): (
            path.stat().st_mtime_ns,
            hashlib.sha256(path.read_bytes()).hexdigest(),
        )
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def site(builds: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The merged site: 0.2, then 0.1 (an older release, later), then dev twice."""
    site = tmp_path_factory.mktemp("gh-pages")
    for version in ("0.2", "0.1", "dev"):
        publish(builds / version, site, version)
    return site


def versions_json(site: Path, lang: str) -> list[dict[str, object]]:
    data = json.loads((site / lang / "versions.json").read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


def built_version(folder: Path) -> str:
    manifest = json.loads((folder / "jaxguide-build.json").read_text(encoding="utf-8"))
    return str(manifest["version"])


@pytest.mark.parametrize("lang", PAGES)
def test_each_language_lists_every_version(site: Path, lang: str) -> None:
    entries = versions_json(site, lang)
    assert [e["version"] for e in entries] == ["dev", "0.2", "0.1"]
    preferred = [e for e in entries if e.get("preferred")]
    assert len(preferred) == 1
    assert preferred[0]["version"] == "0.2"
    assert preferred[0]["url"] == "../stable/"  # the canonical copies
    assert {e["url"] for e in entries} == {"../dev/", "../stable/", "../0.1/"}
    stable_word = {"ko": "최신 릴리스", "en": "stable"}[lang]
    assert stable_word in str(preferred[0]["name"])
    assert all("JAX " in str(e["name"]) for e in entries)


@pytest.mark.parametrize("lang", PAGES)
def test_stable_is_the_newest_release_published_in_any_order(
    site: Path, lang: str
) -> None:
    assert built_version(site / lang / "stable") == "0.2"
    assert built_version(site / lang / "0.1") == "0.1"
    html = (site / lang / "stable" / "both.html").read_text(encoding="utf-8")
    assert "DOCUMENTATION_OPTIONS.theme_switcher_version_match = '0.2'" in html


@pytest.mark.parametrize(("lang", "stable"), [("ko", "최신 릴리스"), ("en", "stable")])
def test_the_stable_copy_says_which_release_it_is(
    site: Path, lang: str, stable: str
) -> None:
    number = '<strong class="jaxguide-version-number">{}</strong>'
    for page in ("index.html", "both.html"):
        copy = (site / lang / "stable" / page).read_text(encoding="utf-8")
        assert number.format(f"0.2 ({stable})") in copy
        release = (site / lang / "0.2" / page).read_text(encoding="utf-8")
        assert number.format("0.2") in release


def test_republishing_dev_leaves_releases_untouched(builds: Path, site: Path) -> None:
    kept = ("ko/0.1", "ko/0.2", "ko/stable", "en/0.1", "en/0.2", "en/stable")
    # Copies keep modification times, so a folder rewritten from the same
    # build would look the same: a marker file shows whether it was replaced.
    for folder in (*kept, "ko/dev"):
        (site / folder / "marker.txt").write_text("before", encoding="utf-8")
    before = {folder: snapshot(site / folder) for folder in kept}
    done = publish(builds / "dev", site, "dev")
    assert {folder: snapshot(site / folder) for folder in kept} == before
    assert not (site / "ko" / "dev" / "marker.txt").exists()  # dev was replaced
    assert not any("stable" in line and "<-" in line for line in done), done
    for folder in kept:
        (site / folder / "marker.txt").unlink()


def test_every_page_names_its_version_jax_and_stable_copy(site: Path) -> None:
    for lang in PAGES:
        html = (site / lang / "0.1" / "both.html").read_text(encoding="utf-8")
        assert (
            f'<link rel="canonical" href="{BASE_URL}{lang}/stable/both.html" />' in html
        )
        assert (
            f'<meta property="og:url" content="{BASE_URL}{lang}/stable/both.html" />'
            in html
        )
        # The guide's version in the sidebar.
        assert '<strong class="jaxguide-version-number">0.1</strong>' in html
        assert "JAX 0." in html
    # A page that stable/ does not have yet names its own copy instead.
    new = (site / "en" / "dev" / "new.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{BASE_URL}en/dev/new.html" />' in new
    assert f'hreflang="ko" href="{BASE_URL}ko/dev/new.html"' in new
    ko = (site / "ko" / "0.1" / "both.html").read_text(encoding="utf-8")
    # The language switcher keeps the version.
    assert 'href="../../en/0.1/both.html" hreflang="en"' in ko
    assert "가이드 버전" in ko


def test_root_files(site: Path) -> None:
    assert (site / ".nojekyll").is_file()
    robots = (site / "robots.txt").read_text(encoding="utf-8")
    assert f"Sitemap: {BASE_URL}sitemap.xml" in robots
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{BASE_URL}ko/stable/both.html</loc>" in sitemap
    assert f'hreflang="en" href="{BASE_URL}en/stable/both.html"' in sitemap
    assert "/0.1/" not in sitemap
    assert "/dev/" not in sitemap
    assert "search.html" not in sitemap
    assert '<base href="/">' in (site / "404.html").read_text(encoding="utf-8")


def test_every_internal_link_of_the_merged_site_resolves(site: Path) -> None:
    assert broken_links(site, BASE_URL) == []


def test_link_checker_reports_a_missing_page(site: Path, tmp_path: Path) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    (copy / "en" / "0.1" / "both.html").unlink()
    broken = broken_links(copy, BASE_URL)
    assert "en/0.1/index.html: both.html (no such file)" in broken
    assert "ko/0.1/both.html: ../../en/0.1/both.html (no such file)" in broken


def test_404_page_resolves_against_the_sites_path(builds: Path, tmp_path: Path) -> None:
    from jaxguide_site.publishing.publish import refresh  # noqa: PLC0415

    site = tmp_path / "site"
    publish(builds / "dev", site, "dev")
    refresh(site, "https://someone.github.io/jaxguide/")
    assert '<base href="/jaxguide/">' in (site / "404.html").read_text(encoding="utf-8")


# -- The layout, on hand-made builds (no Sphinx) ------------------------------

# A page as a build writes what the publish step reads and rewrites: its
# absolute links at html_baseurl (the stable copy) and the version number.
FAKE_PAGE = """<!DOCTYPE html><html><head>
<link rel="canonical" href="{base}{lang}/stable/{page}" />
<meta property="og:image" content="{base}{lang}/stable/_static/card.png" />
{alternates}
</head><body><strong class="jaxguide-version-number">{version}</strong></body></html>
"""


def fake_builds(root: Path, version: str, pages: dict[str, list[str]]) -> Path:
    """``root/<version>/<lang>/``: a build of ``pages[lang]`` per language."""
    for lang, names in pages.items():
        folder = root / version / lang
        (folder / "_static").mkdir(parents=True)
        (folder / "_static" / "card.png").write_bytes(b"png")
        manifest = {
            "language": lang,
            "version": version,
            "jax": "0.10.2",
            "base_url": BASE_URL,
            "build_id": f"{version}-{lang}-{len(names)}",
        }
        (folder / "jaxguide-build.json").write_text(json.dumps(manifest))
        for name in names:
            alternates = "\n".join(
                f'<link rel="alternate" hreflang="{other}" '
                f'href="{BASE_URL}{other}/stable/{name}" />'
                for other in pages
            )
            (folder / name).write_text(
                FAKE_PAGE.format(
                    base=BASE_URL,
                    lang=lang,
                    page=name,
                    version=version,
                    alternates=alternates,
                )
            )
    return root / version


def links_of(site: Path, address: str) -> list[str]:
    """The absolute addresses a page of ``site`` names, site-relative."""
    html = (site / address).read_text(encoding="utf-8")
    return sorted(
        part.split('"', 1)[0].removeprefix(BASE_URL)
        for part in html.split(f'"{BASE_URL}')[1:]
    )


TWO_PAGES = {"ko": ["index.html", "a.html"], "en": ["index.html", "a.html"]}


def test_before_any_release_dev_is_the_entry_and_nothing_claims_stable(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    (site / "ko" / "stable").mkdir(parents=True)  # as an older layout left it
    publish(fake_builds(tmp_path / "b", "dev", TWO_PAGES), site, "dev")
    assert not (site / "ko" / "stable").exists()
    assert not (site / "en" / "stable").exists()
    assert links_of(site, "ko/dev/a.html") == [
        "en/dev/a.html",
        "ko/dev/_static/card.png",
        "ko/dev/a.html",
        "ko/dev/a.html",
    ]
    root = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="ko/dev/index.html"' in root
    assert 'href="en/dev/index.html"' in root
    assert "stable" not in root.split("-->", 1)[1]
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{BASE_URL}ko/dev/a.html</loc>" in sitemap
    assert "/stable/" not in sitemap
    # Nothing to prefer: the theme shows no banner.
    assert versions_json(site, "ko") == [
        {"version": "dev", "name": "dev (개발 중, JAX 0.10.2)", "url": "../dev/"}
    ]


def test_the_404_page_links_each_languages_entry_folder(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(fake_builds(tmp_path / "b", "dev", TWO_PAGES), site, "dev")
    missing = (site / "404.html").read_text(encoding="utf-8")
    for lang in TWO_PAGES:
        assert f'href="{lang}/dev/index.html"' in missing
        assert f'action="{lang}/dev/search.html"' in missing
    assert "/stable/" not in missing


def test_the_first_release_becomes_stable_and_dev_points_at_it(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    dev_pages = {lang: [*names, "new.html"] for lang, names in TWO_PAGES.items()}
    publish(fake_builds(tmp_path / "b", "dev", dev_pages), site, "dev")
    publish(fake_builds(tmp_path / "b", "0.1", TWO_PAGES), site, "0.1")
    number = '<strong class="jaxguide-version-number">{}</strong>'
    stable = (site / "en" / "stable" / "a.html").read_text(encoding="utf-8")
    assert number.format("0.1 (stable)") in stable
    assert number.format("0.1") in (site / "en" / "0.1" / "a.html").read_text()
    assert number.format("dev") in (site / "en" / "dev" / "a.html").read_text()
    # dev's pages that stable/ has name it now; its new page names itself.
    assert links_of(site, "ko/dev/a.html") == [
        "en/stable/a.html",
        "ko/stable/_static/card.png",
        "ko/stable/a.html",
        "ko/stable/a.html",
    ]
    assert links_of(site, "ko/dev/new.html") == [
        "en/dev/new.html",
        "ko/dev/new.html",
        "ko/dev/new.html",
        "ko/stable/_static/card.png",
    ]
    assert links_of(site, "ko/stable/a.html") == links_of(site, "ko/0.1/a.html")
    assert 'href="ko/stable/index.html"' in (site / "index.html").read_text()
    # Publishing again changes nothing: the label is not added twice.
    before = {path: path.read_bytes() for path in site.rglob("*.html")}
    publish(tmp_path / "b" / "dev", site, "dev")
    assert {path: path.read_bytes() for path in site.rglob("*.html")} == before


# -- Errors a maintainer can make ---------------------------------------------


def test_publishing_a_build_of_another_version_is_refused(
    builds: Path, tmp_path: Path
) -> None:
    with pytest.raises(
        SiteError, match=r"built as version 'dev', not '0\.3'.*JAXGUIDE_VERSION=0\.3"
    ):
        publish(builds / "dev", tmp_path / "site", "0.3")


def test_a_folder_without_builds_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(SiteError, match=r"no builds at .*nox -s docs"):
        publish(tmp_path / "empty", tmp_path / "site", "dev")


@pytest.mark.parametrize("bad", ["v0.1", "0.1.0", "latest", "stable", "01.2", ""])
def test_bad_versions_are_named(bad: str) -> None:
    with pytest.raises(SiteError, match=f"got {bad!r}"):
        check_version(bad)


def test_the_command_line_reports_errors_without_a_traceback(
    builds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(
            ["--version", "v1", "--site", str(tmp_path), "--build", str(builds / "dev")]
        )
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "error: the guide's version must be 'dev' or a release" in err
    assert "Traceback" not in err


def test_site_address() -> None:
    assert site_base_url("Someone/jaxguide") == "https://someone.github.io/jaxguide/"
    assert site_base_url("someone/someone.github.io") == "https://someone.github.io/"
    assert (
        site_base_url("a/b", "https://docs.example.org/jax")
        == "https://docs.example.org/jax/"
    )
    with pytest.raises(SiteError, match="'owner/name'"):
        site_base_url("not a repository")
    with pytest.raises(SiteError, match="http"):
        site_base_url("a/b", "docs.example.org")


# -- In the browser ------------------------------------------------------------


@contextmanager
def browse(
    browser: Browser, site: Path, locale: str = "ko-KR"
) -> Iterator[tuple[Page, str, list[str]]]:
    """A page on ``site`` served as GitHub Pages would (404.html for missing
    paths); yields the page, the base URL and the console errors."""
    with serve_directory(site) as base, site_page(browser, base, locale=locale) as page:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page, base, errors


@pytest.mark.parametrize(
    ("locale", "lang"), [("ko-KR", "ko"), ("en-US", "en"), ("fr-FR", "en")]
)
def test_root_page_sends_readers_to_their_language(
    browser: Browser, site: Path, locale: str, lang: str
) -> None:
    with browse(browser, site, locale) as (page, base, errors):
        page.goto(f"{base}/index.html")
        page.wait_for_url(f"{base}/{lang}/stable/index.html")
        assert not errors


@pytest.mark.parametrize(
    ("address", "lands"),
    [
        ("en/", "en/dev/index.html"),
        ("ko/index.html", "ko/dev/index.html"),
        ("ko/stable/a.html", "ko/dev/a.html"),  # no release yet
        ("en/latest/a.html", "en/dev/a.html"),
    ],
)
def test_addresses_readers_type_reach_the_entry_folder_before_a_release(
    browser: Browser, tmp_path: Path, address: str, lands: str
) -> None:
    site = tmp_path / "site"
    publish(fake_builds(tmp_path / "b", "dev", TWO_PAGES), site, "dev")
    with browse(browser, site) as (page, base, errors):
        page.goto(f"{base}/{address}")
        page.wait_for_url(f"{base}/{lands}")
        assert not errors


@pytest.mark.parametrize(
    ("address", "lands"),
    [("ko/", "ko/stable/index.html"), ("en/latest/both.html", "en/stable/both.html")],
)
def test_addresses_readers_type_reach_the_newest_release(
    browser: Browser, site: Path, address: str, lands: str
) -> None:
    with browse(browser, site) as (page, base, errors):
        page.goto(f"{base}/{address}")
        page.wait_for_url(f"{base}/{lands}")
        assert not errors


def test_404_page_is_served_for_a_missing_path_and_links_home(
    browser: Browser, site: Path
) -> None:
    with browse(browser, site) as (page, base, _):
        response = page.goto(f"{base}/ko/0.1/no/such/page.html")
        assert response is not None
        assert response.status == 404
        assert "페이지를 찾을 수 없습니다" in page.title()
        page.get_by_role("link", name="JAX Guide (English)").click()
        page.wait_for_url(f"{base}/en/stable/index.html")


@pytest.mark.parametrize(
    ("lang", "label", "missing", "query"),
    [
        ("ko", "가이드 검색", "본문.html", "본문"),
        ("en", "Search the guide", "text.html", "text"),
    ],
)
def test_404_page_searches_for_the_missing_page(
    browser: Browser, site: Path, lang: str, label: str, missing: str, query: str
) -> None:
    """Its search boxes hold the missing page's name and go to that
    language's search page, which finds the page with that word."""
    with browse(browser, site) as (page, base, errors):
        page.goto(f"{base}/ko/0.1/no/{missing}")
        box = page.get_by_role("searchbox", name=label)
        assert box.input_value() == query
        box.press("Enter")
        page.wait_for_url(f"{base}/{lang}/stable/search.html?q=*")
        result = page.locator("#search .pagefind-ui__result-title a").first
        result.wait_for()
        assert result.get_attribute("href", timeout=0).endswith("/both.html")
        assert not errors


def test_404_page_follows_dark_mode(browser: Browser, site: Path) -> None:
    with (
        serve_directory(site) as base,
        site_page(browser, base, color_scheme="dark") as page,
    ):
        page.goto(f"{base}/en/no-such-page.html")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(18, 18, 18)"
        install_node_tools()
        assert axe_violations(page) == []


def test_version_switcher_lists_versions_and_keeps_the_page(
    browser: Browser, site: Path
) -> None:
    with browse(browser, site) as (page, base, errors):
        page.goto(f"{base}/ko/0.1/both.html")
        menu = page.locator(".version-switcher__menu a")
        menu.first.wait_for(state="attached")
        names = [
            menu.nth(i).get_attribute("data-version-name") for i in range(menu.count())
        ]
        assert [name and name.split(" ")[0] for name in names] == ["dev", "0.2", "0.1"]
        # An old release: the theme's banner, in the guide's Korean.
        banner = page.locator("#bd-header-version-warning")
        banner.get_by_text("이전 버전(0.1)").wait_for()
        assert banner.get_by_role("link", name="최신 릴리스로 이동").count() == 1
        page.locator(".version-switcher__button").first.click()
        page.locator(".version-switcher__menu a[data-version='dev']").first.click()
        page.wait_for_url(f"{base}/ko/dev/both.html")
        assert not errors


@pytest.mark.parametrize("address", ["ko/0.1/both.html", "en/dev/both.html"])
def test_version_banner_passes_axe_and_closes_from_the_keyboard(
    browser: Browser, site: Path, address: str
) -> None:
    """The banner of an old release or of dev: no serious axe finding, and
    its close button is a button that Tab reaches and Enter presses."""
    install_node_tools()
    with browse(browser, site) as (page, base, errors):
        page.goto(f"{base}/{address}")
        banner = page.locator("#bd-header-version-warning")
        close = banner.get_by_role("button")
        close.wait_for()
        assert close.get_attribute("tabindex") == "0"
        assert [v["id"] for v in axe_violations(page)] == []
        close.focus()
        page.keyboard.press("Enter")
        banner.wait_for(state="hidden")
        assert not errors


def test_version_switcher_falls_back_to_the_home_of_a_version_without_the_page(
    browser: Browser, site: Path
) -> None:
    with browse(browser, site, "en-US") as (page, base, _):
        page.goto(f"{base}/en/dev/new.html")
        page.locator("#bd-header-version-warning").get_by_text(
            "the guide for a version in development (dev)"
        ).wait_for()
        page.locator(".version-switcher__button").first.click()
        page.locator(".version-switcher__menu a[data-version='0.2']").first.click()
        page.wait_for_url(f"{base}/en/stable/")


def test_language_switcher_keeps_the_stable_copy_the_anchor_and_the_query(
    browser: Browser, site: Path
) -> None:
    # stable/ is a copy of release 0.2, whose links were built as 0.2's.
    with browse(browser, site) as (page, base, errors):
        page.goto(f"{base}/ko/stable/both.html#top")
        page.locator(".jaxguide-language-switcher a[hreflang='en']").click()
        page.wait_for_url(f"{base}/en/stable/both.html#top")
        page.goto(f"{base}/ko/stable/search.html?q=x")
        page.locator(".jaxguide-language-switcher a[hreflang='en']").click()
        page.wait_for_url(f"{base}/en/stable/search.html?q=x")
        page.goto(f"{base}/en/0.1/both.html#top")
        page.locator(".jaxguide-language-switcher a[hreflang='ko']").click()
        page.wait_for_url(f"{base}/ko/0.1/both.html#top")
        assert not errors
