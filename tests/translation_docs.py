"""A tiny two-language docs folder for the translation checker's tests.

`make_docs` writes it: two pages in each language, consistent, every Korean
page stamped. `edit` changes one page, `line` finds a line, `commit` records
the folder in git and `as_clone` works there as in a clone of the guide (the
`diff` and `stamp` commands read its history); `run_command` runs
the checker (`nox -s i18n`). `real_pair` copies a real page pair instead,
with a stub for each page and label it links to.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import DOCS, NOTEBOOK_FRONT_MATTER
from jaxguide_site.translation.checker import main
from jaxguide_site.translation.report import Report
from jaxguide_site.translation.stamps import stamp

FRONT = NOTEBOOK_FRONT_MATTER
EN_INTRO = (
    FRONT
    + """
(intro)=
# Introduction

Read {doc}`index` first, or {doc}`the home page <index>`.

```{code-cell} ipython3
x = 1
print(x)
```

(intro-more)=
## More

![A straight line](line.png)

```{code-cell} ipython3
y = x + 1
```
"""
)
KO_INTRO = (
    FRONT
    + """
(intro)=
# 소개

먼저 {doc}`index`를, 또는 {doc}`첫 페이지 <index>`를 읽으세요. 합성곱도 다룹니다.

```{code-cell} ipython3
x = 1
print(x)
```

(intro-more)=
## 더 보기

![직선](line.png)

```{code-cell} ipython3
y = x + 1
```
"""
)
TOCTREE = "```{toctree}\n:caption: {caption}\n\nintro\n```\n"
PAGES = {
    "en": {
        "intro": EN_INTRO,
        "index": "# Home\n\nStart with {doc}`intro`.\n\n"
        + TOCTREE.replace("{caption}", "Pages"),
    },
    "ko": {
        "intro": KO_INTRO,
        "index": "# 홈\n\n{doc}`intro`부터 읽으세요.\n\n"
        + TOCTREE.replace("{caption}", "페이지"),
    },
}
GLOSSARY = """
[[term]]
en = "convolution"
ko = "합성곱"
avoid = ["컨볼루션"]
en_def = "Sliding a kernel over a signal."
ko_def = "커널을 신호 위로 밀며 곱해 더하는 연산입니다."
"""
IN_PROGRESS = "[in_progress]\nko = {ko}\nen = {en}\n"


def make_docs(tmp_path: Path, glossary: str = GLOSSARY) -> Path:
    """A consistent two-language docs folder, every Korean page stamped."""
    docs = tmp_path / "docs"
    (docs / "_data").mkdir(parents=True)
    (docs / "_data" / "glossary.toml").write_text(glossary, encoding="utf-8")
    in_progress(docs, ko=[], en=[])
    for lang, pages in PAGES.items():
        (docs / lang).mkdir()
        for name, text in pages.items():
            (docs / lang / f"{name}.md").write_text(text, encoding="utf-8")
    for name in PAGES["ko"]:
        stamp(docs / "ko" / f"{name}.md")
    return docs


def in_progress(docs: Path, *, ko: list[str], en: list[str]) -> None:
    """Write docs/_data/translations.toml with these pages in progress."""
    text = IN_PROGRESS.format(ko=ko, en=en).replace("'", '"')
    (docs / "_data" / "translations.toml").write_text(text, encoding="utf-8")


def write(docs: Path, page: str, text: str) -> Path:
    """Write docs/<page>.md."""
    path = docs / f"{page}.md"
    path.write_text(text, encoding="utf-8")
    return path


def edit(docs: Path, page: str, old: str, new: str, *, restamp: bool = True) -> None:
    """Replace ``old`` in docs/<page>.md; restamp the Korean page (not stale)."""
    path = docs / f"{page}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, text)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if restamp:
        stamp(docs / "ko" / path.name)


def line(docs: Path, page: str, text: str) -> int:
    """The number of the first line of docs/<page>.md that contains ``text``."""
    lines = (docs / f"{page}.md").read_text(encoding="utf-8").splitlines()
    return next(number for number, row in enumerate(lines, 1) if text in row)


def errors(report: Report) -> list[str]:
    assert not report.warnings, report.warnings
    return [str(problem) for problem in report.errors]


def git(root: Path, *args: str) -> str:
    """Run git in ``root`` as a test author, without the user's configuration."""
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.org",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.org",
    }
    done = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def commit(root: Path, message: str) -> str:
    """Commit everything in ``root`` (a repository from its first call)."""
    if not (root / ".git").exists():
        git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def as_clone(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Commit the docs folder in ``root`` and work there, as in a clone of
    the guide; ``root``."""
    commit(root, "docs")
    monkeypatch.chdir(root)
    return root


def run_command(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, list[str], list[str]]:
    """The checker run with ``argv``: its exit status, stdout and stderr lines."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


STUB = {
    "ko": "# 빈 페이지\n\n테스트가 쓰는 페이지입니다.\n",
    "en": "# Stub\n\nA page for the tests.\n",
}
LINKED = re.compile(r"\{(?P<role>doc|ref|numref)\}`(?:[^`<]*<)?(?P<target>[^`<>]+)>?`")


def real_pair(tmp_path: Path, name: str) -> Path:
    """A docs folder with the real page ``name`` in both languages, and a
    stub pair for the pages and labels it links to."""
    docs = tmp_path / "docs"
    (docs / "_data").mkdir(parents=True)
    shutil.copy(DOCS / "_data" / "glossary.toml", docs / "_data")
    in_progress(docs, ko=[], en=[])
    texts = {
        lang: (DOCS / lang / f"{name}.md").read_text("utf-8") for lang in ["ko", "en"]
    }
    linked = {
        (found["role"], found["target"].strip())
        for text in texts.values()
        for found in LINKED.finditer(text)
    }
    pages = {target for role, target in linked if role == "doc"} - {name}
    labels = {target for role, target in linked if role != "doc"}
    labels -= {label for label in labels if f"({label})=" in texts["en"]}
    targets = "".join(f"({label})=\n" for label in sorted(labels))
    for lang, text in STUB.items():
        (docs / lang).mkdir()
        (docs / lang / f"{name}.md").write_text(texts[lang], encoding="utf-8")
        for page in pages:
            (docs / lang / f"{page}.md").write_text(text, encoding="utf-8")
        (docs / lang / "stub.md").write_text(targets + text, encoding="utf-8")
    for page in [*pages, "stub"]:
        stamp(docs / "ko" / f"{page}.md")
    return docs
