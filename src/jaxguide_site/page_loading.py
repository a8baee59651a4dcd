"""What a page makes the reader wait for, and what the site publishes.

**Scripts.** Sphinx and the themes' extensions put their scripts in
``<head>`` without ``defer``: the browser stops reading the page at each
until it has arrived and run, so a phone on a slow network sees nothing
meanwhile. None of them needs to run before the page is read (each waits for
``DOMContentLoaded`` or only defines functions that buttons call later), so
each is deferred: fetched at once, run in order once the page is parsed.
``documentation_options.js`` stays as it is: the inline scripts after it set
``DOCUMENTATION_OPTIONS``' fields as soon as they are read (and it is under
1 kB, fetched while the stylesheets that block the first paint still load).

**Colour scheme.** pydata-sphinx-theme's inline script in ``<head>`` sets
``<html data-theme>`` to the stored theme, or on a first visit to the
configured default, ``auto``, which no stylesheet rule matches; its main
script resolves ``auto`` to ``light`` or ``dark`` only once the page has
been read, and that change restyles every element of it (on jit or
autodiff, 5,000 elements: about 260 ms of a phone's main thread, the
largest part of Lighthouse's blocking time, and a colour transition on top).
One more inline statement resolves the scheme before the body is read, as
the theme's script would, so that script then changes nothing.

**Published files.** The themes keep the Jinja macros their templates import
(``webpack-macros.html``, ``sbt-webpack-macros.html``) in their static
folders, so Sphinx copies them to ``_static`` with the files readers load:
templates at public addresses, which no page links and which are not HTML a
browser could show. After the build they are removed.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE

# Read by the inline scripts that follow it: it has to run first.
RUN_AT_ONCE = frozenset({"documentation_options.js"})
LOADING_ATTRIBUTES = ("defer", "async")
# pydata-sphinx-theme's setTheme(), run early: in "auto" mode the scheme
# follows the system's preference.
RESOLVE_COLOUR_SCHEME = (
    "(function (html) {"
    ' if (html.dataset.mode === "auto" || html.dataset.theme === "auto")'
    ' html.dataset.theme = matchMedia("(prefers-color-scheme: dark)").matches'
    ' ? "dark" : "light";'
    "})(document.documentElement);"
)


def script_name(filename: str) -> str:
    """``_static/doctools.js?v=1`` -> ``doctools.js``."""
    return filename.split("?", 1)[0].rsplit("/", 1)[-1]


def needs_deferring(filename: str | None, attributes: dict[str, str]) -> bool:
    """Whether a script Sphinx writes into ``<head>`` blocks the page and may
    wait: a file (not inline code) with no loading attribute of its own.

    >>> needs_deferring("_static/doctools.js", {})
    True
    >>> needs_deferring("_static/documentation_options.js", {})
    False
    >>> needs_deferring("x.js", {"async": "async"}), needs_deferring(None, {})
    (False, False)
    """
    if not filename or script_name(str(filename)) in RUN_AT_ONCE:
        return False
    if attributes.get("type") == "module":
        return False
    return not any(name in attributes for name in LOADING_ATTRIBUTES)


def defer_scripts(
    _app: Sphinx,
    _pagename: str,
    _templatename: str,
    context: dict[str, Any],
    _doctree: Any,
) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    # In place: the list is the builder's, which scripts added later join.
    scripts[:] = [
        type(script)(
            script.filename,
            priority=script.priority,
            **{**script.attributes, "defer": "defer"},
        )
        if needs_deferring(script.filename, script.attributes)
        else script
        for script in scripts
    ]


def remove_theme_templates(app: Sphinx, exception: Exception | None) -> None:
    """Remove the templates the themes' static folders hold from ``_static``:
    a reader loads no HTML file from there."""
    static = Path(app.outdir) / "_static"
    if exception is not None or app.builder.format != "html" or not static.is_dir():
        return
    for template in static.rglob("*.html"):
        template.unlink()


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_js_file(None, body=RESOLVE_COLOUR_SCHEME)
    # After the handlers that add a page's scripts (default priority 500).
    app.connect("html-page-context", defer_scripts, priority=900)
    return PARALLEL_SAFE
