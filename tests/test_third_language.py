"""A third language is one entry in ``_data/languages.toml`` plus its pages.

tests/roots/third-language lists Korean, English and Japanese, with a page in
each and an English-only page; every language is built with the site's real
configuration, as `nox -s docs` builds the two the guide has.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sphinx.errors import ConfigError

from helpers import (
    PROJECT_DOCS,
    build_each_language,
    build_project,
    built_page,
    sample_project,
)
from jaxguide_site.languages import LANGUAGES, LANGUAGES_FILE, read_languages
from jaxguide_site.translation import checker

ONE = '[[language]]\ncode = "ko"\nname = "x"\nenglish_name = "K"\nlocale = "k"\n'
ENV = {"JAXGUIDE_VERSION": "0.3", "JAXGUIDE_BASE_URL": "https://example.org/g/"}
THREE = ("ko", "en", "ja")


@pytest.fixture(scope="module")
def three_sites(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each language of the sample, built into out/<lang>/html."""
    root = sample_project("third-language", tmp_path_factory.mktemp("t") / "src")
    return build_each_language(root, THREE, ENV)


def test_the_project_lists_its_languages_once() -> None:
    codes = tuple(language.code for language in read_languages(PROJECT_DOCS))
    assert codes == LANGUAGES == ("ko", "en")


def test_the_new_language_is_a_site_of_its_own(three_sites: Path) -> None:
    ja = built_page(three_sites, "ja", "both")
    assert '<html lang="ja"' in ja
    assert 'aria-current="page">日本語</span>' in ja
    assert '<meta property="og:locale" content="ja_JP" />' in ja
    for other in ("ko_KR", "en_US"):
        assert f'<meta property="og:locale:alternate" content="{other}" />' in ja
    assert (three_sites / "ja" / "html" / "search.html").is_file()


@pytest.mark.parametrize("lang", THREE)
def test_every_language_links_every_other(three_sites: Path, lang: str) -> None:
    page = built_page(three_sites, lang, "both")
    base = ENV["JAXGUIDE_BASE_URL"]
    for other in THREE:
        assert (
            f'<link rel="alternate" hreflang="{other}" '
            f'href="{base}{other}/stable/both.html" />'
        ) in page
        if other != lang:
            assert f'href="../../{other}/0.3/both.html" hreflang="{other}"' in page


def test_a_page_the_new_language_lacks_links_its_home(three_sites: Path) -> None:
    en = built_page(three_sites, "en", "english-only")
    assert (
        'href="../../ja/0.3/index.html" hreflang="ja" lang="ja" '
        'data-fallback="home">日本語</a>'
    ) in en


def test_a_language_not_listed_is_refused_by_name(tmp_path: Path) -> None:
    root = sample_project("third-language", tmp_path / "src")
    (root / "fr").mkdir()
    (root / "fr" / "index.md").write_text("# Accueil\n", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        build_project(root / "fr", tmp_path / "out", lang="fr", cache=tmp_path / "c")
    assert "language 'fr' is not one of the guide's (ko, en, ja)" in str(error.value)
    assert LANGUAGES_FILE in str(error.value)


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ("", "no [[language]] entries"),
        (
            '[[language]]\ncode = "ko"\nname = "한국어"\n',
            "missing english_name, locale",
        ),
        (ONE + 'flag = "kr"\n', "unknown flag"),
        (2 * ONE, "listed twice"),
        ("[[language]\n", "not valid TOML"),
    ],
)
def test_a_bad_list_is_named_with_its_problem(
    tmp_path: Path, entries: str, problem: str
) -> None:
    (tmp_path / "_data").mkdir()
    (tmp_path / LANGUAGES_FILE).write_text(entries, encoding="utf-8")
    with pytest.raises(ValueError, match=str(tmp_path)) as error:
        read_languages(tmp_path)
    assert problem in str(error.value)


@pytest.mark.parametrize("project", [LANGUAGES, THREE], ids=["two", "three"])
def test_the_checker_says_it_compares_two_languages(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    project: tuple[str, ...],
) -> None:
    """Whether the project or only the folder checked lists a third."""
    monkeypatch.setattr(checker, "LANGUAGES", project)
    root = sample_project("third-language", tmp_path / "src")
    with pytest.raises(SystemExit) as stop:
        checker.main(["check", "--docs", str(root)])
    assert stop.value.code == 2
    said = capsys.readouterr().err
    assert f"{LANGUAGES_FILE} lists ko, en, ja: the checker compares two" in said
