"""The JAX smoke check that runs before the site build."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jaxguide.smoke import main, smoke_check


def test_smoke_check_reports_a_working_install() -> None:
    report = smoke_check()
    assert report.jax_version.count(".") >= 2
    assert report.devices
    assert report.devices[0].startswith(f"{report.backend}:")
    assert f"JAX {report.jax_version}" in str(report)


def test_main_prints_one_line_and_succeeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main() == 0
    out = capsys.readouterr().out
    assert out.startswith("JAX smoke check passed: JAX ")
    assert out.count("\n") == 1


def test_missing_jax_fails_fast_with_a_clear_message() -> None:
    # sys.modules["jax"] = None makes `import jax` raise ImportError, as if
    # JAX were not installed, in a fresh interpreter.
    code = (
        "import sys; sys.modules['jax'] = None\n"
        "from jaxguide.smoke import main\n"
        "sys.exit(main())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 1
    assert "JAX smoke check failed: cannot import JAX" in result.stderr
    assert "Traceback" not in result.stderr
