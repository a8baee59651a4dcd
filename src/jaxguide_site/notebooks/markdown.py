"""A page's MyST prose as Markdown that Jupyter and Colab render.

Jupyter renders CommonMark with dollar math and nothing of MyST: a role such
as ``{func}`jax.grad``` or a ``(label)=`` target shows as written. Each cell's
source is parsed as the site parses it (myst-parser's markdown-it), and what
only MyST reads is rewritten in place, the rest left byte for byte:

- a cross-reference role becomes a link to the documentation (the target's
  URL from ``Conversion.link``: the site's own page, or an intersphinx
  project's), ``{math}`` becomes ``$...$``, a glue role its value
  (``Conversion.glue``) and any other role its content as code;
- ``(label)=`` targets, ``%`` comments and ``+++`` breaks are left out;
- an admonition becomes a block quote under its bold title, a glued figure
  an image (a data URI: Colab shows no cell attachments) over its caption,
  a definition list a bullet list, and any other directive its content.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from markdown_it.token import Token

from ..page_structure import SITE_EXTENSIONS, parser

PYTHON_ROLES = frozenset(
    {"func", "meth", "class", "mod", "data", "attr", "exc", "obj", "const", "type"}
)
CALLABLE_ROLES = frozenset({"func", "meth"})  # shown with "()", as Sphinx does
STANDARD_ROLES = frozenset({"ref", "doc", "term", "numref"})
GLUE_ROLES = frozenset({"glue", "glue:any", "glue:text", "glue:md"})
GLUE_DIRECTIVES = frozenset({"glue", "glue:any", "glue:figure", "glue:md"})
ADMONITIONS = frozenset(
    {
        "admonition",
        "attention",
        "caution",
        "danger",
        "error",
        "hint",
        "important",
        "note",
        "seealso",
        "tip",
        "warning",
    }
)
CODE_DIRECTIVES = {"code": "", "code-block": "", "sourcecode": "", "doctest": "pycon"}
# Directives with nothing a notebook can show: a GPU record is drawn by the
# site from docs/_data, a table of contents or a status table by the build.
DROPPED_DIRECTIVES = frozenset(
    {"gpu-record", "toctree", "nb-exec-table", "translation-status", "glossary-table"}
)
DROPPED_BLOCKS = frozenset({"myst_target", "myst_line_comment", "myst_block_break"})

# A code span (left alone) or a role, whichever starts first, as markdown-it
# reads them: a run of backticks closes at the next run of the same length.
INLINE = re.compile(
    r"(?P<escape>\\[\\`{])"
    r"|(?P<role>\{(?P<name>[A-Za-z0-9_+:-]+)\}(?P<ticks>`+)(?P<content>.+?)"
    r"(?<!`)(?P=ticks)(?!`))"
    r"|(?P<code>(?P<code_ticks>`+).+?(?<!`)(?P=code_ticks)(?!`))",
    re.DOTALL,
)
EXPLICIT_TITLE = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
LINE_PREFIX = re.compile(r"^[ \t>]*")
OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*)$")
AUTODOC = re.compile(r"^\.\. auto(?P<kind>\w+)::\s*(?P<name>\S+)")
AUTODOC_ROLES = {"module": "mod", "function": "func", "method": "meth"}


@dataclass(frozen=True)
class Link:
    url: str
    title: str | None = None  # a section's or page's title, for a role without one


def _no_link(_domain: str, _role: str, _target: str) -> Link | None:
    return None


def _no_value(_role: str, _key: str) -> str | None:
    return None


def _no_figure(_key: str) -> str | None:
    return None


def _no_report(_message: str) -> None:
    pass


@dataclass(frozen=True)
class Conversion:
    """What the conversion asks of the build (every part optional).

    ``link(domain, role, target)``: where ``target`` is documented (domain
    ``py`` or ``std``); ``glue(role, key)``: a glued value as Markdown;
    ``figure(key)``: a glued figure as a ``data:`` URI, or None where the
    notebook shows it already; ``titles``: admonition titles in the page's
    language; ``problem(message)``: hears of what could not be converted.
    """

    link: Callable[[str, str, str], Link | None] = _no_link
    glue: Callable[[str, str], str | None] = _no_value
    figure: Callable[[str], str | None] = _no_figure
    titles: dict[str, str] = field(default_factory=dict)
    problem: Callable[[str], None] = _no_report
    extensions: frozenset[str] = SITE_EXTENSIONS


def for_jupyter(markdown: str, conversion: Conversion) -> str:
    """``markdown`` (a cell's MyST source) as Markdown Jupyter renders."""
    tokens = parser(conversion.extensions).parse(markdown)
    lines = markdown.splitlines(keepends=True)
    replaced: dict[int, tuple[int, str]] = {}  # first line: (end, new text)
    inline: dict[tuple[int, int], int] = {}  # line range: roles parsed there
    for token in tokens:
        if token.map is None or _inside(token.map[0], replaced):
            continue
        start, end = token.map
        if token.type in DROPPED_BLOCKS:
            replaced[start] = (end, "")
        elif token.type == "math_block_label":  # $$ ... $$ (label)
            replaced[start] = (end, f"$$\n{token.content.strip()}\n$$\n")
        elif token.type in {"fence", "colon_fence"} and token.info.startswith("{"):
            text = _directive(token, conversion)
            replaced[start] = (end, _with_prefix(lines[start], text))
        elif token.type == "dl_open":
            text = for_jupyter(_bullet_list(lines[start:end]), conversion)
            replaced[start] = (end, text)
        elif token.type == "inline":
            span = (start, max(end, start + 1))
            roles = sum(child.type == "myst_role" for child in token.children or [])
            inline[span] = inline.get(span, 0) + roles
    for (start, end), expected in inline.items():
        if _inside(start, replaced):
            continue
        text, found = _inline("".join(lines[start:end]), conversion)
        if found != expected:
            conversion.problem(
                f"read {found} roles where MyST reads {expected}: {text[:60]!r}"
            )
        replaced[start] = (end, text)
    return _assembled(lines, replaced)


def _assembled(lines: list[str], replaced: dict[int, tuple[int, str]]) -> str:
    """``lines`` with the replaced ranges' new text; a block left out takes
    the blank line after it along where one is before it (or it was first)."""
    out: list[str] = []
    line = 0
    while line < len(lines):
        if line not in replaced:
            out.append(lines[line])
            line += 1
            continue
        line, text = replaced[line]
        out.append(text)
        blank_before = not out[:-1] or not out[-2].strip() or out[-2].endswith("\n\n")
        blank_after = line < len(lines) and not lines[line].strip()
        if not text and blank_before and blank_after:
            line += 1
    return "".join(out)


def _inside(line: int, replaced: dict[int, tuple[int, str]]) -> bool:
    return any(start <= line < end for start, (end, _) in replaced.items())


def _with_prefix(first_line: str, text: str) -> str:
    """``text`` at the indentation (or block quote) of a nested directive."""
    prefix = LINE_PREFIX.match(first_line)
    lead = prefix[0] if prefix else ""
    if not lead:
        return text
    return "".join(
        (lead + line if line.strip() else lead.rstrip() + "\n")
        for line in text.splitlines(keepends=True)
    )


def _inline(text: str, conversion: Conversion) -> tuple[str, int]:
    """``text`` with its roles converted, and how many there were."""
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        if match["role"] is None:
            return match[0]
        count += 1
        return _role(match["name"], " ".join(match["content"].split()), conversion)

    return INLINE.sub(replace, text), count


def _role(name: str, content: str, conversion: Conversion) -> str:
    if name in GLUE_ROLES:
        value = conversion.glue(name, content)
        return f"{{{name}}}`{content}`" if value is None else value
    if name == "math":
        return f"${content}$"
    if name in {"sub", "sup", "kbd"}:
        return f"<{name}>{content}</{name}>"
    domain, _, role = name.rpartition(":")
    if domain in {"", "py"} and role in PYTHON_ROLES:
        return _reference("py", role, content, conversion)
    if domain in {"", "std"} and role in STANDARD_ROLES:
        return _reference("std", role, content, conversion)
    return _code(content)


def _reference(domain: str, role: str, content: str, conversion: Conversion) -> str:
    """A cross-reference as Sphinx reads it: ``title <target>``, ``~`` for the
    last name only, ``!`` for no link, and ``()`` after a callable's name."""
    explicit = EXPLICIT_TITLE.match(content)
    target = explicit["target"] if explicit else content
    linked = not target.startswith("!")
    target = target.lstrip("!")
    title = explicit["title"] if explicit else target.lstrip("~")
    if domain == "py":
        if not explicit and target.startswith("~"):
            title = title.rpartition(".")[2]
        target = target.lstrip("~")
        if role in CALLABLE_ROLES and not explicit:
            target = target.removesuffix("()")
            title = title.removesuffix("()") + "()"
    link = conversion.link(domain, role, target) if linked else None
    if link is None:
        if linked:
            conversion.problem(f"no target for {{{role}}}`{content}`")
        return _code(title) if domain == "py" or not explicit else _escape(title)
    if domain == "std" and not explicit and link.title:
        title = link.title
    shown = _code(title) if domain == "py" else _escape(title)
    return f"[{shown}]({link.url})"


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in re.findall("`+", text)), default=0)


