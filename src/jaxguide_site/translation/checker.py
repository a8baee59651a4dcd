"""The translation checker's command (``nox -s i18n --`` runs it)::

    nox -s i18n -- [check] [--strict] [--docs docs]   # compare the two languages
    nox -s i18n -- diff docs/ko/page.md               # what changed in its source
    nox -s i18n -- stamp [--force] docs/ko/page.md ...
    nox -s i18n -- reviewed docs/ko/page.md ...       # a review, recorded
    nox -s i18n -- copy-code docs/ko/page.md          # the source's code cells
    nox -s i18n -- glossary WORD [--docs docs]        # a term, either language

``check`` prints one line per problem (file:line: message), a note naming
each page in progress or draft, a summary and the work to pick up (drafts,
stale pages, reviews, the glossary); it fails on errors, and with
``--strict`` (the tests, CI) on warnings too: stale translations. ``diff``
shows, word by word, what changed in the source's prose since the translation
was stamped, each change with the translation's section and line to edit and
the glossary's terms in it. ``stamp`` records the source's current prose_sha
in the translation's front matter; it refuses a stale translation that has
not changed since its source did (``--force`` stamps it anyway), and warns
where it changed in other sections than its source. ``copy-code`` copies the
source's code cells into the translation, ``glossary`` looks a term up,
``reviewed`` records a review (:mod:`.reviews`).
Translators run
it through nox (``python -m nox -s i18n -- diff docs/ko/jit.md``), which
installs the toolchain it reads pages with.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from ..languages import LANGUAGES, LANGUAGES_FILE, languages_of
from .command import COMMAND
from .report import EXPLAINED, HOW_TO_HELP, STATES, PageState, Problem

# The toolchain the pages are read with (myst-nb's reader), missing from a
# Python where only the jaxguide package was installed.
TOOLCHAIN = {"myst_nb", "myst_parser", "sphinx", "docutils", "yaml", "nbformat"}


def _shown(kind: str, problems: list[Problem]) -> list[str]:
    """``path:line: kind: message`` for each problem."""
    return [str(replace(p, message=f"{kind}: {p.message}")) for p in problems]


def _check(docs: Path, *, strict: bool) -> int:
    from .consistency import check  # noqa: PLC0415 (see main)

    report = check(docs)
    lines = _shown("error", report.errors)
    lines += _shown("warning", report.warnings)
    lines += _shown("note", report.notes)
    states = [page.state for page in report.pages]
    counts = ", ".join(f"{states.count(state)} {state}" for state in STATES)
    errors, warnings = len(report.errors), len(report.warnings)
    lines += _to_pick_up(report.pages, docs)
    lines.append(
        f"{len(states)} pages ({counts}): {errors} error(s), {warnings} warning(s)"
    )
    failed = bool(errors or (strict and warnings))
    if failed:
        explained = " and ".join(
            f"{page}, '{title}'" for page, title in EXPLAINED.values()
        )
        lines.append(
            f"Fix each line above, then check again: {COMMAND} --strict "
            f"(explained in {explained})"
        )
    print("\n".join(lines))
    return 1 if failed else 0


def _to_pick_up(pages: list[PageState], docs: Path) -> list[str]:
    """Work a volunteer can take, from the pages' states: there is always
    some while a translation waits for its review."""
    named = {
        "draft": "drafts to finish (their English paragraphs)",
        "in progress": "pages to translate (listed under [in_progress])",
        "stale": "stale translations to update ('diff' shows what changed)",
        "unstamped": "translations to stamp",
    }
    work = [
        f"- {what} ({len(found)}): {', '.join(found)}"
        for state, what in named.items()
        if (found := [page.name for page in pages if page.state == state])
    ]
    if waiting := [page.review for page in pages if page.review]:
        work.append(
            f"- translations waiting for a review ({len(waiting)}; none recorded, "
            "or changed since): read one beside its source, fix or suggest what "
            f"reads wrong, then record it: '{COMMAND} reviewed {waiting[0]}'. "
            f"They are: {', '.join(Path(path).stem for path in waiting)}"
        )
    work.append(
        f"- the glossary ({docs}/_data/glossary.toml): look a word up with "
        f"'{COMMAND} glossary WORD'; propose a term a page needs and lacks"
    )
    explained = " and ".join(
        f"{page}, '{title}'" for page, title in HOW_TO_HELP.values()
    )
    return [f"Work to pick up (explained in {explained}):", *work]


def _reviewed(pages: list[Path]) -> int:
    from .reviews import record_review  # noqa: PLC0415 (see main)

    for page in pages:
        print(f"{page}: reviewed as its prose reads now ({record_review(page)})")
    return 0


def _diff(page: Path) -> int:
    from .changes import where_to_edit  # noqa: PLC0415 (see main)
    from .parity import parse_source, read_source  # noqa: PLC0415
    from .stamps import locate, recorded_sha, stamped_source, text_sha  # noqa: PLC0415

    pair = locate(page, "diff")
    if (recorded := recorded_sha(read_source(page))) is None:
        print(f"{page} records no prose_sha yet: run '{COMMAND} stamp {page}'")
        return 1
    source = read_source(pair.source)
    if text_sha(source) == recorded:
        print(f"{page} is up to date: the prose of {pair.source} is at {recorded}")
        return 0
    old = stamped_source(pair.source, recorded)
    if old is None:
        print(
            f"error: no committed version of {pair.source} has prose_sha "
            f"{recorded}, so its old text cannot be shown (in a shallow clone, "
            f"run 'git fetch --unshallow' first); compare {page} with it by hand",
            file=sys.stderr,
        )
        return 1
    print(
        f"What changed in the prose of {pair.source} since {page} was stamped "
        f"(prose_sha {recorded}, as of commit {old.commit[:10]}, {old.date}), "
        "as [-removed-] and {+added+} words, each followed by where this page "
        "says what the old text said (→) and the glossary's terms in it:"
    )
    print("\n".join(where_to_edit(pair, parse_source(old.text), source)))
    print(f"Update {page} to match, then run: {COMMAND} stamp {page}")
    return 0


def _stamp(pages: list[Path], *, force: bool) -> int:
    from .changes import misplaced_edits  # noqa: PLC0415 (see main)
    from .parity import read_source  # noqa: PLC0415
    from .stamps import (  # noqa: PLC0415
        edited_since_change,
        locate,
        prose_sha,
        recorded_sha,
        stamp,
    )

    failed = 0
    for page in pages:
        pair = locate(page)
        recorded, current = recorded_sha(read_source(page)), prose_sha(pair.source)
        edited = (
            None
            if force or recorded in {None, current}
            else (edited_since_change(pair, str(recorded)))
        )
        if edited is False:
            print(
                f"error: refusing to stamp {page}: the prose of {pair.source} changed "
                f"since its last stamp ({recorded}, now {current}), and this "
                f"page's prose has not changed since. Update it first ('{COMMAND} "
                f"diff {page}' shows what changed), or pass --force if that change "
                "needs no translation",
                file=sys.stderr,
            )
            failed = 1
            continue
        if edited and (warning := misplaced_edits(pair, str(recorded))):
            print(warning, file=sys.stderr)
        if edited is None and not force and recorded not in {None, current}:
            print(
                f"{page}: warning: git's history cannot tell whether this page was "
                f"updated since {pair.source} changed; stamping it anyway",
                file=sys.stderr,
            )
        print(f"{page}: translated_from prose_sha {stamp(page)}")
    return failed


def _copy_code(page: Path) -> int:
    from .copy_code import copy_code  # noqa: PLC0415 (see main)
    from .stamps import locate  # noqa: PLC0415

    print(copy_code(locate(page, "copy-code")))
    return 0


def _glossary(args: argparse.Namespace) -> int:
    from .lookup import lookup  # noqa: PLC0415 (see main)

    print("\n".join(lookup(args.word, args.docs)))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="nox -s i18n --",
        description="Compare docs/ko and docs/en; diff and stamp translations.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="compare the two languages")
    checking.add_argument("--strict", action="store_true", help="fail on warnings too")
    checking.add_argument(
        "--docs", type=Path, default=Path("docs"), help="default: docs"
    )
    diffing = commands.add_parser(
        "diff", help="what changed in a translation's source since it was stamped"
    )
    diffing.add_argument("page", type=Path, help="e.g. docs/ko/jit.md")
    stamping = commands.add_parser("stamp", help="record a translation's source")
    stamping.add_argument("pages", nargs="+", type=Path, help="e.g. docs/ko/jit.md")
    stamping.add_argument(
        "--force",
        action="store_true",
        help="stamp a stale page even if it did not change since its source did",
    )
    reviewing = commands.add_parser(
        "reviewed", help="record that you reviewed a translation as it reads now"
    )
    reviewing.add_argument("pages", nargs="+", type=Path, help="e.g. docs/ko/jit.md")
    copying = commands.add_parser(
        "copy-code", help="copy the source's code cells into a translation"
    )
    copying.add_argument("page", type=Path, help="e.g. docs/ko/jit.md")
    looking = commands.add_parser("glossary", help="look a term up, in either language")
    looking.add_argument("word", help="e.g. gradient, 기울기")
    looking.add_argument(
        "--docs", type=Path, default=Path("docs"), help="default: docs"
    )
    given = sys.argv[1:] if argv is None else argv
    if given[:1] not in ([name] for name in (*commands.choices, "-h", "--help")):
        given = ["check", *given]  # `nox -s i18n -- --strict` checks
    args = parser.parse_args(given)
    if args.command in {"check", "glossary"}:
        listed = [language.code for language in languages_of(args.docs)]
        if len(listed) != 2 or listed != list(LANGUAGES):
            # Its rules pair each page with "the other language".
            parser.error(
                f"{args.docs}/{LANGUAGES_FILE} lists {', '.join(listed)}: the "
                f"checker compares two languages (this project's {', '.join(LANGUAGES)});"
                " a third needs it to pair pages by translated_from (ARCHITECTURE.md)"
            )
        missing = [lang for lang in LANGUAGES if not (args.docs / lang).is_dir()]
        if missing:
            parser.error(
                f"{args.docs} has no {'/, '.join(missing)}/ folder: run from the "
                "repository root or pass --docs with the folder holding ko/ and en/"
            )
    # The modules below read pages with myst-nb: imported here, so that a
    # Python without the toolchain gets the next step instead of a traceback.
    try:
        if args.command == "check":
            return _check(args.docs, strict=args.strict)
        if args.command == "diff":
            return _diff(args.page)
        if args.command == "copy-code":
            return _copy_code(args.page)
        if args.command == "glossary":
            return _glossary(args)
        if args.command == "reviewed":
            return _reviewed(args.pages)
        return _stamp(args.pages, force=args.force)
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in TOOLCHAIN:
            raise
        print(
            f"error: the translation checker reads pages with the site's toolchain, and "
            f"this Python ({sys.executable}) lacks it: {exc}. Run it through nox "
            f"from the repository root, which installs it: {COMMAND} {' '.join(given)}",
            file=sys.stderr,
        )
        return 2
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
