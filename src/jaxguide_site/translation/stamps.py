"""A translation's stamp: the version of its source that it follows.

A translation's front matter records its source's language and a hash of the
source's prose (no front matter, no code cells, no toctree entries, whitespace
collapsed)::

    translated_from:
      lang: en
      prose_sha: 0123456789ab

Nothing else is needed to recover that version of the source: of the source's
versions in git's history (renames followed), the newest whose prose has that
hash is it (:func:`stamped_source`). So :mod:`.changes` shows, word by word,
what changed in the source's prose since the translation was stamped, and
:func:`edited_since_change` tells whether the translation changed after the
source did (stamping an untouched translation would hide the change). Both
need the history: a shallow clone has too little of it (``git fetch
--unshallow``).

Toctree entries are left out (:func:`counted`): the checker compares the
pages each language lists on its own, and a page being translated is listed
in its own language only, which must not make the other language's page
stale. A toctree's caption is prose, and counted.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..languages import LANGUAGES
from .command import COMMAND
from .parity import FRONT_MATTER, Source, parse_source, read_source, toctrees
from .report import did_you_mean

SHA = re.compile(r"[0-9a-f]{12}")


def counted(source: Source) -> list[tuple[int, str]]:
    """(line, text) of what the prose_sha covers: the text outside code cells,
    except the toctree entries (the pages listed)."""
    entries = {number for tree in toctrees(source) for number, _ in tree.entries}
    return [(number, line) for number, line in source.kept if number not in entries]


def text_sha(source: Source) -> str:
    """First 12 hex digits of sha256 of ``source``'s prose, whitespace collapsed."""
    prose = " ".join("\n".join(line for _, line in counted(source)).split())
    return hashlib.sha256(prose.encode("utf-8")).hexdigest()[:12]


def prose_sha(path: Path) -> str:
    """The prose_sha of the page ``path`` (what a stamp records)."""
    return text_sha(read_source(path))


def recorded_sha(source: Source) -> str | None:
    """The prose_sha a translation records, if well formed."""
    origin = source.meta.get("translated_from")
    sha = origin.get("prose_sha") if isinstance(origin, dict) else None
    return sha if isinstance(sha, str) and SHA.fullmatch(sha) else None


@dataclass(frozen=True)
class Pair:
    """A translation, the page it translates (the same name in the other
    language) and that page's language."""

    translation: Path
    source: Path
    lang: str


def locate(path: Path, command: str = "stamp", verb: str = "") -> Pair:
    """The page ``path`` and its source; :class:`ValueError` says what is wrong,
    and which page to give ``command`` instead (what it does: ``verb``, by
    default the command's name)."""
    if not path.exists() and (docs := Path("docs") / path).is_file():
        msg = f"{path} does not exist: did you mean {docs.as_posix()}?"
        raise ValueError(msg)
    folder = next((p for p in path.parents if p.name in LANGUAGES), None)
    if folder is None:
        msg = f"{path} is not a page: pages are docs/<{'|'.join(LANGUAGES)}>/<name>.md"
        raise ValueError(msg)
    if path.suffix != ".md" or not path.is_file():
        pages = [
            p.relative_to(folder).with_suffix("").as_posix()
            for p in folder.rglob("*.md")
        ]
        name = path.relative_to(folder).with_suffix("").as_posix()
        hint = did_you_mean(name, pages, f"{folder}/{{}}.md")
        msg = f"{path} {'is not a page' if path.exists() else 'does not exist'}{hint}"
        raise ValueError(msg)
    lang = next(code for code in LANGUAGES if code != folder.name)
    source = folder.parent / lang / path.relative_to(folder)
    if not source.is_file():
        msg = f"{path}: there is no {source} for it to translate"
        raise ValueError(msg)
    origin = read_source(source).meta.get("translated_from")
    if isinstance(origin, dict) and origin.get("lang") == folder.name:
        msg = (
            f"{path} is the source; {verb or command} its translation: "
            f"{COMMAND} {command} {source.as_posix()}"
        )
        raise ValueError(msg)
    return Pair(path, source, lang)


