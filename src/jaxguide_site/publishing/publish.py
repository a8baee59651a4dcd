"""Put one version of the built site into the published site, and refresh the rest.

    python -m jaxguide_site.publishing.publish --site gh-pages [--version 0.1] [--build build/sphinx]

``--build`` holds one Sphinx build per language (``build/sphinx/<lang>/html``,
each with the ``jaxguide-build.json`` of :mod:`.build_info`); ``--site`` is
any folder, in CI a checkout of the ``gh-pages`` branch. The site's layout::

    index.html            picks a language, then opens its entry folder
    404.html              GitHub Pages serves it for every missing path
    robots.txt, sitemap.xml (the entry folders' pages), .nojekyll
    <lang>/versions.json  the version switcher's entries for that language
    <lang>/<version>/     one build; publishing another version never rebuilds it
    <lang>/stable/        a copy of the newest release, only once there is one

A language's entry folder is ``stable/``, or ``dev/`` while no release is
published: no folder claims to be a release it is not. ``stable/`` pages
show the release they are ("0.2 (stable)"), their Colab links and downloads
are that release's notebooks, and the newest release is the switcher's one
``preferred`` entry, so ``dev/`` and older releases show the theme's banner
pointing at ``stable/``. Canonical links name the entry folder's copy of a
page (:mod:`.page_rewrites`).

Old versions are never rebuilt (the JAX they pinned may no longer install):
publishing replaces only ``<lang>/<version>/`` for the version given, then
regenerates ``stable/`` (only when the newest release changed), the switcher
files, the root pages and the sitemap from what the site holds, and points
each version's canonical links at where its pages now are.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any
from urllib.parse import urlparse
from xml.sax.saxutils import escape

from ..interface_text.messages import N_, translations
from ..languages import LANGUAGES
from .build_info import MANIFEST
from .page_rewrites import label_stable_copy, point_links
from .site_address import (
    DEV,
    STABLE,
    SiteError,
    check_version,
    is_release,
    release_key,
)

ROOT_PAGES = Path(__file__).resolve().parent / "root_pages"
# Pages every build has that are no use in a sitemap.
NOT_IN_SITEMAP = {"genindex.html", "search.html", "py-modindex.html"}
# What the version switcher calls the release that stable/ is and dev.
VERSION_NAMES = {"stable": N_("stable"), "dev": N_("development")}


@dataclass(frozen=True)
class Build:
    """One language and version of the site, as its manifest describes it."""

    path: Path
    language: str
    version: str
    jax: str
    base_url: str
    build_id: str


def read_build(folder: Path) -> Build:
    """The build in ``folder``, from its ``jaxguide-build.json``."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        msg = f"{folder} has no {MANIFEST}: it is not a build of this site (run `nox -s docs`)"
        raise SiteError(msg)
    try:
        data: dict[str, Any] = json.loads(manifest.read_text(encoding="utf-8"))
        return Build(
            path=folder,
            language=str(data["language"]),
            version=check_version(str(data["version"])),
            jax=str(data["jax"]),
            base_url=str(data["base_url"]),
            build_id=str(data["build_id"]),
        )
    except (ValueError, KeyError, TypeError) as error:
        msg = f"{manifest} is malformed ({error!r}); rebuild the site"
        raise SiteError(msg) from error


def find_builds(build_root: Path, version: str | None = None) -> list[Build]:
    """Every language's build under ``build_root``, all of one version:
    ``version`` if given, else the one they were built as."""
    if not build_root.is_dir():
        msg = f"no builds at {build_root}: run `nox -s docs` first"
        raise SiteError(msg)
    # build/sphinx/<lang>/html (as noxfile.py builds), or <lang>/ itself.
    folders = [
        folder / "html" if (folder / "html" / MANIFEST).is_file() else folder
        for folder in sorted(build_root.iterdir())
    ]
    builds = [read_build(folder) for folder in folders if (folder / MANIFEST).is_file()]
    if not builds:
        msg = (
            f"no builds at {build_root} (no <lang>/{MANIFEST}): run `nox -s docs` first"
        )
        raise SiteError(msg)
    if version is None and len({build.version for build in builds}) > 1:
        found = ", ".join(f"{build.path}: {build.version!r}" for build in builds)
        msg = f"the builds are of different versions ({found}): rebuild them"
        raise SiteError(msg)
    version = version or builds[0].version
    for build in builds:
        if build.version != version:
            msg = (
                f"{build.path} was built as version {build.version!r}, not {version!r}: "
                f"rebuild it with JAXGUIDE_VERSION={version}"
            )
            raise SiteError(msg)
    if len({build.base_url for build in builds}) > 1:
        msg = f"the builds under {build_root} were made for different site addresses"
        raise SiteError(msg)
    return builds


