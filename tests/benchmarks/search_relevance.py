"""Search relevance: does the site's search put the right page first?

For every query of tests/benchmarks/search_queries.toml (what a learner types,
with the page that teaches it), in Debian's Chromium on the built site served
on localhost, as a reader searches: on the language's search page, click the
search box, type the query a character every 100 ms and, where the engine
does not search as you type, press Enter. Then read the results off the page,
in order, and time the keystroke that completed the query (the last letter,
or Enter) to the moment the results that stay on screen first showed their
top three.

Per language and for all queries it prints the share of queries whose page
came first (top-1) and among the first three (top-3), and the median
keystroke-to-results time (median over queries of each query's median over
``--rounds``), then every query that missed; it writes the figures to
build/search-relevance.json and build/search-relevance.md. The targets
(issue 23) are ``TARGETS``; tests/test_search_browser.py holds the site to
them. ``SPHINX`` is how the engine before Pagefind was measured.

Run it with the tests' environment: ``.nox/tests/bin/python -m
tests.benchmarks.search_relevance`` (after `nox -s docs`). A measurement:
where there is no site or no browser it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.browser import (
    BrowserUnavailable,
    block_external_requests,
    launch_chromium,
    result_page,
    serve_directory,
)
from tests.helpers import REPO, SITE, built_version

if TYPE_CHECKING:
    from playwright.sync_api import Page

QUERIES = Path(__file__).with_name("search_queries.toml")
OUTPUT = REPO / "build" / "search-relevance.json"
# Issue 23: the right page first for 90 % of queries, in the top 3 for all,
# under 100 ms from keystroke to results (a 2-core machine).
TARGETS = {"top1": 0.9, "top3": 1.0, "median_ms": 100.0}
TOP = 3
TYPING_MS = 100  # between keystrokes: a fast typist (a Hangul syllable is 2-3 keys)


@dataclass(frozen=True)
class Query:
    lang: str
    query: str
    pages: tuple[str, ...]  # the page that teaches it (or either of two)
    kind: str


def load_queries(path: Path = QUERIES) -> list[Query]:
    """The queries of ``path``, Korean first, in file order."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        Query(lang, entry["query"], tuple(entry["pages"]), entry["kind"])
        for lang in ("ko", "en")
        for entry in data[lang]
    ]


# Runs before the page's scripts, on every page: the time of each keystroke
# (keydown or input) in a search box (kept in sessionStorage: Enter may navigate to a new page), the
# time each new top three appeared and the time of the page's last change
# (when "no results" showed, where that is the outcome), from the mutations
# themselves. Times are performance.timeOrigin + now(), comparable across a
# navigation.
_MARKS_SCRIPT = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const log = (window.__jaxguideTops = []);
  window.__jaxguideChanged = now();
  const key = (event) => {
    if (event.target.matches("input")) sessionStorage.jaxguideKey = now();
  };
  // Enter is a keydown; Hangul, typed as text, is only an input event.
  document.addEventListener("keydown", key, true);
  document.addEventListener("input", key, true);
  let last = "";
  new MutationObserver(() => {
    window.__jaxguideChanged = now();
    const top = [...document.querySelectorAll(RESULT_LINKS)].slice(0, TOP)
      .map((link) => link.getAttribute("href")).join(" ");
    if (top !== last) log.push([now(), (last = top)]);
  }).observe(document, { childList: true, subtree: true, attributes: true });
})();
"""


@dataclass(frozen=True)
class Engine:
    """What the reader's search looks like on the page, for one engine."""

    name: str
    search_box: str  # the search page's own search box
    result_links: str  # one link per result, best first
    as_you_type: bool  # results while typing, without Enter
    done: str  # a JS predicate: the results for the typed query are all shown


SPHINX = Engine(
    name="sphinx",
    search_box=".bd-search-container input[name='q']",
    result_links="#search-results ul.search > li > a",
    as_you_type=False,
    # searchtools.js stops its "Searching..." pulse when it has shown them all.
    done="""() => document.querySelector("#search-results ul.search") !== null
      && typeof Search !== "undefined" && Search._pulse_status === -1""",
)
PAGEFIND = Engine(
    name="pagefind",
    search_box="#search input.pagefind-ui__search-input",
    result_links=".pagefind-ui__result-inner > .pagefind-ui__result-title > a",
    as_you_type=True,
    # The results of the typed query are shown: the message names the query
    # and the list of results follows it (empty where nothing was found;
    # while searching, "Searching for ..." stands alone), and no result is
    # still loading. No waiting for the page to fall quiet: how long a busy
    # machine takes to search must not change what is read off the page.
    done="""() => {
      const message = document.querySelector("#search .pagefind-ui__message");
      const box = document.querySelector("#search input");
      if (message === null || box === null || box.value.trim() === "") return false;
      return message.textContent.includes(box.value.trim())
        && document.querySelector("#search ol.pagefind-ui__results") !== null
        && document.querySelector("#search .pagefind-ui__loading") === null;
    }""",
)
ENGINES = (PAGEFIND, SPHINX)


