"""A real browser for the tests: the built site served on localhost, Debian's Chromium.

The tests get ``browser`` from pytest-playwright, launched with
:func:`find_chromium` and ``CHROMIUM_ARGS`` (conftest.py), and ``served_site``
and ``page`` from these pieces; ``tests/benchmarks/search_relevance.py``, which
runs outside pytest, uses :func:`launch_chromium`.

- :func:`serve_directory` serves a folder over ``http.server`` on a free
  localhost port, from a thread.
- :func:`launch_chromium` starts Chromium through Playwright's sync API. We
  always launch the system's Chromium (``apt-get install chromium``):
  downloading Playwright's own browser build does not work on our machines.
  :class:`BrowserUnavailable` says what is missing; :func:`skip_or_fail` turns
  that into a skip, or into a failure where ``JAXGUIDE_REQUIRE_BROWSER=1``
  (CI sets it, so that browser tests never pass by being skipped).
- :class:`SitePage` drives one page of the served site: the search page
  (Pagefind's UI: results, excerpts), the search box, and the text of every page.
"""

from __future__ import annotations

import gzip
import os
import shutil
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlencode, urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
REQUIRE_ENV = "JAXGUIDE_REQUIRE_BROWSER"
INSTALL_HINT = (
    "the browser tests need Playwright (the `test` dependency group, which "
    "`nox -s site` installs) and Debian's Chromium: `apt-get install chromium`"
)
# Pages of a Sphinx site that are generated, not written.
GENERATED_PAGES = frozenset({"genindex", "py-modindex", "search"})


class BrowserUnavailable(RuntimeError):
    """Playwright or Chromium is not installed on this machine."""


def skip_or_fail(reason: str) -> NoReturn:
    """Skip the test, or fail it where ``JAXGUIDE_REQUIRE_BROWSER=1`` (as on CI)."""
    # Imported here: tests/benchmarks/search_relevance.py uses this module
    # where pytest may not be installed (`nox -s benchmark`).
    import pytest  # noqa: PLC0415

    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason} ({REQUIRE_ENV}=1: browser tests may not skip)")
    pytest.skip(reason)


def find_chromium() -> Path:
    """Debian's Chromium: /usr/bin/chromium, else a ``chromium`` on PATH."""
    if CHROMIUM.is_file():
        return CHROMIUM
    found = shutil.which("chromium")
    if found is None:
        msg = f"no Chromium at {CHROMIUM} or on PATH: {INSTALL_HINT}"
        raise BrowserUnavailable(msg)
    return Path(found)


@contextmanager
def launch_chromium() -> Iterator[Browser]:
    """Start Playwright and the system's Chromium, headless; stop both on exit."""
    executable = find_chromium()
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415
    except ImportError as error:
        msg = f"Playwright is not installed ({error}): {INSTALL_HINT}"
        raise BrowserUnavailable(msg) from error
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=list(CHROMIUM_ARGS), headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


# What GitHub Pages sends gzipped to a browser that accepts it (Pagefind's
# index files are gzipped already).
GZIPPED_SUFFIXES = frozenset(
    {".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt", ".xml", ".ipynb", ".md"}
)


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr; answers a missing
    path with the site's 404.html, as GitHub Pages does."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path /= "index.html"
        gzipped = (
            isinstance(self.server, _Server)
            and self.server.serve_gzipped
            and "gzip" in self.headers.get("Accept-Encoding", "")
            and path.suffix in GZIPPED_SUFFIXES
            and path.is_file()
        )
        if not gzipped:
            super().do_GET()
            return
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def list_directory(self, path: str | os.PathLike[str]) -> None:  # noqa: ARG002
        """A folder without index.html is missing on GitHub Pages: no listing."""
        self.send_error(HTTPStatus.NOT_FOUND)

    def send_error(
        self, code: int, message: str | None = None, explain: str | None = None
    ) -> None:
        page = Path(self.directory) / "404.html"
        if code != HTTPStatus.NOT_FOUND or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    serve_gzipped = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that cancels a request (a new navigation) closes the
        # connection mid-response: nothing went wrong on our side.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


