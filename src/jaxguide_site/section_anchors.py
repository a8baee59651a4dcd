"""Section anchors of a translation: those of the page it translates.

Docutils makes a section's anchor from its title's ASCII letters, so a Korean
title gets a numbered one (``#id3``), which changes whenever a section is
added before it, or a fragment of its code (``#jax-jit``). This transform gives
each section of a page the anchors of the corresponding section of the same
page in ``jaxguide_anchor_language`` (English): sections correspond in order,
as the translation checker requires of their headings. A link such as
``jit.html#how-much-faster`` then opens the same section in both languages.

Explicit labels, ``(jit-cache)=``, stay as they are (both languages have the
same ones), and so do MyST's slugs of the translated titles
(``[](#얼마나-빨라질까)``): the slug's links follow the section to its new
anchor. A page whose sections do not pair up (a translation being written)
keeps the anchors docutils gave it.

The source page's anchors are computed from its Markdown as docutils and MyST
compute them in its own build (markdown-it's tokens, read once by
:mod:`.page_structure`; docutils' ``make_id``; MyST's slugs), without running
its directives.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from myst_parser.config.main import MdParserConfig
from myst_parser.mdit_to_docutils.base import compute_unique_slug
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util.nodes import clean_astext
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE
from .page_structure import heading_title, read


def page_title(text: str, config: MdParserConfig) -> str | None:
    """The title of the MyST page ``text`` (its first heading) as docutils'
    ``astext`` gives it, as Sphinx names the page; None without a heading."""
    headings = read(text, frozenset(config.enable_extensions)).headings
    return headings[0].text if headings else None


def _id(name: str) -> str:
    return str(nodes.make_id(nodes.fully_normalize_name(name)))


def source_anchors(text: str, config: MdParserConfig) -> list[list[str]]:
    """Each section's ids in the build of the MyST page ``text``, in order,
    less labels and numbered ids: the id docutils makes from the title, unless
    an id before it is the same, then MyST's slug of the title (headings down
    to ``config.heading_anchors``), unless any other id is the same."""
    tree = read(text, frozenset(config.enable_extensions)).tree
    taken: set[str] = set()  # the ids docutils gives, in its order
    slugs: set[str] = set()
    sections: list[tuple[str, str]] = []
    for node in tree.walk():
        if node.type == "myst_target":
            taken.add(_id(node.content))
        elif node.type == "heading":
            implicit = _id(heading_title(node))
            implicit = "" if implicit in taken else implicit
            taken.add(implicit)
            slug = ""
            if int(node.tag[1]) <= config.heading_anchors:
                slug = compute_unique_slug(node, slugs, config.heading_slug_func)
                slugs.add(slug)
            sections.append((implicit, slug))
    # MyST adds the slugs last, each where no other element has that id.
    return [
        [name for name in (implicit, "" if slug in taken else slug) if name]
        for implicit, slug in sections
    ]


class SourceSectionIds(SphinxTransform):
    """Give each section of a translated page its source page's anchors.

    Runs after docutils and MyST have ordered the ids (labels first, priority
    262) and before MyST adds the slugs of the translated titles (700)."""

    default_priority = 690

    def apply(self, **_kwargs: object) -> None:
        source = self._source_page()
        if source is None:
            return
        self.env.note_dependency(str(source))
        config = MdParserConfig(
            enable_extensions=set(self.config.myst_enable_extensions),
            heading_anchors=self.config.myst_heading_anchors,
        )
        anchors = source_anchors(source.read_text(encoding="utf-8"), config)
        sections = list(self.document.findall(nodes.section))
        if len(sections) != len(anchors):
            return
        renamed: dict[str, str] = {}
        for section, ids in zip(sections, anchors, strict=True):
            renamed |= self._set_ids(section, ids)
        self._follow(renamed)

    def _source_page(self) -> Path | None:
        """The page this page translates, if it is a translated MyST page."""
        language = self.config.jaxguide_anchor_language
        page = Path(self.env.doc2path(self.env.docname))
        srcdir = Path(self.env.srcdir)
        if self.config.language == language or page.suffix != ".md":
            return None
        source = srcdir.parent / language / page.relative_to(srcdir)
        return source if source.is_file() else None

    def _set_ids(self, section: nodes.section, anchors: list[str]) -> dict[str, str]:
        """Replace the ids docutils made from the title by ``anchors``; the
        replaced ids, each with the section's new first id."""
        document = self.document
        numbered = re.compile(rf"{re.escape(document.settings.auto_id_prefix)}\d+")
        explicit = {
            document.nameids[name]
            for name in section["names"]
            if document.nametypes.get(name) and document.nameids.get(name)
        }
        from_title = _id(clean_astext(section[0]))
        replaced = [
            name
            for name in section["ids"]
            if name not in explicit and (name == from_title or numbered.fullmatch(name))
        ]
        kept = [name for name in section["ids"] if name not in replaced]
        added = [
            name
            for name in anchors
            if name not in kept and document.ids.get(name, section) is section
        ]
        if not kept + added:
            return {}
        section["ids"] = kept + added
        for name in replaced:
            del document.ids[name]
        for name in section["ids"]:
            document.ids[name] = section
        return dict.fromkeys(replaced, section["ids"][0])

    def _follow(self, renamed: dict[str, str]) -> None:
        """Point the names and MyST's slugs of the replaced ids to the new ones."""
        document = self.document
        for name, target in document.nameids.items():
            if target in renamed:
                document.nameids[name] = renamed[target]
        slugs = getattr(document, "myst_slugs", {})
        for slug, (line, target, title) in slugs.items():
            if target in renamed:
                slugs[slug] = (line, renamed[target], title)


def setup(app: Sphinx) -> ExtensionMetadata:
    # The language whose pages the others translate, and whose anchors they take.
    app.add_config_value("jaxguide_anchor_language", "en", "env", str)
    app.add_transform(SourceSectionIds)
    return PARALLEL_SAFE