@dataclass(frozen=True)
class Outcome:
    query: Query
    found: tuple[str, ...]  # the result pages in order (the first ten)
    ms: float  # median keystroke-to-results time over the rounds

    @property
    def rank(self) -> int | None:
        """Where the right page first comes, from 1; None if it does not."""
        ranks = [i for i, page in enumerate(self.found, 1) if page in self.query.pages]
        return ranks[0] if ranks else None


def detect_engine(page: Page) -> Engine:
    for engine in ENGINES:
        if page.locator(engine.search_box).count():
            return engine
    msg = f"no known search box on {page.url}"
    raise RuntimeError(msg)


def result_links(page: Page, engine: Engine) -> list[str]:
    """The shown results' addresses, best first."""
    hrefs: list[str] = page.evaluate(
        f"() => [...document.querySelectorAll({json.dumps(engine.result_links)})]"
        ".map((link) => link.getAttribute('href'))"
    )
    return hrefs


def search_once(
    page: Page, engine: Engine, search_url: str, text: str
) -> tuple[list[str], float]:
    """Type ``text`` into the search page's box as a reader does; the result
    pages in order and the keystroke-to-results milliseconds."""
    page.goto(search_url)
    page.locator(engine.search_box).click()
    page.keyboard.type(text, delay=TYPING_MS)
    if engine.as_you_type:
        page.wait_for_function(engine.done, timeout=20_000)
    else:
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.wait_for_function(engine.done, timeout=20_000)
    hrefs = result_links(page, engine)
    key, changed, tops = page.evaluate(
        "() => [Number(sessionStorage.jaxguideKey), window.__jaxguideChanged,"
        " window.__jaxguideTops]"
    )
    final = " ".join(hrefs[:TOP])
    # The first time the final top three showed after the keystroke; where
    # nothing was found, the page's last change.
    shown = next((t for t, top in tops if t >= key and top == final), None)
    if not final:
        shown = changed
    assert shown is not None, (text, final, tops)
    return [result_page(href) for href in hrefs], shown - key


def rank_once(page: Page, engine: Engine, text: str) -> list[str]:
    """The result pages for ``text`` put into the open search page's box at
    once, as a paste does (one search, no keystrokes: nothing is timed)."""
    # The message names the query: until it changes, what shows is the last
    # query's, which `done` alone could take for this one's (a query inside
    # the last one's message).
    before = page.evaluate(
        """([selector, text]) => {
          const message = document.querySelector("#search .pagefind-ui__message");
          const before = message === null ? null : message.textContent;
          const box = document.querySelector(selector);
          box.value = text;
          box.dispatchEvent(new Event("input", { bubbles: true }));
          return before;
        }""",
        [engine.search_box, text],
    )
    page.wait_for_function(
        f"""(before) => {{
          const message = document.querySelector("#search .pagefind-ui__message");
          return message !== null && message.textContent !== before
            && ({engine.done})();
        }}""",
        arg=before,
        timeout=20_000,
    )
    return [result_page(href) for href in result_links(page, engine)]


def measure(
    site: Path, queries: list[Query], rounds: int, *, ranks_only: bool = False
) -> tuple[Engine, str, list[Outcome]]:
    """Every query, ``rounds`` times, in one browser: the engine, Chromium's
    version and the outcomes, in the order of ``queries``. ``ranks_only``:
    each query pasted once into one open search page per language, untimed
    (a few seconds instead of minutes of typing; what the tests check)."""
    version = built_version()
    times: dict[Query, list[float]] = {q: [] for q in queries}
    found: dict[Query, tuple[str, ...]] = {}
    errors: list[str] = []
    with serve_directory(site) as base_url, launch_chromium() as browser:
        context = browser.new_context()
        page = context.new_page()
        block_external_requests(page, base_url)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base_url}/{queries[0].lang}/{version}/search.html")
        engine = detect_engine(page)
        page.add_init_script(
            _MARKS_SCRIPT.replace("RESULT_LINKS", json.dumps(engine.result_links))
            .replace("TOP", str(TOP))
        )  # fmt: skip
        for lang in dict.fromkeys(q.lang for q in queries):
            search_url = f"{base_url}/{lang}/{version}/search.html"
            if ranks_only and engine.as_you_type:
                page.goto(search_url)
                for query in (q for q in queries if q.lang == lang):
                    found[query] = tuple(rank_once(page, engine, query.query)[:10])
                    times[query].append(math.nan)
                continue
            search_once(page, engine, search_url, "jax")  # warm-up: the caches
            for _ in range(rounds):
                for query in (q for q in queries if q.lang == lang):
                    pages, ms = search_once(page, engine, search_url, query.query)
                    times[query].append(ms)
                    found[query] = tuple(pages[:10])
        context.close()
        chromium = browser.version
    assert not errors, f"script errors while searching: {errors}"
    outcomes = [Outcome(q, found[q], statistics.median(times[q])) for q in queries]
    return engine, chromium, outcomes