def stamp(path: Path) -> str:
    """Record in the translation ``path`` its source's current prose_sha; return it.

    The source is the page of the same name in the other language. Only the
    ``translated_from`` block of the front matter changes (front matter is
    added where there is none): the rest of the file stays byte for byte.
    """
    pair = locate(path)
    sha = prose_sha(pair.source)
    block = f"translated_from:\n  lang: {pair.lang}\n  prose_sha: {quoted(sha)}\n"
    set_front_matter(path, "translated_from", block)
    return sha


def quoted(sha: str) -> str:
    """``sha`` as YAML reads it as a string (not an int)."""
    return f'"{sha}"' if sha.isdigit() or sha.startswith("0b") else sha


def set_front_matter(path: Path, key: str, block: str) -> None:
    """Put ``block`` (``key: ...`` and its indented lines) in place of
    ``key``'s in the front matter of ``path``, or at its end; the rest of the
    file stays byte for byte."""
    text = old = path.read_bytes().decode("utf-8")
    if (match := FRONT_MATTER.match(text)) is None:
        text = f"---\n{block}---\n{text}"
    else:
        lines = match["body"].splitlines(keepends=True)
        pattern = re.compile(rf"{re.escape(key)}[ \t]*:")
        first = next(
            (i for i, line in enumerate(lines) if pattern.match(line)), len(lines)
        )
        last = first + 1
        while last < len(lines) and lines[last][:1] in {" ", "\t"}:
            last += 1
        lines[first:last] = [block]
        text = text[: match.start("body")] + "".join(lines) + text[match.end("body") :]
    if text != old:
        path.write_bytes(text.encode("utf-8"))


def _git(root: Path, *args: str) -> str | None:
    """git's output, or None where git, the repository or the object is missing."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, check=False, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def repository(path: Path) -> tuple[Path, str] | None:
    """The git work tree holding ``path`` and the path from its root."""
    top = _git(path.resolve().parent, "rev-parse", "--show-toplevel")
    if top is None:
        return None
    root = Path(top.strip())
    return root, path.resolve().relative_to(root).as_posix()


@dataclass(frozen=True)
class Version:
    commit: str
    date: str  # YYYY-MM-DD
    text: str


def _versions(root: Path, rel: str) -> list[tuple[str, str, str]]:
    """(commit, date, path then) of each commit that changed ``rel``, newest first."""
    log = _git(root, "log", "--follow", "--format=%H %cs", "--name-only", "--", rel)
    found: list[tuple[str, str, str]] = []
    for line in (log or "").splitlines():
        if re.fullmatch(r"[0-9a-f]{40} \S+", line):
            commit, date = line.split()
            found.append((commit, date, rel))
        elif line and found:
            found[-1] = (*found[-1][:2], line)
    return found


def _stamped_index(root: Path, rel: str, sha: str) -> tuple[list[Version], int] | None:
    """The versions of ``rel`` up to the newest whose prose_sha is ``sha``."""
    versions: list[Version] = []
    for commit, date, then in _versions(root, rel):
        text = _git(root, "show", f"{commit}:{then}")
        versions.append(Version(commit, date, text or ""))
        if text is not None and text_sha(parse_source(text)) == sha:
            return versions, len(versions) - 1
    return None


def stamped_source(source: Path, sha: str) -> Version | None:
    """The committed version of ``source`` whose prose_sha is ``sha``, newest first."""
    where = repository(source)
    found = _stamped_index(*where, sha) if where else None
    return found[0][found[1]] if found else None


def before_change(pair: Pair, sha: str) -> tuple[str, str | None] | None:
    """The source's text whose prose_sha is ``sha`` and the translation's text
    from before the source's prose left it (None: there was no translation);
    None where git's history cannot tell."""
    where, there = repository(pair.source), repository(pair.translation)
    found = _stamped_index(*where, sha) if where else None
    if found is None or there is None:
        return None
    versions, index = found
    # The source changed in the commit after the stamped version, or since HEAD.
    before = f"{versions[index - 1].commit}^" if index else "HEAD"
    return versions[index].text, _git(there[0], "show", f"{before}:{there[1]}")


def edited_since_change(pair: Pair, sha: str) -> bool | None:
    """Whether the translation's prose changed since its source's prose left
    ``sha``; None where git's history cannot tell."""
    if (found := before_change(pair, sha)) is None:
        return None
    old = found[1]
    return old is None or text_sha(parse_source(old)) != prose_sha(pair.translation)
