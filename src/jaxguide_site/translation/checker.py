"""The translation checker: do ``docs/ko`` and ``docs/en`` still say the same?

``check(docs)`` compares each page with the page of the same name in the
other language. Errors: a page in one language only (unless ``[in_progress]``
in ``docs/_data/translations.toml`` lists it), different code cells or
kernelspec, different headings, figures or ``(label)=`` targets, ``{doc}``
links to missing pages, Korean prose using a variant the glossary avoids.
A translation names its source in its front matter::

    translated_from:
      lang: en
      prose_sha: 0123456789ab

``prose_sha`` hashes the source's prose (no front matter, no code cells,
whitespace collapsed): once that prose changes, the translation is *stale*
(a warning) until it is updated and stamped again::

    jaxguide-i18n check [--strict] [--docs docs]
    jaxguide-i18n stamp docs/ko/page.md ...
"""

from __future__ import annotations

import argparse
import hashlib
import posixpath
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..languages import LANGUAGES
from .glossary import Term, load_glossary
from .parity import FRONT_MATTER, Source, compare, read_source

DATA = "_data/translations.toml"  # [in_progress] ko = [...], en = [...]
STATES = ("translated", "stale", "in progress", "missing")
DOC_LINK = re.compile(r"\{doc\}`(?:[^`<]*<(?P<inner>[^`>]+)>|(?P<plain>[^`]+))`")


@dataclass(frozen=True)
class Problem:
    path: str  # relative to the repository root: docs/ko/jit.md
    line: int | None
    message: str

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class PageState:
    name: str
    state: str  # one of STATES
    languages: tuple[str, ...]  # the languages the page exists in
    last_update: str | None  # YYYY-MM-DD of the last commit touching its files


@dataclass
class Report:
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    pages: list[PageState] = field(default_factory=list)


@dataclass(frozen=True)
class Page:
    rel: str  # docs/ko/jit.md
    lang: str
    name: str  # jit
    text: Source

    def twin(self, lang: str, name: str = "") -> str:
        """The path of this page (or ``name``) in ``lang``, from the repository root."""
        folder = self.rel.removesuffix(f"{self.lang}/{self.name}.md")
        return f"{folder}{lang}/{name or self.name}.md"


def _sha(source: Source) -> str:
    prose = " ".join("\n".join(source.kept).split())
    return hashlib.sha256(prose.encode("utf-8")).hexdigest()[:12]


def prose_sha(path: Path) -> str:
    """First 12 hex digits of sha256 of the page's prose (what a stamp records)."""
    return _sha(read_source(path))


