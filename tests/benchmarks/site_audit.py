"""The built site as a phone reader gets it: bytes, Lighthouse, axe-core, the Nu checker.

On the built site (build/html), served on localhost gzipped as GitHub Pages
serves it, in Debian's Chromium:

- **Bytes**: every page of both languages opened with an empty cache at a
  phone's size; what crossed the network (gzipped, headers included, as
  Lighthouse's "total byte weight" counts) and what it unpacked to, until the
  network was idle; and the scripts in ``<head>`` that block rendering (no
  ``defer``, ``async`` or ``type="module"``).
- **Lighthouse** (mobile, its default simulated slow 4G and CPU) on
  ``LIGHTHOUSE_PAGES`` of both languages: the four category scores and the
  metrics behind performance, and every audit that cost a category points.
- **axe-core** (its current release) on every page of both languages, in
  light and dark mode: the serious and critical violations, by rule.
- **The Nu HTML checker** (vnu.jar) on every HTML file of the site: errors.

The Node tools are pinned in tests/audit/package-lock.json and installed
there (``npm ci``) on first use; vnu needs Java. Writes
build/bench/site-audit.json and .md (the build benchmark's report includes
the latter) and prints the summary; ``TARGETS`` are issue 23's. Run it with
`nox -s benchmark -- audit` after `nox -s docs`. A measurement: it fails only when a tool
is missing or a tool fails, not when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.browser import (
    find_chromium,
    launch_chromium,
    serve_directory,
)
from tests.helpers import REPO, SITE, built_version
from tests.site_checkers import (
    FIRST_VIEW_BUDGET_KB,
    LIGHTHOUSE,
    axe_version,
    axe_violations,
    first_view,
    install_node_tools,
    nu_errors,
    nu_version,
    site_html_pages,
    waiting_for_search,
)

from jaxguide_site.languages import LANGUAGES

if TYPE_CHECKING:
    from playwright.sync_api import Browser

OUTPUT = REPO / "build" / "bench"
LIGHTHOUSE_PAGES = ("index", "jit", "compilation", "collectives", "search")  # issue 45
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "total-byte-weight",
)
AUDIT_HEADING = "## Site audit"
# Issue 23: the heaviest page's first view, gzipped; Lighthouse's scores
# (performance: issue 33's, on every page measured, median of the runs).
TARGETS: dict[str, float] = {
    "first_view_kb": FIRST_VIEW_BUDGET_KB,
    "performance": 95,
    "accessibility": 100,
    "best-practices": 100,
    "seo": 100,
}


def site_pages(site: Path, lang: str, version: str) -> list[str]:
    """Every page of one language, by name (``"jit"``), generated ones included."""
    folder = site / lang / version
    return sorted(path.stem for path in folder.glob("*.html"))


def page_url(base: str, lang: str, version: str, name: str) -> str:
    return f"{base}/{lang}/{version}/{name}.html"


def page_weights(
    browser: Browser, site: Path, base: str, version: str
) -> dict[str, Any]:
    weights = {
        f"{lang}/{name}": first_view(browser, page_url(base, lang, version, name))
        for lang in LANGUAGES
        for name in site_pages(site, lang, version)
    }
    heaviest = max(weights, key=lambda page: weights[page]["gzipped_kb"])
    search_scripts = waiting_for_search(weights)
    other_blocking = sorted(
        {script for weight in weights.values() for script in weight["blocking_scripts"]}
        - set().union(*search_scripts.values())
    )
    return {
        "heaviest": heaviest,
        "pages": weights,
        "search_scripts_outside_search": search_scripts,
        "other_blocking_scripts": other_blocking,
    }


def axe_findings(
    browser: Browser, site: Path, base: str, version: str
) -> dict[str, Any]:
    """axe-core's serious and critical violations of every page, light and dark."""
    findings: dict[str, dict[str, Any]] = {}
    pages = 0
    for lang in LANGUAGES:
        for scheme in ("light", "dark"):
            context = browser.new_context(color_scheme=scheme)
            page = context.new_page()
            for name in site_pages(site, lang, version):
                page.goto(page_url(base, lang, version, name), wait_until="networkidle")
                theme = page.locator("html").get_attribute("data-theme")
                if theme != scheme:
                    msg = f"{lang}/{name} opened in {theme} mode, not {scheme}"
                    raise AssertionError(msg)
                pages += 1
                for violation in axe_violations(page):
                    finding = findings.setdefault(
                        violation["id"],
                        {
                            "impact": violation["impact"],
                            "help": violation["help"],
                            "pages": [],
                            "example": violation["targets"],
                        },
                    )
                    finding["pages"].append(f"{lang}/{name} ({scheme})")
            context.close()
    return {"axe_core": axe_version(), "pages_checked": pages, "violations": findings}