def _code(text: str) -> str:
    ticks = "`" * (_longest_backticks(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>])", r"\\\1", text)


def _options(content: str) -> tuple[dict[str, str], str]:
    """A directive's options (``:key: value`` lines or a YAML block) and body."""
    lines = content.splitlines()
    options: dict[str, str] = {}
    if lines and lines[0].strip() == "---":
        end = next((i for i, line in enumerate(lines[1:], 1) if line == "---"), 0)
        for line in lines[1:end]:
            key, _, value = line.partition(":")
            options[key.strip()] = value.strip()
        lines = lines[end + 1 :]
    else:
        while lines and (option := OPTION.match(lines[0])):
            options[option["key"]] = option["value"]
            lines = lines[1:]
    return options, "\n".join(lines).strip("\n")


def _directive(token: Token, conversion: Conversion) -> str:
    name, _, argument = token.info.removeprefix("{").partition("}")
    argument = argument.strip()
    options, body = _options(token.content)
    if name in DROPPED_DIRECTIVES:
        return ""
    if name in ADMONITIONS:
        return _admonition(name, argument, body, conversion)
    if name in GLUE_DIRECTIVES:
        return _glued(name, argument, options, body, conversion)
    if name == "math":
        return f"$$\n{body}\n$$\n"
    if name in CODE_DIRECTIVES:
        language = argument or CODE_DIRECTIVES[name]
        fence = "`" * max(3, _longest_backticks(body) + 1)
        return f"{fence}{language}\n{body}\n{fence}\n"
    if name == "eval-rst":
        return _rst(body, conversion)
    if name in {"figure", "image"}:
        return _figure(None, options, body, conversion) if name == "figure" else ""
    return for_jupyter(f"{argument}\n\n{body}".strip() + "\n", conversion)


