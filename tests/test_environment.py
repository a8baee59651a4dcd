"""jaxguide.environment: what executed a page."""

from __future__ import annotations

import os
import subprocess
import sys

import jax
import jaxlib

from jaxguide import environment_report


def test_report_matches_the_running_jax() -> None:
    report = environment_report()
    assert report.jax_version == jax.__version__
    assert report.jaxlib_version == jaxlib.__version__
    assert report.backend == jax.default_backend()
    assert sum(count for _, count in report.devices) == len(jax.devices())
    assert report.cpu_cores >= 1
    assert report.cpu_model
    assert report.x64_enabled is False


def test_report_is_one_compact_line_in_every_form() -> None:
    report = environment_report()
    text = str(report)
    assert "\n" not in text
    assert text.startswith(f"JAX {jax.__version__} (jaxlib {jaxlib.__version__}) · ")
    assert f"{report.backend}: " in text
    assert "jax_enable_x64=False" in text
    assert report._repr_markdown_() == text
    html = report._repr_html_()
    assert html.startswith('<p class="jaxguide-output jaxguide-line">')
    assert f'<span lang="ko" hidden>코어 {report.cpu_cores}개</span>' in html


def test_x64_flag_is_reported_when_enabled_at_startup() -> None:
    code = "from jaxguide import environment_report as r; print(r().x64_enabled)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "JAX_ENABLE_X64": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "True"
