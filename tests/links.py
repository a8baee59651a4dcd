"""Every internal link of a published site folder, and the ones that lead nowhere.

A link is internal when it is relative, or absolute under the site's own
address (canonical links, hreflang alternates, OpenGraph URLs, the sitemap).
Each must name a file of the site (a folder means its ``index.html``); a
fragment must name an ``id`` of the target page. The version switcher's
entries (``versions.json``) are checked as the theme uses them: from every
page of a version, ``entry.url + page`` must exist or fall back to that
version's home page.
"""

from __future__ import annotations

import json
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit
from xml.sax.saxutils import unescape

LINK_ATTRIBUTES = {
    "a": "href",
    "link": "href",
    "script": "src",
    "img": "src",
    "source": "src",
}
SITEMAP_URL = re.compile(r'<loc>([^<]+)</loc>|href="([^"]+)"')


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.base: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "base" and values.get("href"):
            self.base = values["href"]
        if (
            tag == "meta"
            and values.get("property") == "og:url"
            and values.get("content")
        ):
            self.links.append(str(values["content"]))
        attribute = LINK_ATTRIBUTES.get(tag)
        if attribute and values.get(attribute):
            self.links.append(str(values[attribute]))


@cache
def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _target(base_url: str, page_url: str, link: str) -> str | None:
    """The site-relative path and fragment a link names, or None if external."""
    if link.startswith(("mailto:", "javascript:", "data:")):
        return None
    absolute = urljoin(page_url, link)
    if not absolute.startswith(base_url):
        return None
    return absolute.removeprefix(base_url)


def _exists(site: Path, relative: str) -> tuple[bool, str]:
    parts = urlsplit(relative)
    path = site / unquote(parts.path)
    if parts.path == "" or parts.path.endswith("/"):
        path = path / "index.html"
    if not path.is_file():
        return False, "no such file"
    fragment = unquote(parts.fragment)
    if fragment and path.suffix == ".html" and fragment not in _parse(path).ids:
        return False, f"no id {parts.fragment!r}"
    return True, ""


def broken_links(site: Path, base_url: str) -> list[str]:
    """``"page: link (why)"`` for each internal link that leads nowhere."""
    _parse.cache_clear()
    broken = []
    # Themes copy Jinja macro files named *.html into _static: not pages.
    pages = sorted(p for p in site.rglob("*.html") if "_static" not in p.parts)
    for path in pages:
        relative = path.relative_to(site).as_posix()
        page = _parse(path)
        page_url = (
            urljoin(base_url + relative, page.base)
            if page.base
            else base_url + relative
        )
        # <base> changes where relative links point (404.html), not og:url.
        for link in page.links:
            target = _target(base_url, page_url, link)
            if target is None:
                continue
            ok, why = _exists(site, target)
            if not ok:
                broken.append(f"{relative}: {link} ({why})")
    sitemap = site / "sitemap.xml"
    if sitemap.is_file():
        for loc in _sitemap_urls(sitemap.read_text(encoding="utf-8")):
            target = _target(base_url, base_url, loc)
            ok, why = (
                (False, "outside the site") if target is None else _exists(site, target)
            )
            if not ok:
                broken.append(f"sitemap.xml: {loc} ({why})")
    broken.extend(_switcher_links(site))
    return broken


def _sitemap_urls(text: str) -> list[str]:
    return [unescape(loc or href) for loc, href in SITEMAP_URL.findall(text)]


def _switcher_links(site: Path) -> list[str]:
    broken = []
    for versions in sorted(site.glob("*/versions.json")):
        lang_dir = versions.parent
        entries = json.loads(versions.read_text(encoding="utf-8"))
        for version_dir in sorted(p for p in lang_dir.iterdir() if p.is_dir()):
            for entry in entries:
                target_root = (version_dir / entry["url"]).resolve()
                if not (target_root / "index.html").is_file():
                    broken.append(
                        f"{versions.relative_to(site)}: {entry['url']} from "
                        f"{version_dir.name}/ has no index.html"
                    )
    return broken
