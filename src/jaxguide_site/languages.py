"""The languages the guide is written in, the site's default first."""

from __future__ import annotations

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES"]

LANGUAGES = ("ko", "en")
DEFAULT_LANGUAGE = LANGUAGES[0]
