/* The search page: Pagefind's UI, with results while typing
 * (src/jaxguide_site/site_search.py). On the Korean site, korean-query.js
 * defines KoreanSearch (src/jaxguide_site/korean_search.py): the query loses
 * its particles and endings ("jit으로" -> "jit") and a spoken ending no page
 * writes ("첫 호출이 느려요" -> "첫 호출"). */
"use strict";
window.addEventListener("DOMContentLoaded", () => {
  const element = document.getElementById("search");
  const korean = typeof KoreanSearch === "undefined" ? null : KoreanSearch;
  // Pagefind finds only pages with every word of the query, so the words a
  // question is asked with ("why is jit slow", "my function recompiles")
  // are left out, on both sites, and "jax", which every page is about; a
  // query of nothing else is searched as typed.
  const ASKING = new Set(
    ("jax a an the my our your i me we you it its this that these those is are " +
     "was were be been am do does did can could should would will why how " +
     "what when where which who to of in on for with at by from about into " +
     "so too very just keep keeps get gets getting not no don't doesn't " +
     "isn't won't can't").split(" "),
  );
  const words = (term) => (korean === null ? term.split(/\s+/) : korean.query(term));
  const processTerm = (term) => {
    const kept = words(term).filter((word) => word && !ASKING.has(word.toLowerCase()));
    return kept.length > 0 ? kept.join(" ") : term;
  };

  // Excerpts are whole sentences of prose around the best match, not
  // Pagefind's window of 30 words, which starts and ends mid-sentence.
  // Code and outputs are not indexed (site_search.py), so the prose is the
  // page's content up to site_search.py's hidden words: they rank a page but
  // are no text to show, and each block of them starts with U+2E31, which no
  // page writes.
  const joiner = "\u2e31";
  const LONGEST = 36; // words: Pagefind's 30, and room to end the sentence
  // A sentence ends with . ! ? (and closing quotes or brackets) or, before
  // code that is not indexed, with ":". Not with an ellipsis in code, such as
  // `save(step, args=...)`, nor with a slice such as `c[:]`.
  const ends = (word) => /(?:(?<!\.)[.!?]["'”’)\]]*|:)$/.test(word ?? ".");
  // Never across a section's start (Pagefind's anchors): its heading begins
  // a sentence; ``limit``: where the prose ends.
  const sentenceAround = (words, hit, sections, limit) => {
    const from = Math.max(0, ...sections.filter((at) => at <= hit));
    limit = Math.min(limit, ...sections.filter((at) => at > hit));
    let start = hit;
    while (start > from && !ends(words[start - 1]) && hit - start < LONGEST) start--;
    // A sentence too long to show whole: from a few words before the match.
    const fromStart = hit - start < LONGEST - 10;
    if (!fromStart) start = Math.max(from, hit - 8);
    let end = hit + 1;
    while (end < limit && !ends(words[end - 1]) && end - start < LONGEST) end++;
    // A short sentence: the next one too, where it fits.
    while (end < limit && end - start < LONGEST / 2) {
      let next = end + 1;
      while (next < limit && !ends(words[next - 1])) next++;
      if (next - start > LONGEST) break;
      end = next;
    }
    return { start, end, cut: [!fromStart, !ends(words[end - 1]) && end < limit] };
  };
  const excerptOf = (words, hits, sections, limit) => {
    const prose = hits.filter((hit) => hit.location < limit);
    // Pagefind's best-scored word, the first of equals; no match in the
    // prose (only the hidden words): the page's opening sentences.
    const best = prose.reduce(
      (a, b) => (b.balanced_score > a.balanced_score ? b : a),
      prose[0] ?? { location: 0 },
    );
    const { start, end, cut } = sentenceAround(words, best.location, sections, limit);
    const marked = new Set(prose.map((hit) => hit.location));
    const text = words
      .slice(start, end)
      .map((word, i) => (marked.has(start + i) ? `<mark>${word}</mark>` : word))
      .join(" ");
    return `${cut[0] ? "… " : ""}${text}${cut[1] ? " …" : ""}`;
  };
  const processResult = (result) => {
    const page = result.url.split("#")[0];
    const words = result.raw_content.split(/[\r\n\s]+/g);
    const hidden = words.indexOf(joiner);
    const limit = hidden === -1 ? words.length : hidden;
    const sections = result.anchors.map((anchor) => anchor.location);
    result.excerpt = excerptOf(words, result.weighted_locations, sections, limit);
    result.sub_results = result.sub_results.flatMap((sub) => {
      if (sub.locations.every((location) => location >= limit)) {
        return sub.url === page ? [{ ...sub, excerpt: result.excerpt }] : [];
      }
      const excerpt = excerptOf(words, sub.weighted_locations, sections, limit);
      return [{ ...sub, excerpt }];
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
    processTerm,
    // Its words in the site's (src/jaxguide_site/site_search.py, UI_TEXT).
    translations: JSON.parse(element.dataset.text),
    // The weights of the pages' keyword fields (site_search.py, RANKING).
    ranking: JSON.parse(element.dataset.ranking),
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
