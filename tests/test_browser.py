"""The browser harness itself (tests/browser.py): no browser needed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

import browser

if TYPE_CHECKING:
    from pathlib import Path


def test_missing_chromium_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(browser.BrowserUnavailable, match="apt-get install chromium"):
        browser.find_chromium()


def test_missing_browser_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(browser.REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no chromium"):
        browser.skip_or_fail("no chromium")


def test_missing_browser_fails_where_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(browser.REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="may not skip"):
        browser.skip_or_fail("no chromium")
