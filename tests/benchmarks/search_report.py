"""Search index size and query time of the built site, Korean against English.

Serves build/html on localhost, opens Sphinx's search page in Debian's
Chromium (through Playwright, as the browser tests do) and, for five queries
per language that mean the same thing, measures over ``--rounds`` rounds:

- first result / finished: milliseconds from the navigation to
  ``search.html?q=...`` (what the search box submits) until the first result
  shows, and until Sphinx has shown them all and finished the search.
  Page, scripts and searchindex.js come from the browser's cache after one
  untimed warm-up search per site; the cold first search is reported apart.
  Sphinx shows results one at a time, 5 ms apart, so "finished" grows with
  the number of results.
- query: Sphinx's query pipeline alone (split, stem, score every page), in
  the page, the median of 10 means of 10 runs.

It prints a Markdown table and writes the figures to build/search-report.json.
Run it with the tests' environment: ``.nox/tests/bin/python
tests/benchmarks/search_report.py`` (after `nox -s tests` or `nox -s docs`).
A measurement, not a test: where there is no site or no browser it says so
and exits 0.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from tests.browser import (
    BrowserUnavailable,
    SitePage,
    block_external_requests,
    launch_chromium,
    serve_directory,
)
from tests.helpers import REPO, SITE, built_version

# Five queries per language, the same five ideas.
QUERIES = {
    "ko": ("컴파일", "함수", "난수", "벡터화", "미분"),
    "en": ("compile", "function", "random", "vectorization", "differentiation"),
}


def index_sizes(site: Path, lang: str) -> dict[str, int]:
    data = (site / lang / built_version() / "searchindex.js").read_bytes()
    return {
        "searchindex_bytes": len(data),
        "searchindex_gzip_bytes": len(gzip.compress(data, compresslevel=6, mtime=0)),
    }


def measure(site: Path, rounds: int) -> dict[str, Any]:
    """Every figure of the report, for each language of ``QUERIES``."""
    samples: dict[str, dict[str, dict[str, list[float]]]] = {
        lang: {q: {"first": [], "finished": [], "query": []} for q in queries}
        for lang, queries in QUERIES.items()
    }
    counts: dict[str, dict[str, int]] = {lang: {} for lang in QUERIES}
    tops: dict[str, dict[str, list[str]]] = {lang: {} for lang in QUERIES}
    cold: dict[str, float] = {}
    with serve_directory(site) as base_url, launch_chromium() as browser:
        version = browser.version
        context = browser.new_context()
        page = context.new_page()
        block_external_requests(page, base_url)
        site_page = SitePage(page, base_url, version=built_version())
        for lang, queries in QUERIES.items():  # warm-up: fills the cache
            cold[lang] = site_page.search(lang, queries[0]).finished_ms
        for _ in range(rounds):
            for lang, queries in QUERIES.items():
                for query in queries:
                    outcome = site_page.search(lang, query)
                    sample = samples[lang][query]
                    if outcome.first_result_ms is not None:
                        sample["first"].append(outcome.first_result_ms)
                    sample["finished"].append(outcome.finished_ms)
                    sample["query"].append(site_page.query_ms(query))
                    counts[lang][query] = len(outcome.pages)
                    tops[lang][query] = list(outcome.top(3))
        context.close()

    def median(values: list[float]) -> float | None:
        return round(statistics.median(values), 3) if values else None

    sites: dict[str, Any] = {}
    for lang, per_query in samples.items():
        sites[lang] = {
            **index_sizes(site, lang),
            "cold_first_search_finished_ms": round(cold[lang], 2),
            "queries": {
                query: {
                    "results": counts[lang][query],
                    "top3": tops[lang][query],
                    "first_result_ms": median(sample["first"]),
                    "finished_ms": median(sample["finished"]),
                    "query_ms": median(sample["query"]),
                }
                for query, sample in per_query.items()
            },
            "median_first_result_ms": median(
                [v for s in per_query.values() for v in s["first"]]
            ),
            "median_finished_ms": median(
                [v for s in per_query.values() for v in s["finished"]]
            ),
            "median_query_ms": median(
                [v for s in per_query.values() for v in s["query"]]
            ),
        }
    return {"rounds": rounds, "chromium": version, "sites": sites}


def table(report: dict[str, Any]) -> str:
    def ms(value: float | None, digits: int = 1) -> str:
        return "-" if value is None else f"{value:.{digits}f}"

    lines = [
        "| site | query | results | top 3 | first result ms | finished ms | query ms |",
        "| --- | --- | ---: | --- | ---: | ---: | ---: |",
    ]
    for lang, entry in report["sites"].items():
        for query, row in entry["queries"].items():
            lines.append(
                f"| {lang} | {query} | {row['results']} | {' '.join(row['top3'])} "
                f"| {ms(row['first_result_ms'])} | {ms(row['finished_ms'])} "
                f"| {ms(row['query_ms'], 2)} |"
            )
        lines.append(
            f"| {lang} | **median** | | | {ms(entry['median_first_result_ms'])} "
            f"| {ms(entry['median_finished_ms'])} | {ms(entry['median_query_ms'], 2)} |"
        )
    lines.append("")
    lines.append(
        "| site | searchindex.js bytes | gzip -6 bytes | cold first search ms |"
    )
    lines.append("| --- | ---: | ---: | ---: |")
    lines.extend(
        f"| {lang} | {entry['searchindex_bytes']:,} "
        f"| {entry['searchindex_gzip_bytes']:,} "
        f"| {ms(entry['cold_first_search_finished_ms'])} |"
        for lang, entry in report["sites"].items()
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--site", type=Path, default=SITE, help="the built site")
    parser.add_argument(
        "--output",
        type=Path,
        default=REPO / "build" / "search-report.json",
        help="where to write the JSON (default build/search-report.json)",
    )
    args = parser.parse_args(argv)
    try:
        version = built_version()
    except FileNotFoundError:
        version = "dev"
    if not all(
        (args.site / lang / version / "searchindex.js").is_file() for lang in QUERIES
    ):
        print(f"search_report: no built site at {args.site}: run `nox -s docs` first")
        return 0
    try:
        report = measure(args.site, args.rounds)
    except BrowserUnavailable as error:
        print(f"search_report: {error}")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    print(f"Search on {args.site} ({report['chromium']}, {args.rounds} rounds)\n")
    print(table(report))
    print(f"\nWritten to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