def lighthouse(base: str, version: str, reports: Path, runs: int) -> dict[str, Any]:
    """Lighthouse's mobile audit of LIGHTHOUSE_PAGES in both languages, each
    page ``runs`` times: the run with the median performance score is kept
    (its simulated timings move by a few points from run to run)."""
    reports.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "CHROME_PATH": str(find_chromium())}
    results: dict[str, Any] = {}
    for lang in LANGUAGES:
        for name in LIGHTHOUSE_PAGES:
            summaries = []
            for run in range(runs):
                path = reports / f"{lang}-{name}-{run}.json"
                subprocess.run(
                    [
                        str(LIGHTHOUSE),
                        page_url(base, lang, version, name),
                        f"--only-categories={','.join(CATEGORIES)}",
                        "--output=json",
                        f"--output-path={path}",
                        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
                        "--quiet",
                    ],
                    env=env,
                    check=True,
                )
                report = json.loads(path.read_text(encoding="utf-8"))
                summaries.append(summarise_lighthouse(report))
            summaries.sort(key=lambda summary: summary["scores"]["performance"])
            median = summaries[len(summaries) // 2]
            median["performance_runs"] = [s["scores"]["performance"] for s in summaries]
            results[f"{lang}/{name}"] = median
    return results


def summarise_lighthouse(report: dict[str, Any]) -> dict[str, Any]:
    """The category scores (0-100), the metrics and the audits that lost points."""
    audits = report["audits"]
    lost = sorted(
        {
            ref["id"]
            for category in report["categories"].values()
            for ref in category["auditRefs"]
            if ref["weight"] > 0 and (audits[ref["id"]].get("score") or 1) < 1
        }
    )
    return {
        "scores": {
            name: round(100 * (report["categories"][name]["score"] or 0))
            for name in CATEGORIES
        },
        "metrics": {name: audits[name].get("displayValue", "") for name in METRICS},
        "lost_points": lost,
        "lighthouse": report["lighthouseVersion"],
    }


def nu_report(site: Path, version: str) -> dict[str, Any]:
    """The Nu HTML checker's errors on every page of this version of both
    languages and the root pages, grouped by message."""
    files = site_html_pages(site, version)
    errors: dict[str, list[str]] = {}
    for message in nu_errors(files):
        where = message.get("url", "").split(f"{site}/")[-1]
        errors.setdefault(message["message"], []).append(
            f"{where}:{message.get('lastLine', '?')}"
        )
    return {
        "vnu": nu_version(),
        "files_checked": len(files),
        "errors": sum(len(places) for places in errors.values()),
        "by_message": errors,
    }


def markdown(report: dict[str, Any]) -> str:
    """The audit as build/bench/site-audit.md: each part that has run."""
    lines = [
        (
            f"{AUDIT_HEADING} ({report['version']}: Chromium, the site gzipped as "
            "GitHub Pages serves it)"
        ),
        "",
    ]
    for part, render in (
        ("weight", _weight_lines),
        ("lighthouse", _lighthouse_lines),
        ("axe", _axe_lines),
        ("nu", _nu_lines),
    ):
        if part in report:
            lines += [*render(report[part]), ""]
    return "\n".join(lines)


def _weight_lines(weight: dict[str, Any]) -> list[str]:
    heaviest = weight["pages"][weight["heaviest"]]
    search_scripts = weight["search_scripts_outside_search"]
    return [
        (
            f"- Heaviest first view (phone, empty cache): {weight['heaviest']}, "
            f"{heaviest['gzipped_kb']:.0f} kB gzipped ({heaviest['unpacked_kb']:.0f} kB "
            f"unpacked, {heaviest['requests']} requests); target "
            f"{TARGETS['first_view_kb']:.0f} kB; its heaviest files (kB): "
            + ", ".join(f"{n} {kb:.0f}" for n, kb in heaviest["heaviest_files"].items())
        ),
        f"- Pages that wait for search scripts, search pages aside: {len(search_scripts)}"
        + (f" (e.g. {next(iter(search_scripts.items()))})" if search_scripts else ""),
        "- Other render-blocking scripts (small, in <head>): "
        + (", ".join(weight["other_blocking_scripts"]) or "none"),
    ]


def _lighthouse_lines(results: dict[str, Any]) -> list[str]:
    lines = [
        "| Lighthouse (mobile) | "
        + " | ".join(CATEGORIES)
        + " | LCP | TBT | bytes | performance, each run |",
        "| --- |" + " --- |" * (len(CATEGORIES) + 4),
    ]
    for page, result in results.items():
        scores = " | ".join(str(result["scores"][name]) for name in CATEGORIES)
        metrics = result["metrics"]
        lines.append(
            f"| {page} | {scores} | {metrics['largest-contentful-paint']} | "
            f"{metrics['total-blocking-time']} | {metrics['total-byte-weight']} | "
            f"{', '.join(map(str, result.get('performance_runs', [])))} |"
        )
    lost = sorted({audit for r in results.values() for audit in r["lost_points"]})
    version = next(iter(results.values()))["lighthouse"]
    return [
        *lines,
        "",
        f"Lighthouse {version}; audits that cost points: {', '.join(lost) or 'none'}.",
    ]


def _axe_lines(axe: dict[str, Any]) -> list[str]:
    return [
        (
            f"- axe-core {axe['axe_core']}: {axe['pages_checked']} page views (every "
            f"page, both languages, light and dark), {len(axe['violations'])} rules "
            "with serious or critical violations"
        ),
        *(
            f"  - {rule} ({found['impact']}): {len(found['pages'])} views, e.g. "
            f"{found['pages'][0]} {found['example']}"
            for rule, found in axe["violations"].items()
        ),
    ]


def _nu_lines(nu: dict[str, Any]) -> list[str]:
    by_count = sorted(nu["by_message"].items(), key=lambda item: -len(item[1]))
    return [
        f"- {nu['vnu']}: {nu['files_checked']} files, {nu['errors']} errors",
        *(
            f"  - {len(places)}x {message[:140]} (e.g. {places[0]})"
            for message, places in by_count
        ),
    ]


def add_to_bench_report(bench: Path, audit: str) -> None:
    """Put the audit into the build benchmark's report, in place of the one
    it had (build_bench.py adds it when it writes the report itself)."""
    if bench.is_file():
        report = bench.read_text(encoding="utf-8").split(AUDIT_HEADING)[0].rstrip()
        bench.write_text(f"{report}\n\n{audit}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--only",
        choices=("weight", "lighthouse", "axe", "nu"),
        action="append",
        help="run only these parts (repeatable); default: all",
    )
    parser.add_argument(
        "--lighthouse-runs", type=int, default=3, help="runs of each page (median kept)"
    )
    parser.add_argument(
        "--site",
        type=Path,
        default=SITE,
        help="the published site to audit (default: build/html)",
    )
    args = parser.parse_args(argv)
    site: Path = args.site.resolve()
    if not (site / "index.html").is_file():
        print(f"no site in {site}: build it first (nox -s docs)")
        return 1
    parts = set(args.only or ("weight", "lighthouse", "axe", "nu"))
    install_node_tools(lighthouse=True)
    version = built_version()
    report: dict[str, Any] = {"version": version}
    path = args.output / "site-audit.json"
    if path.is_file():  # a partial run keeps the other parts' last figures
        report = {**json.loads(path.read_text(encoding="utf-8")), **report}
    if "nu" in parts:
        report["nu"] = nu_report(site, version)
    with serve_directory(site, gzipped=True) as base:
        if "lighthouse" in parts:
            report["lighthouse"] = lighthouse(
                base, version, args.output / "lighthouse", args.lighthouse_runs
            )
        if parts & {"weight", "axe"}:
            with launch_chromium() as browser:
                if "weight" in parts:
                    report["weight"] = page_weights(browser, site, base, version)
                if "axe" in parts:
                    report["axe"] = axe_findings(browser, site, base, version)
    args.output.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    text = markdown(report)
    (args.output / "site-audit.md").write_text(text, encoding="utf-8")
    add_to_bench_report(args.output / "build-bench.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