def _last_update(root: Path, files: list[Path]) -> str | None:
    """Date of the last commit touching ``files``; None without git or commit."""
    command = ["git", "log", "-1", "--format=%cs", "--", *map(str, files)]
    try:
        done = subprocess.run(
            command, cwd=root, capture_output=True, text=True, check=False, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def _origin(page: Page, pages: dict[str, dict[str, Page]]) -> str | Problem | None:
    """The prose_sha ``page`` records, or what is wrong with its translated_from."""
    if "translated_from" not in page.text.meta:
        return None
    origin = page.text.meta["translated_from"]
    fields = origin if isinstance(origin, dict) else {}
    lang, sha = fields.get("lang"), fields.get("prose_sha")
    if lang not in LANGUAGES or lang == page.lang:
        message = f"translated_from: lang must be the other language, not {lang!r}"
    elif not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{12}", sha):
        message = "translated_from: prose_sha must be a string of 12 hex digits"
    elif page.name not in pages[lang]:
        message = f"translated_from names {page.twin(lang)}, which does not exist"
    else:
        return sha
    return Problem(page.rel, page.text.meta_lines.get("translated_from"), message)


def _pair(ko: Page, en: Page, pages: dict[str, dict[str, Page]], report: Report) -> str:
    """Check a page that exists in both languages; its state."""
    origins = {page.lang: _origin(page, pages) for page in (ko, en)}
    report.errors += [o for o in origins.values() if isinstance(o, Problem)]
    declaring = [page for page in (ko, en) if origins[page.lang] is not None]
    tr, src = (ko, en) if declaring != [en] else (en, ko)
    report.errors += [Problem(*f) for f in compare(tr.rel, tr.text, src.rel, src.text)]
    if len(declaring) != 1:
        message = (
            f"{'both' if declaring else 'neither'} of this page and {en.rel} declare "
            "translated_from: the translation must, its source must not"
        )
        report.errors.append(Problem(ko.rel, None, message))
        return "stale"
    if not isinstance(recorded := origins[tr.lang], str):
        return "stale"
    if recorded == (current := _sha(src.text)):
        return "translated"
    message = (
        f"stale translation of {src.rel}: translated at prose_sha {recorded}, "
        f"the source's prose is now {current}; update this page, then stamp it"
    )
    line = tr.text.meta_lines.get("translated_from")
    report.warnings.append(Problem(tr.rel, line, message))
    return "stale"


def _prose(
    page: Page, pages: dict[str, Page], progress: set[str], glossary: list[Term]
) -> list[Problem]:
    """{doc} links to pages missing in the page's language; avoided Korean."""
    out = [Problem(page.rel, 1, page.text.meta_error)] if page.text.meta_error else []
    avoided = [
        (variant, f"{variant!r}: the glossary's Korean for {term.en!r} is {term.ko!r}")
        for term in glossary
        for variant in term.avoid
        if page.lang == "ko" and page.name != "glossary"  # glossary.md names them
    ]
    for number, line in page.text.prose:
        for link in DOC_LINK.finditer(line):
            target = (link["inner"] or link["plain"]).strip().removesuffix(".md")
            name = posixpath.normpath(posixpath.join(page.name, "..", target))
            name = name.lstrip("/")  # {doc}`/jit` starts at the root
            if name not in pages and name not in progress:
                missing = page.twin(page.lang, name)
                message = f"{{doc}} link to {target!r}: {missing} does not exist"
                out.append(Problem(page.rel, number, message))
        out += [Problem(page.rel, number, what) for v, what in avoided if v in line]
    return out


def _data(docs: Path, report: Report) -> tuple[dict[str, set[str]], list[Term]]:
    """The pages in progress in each language, and the glossary."""
    table: dict[str, list[str]] = {}
    glossary, where = [], docs / DATA
    try:
        if where.is_file():
            data = tomllib.loads(where.read_text(encoding="utf-8"))
            table = data.get("in_progress", {})
        where = docs / "_data" / "glossary.toml"
        glossary = load_glossary(where)
    except ValueError as exc:  # a TOMLDecodeError too
        rel = where.relative_to(docs.parent).as_posix()
        report.errors.append(Problem(rel, None, str(exc)))
    return {lang: set(table.get(lang, [])) for lang in LANGUAGES}, glossary


def check(docs: Path) -> Report:
    """Check the pages of ``docs`` (the folder holding ko/, en/ and _data/)."""
    root, report = docs.parent, Report()
    progress, glossary = _data(docs, report)
    pages: dict[str, dict[str, Page]] = {lang: {} for lang in LANGUAGES}
    for lang, folder in ((lang, docs / lang) for lang in LANGUAGES):
        for path in sorted(folder.rglob("*.md")):
            name = path.relative_to(folder).with_suffix("").as_posix()
            if not re.search(r"(^|/)[._]", name):  # not .ipynb_checkpoints, _build
                rel = path.relative_to(root).as_posix()
                pages[lang][name] = Page(rel, lang, name, read_source(path))
    for name in sorted(pages["ko"].keys() | pages["en"].keys()):
        found = [pages[lang][name] for lang in LANGUAGES if name in pages[lang]]
        for page in found:
            lang = page.lang
            report.errors += _prose(page, pages[lang], progress[lang], glossary)
        if len(found) == 2:
            state = _pair(found[0], found[1], pages, report)
        else:
            page, missing = found[0], "en" if found[0].lang == "ko" else "ko"
            if isinstance(origin := _origin(page, pages), Problem):
                report.errors.append(origin)
            state = "in progress" if name in progress[missing] else "missing"
            if state == "missing":
                message = (
                    f"{page.twin(missing)} is missing: translate the page, or list "
                    f"it under [in_progress] {missing} in {docs.name}/{DATA}"
                )
                report.errors.append(Problem(page.rel, None, message))
        date = _last_update(root, [root / page.rel for page in found])
        report.pages.append(PageState(name, state, tuple(p.lang for p in found), date))
    for lang in LANGUAGES:
        for name in sorted(progress[lang] & pages[lang].keys()):
            message = f"[in_progress] {lang} lists {name!r}, which exists: remove it"
            report.warnings.append(Problem(f"{docs.name}/{DATA}", None, message))
    return report


def stamp(path: Path) -> str:
    """Record in the translation ``path`` its source's current prose_sha; return it.

    The source is the page of the same name in the other language. Only the
    ``translated_from`` block of the front matter changes (front matter is
    added where there is none): the rest of the file stays byte for byte.
    """
    path = path.resolve()
    folder = next((p for p in path.parents if p.name in LANGUAGES), path)
    lang = "en" if folder.name == "ko" else "ko"
    source = folder.parent / lang / path.relative_to(folder)
    if folder == path or not source.is_file():
        msg = f"{path}: no page of that name in the other language to stamp it from"
        raise ValueError(msg)
    origin = read_source(source).meta.get("translated_from")
    if isinstance(origin, dict) and origin.get("lang") == folder.name:
        msg = f"{source} is the translation (of {path}): stamp it instead"
        raise ValueError(msg)
    sha = prose_sha(source)
    value = f'"{sha}"' if sha.isdigit() or sha.startswith("0b") else sha  # not an int
    block = f"translated_from:\n  lang: {lang}\n  prose_sha: {value}\n"
    text = old = path.read_bytes().decode("utf-8")
    if (match := FRONT_MATTER.match(text)) is None:
        text = f"---\n{block}---\n{text}"
    else:
        lines = match["body"].splitlines(keepends=True)
        key = re.compile(r"translated_from[ \t]*:")
        first = next((i for i, line in enumerate(lines) if key.match(line)), len(lines))
        last = first + 1
        while last < len(lines) and lines[last][:1] in {" ", "\t"}:
            last += 1
        lines[first:last] = [block]
        text = text[: match.start("body")] + "".join(lines) + text[match.end("body") :]
    if text != old:
        path.write_bytes(text.encode("utf-8"))
    return sha


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jaxguide-i18n")
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="compare the two languages")
    checking.add_argument("--strict", action="store_true", help="fail on warnings too")
    checking.add_argument(
        "--docs", type=Path, default=Path("docs"), help="default: docs"
    )
    stamping = commands.add_parser("stamp", help="record a translation's source")
    stamping.add_argument("pages", nargs="+", type=Path, help="e.g. docs/ko/jit.md")
    args = parser.parse_args(argv)
    try:
        for page in args.pages if args.command == "stamp" else []:
            print(f"{page}: translated_from prose_sha {stamp(page)}")
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.command == "stamp":
        return 0
    missing = [lang for lang in LANGUAGES if not (args.docs / lang).is_dir()]
    if missing:
        parser.error(
            f"{args.docs} has no {'/, '.join(missing)}/ folder: run from the "
            "repository root or pass --docs with the folder holding ko/ and en/"
        )
    report = check(args.docs)
    lines = [str(p) for p in report.errors]
    lines += [str(p).replace(": ", ": warning: ", 1) for p in report.warnings]
    states = [page.state for page in report.pages]
    counts = ", ".join(f"{states.count(state)} {state}" for state in STATES)
    errors, warnings = len(report.errors), len(report.warnings)
    lines.append(
        f"{len(states)} pages ({counts}): {errors} error(s), {warnings} warning(s)"
    )
    print("\n".join(lines))
    return 1 if errors or (args.strict and warnings) else 0


if __name__ == "__main__":
    sys.exit(main())
