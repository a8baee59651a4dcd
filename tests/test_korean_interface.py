"""Korean pages speak Korean around the content too: the themes', Sphinx's,
the copy button's and myst-nb's interface text (docs/_locale,
src/jaxguide_site/interface_text), and Korean lines break between words
(docs/_static/jaxguide.css). On tests/roots/korean-pages, built in process;
the browser tests open it in Chromium, on a phone's screen."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from browser import serve_directory, site_page
from jaxguide_site.interface_text.copy_button import add_language
from korean_pages import build_korean_pages

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

HANGUL = re.compile(r"[가-힣]")
# Korean that was wrong, each where it was.
KNOWN_BAD = (
    "으로 The jaxguide authors",  # the footer: sphinx-book-theme's "By"
    "다운로드",  # the download menu mixed it with 내려받기
    "전체 화면으로보기",
    "카테고리",  # search found nothing: "select enough categories"
    "검색 일치 숨기기",  # "Hide Search Matches"
    "Toggle hidden content",  # the solutions' toggle
    "The jaxguide authors",  # the footer's author and copyright (issue 45)
    "Copyright",
)
# English that Korean pages show on purpose.
ENGLISH_ON_PURPOSE = {
    "English",  # the language switcher names each language in that language
    "Colab",  # a product's name
    ".ipynb",  # the download menu's file types
    ".md",
    ".pdf",
    "dev",  # the guide's version
}
PAGES = ("page", "index", "search", "genindex")


class InterfaceText(HTMLParser):
    """The English in a page's interface: text outside the article (the
    sidebars, header, footer) and outside code, and every title, label,
    alternative text, placeholder and tooltip, the article's too."""

    SKIP = frozenset({"article", "pre", "code", "kbd", "script", "style"})
    ATTRIBUTES = frozenset(
        {"title", "aria-label", "alt", "placeholder", "data-tooltip"}
    )

    def __init__(self) -> None:
        super().__init__()
        self.inside_skipped = 0
        self.english: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside_skipped += tag in self.SKIP
        for name, value in attrs:
            if name in self.ATTRIBUTES and value:
                self._note(value)

    def handle_endtag(self, tag: str) -> None:
        self.inside_skipped -= tag in self.SKIP

    def handle_data(self, data: str) -> None:
        if not self.inside_skipped:
            self._note(" ".join(data.split()))

    def _note(self, text: str) -> None:
        if re.search(r"[A-Za-z]{2,}", text) and not HANGUL.search(text):
            self.english.add(text)


