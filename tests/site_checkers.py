"""What the tests and the site audit check on the built site: bytes, axe-core, the Nu checker.

:class:`Transfers` measures what a page costs a phone on a first visit
(:func:`first_view` opens one page to measure it, for the site audit).
axe-core and the Nu HTML checker come from npm:
both are pinned in tests/audit/package-lock.json (with Lighthouse, which only
``nox -s benchmark -- audit`` needs, as a dev dependency) and installed there by
:func:`install_node_tools` (``npm ci``) the first time they are needed. The
browser tests (``nox -s site``) and tests/benchmarks/site_audit.py use them
through :func:`axe_violations` and :func:`nu_errors`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock

from jaxguide_site.languages import LANGUAGES

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

NODE_TOOLS = Path(__file__).resolve().parent / "audit"
MODULES = NODE_TOOLS / "node_modules"
AXE = MODULES / "axe-core" / "axe.min.js"
VNU = MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
LIGHTHOUSE = MODULES / ".bin" / "lighthouse"
INSTALL_HINT = "apt-get install nodejs npm default-jre-headless"
# The phone the tests read on: its screen in CSS pixels, drawn twice as
# densely, touch.
PHONE = {"width": 390, "height": 844}
PHONE_OPTIONS: dict[str, Any] = {
    "viewport": PHONE,
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
# Sphinx's search scripts and Pagefind's: only the search page needs them.
SEARCH_SCRIPTS = ("searchtools.js", "language_data.js", "searchindex.js", "pagefind")
# Issue 23: the first view of the heaviest page, gzipped as GitHub Pages serves it.
FIRST_VIEW_BUDGET_KB = 400


class CheckerUnavailable(RuntimeError):
    """npm or Java is missing; the message says what to install."""


def install_node_tools(*, lighthouse: bool = False) -> None:
    """``npm ci`` in tests/audit unless the installed tools are the pinned ones
    (Lighthouse only with ``lighthouse``). vnu-jar's install script, which
    would download a Java runtime, is skipped; a file lock keeps parallel
    workers from installing at once."""
    needed = ["axe-core", "vnu-jar", *(["lighthouse"] if lighthouse else [])]
    if _installed_as_pinned(needed):
        return
    npm = shutil.which("npm")
    if npm is None:
        msg = f"the site's checkers (axe-core, vnu.jar) come from npm: {INSTALL_HINT}"
        raise CheckerUnavailable(msg)
    with FileLock(NODE_TOOLS / ".install.lock"):
        if _installed_as_pinned(needed):
            return
        command = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"]
        installed = subprocess.run(
            command + ([] if lighthouse else ["--omit=dev"]),
            cwd=NODE_TOOLS,
            capture_output=True,
            text=True,
            check=False,
        )
    if installed.returncode != 0:
        msg = (
            f"`npm ci` in {NODE_TOOLS} failed (is the npm registry reachable?):\n"
            f"{installed.stderr[-2000:]}\nRun it there yourself to see why."
        )
        raise CheckerUnavailable(msg)


def _installed_as_pinned(packages: list[str]) -> bool:
    """Whether node_modules holds ``packages`` at the versions the lock file
    pins (npm records what it installed in node_modules/.package-lock.json)."""
    installed = MODULES / ".package-lock.json"
    if not installed.is_file():
        return False
    pinned = json.loads((NODE_TOOLS / "package-lock.json").read_text(encoding="utf-8"))
    there = json.loads(installed.read_text(encoding="utf-8"))
    return all(
        there["packages"].get(f"node_modules/{name}", {}).get("version")
        == pinned["packages"][f"node_modules/{name}"]["version"]
        for name in packages
    )


def axe_version() -> str:
    """The installed axe-core's version, from its banner ("/*! axe v4.14.1")."""
    return AXE.read_text(encoding="utf-8")[:40].split("axe v")[1].split()[0]


_AXE_RUN_JS = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 3),
  }));
}"""


def axe_violations(
    page: Page, impacts: tuple[str, ...] = ("serious", "critical")
) -> list[dict[str, Any]]:
    """axe-core's violations of the page as it is now, of the given impacts:
    each with its rule ``id``, ``impact``, ``help`` and up to three ``targets``."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=AXE)
    violations: list[dict[str, Any]] = page.evaluate(_AXE_RUN_JS)
    return [v for v in violations if v["impact"] in impacts]


