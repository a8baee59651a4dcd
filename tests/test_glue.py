"""jaxguide.glue where a reader runs it: nothing recorded, the value shown
only when asked (src/jaxguide/site.py). What it records in a page kernel
during the site's build is tests/test_workarounds.py's drift test."""

from __future__ import annotations

import pytest

from jaxguide import site
from jaxguide.site import GLUE_ENV, glue


@pytest.fixture(autouse=True)
def never_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    def record(name: str, value: object, *, display: bool) -> None:  # noqa: ARG001
        pytest.fail(f"glue recorded {name!r} outside a page kernel")

    monkeypatch.setattr(site, "_record", record)


@pytest.mark.parametrize("build", [False, True], ids=["reader", "build-env"])
def test_outside_a_kernel_glue_shows_the_value_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], build: bool
) -> None:
    if build:  # the variable alone (a test process after a build) records nothing
        monkeypatch.setenv(GLUE_ENV, "1")
    else:
        monkeypatch.delenv(GLUE_ENV, raising=False)
    glue("hidden", 41)
    assert capsys.readouterr().out == ""
    glue("shown", 42, display=True)
    assert capsys.readouterr().out == "42\n"
