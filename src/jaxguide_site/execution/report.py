"""Log how many notebooks a build executed and how many it took from the cache.

myst-nb logs one line per page; this adds the total that matters when a
contributor asks "did my edit re-execute anything?". A notebook counts as
executed when its cache record was created during this build: jupyter-cache
creates a record only after a successful execution.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

from datetime import UTC, datetime

from jupyter_cache import get_cache
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from .kernels import PREFILLED

logger = logging.getLogger(__name__)


def _remember_start(app: Sphinx, _env: BuildEnvironment, docnames: list[str]) -> None:
    app.jaxguide_build_started = datetime.now(UTC)  # type: ignore[attr-defined]
    app.jaxguide_docs_read = list(docnames)  # type: ignore[attr-defined]


def _as_utc(moment: datetime) -> datetime:
    # SQLite drops the time zone; jupyter-cache writes UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def count_executions(cache_path: str, since: datetime) -> int:
    """Number of notebooks jupyter-cache stored after ``since``."""
    records = get_cache(cache_path).list_cache_records()
    return sum(1 for record in records if _as_utc(record.created) >= since)


def report_executions(app: Sphinx, exception: Exception | None) -> None:
    started: datetime | None = getattr(app, "jaxguide_build_started", None)
    if exception is not None or started is None:
        return
    if app.config.nb_execution_mode != "cache":
        return
    nb_data = getattr(app.env, "nb_metadata", {})
    docs_read: list[str] = app.jaxguide_docs_read  # type: ignore[attr-defined]
    exec_data = [
        nb_data[doc]["exec_data"]
        for doc in docs_read
        if "exec_data" in nb_data.get(doc, {})
    ]
    failed = sum(1 for data in exec_data if not data.get("succeeded", True))
    executed = count_executions(app.config.nb_execution_cache_path, started)
    if executed and app.config[PREFILLED]:
        logger.warning(
            "%d page(s) executed, but the pre-step (execution/prefill.py) had "
            "executed every page it could: it reads pages differently from "
            "myst-nb, or a page passed here that failed there (flaky)",
            executed,
            type="jaxguide",
            subtype="prefill",
        )
    logger.info(
        "jaxguide [%s]: %d notebook page(s) read: %d executed, %d from the cache, %d failed",
        app.config.language,
        len(exec_data),
        executed,
        max(len(exec_data) - executed - failed, 0),
        failed,
    )


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", _remember_start)
