"""The checker's `diff` and `stamp` (translation/stamps.py, translation/checker.py).

The tiny docs folder of tests/translation_docs.py is made a git repository,
as a clone of the guide is: `diff` finds in its history the source the
translation was stamped against, and `stamp` refuses a stale translation that
did not change since its source did. Also: wrong page names, a Python without
the toolchain, and the commands the contributing pages document.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import DOCS
from jaxguide_site.translation.checker import main
from jaxguide_site.translation.stamps import prose_sha
from translation_docs import as_clone, commit, edit, line, make_docs, run_command

KO = "docs/ko/intro.md"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clone: the docs folder committed once, the working directory."""
    make_docs(tmp_path)
    return as_clone(tmp_path, monkeypatch)


def change_source(repo: Path, *, committed: bool = True) -> str:
    """Change a word of the English intro's prose; its stamped prose_sha."""
    stamped = prose_sha(repo / "docs/en/intro.md")
    edit(repo / "docs", "en/intro", "first,", "before anything else,", restamp=False)
    if committed:
        commit(repo, "en: reword")
    return stamped


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "uncommitted"])
def test_diff_shows_word_by_word_what_changed_since_the_stamp(
    repo: Path, capsys: pytest.CaptureFixture[str], *, committed: bool
) -> None:
    first = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout
    stamped = change_source(repo, committed=committed)
    status, out, err = run_command(capsys, "diff", KO)
    assert (status, err) == (0, [])
    assert re.fullmatch(
        f"What changed in the prose of docs/en/intro.md since {KO} was stamped "
        rf"\(prose_sha {stamped}, as of commit {first[:10]}, \d{{4}}-\d\d-\d\d\), "
        r"as \[-removed-\] and \{\+added\+\} words, each followed by where this "
        r"page says what the old text said \(→\) and the glossary's terms in it:",
        out[0],
    )
    at = line(repo / "docs", "en/intro", "before anything else")
    assert out[1:] == [
        (
            f"docs/en/intro.md:{at}: (intro)= # Introduction Read {{doc}}`index` "
            "[-first,-] {+before anything else,+} or {doc}`the home page <index>`. "
            "(intro-more)= ## More"
        ),
        f"  → {KO}:{line(repo / 'docs', 'ko/intro', '먼저')} (section '# 소개', paragraph 1)",
        f"Update {KO} to match, then run: python -m nox -s i18n -- stamp {KO}",
    ]


def test_diff_of_an_up_to_date_translation_says_so(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sha = prose_sha(repo / "docs/en/intro.md")
    assert run_command(capsys, "diff", KO) == (
        0,
        [f"{KO} is up to date: the prose of docs/en/intro.md is at {sha}"],
        [],
    )


def test_diff_without_the_stamped_version_in_history_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    make_docs(tmp_path)  # not in git: no history to search
    monkeypatch.chdir(tmp_path)
    stamped = change_source(tmp_path, committed=False)
    status, out, err = run_command(capsys, "diff", KO)
    assert (status, out) == (1, [])
    assert err == [
        (
            f"error: no committed version of docs/en/intro.md has prose_sha "
            f"{stamped}, so its old text cannot be shown (in a shallow clone, run "
            f"'git fetch --unshallow' first); compare {KO} with it by hand"
        )
    ]


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "uncommitted"])
def test_stamp_refuses_a_stale_translation_that_did_not_change(
    repo: Path, capsys: pytest.CaptureFixture[str], *, committed: bool
) -> None:
    stamped = change_source(repo, committed=committed)
    before = (repo / KO).read_text(encoding="utf-8")
    status, out, err = run_command(capsys, "stamp", KO)
    assert (status, out) == (1, [])
    now = prose_sha(repo / "docs/en/intro.md")
    assert err == [
        (
            f"error: refusing to stamp {KO}: the prose of docs/en/intro.md changed since "
            f"its last stamp ({stamped}, now {now}), and this page's prose has not "
            f"changed since. Update it first ('python -m nox -s i18n -- diff {KO}' "
            "shows what changed), or pass --force if that change needs no "
            "translation"
        )
    ]
    assert (repo / KO).read_text(encoding="utf-8") == before
    # Once the translation is updated, it is stamped.
    edit(repo / "docs", "ko/intro", "먼저", "무엇보다 먼저", restamp=False)
    assert run_command(capsys, "stamp", KO) == (
        0,
        [f"{KO}: translated_from prose_sha {now}"],
        [],
    )


