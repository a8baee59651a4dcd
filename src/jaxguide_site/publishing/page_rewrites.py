"""What the publish step changes in pages it has laid out (:mod:`.publish`).

A build cannot know what the site will hold, so two things in its pages are
settled when it is published:

- its absolute links to the site (canonical, ``og:url``, ``og:image``,
  hreflang alternates, as ``html_baseurl`` writes them: ``<lang>/stable/...``)
  name the ``stable/`` copy where there is one that has the file, and the
  page's own version otherwise (every link while no release is published, a
  page new in ``dev``, one a later release removed);
- a ``stable/`` copy of a release says so beside its number: the sidebar of
  ``stable/`` pages reads "0.2 (stable)", of ``0.2/`` pages "0.2".

Both are idempotent: publishing again rewrites a page only when what it
should say changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from ..interface_text.messages import translations
from .site_address import STABLE

# The sidebar's version number (docs/_templates/jaxguide-version.html).
VERSION_NUMBER = '<strong class="jaxguide-version-number">{}</strong>'
STABLE_LABEL = "{version} ({stable})"


def stable_label(lang: str, version: str) -> str:
    """What a ``stable/`` copy of ``version`` calls itself in ``lang``.

    >>> stable_label("en", "0.2")
    '0.2 (stable)'
    """
    return STABLE_LABEL.format(
        version=version, stable=translations(lang).gettext("stable")
    )


def label_stable_copy(folder: Path, lang: str, version: str) -> int:
    """Name the release a ``stable/`` copy is, and that it is the stable one,
    in each of its pages. Returns how many pages changed."""
    built = VERSION_NUMBER.format(version)
    labelled = VERSION_NUMBER.format(stable_label(lang, version))
    return _rewrite(folder.glob("*.html"), lambda text: text.replace(built, labelled))


def point_links(
    site: Path, base_url: str, folder: Path, version: str, languages: list[str]
) -> int:
    """Make the absolute links of the pages in ``folder`` (a version folder,
    or a ``stable/`` copy of ``version``) name ``stable/`` where it holds the
    file, else ``version``'s folder. Returns how many pages changed."""
    pattern = re.compile(
        re.escape(base_url)
        + rf"(?P<lang>{'|'.join(map(re.escape, languages))})/"
        + rf"(?P<folder>{re.escape(STABLE)}|{re.escape(version)})/"
        + r"(?P<path>[^\"'\s<>?#]*)"
    )

    @cache
    def exists(lang: str, candidate: str, path: str) -> bool:
        return (site / lang / candidate / (path or "index.html")).is_file()

    def target(match: re.Match[str]) -> str:
        lang, path = match["lang"], match["path"]
        for candidate in (STABLE, version):
            if exists(lang, candidate, path):
                return f"{base_url}{lang}/{candidate}/{path}"
        return match[0]

    return _rewrite(folder.glob("*.html"), lambda text: pattern.sub(target, text))


def _rewrite(pages: Iterable[Path], change: Callable[[str], str]) -> int:
    changed = 0
    for path in pages:
        text = path.read_text(encoding="utf-8")
        new = change(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1
    return changed
