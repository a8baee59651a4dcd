"""Compare two Sphinx HTML builds file by file: the tests use it, and
``python tests/build_diff.py A B [--measured]`` names the first differing file."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

# What a build writes that is not the site: Sphinx's bookkeeping, and the
# manifest that records when and as which build this one was made.
NOT_COMPARED = {".buildinfo", ".doctrees", "jaxguide-build.json"}
COMPARED_SUFFIXES = {".html", ".js", ".ipynb", ".txt", ".inv"}


def compared_files(root: Path) -> list[Path]:
    return sorted(
        path.relative_to(root)
        for path in root.rglob("*")
        if path.is_file()
        and path.suffix in COMPARED_SUFFIXES
        and not NOT_COMPARED & set(path.relative_to(root).parts)
    )


def first_difference(
    first: Path, second: Path, normalise: Callable[[str], str] = lambda text: text
) -> str | None:
    """The first file that differs between two builds (or exists in one only),
    described in a line; None when they are the same."""
    files_a, files_b = compared_files(first), compared_files(second)
    if files_a != files_b:
        only = sorted(set(files_a) ^ set(files_b))
        return f"{only[0]}: in one build only"
    for relative in files_a:
        bytes_a, bytes_b = (
            (first / relative).read_bytes(),
            (second / relative).read_bytes(),
        )
        if relative.suffix == ".inv":  # compressed: compare as it is
            if bytes_a != bytes_b:
                return f"{relative} differs"
            continue
        text_a = normalise(bytes_a.decode("utf-8"))
        text_b = normalise(bytes_b.decode("utf-8"))
        if text_a != text_b:
            at = next(
                (
                    i
                    for i, (x, y) in enumerate(zip(text_a, text_b, strict=False))
                    if x != y
                ),
                min(len(text_a), len(text_b)),
            )
            return (
                f"{relative} differs at character {at}: "
                f"{text_a[max(at - 40, 0) : at + 40]!r} against "
                f"{text_b[max(at - 40, 0) : at + 40]!r}"
            )
    return None


# Measured at build time, so different in every execution: the values glued
# into the prose, jaxguide's timing tables, and figures drawn from timings.
_MEASURED = (
    re.compile(r'(<span class="pasted-text">)[^<]*(</span>)'),
    re.compile(r"(<td[^>]*>)[^<]*\d[^<]*(</td>)"),
    re.compile(r'(src="[^"]*_images/)[0-9a-f]{16,}(\.\w+")'),
)


def without_measurements(text: str) -> str:
    for pattern in _MEASURED:
        text = pattern.sub(r"\1…\2", text)
    return text


def main(argv: list[str] | None = None) -> int:
    """``python tests/build_diff.py A B [--measured]``: exit 1 and name the
    first differing file; ``--measured`` ignores measured timings (two
    builds that each executed the pages)."""
    import argparse  # noqa: PLC0415 (only the command line needs it)

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--measured", action="store_true")
    args = parser.parse_args(argv)
    normalise = without_measurements if args.measured else (lambda text: text)
    difference = first_difference(args.first, args.second, normalise)
    print(difference or f"same: {len(compared_files(args.first))} files")
    return 1 if difference else 0


if __name__ == "__main__":
    raise SystemExit(main())
