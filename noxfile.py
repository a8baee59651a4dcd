#!/usr/bin/env -S python3 -m nox -f
# /// script
# dependencies = ["nox[uv]>=2025.2.9"]
# ///
"""Sessions for building, testing and linting jaxguide.

    nox -s docs    # build the site, both languages, into build/html
    nox -s publish -- --site DIR  # build and put this version into DIR
    nox -s tests   # the fast loop: unit tests, doctests, small Sphinx builds
    nox -s site    # build the site, then run every test (the fast loop's too)
    nox -s checks  # the tests that need the site, on the one built before (CI's artifact)
    nox -s notebooks  # run the site's .ipynb files where only a reader's tools are
    nox -s lint    # pre-commit's hooks: ruff, mypy --strict, codespell, i18n, zizmor
    nox -s i18n    # the translation checker (the tests run it too)
    nox -s messages  # extract the interface text, merge it into the catalogs
    nox -s preview # one language, prose only, in seconds (-- en for English)
    nox -s serve   # live-reload one language while writing (-- en for English)
    nox -s lock    # refresh the exact pins in .ci/constraints.txt
    nox -s benchmark  # measurements that are not tests: -- build, -- audit, ...
    nox -s record  # the measuring pages' ratios over many runs: the sizes they state

Every session installs with .ci/constraints.txt, so a build today and a build
next month execute the pages against the same JAX and the same toolchain.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_venv = "yes"

ROOT = Path(__file__).resolve().parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"
BUILD = ROOT / "build"
# site_build.py (src/jaxguide_site/site_build.py) writes one Sphinx build
# per language into build/sphinx/<lang>/html; publish.py (publishing/
# publish.py) lays them out
# as the site (build/html locally, the gh-pages branch in CI).
SPHINX_OUT = BUILD / "sphinx"
SITE = BUILD / "html"
# The site's commands: modules of the tooling, which only the editable
# checkout has (pyproject.toml: a reader's wheel holds jaxguide alone).
BUILD_COMMAND = ("python", "-m", "jaxguide_site.site_build")
PUBLISH_COMMAND = ("python", "-m", "jaxguide_site.publishing.publish")
I18N_COMMAND = ("python", "-m", "jaxguide_site.translation.checker")
# The Python the site's pages execute in: what a reader installs (the wheel
# of jaxguide, ipykernel), named as Jupyter's python3 kernel for the build.
READER_KERNEL = BUILD / "reader-kernel"


# The fast loop compiles the same small programs on every run; JAX's own
# persistent cache keeps the compiled executables between runs (keyed by the
# program, the compile options, JAX and the backend, so a change compiles
# anew). A size limit turns on its file lock, which the workers, writing and
# reading the same folder at once, need. About a quarter of the loop's time.
JAX_COMPILATION_CACHE = {
    "JAX_COMPILATION_CACHE_DIR": str(BUILD / "jax_compilation_cache"),
    "JAX_COMPILATION_CACHE_MAX_SIZE": str(512 * 2**20),
    "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
    "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
}


def install(
    session: nox.Session, *groups: str, editable: bool = True, compiled: bool = True
) -> None:
    """Install the package and the given dependency groups at the pinned versions.

    Editable, the checkout's src/ is on the environment's path, and with it
    the site's tooling; ``editable=False`` installs what a reader gets, the
    wheel (jaxguide alone).

    jaxguide itself is reinstalled every time: its version comes from the git
    tag when it is installed, and a reused environment would keep an old one.
    uv compiles the installed modules to bytecode, as pip does: where
    PYTHONDONTWRITEBYTECODE is set (many containers), every process (pytest's
    workers, Sphinx, each notebook's kernel) would otherwise compile JAX's,
    Sphinx's and hypothesis' sources again, about 6 s a process here.
    ``compiled=False`` skips that where few processes import little (the
    linters): compiling everything installed costs about 20 s.
    """
    uv_only = (
        [
            "--reinstall-package",
            "jaxguide",
            *(["--compile-bytecode"] if compiled else []),
        ]
        if session.venv_backend == "uv"
        else []
    )
    session.install(
        "-c",
        str(CONSTRAINTS),
        *uv_only,
        *(["-e"] if editable else []),
        str(ROOT),
        *nox.project.dependency_groups(PYPROJECT, *groups),
    )


def build_site(session: nox.Session, *extra_sphinx_args: str) -> None:
    """Check JAX, build every language, run the pages' doctests, lay out the site.

    The version is the installed jaxguide's (hatch-vcs: "X.Y" on a commit
    tagged vX.Y, else "dev"), or JAXGUIDE_VERSION. The site in build/html has
    the published layout (/<lang>/<version>/, stable/, the root page), so what
    you open locally is what is published.
    """
    session.run("python", "-m", "jaxguide.smoke")
    kernel = install_reader_kernel(session)
    session.run(*BUILD_COMMAND, "--", *extra_sphinx_args, env=kernel)
    run_publish(session, SITE)
    session.log(f"Site built: open {SITE / 'index.html'}")


def install_reader_kernel(session: nox.Session) -> dict[str, str]:
    """Install a reader's Python in build/reader-kernel, name it Jupyter's
    ``python3`` kernel there, and return the environment a build needs to
    execute every page in it: where a downloaded notebook runs, without the
    site's toolchain (src/jaxguide_site/execution/kernels.py checks it before
    executing anything; the execution cache keeps its outputs apart)."""
    venv = READER_KERNEL / "venv"
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    packages = [
        "-c",
        str(CONSTRAINTS),
        str(ROOT),
        *nox.project.dependency_groups(PYPROJECT, "kernel"),
    ]
    base = str(Path(session.bin) / ("python.exe" if os.name == "nt" else "python"))
    if session.venv_backend == "uv":
        uv = nox.virtualenv.UV
        session.run_install(
            uv, "venv", "-q", "--allow-existing", "--python", base, str(venv)
        )
        session.run_install(
            uv,
            "pip",
            "install",
            "-q",
            "--python",
            str(python),
            "--reinstall-package",
            "jaxguide",
            "--compile-bytecode",
            *packages,
        )
    else:
        session.run_install(base, "-m", "venv", str(venv))
        session.run_install(str(python), "-m", "pip", "install", "-q", *packages)
    spec = READER_KERNEL / "share" / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    kernel = {
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (a reader's)",
        "language": "python",
    }
    (spec / "kernel.json").write_text(json.dumps(kernel, indent=1), encoding="utf-8")
    return {
        "JUPYTER_PATH": str(READER_KERNEL / "share" / "jupyter"),
        "JAXGUIDE_KERNEL": "reader",
    }


def run_publish(session: nox.Session, site: Path) -> None:
    """Lay the builds out in ``site`` as the version they were built as."""
    session.run(*PUBLISH_COMMAND, "--site", str(site), "--build", str(SPHINX_OUT))


@nox.session(default=False)
def docs(session: nox.Session) -> None:
    """Build the site (both languages) into build/html; posargs go to sphinx-build."""
    install(session, "docs")
    build_site(session, *session.posargs)


@nox.session(default=False)
def publish(session: nox.Session) -> None:
    """Build a version of the site and put it into a site folder.

    `nox -s publish -- --site ../gh-pages` builds the version of the checkout
    (0.1 on a commit tagged v0.1, else dev; `--version 0.1` overrides it) and
    adds (or replaces) /ko/0.1/ and /en/0.1/ in that folder, then regenerates
    stable/, versions.json, the root page, 404.html and the sitemap
    (src/jaxguide_site/publishing/publish.py). Other versions' folders are left
    untouched. `--built` lays out the build already in build/sphinx instead of
    building: CI publishes the artifact it tested this way.
    """
    parser = argparse.ArgumentParser(prog="nox -s publish --")
    parser.add_argument("--version", help="default: the checkout's (tag vX.Y or dev)")
    parser.add_argument("--site", required=True, type=Path)
    parser.add_argument(
        "--built",
        action="store_true",
        help="publish the build in build/sphinx as it is (CI's tested artifact)",
    )
    args = parser.parse_args(session.posargs)
    if args.built and args.version:
        session.error("--built publishes the version it was built as: drop --version")
    install(session, "docs")
    if args.version:
        session.env["JAXGUIDE_VERSION"] = args.version
    if not args.built:
        build_site(session)
    run_publish(session, args.site.resolve())


@nox.session(default=False)  # `site` runs these too
def tests(session: nox.Session) -> None:
    """The fast loop: unit tests, the package's doctests and small in-process
    Sphinx builds of sample projects; no site is built, and the tests marked
    slow wait for `nox -s site`. Spread over the cores (a module's tests stay
    together, sharing its fixtures); posargs go to pytest (`-- -n0 -k smoke`
    for one test in this process)."""
    install(session, "test")
    run_pytest(session, "not site and not slow")


@nox.session
def site(session: nox.Session) -> None:
    """Build the site, then run every test: the fast loop's, and those that
    need the built site (its pages, publishing, the browser) or run whole
    programs (the examples, parallel readers), in one pytest run.

    The README's test command (`nox -s lint site`): one environment and one
    run spread over the cores, where `tests` then `checks` would install the
    same environment twice and leave a core idle at the end of each. The
    build is part of the tests: a page whose cell fails (or a doctest in a
    page) fails this session. Posargs go to pytest (`-- -m browser` for the
    browser tests alone).
    """
    install(session, "test")
    build_site(session)
    run_pytest(session)


@nox.session(default=False)
def checks(session: nox.Session) -> None:
    """The tests of `nox -s site` that need the site (or run whole programs),
    on the site built before (CI's build artifact: build/sphinx, build/html,
    build/doctrees), without building it again; CI's `tests` job runs the
    others. Posargs go to pytest."""
    install(session, "test")
    run_pytest(session, "site or slow")


def run_pytest(session: nox.Session, marks: str | None = None) -> None:
    """pytest over the tests ``marks`` selects (all without), spread over the
    cores, a module's tests together (they share its browser, server and
    sample builds): on 2 cores, about a fifth faster than one process."""
    session.run(
        "pytest", "-n", "auto", "--dist", "loadscope",
        *(["-m", marks] if marks else []),
        *session.posargs,
        # tests/test_packaging.py builds the reader's wheel with the uv nox
        # found, which need not be on PATH.
        env={**JAX_COMPILATION_CACHE, "UV": nox.virtualenv.UV},
    )  # fmt: skip


@nox.session(default=False)
def notebooks(session: nox.Session) -> None:
    """Run every downloaded notebook of the built site where a reader would.

    The build already executes each page's cells in a reader's kernel
    (install_reader_kernel) and fails on a kept cell that needs a removed
    one, so the tests do not run this again; it checks the files themselves,
    e.g. before a release.

    The environment has jaxguide (with JAX, NumPy, matplotlib, Optax,
    Orbax), ipykernel, nbclient and pytest-xdist, and nothing of the Sphinx
    toolchain; the test executes each .ipynb of one language, side by side, (`-- ko` for Korean; English by
    default: the code cells are the same) top to bottom, Colab setup cell
    included. Needs a built site (`nox -s docs`).
    """
    args = list(session.posargs)
    lang = args.pop(0) if args and not args[0].startswith("-") else "en"
    install(session, "reader", editable=False)
    session.run(
        "pytest",
        "--confcutdir",
        str(ROOT / "tests" / "reader"),
        "-p",
        "no:cacheprovider",
        str(ROOT / "tests" / "reader"),
        # Side by side: the slowest session after the site's, on few cores.
        "-n",
        "auto",
        *args,
        env={"JAXGUIDE_NOTEBOOK_LANG": lang},
    )


@nox.session
def lint(session: nox.Session) -> None:
    """Every hook of .pre-commit-config.yaml over every file: ruff (lint and
    format check), mypy --strict on src/jaxguide and src/jaxguide_site (which
    need the docs toolchain installed), codespell, the translation checker,
    and the GitHub files against their schema with zizmor's security audit
    (pinned actions, least permissions, no template injection), all offline.

    Posargs go to `pre-commit run`, e.g. `-- ruff-check` for one hook.
    """
    install(session, "lint", "docs", compiled=False)
    session.run(
        "pre-commit", "run", "--all-files", "--show-diff-on-failure", *session.posargs
    )


@nox.session(default=False)
def i18n(session: nox.Session) -> None:
    """The translation checker: `-- --strict` fails on stale translations too.

    Compares docs/ko and docs/en page by page (src/jaxguide_site/translation/).
    `-- diff docs/ko/<page>.md` shows, word by word, what changed in the
    source's prose since the translation was stamped (from git's history);
    `-- stamp docs/ko/<page>.md` records, once the translation is updated, the
    source's current prose_sha. It reads pages with myst-nb, so it needs the
    docs toolchain, not JAX: the package is installed without its dependencies.
    """
    session.install(
        "-c", str(CONSTRAINTS), *nox.project.dependency_groups(PYPROJECT, "docs")
    )
    session.install("--no-deps", "-e", str(ROOT))
    session.run(*I18N_COMMAND, *session.posargs)  # no command: check


@nox.session(default=False)
def preview(session: nox.Session) -> None:
    """See a prose change in seconds: `nox -s preview -- en` (default: the
    first language of docs/_data/languages.toml, ko).

    Builds one language into build/preview/<lang> without executing any
    cell: pages show the outputs of the last build's execution cache, a page
    it lacks is shown without outputs. Further posargs go to sphinx-build.
    Installs only where the environment is new or older than pyproject.toml
    or the pins (a few seconds of each preview otherwise): jaxguide is
    installed editable, and a preview does not show its version.
    """
    args = list(session.posargs)
    lang = [args.pop(0)] if args and not args[0].startswith("-") else []
    if not installed_since_change(session, "sphinx-build"):
        install(session, "docs")
    # The outputs of the builds that ran in a reader's Python (build_site).
    reader = {"JAXGUIDE_KERNEL": "reader"}
    session.run(*BUILD_COMMAND, "--preview", *lang, "--", *args, env=reader)


def installed_since_change(session: nox.Session, command: str) -> bool:
    """Whether the session's environment has ``command``, installed after the
    last change to pyproject.toml and .ci/constraints.txt."""
    script = Path(session.bin) / command
    return script.is_file() and all(
        script.stat().st_mtime > path.stat().st_mtime
        for path in (ROOT / "pyproject.toml", CONSTRAINTS)
    )


@nox.session(default=False)
def serve(session: nox.Session) -> None:
    """Live-reload one language while writing: `nox -s serve -- en` (default ko).

    Further posargs go to sphinx-autobuild, e.g. `-- en --port 8001`.
    """
    args = list(session.posargs)
    lang = [args.pop(0)] if args and not args[0].startswith("-") else []
    install(session, "serve")
    kernel = install_reader_kernel(session)
    session.run(*BUILD_COMMAND, "--serve", *lang, "--", *args, env=kernel)


# Measurements that are not tests (timings vary by machine): `nox -s benchmark
# -- NAME [args]` runs the module of tests/benchmarks/ NAME stands for.
MEASUREMENTS = {
    "build": "build_bench",
    "audit": "site_audit",
    "timing_overhead": "timing_overhead",
    "timing_claims": "timing_claims",
    "search_relevance": "search_relevance",
}
QUICK_MEASUREMENTS = ("timing_overhead", "timing_claims", "search_relevance")


@nox.session(default=False)
def benchmark(session: nox.Session) -> None:
    """Measurements that are not tests (tests/benchmarks/), one session:

    - `-- build`: the build benchmark: cold, no change, prose edit, code edit,
      warm, naive, on a fresh copy of docs/ and a fresh cache (about 15
      minutes on 2 cores; `-- build --skip-naive` leaves out the slowest);
      writes build/bench/build-bench.{json,md}.
    - `-- audit`: the built site as a phone reader gets it (needs a built
      site, Node and Java; about 10 minutes): first-view bytes, Lighthouse,
      axe-core, the Nu HTML checker; `-- audit --only lighthouse` runs one part.
    - `-- timing_overhead`, `-- timing_claims`, `-- search_relevance`:
      jaxguide.benchmark's overhead, what its timings show about speed (the
      targets the timing tests leave to it), the search's relevance (needs a
      built site and Chromium). No name runs these three.

    Arguments after the name go to its script. The measuring pages' record
    is `nox -s record`.
    """
    install(session, "test")
    args = list(session.posargs)
    if args and not args[0].startswith("-") and args[0] not in MEASUREMENTS:
        session.error(
            f"no measurement {args[0]!r}: choose one of {', '.join(MEASUREMENTS)}"
        )
    names = [args.pop(0)] if args and args[0] in MEASUREMENTS else QUICK_MEASUREMENTS
    for name in names:
        session.run("python", "-m", f"tests.benchmarks.{MEASUREMENTS[name]}", *args)


@nox.session(default=False)
def record(session: nox.Session) -> None:
    """Record the measuring pages' ratios: each page 5 times idle and 5 times
    with every core busy, each run a fresh process (about 85 minutes on 2
    cores, with nothing else running); writes src/jaxguide/records/<machine>.json,
    whose ranges the pages state, and build/bench/timing-record.md, which
    checks that a run left out lands in the others' range. Commit the record.

    `-- --report src/jaxguide/records/<file>.json` reports on a record
    without running anything; `-- docs/en/jit.md` records one page only
    (the record then holds that page alone: merge by hand or record all).
    """
    install(session, "test")
    session.run("python", "-m", "tests.benchmarks.timing_record", *session.posargs)


@nox.session(default=False)
def messages(session: nox.Session) -> None:
    """Extract the site's own interface text (src/jaxguide_site/locale/
    jaxguide.pot) and merge it into each language's catalog, listing the
    messages to translate there."""
    install(session, "docs")
    session.run("python", "-m", "jaxguide_site.interface_text.messages")


@nox.session(venv_backend="uv", default=False)
def lock(session: nox.Session) -> None:
    """Re-resolve every dependency group to its newest versions and pin them.

    `nox -s lock -- --upgrade-package jax==0.10.2` pins one package to a given
    version; with no posargs everything is upgraded.
    """
    session.install("uv")
    upgrade = list(session.posargs) or ["--upgrade"]
    session.run(
        "uv",
        "pip",
        "compile",
        str(ROOT / "pyproject.toml"),
        "--group",
        "dev",
        "--universal",
        "--fork-strategy",
        "fewest",
        "--python-version",
        PYPROJECT["project"]["requires-python"].removeprefix(">="),
        "--no-header",
        "--output-file",
        str(CONSTRAINTS),
        *upgrade,
    )
    text = CONSTRAINTS.read_text(encoding="utf-8")
    header = (
        "# Exact pins for every nox session. Refresh with `nox -s lock`; do not edit.\n"
    )
    CONSTRAINTS.write_text(header + text, encoding="utf-8")


if __name__ == "__main__":
    nox.main()
