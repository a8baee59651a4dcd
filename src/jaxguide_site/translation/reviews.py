"""A translation's review: the version of its own prose that a reviewer read.

A reviewer who read a translation for meaning and for natural language
records it in the translation's front matter (``nox -s i18n -- reviewed
docs/ko/page.md``), as the hash of the page's own prose at that time::

    reviewed: 0123456789ab

A translation *waits for a review* when it records none, or when its prose
changed since (an update after its source changed, an edit): the checker
lists those pages as work to pick up, and the status page shows it. The
record names no one: git's author names are accounts, not people.
"""

from __future__ import annotations

from pathlib import Path

from .parity import Source, read_source
from .stamps import (
    SHA,
    locate,
    prose_sha,
    quoted,
    recorded_sha,
    set_front_matter,
    text_sha,
)

KEY = "reviewed"


def reviewed(source: Source) -> bool:
    """Whether the translation ``source`` was reviewed as it reads now."""
    sha = source.meta.get(KEY)
    return (
        isinstance(sha, str)
        and SHA.fullmatch(sha) is not None
        and (sha == text_sha(source))
    )


def record_review(path: Path) -> str:
    """Record that the translation ``path`` was reviewed as it reads now;
    the hash of its prose. :class:`ValueError` where it is not a translation."""
    pair = locate(path, "reviewed", verb="review")  # a translation, with a source
    if "translated_from" not in (source := read_source(path)).meta:
        msg = (
            f"{path} is not stamped yet: a review reads a finished translation. "
            "Stamp it first"
        )
        raise ValueError(msg)
    if recorded_sha(source) != prose_sha(pair.source):
        msg = (
            f"{path} is stale: its source changed since it was stamped, so a "
            "review now would be of an old translation. Update and stamp it first"
        )
        raise ValueError(msg)
    sha = text_sha(source)
    set_front_matter(path, KEY, f"{KEY}: {quoted(sha)}\n")
    return sha