def english_interface(html: str) -> set[str]:
    parser = InterfaceText()
    parser.feed(html)
    return parser.english


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/roots/korean-pages built in both languages."""
    return build_korean_pages(tmp_path_factory.mktemp("korean-pages"))


def read(sample: Path, lang: str, name: str) -> str:
    return (sample / lang / "html" / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", PAGES)
def test_korean_pages_show_no_english_interface_text(sample: Path, name: str) -> None:
    assert english_interface(read(sample, "ko", f"{name}.html")) <= ENGLISH_ON_PURPOSE
    # What the check looks at is in English on the English page.
    english = english_interface(read(sample, "en", f"{name}.html"))
    assert {"Skip to main content", "Back to top", "Search..."} <= english


@pytest.mark.parametrize(
    "name",
    [*(f"{page}.html" for page in PAGES), "_static/translations.js"],
)
def test_korean_pages_have_none_of_the_known_bad_strings(
    sample: Path, name: str
) -> None:
    text = read(sample, "ko", name)
    assert [bad for bad in KNOWN_BAD if bad in text] == []


def test_footer_download_menu_and_solution_toggle(sample: Path) -> None:
    page = read(sample, "ko", "page.html")
    assert re.search(r'class="component-author">\s*지은이: jaxguide 기여자', page)
    assert "© 2026, jaxguide 기여자." in page
    assert 'aria-label="이 페이지 내려받기"' in page
    assert 'title="소스 파일 내려받기"' in page
    # Named by the prompt it shows (풀이 보기 or 풀이 숨기기), not by a label.
    assert (
        '<summary>\n<span class="collapsed admonition-title">풀이 보기</span>' in page
    )


def _used_messages(static: Path) -> set[str]:
    """The messages the Sphinx scripts pages load translate: _("..."),
    gettext("...") and ngettext("...", ...) (its first message is the
    catalog's key). Not searchtools.js: no page loads Sphinx's search."""
    call = re.compile(r'\b(?:_|gettext|ngettext)\(\s*"((?:[^"\\]|\\.)+)"')
    scripts = ("sphinx_highlight.js", "doctools.js")
    return {
        json.loads(f'"{message}"')
        for script in scripts
        for message in call.findall((static / script).read_text(encoding="utf-8"))
    }


def test_every_message_of_sphinx_scripts_is_in_korean(sample: Path) -> None:
    static = sample / "ko" / "html" / "_static"
    catalog = (static / "translations.js").read_text(encoding="utf-8")
    start = catalog.index("Documentation.addTranslations(") + len(
        "Documentation.addTranslations("
    )
    messages = json.loads(catalog[start : catalog.rindex(")")])["messages"]
    used = _used_messages(static)
    assert "Hide Search Matches" in used
    untranslated = {
        message
        for message in used
        if not HANGUL.search(json.dumps(messages.get(message), ensure_ascii=False))
    }
    assert untranslated == set()


def _copy_button_table(script: str) -> dict[str, str]:
    """The Korean entry our build adds to sphinx-copybutton's table."""
    line = next(line for line in script.splitlines() if line.startswith('  "ko": '))
    entry: dict[str, str] = json.loads(line.removeprefix('  "ko": ').rstrip(","))
    return entry


def test_copy_button_script_has_korean(sample: Path) -> None:
    script = read(sample, "ko", "_static/copybutton.js")
    assert _copy_button_table(script) == {
        "copy": "복사",
        "copy_to_clipboard": "클립보드에 복사",
        "copy_success": "복사했습니다",
        "copy_failure": "복사하지 못했습니다",
    }
    # The English build's script is sphinx-copybutton's own: it has English.
    assert '"en": ' not in read(sample, "en", "_static/copybutton.js")


def test_copy_button_language_is_added_once(tmp_path: Path) -> None:
    script = tmp_path / "copybutton.js"
    script.write_text("const messages = {\n  'en': {},\n}\n", encoding="utf-8")
    assert add_language(script, "ko")
    assert add_language(script, "ko")
    assert add_language(script, "en")
    assert script.read_text(encoding="utf-8").count('"ko": ') == 1
    assert script.read_text(encoding="utf-8").count("'en'") == 1
    script.write_text("const strings = {}\n", encoding="utf-8")
    assert not add_language(script, "ko")


# Words of a paragraph whose letters lie on more than one line.
_BROKEN_WORDS_JS = """(paragraph) => {
  const broken = [];
  const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""
_LINES_JS = """(element) => new Set(
  [...element.getClientRects()].map((r) => Math.round(r.top))).size"""


@pytest.fixture
def phone(browser: Browser, sample: Path) -> Iterator[Page]:
    """The Korean sample page on a 390 px phone screen."""
    viewport = {"width": 390, "height": 844}
    options = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
    clipboard = ["clipboard-read", "clipboard-write"]
    with (
        serve_directory(sample / "ko" / "html") as url,
        site_page(
            browser, url, viewport=viewport, permissions=clipboard, **options
        ) as page,
    ):
        page.goto(f"{url}/page.html")
        yield page


def test_korean_lines_break_between_words_on_a_phone(phone: Page) -> None:
    paragraph = phone.locator("article p", has_text="반복문 안에서").first
    style = paragraph.evaluate("(p) => getComputedStyle(p).wordBreak")
    assert style == "keep-all"
    assert paragraph.evaluate(_BROKEN_WORDS_JS) == []
    # A long name in code and a long address still wrap, inside the screen.
    name = phone.locator("article p code.literal").first
    address = phone.locator("article p a.reference.external").first
    assert name.evaluate(_LINES_JS) > 1
    assert address.evaluate(_LINES_JS) > 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_copy_button_speaks_korean(phone: Page) -> None:
    cell = phone.locator("div.cell").first
    cell.locator("div.cell_input").hover()
    button = cell.locator("button.copybtn")
    assert button.get_attribute("data-tooltip") == "복사"
    assert button.locator("svg title").text_content() == "클립보드에 복사"
    button.click()
    assert button.get_attribute("data-tooltip") == "복사했습니다"
