"""The ``jaxguide`` messages in a Sphinx build (see :mod:`.messages`).

:data:`_` marks a message in Python; Sphinx translates it into the build's
language when the text is used, so a module-level constant is translated in
each build. Templates get ``jaxguide_text``, the same translation.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.locale import get_translation

from .messages import DOMAIN, LOCALE_DIR, compile_catalogs

_ = get_translation(DOMAIN)


def _add_to_templates(
    _app: Sphinx, _page: str, _template: str, context: dict[str, Any], _doc: Any
) -> None:
    context["jaxguide_text"] = lambda message: str(_(message))


def setup(app: Sphinx) -> None:
    compile_catalogs()
    app.add_message_catalog(DOMAIN, str(LOCALE_DIR))
    app.connect("html-page-context", _add_to_templates)
