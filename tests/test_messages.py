"""The site's own interface text: one gettext domain
(src/jaxguide_site/interface_text/messages.py), the Korean catalog complete."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from helpers import REPO
from jaxguide_site.interface_text.messages import (
    DOMAIN,
    LOCALE_DIR,
    catalogs,
    extract,
    translations,
)


def messages(po: Path) -> dict[str, str]:
    with po.open("rb") as source:
        catalog = read_po(source, domain=DOMAIN)
    return {str(m.id): str(m.string) for m in catalog if m.id}


def test_the_template_holds_every_message_the_code_and_templates_use() -> None:
    used = {str(m.id) for m in extract(REPO) if m.id}
    assert {"Guide version", "Read the original", "Search..."} <= used
    assert set(messages(LOCALE_DIR / f"{DOMAIN}.pot")) == used, (
        "the template is out of date: run `nox -s messages`"
    )


@pytest.mark.parametrize("language", ["ko"])
def test_each_catalog_translates_every_message_and_only_those(language: str) -> None:
    used = {str(m.id) for m in extract(REPO) if m.id}
    catalog = messages(catalogs()[language])
    assert set(catalog) == used, "run `nox -s messages`, then translate"
    untranslated = [message for message, text in catalog.items() if not text]
    assert not untranslated, f"{language}: translate {untranslated}"


def test_publishing_reads_the_catalog_without_sphinx() -> None:
    assert translations("ko").gettext("stable") == "최신 릴리스"
    assert translations("en").gettext("stable") == "stable"
    assert translations("fr").gettext("development") == "development"
