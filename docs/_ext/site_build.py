"""The sphinx-build command lines of the site, shared by noxfile.py and the
build benchmark (tests/benchmarks/build_bench.py).

Standard library only: nox's own interpreter imports this module, before any
session has installed Sphinx.

Each language is one Sphinx project (``docs/<lang>`` with the shared
``docs/conf.py``). Its HTML goes to ``<build>/sphinx/<lang>/html``: myst-nb
writes executed notebooks beside the output folder, and each language's carry
its own prose. Both languages share one execution cache (docs/conf.py), so
the first language executes each page once and the second reuses it.
"""

from __future__ import annotations

import os
from pathlib import Path

LANGUAGES = ("ko", "en")  # the first one is the site's default language
STRICT = ("-W", "-n", "--keep-going", "-T")
MAX_JOBS = 4  # each parallel reader may run a notebook kernel with JAX in it


JOBS_ENV = "JAXGUIDE_JOBS"


def jobs() -> int:
    """Parallel Sphinx readers, so notebooks execute side by side: one per
    core, at most MAX_JOBS (memory grows with each kernel).

    ``JAXGUIDE_JOBS=4`` forces a number, so that a 2-core machine can build
    exactly as a 4-core one (GitHub's hosted runners) does.
    """
    forced = os.environ.get(JOBS_ENV, "").strip()
    if forced:
        if not forced.isdigit() or int(forced) < 1:
            message = (
                f"{JOBS_ENV}={forced!r} is not a number of parallel readers: "
                f"set it to a whole number such as 4, or unset it for one per core"
            )
            raise SystemExit(message)
        return int(forced)
    return max(1, min(MAX_JOBS, os.cpu_count() or 1))


def html_dir(build: Path, lang: str) -> Path:
    return build / "sphinx" / lang / "html"


def sphinx_command(
    builder: str,
    lang: str,
    *,
    docs: Path,
    build: Path,
    parallel: bool = True,
    strict: bool = True,
) -> list[str]:
    """``sphinx-build`` for one builder and language; ``strict``: any warning
    fails the build (the site's builds; not the live preview)."""
    outdir = html_dir(build, lang) if builder == "html" else build / builder / lang
    command = [
        "sphinx-build",
        "-b",
        builder,
        "-c",
        str(docs),
        "-D",
        f"language={lang}",
        "-d",
        str(build / "doctrees" / lang),
        *(STRICT if strict else ()),
    ]
    if parallel:
        command += ["-j", str(jobs())]
    return [*command, str(docs / lang), str(outdir)]
