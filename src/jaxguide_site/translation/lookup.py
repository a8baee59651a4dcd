"""``glossary WORD``: a term of the glossary, looked up from the command line.

A word is matched, in either language, against each term's English, its
Korean and the variants it avoids (case and spaces aside: 배치축 is 배치 축);
each match is shown with its Korean, its variants to avoid, both definitions
and the page that teaches it. Without a match, the terms holding the word as
a whole word are shown; without those, the closest terms are named.
"""

from __future__ import annotations

import re
from difflib import get_close_matches
from pathlib import Path

from ..languages import LANGUAGES
from .glossary import Term, load_glossary


def _key(text: str) -> str:
    return "".join(text.casefold().split())


def _names(term: Term) -> list[str]:
    return [term.en, term.ko, *term.avoid]


def _shown(term: Term, docs: Path) -> list[str]:
    lines = [f"{term.en} → {term.ko}"]
    if term.avoid:
        lines.append(f"  avoid: {', '.join(term.avoid)}")
    lines += [f"  en: {term.en_def}", f"  ko: {term.ko_def}"]
    if term.page:
        taught = [(docs / lang / term.page).as_posix() + ".md" for lang in LANGUAGES]
        lines.append(f"  taught in: {', '.join(taught)}")
    return lines


def lookup(word: str, docs: Path) -> list[str]:
    """What the glossary of ``docs`` says about ``word``; :class:`ValueError`
    names the closest terms where it has nothing."""
    path = docs / "_data" / "glossary.toml"
    glossary = load_glossary(path)
    key = _key(word)
    if not key:
        msg = "glossary: give a term to look up, e.g. 'gradient' or '기울기'"
        raise ValueError(msg)
    lines: list[str] = []
    for term in glossary:
        if key in {_key(term.en), _key(term.ko)}:
            lines += _shown(term, docs)
        elif variant := next((v for v in term.avoid if _key(v) == key), None):
            lines.append(
                f"{variant!r} is a variant the glossary avoids: its Korean for "
                f"{term.en!r} is {term.ko!r}"
            )
            lines += _shown(term, docs)
    if lines:
        return lines
    whole = re.compile(rf"(?<!\w){re.escape(' '.join(word.casefold().split()))}(?!\w)")
    holding = [
        t for t in glossary if any(whole.search(n.casefold()) for n in _names(t))
    ]
    if holding:
        lines.append(f"No glossary term is {word!r}; the terms with it:")
        return lines + [line for term in holding for line in _shown(term, docs)]
    names = {_key(name): term for term in glossary for name in _names(term)}
    close = get_close_matches(key, names, n=3, cutoff=0.6)
    terms = list(dict.fromkeys(names[name] for name in close))
    shown = [f"{t.en} ({t.ko})" for t in terms]
    where = f"no term of {path.as_posix()} is or contains {word!r}"
    if shown:
        either = [", ".join(shown[:-1]), shown[-1]] if shown[1:] else shown
        msg = f"{where}: did you mean {' or '.join(either)}?"
    else:
        pages = [f"{(docs / lang / 'glossary').as_posix()}.md" for lang in LANGUAGES]
        msg = f"{where}: the glossary pages list them all: {', '.join(pages)}"
    raise ValueError(msg)