def _admonition(name: str, argument: str, body: str, conversion: Conversion) -> str:
    if name == "admonition":
        title = argument
    else:
        title = conversion.titles.get(name, name.capitalize())
        body = f"{argument}\n{body}" if argument else body
    title_text, _ = _inline(title, conversion)
    text = for_jupyter(body + "\n", conversion).rstrip("\n")
    quoted = "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
    return f"> **{title_text}**\n>\n{quoted}\n"


def _glued(
    name: str, key: str, options: dict[str, str], body: str, conversion: Conversion
) -> str:
    if name == "glue:md":
        value = conversion.glue(name, key)
        return for_jupyter(value + "\n", conversion) if value else ""
    figure = conversion.figure(key)
    if name == "glue:figure" or figure is not None:
        return _figure(figure, options, body, conversion)
    value = conversion.glue(name, key)
    return f"{value}\n" if value else ""


def _figure(
    uri: str | None, options: dict[str, str], body: str, conversion: Conversion
) -> str:
    caption = for_jupyter(body + "\n", conversion) if body else ""
    if uri is None:
        return caption
    alt = options.get("alt", "").replace("]", r"\]").replace("[", r"\[")
    return f"![{alt}]({uri})\n\n{caption}"


def _rst(body: str, conversion: Conversion) -> str:
    """reStructuredText: an autodoc directive becomes a link to its API entry."""
    entries = []
    for line in body.splitlines():
        if match := AUTODOC.match(line):
            role = AUTODOC_ROLES.get(match["kind"], match["kind"])
            entries.append(_reference("py", role, match["name"], conversion))
    return "".join(f"- {entry}\n" for entry in entries)


def _bullet_list(lines: list[str]) -> str:
    """A definition list as a bullet list: Jupyter renders no ``: ...``."""
    prefix = LINE_PREFIX.match(lines[0])
    lead = len(prefix[0]) if prefix else 0
    items: list[str] = []
    term = ""
    for raw in lines:
        line = raw[lead:].rstrip("\n")
        if not line.strip():
            continue
        if line.startswith(":"):
            definition = line[1:].strip()
            items.append(f"- **{term}**: {definition}" if term else f"- {definition}")
        elif line[0] in " \t" and items:
            items[-1] += "\n  " + line.strip()
        else:
            term = line.strip()
    return "\n".join(items) + "\n\n"
