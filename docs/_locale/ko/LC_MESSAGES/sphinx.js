// The Korean messages of the scripts Sphinx puts on every page (Sphinx copies
// this file to _static/translations.js in place of its own catalog). Only
// sphinx_highlight.js shows one, the link that removes the highlighted search
// words, which Sphinx's own Korean words awkwardly. The rest of Sphinx's
// catalog is for searchtools.js, Sphinx's search, which no page loads.
Documentation.addTranslations({"locale": "ko", "messages": {"Hide Search Matches": "검색어 강조 지우기"}, "plural_expr": "0"});