def summary(outcomes: list[Outcome]) -> dict[str, dict[str, Any]]:
    """Per language and for all queries ("all"): the number of queries,
    top-1 and top-3 rates, the median keystroke-to-results time, and the
    queries that missed top-1."""
    groups = {
        lang: [o for o in outcomes if o.query.lang == lang]
        for lang in dict.fromkeys(o.query.lang for o in outcomes)
    }
    groups["all"] = outcomes
    return {
        name: {
            "queries": len(mine),
            "top1": sum(o.rank == 1 for o in mine) / len(mine),
            "top3": sum(o.rank is not None and o.rank <= TOP for o in mine) / len(mine),
            "median_ms": statistics.median(o.ms for o in mine),
            "misses": [
                {"query": o.query.query, "kind": o.query.kind,
                 "pages": list(o.query.pages), "rank": o.rank,
                 "top3": list(o.found[:TOP])}
                for o in mine if o.rank != 1
            ],
        }
        for name, mine in groups.items()
    }  # fmt: skip


def _ms(value: float) -> str:
    return "not timed" if math.isnan(value) else f"{value:.1f} ms"


def markdown(report: dict[str, Any]) -> str:
    title = (
        f"Search relevance ({report['engine']}, Chromium {report['chromium']}, "
        f"{report['rounds']} rounds)"
    )
    lines = [
        title,
        "",
        "| site | queries | top-1 | top-3 | median keystroke to results |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for lang, entry in report["summary"].items():
        lines.append(
            f"| {lang} | {entry['queries']} | {entry['top1']:.0%} "
            f"| {entry['top3']:.0%} | {_ms(entry['median_ms'])} |"
        )
    limit = report["targets"]["median_ms"]
    slow = [
        lang for lang, entry in report["summary"].items() if entry["median_ms"] >= limit
    ]
    verdict = f"missed by {', '.join(slow)}" if slow else "met by every site"
    if any(math.isnan(entry["median_ms"]) for entry in report["summary"].values()):
        verdict = "not measured (--ranks-only)"
    lines += [
        "",
        f"Speed target (median keystroke to results under {limit:.0f} ms): {verdict}.",
    ]
    lines += ["", "| site | query | kind | right page | rank | top 3 |",
              "| --- | --- | --- | --- | ---: | --- |"]  # fmt: skip
    for lang, entry in report["summary"].items():
        if lang == "all":
            continue
        lines.extend(
            f"| {lang} | {miss['query']} | {miss['kind']} | {' or '.join(miss['pages'])} "
            f"| {miss['rank'] or '-'} | {' '.join(miss['top3'])} |"
            for miss in entry["misses"]
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--site", type=Path, default=SITE, help="the built site")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="the JSON report")
    parser.add_argument(
        "--ranks-only",
        action="store_true",
        help="paste each query once, untimed: the ranks in seconds (the tests)",
    )
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(
            f"search_relevance: no built site at {args.site}: run `nox -s docs` first"
        )
        return 0
    queries = load_queries()
    try:
        engine, chromium, outcomes = measure(
            args.site, queries, args.rounds, ranks_only=args.ranks_only
        )
    except BrowserUnavailable as error:
        print(f"search_relevance: {error}")
        return 0
    report = {
        "engine": engine.name,
        "as_you_type": engine.as_you_type,
        "chromium": chromium,
        "rounds": 1 if args.ranks_only else args.rounds,
        "targets": TARGETS,
        "summary": summary(outcomes),
        "queries": [{**asdict(o.query), "rank": o.rank, "found": o.found, "ms": o.ms}
                    for o in outcomes],
    }  # fmt: skip
    text = markdown(report)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    args.output.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"\nWritten to {args.output} and {args.output.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
