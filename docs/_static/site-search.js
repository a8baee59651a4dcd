/* The search page: Pagefind's UI, with results while typing
 * (src/jaxguide_site/site_search.py). On the Korean site, language_data.js
 * defines KoreanSearch: the query loses its particles and endings there, by
 * the rules the Korean index of korean_search.py uses ("jit으로" -> "jit"). */
"use strict";
window.addEventListener("DOMContentLoaded", () => {
  const element = document.getElementById("search");
  const korean = typeof KoreanSearch === "undefined" ? null : KoreanSearch;
  const stem = (term) =>
    splitQuery(term)
      .map((word) => (korean.isHangul(word) ? korean.stemHangul(word) : word))
      .join(" ");
  // site_search.py's hidden words rank a page but are not prose to show: an
  // excerpt cut from them becomes the page's opening words, and a heading
  // result cut from them goes. They are joined by U+2E31, which no page writes.
  const joiner = "\u2e31";
  const opening = (content) => content.split(/\s+/).slice(0, 30).join(" ");
  const processResult = (result) => {
    const page = result.url.split("#")[0];
    if (result.excerpt.includes(joiner)) result.excerpt = opening(result.content);
    result.sub_results = result.sub_results.flatMap((sub) => {
      if (!sub.excerpt.includes(joiner)) return [sub];
      return sub.url === page ? [{ ...sub, excerpt: result.excerpt }] : [];
    });
    return result;
  };
  const ui = new PagefindUI({
    element,
    bundlePath: new URL(element.dataset.bundle, window.location.href).href,
    showSubResults: true,
    showImages: false,
    debounceTimeoutMs: 0, // search on every keystroke
    autofocus: true, // and load the index while the page opens
    processTerm: korean === null ? undefined : stem,
    processResult,
  });
  // The page's heading, visible, names the box (Pagefind gives it a title only).
  element.querySelector("input").setAttribute("aria-labelledby", "search-title");
  // The query in the address as the reader types (the language switcher
  // keeps it; the theme's search box sends it).
  const query = new URLSearchParams(window.location.search).get("q");
  if (query) ui.triggerSearch(query);
  element.addEventListener("input", (event) => {
    const url = new URL(window.location.href);
    url.searchParams.set("q", event.target.value);
    window.history.replaceState(null, "", url);
  });
});