def replace_tree(source: Path, target: Path) -> None:
    """Make ``target`` an exact copy of ``source``."""
    if source.resolve() == target.resolve():
        return
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, target)


def site_versions(site: Path, lang: str) -> dict[str, Build]:
    """The versions published for ``lang``: its version folders with a build."""
    found = {}
    for folder in (site / lang).iterdir():
        if folder.name != STABLE and (folder / MANIFEST).is_file():
            build = read_build(folder)
            if build.version != folder.name:
                msg = f"{folder} holds version {build.version!r}; the site is inconsistent"
                raise SiteError(msg)
            found[folder.name] = build
    return found


def releases_newest_first(versions: dict[str, Build]) -> list[Build]:
    names = sorted((v for v in versions if is_release(v)), key=release_key)
    return [versions[name] for name in reversed(names)]


def switcher_entries(lang: str, versions: dict[str, Build]) -> list[dict[str, Any]]:
    """pydata-sphinx-theme's versions.json: dev, then releases, newest first.

    The newest release is the one ``preferred`` entry and links to ``stable/``
    (the canonical copies), so the theme's banner on ``dev`` and older
    releases points there. While no release is published ``dev`` is listed
    alone and nothing is preferred: there is nothing better to point at, and
    the theme shows no banner. Every URL is relative to a version's root.
    """
    catalog = translations(lang)
    names = {key: catalog.gettext(name) for key, name in VERSION_NAMES.items()}
    entries: list[dict[str, Any]] = []
    if DEV in versions:
        jax = versions[DEV].jax
        entries.append(
            {
                "version": DEV,
                "name": f"dev ({names['dev']}, JAX {jax})",
                "url": "../dev/",
            }
        )
    for index, build in enumerate(releases_newest_first(versions)):
        entry: dict[str, Any] = {
            "version": build.version,
            "url": f"../{build.version}/",
        }
        if index == 0:
            entry |= {
                "name": f"{build.version} ({names['stable']}, JAX {build.jax})",
                "url": f"../{STABLE}/",
                "preferred": True,
            }
        else:
            entry["name"] = f"{build.version} (JAX {build.jax})"
        entries.append(entry)
    return entries


def entry_folder(versions: dict[str, Build]) -> str:
    """The folder a language's readers enter: ``stable/`` once a release is
    published, ``dev/`` before."""
    return STABLE if releases_newest_first(versions) else DEV


def sitemap(site: Path, base_url: str, entries: dict[str, str]) -> str:
    """Every page of each language's entry folder, with its translations as
    alternates."""
    languages = sorted(entries)
    pages = {
        lang: sorted(
            path.name
            for path in (site / lang / entries[lang]).glob("*.html")
            if path.name not in NOT_IN_SITEMAP
        )
        for lang in languages
    }

    def url(lang: str, page: str) -> str:
        return escape(f"{base_url}{lang}/{entries[lang]}/{page}")

    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        (
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">'
        ),
    ]
    for lang in languages:
        for page in pages[lang]:
            lines.append(f"  <url><loc>{url(lang, page)}</loc>")
            lines.extend(
                f'    <xhtml:link rel="alternate" hreflang="{other}" '
                f'href="{url(other, page)}"/>'
                for other in languages
                if page in pages[other]
            )
            lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def refresh_stable(site: Path, lang: str, versions: dict[str, Build]) -> list[str]:
    """Make ``<lang>/stable/`` a labelled copy of the newest release, or
    remove it while there is none (an older layout copied ``dev`` there)."""
    stable = site / lang / STABLE
    releases = releases_newest_first(versions)
    if not releases:
        if stable.exists():
            shutil.rmtree(stable)
            return [f"{lang}/{STABLE}/ removed: no release is published"]
        return []
    newest = releases[0]
    current = read_build(stable) if (stable / MANIFEST).is_file() else None
    if current is not None and current.build_id == newest.build_id:
        return []
    replace_tree(newest.path, stable)
    label_stable_copy(stable, lang, newest.version)
    return [f"{lang}/{STABLE}/ <- {lang}/{newest.version}/"]