def nu_errors(files: list[Path]) -> list[dict[str, Any]]:
    """The Nu HTML checker's errors in ``files``: each with its ``url``,
    ``lastLine`` and ``message``."""
    java = shutil.which("java")
    if java is None:
        msg = f"the Nu HTML checker (vnu.jar) needs Java: {INSTALL_HINT}"
        raise CheckerUnavailable(msg)
    checked = subprocess.run(
        [
            java,
            "-jar",
            str(VNU),
            "--stdout",
            "--format",
            "json",
            "--errors-only",
            "--exit-zero-always",
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    # On stdout: Java itself may write to stderr first ("Picked up
    # JAVA_TOOL_OPTIONS").
    messages: list[dict[str, Any]] = json.loads(checked.stdout)["messages"]
    return messages


def nu_version() -> str:
    java = shutil.which("java") or "java"
    return subprocess.run(
        [java, "-jar", str(VNU), "--version"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


# Scripts in <head> that stop the page from rendering until they have run.
_BLOCKING_SCRIPTS_JS = """() => [...document.head.querySelectorAll("script[src]")]
  .filter((s) => !s.defer && !s.async && s.type !== "module")
  .map((s) => new URL(s.src).pathname.split("/").pop())"""


class Transfers:
    """What ``page`` transfers from now on, with the browser's cache off (as on
    a reader's first visit), read by :meth:`first_view` once the page has
    loaded."""

    def __init__(self, page: Page) -> None:
        self.page = page
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        self.names: dict[str, str] = {}
        self.transferred: dict[str, float] = {}
        self.unpacked: list[int] = []
        cdp.on(
            "Network.requestWillBeSent",
            lambda e: self.names.__setitem__(e["requestId"], e["request"]["url"]),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda e: self.transferred.__setitem__(
                e["requestId"], e["encodedDataLength"]
            ),
        )
        cdp.on("Network.dataReceived", lambda e: self.unpacked.append(e["dataLength"]))

    def first_view(self) -> dict[str, Any]:
        """Bytes in all, the heaviest files, the render-blocking scripts."""
        blocking: list[str] = self.page.evaluate(_BLOCKING_SCRIPTS_JS)
        heaviest = sorted(self.transferred.items(), key=lambda item: -item[1])[:5]
        return {
            "requests": len(self.transferred),
            "gzipped_kb": round(sum(self.transferred.values()) / 1000, 1),
            "unpacked_kb": round(sum(self.unpacked) / 1000, 1),
            "heaviest_files": {
                self.names.get(request, "?").split("/")[-1].split("?")[0]: round(
                    size / 1000, 1
                )
                for request, size in heaviest
            },
            "blocking_scripts": blocking,
        }


def first_view(browser: Browser, url: str) -> dict[str, Any]:
    """What opening ``url`` with an empty cache on the tests' phone transfers
    and runs (:meth:`Transfers.first_view`), once nothing has been fetched for
    500 ms: for the site audit, on the phone test_every_page_on_a_phone.py
    holds to the budget."""
    context = browser.new_context(**PHONE_OPTIONS)
    try:
        page = context.new_page()
        transfers = Transfers(page)
        page.goto(url, wait_until="networkidle")
        return transfers.first_view()
    finally:
        context.close()


def waiting_for_search(weights: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """Of :func:`first_view`'s results by page (``"jit"`` or ``"ko/jit"``),
    the pages other than search that wait for search scripts, with those.

    >>> waiting_for_search({
    ...     "ko/jit": {"blocking_scripts": ["doctools.js", "searchindex.js"]},
    ...     "ko/search": {"blocking_scripts": ["searchtools.js"]},
    ... })
    {'ko/jit': ['searchindex.js']}
    """
    found = {
        page: [
            script
            for script in weight["blocking_scripts"]
            if script.startswith(SEARCH_SCRIPTS)
        ]
        for page, weight in weights.items()
        if page.rsplit("/", 1)[-1] != "search"
    }
    return {page: scripts for page, scripts in found.items() if scripts}


def site_html_pages(site: Path, version: str) -> list[Path]:
    """Every page of ``version`` in both languages, then the root pages (not
    the theme's macro templates that Sphinx copies into _static: Jinja source
    that no page links)."""
    pages = sorted(
        path for lang in LANGUAGES for path in (site / lang / version).glob("*.html")
    )
    return [*pages, site / "index.html", site / "404.html"]