@contextmanager
def serve_directory(root: Path, *, gzipped: bool = False) -> Iterator[str]:
    """Serve ``root`` on a free localhost port from a thread; yield the base URL.

    With ``gzipped``, text files go gzipped to a client that accepts it, as
    GitHub Pages serves them (level 6, as nginx and GitHub's servers default to).

    >>> import urllib.request
    >>> with serve_directory(Path(__file__).parent) as url:
    ...     with urllib.request.urlopen(f"{url}/browser.py") as response:
    ...         response.status
    200
    """
    handler = partial(_QuietHandler, directory=str(root))
    server = _Server(("127.0.0.1", 0), handler)
    server.serve_gzipped = gzipped
    thread = threading.Thread(
        target=server.serve_forever, name=f"http.server {root}", daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def block_external_requests(
    page: Page, base_url: str, blocked: list[str] | None = None
) -> None:
    """Abort every request that leaves ``base_url`` (listing it in ``blocked``).

    There is no internet on our machines (CDN assets such as MathJax cannot
    load): aborting them makes every run the same, with or without a network.
    """

    def abort(route: Route) -> None:
        if blocked is not None:
            blocked.append(route.request.url)
        route.abort()

    page.context.route(lambda url: not url.startswith(base_url), abort)


@contextmanager
def site_page(
    browser: Browser, base_url: str, blocked: list[str] | None = None, **options: Any
) -> Iterator[Page]:
    """A page in a fresh browser context (no shared storage) made with
    ``options`` (viewport, locale, colour scheme, permissions), with requests
    that leave ``base_url`` aborted."""
    context = browser.new_context(**options)
    try:
        page = context.new_page()
        block_external_requests(page, base_url, blocked)
        yield page
    finally:
        context.close()


def page_of(href: str) -> str:
    """The page name a result link points at: ``"jit.html#anchor"`` -> ``"jit"``.

    >>> page_of("jit.html#static-arguments"), page_of("index.html")
    ('jit', 'index')
    """
    return urlsplit(href).path.removesuffix(".html")


def result_page(href: str) -> str:
    """The page a search result links to (Pagefind's links are absolute and
    leave out index.html).

    >>> [result_page(h) for h in ("/ko/dev/jit.html#static", "/ko/dev/", "jit.html")]
    ['jit', 'index', 'jit']
    """
    return page_of(href).rsplit("/", 1)[-1] or "index"


@dataclass(frozen=True)
class SearchOutcome:
    """What the site's search page (Pagefind's UI) showed for one query, in
    display order."""

    lang: str
    query: str
    pages: tuple[str, ...]  # one per result: "jit", "index"
    titles: tuple[str, ...]
    excerpts: tuple[str, ...]  # the page-level excerpt of each result
    summary: str  # "23 results for jit" in the site's language

    def top(self, n: int = 3) -> tuple[str, ...]:
        return self.pages[:n]

    def describe(self) -> str:
        shown = ", ".join(
            f"{page} ({title})"
            for page, title in zip(self.pages[:8], self.titles, strict=False)
        )
        more = f", ... {len(self.pages)} in all" if len(self.pages) > 8 else ""
        return f"{self.lang} {self.query!r}: [{shown}{more}]"


# Pagefind's UI has shown every result of the query in its box: its summary
# names the query and a count ("23 results for jit"; while searching it names
# the query only) and no result is still loading.
_SEARCH_DONE_JS = r"""() => {
  const message = document.querySelector("#search .pagefind-ui__message");
  const box = document.querySelector("#search input");
  if (message === null || box === null || box.value === "") return false;
  const rest = message.textContent.split(box.value.trim());
  return rest.length > 1 && /\d/.test(rest.join(""))
    && document.querySelector("#search .pagefind-ui__loading") === null;
}"""
_RESULTS_JS = """() => [...document.querySelectorAll(
  "#search .pagefind-ui__result-inner")].map((result) => {
    const link = result.querySelector(":scope > .pagefind-ui__result-title > a");
    const excerpt = result.querySelector(":scope > .pagefind-ui__result-excerpt");
    return [link.getAttribute("href"), link.textContent,
            excerpt === null ? "" : excerpt.textContent];
  })"""
_PAGE_TEXTS_JS = """async (urls) => {
  const texts = {};
  for (const [name, url] of Object.entries(urls)) {
    const html = await (await fetch(url)).text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    const article = doc.querySelector("article.bd-article");
    texts[name] = article === null ? null : article.textContent;
  }
  return texts;
}"""


class SitePage:
    """One browser page on the served site, with its uncaught script errors."""

    def __init__(
        self,
        page: Page,
        base_url: str,
        *,
        version: str = "dev",
        timeout_ms: float = 20_000,
    ):
        self.page = page
        self.base_url = base_url
        self.version = version
        self.timeout_ms = timeout_ms
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def url(self, lang: str, page: str) -> str:
        return f"{self.base_url}/{lang}/{self.version}/{page}.html"

    def search(self, lang: str, query: str) -> SearchOutcome:
        """Open ``search.html?q=query`` (what the theme's search box submits);
        wait until the search page has shown the results."""
        self.page.goto(f"{self.url(lang, 'search')}?{urlencode({'q': query})}")
        return self._outcome(lang, query)

    def type_search(
        self, lang: str, query: str, *, start: str = "index"
    ) -> SearchOutcome:
        """As a reader does: on a page, open the search box (Ctrl+K), type, Enter."""
        self.page.goto(self.url(lang, start))
        self.page.keyboard.press("Control+k")
        # The theme's search dialog opens with its box focused.
        self.page.locator("dialog[open] input[name='q']:focus").wait_for()
        self.page.keyboard.type(query)
        with self.page.expect_navigation():
            self.page.keyboard.press("Enter")
        return self._outcome(lang, query)

    def search_as_you_type(self, lang: str, query: str) -> SearchOutcome:
        """On the search page, type ``query`` into its box (no Enter)."""
        self.page.goto(self.url(lang, "search"))
        self.page.locator("#search input").click()
        self.page.keyboard.type(query)
        return self._outcome(lang, query)

    def _outcome(self, lang: str, query: str) -> SearchOutcome:
        try:
            self.page.wait_for_function(_SEARCH_DONE_JS, timeout=self.timeout_ms)
        except Exception as error:
            errors = "; ".join(self.errors) or "none"
            msg = (
                f"{lang} search for {query!r} did not finish within "
                f"{self.timeout_ms / 1000:g} s (script errors: {errors})"
            )
            raise AssertionError(msg) from error
        results: list[list[str]] = self.page.evaluate(_RESULTS_JS)
        return SearchOutcome(
            lang=lang,
            query=query,
            pages=tuple(result_page(href) for href, _, _ in results),
            titles=tuple(title for _, title, _ in results),
            excerpts=tuple(excerpt for _, _, excerpt in results),
            summary=self.page.locator("#search .pagefind-ui__message").inner_text(),
        )

    def page_texts(self, lang: str, names: Iterable[str]) -> dict[str, str]:
        """The article text of the pages ``names`` of one language (written
        pages and stand-ins; not those Sphinx generates), as the browser
        parses it (no sidebar, no previous/next links)."""
        self.page.goto(self.url(lang, "index"))
        texts: dict[str, str | None] = self.page.evaluate(
            _PAGE_TEXTS_JS, {name: self.url(lang, name) for name in names}
        )
        missing = sorted(name for name, text in texts.items() if text is None)
        assert not missing, f"no article.bd-article in {lang} pages {missing}"
        return {name: text for name, text in texts.items() if text is not None}