def test_stamp_force_stamps_an_unchanged_translation(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    change_source(repo)
    now = prose_sha(repo / "docs/en/intro.md")
    assert run_command(capsys, "stamp", "--force", KO) == (
        0,
        [f"{KO}: translated_from prose_sha {now}"],
        [],
    )
    assert run_command(capsys, "check", "--strict")[0] == 0


def test_stamp_without_history_warns_and_stamps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    make_docs(tmp_path)
    monkeypatch.chdir(tmp_path)
    change_source(tmp_path, committed=False)
    status, out, err = run_command(capsys, "stamp", KO)
    assert (status, out) == (
        0,
        [f"{KO}: translated_from prose_sha {prose_sha(tmp_path / 'docs/en/intro.md')}"],
    )
    assert err == [
        (
            f"{KO}: warning: git's history cannot tell whether this page was "
            "updated since docs/en/intro.md changed; stamping it anyway"
        )
    ]


@pytest.mark.usefixtures("repo")
@pytest.mark.parametrize("command", ["stamp", "diff"])
@pytest.mark.parametrize("wrong", ["docs/ko/intr.md", "docs/ko/intro"])
def test_wrong_page_name_gets_did_you_mean(
    capsys: pytest.CaptureFixture[str], command: str, wrong: str
) -> None:
    assert run_command(capsys, command, wrong) == (
        1,
        [],
        [f"error: {wrong} does not exist: did you mean docs/ko/intro.md?"],
    )


@pytest.mark.usefixtures("repo")
@pytest.mark.parametrize("command", ["stamp", "diff"])
def test_the_source_page_gets_the_command_for_its_translation(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert run_command(capsys, command, "docs/en/intro.md") == (
        1,
        [],
        [
            (
                f"error: docs/en/intro.md is the source; {command} its translation: "
                f"python -m nox -s i18n -- {command} {KO}"
            )
        ],
    )


@pytest.mark.usefixtures("repo")
@pytest.mark.parametrize("command", ["stamp", "diff"])
def test_a_page_named_without_docs_gets_its_path(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert run_command(capsys, command, "ko/intro.md") == (
        1,
        [],
        [f"error: ko/intro.md does not exist: did you mean {KO}?"],
    )


def test_a_python_without_the_toolchain_gets_the_nox_command(tmp_path: Path) -> None:
    """As where only `pip install -e .` ran: the next step, not a traceback."""
    script = (
        "import sys; sys.modules['myst_parser'] = None\n"  # importing it fails
        "from jaxguide_site.translation.checker import main\n"
        "sys.exit(main(['stamp', 'docs/ko/jit.md']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(
        "error: the translation checker reads pages with the site's"
    )
    assert done.stderr.rstrip().endswith(
        "Run it through nox from the repository root, which installs it: "
        "python -m nox -s i18n -- stamp docs/ko/jit.md"
    )


def documented(lang: str) -> list[list[str]]:
    """The arguments of each `python -m nox -s i18n -- ...` the contributing
    page of ``lang`` shows in a code block."""
    text = (DOCS / lang / "contributing.md").read_text(encoding="utf-8")
    blocks = re.findall(
        r"^ *```(?:bash|console)\n(.*?)^ *```", text, re.MULTILINE | re.DOTALL
    )
    prefix = "python -m nox -s i18n"
    return [
        row.strip().removeprefix(prefix).removeprefix(" --").split()
        for block in blocks
        for row in block.splitlines()
        if row.strip().startswith(prefix)
    ]


def test_contributing_pages_document_the_same_commands() -> None:
    commands = documented("en")
    assert commands == documented("ko")
    assert {args[0] for args in commands if args} >= {"diff", "stamp"}


@pytest.mark.usefixtures("repo")
def test_documented_commands_run(capsys: pytest.CaptureFixture[str]) -> None:
    """Each documented command, as `nox -s i18n` passes it on, on a clone."""
    for args in documented("en"):
        given = [arg.replace("<page>", "intro") for arg in args]
        status = main(given)
        assert status == 0, (given, capsys.readouterr())
