"""Opening a page of the served site in the browser, and what went wrong there.

:func:`open_page` waits until a page has settled (switcher filled, fonts and
icons drawn); :class:`Problems` collects what a reader would not see but a
broken page shows: console errors, failed requests for the site's own files,
requests for another host's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request, Response


def url(base: str, lang: str, version: str, page: str) -> str:
    """The address of ``page`` in a served site's ``/<lang>/<version>/``."""
    return f"{base}/{lang}/{version}/{page}.html"


@dataclass
class Problems:
    """Console errors, failed requests for the site's own files, and any
    request for another host's."""

    base_url: str
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("request", self._request)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.console.append(f"uncaught: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _own(self, url: str) -> bool:
        return url.startswith(self.base_url)

    def _console(self, message: object) -> None:
        kind = getattr(message, "type", "")
        location = getattr(message, "location", {}) or {}
        # A blocked CDN request logs "Failed to load resource" at its own URL.
        if kind == "error" and self._own(str(location.get("url", self.base_url))):
            self.console.append(
                f"{getattr(message, 'text', '')} ({location.get('url')})"
            )

    def _request(self, request: Request) -> None:
        if not self._own(request.url) and not request.url.startswith("data:"):
            self.requests.append(f"{request.url}: another host (third party)")

    def _failed(self, request: Request) -> None:
        # net::ERR_ABORTED is the browser cancelling a request itself (a page
        # left or closed while a late file, on a busy machine the logo, still
        # loaded): no fault of the site's, which shows as an HTTP status or
        # another net:: error.
        if self._own(request.url) and request.failure != "net::ERR_ABORTED":
            self.requests.append(f"{request.url}: {request.failure}")

    def _response(self, response: Response) -> None:
        if self._own(response.url) and response.status >= 400:
            self.requests.append(f"{response.url}: HTTP {response.status}")

    def found(self) -> list[str]:
        """Everything seen since the last call, which starts a new list."""
        seen = [*self.console, *self.requests]
        self.console.clear()
        self.requests.clear()
        return seen


# The icons are glyphs of the icon fonts, which load on their own schedule:
# every font the page has asked for has loaded (or failed), and none is loading.
_SETTLED_JS = """async () => {
  await document.fonts.ready;
  return [...document.fonts].every((font) => font.status !== "loading");
}"""


def open_page(page: Page, address: str) -> None:
    """Go to ``address`` and wait until the page has settled: the version
    switcher has filled itself from versions.json, the fonts have loaded and
    every icon is drawn. On a busy machine each can come well after ``load``."""
    page.goto(address)
    wait_until_settled(page)


def wait_until_settled(page: Page, *, network_idle: bool = False) -> None:
    """:func:`open_page`'s waiting, for a page already on its way;
    ``network_idle`` also waits until nothing has been fetched for 500 ms
    (Playwright's "networkidle"), so that every byte of a first view counts."""
    page.wait_for_load_state("networkidle" if network_idle else "load")
    page.locator(".version-switcher__menu a").first.wait_for(state="attached")
    page.wait_for_function(_SETTLED_JS)
