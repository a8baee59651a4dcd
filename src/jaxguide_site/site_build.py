"""Build the site: ``python -m jaxguide_site.site_build`` (what ``nox -s docs`` runs).

    python -m jaxguide_site.site_build               # every language, strict, then doctests
    python -m jaxguide_site.site_build -- -E         # extra arguments: every sphinx-build
    python -m jaxguide_site.site_build --serve en    # live preview (sphinx-autobuild)
    python -m jaxguide_site.site_build --preview ko  # prose only: nothing executed

The command lines are shared with the build benchmark
(tests/benchmarks/build_bench.py). Standard library only: Sphinx runs as
its own command.

Each language is one Sphinx project (``docs/<lang>`` with the shared
``docs/conf.py``). Its HTML goes to ``<build>/sphinx/<lang>/html``: myst-nb
writes executed notebooks beside the output folder, and each language's carry
its own prose. Both languages share one execution cache (docs/conf.py). A
full build first executes every page into it, one process scheduling the
kernels (execution/prefill.py: measuring pages alone), so that Sphinx then
only reads executed pages; the second language reuses the first's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from .languages import DEFAULT_LANGUAGE, LANGUAGES

__all__ = [
    "LANGUAGES",
    "STRICT",
    "html_dir",
    "jobs",
    "main",
    "not_executed_lines",
    "prefill_command",
    "preview",
    "preview_addresses",
    "sphinx_command",
]

STRICT = ("-W", "-n", "--keep-going", "-T")
# What a preview showed without outputs, written into its doctree folder by
# src/jaxguide_site/execution/preview.py and printed when the preview ends.
PREVIEW_REPORT = "jaxguide-preview.json"
FULL_BUILD = "python -m nox -s docs"
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


# This environment's Sphinx, whether or not its scripts are on PATH.
SPHINX_BUILD = (sys.executable, "-m", "sphinx")


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
        *SPHINX_BUILD,
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


def prefill_command(docs: Path, build: Path) -> list[str]:
    """Execute every page into the cache before Sphinx reads any
    (src/jaxguide_site/execution/prefill.py)."""
    return [
        sys.executable,
        "-m",
        "jaxguide_site.execution.prefill",
        "--docs",
        str(docs),
        "--build",
        str(build),
        "--jobs",
        str(jobs()),
    ]


# Tells Sphinx the pre-step ran: a page it executes after it is a warning.
PREFILLED = ("-D", "jaxguide_prefilled=1")
# The pre-step's exit status where a page failed. A copy of prefill.PAGES_FAILED,
# so that this light module need not import the executing one (a test keeps
# the two equal).
PAGES_FAILED = 3


def build(docs: Path, build: Path, extra: list[str]) -> None:
    """Execute the pages, then every language's HTML, then its doctests
    (``-W``: any warning fails).

    The doctest builder reuses the pickled environment of the HTML build (the
    same doctree folder), so it re-reads and re-executes nothing.
    """
    failed = _run(prefill_command(docs, build), allowed=PAGES_FAILED) != 0
    for lang in LANGUAGES:
        # Sphinx may execute only in its own process, one page at a time
        # (execution/kernels.py): it executes a failed page again to report it.
        command = sphinx_command(
            "html", lang, docs=docs, build=build, parallel=not failed
        )
        _run([*command, *PREFILLED, *extra])
    for lang in LANGUAGES:
        command = sphinx_command(
            "doctest", lang, docs=docs, build=build, parallel=False
        )
        _run([*command, "-q"])


def preview(lang: str, docs: Path, build: Path, extra: list[str]) -> None:
    """One language into ``<build>/preview/<lang>``, executing nothing: pages
    show the outputs the execution cache holds (src/jaxguide_site/execution/
    preview.py). Warnings are shown, not fatal; its own doctree folder keeps
    the strict build's environment untouched, and a second preview re-reads
    only the changed pages (and writes again the pages whose references
    into them changed: execution/referrers.py). Its last lines list the
    pages shown without outputs, and how to get them."""
    doctrees = build / "preview" / "doctrees" / lang
    command = [
        *SPHINX_BUILD,
        "-b",
        "html",
        "-c",
        str(docs),
        "-D",
        f"language={lang}",
        "-D",
        "jaxguide_execute=0",
        "-d",
        str(doctrees),
        "-q",
        "-j",
        str(jobs()),
        str(docs / lang),
        str(build / "preview" / lang),
        *extra,
    ]
    _run(command)
    shown = preview_addresses(docs / lang, build / "preview" / lang)
    for line in [*shown, *not_executed_lines(doctrees / PREVIEW_REPORT)]:
        print(f"site_build: {line}", flush=True)


def _edited(pages: Path) -> list[Path]:
    """The pages of ``pages`` changed since git's last commit (untracked ones
    too); every page outside a git checkout. A file's time alone would name a
    page that ``git checkout`` or ``git pull`` just wrote."""
    git = ["git", "-C", str(pages)]
    try:
        listed = [
            subprocess.run(
                [*git, *args, "--", "."],
                capture_output=True,
                text=True,
                check=True,
                timeout=30,
            ).stdout.split("\0")
            for args in (
                ["diff", "HEAD", "--name-only", "--relative", "-z"],
                ["ls-files", "--others", "--exclude-standard", "-z"],
            )
        ]
    except (OSError, subprocess.SubprocessError):
        return list(pages.rglob("*.md"))
    names = {name for found in listed for name in found if name.endswith(".md")}
    return [pages / name for name in sorted(names) if (pages / name).is_file()]


def preview_addresses(pages: Path, out: Path) -> list[str]:
    """Where to look at a preview of the pages in ``pages`` written to ``out``:
    its index, and the page edited last (of those changed since the last
    commit: the one just changed, most likely)."""
    shown = [f"preview written, open {(out / 'index.html').resolve().as_uri()}"]
    edited = max(_edited(pages), key=lambda p: p.stat().st_mtime, default=None)
    if edited is not None:
        html = (out / edited.relative_to(pages)).with_suffix(".html").resolve()
        shown.append(
            f"the page edited last: {html.as_uri()} (each page is {out}/<page>.html)"
        )
    return shown


def not_executed_lines(report: Path) -> list[str]:
    """What a preview's ``report`` says of the pages shown without outputs:
    which they are, and how to get their outputs (nothing if none)."""
    try:
        found = json.loads(report.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    pages = found["not_executed"]
    if not pages:
        return []
    shown = [
        (
            f"{len(pages)} page(s) not executed, shown without outputs and with "
            f"a banner saying so: {', '.join(pages)}"
        )
    ]
    if found["cache_empty"]:
        shown.append(
            "the execution cache is empty (a fresh clone, or src/jaxguide or the "
            f"pins changed since the last full build): run '{FULL_BUILD}' once; "
            "it executes every page (several minutes) and fills the cache, and "
            "every preview after it shows the outputs"
        )
    else:
        shown.append(
            "the execution cache lacks their code as it is now (changed since "
            f"the last full build): '{FULL_BUILD}' executes them and fills the "
            "cache, and the next preview shows their outputs"
        )
    return shown


def serve(lang: str, docs: Path, build: Path, extra: list[str]) -> None:
    """Rebuild one language on every change to its pages, templates or code."""
    command = sphinx_command(
        "html", lang, docs=docs, build=build, parallel=False, strict=False
    )
    watched = [docs / "_static", docs / "_templates", docs / "_data", Path("src")]
    _run(
        [
            "sphinx-autobuild",
            *command[1:],
            *(arg for path in watched for arg in ("--watch", str(path))),
            *extra,
        ]
    )


# Every notebook kernel (ipykernel 7) warns once that its sockets are TCP
# without encryption. They listen on localhost for the build's own client
# only; the line, repeated per page, would bury the build's real messages.
KERNEL_TCP_WARNING = "Kernel is running over TCP without encryption"


def _run(command: list[str], allowed: int = 0) -> int:
    """Run ``command``; stop the build where it fails (``allowed``: an exit
    status that is not a failure). Its exit status."""
    print("site_build:", " ".join(command), flush=True)
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if KERNEL_TCP_WARNING not in line:
                sys.stderr.write(line)
                sys.stderr.flush()
    if process.returncode not in {0, allowed}:
        raise SystemExit(process.returncode)
    return process.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jaxguide_site.site_build",
        description="Build the site, both languages, strictly.",
    )
    parser.add_argument(
        "--serve",
        nargs="?",
        const=DEFAULT_LANGUAGE,
        choices=LANGUAGES,
        metavar="LANG",
        help=f"live preview of one language ({', '.join(LANGUAGES)}; "
        f"default {DEFAULT_LANGUAGE}) instead of the strict build",
    )
    parser.add_argument(
        "--preview",
        nargs="?",
        const=DEFAULT_LANGUAGE,
        choices=LANGUAGES,
        metavar="LANG",
        help=f"one language, prose only (default {DEFAULT_LANGUAGE}): execute "
        "nothing, show the cached outputs, into <build>/preview/LANG",
    )
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="default: docs")
    parser.add_argument(
        "--build", type=Path, default=Path("build"), help="default: build"
    )
    parser.add_argument(
        "extra", nargs="*", help="arguments for sphinx-build (after --)"
    )
    args = parser.parse_args(argv)
    if not (args.docs / "conf.py").is_file():
        parser.error(
            f"no conf.py in {args.docs}: run from the repository root or pass --docs"
        )
    if args.preview:
        preview(args.preview, args.docs, args.build, args.extra)
    elif args.serve:
        serve(args.serve, args.docs, args.build, args.extra)
    else:
        build(args.docs, args.build, args.extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
