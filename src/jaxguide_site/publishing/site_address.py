"""The guide's versions and the address it is published at.

Shared by ``docs/conf.py`` (what a build is) and :mod:`.publish` (where a
build goes). A version is ``dev`` (the main branch) or a release ``X.Y`` (the
git tag ``vX.Y``); the site lives at ``https://<owner>.github.io/<repo>/``.
"""

from __future__ import annotations

import re

DEV = "dev"
STABLE = "stable"  # the folder holding a copy of the newest release
VERSION = re.compile(r"(?:dev|(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*))")
REPOSITORY = re.compile(r"[A-Za-z0-9-]+/[A-Za-z0-9._-]+")


class SiteError(ValueError):
    """A bad version, address or site folder (docs/conf.py hands it to Sphinx
    as a ConfigError, which Sphinx prints without a traceback)."""


def check_version(version: str) -> str:
    """``version`` itself if it names a version of the guide.

    >>> check_version("0.1")
    '0.1'
    >>> check_version("v0.1")
    Traceback (most recent call last):
    ...
    jaxguide_site.publishing.site_address.SiteError: the guide's version must be 'dev' or a release 'X.Y' such as '0.1' (the git tag v0.1 is version 0.1), got 'v0.1'
    """
    if not VERSION.fullmatch(version):
        msg = (
            "the guide's version must be 'dev' or a release 'X.Y' such as '0.1' "
            f"(the git tag v0.1 is version 0.1), got {version!r}"
        )
        raise SiteError(msg)
    return version


def site_version(package_version: str) -> str:
    """The guide's version for a version of the ``jaxguide`` package.

    The package takes its version from the git tag (hatch-vcs): a commit
    tagged ``v0.2`` is ``0.2``, which is a release of the guide; any other
    commit is ``dev``.

    >>> site_version("0.2")
    '0.2'
    >>> site_version("0.3.dev4+g1a2b3c4")
    'dev'
    """
    return package_version if is_release(package_version) else DEV


def is_release(version: str) -> bool:
    return version != DEV and VERSION.fullmatch(version) is not None


def release_key(version: str) -> tuple[int, int]:
    """Sort key of a release: ``0.10`` comes after ``0.9``."""
    major, minor = check_version(version).split(".")
    return int(major), int(minor)


def site_base_url(repository: str, override: str | None = None) -> str:
    """The published site's root URL, ending in ``/``.

    >>> site_base_url("someone/jaxguide")
    'https://someone.github.io/jaxguide/'
    >>> site_base_url("someone/jaxguide", "https://jax.example.org")
    'https://jax.example.org/'
    """
    if override:
        if not re.match(r"https?://[^/]+", override):
            msg = f"JAXGUIDE_BASE_URL must be an http(s) URL, got {override!r}"
            raise SiteError(msg)
        return override.rstrip("/") + "/"
    if not REPOSITORY.fullmatch(repository):
        msg = (
            "the repository must be 'owner/name' (JAXGUIDE_REPOSITORY or "
            f"GITHUB_REPOSITORY), got {repository!r}"
        )
        raise SiteError(msg)
    owner, name = repository.split("/")
    if name.lower() == f"{owner.lower()}.github.io":  # a user or organisation site
        return f"https://{name.lower()}/"
    return f"https://{owner.lower()}.github.io/{name}/"
