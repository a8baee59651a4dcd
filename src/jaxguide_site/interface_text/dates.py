"""Dates as the page's language writes them in prose: 2026년 11월 22일,
November 22, 2026. The form is Sphinx's ``html_last_updated_fmt``, which
docs/conf.py takes from each language's catalog, so the footer, the
translation-status table and the GPU records write a date the same way."""

from __future__ import annotations

import datetime as dt

from sphinx.util.i18n import format_date


def written_date(when: str | None, form: str | None, language: str) -> str:
    """``when`` (ISO 8601: a day, or a time, which is cut to its day) in the
    date ``form`` of Sphinx (strftime's codes; ``None``, a build without
    ``html_last_updated_fmt``: ISO 8601), in ``language``.

    >>> written_date("2026-11-22", "%Y년 %B %-d일", "ko")
    '2026년 11월 22일'
    >>> written_date("2026-12-01T10:00:00Z", "%B %-d, %Y", "en")
    'December 1, 2026'
    >>> written_date("2026-12-01T10:00:00Z", None, "en")
    '2026-12-01'
    >>> written_date(None, "%B %-d, %Y", "en")
    '—'
    """
    if when is None:
        return "—"
    day = dt.datetime.fromisoformat(when)
    return format_date(form or "%Y-%m-%d", date=day, language=language)