def refresh(site: Path, base_url: str) -> list[str]:
    """Regenerate everything in ``site`` that depends on which versions it holds."""
    done = []
    languages = sorted(
        folder.name
        for folder in site.iterdir()
        if folder.is_dir()
        and any((version / MANIFEST).is_file() for version in folder.iterdir())
    )
    entries = {}
    for lang in languages:
        versions = site_versions(site, lang)
        if not versions:
            continue
        done += refresh_stable(site, lang, versions)
        entries[lang] = entry_folder(versions)
        switcher = switcher_entries(lang, versions)
        (site / lang / "versions.json").write_text(
            json.dumps(switcher, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        done.append(
            f"{lang}/versions.json: {', '.join(e['version'] for e in switcher)}"
        )
    done += point_every_version(site, base_url, entries)
    base_path = urlparse(base_url).path or "/"
    # The root pages link each language's entry folder as $entry_<lang>.
    homes = {f"entry_{lang}": f"{lang}/{DEV}" for lang in LANGUAGES}
    homes |= {f"entry_{lang}": f"{lang}/{folder}" for lang, folder in entries.items()}
    for page in ("index.html", "404.html"):
        template = Template((ROOT_PAGES / page).read_text(encoding="utf-8"))
        text = template.substitute(base_path=base_path, **homes)
        (site / page).write_text(text, encoding="utf-8")
    (site / "robots.txt").write_text(
        f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n", encoding="utf-8"
    )
    (site / "sitemap.xml").write_text(
        sitemap(site, base_url, entries), encoding="utf-8"
    )
    (site / ".nojekyll").touch()  # or GitHub Pages drops the _static folders
    done.append("index.html, 404.html, robots.txt, sitemap.xml, .nojekyll")
    return done


def point_every_version(
    site: Path, base_url: str, entries: dict[str, str]
) -> list[str]:
    """Absolute links of every published page name the entry folder's copy,
    or the page's own version where the entry folder lacks it."""
    done = []
    languages = sorted(entries)
    for lang in languages:
        for folder in sorted((site / lang).iterdir()):
            if not (folder / MANIFEST).is_file():
                continue
            version = read_build(folder).version
            changed = point_links(site, base_url, folder, version, languages)
            if changed:
                done.append(f"{lang}/{folder.name}/: {changed} page(s) relinked")
    return done


def publish(build_root: Path, site: Path, version: str | None = None) -> list[str]:
    """Put the builds (of ``version``, if given) into ``site`` and refresh it."""
    if version is not None:
        check_version(version)
    builds = find_builds(build_root, version)
    version = builds[0].version
    if site.exists() and not site.is_dir():
        msg = f"the site {site} is not a folder"
        raise SiteError(msg)
    site.mkdir(parents=True, exist_ok=True)
    done = []
    for build in builds:
        replace_tree(build.path, site / build.language / version)
        done.append(f"{build.language}/{version}/ <- {build.path}")
    return done + refresh(site, builds[0].base_url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jaxguide_site.publishing.publish",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument(
        "--version",
        help="'dev' or a release such as 0.1; the builds must be of it "
        "(default: the version they were built as)",
    )
    parser.add_argument("--site", required=True, type=Path, help="the site folder")
    parser.add_argument(
        "--build",
        type=Path,
        default=Path("build/sphinx"),
        help="the Sphinx builds, <lang>/html or <lang>/ each (default: build/sphinx)",
    )
    args = parser.parse_args(argv)
    try:
        done = publish(args.build, args.site, args.version)
    except SiteError as error:
        parser.error(str(error))
    for line in done:
        print(f"publish: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
