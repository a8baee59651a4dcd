"""sphinx-copybutton's text in the site's language.

sphinx-copybutton 0.5 takes its button's label, tooltip and messages from a
table in its script (``_static/copybutton.js``, written from its template),
one entry per language, chosen by the page's ``<html lang>``; it has no
Korean, and any language it lacks gets English. Once the build has written the
script, this adds an entry for the build's language, translated in the
jaxguide messages. A script without that table (a new sphinx-copybutton) is a
warning, which fails the strict build.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from .catalog import _

logger = logging.getLogger(__name__)

SCRIPT = Path("_static") / "copybutton.js"
TABLE = "const messages = {\n"
# sphinx-copybutton's keys, with its English text.
MESSAGES = {
    "copy": _("Copy"),
    "copy_to_clipboard": _("Copy to clipboard"),
    "copy_success": _("Copied!"),
    "copy_failure": _("Failed to copy"),
}


def entry(language: str) -> str:
    """The table's entry for ``language``: its key, then its messages."""
    texts = {key: str(text) for key, text in MESSAGES.items()}
    return f"  {json.dumps(language)}: {json.dumps(texts, ensure_ascii=False)},\n"


def add_language(script: Path, language: str) -> bool:
    """Add ``language`` to the table in ``script`` unless it has it already;
    False if ``script`` has no such table."""
    text = script.read_text(encoding="utf-8")
    start = text.find(TABLE)
    if start < 0:
        return False
    table = text[start : text.find("\n}", start)]
    if re.search(rf"""^\s*['"]{re.escape(language)}['"]\s*:""", table, re.MULTILINE):
        return True
    at = start + len(TABLE)
    script.write_text(text[:at] + entry(language) + text[at:], encoding="utf-8")
    return True


def translate_script(app: Sphinx, exception: Exception | None) -> None:
    script = Path(app.outdir) / SCRIPT
    if exception or app.builder.format != "html" or not script.is_file():
        return
    if not add_language(script, app.config.language):
        logger.warning(
            "jaxguide: %s has no table of messages (%r) to add %r to: see %s",
            script,
            TABLE.strip(),
            app.config.language,
            __name__,
        )
